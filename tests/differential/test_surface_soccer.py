"""dm_control's soccer surface, case by case: its constants, the BoxHead walker's
handles, observables and actions, the pitch and its goals, the randomized pitch,
the ball's hit and possession tracking, the teams and players, and the single-
and multi-turn tasks along a seeded policy; each run on both sides and compared.

The program reaches the classes through their modules (`soccer.boxhead.BoxHead`),
as `locomotion.soccer` here does not re-export them all.
"""

import pytest

from tests.differential.surface_cases import PRELUDE, assert_case

_MARK = pytest.mark

PROGRAM = (
    PRELUDE
    + r"""
import numpy as np
from dm_control import composer, mjcf
from dm_control.locomotion import soccer
from dm_control.locomotion.soccer import boxhead, initializers, pitch, soccer_ball, team
from dm_control.locomotion.soccer import observables as soccer_observables
from dm_control.locomotion.soccer import task as soccer_task


def names(elements):
    return [element.name for element in elements]


@case("constants")
def _(put):
    put("WalkerType", [(member.name, member.value) for member in
                       (soccer.WalkerType.BOXHEAD, soccer.WalkerType.ANT,
                        soccer.WalkerType.HUMANOID)])
    put("Team", [(member.name, member.value) for member in (team.Team.HOME, team.Team.AWAY)])
    put("RGBA", [list(team.RGBA_BLUE), list(team.RGBA_RED)])
    put("MINI_FOOTBALL", [pitch.MINI_FOOTBALL_GOAL_SIZE, pitch.MINI_FOOTBALL_MIN_AREA_PER_HUMANOID,
                          pitch.MINI_FOOTBALL_MAX_AREA_PER_HUMANOID])


@case("boxhead")
def _(put):
    walker = boxhead.BoxHead(name="home0", walker_id=0, marker_rgba=team.RGBA_BLUE,
                             camera_control=True)
    put("mjcf_model", walker.mjcf_model.model)
    put("actuators", names(walker.actuators))
    put("egocentric_camera", walker.egocentric_camera.name)
    put("end_effectors", names(walker.end_effectors))
    put("ground_contact_geoms", names(walker.ground_contact_geoms))
    put("marker_geoms", names(walker.marker_geoms))
    put("observable_joints", names(walker.observable_joints))
    put("observable_camera_joints", names(walker.observable_camera_joints))
    put("root_body", walker.root_body.name)
    observables = walker.observables
    put("observables_class", isinstance(observables, boxhead.BoxHeadObservables))
    name_of = {id(o): n for n, o in observables.as_dict(fully_qualified=False).items()}
    put("proprioception", [name_of[id(o)] for o in observables.proprioception])
    put("egocentric_camera_observable", type(observables.egocentric_camera).__name__)
    arena = composer.Arena()
    frame = arena.attach(walker)
    walker.create_root_joints(frame)
    physics = mjcf.Physics.from_mjcf_model(arena.mjcf_model)
    random_state = np.random.RandomState(3)
    walker.initialize_episode(physics, random_state)
    walker.set_pose(physics, position=[1.0, 2.0, 0.5], quaternion=[np.cos(0.2), 0, 0, np.sin(0.2)])
    walker.set_velocity(physics, velocity=[0.5, 0.0, 0.0])
    physics.forward()
    put("root_xpos", physics.bind(walker.root_body).xpos)
    put("qvel", physics.data.qvel)
    action = np.linspace(-0.5, 0.5, len(walker.actuators))
    walker.apply_action(physics, action, random_state)
    put("ctrl", physics.data.ctrl)
    put("prev_action", walker.prev_action)
    for name in ("camera_joints_pos", "camera_joints_vel"):
        put("observable/" + name, getattr(observables, name).observation_callable(physics)())


@case("pitch")
def _(put):
    arena = pitch.Pitch(size=(12, 9), goal_size=(1.0, 2.0, 1.0))
    put("size", np.asarray(arena.size, dtype=float))
    put("goals", [arena.home_goal.mjcf_model.model, arena.away_goal.mjcf_model.model])
    put("goal_class", isinstance(arena.home_goal, pitch.Goal))
    put("field", arena.field.mjcf_model.model)
    put("ground_geom", arena.ground_geom.name)
    put("goalpost_rgba", [np.asarray(arena.home_goal.goalpost_rgba),
                          np.asarray(arena.home_goal.goalpost_detected_rgba)])
    ball = soccer_ball.SoccerBall(radius=0.35, mass=0.045, name="ball")
    arena.add_free_entity(ball)
    arena.register_ball(ball)
    physics = mjcf.Physics.from_mjcf_model(arena.mjcf_model)
    results = []
    for position in ([0.0, 0.0, 0.5], [12.5, 0.0, 0.5], [-12.5, 0.0, 0.5], [0.0, 9.5, 0.5]):
        ball.set_pose(physics, position=position)
        physics.forward()
        arena.after_substep(physics, np.random.RandomState(0))
        results.append([arena.detected_goal(), arena.detected_off_court()])
    put("detections", results)
    arena.home_goal.resize(pos=[0.0, 0.0, 0.0], size=[1.0, 1.5, 0.8])
    put("resized", mjcf.Physics.from_mjcf_model(arena.mjcf_model).model.ngeom)


@case("randomized_pitch")
def _(put):
    arena = pitch.RandomizedPitch(min_size=(10, 8), max_size=(20, 15))
    sizes = []
    random_state = np.random.RandomState(7)
    for _ in range(3):
        arena.initialize_episode_mjcf(random_state)
        sizes.append(np.asarray(arena.size, dtype=float))
    put("sizes", sizes)


@case("load_seeded")
def _(put):
    # soccer.load's RandomizedPitch: the task and composer's hooks both lay the
    # arena out, so each episode draws the size twice and keeps the second draw.
    for walker_type in (soccer.WalkerType.BOXHEAD, soccer.WalkerType.ANT):
        env = soccer.load(team_size=2, time_limit=2.0, random_state=3, walker_type=walker_type)
        for episode in range(2):
            timestep = env.reset()
            put(f"{walker_type.name}/{episode}/size", np.asarray(env.task.arena.size, dtype=float))
            put(f"{walker_type.name}/{episode}/ball", env.physics.bind(env.task.ball.root_body).xpos)
            put(f"{walker_type.name}/{episode}/players",
                [env.physics.bind(p.walker.root_body).xpos for p in env.task.players])
            put(f"{walker_type.name}/{episode}/goal", timestep.observation[0]["team_goal_mid"])


@case("ball")
def _(put):
    ball = soccer_ball.regulation_soccer_ball()
    put("regulation", [ball.mjcf_model.model, ball.geom.size[0], ball.geom.mass])
    ball = soccer_ball.SoccerBall(name="ball")
    players = [team.Player(team.Team.HOME, boxhead.BoxHead(name="home0", walker_id=0, marker_rgba=team.RGBA_BLUE)),
               team.Player(team.Team.AWAY, boxhead.BoxHead(name="away0", walker_id=0, marker_rgba=team.RGBA_RED))]
    put("players", [(p.team.name, p.walker.mjcf_model.model) for p in players])
    arena = composer.Arena()
    arena.add_free_entity(ball)
    for player in players:
        player.walker.create_root_joints(arena.attach(player.walker))
        ball.register_player(player)
    physics = mjcf.Physics.from_mjcf_model(arena.mjcf_model)
    random_state = np.random.RandomState(0)
    ball.initialize_episode(physics, random_state)
    ball.initialize_entity_trackers()
    players[0].walker.set_pose(physics, position=[0.0, 0.0, 0.3])
    ball.set_pose(physics, position=[0.3, 0.0, 0.3])
    ball.set_velocity(physics, velocity=[-2.0, 0.0, 0.0])
    players[1].walker.set_pose(physics, position=[5.0, 5.0, 0.3])
    states = []
    for _ in range(20):
        ball.before_step(physics, random_state)
        physics.step()
        ball.after_substep(physics, random_state)
        ball.after_step(physics, random_state)
        last = ball.last_hit
        states.append([ball.hit, ball.repossessed, ball.intercepted,
                       None if last is None else last.walker.mjcf_model.model])
    put("states", states)
    put("dist_between_last_hits", ball.dist_between_last_hits)


@case("task")
def _(put):
    players = [team.Player(team.Team.HOME, boxhead.BoxHead(name="home0", walker_id=0, marker_rgba=team.RGBA_BLUE)),
               team.Player(team.Team.AWAY, boxhead.BoxHead(name="away0", walker_id=0, marker_rgba=team.RGBA_RED))]
    task = soccer_task.Task(players=players, arena=pitch.Pitch(size=(10, 8)),
                            ball=soccer_ball.SoccerBall(),
                            initializer=initializers.UniformInitializer(),
                            observables=soccer_observables.CoreObservablesAdder())
    put("root_entity", isinstance(task.root_entity, pitch.Pitch))
    put("observables", type(task.observables).__name__)
    put("reward_spec", task.get_reward_spec())
    put("discount_spec", task.get_discount_spec())
    env = composer.Environment(task, random_state=5)
    spec = env.action_spec()
    put("action_spec", [(s.shape, s.name) for s in spec])
    timestep = env.reset()
    put("observation_keys", [sorted(o) for o in timestep.observation])
    policy = np.random.RandomState(1)
    outcome = []
    for _ in range(4):
        timestep = env.step([policy.uniform(s.minimum, s.maximum) for s in spec])
        outcome.append([np.asarray(timestep.reward), np.asarray(timestep.discount),
                        int(timestep.step_type)])
    put("outcome", outcome)


@case("multiturn_task")
def _(put):
    players = [team.Player(team.Team.HOME, boxhead.BoxHead(name="home0", walker_id=0, marker_rgba=team.RGBA_BLUE)),
               team.Player(team.Team.AWAY, boxhead.BoxHead(name="away0", walker_id=0, marker_rgba=team.RGBA_RED))]
    task = soccer_task.MultiturnTask(
        players=players, arena=pitch.Pitch(size=(10, 8)),
        observables=soccer_observables.MultiObservablesAdder(
            [soccer_observables.CoreObservablesAdder()]))
    put("isinstance", [isinstance(task, soccer_task.Task),
                       isinstance(initializers.UniformInitializer(), initializers.Initializer),
                       isinstance(soccer_observables.CoreObservablesAdder(),
                                  soccer_observables.ObservablesAdder)])
    env = composer.Environment(task, random_state=5)
    spec = env.action_spec()
    timestep = env.reset()
    for _ in range(3):
        timestep = env.step([np.zeros(s.shape) for s in spec])
    put("discount", np.asarray(timestep.discount))
    put("terminated", task.should_terminate_episode(env.physics))
    put("get_discount", np.asarray(task.get_discount(env.physics)))


@case("task_no_players")
def _(put):
    task = soccer_task.Task(players=[], arena=pitch.Pitch(size=(10, 8)))
    put("discount_spec_type", type(task.get_discount_spec()).__name__)
    env = composer.Environment(task, random_state=3, time_limit=0.1)
    put("specs", [env.action_spec(), env.observation_spec(), env.reward_spec()])
    timestep = env.reset()
    outcome = [[timestep.observation, timestep.reward, timestep.discount]]
    while not timestep.last():
        timestep = env.step([])
        outcome.append([timestep.observation, timestep.reward, np.asarray(timestep.discount)])
    put("outcome", outcome)
    put("ball_xpos", env.physics.bind(task.ball.geom).xpos)


@case("task_tracking_cameras")
def _(put):
    from dm_control.locomotion.soccer import camera
    players = [team.Player(team.Team.HOME, boxhead.BoxHead(name="home0", walker_id=0, marker_rgba=team.RGBA_BLUE)),
               team.Player(team.Team.AWAY, boxhead.BoxHead(name="away0", walker_id=0, marker_rgba=team.RGBA_RED))]
    trackers = [camera.MultiplayerTrackingCamera(min_distance=distance, distance_factor=1.5,
                                                 smoothing_update_speed=0.25, width=64, height=48)
                for distance in (1.0, 3.0)]
    task = soccer_task.MultiturnTask(players=players, arena=pitch.Pitch(size=(10, 8)),
                                     tracking_cameras=trackers)
    env = composer.Environment(task, random_state=7)
    spec = env.action_spec()

    def poses():
        return [[np.array(p.lookat), p.distance, p.azimuth, p.elevation]
                for p in (tracker.camera.get_pose() for tracker in trackers)]

    env.reset()
    put("after_reset", poses())
    for _ in range(3):
        env.step([np.zeros(s.shape) for s in spec])
    put("after_steps", poses())
    frame = trackers[0].render()
    put("frame", [frame.shape, str(frame.dtype)])


@case("boxhead_free_entity_set_pose")
def _(put):
    walker = boxhead.BoxHead(name="home0", walker_id=0, marker_rgba=team.RGBA_BLUE)
    arena = composer.Arena()
    arena.add_free_entity(walker)
    physics = mjcf.Physics.from_mjcf_model(arena.mjcf_model)
    walker.set_pose(physics, position=[1.0, 2.0, 0.5])
    physics.forward()
    put("root_xpos", physics.bind(walker.root_body).xpos)


@case("boxhead_yaw_and_spin")
def _(put):
    walker = boxhead.BoxHead(name="home0", walker_id=0, marker_rgba=team.RGBA_BLUE)
    arena = composer.Arena()
    walker.create_root_joints(arena.attach(walker))
    physics = mjcf.Physics.from_mjcf_model(arena.mjcf_model)
    walker.set_pose(physics, position=[0.5, -1.0, 0.0], quaternion=[np.cos(0.35), 0.1, 0.0, np.sin(0.35)])
    walker.set_velocity(physics, velocity=[0.2, 0.1, 0.0], angular_velocity=[0.0, 0.0, 1.5])
    walker.shift_pose(physics, position=[1.0, 0.0, 0.0])
    physics.forward()
    put("qpos", physics.data.qpos)
    put("qvel", physics.data.qvel)
    put("root_xmat", physics.bind(walker.root_body).xmat)


@case("boxhead_get_pose")
def _(put):
    walker = boxhead.BoxHead(name="home0", walker_id=0, marker_rgba=team.RGBA_BLUE)
    arena = composer.Arena()
    walker.create_root_joints(arena.attach(walker))
    physics = mjcf.Physics.from_mjcf_model(arena.mjcf_model)
    walker.set_pose(physics, position=[1.0, 2.0, 0.5])
    physics.forward()
    put("pose", walker.get_pose(physics))
"""
)

CASES = [
    pytest.param(
        "constants",
        marks=_MARK.dm_control_api(
            "locomotion.soccer.WalkerType.ANT",
            "locomotion.soccer.WalkerType.BOXHEAD",
            "locomotion.soccer.WalkerType.HUMANOID",
            "locomotion.soccer.Team",
            "locomotion.soccer.Team.HOME",
            "locomotion.soccer.Team.AWAY",
            "locomotion.soccer.team.RGBA_BLUE",
            "locomotion.soccer.team.RGBA_RED",
            "locomotion.soccer.pitch.MINI_FOOTBALL_GOAL_SIZE",
            "locomotion.soccer.pitch.MINI_FOOTBALL_MIN_AREA_PER_HUMANOID",
            "locomotion.soccer.pitch.MINI_FOOTBALL_MAX_AREA_PER_HUMANOID",
        ),
        id="constants",
    ),
    pytest.param(
        "load_seeded",
        marks=_MARK.dm_control_api(
            "locomotion.soccer.load",
            "locomotion.soccer.Task.initialize_episode_mjcf",
            "locomotion.soccer.RandomizedPitch.initialize_episode_mjcf",
        ),
        id="load_seeded",
    ),
    pytest.param(
        "boxhead",
        marks=_MARK.dm_control_api(
            "locomotion.soccer.BoxHead",
            "locomotion.soccer.BoxHead.actuators",
            "locomotion.soccer.BoxHead.egocentric_camera",
            "locomotion.soccer.BoxHead.end_effectors",
            "locomotion.soccer.BoxHead.ground_contact_geoms",
            "locomotion.soccer.BoxHead.marker_geoms",
            "locomotion.soccer.BoxHead.mjcf_model",
            "locomotion.soccer.BoxHead.observable_camera_joints",
            "locomotion.soccer.BoxHead.observable_joints",
            "locomotion.soccer.BoxHead.root_body",
            "locomotion.soccer.BoxHead.create_root_joints",
            "locomotion.soccer.BoxHead.initialize_episode",
            "locomotion.soccer.BoxHead.set_pose",
            "locomotion.soccer.BoxHead.set_velocity",
            "locomotion.soccer.BoxHead.apply_action",
            "locomotion.soccer.BoxHead.prev_action",
            "locomotion.soccer.boxhead.BoxHeadObservables",
            "locomotion.soccer.boxhead.BoxHeadObservables.camera_joints_pos",
            "locomotion.soccer.boxhead.BoxHeadObservables.camera_joints_vel",
            "locomotion.soccer.boxhead.BoxHeadObservables.egocentric_camera",
            "locomotion.soccer.boxhead.BoxHeadObservables.proprioception",
        ),
        id="boxhead",
    ),
    pytest.param(
        "boxhead_free_entity_set_pose",
        marks=_MARK.dm_control_api("locomotion.soccer.BoxHead.set_pose"),
        id="boxhead_free_entity_set_pose",
    ),
    pytest.param(
        "boxhead_yaw_and_spin",
        marks=_MARK.dm_control_api(
            "locomotion.soccer.BoxHead.set_pose",
            "locomotion.soccer.BoxHead.set_velocity",
            "composer.Entity.shift_pose",
        ),
        id="boxhead_yaw_and_spin",
    ),
    pytest.param(
        "boxhead_get_pose",
        marks=_MARK.dm_control_api("composer.Entity.get_pose"),
        id="boxhead_get_pose",
    ),
    pytest.param(
        "pitch",
        marks=_MARK.dm_control_api(
            "locomotion.soccer.Pitch",
            "locomotion.soccer.Pitch.size",
            "locomotion.soccer.Pitch.home_goal",
            "locomotion.soccer.Pitch.away_goal",
            "locomotion.soccer.Pitch.field",
            "locomotion.soccer.Pitch.ground_geom",
            "locomotion.soccer.Pitch.register_ball",
            "locomotion.soccer.Pitch.detected_goal",
            "locomotion.soccer.Pitch.detected_off_court",
            "locomotion.soccer.pitch.Goal",
            "locomotion.soccer.pitch.Goal.goalpost_rgba",
            "locomotion.soccer.pitch.Goal.goalpost_detected_rgba",
            "locomotion.soccer.pitch.Goal.resize",
        ),
        id="pitch",
    ),
    pytest.param(
        "randomized_pitch",
        marks=_MARK.dm_control_api(
            "locomotion.soccer.RandomizedPitch",
            "locomotion.soccer.RandomizedPitch.initialize_episode_mjcf",
        ),
        id="randomized_pitch",
    ),
    pytest.param(
        "ball",
        marks=_MARK.dm_control_api(
            "locomotion.soccer.regulation_soccer_ball",
            "locomotion.soccer.SoccerBall",
            "locomotion.soccer.SoccerBall.register_player",
            "locomotion.soccer.SoccerBall.initialize_episode",
            "locomotion.soccer.SoccerBall.initialize_entity_trackers",
            "locomotion.soccer.SoccerBall.before_step",
            "locomotion.soccer.SoccerBall.after_substep",
            "locomotion.soccer.SoccerBall.after_step",
            "locomotion.soccer.SoccerBall.hit",
            "locomotion.soccer.SoccerBall.repossessed",
            "locomotion.soccer.SoccerBall.intercepted",
            "locomotion.soccer.SoccerBall.last_hit",
            "locomotion.soccer.SoccerBall.dist_between_last_hits",
            "locomotion.soccer.Player",
            "locomotion.soccer.Player.team",
            "locomotion.soccer.Player.walker",
        ),
        id="ball",
    ),
    pytest.param(
        "task",
        marks=_MARK.dm_control_api(
            "locomotion.soccer.Task",
            "locomotion.soccer.Task.root_entity",
            "locomotion.soccer.Task.observables",
            "locomotion.soccer.Task.get_reward_spec",
            "locomotion.soccer.Task.get_discount_spec",
            "locomotion.soccer.Task.action_spec",
            "locomotion.soccer.Task.initialize_episode_mjcf",
            "locomotion.soccer.Task.after_compile",
            "locomotion.soccer.Task.initialize_episode",
            "locomotion.soccer.Task.before_step",
            "locomotion.soccer.Task.after_step",
            "locomotion.soccer.Task.get_reward",
            "locomotion.soccer.Task.get_discount",
            "locomotion.soccer.Task.should_terminate_episode",
            "locomotion.soccer.UniformInitializer",
            "locomotion.soccer.CoreObservablesAdder",
        ),
        id="task",
    ),
    pytest.param(
        "multiturn_task",
        marks=_MARK.dm_control_api(
            "locomotion.soccer.MultiturnTask",
            "locomotion.soccer.MultiturnTask.after_step",
            "locomotion.soccer.MultiturnTask.before_step",
            "locomotion.soccer.MultiturnTask.get_discount",
            "locomotion.soccer.MultiturnTask.should_terminate_episode",
            "locomotion.soccer.MultiObservablesAdder",
            "locomotion.soccer.Initializer",
            "locomotion.soccer.ObservablesAdder",
        ),
        id="multiturn_task",
    ),
    pytest.param(
        "task_no_players",
        marks=_MARK.dm_control_api(
            "locomotion.soccer.Task",
            "locomotion.soccer.Task.get_discount_spec",
            "locomotion.soccer.Task.action_spec",
        ),
        id="task_no_players",
    ),
    pytest.param(
        "task_tracking_cameras",
        marks=_MARK.dm_control_api(
            "locomotion.soccer.MultiturnTask",
            "locomotion.soccer.MultiturnTask.after_step",
            "locomotion.soccer.Task.after_compile",
            "locomotion.soccer.Task.initialize_episode",
            "locomotion.soccer.Task.after_step",
        ),
        id="task_tracking_cameras",
    ),
]


@pytest.fixture(scope="module")
def soccer_run(differential):
    from composer_tasks import porting

    if porting.map_module("dm_control.locomotion.soccer") is None:
        pytest.skip("composer_tasks.porting.MODULE_MAP does not map dm_control.locomotion.soccer")
    return differential.compare(PROGRAM, "surface_soccer", rtol=1e-6, atol=1e-8, timeout_s=600)


@pytest.mark.parametrize("case", CASES)
def test_soccer_surface_matches_dm_control(soccer_run, case):
    assert_case(soccer_run, case)
