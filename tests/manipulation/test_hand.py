"""The MPL hand and the D4PG paper's three hand tasks (Appendix E, Table 2)."""

import importlib.util
import os

import numpy as np
import pytest

from composer_tasks import mjcf
from composer_tasks.robots import mpl_hand
from composer_tasks.tasks.manipulation import hand as hand_tasks
from suites import hand

# Table 2 of the D4PG paper: observation sizes per task.
OBSERVATION_SIZES = {"catch": 70, "pick_up_and_orient": 77, "rotate_in_hand": 72}


@pytest.fixture(scope="module")
def hand_physics():
    entity = mpl_hand.MPLHand()
    return entity, mjcf.Physics.from_mjcf_model(entity.mjcf_model)


def test_hand_has_the_papers_kinematics(hand_physics):
    entity, physics = hand_physics
    model = physics.model
    assert model.njnt == mpl_hand.NUM_JOINTS == 22
    assert model.nu == mpl_hand.NUM_ACTUATORS == 13
    assert len(entity.joints) == 22 and len(entity.actuators) == 13
    # 3 wrist joints, 19 in the fingers; 9 finger joints follow others.
    assert sum(j.name.startswith("wrist") for j in entity.joints) == 3
    assert model.neq == 9
    assert all(model.actuator_gaintype[i] == 0 for i in range(model.nu))  # position servos
    assert len(entity.touch_sensors) == 5
    assert 0.35 < model.body_mass.sum() < 0.6  # an adult hand, kg


def test_coupled_joints_follow_their_knuckle(hand_physics):
    entity, physics = hand_physics
    with physics.reset_context():
        pass
    physics.bind(list(entity.actuators)).ctrl = [
        0.8 if actuator.name == "middle_knuckle" else 0.0 for actuator in entity.actuators
    ]
    for _ in range(1000):
        physics.step()
    qpos = {joint.name: float(physics.bind(joint).qpos[0]) for joint in entity.joints}
    assert qpos["middle_knuckle"] == pytest.approx(0.8, abs=0.05)
    assert qpos["middle_middle"] == pytest.approx(
        mpl_hand.MIDDLE_RATIO * qpos["middle_knuckle"], abs=0.02
    )
    assert qpos["middle_end"] == pytest.approx(
        mpl_hand.END_RATIO * qpos["middle_knuckle"], abs=0.02
    )
    assert abs(qpos["index_middle"]) < 0.05


def test_soft_indicator_is_equation_15():
    psi = hand_tasks.soft_indicator
    assert psi(-0.3, 0.0, 0.05) == 1.0
    assert psi(0.0, 0.0, 0.05) == 1.0
    assert psi(0.05, 0.0, 0.05) == pytest.approx(0.05)
    assert psi(0.009, 0.01, 0.05) == 1.0
    assert psi(0.02, 0.01, 0.05) == pytest.approx(1 - np.tanh(np.arctanh(np.sqrt(0.95)) * 0.4) ** 2)
    np.testing.assert_allclose(psi(np.array([0.0, 0.05]), 0.0, 0.05), [1.0, 0.05])


@pytest.mark.parametrize("name", hand.ALL)
def test_observations_actions_and_rewards(name):
    env = hand.load(name, seed=3)
    timestep = env.reset()
    assert sum(np.size(value) for value in timestep.observation.values()) == OBSERVATION_SIZES[name]
    spec = env.action_spec()
    assert spec.shape == (13,)
    np.testing.assert_array_less(spec.minimum, 0.0)
    np.testing.assert_allclose(spec.maximum, -spec.minimum)
    rng = np.random.RandomState(0)
    for _ in range(30):
        timestep = env.step(rng.uniform(spec.minimum, spec.maximum))
        assert 0.0 <= timestep.reward <= 1.0
        if timestep.last():
            break


def test_actions_are_target_increments_kept_within_range():
    env = hand.load("pick_up_and_orient", seed=0)
    env.reset()
    actuators = env.physics.bind(list(env.task.hand.actuators))
    before = np.array(actuators.ctrl)
    spec = env.action_spec()
    env.step(spec.maximum)
    ranges = actuators.ctrlrange
    np.testing.assert_allclose(actuators.ctrl, np.minimum(before + spec.maximum, ranges[:, 1]))
    for _ in range(40):
        env.step(spec.maximum)
    np.testing.assert_allclose(actuators.ctrl, ranges[:, 1])


def test_bad_action_is_refused():
    env = hand.load("catch", seed=0)
    env.reset()
    with pytest.raises(ValueError):
        env.step(np.zeros(12))


def test_catch_ends_without_reward_when_the_object_hits_the_table():
    env = hand.load("catch", seed=0)
    env.reset()
    spec = env.action_spec()
    # Turn the palm down and away: the object falls to the table.
    action = np.zeros(spec.shape)
    action[0] = spec.minimum[0]
    steps = 0
    timestep = env.step(action)
    while not timestep.last():
        timestep = env.step(action)
        steps += 1
    assert steps < hand_tasks.CATCH_STEPS
    assert timestep.reward == 0.0 and timestep.discount == 0.0


def test_episode_lengths_are_the_papers():
    for name, steps in (("catch", 500), ("pick_up_and_orient", 500), ("rotate_in_hand", 1000)):
        task = hand.make_task(name)
        assert task.num_steps == steps
        assert task.time_limit_s == pytest.approx(steps * hand_tasks.CONTROL_TIMESTEP_S)


def test_rotate_in_hand_target_follows_an_ornstein_uhlenbeck_drift():
    env = hand.load("rotate_in_hand", seed=5)
    timestep = env.reset()
    angles = [env.task.target_angle]
    sincos = [timestep.observation["target_angle"].ravel()]
    for _ in range(20):
        timestep = env.step(np.zeros(13))
        angles.append(env.task.target_angle)
        sincos.append(timestep.observation["target_angle"].ravel())
        if timestep.last():
            break
    np.testing.assert_allclose(sincos, np.stack([np.sin(angles), np.cos(angles)], axis=1))
    increments = np.diff(angles)
    assert np.all(increments != 0.0) and np.all(np.abs(increments) < 0.5)


@pytest.mark.parametrize("name", hand.ALL)
def test_same_seed_same_trajectory(name):
    def run():
        env = hand.load(name, seed=11)
        timestep = env.reset()
        rng = np.random.RandomState(1)
        spec = env.action_spec()
        values = [np.concatenate([np.ravel(v) for v in timestep.observation.values()])]
        for _ in range(15):
            timestep = env.step(rng.uniform(spec.minimum, spec.maximum))
            values.append(np.concatenate([np.ravel(v) for v in timestep.observation.values()]))
            if timestep.last():
                break
        return np.array(values)

    np.testing.assert_array_equal(run(), run())


def test_unknown_name_lists_the_valid_ones():
    with pytest.raises(ValueError, match="catch"):
        hand.load("juggle")


def test_scripted_controller_catches_on_eight_of_ten_seeds():
    path = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "hand_catch_scripted.py")
    module_spec = importlib.util.spec_from_file_location("hand_catch_scripted", path)
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    caught = [module.run_episode(seed)[0] for seed in range(10)]
    assert sum(caught) >= 8, caught


def test_batch_copies_equal_single_environments():
    from composer_tasks import batch as batch_module

    batch = hand.load_batch("catch", 3, seed=4)
    single = hand.load("catch", seed=batch_module.copy_seed(4, 2))
    batched, alone = batch.reset(), single.reset()
    actions = np.random.RandomState(0).uniform(-0.03, 0.03, size=(5, 3, 13))
    for step in range(6):
        for key, value in alone.observation.items():
            np.testing.assert_array_equal(batched.observation[key][2], value, err_msg=f"{key}")
        if step == 5:
            break
        batched, alone = batch.step(actions[step]), single.step(actions[step][2])
        assert batched.reward[2] == alone.reward


def test_agents_and_gymnasium_reach_the_hand_tasks():
    import gymnasium

    import suites.gym_registration  # noqa: F401  (registers the ids)
    from agents import environments

    env = environments.load("hand:rotate_in_hand", seed=0)
    assert sum(np.size(v) for v in env.reset().observation.values()) == 72
    gym_env = gymnasium.make("ComposerHand/pick_up_and_orient-v0", flatten_observations=True)
    observation, _ = gym_env.reset(seed=0)
    assert observation.shape == (77,) and gym_env.observation_space.contains(observation)
