"""The rllab tasks: specs, reward and termination formulas on constructed states,
variants, determinism, batching."""

import dm_env
import numpy as np
import pytest

from composer_tasks.batch import copy_seed
from suites import rllab

_OBSERVATION_SIZES = {
    "cartpole_balancing": 4,
    "cartpole_swing_up": 4,
    "mountain_car": 2,
    "acrobot_swing_up": 4,
    "double_pendulum_balancing": 7,
}
_POSITION_SIZES = {
    "cartpole_balancing": 2,
    "cartpole_swing_up": 2,
    "mountain_car": 1,
    "acrobot_swing_up": 2,
    "double_pendulum_balancing": 5,
}


def _zero(env):
    return np.zeros(env.action_spec().shape)


def _set_state(env, qpos, qvel, ctrl=None):
    physics = env.physics
    physics.data.qpos[:] = qpos
    physics.data.qvel[:] = qvel
    if ctrl is not None:
        physics.data.ctrl[:] = ctrl
    physics.forward()
    return physics


def test_registry_names_and_horizons():
    assert len(rllab.BASIC) == 5 and len(rllab.PARTIALLY_OBSERVABLE) == 15
    assert (
        rllab.ALL
        == rllab.BASIC + rllab.PARTIALLY_OBSERVABLE + rllab.LOCOMOTION + rllab.HIERARCHICAL
    )
    assert len(rllab.LOCOMOTION) == 7 and len(rllab.HIERARCHICAL) == 4 and len(rllab.ALL) == 31
    assert all(rllab.HORIZON[name] == 500 for name in rllab.LOCOMOTION + rllab.HIERARCHICAL)
    assert set(rllab.ALL) == set(rllab.HORIZON)
    assert all(rllab.HORIZON[name] == 500 for name in rllab.BASIC)
    assert all(rllab.HORIZON[name] == 100 for name in rllab.PARTIALLY_OBSERVABLE)


def test_unknown_name_lists_valid_ones():
    with pytest.raises(ValueError, match="cartpole_balancing"):
        rllab.load("cartpole")
    with pytest.raises(ValueError, match="valid tasks"):
        rllab.load_batch("nope", 2)
    with pytest.raises(ValueError, match="horizon"):
        rllab.load("mountain_car", horizon=0)


@pytest.mark.parametrize("name", rllab.BASIC + rllab.PARTIALLY_OBSERVABLE)
def test_specs(name):
    env = rllab.load(name, seed=0)
    basic = name
    for variant in ("_limited_sensors", "_noisy_delayed", "_system_id"):
        basic = basic.removesuffix(variant)
    size = (
        _POSITION_SIZES[basic] if name.endswith("_limited_sensors") else _OBSERVATION_SIZES[basic]
    )
    spec = env.observation_spec()
    assert list(spec) == ["observations"]
    assert spec["observations"].shape == (size,) and spec["observations"].dtype == np.float64
    observation = env.reset().observation["observations"]
    assert observation.shape == (size,) and observation.dtype == np.float64
    action_spec = env.action_spec()
    assert action_spec.shape == (1,)
    bound = 1.0 if basic in ("mountain_car", "acrobot_swing_up") else 10.0
    np.testing.assert_array_equal(action_spec.minimum, [-bound])
    np.testing.assert_array_equal(action_spec.maximum, [bound])


def test_horizon_counts_control_steps():
    env = rllab.load("acrobot_swing_up", seed=0, horizon=7)
    env.reset()
    steps = [env.step(_zero(env)) for _ in range(7)]
    assert [s.step_type for s in steps[:-1]] == [dm_env.StepType.MID] * 6
    assert steps[-1].last() and steps[-1].discount == 1.0


def test_cartpole_balancing_reward_and_termination():
    env = rllab.load("cartpole_balancing", seed=0)
    env.reset()
    task = env.task
    physics = _set_state(env, [0.5, 0.1], [0, 0], ctrl=[3.0])
    assert task.get_reward(physics) == pytest.approx(10 - (1 - np.cos(0.1)) - 1e-5 * 9)
    assert not task.should_terminate_episode(physics)
    physics = _set_state(env, [2.41, 0.0], [0, 0])
    assert task.should_terminate_episode(physics) and task.get_reward(physics) == 0.0
    physics = _set_state(env, [0.0, -0.21], [0, 0])
    assert task.should_terminate_episode(physics)
    np.testing.assert_array_equal(
        task.observations.observation_callable(physics)(), [0.0, -0.21, 0.0, 0.0]
    )


def test_cartpole_swing_up_reward_and_penalty():
    env = rllab.load("cartpole_swing_up", seed=0)
    env.reset()
    task = env.task
    physics = _set_state(env, [2.9, 2.0], [1.0, -1.0])
    assert task.get_reward(physics) == pytest.approx(np.cos(2.0))
    physics = _set_state(env, [-3.01, 0.0], [0, 0])
    assert task.should_terminate_episode(physics) and task.get_reward(physics) == -100.0


def test_swing_up_starts_hanging():
    env = rllab.load("cartpole_swing_up", seed=3)
    for _ in range(5):
        x, angle, _, _ = env.reset().observation["observations"]
        assert abs(x) <= 1 and np.pi - 1 <= angle <= np.pi + 1


def test_mountain_car_reward_and_goal():
    env = rllab.load("mountain_car", seed=0)
    env.reset()
    task = env.task
    physics = _set_state(env, [0.3, 0.45], [0, 0])
    assert task.get_reward(physics) == pytest.approx(-1 + 0.45)
    assert not task.should_terminate_episode(physics)
    assert task.should_terminate_episode(_set_state(env, [0.6, 0.6], [0, 0]))
    assert task.should_terminate_episode(_set_state(env, [-2.0, 2.0], [0, 0]))


def test_mountain_car_rides_on_the_valley():
    env = rllab.load("mountain_car", seed=1)
    env.reset()
    physics = env.physics
    from mjcf_models import mountain_car

    for _ in range(40):
        env.step(np.array([1.0]))
        x, z = physics.data.qpos
        # The sphere rests on the sine profile, within the contact's softness.
        assert abs(z - mountain_car.track_height(x) - mountain_car.CAR_RADIUS_M) < 0.05


def test_acrobot_reward_is_tip_distance():
    env = rllab.load("acrobot_swing_up", seed=0)
    env.reset()
    task = env.task
    assert task.get_reward(_set_state(env, [0, 0], [0, 0])) == pytest.approx(0.0, abs=1e-12)
    # Hanging straight down: the tip is 4 m below the target.
    assert task.get_reward(_set_state(env, [np.pi, 0], [0, 0])) == pytest.approx(-4.0)
    assert not task.should_terminate_episode(env.physics)


def test_double_pendulum_reward_and_termination():
    env = rllab.load("double_pendulum_balancing", seed=0)
    env.reset()
    task = env.task
    physics = _set_state(env, [0.5, 0.0, 0.0], [0.0, 2.0, -1.0])
    assert task.tip(physics) == pytest.approx((0.5, 2.0))
    assert task.get_reward(physics) == pytest.approx(10 - 0.01 * 0.25 - 0 - 1e-3 * 4 - 5e-3 * 1)
    physics = _set_state(env, [0.0, np.pi / 2, 0.0], [0, 0, 0])
    assert task.tip(physics)[1] == pytest.approx(0.0, abs=1e-12)
    assert task.should_terminate_episode(physics)
    observation = task.observations.observation_callable(physics)()
    np.testing.assert_allclose(observation, [0, 1, 0, 0, 1, 0, 0], atol=1e-12)


@pytest.mark.parametrize(
    "name",
    ["cartpole_swing_up_noisy_delayed", "mountain_car_system_id", "double_pendulum_balancing"],
)
def test_determinism(name):
    def rollout():
        env = rllab.load(name, seed=5)
        random = np.random.RandomState(0)
        spec = env.action_spec()
        out = [env.reset().observation["observations"]]
        for _ in range(30):
            ts = env.step(random.uniform(spec.minimum, spec.maximum))
            out.append(np.append(ts.observation["observations"], ts.reward))
        return out

    for a, b in zip(rollout(), rollout()):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("name", ["cartpole_balancing_noisy_delayed", "acrobot_swing_up_system_id"])
def test_batch_copy_matches_single_environment(name):
    batch = rllab.load_batch(name, 2, seed=11, horizon=12)
    singles = [rllab.load(name, seed=copy_seed(11, i), horizon=12) for i in range(2)]
    random = np.random.RandomState(1)
    spec = batch.action_spec()
    batch_step = batch.reset()
    single_steps = [env.reset() for env in singles]
    for _ in range(15):
        for i, single in enumerate(single_steps):
            np.testing.assert_array_equal(
                batch_step.observation["observations"][i], single.observation["observations"]
            )
            assert batch_step.step_type[i] == single.step_type
            if not single.first():
                assert batch_step.reward[i] == single.reward
        actions = random.uniform(spec.minimum, spec.maximum, size=(2,) + spec.shape)
        batch_step = batch.step(actions)
        single_steps = [env.step(actions[i]) for i, env in enumerate(singles)]


@pytest.mark.parametrize("name", rllab.ALL)
def test_every_task_is_deterministic_and_finite(name):
    def rollout():
        env = rllab.load(name, seed=9, horizon=4)
        spec = env.action_spec()
        random = np.random.RandomState(2)
        out = [env.reset().observation["observations"]]
        for _ in range(4):
            ts = env.step(random.uniform(spec.minimum, spec.maximum))
            out.append(np.append(ts.observation["observations"], ts.reward))
        return np.concatenate(out)

    first = rollout()
    assert np.all(np.isfinite(first))
    np.testing.assert_array_equal(first, rollout())


@pytest.mark.parametrize("name", ["swimmer_food", "hopper"])
def test_batch_copy_matches_single_environment_beyond_basic(name):
    test_batch_copy_matches_single_environment(name)


_VECTORIZED = (
    *rllab.BASIC,
    "cartpole_balancing_limited_sensors",
    "acrobot_swing_up_limited_sensors",
)


@pytest.mark.parametrize("name", _VECTORIZED)
def test_vectorised_batch_equals_single_environments(name):
    """The basic tasks (and their limited-sensor variants) run on the batch's
    vectorised path, bit for bit as single environments, across terminations,
    horizon ends and auto-resets."""
    num_envs, horizon, steps = 3, 25, 60
    batch = rllab.load_batch(name, num_envs, seed=4, horizon=horizon)
    assert batch.vectorized
    singles = [
        rllab.load(name, seed=copy_seed(4, i), horizon=horizon, textures=False)
        for i in range(num_envs)
    ]
    spec = batch.action_spec()
    actions = np.random.RandomState(3).uniform(
        spec.minimum, spec.maximum, size=(steps, num_envs) + spec.shape
    )
    batched = batch.reset()
    alone = [env.reset() for env in singles]
    episode_ends = 0
    for step in range(steps + 1):
        for index, timestep in enumerate(alone):
            assert batched.step_type[index] == timestep.step_type
            assert batched.reward[index] == (timestep.reward or 0.0)
            assert batched.discount[index] == (
                1.0 if timestep.discount is None else timestep.discount
            )
            np.testing.assert_array_equal(
                batched.observation["observations"][index], timestep.observation["observations"]
            )
            episode_ends += int(timestep.last())
        if step == steps:
            break
        batched = batch.step(actions[step])
        alone = [
            env.reset() if timestep.last() else env.step(actions[step, i])
            for i, (env, timestep) in enumerate(zip(singles, alone))
        ]
    assert episode_ends >= num_envs  # every copy restarted at least once


@pytest.mark.parametrize(
    "name",
    ["cartpole_balancing_noisy_delayed", "mountain_car_system_id", "hopper", "swimmer_food"],
)
def test_noise_delay_parameter_draws_and_locomotion_take_the_per_copy_path(name):
    assert not rllab.load_batch(name, 2, seed=0, horizon=5).vectorized
