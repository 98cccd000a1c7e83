"""BatchEnvironment: bit-identical copies, auto-reset, per-copy randomisation, bad input."""

import dm_env
import numpy as np
import pytest

from composer_tasks import composer
from composer_tasks.batch import BatchEnvironment, copy_seed
from composer_tasks.composer.variation import distributions
from suites import suite

from core_fixtures import RandomHeightTask


def _assert_copies_match_singles(batch, singles, steps, action_seed=0):
    spec = batch.action_spec()
    actions = np.random.RandomState(action_seed).uniform(
        spec.minimum, spec.maximum, size=(steps, batch.num_envs) + spec.shape)
    batched = batch.reset()
    alone = [env.reset() for env in singles]
    resets = 0
    for step in range(steps + 1):
        for index, timestep in enumerate(alone):
            assert batched.step_type[index] == timestep.step_type, (step, index)
            assert batched.reward[index] == (0.0 if timestep.reward is None else timestep.reward)
            assert batched.discount[index] == (1.0 if timestep.discount is None else timestep.discount)
            for name, value in timestep.observation.items():
                np.testing.assert_array_equal(batched.observation[name][index], value, err_msg=name)
        resets += int(np.sum(batched.first())) if step else 0
        if step == steps:
            break
        batched = batch.step(actions[step])
        alone = [env.step(actions[step, index]) for index, env in enumerate(singles)]
    return resets


@pytest.mark.parametrize("num_threads", [1, 2])
def test_fixture_task_copies_are_bit_identical_across_auto_resets(num_threads):
    batch = BatchEnvironment(RandomHeightTask, 3, num_threads=num_threads, seed=11, time_limit=0.08)
    singles = [composer.Environment(RandomHeightTask(), time_limit=0.08, random_state=copy_seed(11, i))
               for i in range(3)]
    assert _assert_copies_match_singles(batch, singles, steps=20) >= 3


_SUITE_TASKS = [("cartpole", "swingup"), ("cheetah", "run"), ("walker", "walk")]


@pytest.mark.parametrize("num_threads", [1, 2])
@pytest.mark.parametrize("domain, task", _SUITE_TASKS)
def test_suite_copies_are_bit_identical_across_auto_resets(domain, task, num_threads):
    if (domain, task) not in suite.ALL_TASKS:
        pytest.fail(f"{domain} {task} is missing from the suite")
    short = {"time_limit": 8 * suite.load(domain, task).task.control_timestep}
    batch = suite.load_batch(domain, task, 3, task_kwargs=dict(short, random=5), num_threads=num_threads)
    singles = [suite.load(domain, task, task_kwargs=dict(short, random=copy_seed(5, i))) for i in range(3)]
    assert _assert_copies_match_singles(batch, singles, steps=20) >= 3


def test_copy_seeds_differ_and_are_stable():
    seeds = [copy_seed(0, i) for i in range(4)]
    assert len(set(seeds)) == 4
    assert seeds == [copy_seed(0, i) for i in range(4)]
    assert copy_seed(0, 1) != copy_seed(1, 0)


def test_batched_timestep_shapes():
    batch = BatchEnvironment(RandomHeightTask, 4, seed=0, time_limit=1.0)
    timestep = batch.reset()
    assert timestep.step_type.shape == (4,) and np.all(timestep.first())
    timestep = batch.step(np.zeros((4, 2)))
    assert timestep.reward.shape == (4,) and timestep.discount.shape == (4,)
    assert np.all(timestep.step_type == dm_env.StepType.MID)
    for name, spec in batch.observation_spec().items():
        assert timestep.observation[name].shape == (4,) + spec.shape


def test_per_copy_model_randomisation():
    mass_range = (0.5, 2.0)
    variations = {("body", "creature/torso", "mass"): distributions.Uniform(*mass_range)}
    batch = BatchEnvironment(RandomHeightTask, 4, seed=0, time_limit=0.05, model_variations=variations)
    batch.reset()
    first = batch.model_values("body", "creature/torso", "mass")
    assert first.shape == (4, 1)
    assert len(np.unique(first)) == 4
    assert np.all((first >= mass_range[0]) & (first <= mass_range[1]))
    for _ in range(6):  # past the 5-step episode: every copy auto-resets once.
        batch.step(np.zeros((4, 2)))
    second = batch.model_values("body", "creature/torso", "mass")
    assert not np.any(first == second)
    # The batch steps each copy on its own model: a copy's dynamics follow its mass.
    for index, env in enumerate(batch.envs):
        assert env.physics.model.body("creature/torso").mass[0] == second[index, 0]


def test_randomised_mass_changes_the_dynamics():
    def fall(mass):
        variations = {("body", "creature/torso", "mass"): distributions.Uniform(mass, mass)}
        batch = BatchEnvironment(RandomHeightTask, 1, seed=0, time_limit=1.0, model_variations=variations)
        batch.reset()
        for _ in range(30):
            timestep = batch.step(np.ones((1, 2)))
        return timestep.observation["height"][0]

    assert not np.array_equal(fall(0.5), fall(5.0))


@pytest.mark.parametrize("actions, message", [
    (np.zeros((2, 2)), r"2 rows but the batch has 3 copies"),
    (np.zeros((3, 4)), r"shape \(3, 4\), expected \(3, 2\)"),
    (np.array([[0.0, 0.0], [0.0, np.nan], [0.0, 0.0]]), r"copy 1 are not finite"),
    (np.array([[0.0, 0.0], [0.0, 0.0], [3.0, 0.0]]), r"copy 2 are outside the bounds"),
])
def test_bad_actions_name_the_copy(actions, message):
    batch = BatchEnvironment(RandomHeightTask, 3, seed=0)
    batch.reset()
    with pytest.raises(ValueError, match=message):
        batch.step(actions)


def test_constructor_errors():
    with pytest.raises(ValueError, match="serves one copy"):
        BatchEnvironment(RandomHeightTask(), 2)
    with pytest.raises(ValueError, match="num_envs"):
        BatchEnvironment(RandomHeightTask, 0)
    with pytest.raises(TypeError, match="task_or_factory"):
        BatchEnvironment(42, 2)
    with pytest.raises(ValueError, match="model_variations keys"):
        BatchEnvironment(RandomHeightTask, 2, model_variations={("wing", "x", "mass"): 1.0})


@pytest.mark.parametrize("vectorized", [True, False])
def test_batch_snapshot_and_restore_continue_exactly(vectorized):
    import pickle

    if vectorized:
        def make(seed):
            return suite.load_batch("cartpole", "swingup", 3, task_kwargs={"time_limit": 0.2, "random": seed})
    else:
        def make(seed):
            return BatchEnvironment(RandomHeightTask, 3, seed=seed, time_limit=0.1)
    batch = make(1)
    assert batch.vectorized == vectorized
    actions = np.random.RandomState(0).uniform(-1, 1, size=(60, 3) + batch.action_spec().shape)
    batch.reset()
    for row in actions[:27]:
        batch.step(row)
    snapshot = pickle.loads(pickle.dumps(batch.snapshot()))
    expected = [batch.step(row) for row in actions[27:]]
    other = make(7)
    other.restore(snapshot)
    for row, want in zip(actions[27:], expected):
        got = other.step(row)
        np.testing.assert_array_equal(got.step_type, want.step_type)
        np.testing.assert_array_equal(got.reward, want.reward)
        for name in want.observation:
            np.testing.assert_array_equal(got.observation[name], want.observation[name])
    with pytest.raises(ValueError, match="holds 3 copies, this batch 2"):
        BatchEnvironment(RandomHeightTask, 2, seed=0).restore(snapshot)
