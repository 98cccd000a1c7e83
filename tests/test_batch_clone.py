"""Copies 2..N-1 of a batch as clones of copy 0 (composer_tasks.batch_clone): the same
numbers as single environments, a logged fallback where cloning is not safe."""

import functools
import itertools
import logging
import threading

import numpy as np
import pytest

from composer_tasks import batch_clone, composer
from composer_tasks.batch import BatchEnvironment, copy_seed
from composer_tasks.composer.variation import distributions
from composer_tasks.composer.variation.variators import PhysicsVariator
from suites import cartpole
from suites import hand
from suites import locomotion
from suites import rllab
from suites import soccer
from suites import suite

from core_fixtures import RandomHeightTask

_FALLBACK = "instead of cloning copy 0"


def _assert_batch_equals_singles(batch, singles, steps, action_seed=0):
    """Every copy's step types, rewards, discounts and observations equal its single
    environment's, bit for bit, over `steps` random actions; returns the auto-resets."""
    spec = batch.action_spec()
    actions = np.random.RandomState(action_seed).uniform(
        spec.minimum, spec.maximum, size=(steps, batch.num_envs) + spec.shape
    )
    batched = batch.reset()
    alone = [env.reset() for env in singles]
    resets = 0
    for step in range(steps + 1):
        for index, timestep in enumerate(alone):
            assert batched.step_type[index] == timestep.step_type, (step, index)
            assert batched.reward[index] == (0.0 if timestep.reward is None else timestep.reward)
            assert batched.discount[index] == (
                1.0 if timestep.discount is None else timestep.discount
            )
            for name, value in timestep.observation.items():
                np.testing.assert_array_equal(
                    batched.observation[name][index], value, err_msg=f"{name} {step} {index}"
                )
        if step == steps:
            return resets
        batched = batch.step(actions[step])
        resets += int(np.sum(batched.first()))
        alone = [env.step(actions[step, index]) for index, env in enumerate(singles)]


def _fallback_lines(caplog):
    return [record for record in caplog.records if _FALLBACK in record.getMessage()]


def _shares_spec_with_copy_0(batch, index):
    return batch.envs[index].task.root_entity.spec is batch.envs[0].task.root_entity.spec


@pytest.mark.parametrize(
    "domain, task, copies, steps",
    [("cartpole", "swingup", 5, 30), ("humanoid", "run", 4, 12)],
)
def test_cloned_suite_copies_equal_single_environments_across_auto_resets(
    domain, task, copies, steps, caplog
):
    control_timestep = suite.load(domain, task).task.control_timestep
    short = {"time_limit": 5 * control_timestep}
    with caplog.at_level(logging.INFO, logger="composer_tasks.batch"):
        batch = suite.load_batch(
            domain, task, copies, task_kwargs=dict(short, random=7), num_threads=1
        )
    assert batch.copies_cloned and not _fallback_lines(caplog)
    # Copy 1 is built by the factory (and checked against its clone); the rest share
    # copy 0's spec, each with its own task, random state and Physics.
    assert not _shares_spec_with_copy_0(batch, 1)
    assert all(_shares_spec_with_copy_0(batch, index) for index in range(2, copies))
    assert len({id(env.task) for env in batch.envs}) == copies
    assert len({id(env.random_state) for env in batch.envs}) == copies
    assert all(env.task.random is env.random_state for env in batch.envs)
    singles = [
        suite.load(domain, task, task_kwargs=dict(short, random=copy_seed(7, index)))
        for index in range(copies)
    ]
    assert _assert_batch_equals_singles(batch, singles, steps) >= copies


class _VariedFrictionTask(RandomHeightTask):
    """A Composer task with a physics variation (friction per episode) and an
    observable that is a closure over the task."""

    def __init__(self):
        super().__init__()
        self.variator = PhysicsVariator()
        self.variator.bind_attributes(
            self.creature.torso_geom, friction=distributions.Uniform(0.5, 1.0)
        )
        self.episodes = 0

    def initialize_episode(self, physics, random_state):
        self.variator.apply_variations(physics, random_state)
        self.episodes += 1
        super().initialize_episode(physics, random_state)


def test_cloned_composer_copies_with_variations_equal_single_environments(caplog):
    with caplog.at_level(logging.INFO, logger="composer_tasks.batch"):
        batch = BatchEnvironment(_VariedFrictionTask, 4, num_threads=1, seed=3, time_limit=0.04)
    assert batch.copies_cloned and not _fallback_lines(caplog)
    assert _shares_spec_with_copy_0(batch, 3)
    singles = [
        composer.Environment(_VariedFrictionTask(), time_limit=0.04, random_state=copy_seed(3, i))
        for i in range(4)
    ]
    assert _assert_batch_equals_singles(batch, singles, steps=15) >= 4
    # Per-episode Python state is each copy's own.
    assert [env.task.episodes for env in batch.envs] == [env.task.episodes for env in singles]
    # The observable's closure reads the clone's own entities, not copy 0's.
    task = batch.envs[2].task
    (cell,) = task.task_observables["height"]._raw_callable.__closure__
    assert cell.cell_contents is task
    # The frictions the copies drew are their own (expanded per copy).
    frictions = batch.model_values("geom", "creature/torso", "friction")[:, 0]
    assert len(set(frictions.tolist())) == 4


def test_clone_copies_false_builds_every_copy_and_refuses_a_non_bool():
    batch = suite.load_batch("cartpole", "balance", 3, seed=0)
    assert batch.copies_cloned
    built = BatchEnvironment(_VariedFrictionTask, 3, seed=0, clone_copies=False)
    assert not built.copies_cloned
    assert not any(_shares_spec_with_copy_0(built, index) for index in (1, 2))
    with pytest.raises(TypeError, match="clone_copies must be a bool, got 'yes'"):
        BatchEnvironment(_VariedFrictionTask, 3, seed=0, clone_copies="yes")


def test_suite_load_batch_passes_clone_copies_through():
    assert suite.load_batch("cartpole", "balance", 3, seed=0).copies_cloned
    built = suite.load_batch("cartpole", "balance", 3, seed=0, clone_copies=False)
    assert not built.copies_cloned
    assert not any(_shares_spec_with_copy_0(built, index) for index in (1, 2))


class _Built(Exception):
    """Raised by the stand-in BatchEnvironment constructors with what they were given."""


def _record_batch_arguments(monkeypatch):
    def record(*args, **kwargs):
        raise _Built(kwargs)

    monkeypatch.setattr(BatchEnvironment, "from_environments", record)
    monkeypatch.setattr(BatchEnvironment, "__init__", record)


@pytest.mark.parametrize(
    "load_batch",
    [
        functools.partial(locomotion.load_batch, "walker_run_gaps", 3),
        functools.partial(hand.load_batch, "catch", 3),
        functools.partial(rllab.load_batch, "cartpole_balancing", 3),
        functools.partial(soccer.load_batch, 1, 3),
    ],
    ids=["locomotion", "hand", "rllab", "soccer"],
)
def test_other_load_batch_functions_pass_clone_copies_through(load_batch, monkeypatch):
    """Each suite's load_batch hands `clone_copies` to BatchEnvironment, True by default
    (the constructor is replaced by one that records its arguments)."""
    _record_batch_arguments(monkeypatch)
    for given, expected in (({}, True), ({"clone_copies": False}, False)):
        with pytest.raises(_Built) as built:
            load_batch(**given)
        assert built.value.args[0]["clone_copies"] is expected


def test_a_factory_whose_copies_differ_falls_back_with_one_log_line(caplog):
    # lqr draws its model's stiffnesses from the copy's random stream in the factory.
    with caplog.at_level(logging.INFO, logger="composer_tasks.batch"):
        batch = suite.load_batch("lqr", "lqr_2_1", 4, seed=2, num_threads=1)
    (line,) = _fallback_lines(caplog)
    assert "BatchEnvironment of LqrLevel builds each of its 4 copies" in line.getMessage()
    assert "copy 1's spec differs from copy 0's" in line.getMessage()
    assert not batch.copies_cloned
    assert not any(_shares_spec_with_copy_0(batch, index) for index in range(1, 4))
    singles = [
        suite.load("lqr", "lqr_2_1", task_kwargs={"random": copy_seed(2, i)}) for i in range(4)
    ]
    _assert_batch_equals_singles(batch, singles, steps=5)


class _NumberedCartPole(cartpole.Balance):
    """Copies that differ in a Python attribute set by their factory, not their seed."""

    _numbers = itertools.count()

    def __init__(self):
        super().__init__(swing_up=False, sparse=False)
        self.number = next(self._numbers)


def test_copies_differing_in_a_python_attribute_are_not_cloned(caplog):
    with caplog.at_level(logging.INFO, logger="composer_tasks.batch"):
        batch = BatchEnvironment(_NumberedCartPole, 3, seed=0)
    (line,) = _fallback_lines(caplog)
    assert "copy 1 differs from copy 0's clone for its seed at environment._task" in (
        line.getMessage()
    )
    assert ".number" in line.getMessage()
    assert not batch.copies_cloned
    assert [env.task.number for env in batch.envs] == sorted(
        {env.task.number for env in batch.envs}
    )


class _LockedCartPole(cartpole.Balance):
    def __init__(self):
        super().__init__(swing_up=False, sparse=False)
        self.lock = threading.Lock()


class _MjcfEpisodeTask(RandomHeightTask):
    def initialize_episode_mjcf(self, random_state):
        self.creature.torso_geom.rgba = [1.0, 0.0, 0.0, 1.0]


@pytest.mark.parametrize(
    "factory, reason",
    [
        (_LockedCartPole, "task.lock is a _thread.lock, which a clone cannot copy safely"),
        (
            _MjcfEpisodeTask,
            "its initialize_episode_mjcf callbacks (_MjcfEpisodeTask.initialize_episode_mjcf) "
            "edit the spec per episode",
        ),
    ],
)
def test_what_a_clone_cannot_copy_or_share_falls_back_naming_it(factory, reason, caplog):
    with caplog.at_level(logging.INFO, logger="composer_tasks.batch"):
        batch = BatchEnvironment(factory, 3, seed=0)
    (line,) = _fallback_lines(caplog)
    assert reason in line.getMessage()
    assert not batch.copies_cloned
    batch.reset()


class _CompiledOnceTask(RandomHeightTask):
    """An `after_compile` that refuses to run twice on one task's state (as a clone
    runs it on a copy of copy 0's state; this task cannot reset either)."""

    compiled = False

    def after_compile(self, physics, random_state):
        if self.compiled:
            raise RuntimeError("compiled twice")
        self.compiled = True


def test_a_clone_whose_construction_raises_falls_back(caplog):
    with caplog.at_level(logging.INFO, logger="composer_tasks.batch"):
        batch = BatchEnvironment(_CompiledOnceTask, 3, seed=0)
    (line,) = _fallback_lines(caplog)
    assert "cloning copy 0 raised RuntimeError: compiled twice" in line.getMessage()
    assert not batch.copies_cloned
    assert all(env.task.compiled for env in batch.envs)


class _SpecEditingTask(RandomHeightTask):
    def initialize_episode(self, physics, random_state):
        super().initialize_episode(physics, random_state)
        self.creature.torso_geom.rgba = [0.0, 1.0, 0.0, 1.0]
        composer.mark_spec_changed()


def test_a_spec_edit_during_an_episode_of_cloned_copies_raises():
    batch = BatchEnvironment(_SpecEditingTask, 3, seed=0)
    assert batch.copies_cloned
    with pytest.raises(ValueError, match="build the batch with clone_copies=False"):
        batch.reset()
    BatchEnvironment(_SpecEditingTask, 3, seed=0, clone_copies=False).reset()


@pytest.mark.parametrize("seed", [0, 1, 12345, 2**31, 2**32 - 1])
def test_a_clone_stream_is_the_single_environments_stream(seed):
    fast, reference = batch_clone.seeded_stream(seed), np.random.RandomState(seed)
    ours, theirs = fast.get_state(), reference.get_state()
    assert ours[0] == theirs[0] and ours[2:] == theirs[2:]
    np.testing.assert_array_equal(ours[1], theirs[1])
    np.testing.assert_array_equal(fast.standard_normal(5), reference.standard_normal(5))
