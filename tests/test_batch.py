"""BatchEnvironment: bit-identical copies, auto-reset, per-copy randomisation, bad input."""

import dm_env
import mujoco
import numpy as np
import pytest

from composer_tasks import composer
from composer_tasks import physics as physics_lib
from composer_tasks.batch import BatchEnvironment, copy_seed
from composer_tasks.composer.variation import distributions
from suites import cartpole
from suites import suite

from core_fixtures import RandomHeightTask


def _assert_copy_is(batched, index, timestep, step):
    """Copy `index` of the batched TimeStep equals the single environment's, bit for bit."""
    assert batched.step_type[index] == timestep.step_type, (step, index)
    assert batched.reward[index] == (0.0 if timestep.reward is None else timestep.reward)
    assert batched.discount[index] == (1.0 if timestep.discount is None else timestep.discount)
    for name, value in timestep.observation.items():
        np.testing.assert_array_equal(batched.observation[name][index], value, err_msg=name)


def _assert_copies_match_singles(batch, singles, steps, action_seed=0):
    spec = batch.action_spec()
    actions = np.random.RandomState(action_seed).uniform(
        spec.minimum, spec.maximum, size=(steps, batch.num_envs) + spec.shape
    )
    batched = batch.reset()
    alone = [env.reset() for env in singles]
    resets = 0
    for step in range(steps + 1):
        for index, timestep in enumerate(alone):
            _assert_copy_is(batched, index, timestep, step)
        resets += int(np.sum(batched.first())) if step else 0
        if step == steps:
            break
        batched = batch.step(actions[step])
        alone = [env.step(actions[step, index]) for index, env in enumerate(singles)]
    return resets


@pytest.mark.parametrize("num_threads", [1, 2])
def test_fixture_task_copies_are_bit_identical_across_auto_resets(num_threads):
    batch = BatchEnvironment(RandomHeightTask, 3, num_threads=num_threads, seed=11, time_limit=0.08)
    singles = [
        composer.Environment(RandomHeightTask(), time_limit=0.08, random_state=copy_seed(11, i))
        for i in range(3)
    ]
    assert _assert_copies_match_singles(batch, singles, steps=20) >= 3


_SUITE_TASKS = [("cartpole", "swingup"), ("cheetah", "run"), ("walker", "walk")]


@pytest.mark.parametrize("num_threads", [1, 2])
@pytest.mark.parametrize("domain, task", _SUITE_TASKS)
def test_suite_copies_are_bit_identical_across_auto_resets(domain, task, num_threads):
    if (domain, task) not in suite.ALL_TASKS:
        pytest.fail(f"{domain} {task} is missing from the suite")
    short = {"time_limit": 8 * suite.load(domain, task).task.control_timestep}
    batch = suite.load_batch(
        domain, task, 3, task_kwargs=dict(short, random=5), num_threads=num_threads
    )
    singles = [
        suite.load(domain, task, task_kwargs=dict(short, random=copy_seed(5, i))) for i in range(3)
    ]
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
    batch = BatchEnvironment(
        RandomHeightTask, 4, seed=0, time_limit=0.05, model_variations=variations
    )
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
    for index in range(4):
        with batch.copy_physics(index) as physics:
            assert physics.model.body("creature/torso").mass[0] == second[index, 0]


def test_randomised_mass_changes_the_dynamics():
    def fall(mass):
        variations = {("body", "creature/torso", "mass"): distributions.Uniform(mass, mass)}
        batch = BatchEnvironment(
            RandomHeightTask, 1, seed=0, time_limit=1.0, model_variations=variations
        )
        batch.reset()
        for _ in range(30):
            timestep = batch.step(np.ones((1, 2)))
        return timestep.observation["height"][0]

    assert not np.array_equal(fall(0.5), fall(5.0))


@pytest.mark.parametrize(
    "actions, message",
    [
        (np.zeros((2, 2)), r"2 rows but the batch has 3 copies"),
        (np.zeros((3, 4)), r"shape \(3, 4\), expected \(3, 2\)"),
        (np.array([[0.0, 0.0], [0.0, np.nan], [0.0, 0.0]]), r"copy 1 are not finite"),
        (np.array([[0.0, 0.0], [0.0, 0.0], [3.0, 0.0]]), r"copy 2 are outside the bounds"),
    ],
)
def test_bad_actions_name_the_copy(actions, message):
    batch = BatchEnvironment(RandomHeightTask, 3, seed=0)
    batch.reset()
    with pytest.raises(ValueError, match=message):
        batch.step(actions)


def _per_actuator_bounds_task():
    """Leg 0 without a control range (bounded by mjMAXVAL, 1e10, as in dm_control), leg 1
    in [-2, 2]: bounds that differ per entry."""
    task = RandomHeightTask()
    task.creature.legs[0].motor.ctrllimited = 0
    task.creature.legs[1].motor.ctrlrange = [-2.0, 2.0]
    return task


@pytest.mark.parametrize(
    "actions, message",
    [
        (np.array([[np.inf, 0.0], [0.0, 0.0], [0.0, 0.0]]), r"copy 0 are not finite"),
        (np.array([[0.0, 0.0], [0.0, np.nan], [0.0, 0.0]]), r"copy 1 are not finite"),
        (np.array([[0.0, 0.0], [0.0, 0.0], [0.0, 2.5]]), r"copy 2 are outside the bounds"),
    ],
)
def test_bad_actions_with_per_actuator_bounds_name_the_copy(actions, message):
    batch = BatchEnvironment(_per_actuator_bounds_task, 3, seed=0)
    assert batch.action_spec().minimum.tolist() == [-1e10, -2.0]
    batch.reset()
    batch.step(np.array([[5.0, -2.0], [0.0, 2.0], [-7.0, 0.0]]))
    with pytest.raises(ValueError, match=message):
        batch.step(actions)


class _LeavingCartPole(cartpole.Balance):
    """Vectorised balance task that also ends when the cart leaves |x| <= 0.1 m."""

    # Its outcome works on (N,) arrays: it says so (a subclass that overrides the
    # outcome is looped over copies otherwise).
    vectorized_callbacks = True

    def __init__(self):
        super().__init__(swing_up=False, sparse=False)

    def should_terminate_episode(self, physics):
        return np.abs(physics.cart_position()) > 0.1


class _LeavingCartPoleWithDiscount(_LeavingCartPole):
    """As `_LeavingCartPole`, with a discount that differs per copy and step."""

    # Its outcome works on (N,) arrays: it says so (a subclass that overrides the
    # outcome is looped over copies otherwise).
    vectorized_callbacks = True

    def get_discount(self, physics):
        return 0.5 + 0.5 * np.tanh(physics.cart_position())


@pytest.mark.parametrize("task_class", [_LeavingCartPole, _LeavingCartPoleWithDiscount])
def test_vectorised_terminations_and_discounts_match_single_environments(task_class):
    time_limit, steps = 0.3, 60
    batch = BatchEnvironment(task_class, 4, seed=3, time_limit=time_limit)
    assert batch.vectorized
    singles = [
        composer.Environment(task_class(), time_limit=time_limit, random_state=copy_seed(3, i))
        for i in range(4)
    ]
    actions = np.random.RandomState(0).uniform(-1.0, 1.0, size=(steps, 4, 1))
    batched = batch.reset()
    alone = [env.reset() for env in singles]
    episode_steps = np.zeros(4, dtype=int)
    terminations = truncations = 0
    for step in range(steps + 1):
        for index, timestep in enumerate(alone):
            _assert_copy_is(batched, index, timestep, step)
            episode_steps[index] = 0 if timestep.first() else episode_steps[index] + 1
            if timestep.last():
                if episode_steps[index] < round(time_limit / 0.01):
                    terminations += 1
                else:
                    truncations += 1
        if step == steps:
            break
        batched = batch.step(actions[step])
        alone = [env.step(actions[step, index]) for index, env in enumerate(singles)]
    assert terminations >= 3 and truncations >= 1


@pytest.mark.filterwarnings("ignore:n_sub_steps is deprecated:DeprecationWarning")
def test_a_vectorised_batch_steps_the_environments_n_sub_steps():
    """`n_sub_steps` given to the copies' Environment overrides the task's substeps on
    the vectorised path too, as in the single environment."""
    kwargs = {"n_sub_steps": 3}
    batch = suite.load_batch("cartpole", "swingup", 2, seed=0, environment_kwargs=kwargs)
    assert batch.vectorized
    singles = [
        suite.load(
            "cartpole",
            "swingup",
            task_kwargs={"random": copy_seed(0, index)},
            environment_kwargs=kwargs,
        )
        for index in range(2)
    ]
    batch.reset()
    for env in singles:
        env.reset()
    actions = np.array([[0.5], [-0.25]])
    for _ in range(3):
        batched = batch.step(actions)
        for index, env in enumerate(singles):
            alone = env.step(actions[index])
            assert batched.reward[index] == alone.reward
            for name, value in alone.observation.items():
                np.testing.assert_array_equal(batched.observation[name][index], value)


def test_returned_arrays_share_no_memory_with_the_batch_or_other_steps():
    batch = suite.load_batch("cartpole", "swingup", 3, seed=0)
    assert batch.vectorized
    actions = np.full((3, 1), 0.5)
    batch.reset()
    earlier = batch.step(actions)
    kept = [
        np.copy(value)
        for value in (
            earlier.step_type,
            earlier.reward,
            earlier.discount,
            *earlier.observation.values(),
        )
    ]
    later = batch.step(actions)
    live = [batch.batch.bind(name) for name in ("time", "qpos", "qvel", "ctrl", "xmat")]

    def arrays(timestep):
        return [
            timestep.step_type,
            timestep.reward,
            timestep.discount,
            *timestep.observation.values(),
        ]

    for array in arrays(earlier):
        for other in arrays(later) + live:
            assert not np.shares_memory(array, other)
    for array, copy in zip(arrays(earlier), kept):
        np.testing.assert_array_equal(array, copy)
    assert not np.array_equal(earlier.observation["velocity"], later.observation["velocity"])


def test_profiling_clock_is_back_after_batched_steps():
    """The batch switches MuJoCo's stage timers off only during its own physics calls."""
    timer = physics_lib._ENGINE_TIMER
    if timer is None:
        pytest.skip("mjcb_time is not reachable through ctypes on this platform")
    clock = timer.value
    batch = suite.load_batch("cartpole", "swingup", 2, seed=0)
    batch.reset()
    batch.step(np.zeros((2, 1)))
    assert timer.value == clock
    single = suite.load("cartpole", "swingup", task_kwargs={"random": 0})
    single.physics.time_stages = True
    single.reset()
    single.step(np.zeros(1))
    if clock is not None:
        assert single.physics.data.timer[mujoco.mjtTimer.mjTIMER_STEP].duration > 0.0


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
            return suite.load_batch(
                "cartpole", "swingup", 3, task_kwargs={"time_limit": 0.2, "random": seed}
            )
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


def test_copies_leave_out_texture_patterns_unless_asked():
    lean = suite.load_batch("cartpole", "swingup", 2, seed=0)
    assert all(env.physics.model.tex_data.nbytes < 1_000 for env in lean.envs)
    full = suite.load_batch("cartpole", "swingup", 2, seed=0, environment_kwargs={"textures": True})
    assert all(env.physics.model.tex_data.nbytes > 1_000_000 for env in full.envs)
    generic = BatchEnvironment(RandomHeightTask, 2, seed=0)
    assert all(env.textures is False for env in generic.envs)


class _KeptArraysCartPole(cartpole.Balance):
    """Vectorised balance whose reward, discount and termination are arrays the task
    keeps (and whose observation is one it keeps): the batch must copy them all."""

    # Its outcome works on (N,) arrays: it says so (a subclass that overrides the
    # outcome is looped over copies otherwise).
    vectorized_callbacks = True

    def __init__(self):
        super().__init__(swing_up=False, sparse=False)
        self.reward_array = np.full(3, 0.25)
        self.discount_array = np.full(3, 0.5)
        self.terminated_array = np.zeros(3, dtype=bool)

    def get_reward(self, physics):
        return self.reward_array

    def should_terminate_episode(self, physics):
        return self.terminated_array

    def get_discount(self, physics):
        return self.discount_array


class _KeptObservationCartPole(cartpole.Balance):
    """Vectorised balance with an observation ("calls") that is an array the task keeps
    and changes at every call: the step must copy it to keep it, not hold it."""

    # Its observations work on (N,) arrays: it says so (a subclass declaring its own
    # observations runs copy by copy otherwise).
    vectorized_callbacks = True

    def __init__(self):
        super().__init__(swing_up=False, sparse=False)
        self.kept = {}
        self.set_observations(position=cartpole.Physics.bounded_position, calls=self._calls)

    def _calls(self, physics):
        shape = np.shape(physics.data.time)
        kept = self.kept.setdefault(shape, np.zeros(shape))
        kept += 1.0
        return kept


def test_a_diverging_copy_returns_its_previous_observation_of_an_array_the_task_keeps():
    batch = BatchEnvironment(
        _KeptObservationCartPole, 3, seed=0, raise_exception_on_physics_error=False
    )
    assert batch.vectorized
    batch.reset()
    before = batch.step(np.zeros((3, 1)))
    with batch.copy_physics(1) as physics:
        physics.model.actuator("slide").gear[0] = 1e13  # Its first acceleration is not finite.
    after = batch.step(np.ones((3, 1)))
    assert after.step_type.tolist() == [dm_env.StepType.MID, dm_env.StepType.LAST] + [
        dm_env.StepType.MID
    ]
    # Copy 1 gets its observation of the step before; the others the new count.
    previous = before.observation["calls"][0, 0]
    assert after.observation["calls"][:, 0].tolist() == [previous + 1, previous, previous + 1]
    assert not np.shares_memory(after.observation["calls"], batch.envs[0].task.kept[(3,)])


def test_arrays_a_task_keeps_are_copied_into_the_timestep():
    batch = BatchEnvironment(_KeptArraysCartPole, 3, seed=0, time_limit=1.0)
    assert batch.vectorized
    task = batch.envs[0].task
    batch.reset()
    timestep = batch.step(np.zeros((3, 1)))
    assert not np.shares_memory(timestep.reward, task.reward_array)
    assert not np.shares_memory(timestep.discount, task.discount_array)
    np.testing.assert_array_equal(timestep.reward, 0.25)
    np.testing.assert_array_equal(timestep.discount, 0.5)
    timestep.reward[:] = 7.0
    timestep.discount[:] = 7.0
    np.testing.assert_array_equal(task.reward_array, 0.25)
    np.testing.assert_array_equal(task.discount_array, 0.5)
    task.terminated_array[1] = True
    ended = batch.step(np.zeros((3, 1)))
    assert ended.step_type.tolist() == [
        dm_env.StepType.MID,
        dm_env.StepType.LAST,
        dm_env.StepType.MID,
    ]
    assert task.terminated_array.tolist() == [False, True, False]
    task.terminated_array[1] = False
    assert batch.step(np.zeros((3, 1))).step_type.tolist() == [
        dm_env.StepType.MID,
        dm_env.StepType.FIRST,
        dm_env.StepType.MID,
    ]


class _OutcomeTask(_LeavingCartPoleWithDiscount):
    """Reward, termination and discount given by `get_outcome` (as the three give them)."""

    outcome_calls = 0

    def get_outcome(self, physics):
        type(self).outcome_calls += 1
        return super().get_outcome(physics)


class _RewardOverOutcome(_OutcomeTask):
    """A subclass that overrides only the reward: its own must be used."""

    def get_reward(self, physics):
        return 0.125 + 0.0 * physics.cart_position()


def test_get_outcome_is_used_only_below_the_three_methods():
    from composer_tasks.composer import environment as environment_module

    overrides = environment_module._outcome_overrides
    assert overrides(_OutcomeTask) == (True, True, True)
    assert overrides(_RewardOverOutcome) == (False, True, True)
    assert overrides(_LeavingCartPole) == (False, False, True)
    for task_class, outcome_calls in ((_OutcomeTask, True), (_RewardOverOutcome, False)):
        task_class.outcome_calls = 0
        batch = BatchEnvironment(task_class, 2, seed=0, time_limit=0.2)
        single = composer.Environment(task_class(), time_limit=0.2, random_state=copy_seed(0, 1))
        batch.reset()
        single.reset()
        for _ in range(30):
            batched = batch.step(np.full((2, 1), 0.7))
            alone = single.step(np.full(1, 0.7))
            _assert_copy_is(batched, 1, alone, 0)
        assert (task_class.outcome_calls > 0) == outcome_calls
        if task_class is _RewardOverOutcome:
            assert set(batched.reward.tolist()) <= {0.0, 0.125}
