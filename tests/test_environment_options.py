"""dm_control's Environment options and Task timesteps, with dm_control's meaning."""

import logging
import warnings

import numpy as np
from dm_env import specs
import pytest

from composer_tasks import composer
from composer_tasks.composer import environment as environment_module
import core_fixtures


class _FlakyTask(core_fixtures.RandomHeightTask):
    """Fails to initialise its first `failures` episodes."""

    def __init__(self, failures):
        super().__init__()
        self.failures = failures
        self.attempts = 0

    def initialize_episode(self, physics, random_state):
        self.attempts += 1
        if self.attempts <= self.failures:
            raise composer.EpisodeInitializationError(f"attempt {self.attempts} found no place")
        super().initialize_episode(physics, random_state)


class _MjcfCountingTask(core_fixtures.RandomHeightTask):
    def __init__(self):
        super().__init__()
        self.mjcf_calls = 0

    def initialize_episode_mjcf(self, random_state):
        self.mjcf_calls += 1


def _first_observation(env):
    return env.reset().observation


# Timesteps.


@pytest.mark.parametrize("order", ["physics_first", "control_first"])
def test_timesteps_can_be_set_in_either_order(order):
    task = core_fixtures.RandomHeightTask()
    if order == "physics_first":
        task.physics_timestep = 0.005
        task.control_timestep = 0.025
    else:
        task.control_timestep = 0.02  # a multiple of the current 0.002 s
        task.physics_timestep = 0.005
    assert task.physics_steps_per_control_step == (5 if order == "physics_first" else 4)


def test_physics_timestep_is_not_checked_against_an_unset_control_timestep():
    # dm_control checks a new physics timestep only against a control timestep that was
    # set explicitly; before that the control timestep is the physics timestep itself.
    class Bare(composer.Task):
        def __init__(self):
            self._arena = core_fixtures.Plane()

        @property
        def root_entity(self):
            return self._arena

        def get_reward(self, physics):
            return 0.0

    task = Bare()
    task.physics_timestep = 0.005
    assert task.control_timestep == 0.005
    assert task.physics_steps_per_control_step == 1


def test_a_physics_timestep_not_dividing_an_explicit_control_timestep_is_refused():
    task = core_fixtures.RandomHeightTask(control_timestep=0.01, physics_timestep=0.002)
    with pytest.raises(ValueError, match="integer multiple"):
        task.physics_timestep = 0.003
    assert task.physics_timestep == 0.002  # nothing changed


@pytest.mark.parametrize(
    "value,error",
    [
        (0.0, ValueError),
        (-0.01, ValueError),
        (float("nan"), ValueError),
        ("0.01", TypeError),
        (True, TypeError),
    ],
)
def test_bad_timesteps_name_the_timestep(value, error):
    task = core_fixtures.RandomHeightTask()
    with pytest.raises(error, match="physics_timestep"):
        task.physics_timestep = value
    with pytest.raises(error, match="control_timestep"):
        task.control_timestep = value


# Reset attempts.


def test_reset_retries_after_an_episode_initialization_error(caplog):
    env = composer.Environment(_FlakyTask(failures=2), random_state=0, max_reset_attempts=3)
    with caplog.at_level(logging.ERROR):
        timestep = env.reset()
    assert timestep.first()
    assert env.task.attempts == 3
    assert sum("found no place" in record.getMessage() for record in caplog.records) == 2
    assert env.step(np.zeros(2)).mid()


def test_reset_raises_the_last_error_when_attempts_run_out():
    env = composer.Environment(_FlakyTask(failures=3), random_state=0, max_reset_attempts=3)
    with pytest.raises(composer.EpisodeInitializationError, match="attempt 3"):
        env.reset()
    # The environment still needs a reset: stepping starts an episode.
    assert env.step(np.zeros(2)).first()


@pytest.mark.parametrize("attempts, tries", [(0, 1), (-3, 1), (2.5, 3), (True, 1)])
def test_reset_attempts_are_counted_as_dm_control_counts_them(attempts, tries):
    # dm_control retries while the failures are fewer than max_reset_attempts.
    env = composer.Environment(_FlakyTask(failures=5), random_state=0, max_reset_attempts=attempts)
    with pytest.raises(composer.EpisodeInitializationError):
        env.reset()
    assert env.task.attempts == tries


def test_one_reset_attempt_by_default():
    env = composer.Environment(_FlakyTask(failures=1), random_state=0)
    with pytest.raises(composer.EpisodeInitializationError):
        env.reset()


# Fixed initial state and MJCF callbacks.


def test_fixed_initial_state_starts_every_episode_alike():
    env = composer.Environment(
        core_fixtures.RandomHeightTask(), random_state=3, fixed_initial_state=True
    )
    first = _first_observation(env)
    env.step(np.zeros(2))
    second = _first_observation(env)
    for name in first:
        np.testing.assert_array_equal(first[name], second[name])
    varying = composer.Environment(core_fixtures.RandomHeightTask(), random_state=3)
    assert not np.array_equal(
        _first_observation(varying)["height"], _first_observation(varying)["height"]
    )


def test_recompile_mjcf_every_episode_false_runs_the_mjcf_callbacks_once():
    env = composer.Environment(
        _MjcfCountingTask(), random_state=0, recompile_mjcf_every_episode=False
    )
    for _ in range(3):
        env.reset()
    assert env.task.mjcf_calls == 1
    every = composer.Environment(_MjcfCountingTask(), random_state=0)
    for _ in range(3):
        every.reset()
    assert every.task.mjcf_calls == 3


# Extra hooks.


def test_extra_hooks_run_after_the_task_and_entities():
    calls = []

    class Recording(core_fixtures.RandomHeightTask):
        def after_step(self, physics, random_state):
            calls.append("task")

    env = composer.Environment(Recording(), random_state=0)
    env.add_extra_hook("after_step", lambda physics, random_state: calls.append("extra"))
    env.add_extra_hook(
        "before_substep", lambda physics, action, random_state: calls.append("substep")
    )
    env.reset()
    env.step(np.zeros(2))
    assert calls == ["substep"] * 5 + ["task", "extra"]


def test_extra_hooks_survive_a_recompile():
    class Resizing(core_fixtures.RandomHeightTask):
        def initialize_episode_mjcf(self, random_state):
            self.arena.ground.size = [random_state.uniform(1.0, 2.0), 2.0, 0.1]
            composer.mark_spec_changed()

    calls = []
    env = composer.Environment(Resizing(), random_state=0)
    env.add_extra_hook("initialize_episode", lambda physics, random_state: calls.append("reset"))
    model = env.physics.model
    env.reset()
    env.reset()
    assert env.physics.model is not model  # recompiled
    assert calls == ["reset", "reset"]


def test_extra_hook_errors():
    env = composer.Environment(core_fixtures.RandomHeightTask(), random_state=0)
    with pytest.raises(ValueError, match="'after_stepp' is not a hook name"):
        env.add_extra_hook("after_stepp", lambda physics, random_state: None)
    # ValueError, as dm_control raises.
    with pytest.raises(ValueError, match="must be callable"):
        env.add_extra_hook("after_step", 3)


# Substeps and control timestep.


def test_n_sub_steps_overrides_the_task_and_is_deprecated():
    with pytest.warns(DeprecationWarning, match="n_sub_steps is deprecated"):
        env = composer.Environment(core_fixtures.RandomHeightTask(), random_state=0, n_sub_steps=3)
    assert env.control_timestep() == pytest.approx(3 * 0.002)
    env.reset()
    env.step(np.zeros(2))
    assert env.physics.time() == pytest.approx(3 * 0.002)


def test_control_timestep_is_the_tasks():
    env = composer.Environment(
        core_fixtures.RandomHeightTask(control_timestep=0.01), random_state=0
    )
    assert env.control_timestep() == 0.01


@pytest.mark.parametrize(
    "kwargs,error,match",
    [
        (dict(n_sub_steps=0), ValueError, "n_sub_steps must be an integer >= 1"),
        (dict(n_sub_steps=2.0), ValueError, "n_sub_steps must be an integer >= 1"),
        (dict(exact_step_count=1), TypeError, "exact_step_count must be a bool"),
    ],
)
def test_bad_options_are_named(kwargs, error, match):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        with pytest.raises(error, match=match):
            composer.Environment(core_fixtures.RandomHeightTask(), **kwargs)


def _summed_time_steps(time_limit, timestep, n_substeps):
    """Control steps until the float sum of timesteps reaches the limit, one by one."""
    time, steps = 0.0, 0
    while time < time_limit:
        for _ in range(n_substeps):
            time += timestep
        steps += 1
    return steps


@pytest.mark.parametrize(
    "time_limit, timestep, n_substeps",
    [(10.0, 0.01, 1), (2.0, 0.002, 10), (30.0, 0.005, 6), (7.3, 0.003, 7), (0.3, 0.004, 5)],
)
def test_float_time_step_limit_sums_the_timesteps_as_mujoco(time_limit, timestep, n_substeps):
    steps = environment_module.float_time_step_limit(time_limit, timestep, n_substeps)
    assert steps == _summed_time_steps(time_limit, timestep, n_substeps)


def test_float_time_step_limit_of_long_and_endless_episodes():
    # 1000 additions of 0.01 give 9.999999999999831: one step more than the ratio.
    assert environment_module.float_time_step_limit(10.0, 0.01, 1) == 1001
    assert environment_module.float_time_step_limit(float("inf"), 0.01, 1) == float("inf")
    # Beyond 10**7 physics steps the exact count.
    assert environment_module.float_time_step_limit(1e6, 0.01, 1) == 100_000_000


def test_episodes_end_by_physics_time_unless_exact_step_count():
    def length(**kwargs):
        env = composer.Environment(
            core_fixtures.RandomHeightTask(0.01, 0.01), time_limit=10.0, random_state=0, **kwargs
        )
        env.reset()
        steps = 0
        while not env.step(np.zeros(2)).last():
            steps += 1
        return steps + 1

    assert length() == 1001
    assert length(exact_step_count=True) == 1000


def test_reward_and_discount_specs_default_as_in_dm_control_and_step_spec():
    env = composer.Environment(core_fixtures.RandomHeightTask(), random_state=0)
    assert env.task.get_reward_spec() is None and env.task.get_discount_spec() is None
    assert env.reward_spec().name == "reward" and env.discount_spec().maximum == 1.0
    with pytest.warns(DeprecationWarning, match="step_spec"):
        with pytest.raises(NotImplementedError, match="get_reward_spec"):
            env.step_spec()

    class SpecifiedTask(core_fixtures.RandomHeightTask):
        def get_reward_spec(self):
            return specs.Array((2,), np.float64, name="rewards")

        def get_discount_spec(self):
            return specs.BoundedArray((), np.float64, 0.0, 1.0, name="gamma")

    env = composer.Environment(SpecifiedTask(), random_state=0)
    with pytest.warns(DeprecationWarning):
        step_spec = env.step_spec()
    assert step_spec.reward.shape == (2,) and step_spec.discount.name == "gamma"
    assert step_spec.observation == env.observation_spec()
    assert env.reward_spec().shape == (2,)
