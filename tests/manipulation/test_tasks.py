"""The manipulation registry: specs, model sizes and initial states equal
dm-control 1.0.50's (recorded), rewards lie in [0, 1], episodes are
deterministic under their seed, and the tasks are ordinary Composer tasks
(observable options, batching)."""

import mujoco
import numpy as np
import pytest

from composer_tasks import composer
from composer_tasks.batch import BatchEnvironment
from composer_tasks.batch import copy_seed
from composer_tasks.composer import initializers
from suites import manipulation
from tests.manipulation import reference

_FEATURES = manipulation.FEATURES
# Vision environments render at every step; two are checked in the default run.
_VISION_QUICK = ("reach_site_vision", "stack_2_bricks_vision")


def test_registry_names_are_dm_control_names():
    published = set(reference.facts()["all"])
    assert set(manipulation.ALL) == published
    assert len(manipulation.ALL) == 25
    assert set(manipulation.ALL) == set(manipulation.FEATURES) | set(manipulation.VISION)


def test_unknown_name_raises_listing_valid_names():
    with pytest.raises(ValueError, match="reach_site_features"):
        manipulation.load("reach_moon_features")


def _check_specs(name):
    recorded = reference.facts()["tasks"][name]
    env = manipulation.load(name, seed=0)
    env.reset()
    observation_spec = env.observation_spec()
    assert list(observation_spec) == recorded["observation_order"], name
    for key, spec in observation_spec.items():
        assert list(spec.shape) == recorded["observations"][key]["shape"], (name, key)
        assert str(spec.dtype) == recorded["observations"][key]["dtype"], (name, key)
    action_spec = env.action_spec()
    assert list(action_spec.shape) == recorded["action"]["shape"]
    np.testing.assert_allclose(action_spec.minimum, recorded["action"]["minimum"])
    np.testing.assert_allclose(action_spec.maximum, recorded["action"]["maximum"])
    assert action_spec.name.split("\t") == recorded["action"]["actuators"]
    task = env.task
    assert task.control_timestep == pytest.approx(recorded["control_timestep"])
    assert task.physics_timestep == pytest.approx(recorded["physics_timestep"])
    assert manipulation.TIME_LIMIT_S == recorded["time_limit"]
    model = env.physics.model
    assert (model.nu, model.opt.cone, model.opt.noslip_iterations) == (
        recorded["nu"],
        recorded["cone"],
        recorded["noslip_iterations"],
    )
    return env


@pytest.mark.parametrize("name", _FEATURES)
def test_features_specs_match_dm_control(name):
    env = _check_specs(name)
    recorded = reference.facts()["tasks"][name]
    # dm_control fixes the bottom brick of a stack by recompiling without its free
    # joint at reset; here a bottom brick that is the same every episode is
    # attached without one from the start, and a randomly chosen one keeps its
    # free joint (welded to the table). The recorded sizes are those of the model
    # before that reset.
    fixed_bricks = int(
        name
        in (
            "stack_2_bricks_features",
            "stack_3_bricks_features",
            "reassemble_3_bricks_fixed_order_features",
        )
    )
    assert env.physics.model.nq == recorded["nq"] - 7 * fixed_bricks
    assert env.physics.model.nv == recorded["nv"] - 6 * fixed_bricks


@pytest.mark.parametrize("name", _VISION_QUICK)
def test_vision_specs_match_dm_control(name):
    env = _check_specs(name)
    timestep = env.step(np.zeros(9))
    image = timestep.observation["front_close"]
    assert image.shape == (1, 84, 84, 3) and image.std() > 0


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(set(manipulation.VISION) - set(_VISION_QUICK)))
def test_all_vision_specs_match_dm_control(name):
    _check_specs(name)


def _rollout(env, steps, seed):
    actions = np.random.RandomState(seed).uniform(
        env.action_spec().minimum, env.action_spec().maximum, size=(steps, 9)
    )
    timestep = env.reset()
    observations, rewards = [timestep.observation], []
    for action in actions:
        timestep = env.step(action)
        observations.append(timestep.observation)
        rewards.append(timestep.reward)
    flat = np.array([np.concatenate([np.ravel(v) for v in o.values()]) for o in observations])
    return flat, np.array(rewards)


@pytest.mark.parametrize("name", _FEATURES)
def test_rewards_in_unit_interval_and_deterministic(name):
    first = _rollout(manipulation.load(name, seed=3), 15, seed=1)
    second = _rollout(manipulation.load(name, seed=3), 15, seed=1)
    np.testing.assert_array_equal(first[0], second[0])
    np.testing.assert_array_equal(first[1], second[1])
    assert np.all((first[1] >= 0) & (first[1] <= 1))
    assert np.all(np.isfinite(first[0]))
    third = _rollout(manipulation.load(name, seed=4), 15, seed=1)
    assert not np.array_equal(first[0][0], third[0][0])


def _pinch(env):
    return np.array(env.physics.bind(env.task.hand.pinch_site).xpos)


# dm_control's tool-centre-point boxes (m, world frame) of these tasks.
_TCP_BOXES = {
    "reach_site_features": ((-0.2, -0.2, 0.02), (0.2, 0.2, 0.4)),
    "lift_brick_features": ((-0.1, -0.1, 0.2), (0.1, 0.1, 0.4)),
    "place_brick_features": ((-0.1, -0.1, 0.17), (0.1, 0.1, 0.4)),
    "stack_2_bricks_features": ((-0.1, -0.1, 0.15), (0.1, 0.1, 0.4)),
}


@pytest.mark.parametrize("name", sorted(_TCP_BOXES))
def test_initial_states_follow_the_published_workspaces(name):
    recorded = reference.facts()["initial_states"][name]
    env = manipulation.load(name, seed=0)
    pinches, props = [], []
    # As many episodes as the recorded facts (20), so that the spreads compare.
    for _ in range(20):
        env.reset()
        pinches.append(_pinch(env))
        props.append(np.array([prop.get_pose(env.physics)[0] for prop in _free_props(env.task)]))
    pinches = np.array(pinches)
    low, high = (np.array(bound) for bound in _TCP_BOXES[name])
    # The published initial pinch sites (20 recorded episodes) lie in the same box.
    for samples in (pinches, np.array([recorded["pinch_site_min"], recorded["pinch_site_max"]])):
        assert np.all(samples >= low - 1e-9) and np.all(samples <= high + 1e-9)
    # Ours spread over it as theirs do.
    assert np.all(pinches.max(0) - pinches.min(0) > 0.5 * (high - low))
    down = np.array([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, -1.0]])
    np.testing.assert_allclose(
        env.physics.bind(env.task.hand.pinch_site).xmat.reshape(3, 3), down, atol=1e-6
    )
    if "prop_positions_min" in recorded:
        props = np.array(props)[:, :1]  # The recorded prop is the first free prop.
        low = np.array(recorded["prop_positions_min"])
        high = np.array(recorded["prop_positions_max"])
        assert np.all(props[..., :2] >= -0.1 - 1e-9) and np.all(props[..., :2] <= 0.1 + 1e-9)
        # Settled on the table: the height dm_control's bricks settle at, within the
        # contacts' softness.
        assert np.all(np.abs(props[..., 2] - low[:, 2]) < 2e-4)
        assert np.all(np.abs(props[..., 2] - high[:, 2]) < 2e-4)


def _free_props(task):
    return [entity for entity in task.root_entity.iter_entities() if entity.free_joint is not None]


@pytest.mark.parametrize(
    "name", ["stack_3_bricks_random_order_features", "reassemble_5_bricks_random_order_features"]
)
def test_random_order_bottom_brick_is_held_to_the_table_only(name):
    env = manipulation.load(name, seed=0)
    for _ in range(2):
        env.reset()
        task, physics = env.task, env.physics
        base = task.bricks[task.desired_order[0]]
        model = physics.model
        # One weld per brick, each to the world; only the bottom brick's is on.
        assert model.neq == len(task.bricks)
        assert set(model.eq_obj2id.tolist()) == {0}
        active = [
            physics.bind(base.attachment_body).id == model.eq_obj1id[i]
            for i in np.flatnonzero(physics.data.eq_active)
        ]
        assert active == [True]
        heavy = [model.body_mass[physics.bind(b.attachment_body).id] > 1.0 for b in task.bricks]
        assert heavy == [brick is base for brick in task.bricks]
        start = base.get_pose(physics)[0]
        physics.bind(base.attachment_body).xfrc_applied[2] = 20.0  # More than any snap holds.
        physics.step(50)
        physics.bind(base.attachment_body).xfrc_applied[2] = 0.0
        assert np.linalg.norm(base.get_pose(physics)[0] - start) < 1e-3


def test_a_restored_random_order_task_gives_its_bricks_their_own_masses_back():
    """A snapshot taken mid-episode holds a heavy bottom brick in its model; the
    restored task must not take that mass for the brick's own at the next reset."""
    import pickle

    name = "stack_3_bricks_random_order_features"
    env = manipulation.load(name, seed=0)
    env.reset()
    snapshot = pickle.loads(pickle.dumps(env.snapshot()))
    fresh = manipulation.load(name, seed=1)
    fresh.restore(snapshot)
    np.testing.assert_array_equal(fresh.task.desired_order, env.task.desired_order)
    for environment in (env, fresh):
        environment.reset()
    masses = [
        [
            environment.physics.model.body_mass[environment.physics.bind(b.attachment_body).id]
            for b in environment.task.bricks
        ]
        for environment in (env, fresh)
    ]
    assert masses[0] == masses[1]
    assert sorted(masses[1])[1] < 1.0  # only the new bottom brick is heavy
    with pytest.raises(ValueError, match="desired_order must be 3 distinct brick indices"):
        fresh.task.restore_state({**fresh.task.snapshot_state(), "desired_order": [0, 0, 1]})


def test_lift_target_is_0_3_m_above_the_settled_brick():
    env = manipulation.load("lift_brick_features", seed=0)
    env.reset()
    task = env.task
    assert task.target_height == pytest.approx(task.lowest_vertex_height(env.physics) + 0.3)


def test_observable_options_apply():
    env = manipulation.load("reach_site_features", seed=0)
    env.task.arm.observables.joints_vel.buffer_size = 3
    env.task.hand.observables.pinch_site_pos.enabled = False
    timestep = env.reset()
    assert timestep.observation["jaco_arm/joints_vel"].shape == (3, 6)
    assert "jaco_arm/jaco_hand/pinch_site_pos" not in timestep.observation


def test_joint_torques_are_squashed_by_symlog():
    env = manipulation.load("lift_brick_features", seed=0)
    env.reset()
    timestep = env.step(np.full(9, 0.5))
    observed = timestep.observation["jaco_arm/joints_torque"][0]
    raw = env.task.arm.observables.joints_torque._raw_reader(env.physics)()
    np.testing.assert_allclose(observed, np.sign(raw) * np.log1p(np.abs(raw)))


def test_batch_copies_are_bit_identical_to_single_environments():
    name = "lift_brick_features"
    batch = BatchEnvironment(
        lambda: manipulation.make_task(name),
        num_envs=2,
        seed=7,
        time_limit=manipulation.TIME_LIMIT_S,
    )
    actions = np.random.RandomState(0).uniform(-0.5, 0.5, size=(6, 2, 9))
    batch_timestep = batch.reset()
    batch_rewards = []
    for action in actions:
        batch_timestep = batch.step(action)
        batch_rewards.append(batch_timestep.reward)
    singles = [
        composer.Environment(
            manipulation.make_task(name),
            time_limit=manipulation.TIME_LIMIT_S,
            random_state=_copy_random_state(batch, i),
            textures=False,
        )
        for i in range(2)
    ]
    for index, env in enumerate(singles):
        timestep = env.reset()
        rewards = []
        for action in actions:
            timestep = env.step(action[index])
            rewards.append(timestep.reward)
        for key, value in timestep.observation.items():
            np.testing.assert_array_equal(value, batch_timestep.observation[key][index])
        np.testing.assert_array_equal(rewards, np.array(batch_rewards)[:, index])


def _copy_random_state(batch, index):
    return copy_seed(batch.seed, index)


def test_down_quaternion_points_the_hand_down():
    matrix = np.empty(9)
    mujoco.mju_quat2Mat(matrix, initializers.DOWN_QUATERNION)
    np.testing.assert_allclose(matrix.reshape(3, 3)[:, 2], (0.0, 0.0, -1.0), atol=1e-9)


def test_command_line_runs_a_manipulation_environment():
    import io

    from suites import cli as command_line

    out = io.StringIO()
    returns = command_line.run("manipulation", "reach_site_features", "zero", 1, 0, out=out)
    assert len(returns) == 1 and 0.0 <= returns[0] <= 250.0
    assert "manipulation reach_site_features episode 0" in out.getvalue()


def test_gymnasium_adapter_runs_a_manipulation_environment():
    from composer_tasks.wrappers.gymnasium import GymnasiumEnv

    env = GymnasiumEnv(manipulation.load("lift_brick_features", seed=0), flatten_observations=True)
    observation, _ = env.reset(seed=1)
    assert env.observation_space.contains(observation)
    observation, reward, terminated, truncated, _ = env.step(env.action_space.sample())
    assert observation.shape == env.observation_space.shape
    assert 0.0 <= reward <= 1.0 and not terminated and not truncated


def test_tags_and_unknown_names_as_dm_control():
    assert manipulation.TAGS == ("features", "vision", "easy")
    assert manipulation.ALL[:2] == ("stack_2_bricks_features", "stack_2_bricks_vision")
    assert manipulation.get_environments_by_tag("easy") == (
        "reach_duplo_features",
        "reach_duplo_vision",
        "reach_site_features",
        "reach_site_vision",
    )
    assert manipulation.get_environments_by_tag("features") == manipulation.FEATURES
    assert manipulation.get_environments_by_tag("nope") == ()
    with pytest.raises(KeyError, match="nope"):
        manipulation.load("nope")
    with pytest.raises(ValueError, match="valid names"):
        manipulation.make_task("nope")


@pytest.mark.parametrize("initial, desired", [(True, True), (True, False), (False, True)])
def test_reassemble_shuffles_its_orders_in_place_as_dm_control(initial, desired):
    """dm_control's Reassemble shuffles the previous episode's initial order in place,
    sets the goal to its bottom brick and the rest reversed, then shuffles the goal's
    upper bricks: the episode's first draws, replayed here from a copy of the stream."""
    from composer_tasks.arenas.table import Table
    from composer_tasks.tasks.manipulation import bricks, common

    settings = common.PERFECT_FEATURES
    arm, hand = common.make_arm(settings), common.make_hand(settings)
    # dm_control's positional order: num_bricks, randomize_initial_order,
    # randomize_desired_order, obs_settings.
    task = bricks.Reassemble(Table(), arm, hand, 3, initial, desired, settings)
    assert ("desired_order" in task.task_observables) == desired
    random_state = np.random.RandomState(4)
    env = composer.Environment(task, random_state=random_state)
    expected_initial = np.arange(3)
    for _ in range(3):
        replay = np.random.RandomState()
        replay.set_state(random_state.get_state())
        if initial:
            replay.shuffle(expected_initial)
        expected_desired = np.concatenate([expected_initial[:1], expected_initial[:0:-1]])
        if desired:
            replay.shuffle(expected_desired[1:])
        env.reset()
        np.testing.assert_array_equal(task.snapshot_state()["initial_order"], expected_initial)
        np.testing.assert_array_equal(task.desired_order, expected_desired)


def test_manipulation_tasks_take_dm_controls_observation_settings():
    """dm_control's `manipulation.shared.observations` settings (an ObservableSpec per
    category) work as this project's (a dict per category)."""
    from composer_tasks.arenas.table import Table
    from composer_tasks.tasks.manipulation import bricks, common
    from composer_tasks.tasks.manipulation.shared import observations

    dm_settings = observations.VISION
    task = bricks.Reassemble(
        Table(),
        common.make_arm(dm_settings),
        common.make_hand(dm_settings),
        2,
        False,
        True,
        dm_settings,
    )
    camera = task.task_observables["front_close"]
    assert (camera.height, camera.width, camera.enabled) == (84, 84, True)
    assert task.task_observables["desired_order"].enabled is False
    with pytest.raises(TypeError, match="ObservableSpec per category"):
        common.observable_options(3)
