"""Locomotion content against dm_control: walkers' handles, names, action specs,
observables and observations along a seeded random policy; GoToTarget's spawn
region; arenas' observations."""

import pytest

_STAND_TASK = """
import numpy as np
from dm_control import composer
from dm_control.locomotion import arenas, walkers


class Stand(composer.Task):
    def __init__(self, walker):
        self._arena = arenas.Floor()
        self._walker = walker
        self._arena.add_free_entity(walker)
        observables = walker.observables
        for item in (observables.proprioception + observables.kinematic_sensors
                     + observables.dynamic_sensors):
            item.enabled = True
        self.set_timesteps(control_timestep=0.02, physics_timestep=0.005)

    @property
    def root_entity(self):
        return self._arena

    def initialize_episode(self, physics, random_state):
        self._walker.reinitialize_pose(physics, random_state)
        upright = self._walker.upright_pose
        self._walker.set_pose(physics, position=np.array([0.0, 0.0, 0.2]) + upright.xpos,
                              quaternion=upright.xquat / np.linalg.norm(upright.xquat))

    def get_reward(self, physics):
        return 0.0


def describe(name, walker, values):
    record(f"{name}/actuators", [a.name for a in walker.actuators])
    record(f"{name}/observable_joints", [j.name for j in walker.observable_joints])
    record(f"{name}/end_effectors", [b.name for b in walker.end_effectors])
    record(f"{name}/root_body", walker.root_body.name)
    record(f"{name}/egocentric_camera", walker.egocentric_camera.name)
    record(f"{name}/ground_contact_geoms", [g.name for g in walker.ground_contact_geoms])
    record(f"{name}/touch_sensors", [s.name for s in walker.touch_sensors])
    record(f"{name}/action_spec", walker.action_spec)
    env = composer.Environment(Stand(walker), random_state=7)
    record(f"{name}/observation_names", sorted(env.observation_spec()))
    for key, value in env.observation_spec().items():
        record(f"{name}/observation_spec/{key}", value.shape)
    physics = env.physics
    record(f"{name}/bind_range", physics.bind(list(walker.observable_joints)).range.shape)
    record(f"{name}/bind_bodyid", np.shape(physics.bind(walker.ground_contact_geoms[0]).bodyid))
    record(f"{name}/bind_root_xpos", np.shape(physics.bind(walker.root_body).xpos))
    if not values:
        return
    rng = np.random.RandomState(0)
    spec = env.action_spec()
    for key, value in env.reset().observation.items():
        record(f"{name}/reset/{key}", value)
    for step in range(5):
        timestep = env.step(rng.uniform(spec.minimum, spec.maximum))
        for key, value in timestep.observation.items():
            record(f"{name}/step{step}/{key}", value)
"""

ANT_PROGRAM = (
    _STAND_TASK
    + """
walker = walkers.Ant()
record("observables", sorted(walker.observables.as_dict()))
record("upright_pose", tuple(walker.upright_pose))
record("mocap_joints", [joint.name for joint in walker.mocap_joints])
record("mocap_to_observable", list(walker.mocap_to_observable_joint_order))
record("observable_to_mocap", list(walker.observable_to_mocap_joint_order))
describe("Ant", walker, values=True)
"""
)

CMU_PROGRAM = (
    _STAND_TASK
    + """
describe("CMUHumanoid", walkers.CMUHumanoidPositionControlledV2020(), values=False)
"""
)


@pytest.mark.dm_control_api(
    "locomotion.walkers.Ant",
    "locomotion.walkers.Ant.actuators",
    "locomotion.walkers.Ant.observable_joints",
    "locomotion.walkers.Ant.end_effectors",
    "locomotion.walkers.Ant.root_body",
    "locomotion.walkers.Ant.egocentric_camera",
    "locomotion.walkers.Ant.ground_contact_geoms",
    "locomotion.walkers.legacy_base.Walker.touch_sensors",
    "locomotion.walkers.Ant.upright_pose",
    "locomotion.walkers.Ant.mocap_joints",
    "composer.Entity.set_pose",
    "locomotion.walkers.legacy_base.Walker.reinitialize_pose",
    "locomotion.arenas.Floor",
)
def test_ant_matches_dm_control_along_a_random_policy(differential):
    differential.assert_same(ANT_PROGRAM, "ant", rtol=1e-6, atol=1e-6)


@pytest.mark.dm_control_api(
    "locomotion.walkers.CMUHumanoidPositionControlledV2020",
    "locomotion.walkers.CMUHumanoidPositionControlledV2020.actuators",
    "locomotion.walkers.CMUHumanoidPositionControlledV2020.observable_joints",
    "locomotion.walkers.CMUHumanoidPositionControlledV2020.end_effectors",
    "locomotion.walkers.CMUHumanoidPositionControlledV2020.root_body",
    "locomotion.walkers.CMUHumanoidPositionControlledV2020.egocentric_camera",
    "locomotion.walkers.CMUHumanoidPositionControlledV2020.ground_contact_geoms",
)
def test_cmu_humanoid_names_and_shapes_match_dm_control(differential):
    differential.assert_same(CMU_PROGRAM, "cmu_humanoid")


# The three CMU humanoids on a Floor, stood up by their default initializer
# (dm_control's UprightInitializer: `upright_pose`, joints at qpos0), then 10 zero-action
# control steps: every enabled observation (the egocentric ones in the CMU pelvis frame),
# and the root's world pose and the compiled root frames.
CMU_VALUES_PROGRAM = """
import numpy as np
from dm_control import composer
from dm_control.locomotion import arenas
from dm_control.locomotion.walkers import cmu_humanoid


class Stand(composer.Task):
    def __init__(self, walker):
        self._arena = arenas.Floor()
        self._walker = walker
        self._arena.add_free_entity(walker)
        observables = walker.observables
        for item in (observables.proprioception + observables.kinematic_sensors
                     + observables.dynamic_sensors):
            item.enabled = True
        observables.egocentric_camera.enabled = False
        self.set_timesteps(control_timestep=0.03, physics_timestep=0.005)

    @property
    def root_entity(self):
        return self._arena

    def initialize_episode(self, physics, random_state):
        self._walker.reinitialize_pose(physics, random_state)

    def get_reward(self, physics):
        return 0.0


for name, walker in (
    ("CMUHumanoid", cmu_humanoid.CMUHumanoid()),
    ("CMUHumanoidPositionControlled", cmu_humanoid.CMUHumanoidPositionControlled()),
    ("CMUHumanoidPositionControlledV2020", cmu_humanoid.CMUHumanoidPositionControlledV2020()),
):
    record(f"{name}/upright_pose", [walker.upright_pose.xpos, walker.upright_pose.xquat])
    record(f"{name}/standing_height", walker.standing_height)
    env = composer.Environment(Stand(walker), random_state=5)
    timestep = env.reset()
    root = env.physics.bind(walker.root_body)
    record(f"{name}/root_body_pos_quat", [root.pos, root.quat])
    record(f"{name}/reset/root_pose", [root.xpos, root.xquat])
    for key, value in timestep.observation.items():
        record(f"{name}/reset/{key}", value)
    zeros = np.zeros(env.action_spec().shape)
    for _ in range(10):
        timestep = env.step(zeros)
    root = env.physics.bind(walker.root_body)
    record(f"{name}/step10/root_pose", [root.xpos, root.xquat])
    for key, value in timestep.observation.items():
        record(f"{name}/step10/{key}", value)
"""


@pytest.mark.dm_control_api(
    "locomotion.walkers.cmu_humanoid.CMUHumanoid",
    "locomotion.walkers.cmu_humanoid.CMUHumanoid.upright_pose",
    "locomotion.walkers.cmu_humanoid.CMUHumanoid.standing_height",
    "locomotion.walkers.CMUHumanoidPositionControlled",
    "locomotion.walkers.CMUHumanoidPositionControlled.upright_pose",
    "locomotion.walkers.CMUHumanoidPositionControlledV2020.upright_pose",
    "locomotion.walkers.CMUHumanoidPositionControlledV2020.standing_height",
)
def test_cmu_humanoid_observations_at_reset_and_after_steps_match_dm_control(differential):
    # At reset every value agrees to rounding, and ten steps on the V2019 bodies too;
    # the V2020 body's contacts (MuJoCo 3.17 there, 4 here) move its values by up to
    # 1.3e-4 relative (its accelerometer by 1.4e-3 m/s^2 of 11).
    differential.assert_same(
        CMU_VALUES_PROGRAM,
        "cmu_humanoid_values",
        rtol=1e-6,
        atol=1e-6,
        tolerances=[("V2020/step10/", 1e-3, 1e-3)],
    )


SOCCER_PROGRAM = """
from dm_control.locomotion import soccer

record("walker_types", [member.name for member in soccer.WalkerType])
for walker_type in (soccer.WalkerType.BOXHEAD, soccer.WalkerType.ANT):
    for team_size in (1, 2):
        key = f"{walker_type.name}/{team_size}"
        env = soccer.load(team_size=team_size, walker_type=walker_type, random_state=0)
        record(key + "/observation_spec", env.observation_spec())
        record(key + "/action_spec", env.action_spec())
        record(key + "/reward_spec", env.reward_spec())
        record(key + "/discount_spec", env.discount_spec())
        record(key + "/control_timestep", env.control_timestep())
        timestep = env.reset()
        record(key + "/reset_keys", [sorted(observation) for observation in timestep.observation])
"""


@pytest.mark.dm_control_api(
    "locomotion.soccer.load",
    "locomotion.soccer.WalkerType",
)
def test_soccer_matches_dm_control(differential):
    from composer_tasks import porting

    if porting.map_module("dm_control.locomotion.soccer") is None:
        pytest.skip("composer_tasks.porting.MODULE_MAP does not map dm_control.locomotion.soccer")
    differential.assert_same(SOCCER_PROGRAM, "soccer", timeout_s=600)


TASKS_PROGRAM = """
import numpy as np
from dm_control import composer
from dm_control.locomotion import arenas, tasks, walkers


def describe(key, make_task):
    env = composer.Environment(make_task(), random_state=3)
    spec = env.observation_spec()
    record(key + "/names", sorted(spec))
    for name, value in spec.items():
        record(f"{key}/spec/{name}", (value.shape, str(value.dtype)))
    record(key + "/action_spec", env.action_spec())
    env.reset()
    rng = np.random.RandomState(0)
    action_spec = env.action_spec()
    for _ in range(3):
        timestep = env.step(rng.uniform(action_spec.minimum, action_spec.maximum))
    for name, value in timestep.observation.items():
        record(f"{key}/observation/{name}", np.shape(value))


def corridor(arena):
    return lambda: tasks.RunThroughCorridor(
        walker=walkers.Ant(), arena=arena, walker_spawn_position=(0.5, 0, 0))


describe("corridor_empty", corridor(arenas.EmptyCorridor()))
describe("corridor_gaps", corridor(arenas.GapsCorridor(corridor_length=20)))
describe("corridor_walls", corridor(arenas.WallsCorridor(corridor_length=20)))
describe("go_to_target", lambda: tasks.GoToTarget(walker=walkers.Ant(), arena=arenas.Floor()))

# GoToTarget's spawn region: dm_control draws x, y uniformly within +-size/2.
task = tasks.GoToTarget(walker=walkers.Ant(), arena=arenas.Floor(size=(8, 8)))
env = composer.Environment(task, random_state=0)
targets = []
for _ in range(30):
    env.reset()
    targets.append(task.target_position(env.physics)[:2])
record("go_to_target/target_extent", bool(np.all(np.abs(targets) <= 4.0)))
"""


@pytest.mark.dm_control_api(
    "locomotion.tasks.RunThroughCorridor",
    "locomotion.tasks.GoToTarget",
    "locomotion.tasks.GoToTarget.target_position",
    "locomotion.arenas.EmptyCorridor",
    "locomotion.arenas.GapsCorridor",
    "locomotion.arenas.WallsCorridor",
    "locomotion.arenas.Floor",
)
def test_locomotion_tasks_observe_as_dm_control(differential):
    differential.assert_same(TASKS_PROGRAM, "locomotion_tasks", timeout_s=600)


CORRIDORS_PROGRAM = """
import numpy as np
from dm_control import composer
from dm_control.composer.variation import distributions
from dm_control.locomotion import arenas, tasks, walkers


def describe(key, arena, episodes=3):
    walker = walkers.Ant(observable_options={"egocentric_camera": dict(enabled=False)})
    task = tasks.RunThroughCorridor(
        walker=walker, arena=arena, walker_spawn_position=(0.5, 0, 0),
        walker_spawn_rotation=distributions.Uniform(-0.3, 0.3),
        physics_timestep=0.005, control_timestep=0.03)
    env = composer.Environment(task, random_state=11, strip_singleton_obs_buffer_dim=True)
    rng = np.random.RandomState(0)
    spec = env.action_spec()
    record(key + "/before_reset_length", arena.corridor_length)
    for episode in range(episodes):
        timestep = env.reset()
        physics = env.physics
        model = physics.model
        name = f"{key}/episode{episode}"
        record(name + "/sizes", (model.nbody, model.ngeom, model.nlight, model.ntex, model.nmat))
        record(name + "/bodies", [model.id2name(i, "body") for i in range(model.nbody)])
        record(name + "/geoms", [model.id2name(i, "geom") for i in range(model.ngeom)])
        arena_geoms = [i for i in range(model.ngeom) if model.geom_bodyid[i] in (0, 1, 2)]
        for field in ("geom_type", "geom_size", "geom_pos", "geom_rgba", "geom_group",
                      "geom_contype", "geom_matid"):
            record(f"{name}/{field}", getattr(model, field)[arena_geoms])
        record(name + "/body_pos", model.body_pos[:3])
        record(name + "/tex", (model.tex_type, model.tex_width, model.tex_height))
        record(name + "/headlight", (model.vis.headlight.ambient, model.vis.headlight.diffuse))
        record(name + "/znear", (model.vis.map.znear, model.vis.map.zfar))
        record(name + "/length", (arena.corridor_length, arena.corridor_width))
        record(name + "/ground", sorted(physics.bind(arena.ground_geoms).element_id))
        for key_, value in timestep.observation.items():
            if key_.endswith("egocentric_camera"):
                # Renderers differ in a few pixels by one level.
                record(f"{name}/reset/{key_}/mean", round(float(np.mean(value)), 1))
            else:
                record(f"{name}/reset/{key_}", value)
        record(name + "/qpos", physics.data.qpos)
        rewards = []
        for _ in range(4):
            timestep = env.step(rng.uniform(spec.minimum, spec.maximum))
            rewards.append(timestep.reward)
        record(name + "/rewards", rewards)
        record(name + "/at_end", arena.is_at_target_position([20.0, 0.0], tolerance=1.0))
    record(key + "/stream", env.random_state.uniform(size=3))


describe("empty", arenas.EmptyCorridor(
    corridor_width=distributions.Uniform(3, 5),
    corridor_length=distributions.Uniform(15, 25)))
describe("gaps", arenas.GapsCorridor(
    platform_length=distributions.Uniform(0.3, 2.5),
    gap_length=distributions.Uniform(0.5, 1.25),
    ground_rgba=lambda random_state: np.append(random_state.uniform(0.2, 0.8, size=3), 1.0),
    corridor_width=distributions.Uniform(4, 6), corridor_length=20))
describe("walls", arenas.WallsCorridor(
    wall_gap=distributions.Uniform(3, 5),
    wall_width=distributions.Uniform(1, 3),
    wall_height=distributions.Uniform(1, 3),
    swap_wall_side=distributions.Bernoulli(0.5),
    wall_rgba=distributions.Uniform([0, 0, 0, 1], [1, 1, 1, 1]),
    corridor_width=6, corridor_length=distributions.Uniform(20, 30),
    include_initial_padding=False))
describe("walls_example", arenas.WallsCorridor(
    wall_gap=4.0, wall_width=distributions.Uniform(1, 7), wall_height=3.0,
    corridor_width=10, corridor_length=100, include_initial_padding=False), episodes=1)
"""


@pytest.mark.dm_control_api(
    "locomotion.arenas.EmptyCorridor.regenerate",
    "locomotion.arenas.GapsCorridor.regenerate",
    "locomotion.arenas.WallsCorridor.regenerate",
    "locomotion.arenas.EmptyCorridor.corridor_length",
    "locomotion.arenas.EmptyCorridor.corridor_width",
    "locomotion.arenas.EmptyCorridor.ground_geoms",
    "locomotion.arenas.GapsCorridor.ground_geoms",
    "locomotion.arenas.WallsCorridor.ground_geoms",
    "locomotion.arenas.EmptyCorridor.is_at_target_position",
)
def test_corridors_are_built_drawn_and_named_as_dm_controls(differential):
    # Every variation of the three corridors at once, so that the draw order shows;
    # the model's structure (bodies, geoms, their names, textures), the layout's
    # geometry and colours, the walker's spawn and the rewards, over three
    # episodes each, and where the random stream is left.
    differential.assert_same(CORRIDORS_PROGRAM, "corridors", timeout_s=600)


MAZE_PROGRAM = """
import numpy as np
from dm_control import composer
from dm_control.locomotion.arenas import labmaze_textures, mazes
from dm_control.locomotion.props import target_sphere
from dm_control.locomotion.tasks import random_goal_maze
from dm_control.locomotion.walkers import ant

# dm_control seeds the maze's own generator from numpy's global one at construction
# and draws the wall and floor textures from it at every episode.
np.random.seed(0)


def describe(key, arena, task, episodes=2, steps=12):
    env = composer.Environment(task, time_limit=10, random_state=12345,
                               strip_singleton_obs_buffer_dim=True)
    spec = env.action_spec()
    for episode in range(episodes):
        timestep = env.reset()
        physics = env.physics
        model = physics.model
        name = f"{key}/episode{episode}"
        record(name + "/sizes", [model.nbody, model.ngeom, model.nsite, model.nmat, model.ntex])
        record(name + "/bodies", [model.id2name(i, "body") for i in range(model.nbody)])
        record(name + "/geoms", [model.id2name(i, "geom") for i in range(model.ngeom)])
        record(name + "/textures", [model.id2name(i, "texture") for i in range(model.ntex)])
        record(name + "/maze", str(arena.maze.entity_layer))
        record(name + "/variations", str(arena.maze.variations_layer))
        record(name + "/spawns", np.array(arena.spawn_positions))
        record(name + "/targets", np.array(arena.target_positions))
        record(name + "/geom_size", model.geom_size)
        record(name + "/geom_pos", model.geom_pos)
        record(name + "/geom_group", model.geom_group)
        record(name + "/qpos", physics.data.qpos)
        for key_, value in timestep.observation.items():
            if key_.endswith("egocentric_camera"):
                record(f"{name}/reset/{key_}/shape", np.shape(value))
            else:
                record(f"{name}/reset/{key_}", value)
        rng = np.random.RandomState(0)
        rewards = []
        for _ in range(steps):
            rewards.append(env.step(rng.uniform(spec.minimum, spec.maximum)).reward)
        record(name + "/rewards", rewards)
    record(key + "/stream", env.random_state.uniform(size=3))


walker = ant.Ant(observable_options={"egocentric_camera": dict(enabled=False)})
arena = mazes.RandomMazeWithTargets(
    x_cells=11, y_cells=11, xy_scale=3, max_rooms=4, room_min_size=4, room_max_size=5,
    spawns_per_room=1, targets_per_room=3,
    skybox_texture=labmaze_textures.SkyBox(style="sky_03"),
    wall_textures=labmaze_textures.WallTextures(style="style_01"),
    floor_textures=labmaze_textures.FloorTextures(style="style_01"))
describe("heterogeneous", arena, random_goal_maze.ManyHeterogeneousGoalsMaze(
    walker=walker, maze_arena=arena,
    target_builders=[target_sphere.TargetSphereTwoTouch, target_sphere.TargetSphereTwoTouch],
    randomize_spawn_rotation=True, target_type_rewards=[30., -10.],
    target_type_proportions=[1, 1], shuffle_target_builders=True, aliveness_reward=0.01,
    control_timestep=.03))
walker = ant.Ant(observable_options={"egocentric_camera": dict(enabled=False)})
arena = mazes.RandomMazeWithTargets(x_cells=9, y_cells=9, xy_scale=2, max_rooms=2,
                                    spawns_per_room=1, targets_per_room=2)
describe("plain", arena, random_goal_maze.ManyGoalsMaze(
    walker=walker, maze_arena=arena, target_builder=target_sphere.TargetSphere,
    target_reward_scale=10., control_timestep=.03), episodes=3)
"""


@pytest.mark.dm_control_api(
    "locomotion.arenas.mazes.RandomMazeWithTargets",
    "locomotion.arenas.mazes.MazeWithTargets.regenerate",
    "locomotion.arenas.mazes.MazeWithTargets.spawn_positions",
    "locomotion.arenas.mazes.MazeWithTargets.target_positions",
    "locomotion.arenas.mazes.MazeWithTargets.maze",
    "locomotion.tasks.random_goal_maze.ManyHeterogeneousGoalsMaze",
    "locomotion.tasks.random_goal_maze.ManyGoalsMaze",
)
def test_mazes_are_built_drawn_and_named_as_dm_controls(differential):
    # The maze's layout (labmaze's own generator seeded from numpy's global one),
    # its walls, texturing planes and floor tiles with dm_control's names, the
    # targets detached and attached anew per episode, spawns, rewards and where the
    # Environment's random stream is left, over several episodes.
    differential.assert_same(MAZE_PROGRAM, "mazes", timeout_s=600)
