"""dm_control's reference-pose (mocap tracking) tasks, mocap loader and walker
initializers against dm-control 1.0.50, on the small clip file dm_control ships
(`locomotion/mocap/test_trajectories.h5`, read from the reference venv).

What agrees: the clip data as loaded, trajectory windows and modifiers, clip
collections and datasets, the tasks' start sampling from the seed, observation
names, shapes and order, the pose at reset (features, tracking error), every
reference observation there, those in the CMU humanoid's egocentric frame (the
CMU pelvis frame on both sides) included, and the reward, error and reward
channels after two physics steps.
"""

from __future__ import annotations

import os

import pytest

from tests.differential import dm_control_tests, harness


@pytest.fixture(scope="module")
def clip_file() -> str:
    reference = harness.reference_python()
    if reference is None:
        pytest.skip("no dm-control 1.0.50 reference venv")
    path = os.path.join(
        dm_control_tests.dm_control_root(reference), "locomotion", "mocap", "test_trajectories.h5"
    )
    if not os.path.exists(path):
        pytest.skip(f"dm_control's clip file is missing: {path}")
    return path


_SETUP = """
import numpy as np
from dm_control import composer
from dm_control.locomotion import arenas, walkers
from dm_control.locomotion.tasks.reference_pose import tracking, types, utils
PATH = {path!r}
IDS = ("cmuv2019_001", "cmuv2019_002")

def make(**kwargs):
    options = dict(walker=walkers.CMUHumanoidPositionControlled, arena=arenas.Floor(),
                   ref_path=PATH, dataset=types.ClipCollection(ids=IDS),
                   ref_steps=(1, 2, 3), min_steps=1, reward_type="comic")
    options.update(kwargs)
    return tracking.MultiClipMocapTracking(**options)
"""

DATA_PROGRAM = """
from dm_control.locomotion.mocap import loader
from dm_control.locomotion.tasks.reference_pose import cmu_subsets, datasets

check("bad_starts", types.ClipCollection, ids=IDS, start_steps=(0,))
check("bad_weights", types.ClipCollection, ids=IDS, weights=(1, -1))
collection = types.ClipCollection(ids=IDS, end_steps=(5, 6))
record("collection", [collection.start_steps, collection.end_steps, collection.weights])
record("datasets", sorted(datasets.DATASETS))
for name, subset in sorted(cmu_subsets.CMU_SUBSETS_DICT.items()):
    record(f"subset/{name}", [list(subset.ids), subset.start_steps, subset.end_steps,
                              subset.weights])
record("subsets", [len(cmu_subsets.ALL.ids), cmu_subsets.GET_UP.ids[0]])

reader = loader.HDF5TrajectoryLoader(PATH)
record("keys", list(reader.keys()))
clip = reader.get_trajectory("cmuv2019_001")
features = clip.as_dict()
record("feature_keys", list(features))
for key, value in features.items():
    record(f"feature/{key}", value)
record("clip", [clip.identifier, clip.dt, clip.start_time, clip.end_time, clip.duration,
                clip.num_steps, clip.start_step, clip.end_step, clip.clip_end_time])
window = reader.get_trajectory("cmuv2019_002", start_step=2, end_step=6)
record("window", [window.start_step, window.end_step, window.num_steps, window.duration])
record("window_joints", window.as_dict()["walker/joints"])
last = window.get_timestep_data(window.end_time)
record("last_velocity", list(last.walkers[0].velocity))
record("mid_position", list(window.get_timestep_data(0.1).walkers[0].position))
check("bad_time", window.get_timestep_data, 0.01)
check("both", reader.get_trajectory, "cmuv2019_001", start_time=0.1, start_step=2)
raised = loader.HDF5TrajectoryLoader(PATH, proto_modifier=loader.ZOffsetter(0.5))
record("z_offset", raised.get_trajectory("cmuv2019_001").as_dict()["walker/position"])
fixed = loader.HDF5TrajectoryLoader(PATH, proto_modifier=[loader.AppendageFixer()])
record("appendages", fixed.get_trajectory("cmuv2019_001").as_dict()["walker/appendages"])
limited = loader.HDF5TrajectoryLoader(PATH, proto_modifier=loader.PropMassLimiter(1.0))
record("prop_mass", limited.get_trajectory("cmuv2019_001")._proto.props[0].mass)
modified = clip.get_modified_trajectory(loader.ZOffsetter(0.1))
record("modified", modified.as_dict()["walker/position"])

# The clip's walker description applied to a walker (no rescaling in these clips;
# five marker sites at positions drawn from NumPy's global generator).
walker = walkers.CMUHumanoidPositionControlled()
np.random.seed(5)
clip.configure_walkers(walker)
record("marker_sites", walker.list_of_site_names)
record("marker_positions",
       [list(walker.mjcf_model.find("site", name).pos) for name in walker.list_of_site_names])
arena = arenas.Floor()
arena.add_free_entity(walker)
from dm_control import mjcf
physics = mjcf.Physics.from_mjcf_model(arena.mjcf_model)
with physics.reset_context():
    clip.set_walker_poses(physics, [walker])
record("posed_bodies", physics.bind(walker.mocap_tracking_bodies).xpos)
props = clip.create_props()
record("props", [[p.mjcf_model.model, list(p.geom.size), float(p.geom.mass), list(p.geom.rgba)]
                 for p in props])
"""

TASK_PROGRAM = """
from dm_control.locomotion.tasks.reference_pose import tracking as tracking_module
record("timestep", tracking_module.DEFAULT_PHYSICS_TIMESTEP)
task = make()
record("name", task.name)
record("starts", [list(s) for s in task._possible_starts])
record("probabilities", task._start_probabilities)
env = composer.Environment(task=task, random_state=3)
spec = env.action_spec()
record("action_spec", [spec.shape, spec.minimum, spec.maximum, spec.name.split("\\t")[:3]])
record("observation_spec", [[k, list(v.shape)] for k, v in env.observation_spec().items()])
FRAME = ("reference_rel_bodies_pos_local", "reference_rel_root_pos_local", "appendages_pos",
         "end_effectors_pos", "world_zaxis", "body_height", "sensors_", "joints_vel",
         "actuator_activation")
for episode in range(4):
    timestep = env.reset()
    record(f"{episode}/clip", [task._current_clip_index, int(task._time_step),
                               task._current_clip.identifier])
    record(f"{episode}/error", task._termination_error)
    for key, value in timestep.observation.items():
        if not any(part in key for part in FRAME):
            record(f"{episode}/obs/{key}", value)
    features = utils.get_features(env.physics, task._walker)
    for key, value in features.items():
        record(f"{episode}/features/{key}", value)
    # The egocentric observations, turned back into the world frame by the root
    # body's frame (test_tracking_egocentric_observations_match_dm_control compares
    # them in that frame).
    root = env.physics.bind(task._walker.root_body).xmat.reshape(3, 3)
    for name in ("get_reference_rel_bodies_pos_local", "get_reference_rel_root_pos_local"):
        local = np.asarray(getattr(task, name)(env.physics)).reshape(-1, 3)
        record(f"{episode}/{name}", local @ root.T)
    # The step's bookkeeping without the physics step (whose dynamics differ, see
    # test_tracking_after_a_step_matches_dm_control): the walker still at the
    # clip's pose, the clip one step on.
    task.after_step(env.physics, np.random.RandomState(0))
    record(f"{episode}/after_step", [int(task._time_step), task._termination_error,
                                     task._end_mocap])
    record(f"{episode}/reward", task.get_reward(env.physics))
    record(f"{episode}/channels", dict(task.last_reward_channels))
    record(f"{episode}/outcome", [task.get_discount(env.physics),
                                  task.should_terminate_episode(env.physics)])
    record(f"{episode}/time_in_clip", task.get_normalized_time_in_clip(env.physics))
    for key, value in task.get_all_reference_observations(env.physics).items():
        if "local" not in key:
            record(f"{episode}/after_step/{key}", value)
    for name in ("get_veloc_control", "get_gyro_control", "get_joints_vel_control"):
        record(f"{episode}/after_step/{name}", getattr(task, name)(env.physics))
qpos, qvel = utils.get_qpos_qvel_from_features(features)
record("qpos_qvel", [qpos, qvel])

def without_props(proto):
    del proto.props[:]
    for timestep in proto.timesteps:
        del timestep.props[:]

# dm_control's PlaybackTask drops the props' features of a clip with props, and
# then fails reading them: both sides raise the same error.
with_props = tracking.PlaybackTask(walker=walkers.CMUHumanoidPositionControlled,
                                   arena=arenas.Floor(), ref_path=PATH,
                                   dataset=types.ClipCollection(ids=IDS))
check("playback_with_props", composer.Environment(task=with_props).reset)
playback = tracking.PlaybackTask(walker=walkers.CMUHumanoidPositionControlled,
                                 arena=arenas.Floor(), ref_path=PATH,
                                 dataset=types.ClipCollection(ids=IDS),
                                 proto_modifier=without_props)
record("playback_name", playback.name)
playback_env = composer.Environment(task=playback, random_state=0)
for episode in range(3):
    playback_env.reset()
    record(f"playback/{episode}", [playback._current_clip_index, playback._last_step])
step = playback_env.step(np.zeros(playback_env.action_spec().shape))
record("playback/step", [step.reward, playback._time_step,
                         list(playback._walker.observables.joints_pos(playback_env.physics))])
check("bad_dataset", tracking.PlaybackTask, walker=walkers.CMUHumanoidPositionControlled,
      arena=arenas.Floor(), ref_path=PATH, dataset="no_such_dataset")
"""

PROPS_PROGRAM = """
from dm_control.locomotion.mocap import props
task = make(ref_steps=(0, 1), disable_props=False, prop_factory=props.Prop,
            ghost_offset=np.array((0, 0, 0.1)))
env = composer.Environment(task=task, random_state=1)
timestep = env.reset()
for key in ("reference_props_pos_global", "reference_props_quat_global",
            "cmuv2019_box/position", "cmuv2019_box/orientation"):
    record(key, timestep.observation[key])
record("ghost_props", len(task._ghost_props))
record("prop_error", task._prop_termination_error)
ghost_pos, ghost_quat = task._ghost_props[0].get_pose(env.physics)
record("ghost_prop", [ghost_pos, ghost_quat])
features = utils.get_features(env.physics, task._ghost)
record("ghost_bodies", features["body_positions"])
plain = make(ref_steps=(0,))
record("same_actions", composer.Environment(task=plain).action_spec().shape == env.action_spec().shape)
"""

INITIALIZERS_PROGRAM = """
from dm_control import mjcf
from dm_control.locomotion.walkers import initializers
from dm_control.locomotion.walkers.initializers import mocap
walker = walkers.Ant()
arena = arenas.Floor()
arena.add_free_entity(walker)
physics = mjcf.Physics.from_mjcf_model(arena.mjcf_model)
rng = np.random.RandomState(4)
walker.set_pose(physics, position=(1.0, 2.0, 3.0))
initializers.NoOpInitializer().initialize_pose(physics, walker, rng)
record("noop", physics.data.qpos)
physics.data.qpos[7:] = 0.3
physics.data.qvel[:] = 1.0
initializers.UprightInitializer().initialize_pose(physics, walker, rng)
record("upright", [physics.data.qpos, physics.data.qvel])
np.random.seed(0)
sampled = initializers.RandomlySampledInitializer([initializers.NoOpInitializer()] * 3)
sampled.initialize_pose(physics, walker, rng)
record("sampled", [sampled.num_initializers, np.random.randint(100)])
check("abstract", initializers.WalkerInitializer)
cmu = walkers.CMUHumanoidPositionControlled()
arena = arenas.Floor()
arena.add_free_entity(cmu)
physics = mjcf.Physics.from_mjcf_model(arena.mjcf_model)
start = mocap.CMUMocapInitializer.__new__(mocap.CMUMocapInitializer)
from dm_control.locomotion.mocap import loader
start._loader = loader.HDF5TrajectoryLoader(PATH)
start._trajectory = start._loader.get_trajectory("cmuv2019_001")
rng = np.random.RandomState(7)
start.initialize_pose(physics, cmu, rng)
record("mocap_joints", physics.bind(cmu.mocap_joints).qpos)
record("mocap_joint_velocities", physics.bind(cmu.mocap_joints).qvel)
record("mocap_draw", rng.randint(1000))
"""

PLAYBACK_ENV_PROGRAM = """
from dm_control.locomotion.mocap import cmu_mocap_data
from dm_control.locomotion.tasks.reference_pose import datasets, mocap_playback
# Patched for this program only (the workers outlive it): the CMU 2020 data is a
# 480 MB download, so both sides read the test clips, named as the collection the
# playback shows.
saved = (cmu_mocap_data.get_path_for_cmu, datasets.DATASETS["run_jump_tiny"],
         walkers.CMUHumanoidPositionControlledV2020)
try:
    cmu_mocap_data.get_path_for_cmu = lambda version="2020": PATH
    datasets.DATASETS["run_jump_tiny"] = types.ClipCollection(ids=IDS)
    check("v2020_body", mocap_playback.mocap_playback_env, random_state=0)
    # The test clips were fitted to the V2019 body: play them on it.
    walkers.CMUHumanoidPositionControlledV2020 = walkers.CMUHumanoidPositionControlled
    env = mocap_playback.mocap_playback_env(random_state=0)
    record("task", [env.task.name, env.task.control_timestep, env.task.physics_timestep])
    record("spec", [[key, list(value.shape)] for key, value in env.observation_spec().items()])
    record("actions", env.action_spec().shape)
    # dm_control's PlaybackTask cannot reset on clips with props (see TASK_PROGRAM).
    check("reset", env.reset)
finally:
    (cmu_mocap_data.get_path_for_cmu, datasets.DATASETS["run_jump_tiny"],
     walkers.CMUHumanoidPositionControlledV2020) = saved
"""

STEP_PROGRAM = """
task = make()
env = composer.Environment(task=task, random_state=3)
env.reset()
for step in range(2):
    timestep = env.step(np.zeros(env.action_spec().shape))
    record(f"{step}/reward", timestep.reward)
    record(f"{step}/error", task._termination_error)
    record(f"{step}/channels", dict(task.last_reward_channels))
"""

FRAME_PROGRAM = """
task = make()
env = composer.Environment(task=task, random_state=3)
timestep = env.reset()
for key in ("walker/reference_rel_bodies_pos_local", "walker/reference_rel_root_pos_local",
            "walker/appendages_pos"):
    record(key, timestep.observation[key])
"""


def _program(body: str, path: str) -> str:
    return _SETUP.format(path=path) + body


@pytest.mark.dm_control_api(
    "locomotion.tasks.reference_pose.types.ClipCollection",
    "locomotion.tasks.reference_pose.cmu_subsets.ALL",
    "locomotion.tasks.reference_pose.cmu_subsets.CMU_SUBSETS_DICT",
    "locomotion.tasks.reference_pose.cmu_subsets.GET_UP",
    "locomotion.tasks.reference_pose.cmu_subsets.LOCOMOTION_SMALL",
    "locomotion.tasks.reference_pose.cmu_subsets.RUN_JUMP_TINY",
    "locomotion.tasks.reference_pose.cmu_subsets.WALK_TINY",
    "locomotion.tasks.reference_pose.datasets.DATASETS",
)
def test_mocap_data_matches_dm_control(differential, clip_file):
    differential.assert_same(_program(DATA_PROGRAM, clip_file), "reference_pose_data")


@pytest.mark.dm_control_api(
    "locomotion.tasks.reference_pose.tracking.DEFAULT_PHYSICS_TIMESTEP",
    "locomotion.tasks.reference_pose.tracking.MultiClipMocapTracking",
    "locomotion.tasks.reference_pose.tracking.MultiClipMocapTracking.name",
    "locomotion.tasks.reference_pose.tracking.MultiClipMocapTracking.after_step",
    "locomotion.tasks.reference_pose.tracking.ReferencePosesTask.get_reward",
    "locomotion.tasks.reference_pose.tracking.MultiClipMocapTracking.get_normalized_time_in_clip",
    "locomotion.tasks.reference_pose.tracking.PlaybackTask",
    "locomotion.tasks.reference_pose.tracking.PlaybackTask.after_step",
    "locomotion.tasks.reference_pose.tracking.PlaybackTask.get_reward",
    "locomotion.tasks.reference_pose.tracking.PlaybackTask.name",
    "locomotion.tasks.reference_pose.tracking.ReferencePosesTask",
    "locomotion.tasks.reference_pose.tracking.ReferencePosesTask.action_spec",
    "locomotion.tasks.reference_pose.tracking.ReferencePosesTask.after_compile",
    "locomotion.tasks.reference_pose.tracking.ReferencePosesTask.after_step",
    "locomotion.tasks.reference_pose.tracking.ReferencePosesTask.before_step",
    "locomotion.tasks.reference_pose.tracking.ReferencePosesTask.get_all_reference_observations",
    "locomotion.tasks.reference_pose.tracking.ReferencePosesTask.get_clip_id",
    "locomotion.tasks.reference_pose.tracking.ReferencePosesTask.get_discount",
    "locomotion.tasks.reference_pose.tracking.ReferencePosesTask.get_gyro_control",
    "locomotion.tasks.reference_pose.tracking.ReferencePosesTask.get_joints_vel_control",
    "locomotion.tasks.reference_pose.tracking.ReferencePosesTask.get_reference_appendages_pos",
    "locomotion.tasks.reference_pose.tracking.ReferencePosesTask.get_reference_ego_bodies_quats",
    "locomotion.tasks.reference_pose.tracking.ReferencePosesTask.get_reference_rel_bodies_pos_global",
    "locomotion.tasks.reference_pose.tracking.ReferencePosesTask.get_reference_rel_bodies_quats",
    "locomotion.tasks.reference_pose.tracking.ReferencePosesTask.get_reference_rel_joints",
    "locomotion.tasks.reference_pose.tracking.ReferencePosesTask.get_reference_rel_bodies_pos_local",
    "locomotion.tasks.reference_pose.tracking.ReferencePosesTask.get_reference_rel_root_pos_local",
    "locomotion.tasks.reference_pose.tracking.ReferencePosesTask.get_reference_rel_root_quat",
    "locomotion.tasks.reference_pose.tracking.ReferencePosesTask.get_veloc_control",
    "locomotion.tasks.reference_pose.tracking.ReferencePosesTask.initialize_episode",
    "locomotion.tasks.reference_pose.tracking.ReferencePosesTask.initialize_episode_mjcf",
    "locomotion.tasks.reference_pose.tracking.ReferencePosesTask.name",
    "locomotion.tasks.reference_pose.tracking.ReferencePosesTask.root_entity",
    "locomotion.tasks.reference_pose.tracking.ReferencePosesTask.should_terminate_episode",
    "locomotion.tasks.reference_pose.utils.add_walker",
    "locomotion.tasks.reference_pose.utils.get_features",
    "locomotion.tasks.reference_pose.utils.get_qpos_qvel_from_features",
    "locomotion.tasks.reference_pose.utils.set_walker",
    "locomotion.tasks.reference_pose.utils.set_walker_from_features",
)
def test_tracking_task_at_reset_matches_dm_control(differential, clip_file):
    differential.assert_same(
        _program(TASK_PROGRAM, clip_file),
        "reference_pose_task",
        rtol=1e-9,
        atol=1e-9,
        # The walkers' centres of mass differ by ~2e-7 m (the CMU body's mass
        # distribution on MuJoCo 4 against 3.17); the comic reward reads it.
        tolerances=(("center_of_mass|reward|channels", 1e-5, 1e-6),),
    )


@pytest.mark.dm_control_api(
    "locomotion.tasks.reference_pose.tracking.ReferencePosesTask.get_reference_props_pos_global",
    "locomotion.tasks.reference_pose.tracking.ReferencePosesTask.get_reference_props_quat_global",
    "locomotion.tasks.reference_pose.utils.set_props_from_features",
)
def test_tracking_props_and_ghost_match_dm_control(differential, clip_file):
    differential.assert_same(
        _program(PROPS_PROGRAM, clip_file), "reference_pose_props", rtol=1e-9, atol=1e-9
    )


@pytest.mark.dm_control_api(
    "locomotion.walkers.initializers.WalkerInitializer",
    "locomotion.walkers.initializers.WalkerInitializer.initialize_pose",
    "locomotion.walkers.initializers.UprightInitializer",
    "locomotion.walkers.initializers.UprightInitializer.initialize_pose",
    "locomotion.walkers.initializers.RandomlySampledInitializer",
    "locomotion.walkers.initializers.RandomlySampledInitializer.initialize_pose",
    "locomotion.walkers.initializers.NoOpInitializer",
    "locomotion.walkers.initializers.NoOpInitializer.initialize_pose",
    "locomotion.walkers.initializers.mocap.CMUMocapInitializer",
    "locomotion.walkers.initializers.mocap.CMUMocapInitializer.initialize_pose",
)
def test_walker_initializers_match_dm_control(differential, clip_file):
    differential.assert_same(
        _program(INITIALIZERS_PROGRAM, clip_file), "walker_initializers", rtol=1e-9, atol=1e-9
    )


@pytest.mark.dm_control_api(
    "locomotion.tasks.reference_pose.mocap_playback.mocap_playback_env",
)
def test_mocap_playback_env_matches_dm_control(differential, clip_file):
    differential.assert_same(_program(PLAYBACK_ENV_PROGRAM, clip_file), "mocap_playback_env")


@pytest.mark.slow
def test_tracking_after_a_step_matches_dm_control(differential, clip_file):
    differential.assert_same(
        _program(STEP_PROGRAM, clip_file), "reference_pose_step", rtol=1e-6, atol=1e-6
    )


@pytest.mark.slow
def test_tracking_egocentric_observations_match_dm_control(differential, clip_file):
    differential.assert_same(
        _program(FRAME_PROGRAM, clip_file), "reference_pose_frame", rtol=1e-9, atol=1e-9
    )
