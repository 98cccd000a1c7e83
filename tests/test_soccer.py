"""The soccer task and `suites.soccer`: dm-control 1.0.50's per-agent specs and goal
outcomes (tests/conformance/reference/soccer.json), observation semantics on
constructed states, determinism, batching, the PettingZoo adapter and bad inputs."""

import json
import pickle
import os

import dm_env
import numpy as np
import pytest
from pettingzoo.test import parallel_api_test

from composer_tasks import batch as batch_module
from composer_tasks import composer
from composer_tasks import policies
from composer_tasks.tasks import soccer as soccer_tasks
from composer_tasks.wrappers import pettingzoo as pettingzoo_wrapper
from suites import cli
from suites import soccer

_REFERENCE = json.load(
    open(os.path.join(os.path.dirname(__file__), "conformance", "reference", "soccer.json"))
)
_REFERENCE_WALKERS = ("BOXHEAD", "ANT")


def _zeros(env):
    return [np.zeros(spec.shape) for spec in env.action_spec()]


def _random_actions(env, random_state):
    return [random_state.uniform(spec.minimum, spec.maximum) for spec in env.action_spec()]


@pytest.mark.parametrize("walker", _REFERENCE_WALKERS)
@pytest.mark.parametrize("team_size", [1, 2])
def test_specs_match_dm_control(walker, team_size):
    reference = _REFERENCE["specs"][f"{walker}-{team_size}"]
    env = soccer.load(team_size, walker_type=soccer.WalkerType[walker], random_state=0)
    assert env.num_agents == reference["num_agents"] == 2 * team_size
    observation_spec = env.observation_spec()
    assert len(observation_spec) == reference["num_agents"]
    for agent_spec, expected in zip(observation_spec, reference["observations"]):
        got = [
            [name, list(spec.shape), np.dtype(spec.dtype).name] for name, spec in agent_spec.items()
        ]
        assert got == expected
    for spec, expected in zip(env.action_spec(), reference["actions"]):
        assert spec.name == expected["name"]
        assert list(spec.shape) == expected["shape"] and spec.dtype == np.dtype(expected["dtype"])
        np.testing.assert_array_equal(
            np.broadcast_to(spec.minimum, spec.shape), expected["minimum"]
        )
        np.testing.assert_array_equal(
            np.broadcast_to(spec.maximum, spec.shape), expected["maximum"]
        )
    assert [
        (spec.name, list(spec.shape), np.dtype(spec.dtype).name) for spec in env.reward_spec()
    ] == [(spec["name"], spec["shape"], spec["dtype"]) for spec in reference["rewards"]]
    discount = env.discount_spec()
    assert (discount.name, list(discount.shape), np.dtype(discount.dtype).name) == (
        reference["discount"]["name"],
        reference["discount"]["shape"],
        reference["discount"]["dtype"],
    )
    assert env.task.physics_timestep == reference["physics_timestep"]
    assert env.task.control_timestep == reference["control_timestep"]
    timestep = env.reset()
    for agent_spec, observation in zip(observation_spec, timestep.observation):
        for name, spec in agent_spec.items():
            spec.validate(observation[name])


# The accelerometer reads contact forces, which the constraint solver finds to
# about 1e-5 from a cold start (and MuJoCo 3.17 and 4.0 differ there); every
# other observation is geometry and agrees to rounding.
_ACCELEROMETER_TOLERANCE = 1e-4
_OBSERVATION_TOLERANCE = 1e-9


@pytest.mark.parametrize("key", sorted(_REFERENCE["states"]))
def test_observation_values_match_dm_control_at_recorded_states(key):
    walker, team_size = key.split("-")
    state = _REFERENCE["states"][key]
    env = soccer.load(int(team_size), walker_type=soccer.WalkerType[walker], random_state=0)
    env.reset()
    task = env.task
    task.arena.set_size(state["size"])
    env.physics.recompile()
    physics = env.physics
    physics.data.qpos[:] = state["qpos"]
    physics.data.qvel[:] = state["qvel"]
    for player, action in zip(task.players, state["actions"]):
        player.walker.apply_action(physics, np.array(action), None)
    physics.forward()
    for observables, expected in zip(task.observables, state["observations"]):
        assert set(expected) <= set(observables)
        for name, value in expected.items():
            got = np.asarray(observables[name].observation_callable(physics)(), dtype=np.float64)
            tolerance = (
                _ACCELEROMETER_TOLERANCE
                if name == "sensors_accelerometer"
                else _OBSERVATION_TOLERANCE
            )
            np.testing.assert_allclose(
                got.reshape(np.shape(value)), value, rtol=0, atol=tolerance, err_msg=name
            )


@pytest.mark.parametrize("team_size", [1, 2])
@pytest.mark.parametrize("terminate_on_goal", [True, False])
@pytest.mark.parametrize("goal_name", ["home_goal", "away_goal"])
def test_ball_in_a_goal_gives_dm_controls_outcome(team_size, terminate_on_goal, goal_name):
    env = soccer.load(team_size, terminate_on_goal=terminate_on_goal, random_state=0)
    env.reset()
    goal = getattr(env.task.arena, goal_name)
    env.task.ball.set_pose(env.physics, (goal.upper + goal.lower) / 2.0)
    env.task.ball.set_velocity(env.physics, velocity=np.zeros(3), angular_velocity=np.zeros(3))
    timestep = env.step(_zeros(env))
    expected = _REFERENCE["goals"][f"{team_size}-{terminate_on_goal}-{goal_name}"]
    assert int(timestep.step_type) == expected["step_type"]
    assert [float(reward) for reward in timestep.reward] == expected["rewards"]
    assert all(reward.dtype == np.float32 for reward in timestep.reward)
    assert float(timestep.discount) == expected["discount"]
    assert [float(o["stats_home_score"][0]) for o in timestep.observation] == expected[
        "stats_home_score"
    ]
    assert [float(o["stats_away_score"][0]) for o in timestep.observation] == expected[
        "stats_away_score"
    ]
    # The home team defends the goal at -x: a ball there is the away team's goal.
    scorer = soccer_tasks.Team.AWAY if goal_name == "home_goal" else soccer_tasks.Team.HOME
    assert env.task.arena.detected_goal() is scorer
    if not terminate_on_goal:
        # Play goes on from new placements: the ball is back on the field.
        ball = env.physics.bind(env.task.ball.geom).xpos
        assert np.all(np.abs(ball[:2]) < np.asarray(env.task.arena.size))
        assert not np.all((ball >= goal.lower) & (ball <= goal.upper))
        timestep = env.step(_zeros(env))
        assert timestep.mid() and [float(r) for r in timestep.reward] == [0.0] * env.num_agents


def test_no_goal_gives_zero_rewards_and_discount_one():
    env = soccer.load(1, random_state=0)
    env.reset()
    timestep = env.step(_zeros(env))
    assert timestep.mid() and timestep.discount == 1.0 and timestep.discount.dtype == np.float32
    assert [float(r) for r in timestep.reward] == [0.0, 0.0]
    assert [float(o["stats_home_score"][0]) for o in timestep.observation] == [0.0, 0.0]


def test_time_limit_truncates_with_discount_one():
    env = soccer.load(1, time_limit=0.1, random_state=0)
    env.reset()
    steps = [env.step(_zeros(env)) for _ in range(4)]
    assert [step.step_type for step in steps] == [dm_env.StepType.MID] * 3 + [dm_env.StepType.LAST]
    assert steps[-1].discount == 1.0


def _rotation_and_com(physics, body):
    bound = physics.bind(body)
    return np.asarray(bound.ximat).reshape(3, 3), np.asarray(bound.xipos)


def test_egocentric_observations_on_a_constructed_state():
    env = soccer.load(2, random_state=1)
    task = env.task
    timestep = env.reset()
    physics = env.physics
    home0, home1, away0, away1 = [player.walker for player in task.players]
    # The ball in the player's root inertial frame (dm_control's frame sensors).
    rotation, com = _rotation_and_com(physics, home0.root_body)
    ball_com = np.asarray(physics.bind(task.ball.root_body).xipos)
    np.testing.assert_allclose(
        timestep.observation[0]["ball_ego_position"][0], rotation.T @ (ball_com - com), atol=1e-9
    )
    other_rotation, other_com = _rotation_and_com(physics, away1.root_body)
    np.testing.assert_allclose(
        timestep.observation[0]["opponent_1_ego_position"][0],
        rotation.T @ (other_com - com),
        atol=1e-9,
    )
    np.testing.assert_allclose(
        timestep.observation[0]["opponent_1_ego_orientation"][0],
        (rotation.T @ other_rotation).T.reshape(-1),
        atol=1e-9,
    )
    teammate_rotation, teammate_com = _rotation_and_com(physics, home1.root_body)
    np.testing.assert_allclose(
        timestep.observation[0]["teammate_0_ego_position"][0],
        rotation.T @ (teammate_com - com),
        atol=1e-9,
    )
    # The home player's own goal is the home goal; the away player's the away goal.
    arena = task.arena
    for index, own_goal in ((0, arena.home_goal), (2, arena.away_goal)):
        root = physics.bind(task.players[index].walker.root_body)
        root_rotation = np.asarray(root.xmat).reshape(3, 3)
        np.testing.assert_allclose(
            timestep.observation[index]["team_goal_mid"][0],
            (own_goal.mid - root.xpos) @ root_rotation,
            atol=1e-9,
        )
        np.testing.assert_allclose(
            timestep.observation[index]["field_front_left"][0],
            (
                np.asarray((arena.field.upper if index == 0 else arena.field.lower)[:2])
                - root.xpos[:2]
            )
            @ root_rotation[:2, :2],
            atol=1e-9,
        )
    distance = np.linalg.norm(
        physics.bind(home0.root_body).xpos - physics.bind(home1.root_body).xpos
    )
    assert timestep.observation[0]["stats_home_avg_teammate_dist"][0] == pytest.approx(distance)
    assert timestep.observation[0]["stats_teammate_spread_out"][0] == (distance > 5.0)


def test_statistics_of_a_moving_player_and_ball():
    env = soccer.load(2, random_state=3)
    task = env.task
    env.reset()
    physics = env.physics
    walker = task.players[0].walker
    ball_position = physics.bind(task.ball.geom).xpos.copy()
    # The head is above the walker's origin (get_pose is the attachment frame's, as
    # in dm_control).
    walker_position = np.array(physics.bind(walker.root_body).xpos)
    toward = (ball_position - walker_position)[:2]
    walker.set_velocity(physics, velocity=np.array([*(2.0 * toward / np.linalg.norm(toward)), 0.0]))
    task.ball.set_velocity(physics, velocity=np.array([3.0, 0.0, 0.0]))
    physics.forward()
    features = task._observables_adder._features.values(physics)
    assert features["stats_vel_to_ball"][0] == pytest.approx(2.0, rel=1e-3)
    # The ball rolls towards +x: towards the away goal, which the home team attacks.
    assert features["stats_vel_ball_to_goal"][0] > 0 > features["stats_vel_ball_to_goal"][2]
    home = [0, 1]
    distances = [
        np.linalg.norm(ball_position - physics.bind(task.players[i].walker.root_body).xpos)
        for i in home
    ]
    closest = home[int(np.argmin(distances))]
    other = home[1 - home.index(closest)]
    assert features["stats_closest_vel_to_ball"][other] == 0.0
    assert features["stats_closest_vel_to_ball"][closest] == features["stats_vel_to_ball"][closest]


def test_initialisation_places_everything_apart_at_rest():
    env = soccer.load(2, random_state=5)
    task = env.task
    headings = []
    for _ in range(3):
        env.reset()
        physics = env.physics
        spawn = np.asarray(task.arena.size) * 0.6
        ball = physics.bind(task.ball.geom).xpos
        assert np.all(np.abs(ball[:2]) <= spawn)
        owners = task.geom_owners(physics)
        contacts = physics.data.contact.geom[: physics.data.ncon]
        first, second = owners[contacts[:, 0]], owners[contacts[:, 1]]
        assert not np.any((first >= 0) & (second >= 0) & (first != second))
        for player in task.players:
            # BoxHead's pose lives in its root slides and steer hinge (its get_pose is
            # the attachment frame's, as in dm_control).
            walker = player.walker
            position = np.asarray(physics.bind(list(walker.root_joints)).qpos)
            assert np.all(np.abs(position[:2]) <= spawn)
            headings.append(float(physics.named.data.qpos[walker.prefix + "steer"][0]))
        assert np.all(physics.data.qvel == 0.0)
    # The drawn headings survive the walkers' own episode initialisation.
    assert len(set(np.round(headings, 6))) == len(headings)


def test_ball_off_the_field_is_thrown_in():
    env = soccer.load(1, random_state=0)
    task = env.task
    env.reset()
    physics = env.physics
    x_limit = task.arena.size[0] - 1.0
    task.ball.set_pose(physics, [x_limit, task.arena.size[1] - 0.5, 0.0])
    env.step(_zeros(env))
    assert task.arena.detected_off_court()
    position_before = physics.bind(task.ball.geom).xpos.copy()
    before = task.ball.get_pose(physics)[0]
    env.step(_zeros(env))
    after = np.asarray(physics.bind(task.ball.geom).xpos)
    # Shrunk towards the centre by factors in [0.7, 0.9], dropped from 0.5 m.
    assert 0.65 * abs(position_before[0]) < abs(after[0]) < 0.95 * abs(position_before[0])
    assert abs(after[1]) < 0.95 * abs(position_before[1])
    del before


def test_same_seed_same_match_bit_for_bit():
    def run(seed):
        env = soccer.load(2, random_state=seed, terminate_on_goal=False)
        actions = np.random.RandomState(9)
        steps = [env.reset()] + [env.step(_random_actions(env, actions)) for _ in range(40)]
        return steps, env.task.arena.size

    (first, size), (second, size_again) = run(4), run(4)
    assert size == size_again
    for one, two in zip(first, second):
        assert one.step_type == two.step_type
        if one.reward is not None:
            assert [r.tobytes() for r in one.reward] == [r.tobytes() for r in two.reward]
        for agent_one, agent_two in zip(one.observation, two.observation):
            assert [value.tobytes() for value in agent_one.values()] == [
                value.tobytes() for value in agent_two.values()
            ]
    other, _ = run(5)
    assert (
        other[0].observation[0]["ball_ego_position"].tobytes()
        != first[0].observation[0]["ball_ego_position"].tobytes()
    )


def test_load_arguments():
    env = soccer.load(1, disable_walker_contacts=True, random_state=0)
    for player in env.task.players:
        geoms = player.walker.spec.geoms
        assert geoms and all(geom.contype == 0 for geom in geoms)
    assert type(env.task) is soccer_tasks.Task
    assert type(soccer.load(1, terminate_on_goal=False).task) is soccer_tasks.MultiturnTask
    assert soccer.load(1, enable_field_box=True).task.arena.field_box_geoms
    assert not soccer.load(1).task.arena.field_box_geoms
    env = soccer.load(1, keep_aspect_ratio=True, random_state=2)
    ratios = set()
    for _ in range(3):
        env.reset()
        size = env.task.arena.size
        ratios.add(round(size[0] / size[1], 9))
    assert len(ratios) == 1
    assert env.task.agent_names == ["home0", "away0"]


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        ({"team_size": 0}, ValueError, "team_size must be an int between 1 and 11"),
        ({"team_size": 12}, ValueError, "team_size must be an int between 1 and 11"),
        ({"team_size": 1.5}, ValueError, "team_size must be an int"),
        (
            {"team_size": 1, "walker_type": "boxhead"},
            ValueError,
            "walker_type must be a soccer.WalkerType",
        ),
        ({"team_size": 1, "terminate_on_goal": 1}, TypeError, "terminate_on_goal must be a bool"),
        ({"team_size": 1, "enable_field_box": "yes"}, TypeError, "enable_field_box must be a bool"),
    ],
)
def test_bad_load_arguments(kwargs, error, message):
    with pytest.raises(error, match=message):
        soccer.load(**kwargs)


def test_bad_actions():
    env = soccer.load(2, random_state=0)
    env.reset()
    with pytest.raises(ValueError, match="got 3 actions for a task of 4 agents"):
        env.step(_zeros(env)[:3])
    actions = _zeros(env)
    actions[2] = np.zeros(4)
    with pytest.raises(
        ValueError, match=r"agent 2 has shape \(4,\).*'roll\\tsteer\\tkick' has shape \(3,\)"
    ):
        env.step(actions)
    actions = _zeros(env)
    actions[1] = np.array([0.0, 2.0, 0.0])
    # Outside the spec's bounds is stepped as in dm_control (MuJoCo limits the control).
    assert env.step(actions).mid()
    actions[1] = np.array([0.0, np.nan, 0.0])
    with pytest.raises(ValueError, match="agent 1 has non-finite entries"):
        env.step(actions)


def test_bad_task_arguments():
    players = soccer.make_players(1, soccer.WalkerType.BOXHEAD)
    from composer_tasks.arenas import pitch

    with pytest.raises(TypeError, match=r"tracking_cameras\[0\] must be a camera"):
        soccer_tasks.Task(players, pitch.Pitch(), tracking_cameras=["camera"])
    with pytest.raises(TypeError, match=r"players\[0\] must be a soccer_team.Player"):
        soccer_tasks.Task([players[0].walker], pitch.Pitch())
    with pytest.raises(ValueError, match="its own walker"):
        soccer_tasks.Task([players[0], players[0]], pitch.Pitch())
    with pytest.raises(ValueError, match="njmax_per_player must be an int >= 1, got 0"):
        soccer_tasks.Task(players, pitch.Pitch(), njmax_per_player=0)
    with pytest.raises(TypeError, match="disable_walker_contacts must be a bool"):
        soccer_tasks.Task(players, pitch.Pitch(), disable_walker_contacts="no")


def test_batch_of_matches_equals_single_matches():
    seed, num_envs = 3, 2
    batch = soccer.load_batch(1, num_envs, seed=seed, num_threads=1, time_limit=0.5)
    singles = [
        soccer.load(1, time_limit=0.5, random_state=batch_module.copy_seed(seed, index))
        for index in range(num_envs)
    ]
    actions = np.random.RandomState(0)
    batch_step = batch.reset()
    single_steps = [env.reset() for env in singles]
    for step in range(25):
        for agent in range(2):
            for name, value in batch_step.observation[agent].items():
                expected = np.stack([s.observation[agent][name] for s in single_steps])
                assert value.tobytes() == expected.tobytes(), (step, agent, name)
            expected = np.array(
                [0.0 if s.reward is None else s.reward[agent] for s in single_steps],
                dtype=np.float64,
            )
            assert batch_step.reward[agent].tobytes() == expected.tobytes()
        np.testing.assert_array_equal(
            batch_step.step_type, [int(s.step_type) for s in single_steps]
        )
        per_copy = [_random_actions(singles[0], actions) for _ in range(num_envs)]
        batch_step = batch.step(
            [np.stack([copy[agent] for copy in per_copy]) for agent in range(2)]
        )
        single_steps = [env.step(copy) for env, copy in zip(singles, per_copy)]
    # The 0.5 s limit is 20 control steps: the matches restarted on the way.
    assert batch.envs[0].task.arena.size == singles[0].task.arena.size


def test_pettingzoo_parallel_api():
    env = pettingzoo_wrapper.ParallelEnv(soccer.load(1, time_limit=1.0, random_state=0))
    assert env.possible_agents == ["home0", "away0"]
    parallel_api_test(env, num_cycles=50)


class _Lines:
    def __init__(self):
        self.lines = []

    def write(self, text):
        self.lines.append(text)


def test_command_line_match():
    out = _Lines()
    returns = cli.run_soccer(1, "boxhead", "random", 2, 0, out=out, time_limit=0.25)
    assert len(returns) == 2 and all(value in (-1.0, 0.0, 1.0) for value in returns)
    text = "".join(out.lines)
    assert "soccer 1-vs-1 boxhead episode 0: home return" in text and "over 10 steps" in text


@pytest.mark.slow
def test_command_line_records_a_match(tmp_path):
    # Software rendering of the pitch takes about a second per frame here.
    out = _Lines()
    cli.run_soccer(
        1, "boxhead", "zero", 1, 0, out=out, time_limit=0.1, video_path=str(tmp_path / "match.gif")
    )
    assert os.path.getsize(tmp_path / "match.gif") > 0
    assert "recorded to" in "".join(out.lines)


def test_multi_agent_task_with_default_pitch():
    from composer_tasks.arenas import pitch

    task = soccer_tasks.Task(soccer.make_players(1, soccer.WalkerType.BOXHEAD), pitch.Pitch())
    env = composer.Environment(task, random_state=0)
    assert env.task.num_agents == 2
    timestep = env.reset()
    assert len(timestep.observation) == 2


def test_registry_and_viewer_controller_show_a_match():
    from composer_tasks import registry
    from composer_tasks import viewer

    soccer.register_environments()
    assert "soccer_boxhead_2v2" in registry.names("soccer")
    env = registry.load("soccer_boxhead_1v1", seed=0)
    assert env.num_agents == 2
    controller = viewer.Controller(
        env, policy=policies.named_policy("random", env.action_spec(), 0)
    )
    assert controller.tick(0.1) == 4
    labels, values = controller.status_text()
    assert dict(zip(labels.split("\n"), values.split("\n")))["step"] == "4"
    names, _ = controller.observation_text()
    assert names.startswith("agent0/body_height\n") and "agent1/stats_away_score" in names


def test_humanoid_match_steps():
    with pytest.warns(UserWarning, match="start standing.*motion capture"):
        env = soccer.load(1, walker_type=soccer.WalkerType.HUMANOID, random_state=0)
    timestep = env.reset()
    assert env.num_agents == 2 and "prev_action" in timestep.observation[0]
    # Humanoid pitches: 100 to 350 m^2 per player, aspect 0.75 (dm_control).
    length, width = env.task.arena.size
    assert 4 * length * width == pytest.approx(np.clip(4 * length * width, 200.0, 700.0))
    assert env.task.ball.radius == pytest.approx(0.117)
    actions = np.random.RandomState(0)
    for _ in range(3):
        timestep = env.step(_random_actions(env, actions))
    assert timestep.mid()


@pytest.mark.parametrize("terminate_on_goal", [True, False])
def test_snapshot_restores_into_a_fresh_match(terminate_on_goal):
    import pickle

    env = soccer.load(2, random_state=0, terminate_on_goal=terminate_on_goal)
    actions = np.random.RandomState(1)
    env.reset()
    for _ in range(5):
        env.step(_random_actions(env, actions))
    snapshot = pickle.loads(pickle.dumps(env.snapshot()))
    later = [_random_actions(env, actions) for _ in range(15)]
    expected = [env.step(action) for action in later]
    fresh = soccer.load(2, random_state=7, terminate_on_goal=terminate_on_goal)
    fresh.reset()
    fresh.restore(snapshot)
    for action, want in zip(later, expected):
        got = fresh.step(action)
        assert got.step_type == want.step_type
        assert [r.tobytes() for r in got.reward] == [r.tobytes() for r in want.reward]
        for got_agent, want_agent in zip(got.observation, want.observation):
            for name, value in want_agent.items():
                np.testing.assert_array_equal(got_agent[name], value, err_msg=name)


def test_a_match_snapshot_restores_into_a_fresh_match_bit_for_bit():
    env = soccer.load(2, random_state=3)
    random_state = np.random.RandomState(5)
    env.reset()
    for _ in range(15):
        env.step(_random_actions(env, random_state))
    snapshot = pickle.loads(pickle.dumps(env.snapshot()))
    actions = [_random_actions(env, random_state) for _ in range(40)]
    expected = [env.step(action) for action in actions]
    fresh = soccer.load(2, random_state=4)
    fresh.reset()
    fresh.restore(snapshot)
    for step, (action, want) in enumerate(zip(actions, expected)):
        got = fresh.step(action)
        assert got.step_type == want.step_type, step
        np.testing.assert_array_equal(got.reward, want.reward, err_msg=f"step {step}")
        for agent, (got_agent, want_agent) in enumerate(zip(got.observation, want.observation)):
            for name, value in want_agent.items():
                np.testing.assert_array_equal(
                    got_agent[name], value, err_msg=f"step {step}, agent {agent}: {name}"
                )
