"""The last locomotion names, case by case: the arena styles' texture API and the
outdoor floor, the Rat's joint orders, the go-to-target tolerance, the maze with
subtargets, the soccer module's re-exports, interception statistics, the goal's
`set_position`, the tracking camera and the match explorer; each run on both
sides and compared.
"""

import pytest

from tests.differential.surface_cases import PRELUDE, assert_case

_MARK = pytest.mark

PROGRAM = (
    PRELUDE
    + r"""
import os

import labmaze
import numpy as np
from dm_control import composer, mjcf
from dm_control.locomotion import arenas, props, soccer, walkers
from dm_control.locomotion.arenas import assets, bowl
from dm_control.locomotion.soccer import camera, pitch
from dm_control.locomotion.tasks import go_to_target, random_goal_maze
from dm_control.locomotion.walkers import rodent


def attempt(put, key, function, *args):
    try:
        put(key, function(*args))
    except Exception as error:
        put(key + "_raises", type(error).__name__)


@case("arena_assets")
def _(put):
    put("styles", [assets.SKY_STYLES, assets.GROUND_STYLES])
    put("fields", [list(assets.SkyBox._fields), list(assets.GroundTexture._fields)])
    for style in ("outdoor_natural", "natural", "outdoor", "default", ""):
        attempt(put, f"sky/{style}", lambda s=style: list(assets.get_sky_texture_info(s)))
        attempt(put, f"ground/{style}", lambda s=style: list(assets.get_ground_texture_info(s)))
    texturedir = assets.get_texturedir("outdoor_natural")
    put("texturedir", [os.path.basename(texturedir), os.path.basename(assets.ROOT_DIR),
                       texturedir == os.path.join(assets.ROOT_DIR, "outdoor_natural")])
    # dm_control's texture folder is relative to its composer package (the base
    # arena's model folder); here it is absolute: both reach the images from there.
    model_dir = os.path.dirname(composer.__file__)
    put("images_exist", [
        os.path.isfile(os.path.join(model_dir, texturedir, info.file))
        for info in (assets.get_sky_texture_info("outdoor_natural"),
                     assets.get_ground_texture_info("outdoor_natural"))])


@case("outdoor_floor")
def _(put):
    arena = arenas.Floor(size=(5, 4), aesthetic="outdoor_natural")
    physics = mjcf.Physics.from_mjcf_model(arena.mjcf_model)
    model = physics.model
    put("textures", [model.id2name(i, "texture") for i in range(model.ntex)])
    put("tex_type", model.tex_type)
    put("tex_nchannel", model.tex_nchannel)
    put("materials", [model.id2name(i, "material") for i in range(model.nmat)])
    put("mat_texuniform", model.mat_texuniform)
    put("ground_material", model.id2name(model.geom_matid[0], "material"))
    # The sky box: six square faces stacked, as many rows as six times the width.
    put("skybox_is_cube", int(model.tex_height[1]) == 6 * int(model.tex_width[1]))
    put("geom_size", model.geom_size[0])
    for aesthetic in ("natural", "foo"):
        attempt(put, f"floor/{aesthetic}", lambda a=aesthetic: arenas.Floor(aesthetic=a).size)


@case("outdoor_bowl")
def _(put):
    arena = bowl.Bowl(size=(6, 6), aesthetic="outdoor_natural")
    physics = mjcf.Physics.from_mjcf_model(arena.mjcf_model)
    model = physics.model
    put("textures", [model.id2name(i, "texture") for i in range(model.ntex)])
    put("tex_type", model.tex_type)
    put("materials", [model.id2name(i, "material") for i in range(model.nmat)])
    # (ravel: a raw MjsGeom binds its scalars as (1,) here, a known difference.)
    put("ground_materials", [model.id2name(int(np.ravel(physics.bind(g).matid)[0]), "material")
                             for g in arena.ground_geoms])
    for aesthetic in ("natural", "foo"):
        attempt(put, f"bowl/{aesthetic}", lambda a=aesthetic: bool(bowl.Bowl(aesthetic=a)))


@case("rat_joint_orders")
def _(put):
    walker = rodent.Rat(name="fred")
    put("primary_joint_order", walker.primary_joint_order)
    put("vertebra_joint_order", walker.vertebra_joint_order)
    put("types", [type(walker.primary_joint_order).__name__,
                  type(walker.vertebra_joint_order).__name__])
    put("primary_joints", [joint.name for joint in walker.primary_joints])
    put("vertebra_joints", [joint.name for joint in walker.vertebra_joints])


def compiled_names(physics, kind, count):
    return [physics.model.id2name(i, kind) for i in range(count)]


@case("rename_attached_model")
def _(put):
    arena = mjcf.RootElement(model="arena")
    arena.worldbody.add("body", name="floor").add("geom", type="plane", size=[1, 1, 1])
    child = mjcf.RootElement(model="c")
    body = child.worldbody.add("body", name="b")
    body.add("geom", size=[0.1], material="mat")
    joint = body.add("joint", name="j")
    child.default.add("default", dclass="cls")
    child.sensor.add("jointpos", joint=joint, name="s")
    child.asset.add("material", name="mat")
    arena.attach(child)
    arena.contact.add("exclude", body1=body, body2="floor")
    mjcf.Physics.from_mjcf_model(arena)
    child.model = "d"
    physics = mjcf.Physics.from_mjcf_model(arena)
    model = physics.model
    put("model", child.model)
    put("bodies", compiled_names(physics, "body", model.nbody))
    put("joints", compiled_names(physics, "joint", model.njnt))
    put("sensors", compiled_names(physics, "sensor", model.nsensor))
    put("materials", compiled_names(physics, "material", model.nmat))
    put("geom_matid", model.geom_matid)
    put("sensor_objid", model.sensor_objid)
    put("nexclude", model.nexclude)
    put("full_identifier", [joint.full_identifier, body.full_identifier])
    put("find", [arena.find("joint", "d/j").full_identifier, arena.find("joint", "c/j") is None,
                 child.find("default", "cls").full_identifier])
    other = mjcf.RootElement(model="e")
    other.worldbody.add("body", name="b2").add("geom", size=[0.1])
    arena.attach(other)

    def clash():
        other.model = "d"
        mjcf.Physics.from_mjcf_model(arena)

    attempt(put, "clash", clash)


@case("two_renamed_rats")
def _(put):
    # dm_control's rodent_test.test_can_create_two_rats, with what it compiles.
    rats = [rodent.Rat(name="rat1"), rodent.Rat(name="rat2")]
    arena = arenas.Floor()
    for rat in rats:
        arena.add_free_entity(rat)
    before = mjcf.Physics.from_mjcf_model(arena.mjcf_model)
    rats[0].mjcf_model.model = "rat3"
    rats[1].mjcf_model.model = "rat4"
    physics = mjcf.Physics.from_mjcf_model(arena.mjcf_model)
    model = physics.model
    put("tendons", compiled_names(physics, "tendon", model.ntendon))
    put("joints", compiled_names(physics, "joint", model.njnt)[:5])
    put("same_model", [bool(np.array_equal(getattr(model, field), getattr(before.model, field)))
                       for field in ("wrap_objid", "wrap_prm", "tendon_range", "jnt_qposadr",
                                     "body_pos", "geom_size", "actuator_trnid")])
    # (Here the tendons are raw MjsTendons, whose names carry the model's prefix.)
    put("observable_tendons", len(rats[0].observable_tendons))
    put("tendons_pos", rats[0].observables.tendons_pos(physics))


@case("go_to_target_tolerance")
def _(put):
    put("DEFAULT_DISTANCE_TOLERANCE_TO_TARGET",
        go_to_target.DEFAULT_DISTANCE_TOLERANCE_TO_TARGET)


MAZE_TEXT = (
    "*********\n"
    "*P G   G*\n"
    "* *** * *\n"
    "*G     G*\n"
    "*********\n"
)


def subtarget_episode(put, num_subtargets):
    walker = walkers.JumpingBallWithHead()
    maze = labmaze.FixedMazeWithRandomGoals(entity_layer=MAZE_TEXT, num_spawns=1,
                                            num_objects=3, random_state=np.random.RandomState(4))
    arena = arenas.MazeWithTargets(maze=maze, xy_scale=1.5, z_height=1.2)
    task = random_goal_maze.RepeatSingleGoalMazeAugmentedWithTargets(
        walker, main_target=props.TargetSphere(radius=0.4, height_above_ground=0.4),
        maze_arena=arena, num_subtargets=num_subtargets, target_reward_scale=10.0,
        subtarget_reward_scale=2.0, randomize_spawn_rotation=False)
    walker.observables.egocentric_camera.enabled = False
    env = composer.Environment(task, random_state=np.random.RandomState(6),
                               strip_singleton_obs_buffer_dim=True)
    spec = env.action_spec()
    policy = np.random.RandomState(7)
    for episode in range(2):
        timestep = env.reset()
        physics = env.physics
        frames = [mjcf.get_attachment_frame(t.mjcf_model) for t in task._subtargets]
        put(f"{episode}/subtarget_xpos", [np.array(physics.bind(f).xpos) for f in frames])
        target = mjcf.get_attachment_frame(task._target.mjcf_model)
        rewards_seen, discounts, lasts = [], [], []
        for step in range(30):
            # Drop the walker onto a subtarget, then onto the main target.
            if step in (3, 6) and frames:
                where = physics.bind(frames[(step // 3 - 1) % len(frames)]).xpos
                walker.set_pose(physics, position=np.array(where) + [0, 0, 0.3])
                walker.set_velocity(physics, velocity=np.zeros(3))
            if step == 12:
                walker.set_pose(physics, position=np.array(physics.bind(target).xpos) + [0, 0, 0.3])
                walker.set_velocity(physics, velocity=np.zeros(3))
            timestep = env.step(policy.uniform(spec.minimum, spec.maximum, spec.shape))
            rewards_seen.append(timestep.reward)
            discounts.append(timestep.discount)
            lasts.append(timestep.last())
            if timestep.last():
                break
        put(f"{episode}/rewards", rewards_seen)
        put(f"{episode}/discounts", discounts)
        put(f"{episode}/lasts", lasts)
        put(f"{episode}/activated", [t.activated for t in task._subtargets])


@case("maze_with_subtargets")
def _(put):
    subtarget_episode(put, 2)


@case("maze_with_more_subtargets_than_cells")
def _(put):
    subtarget_episode(put, 5)


@case("maze_with_no_subtargets")
def _(put):
    subtarget_episode(put, 0)


@case("soccer_reexports")
def _(put):
    put("constants", [list(soccer.MINI_FOOTBALL_GOAL_SIZE),
                      soccer.MINI_FOOTBALL_MIN_AREA_PER_HUMANOID,
                      soccer.MINI_FOOTBALL_MAX_AREA_PER_HUMANOID,
                      list(soccer.RGBA_BLUE), list(soccer.RGBA_RED)])
    put("classes", [callable(getattr(soccer, name)) for name in (
        "BoxHead", "Humanoid", "Initializer", "UniformInitializer", "CoreObservablesAdder",
        "InterceptionObservablesAdder", "MultiObservablesAdder", "ObservablesAdder", "Pitch",
        "RandomizedPitch", "regulation_soccer_ball", "SoccerBall", "MultiturnTask", "Task",
        "Player", "Team")])
    put("subclasses", [issubclass(soccer.InterceptionObservablesAdder, soccer.ObservablesAdder),
                       issubclass(soccer.RandomizedPitch, soccer.Pitch),
                       issubclass(soccer.MultiturnTask, soccer.Task)])


INTERCEPTION_KEYS = ["stats_i_received_ball", "stats_opponent_intercepted_ball"] + [
    f"stats_{kind}_{d}m" for d in (5, 10, 15)
    for kind in ("i_received_ball", "opponent_intercepted_ball")]


@case("interception_observables")
def _(put):
    players = [soccer.Player(soccer.Team.HOME, soccer.BoxHead(name="home0", walker_id=0,
                                                              marker_rgba=soccer.RGBA_BLUE)),
               soccer.Player(soccer.Team.AWAY, soccer.BoxHead(name="away0", walker_id=0,
                                                              marker_rgba=soccer.RGBA_RED))]
    task = soccer.Task(players=players, arena=soccer.Pitch((20, 15)),
                       observables=soccer.MultiObservablesAdder(
                           [soccer.CoreObservablesAdder(), soccer.InterceptionObservablesAdder()]),
                       disable_walker_contacts=True)
    env = composer.Environment(task, random_state=42, time_limit=5)
    specs = env.observation_spec()
    put("spec_keys", [sorted(spec) for spec in specs])
    put("spec_shapes", [[spec[k].shape for k in INTERCEPTION_KEYS] for spec in specs])
    timestep = env.reset()
    physics = env.physics
    height = [np.array(physics.bind(p.walker.root_body).xpos)[2] for p in players]
    players[0].walker.set_pose(physics, position=[-6.0, 0.0, height[0]])
    players[1].walker.set_pose(physics, position=[6.0, 0.0, height[1]])
    ball = task.ball
    zeros = [np.zeros(s.shape) for s in env.action_spec()]
    seen = []
    for step in range(60):
        if step == 0:
            # Roll the ball into home0 ...
            ball.set_pose(physics, position=[-4.5, 0.0, 0.5])
            ball.set_velocity(physics, velocity=[-6.0, 0.0, 0.0])
        if step == 20:
            # ... then from home0 across the pitch into away0.
            ball.set_pose(physics, position=[-5.2, 0.0, 0.5])
            ball.set_velocity(physics, velocity=[15.0, 0.0, 0.0])
        timestep = env.step(zeros)
        seen.append([[np.asarray(o[k]).ravel().tolist() for k in INTERCEPTION_KEYS]
                     for o in timestep.observation])
        if timestep.last():
            break
    put("stats", seen)
    put("dist_between_last_hits", ball.dist_between_last_hits)


@case("goal_set_position")
def _(put):
    arena = pitch.Pitch(size=(10, 8))
    physics = mjcf.Physics.from_mjcf_model(arena.mjcf_model)
    attempt(put, "set_position", arena.home_goal.set_position, physics, [1.0, 2.0, 0.5])
    put("goal", [arena.home_goal.lower, arena.home_goal.upper])


@case("tracking_camera")
def _(put):
    # A floor, not a pitch: the pitch's 8192-pixel shadow map makes each software
    # rendered frame take seconds.
    arena = arenas.Floor(size=(10, 8))
    physics = mjcf.Physics.from_mjcf_model(arena.mjcf_model)
    tracker = camera.MultiplayerTrackingCamera(
        min_distance=8.0, distance_factor=1.5, smoothing_update_speed=0.25, width=96, height=64)
    attempt(put, "render_before_compile", tracker.render)
    put("camera_before_compile", tracker.camera is None)
    tracker.after_compile(physics)
    put("offscreen_buffer", [physics.model.vis.global_.offwidth,
                             physics.model.vis.global_.offheight])
    pose = tracker.camera.get_pose()
    put("default_pose", [np.array(pose.lookat), pose.distance, pose.azimuth, pose.elevation])
    positions = [np.array([1.0, 2.0, 0.5]), np.array([-3.0, 0.0, 0.5]), np.array([0.0, -1.0, 1.0])]
    tracker.initialize_episode(positions)
    pose = tracker.camera.get_pose()
    put("initial_pose", [np.array(pose.lookat), pose.distance, pose.azimuth, pose.elevation])
    for step in range(3):
        positions = [p + np.array([0.5, 0.2 * step, 0.0]) * (i + 1)
                     for i, p in enumerate(positions)]
        tracker.after_step(positions)
        pose = tracker.camera.get_pose()
        put(f"pose_{step}", [np.array(pose.lookat), pose.distance, pose.azimuth, pose.elevation])
    image = tracker.render()
    put("image", [image.shape, str(image.dtype), bool(image.std() > 0)])
    attempt(put, "bad_speed", camera.MultiplayerTrackingCamera, 1.0, 1.0, 1.5)
    big = camera.MultiplayerTrackingCamera(1.0, 1.0, 1.0, width=700, height=500)
    big.after_compile(physics)
    put("grown_buffer", [physics.model.vis.global_.offwidth,
                         physics.model.vis.global_.offheight])


@case("explore_main")
def _(put):
    from dm_control.locomotion.soccer import explore

    launched = []
    launch = explore.viewer.launch
    explore.viewer.launch = lambda *args, **kwargs: launched.append((args, kwargs))
    try:
        explore.FLAGS(["explore", "--walker_type=ANT", "--noenable_field_box"])
        explore.main(["explore"])
        attempt(put, "extra_arguments", explore.main, ["explore", "more"])
    finally:
        explore.viewer.launch = launch
        explore.FLAGS.unparse_flags()
    args, kwargs = launched[0]
    # dm_control's viewer takes a loader, this project's the environment.
    env = kwargs["environment_loader"]() if "environment_loader" in kwargs else args[0]
    put("launched", len(launched))
    put("task", [type(env.task).__name__, len(env.task.players)])
    put("walkers", [type(p.walker).__name__ for p in env.task.players])
    put("action_shapes", [s.shape for s in env.action_spec()])
"""
)

CASES = [
    pytest.param(
        "arena_assets",
        marks=_MARK.dm_control_api(
            "locomotion.arenas.assets.GROUND_STYLES",
            "locomotion.arenas.assets.GroundTexture",
            "locomotion.arenas.assets.GroundTexture.file",
            "locomotion.arenas.assets.GroundTexture.type",
            "locomotion.arenas.assets.ROOT_DIR",
            "locomotion.arenas.assets.SKY_STYLES",
            "locomotion.arenas.assets.SkyBox",
            "locomotion.arenas.assets.SkyBox.file",
            "locomotion.arenas.assets.SkyBox.gridlayout",
            "locomotion.arenas.assets.SkyBox.gridsize",
            "locomotion.arenas.assets.get_ground_texture_info",
            "locomotion.arenas.assets.get_sky_texture_info",
            "locomotion.arenas.assets.get_texturedir",
        ),
        id="arena_assets",
    ),
    pytest.param(
        "outdoor_floor",
        marks=_MARK.dm_control_api("locomotion.arenas.Floor"),
        id="outdoor_floor",
    ),
    pytest.param(
        "outdoor_bowl",
        marks=_MARK.dm_control_api("locomotion.arenas.Bowl"),
        id="outdoor_bowl",
    ),
    pytest.param(
        "rat_joint_orders",
        marks=_MARK.dm_control_api(
            "locomotion.walkers.Rat.primary_joint_order",
            "locomotion.walkers.Rat.primary_joints",
            "locomotion.walkers.Rat.vertebra_joint_order",
            "locomotion.walkers.Rat.vertebra_joints",
        ),
        id="rat_joint_orders",
    ),
    pytest.param(
        "rename_attached_model",
        marks=_MARK.dm_control_api("mjcf.RootElement.model"),
        id="rename_attached_model",
    ),
    pytest.param(
        "two_renamed_rats",
        marks=_MARK.dm_control_api(
            "locomotion.walkers.Rat", "locomotion.walkers.Rat.observable_tendons"
        ),
        id="two_renamed_rats",
    ),
    pytest.param(
        "go_to_target_tolerance",
        marks=_MARK.dm_control_api(
            "locomotion.tasks.go_to_target.DEFAULT_DISTANCE_TOLERANCE_TO_TARGET"
        ),
        id="go_to_target_tolerance",
    ),
    pytest.param(
        "maze_with_subtargets",
        marks=_MARK.dm_control_api(
            "locomotion.tasks.RepeatSingleGoalMazeAugmentedWithTargets",
            "locomotion.tasks.RepeatSingleGoalMazeAugmentedWithTargets.get_reward",
            "locomotion.tasks.RepeatSingleGoalMazeAugmentedWithTargets.initialize_episode_mjcf",
            "locomotion.tasks.RepeatSingleGoalMazeAugmentedWithTargets.should_terminate_episode",
        ),
        id="maze_with_subtargets",
    ),
    pytest.param(
        "maze_with_more_subtargets_than_cells",
        marks=_MARK.dm_control_api(
            "locomotion.tasks.RepeatSingleGoalMazeAugmentedWithTargets",
            "locomotion.tasks.RepeatSingleGoalMazeAugmentedWithTargets.get_reward",
            "locomotion.tasks.RepeatSingleGoalMazeAugmentedWithTargets.initialize_episode_mjcf",
            "locomotion.tasks.RepeatSingleGoalMazeAugmentedWithTargets.should_terminate_episode",
        ),
        id="maze_with_more_subtargets_than_cells",
    ),
    pytest.param(
        "maze_with_no_subtargets",
        marks=_MARK.dm_control_api(
            "locomotion.tasks.RepeatSingleGoalMazeAugmentedWithTargets",
            "locomotion.tasks.RepeatSingleGoalMazeAugmentedWithTargets.get_reward",
            "locomotion.tasks.RepeatSingleGoalMazeAugmentedWithTargets.initialize_episode_mjcf",
            "locomotion.tasks.RepeatSingleGoalMazeAugmentedWithTargets.should_terminate_episode",
        ),
        id="maze_with_no_subtargets",
    ),
    pytest.param(
        "soccer_reexports",
        marks=_MARK.dm_control_api(
            "locomotion.soccer.MINI_FOOTBALL_GOAL_SIZE",
            "locomotion.soccer.MINI_FOOTBALL_MAX_AREA_PER_HUMANOID",
            "locomotion.soccer.MINI_FOOTBALL_MIN_AREA_PER_HUMANOID",
            "locomotion.soccer.RGBA_BLUE",
            "locomotion.soccer.RGBA_RED",
        ),
        id="soccer_reexports",
    ),
    pytest.param(
        "interception_observables",
        marks=_MARK.dm_control_api("locomotion.soccer.InterceptionObservablesAdder"),
        id="interception_observables",
    ),
    pytest.param(
        "goal_set_position",
        marks=_MARK.dm_control_api("locomotion.soccer.pitch.Goal.set_position"),
        id="goal_set_position",
    ),
    pytest.param(
        "tracking_camera",
        marks=_MARK.dm_control_api(
            "locomotion.soccer.camera.MultiplayerTrackingCamera",
            "locomotion.soccer.camera.MultiplayerTrackingCamera.after_compile",
            "locomotion.soccer.camera.MultiplayerTrackingCamera.after_step",
            "locomotion.soccer.camera.MultiplayerTrackingCamera.camera",
            "locomotion.soccer.camera.MultiplayerTrackingCamera.initialize_episode",
            "locomotion.soccer.camera.MultiplayerTrackingCamera.render",
        ),
        id="tracking_camera",
    ),
    pytest.param(
        "explore_main",
        marks=_MARK.dm_control_api("locomotion.soccer.explore.main"),
        id="explore_main",
    ),
]


@pytest.fixture(scope="module")
def remaining_run(differential):
    return differential.compare(
        PROGRAM, "surface_locomotion_remaining", rtol=1e-6, atol=1e-8, timeout_s=600
    )


@pytest.mark.parametrize("case", CASES)
def test_remaining_locomotion_surface_matches_dm_control(remaining_run, case):
    assert_case(remaining_run, case)
