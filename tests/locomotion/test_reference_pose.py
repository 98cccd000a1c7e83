"""The mocap loader, trajectories and tracking tasks on a clip written here.

The clip is made by posing this project's CMU humanoid (V2019 body) and reading its
features back (`utils.get_features`), then written in dm_control's HDF5 layout; so
loading it, posing the walker from it and tracking it must reproduce those
features exactly. The comparison with dm_control itself is
tests/differential/test_reference_pose.py.
"""

from __future__ import annotations

import numpy as np
import pytest

h5py = pytest.importorskip("h5py")

from composer_tasks import composer  # noqa: E402
from composer_tasks.arenas import Floor  # noqa: E402
from composer_tasks.mjcf import Physics  # noqa: E402
from composer_tasks.mocap import loader, records  # noqa: E402
from composer_tasks.mocap import walkers as mocap_walkers  # noqa: E402
from composer_tasks.mocap import props  # noqa: E402
from composer_tasks.tasks.reference_pose import datasets, rewards, tracking, types, utils  # noqa: E402
from composer_tasks.walkers import Ant, CMUHumanoidPositionControlled  # noqa: E402
from composer_tasks.walkers import initializers  # noqa: E402
from composer_tasks.walkers.initializers import mocap as mocap_initializers  # noqa: E402

_STEPS = 8
_DT = 0.03


def _posed_features(count: int, seed: int) -> list[dict]:
    """Features of the walker at `count` random poses near standing."""
    arena = Floor()
    walker = utils.add_walker(CMUHumanoidPositionControlled, arena)
    physics = Physics.from_mjcf_model(arena.mjcf_model)
    rng = np.random.RandomState(seed)
    result = []
    for step in range(count):
        angle = 0.1 * step
        quaternion = np.array([np.cos(angle / 2), 0.0, 0.0, np.sin(angle / 2)])
        mocap_walkers.set_root_pose(physics, walker, [0.1 * step, 0.0, 1.0], quaternion)
        joints = physics.bind(walker.mocap_joints)
        joints.qpos = rng.uniform(-0.1, 0.1, size=len(walker.mocap_joints))
        joints.qvel = rng.uniform(-1, 1, size=len(walker.mocap_joints))
        mocap_walkers.set_root_velocity(physics, walker, rng.normal(size=3), rng.normal(size=3))
        physics.forward()
        result.append(utils.get_features(physics, walker))
    return result


def _write_clip(group: h5py.Group, features: list[dict], with_prop: bool) -> None:
    group.attrs.update(dt=_DT, num_steps=len(features), year=2026, month=11, day=27)
    walker = group.create_group("walkers/walker_0")
    walker.attrs.update(name=np.bytes_(b"test_CMU"), model=records.Walker.CMU_2019, mass=0.0)
    walker.create_group("scaling")
    marker = walker.create_group("markers/marker_0")
    marker.attrs.update(name=np.bytes_(b"_left_knee"), parent=np.bytes_(b"ltibia"))
    for name in records.field_names(records.WalkerPose):
        column = np.stack([np.ravel(step[name]) for step in features], axis=1)
        walker.create_dataset(name, data=column)
    props = group.create_group("props")
    if with_prop:
        prop = props.create_group("prop_0")
        prop.attrs.update(
            name=np.bytes_(b"box"), shape=records.Prop.BOX, size=[0.1, 0.1, 0.1], mass=2.0
        )
        positions = np.array([[1.0, 0.5, 0.1 + 0.01 * t] for t in range(len(features))]).T
        prop.create_dataset("position", data=positions)
        prop.create_dataset("quaternion", data=np.tile([[1.0], [0], [0], [0]], len(features)))
        prop.create_dataset("velocity", data=np.zeros((3, len(features))))
        prop.create_dataset("angular_velocity", data=np.zeros((3, len(features))))


@pytest.fixture(scope="module")
def clip_path(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, list[dict]]:
    features = _posed_features(_STEPS, seed=0)
    path = str(tmp_path_factory.mktemp("mocap") / "clips.h5")
    with h5py.File(path, "w") as handle:
        _write_clip(handle.create_group("clip_a"), features, with_prop=False)
        _write_clip(handle.create_group("clip_b"), features[::-1], with_prop=True)
    return path, features


def test_loader_reads_what_was_written(clip_path):
    path, features = clip_path
    reader = loader.HDF5TrajectoryLoader(path)
    assert reader.keys() == ("clip_a", "clip_b")
    clip = reader.get_trajectory("clip_a", zero_out_velocities=False)
    assert clip.identifier == "clip_a" and clip.dt == _DT and clip.num_steps == _STEPS
    data = clip.as_dict()
    np.testing.assert_array_equal(data["walker/joints"][3], features[3]["joints"])
    assert data["walker/body_positions"].shape == (_STEPS, 30, 3)
    assert data["walker/body_quaternions"].shape == (_STEPS, 30, 4)
    assert not data["walker/joints"].flags.writeable
    proto = clip._proto
    assert proto.walkers[0].name == "test_CMU"
    assert proto.walkers[0].markers.marker[0].parent == "ltibia"
    assert (proto.year, proto.month, proto.day) == (2026, 11, 27)
    with_prop = reader.get_trajectory("clip_b").as_dict()
    assert with_prop["prop/position"].shape == (_STEPS, 3)


def test_trajectory_windows_and_modifiers(clip_path):
    path, features = clip_path
    reader = loader.HDF5TrajectoryLoader(path, proto_modifier=loader.ZOffsetter(0.25))
    window = reader.get_trajectory("clip_a", start_step=2, end_step=5)
    assert (window.start_step, window.end_step, window.num_steps) == (2, 6, 4)
    assert window.duration == pytest.approx(3 * _DT)
    np.testing.assert_allclose(
        window.as_dict()["walker/position"][0], features[2]["position"] + [0, 0, 0.25]
    )
    # The window's last step has zero velocities (a still end pose) by default.
    np.testing.assert_array_equal(window.get_timestep_data(window.end_time).walkers[0].velocity, 0)
    with pytest.raises(ValueError, match="multiple of dt"):
        window.get_timestep_data(0.01)
    with pytest.raises(ValueError, match="not both"):
        reader.get_trajectory("clip_a", start_time=0.03, start_step=1)
    with pytest.raises(KeyError, match="no clip 'clip_z'"):
        reader.get_trajectory("clip_z")
    with pytest.raises(ValueError, match="callable"):
        loader.HDF5TrajectoryLoader(path, proto_modifier=[3])
    with pytest.raises(FileNotFoundError, match="no mocap file"):
        loader.HDF5TrajectoryLoader(path + ".missing")


def test_clip_collections_validate_and_name_datasets():
    with pytest.raises(ValueError, match="ClipCollection validation failed"):
        types.ClipCollection(ids=("a", "b"), start_steps=(0,))
    with pytest.raises(ValueError, match="non-negative"):
        types.ClipCollection(ids=("a",), weights=(-1,))
    collection = types.ClipCollection(ids=("a", "b"))
    assert collection.start_steps == (0, 0) and collection.weights == (1.0, 1.0)
    assert set(datasets.DATASETS) == {
        "get_up",
        "locomotion_small",
        "walk_tiny",
        "run_jump_tiny",
        "all",
    }
    assert len(datasets.DATASETS["all"].ids) > 800


def _task(path: str, **options):
    settings = dict(
        walker=CMUHumanoidPositionControlled,
        arena=Floor(),
        ref_path=path,
        dataset=types.ClipCollection(ids=("clip_a",)),
        ref_steps=(1, 2),
        min_steps=1,
        reward_type="comic",
    )
    settings.update(options)
    return tracking.MultiClipMocapTracking(**settings)


def test_tracking_poses_the_walker_as_the_clip(clip_path):
    path, features = clip_path
    task = _task(path)
    # Starts: steps 0 .. end - max look-ahead - min_steps - 1, equally likely.
    assert task._possible_starts == [(0, step) for step in range(_STEPS - 2 - 1)]
    env = composer.Environment(task=task, random_state=5)
    timestep = env.reset()
    start = task._time_step
    assert task._termination_error < 1e-9
    now = utils.get_features(env.physics, task._walker)
    for key in ("position", "quaternion", "joints", "body_positions", "velocity"):
        np.testing.assert_allclose(now[key], features[start][key], atol=1e-9, err_msg=key)
    observation = timestep.observation
    expected = np.concatenate(
        [features[start + k]["joints"] - features[start]["joints"] for k in (1, 2)]
    )
    order = [
        [j.name for j in task._walker.mocap_joints].index(j.name)
        for j in task._walker.observable_joints
    ]
    np.testing.assert_allclose(
        observation["walker/reference_rel_joints"][0],
        expected.reshape(2, -1)[:, order].ravel(),
        atol=1e-12,
    )
    assert observation["walker/clip_id"][0, 0] == 0
    assert observation["reference_props_pos_global"].shape == (1, 0)
    timestep = env.step(np.zeros(env.action_spec().shape))
    assert task._time_step == start + 1
    # The comic reward's terms (dm_control's channel list also names "joints", which
    # that reward does not report).
    assert set(task.last_reward_channels) == set(rewards.get_reward_channels("comic")) - {"joints"}
    assert np.isfinite(timestep.reward)


def test_tracking_samples_from_the_seed(clip_path):
    path, _ = clip_path

    def starts(seed: int) -> list:
        task = _task(path, dataset=types.ClipCollection(ids=("clip_a", "clip_b")))
        env = composer.Environment(task=task, random_state=seed)
        drawn = []
        for _ in range(4):
            env.reset()
            drawn.append((task._current_clip_index, task._time_step))
        return drawn

    assert starts(1) == starts(1)
    assert starts(1) != starts(2)


def test_tracking_with_props_and_ghost(clip_path):
    path, _ = clip_path
    task = _task(
        path,
        dataset=types.ClipCollection(ids=("clip_b",)),
        disable_props=False,
        prop_factory=props.Prop,
        ghost_offset=(0.0, 1.0, 0.0),
        ref_steps=(0,),
    )
    env = composer.Environment(task=task, random_state=0)
    observation = env.reset().observation
    np.testing.assert_allclose(
        observation["reference_props_pos_global"], observation["box/position"], atol=1e-9
    )
    ghost = utils.get_features(env.physics, task._ghost)
    walker = utils.get_features(env.physics, task._walker)
    np.testing.assert_allclose(ghost["position"], walker["position"] + [0, 1, 0], atol=1e-9)
    assert env.action_spec().shape == (56,)


def test_tracking_refuses_a_walker_that_does_not_match(clip_path):
    path, _ = clip_path

    def scaled(name: str) -> CMUHumanoidPositionControlled:
        return CMUHumanoidPositionControlled(name=name, scale_default=True)

    env = composer.Environment(task=_task(path, walker=scaled), random_state=0)
    with pytest.raises(ValueError, match="proto/walker mismatch"):
        env.reset()
    with pytest.raises(KeyError, match="not in datasets.DATASETS"):
        _task(path, dataset="nope")


def test_playback_cycles_through_the_clips(clip_path):
    path, features = clip_path

    def no_props(proto: records.FittedTrajectory) -> None:
        proto.props.clear()
        for timestep in proto.timesteps:
            timestep.props.clear()

    task = tracking.PlaybackTask(
        walker=CMUHumanoidPositionControlled,
        arena=Floor(),
        ref_path=path,
        dataset=types.ClipCollection(ids=("clip_a", "clip_b")),
        proto_modifier=no_props,
    )
    env = composer.Environment(task=task, random_state=0)
    assert [(env.reset(), task._current_clip_index)[1] for _ in range(3)] == [0, 1, 0]
    timestep = env.step(np.zeros(env.action_spec().shape))
    assert timestep.reward == 0.0
    now = utils.get_features(env.physics, task._walker)
    np.testing.assert_allclose(now["joints"], features[1]["joints"], atol=1e-12)


def test_walker_initializers(clip_path):
    path, features = clip_path
    arena = Floor()
    walker = Ant()
    arena.add_free_entity(walker)
    physics = Physics.from_mjcf_model(arena.mjcf_model)
    walker.set_pose(physics, position=(1.0, 2.0, 3.0))
    initializers.NoOpInitializer().initialize_pose(physics, walker, np.random.RandomState(0))
    np.testing.assert_array_equal(physics.data.qpos[:3], [1, 2, 3])
    physics.data.qvel[:] = 1.0
    initializers.UprightInitializer().initialize_pose(physics, walker, np.random.RandomState(0))
    np.testing.assert_array_equal(physics.data.qpos[:3], 0.0)
    np.testing.assert_array_equal(physics.data.qvel[:6], 0.0)
    with pytest.raises(TypeError):
        initializers.WalkerInitializer()  # type: ignore[abstract]
    with pytest.raises(ValueError, match="at least one"):
        initializers.RandomlySampledInitializer([])

    class Recorder(initializers.WalkerInitializer):
        def __init__(self, label: int, seen: list) -> None:
            self.label, self.seen = label, seen

        def initialize_pose(self, physics, walker, random_state) -> None:
            self.seen.append(self.label)

    def drawn(seed: int) -> list:
        seen: list = []
        sampled = initializers.RandomlySampledInitializer(
            [Recorder(i, seen) for i in range(4)], draw_from_random_state=True
        )
        rng = np.random.RandomState(seed)
        for _ in range(6):
            sampled.initialize_pose(physics, walker, rng)
        return seen

    assert drawn(3) == drawn(3) and drawn(3) != drawn(4)

    cmu_arena = Floor()
    cmu = CMUHumanoidPositionControlled()
    cmu_arena.add_free_entity(cmu)
    physics = Physics.from_mjcf_model(cmu_arena.mjcf_model)
    start = mocap_initializers.CMUMocapInitializer("clip_a", ref_path=path)
    start.initialize_pose(physics, cmu, np.random.RandomState(2))
    step = np.random.RandomState(2).randint(_STEPS)
    expected = features[step]["joints_velocity"] if step < _STEPS - 1 else 0.0
    np.testing.assert_allclose(physics.bind(cmu.mocap_joints).qvel, expected)
