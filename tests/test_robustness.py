"""composer_tasks.robustness on rllab tasks and on a Control Suite task."""

import numpy as np
import pytest

from composer_tasks import composer, robustness
from composer_tasks.composer.variation import distributions
from suites import cartpole as suite_cartpole
from suites import rllab


def test_limited_sensors_removes_velocities():
    task = rllab.CartPole(swing_up=False)
    removed = robustness.limited_sensors(task)
    assert removed == ["observations:cart_velocity", "observations:pole_angular_velocity"]
    assert [s.name for s in task.observations.sensors] == ["cart_position", "pole_angle"]


def test_limited_sensors_disables_velocity_observables_of_a_suite_task():
    task = suite_cartpole.Balance(swing_up=False, sparse=False)
    assert robustness.limited_sensors(task) == ["velocity"]
    env = composer.Environment(task, random_state=0, strip_singleton_obs_buffer_dim=True)
    assert list(env.reset().observation) == ["position"]


def test_limited_sensors_without_velocities_raises():
    task = rllab.CartPole(swing_up=False)
    robustness.limited_sensors(task)
    with pytest.raises(ValueError, match="observes no velocities"):
        robustness.limited_sensors(task)


def test_noise_statistics():
    env = rllab.load("acrobot_swing_up_noisy_delayed", seed=0, horizon=2000)
    env.reset()
    errors = []
    for _ in range(2000):
        ts = env.step(np.zeros(1))
        clean = np.concatenate([env.physics.data.qpos, env.physics.data.qvel])
        errors.append(ts.observation["observations"] - clean)
    errors = np.array(errors)
    np.testing.assert_allclose(errors.mean(axis=0), 0.0, atol=0.01)
    np.testing.assert_allclose(errors.std(axis=0), 0.1, rtol=0.05)


def test_actions_are_delayed_by_exactly_three_steps():
    env = rllab.load("cartpole_swing_up_noisy_delayed", seed=0, horizon=50)
    env.reset()
    actions = np.linspace(-9, 9, 10)
    applied = []
    for action in actions:
        env.step(np.array([action]))
        applied.append(float(env.physics.data.ctrl[0]))
    np.testing.assert_array_equal(applied, np.concatenate([np.zeros(3), actions[:-3]]))
    # A new episode starts with an empty pipeline again.
    env.reset()
    env.step(np.array([5.0]))
    assert env.physics.data.ctrl[0] == 0.0


def test_delay_holds_in_a_batch_of_a_vectorised_suite_task():
    from composer_tasks.batch import BatchEnvironment

    def make():
        task = suite_cartpole.Balance(swing_up=False, sparse=False)
        robustness.delayed_actions(task, 2)
        return task

    batch = BatchEnvironment(make, 2, seed=0)
    assert not batch.vectorized
    batch.reset()
    applied = []
    for action in (0.5, -0.5, 0.25):
        batch.step(np.full((2, 1), action))
        applied.append([float(env.physics.data.ctrl[0]) for env in batch.envs])
    assert applied == [[0.0, 0.0], [0.0, 0.0], [0.5, 0.5]]


@pytest.mark.parametrize(
    "name, scale_names, low, high",
    [
        ("cartpole_balancing_system_id", ["pole_length"], 0.5, 1.5),
        ("mountain_car_system_id", ["valley_width"], 0.75, 1.25),
        ("acrobot_swing_up_system_id", ["upper_length", "lower_length"], 0.5, 1.5),
        ("double_pendulum_balancing_system_id", ["pole_1_length", "pole_2_length"], 0.83, 1.67),
    ],
)
def test_parameters_drawn_per_episode_within_range(name, scale_names, low, high):
    env = rllab.load(name, seed=2)
    delay = robustness.perturbations(env.task)
    drawn = []
    for _ in range(4):
        env.reset()
        assert sorted(delay.last_factors) == sorted(scale_names)
        drawn.append([delay.last_factors[n] for n in scale_names])
    drawn = np.array(drawn)
    assert np.all((drawn >= low) & (drawn <= high))
    assert len(np.unique(drawn[:, 0])) == 4


def test_system_id_changes_the_compiled_model():
    env = rllab.load("cartpole_balancing_system_id", seed=4)
    env.reset()
    factor = robustness.perturbations(env.task).last_factors["pole_length"]
    model = env.physics.model
    geom = model.geom("pole_1").id
    assert model.geom_size[geom, 1] == pytest.approx(0.5 * factor)
    assert model.body_mass[model.body("pole_1").id] == pytest.approx(0.1 * factor)


def test_bad_arguments():
    task = rllab.MountainCar()
    with pytest.raises(ValueError, match="noise_std"):
        robustness.noisy_observations(task, 0.0)
    with pytest.raises(ValueError, match="noise_std"):
        robustness.noisy_observations(task, True)
    with pytest.raises(ValueError, match="delay_steps"):
        robustness.delayed_actions(task, 0)
    with pytest.raises(TypeError, match="LinkedScale"):
        robustness.system_identification(task, [("track", "size")])
    with pytest.raises(ValueError, match="no attribute"):
        robustness.LinkedScale(distributions.Uniform(0.5, 1.0), [(task.track, "nope")])


def test_the_delayed_actions_and_the_noise_resume_from_a_snapshot():
    """The queue of delayed controls is the Perturbations entity's Python state and
    the noise is drawn through the updater: both continue after a restore into a
    freshly built environment."""
    import pickle

    env = rllab.load("cartpole_balancing_noisy_delayed", seed=0)
    actions = np.random.RandomState(1).uniform(-1, 1, size=(30, 1))
    env.reset()
    for action in actions[:10]:
        env.step(action)
    snapshot = pickle.loads(pickle.dumps(env.snapshot()))
    pending = snapshot["python_state"]["robustness"]["pending"]
    np.testing.assert_array_equal(np.ravel(pending), actions[7:10].ravel())
    expected = [env.step(action) for action in actions[10:]]
    fresh = rllab.load("cartpole_balancing_noisy_delayed", seed=5)
    fresh.restore(snapshot)
    for action, want in zip(actions[10:], expected):
        got = fresh.step(action)
        assert got.reward == want.reward
        np.testing.assert_array_equal(
            got.observation["observations"], want.observation["observations"]
        )


def test_a_queue_of_another_delay_is_refused():
    perturbations = robustness.Perturbations()
    perturbations.action_delay_steps = 3
    with pytest.raises(ValueError, match="delays actions by 2 control steps, this task by 3"):
        perturbations.restore_state({"pending": [np.zeros(1)] * 2, "last_factors": {}})
