"""Observables: timing semantics, pruning, specs, MJCF features, cameras, bad input.

The timing tests use a counter: a Generic observable whose value is the physics time
with a physics timestep of 1 s, so a value is the substep at which it was evaluated.
Expected arrays follow docs/observables.md: at reset the buffer starts as zeros and
the reset value (0) arrives after its delay (dm_control's default padding); evaluations at multiples of the interval arrive `delay` substeps later; the
observation at T holds the last `buffer_size` arrivals, oldest first.
"""

import collections
import os
import subprocess
import sys
import textwrap

import mujoco
import numpy as np
import pytest

from composer_tasks import composer
from composer_tasks.composer.observation import observable
from composer_tasks.composer.observation import updater as updater_module
from composer_tasks.composer import variation
from composer_tasks.composer.variation import distributions

NO_ACTION = np.zeros(0)


# A world with nothing in it: the counter needs only the clock.


class _EmptyWorld(composer.Entity):
    def _build(self):
        self._spec = mujoco.MjSpec()
        self._spec.modelname = "world"
        self._spec.option.timestep = 1.0


class _CounterTask(composer.Task):
    """One task observable, `counter`, whose value is the physics time (s)."""

    def __init__(self, substeps, **options):
        self._root = _EmptyWorld()
        self.set_timesteps(float(substeps), 1.0)
        self.evaluated_at = []
        self._observables = collections.OrderedDict(
            counter=observable.Generic(self._read_clock, enabled=True, **options)
        )

    def _read_clock(self, physics):
        self.evaluated_at.append(physics.time())
        return physics.time()

    @property
    def root_entity(self):
        return self._root

    @property
    def task_observables(self):
        return self._observables

    def get_reward(self, physics):
        return 0.0


class _CounterTaskWithSubstepCallback(_CounterTask):
    """Overrides a substep callback, so the Environment steps substep by substep."""

    def after_substep(self, physics, random_state):
        pass


def _counter_observations(
    substeps,
    control_steps,
    seed=0,
    strip=False,
    task_class=_CounterTask,
    padding=composer.ObservationPadding.ZERO,
    **options,
):
    task = task_class(substeps, **options)
    env = composer.Environment(
        task,
        random_state=seed,
        strip_singleton_obs_buffer_dim=strip,
        delayed_observation_padding=padding,
    )
    observations = [env.reset().observation["counter"]]
    task.evaluated_at.clear()
    for _ in range(control_steps):
        observations.append(env.step(NO_ACTION).observation["counter"])
    return observations, task, env


# Observations at T = 0, 2, 4, ..., 10 with 2 substeps per control step, keyed by
# (update_interval, buffer_size, delay). Worked out from the semantics: the values
# evaluated at k * interval arrive at k * interval + delay.
_COUNTER_GRID = {
    (1, 1, 0): [[0], [2], [4], [6], [8], [10]],
    (1, 1, 1): [[0], [1], [3], [5], [7], [9]],
    (1, 1, 3): [[0], [0], [1], [3], [5], [7]],
    (1, 3, 0): [[0, 0, 0], [0, 1, 2], [2, 3, 4], [4, 5, 6], [6, 7, 8], [8, 9, 10]],
    (1, 3, 1): [[0, 0, 0], [0, 0, 1], [1, 2, 3], [3, 4, 5], [5, 6, 7], [7, 8, 9]],
    (1, 3, 3): [[0, 0, 0], [0, 0, 0], [0, 0, 1], [1, 2, 3], [3, 4, 5], [5, 6, 7]],
    (2, 1, 0): [[0], [2], [4], [6], [8], [10]],
    (2, 1, 1): [[0], [0], [2], [4], [6], [8]],
    (2, 1, 3): [[0], [0], [0], [2], [4], [6]],
    (2, 3, 0): [[0, 0, 0], [0, 0, 2], [0, 2, 4], [2, 4, 6], [4, 6, 8], [6, 8, 10]],
    (2, 3, 1): [[0, 0, 0], [0, 0, 0], [0, 0, 2], [0, 2, 4], [2, 4, 6], [4, 6, 8]],
    (2, 3, 3): [[0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 2], [0, 2, 4], [2, 4, 6]],
    (3, 1, 0): [[0], [0], [3], [6], [6], [9]],
    (3, 1, 1): [[0], [0], [3], [3], [6], [9]],
    (3, 1, 3): [[0], [0], [0], [3], [3], [6]],
    (3, 3, 0): [[0, 0, 0], [0, 0, 0], [0, 0, 3], [0, 3, 6], [0, 3, 6], [3, 6, 9]],
    (3, 3, 1): [[0, 0, 0], [0, 0, 0], [0, 0, 3], [0, 0, 3], [0, 3, 6], [3, 6, 9]],
    (3, 3, 3): [[0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 3], [0, 0, 3], [0, 3, 6]],
}

_AGGREGATED = {
    # (interval, buffer, delay, aggregator): aggregates of the rows above.
    (1, 3, 0, "mean"): [0, 1, 3, 5, 7, 9],
    (1, 3, 1, "sum"): [0, 1, 6, 12, 18, 24],
    (2, 3, 1, "max"): [0, 0, 2, 4, 6, 8],
    (2, 3, 0, "min"): [0, 0, 0, 2, 4, 6],
    (3, 3, 0, "median"): [0, 0, 0, 3, 3, 6],
    (1, 1, 1, "mean"): [0, 1, 3, 5, 7, 9],
}


@pytest.mark.parametrize("interval,buffer_size,delay", sorted(_COUNTER_GRID))
def test_counter_buffers(interval, buffer_size, delay):
    observations, _, env = _counter_observations(
        2, 5, update_interval=interval, buffer_size=buffer_size, delay=delay
    )
    expected = np.array(_COUNTER_GRID[interval, buffer_size, delay], dtype=np.float64)
    np.testing.assert_array_equal(np.array(observations), expected)
    spec = env.observation_spec()["counter"]
    assert spec.shape == (buffer_size,) and spec.dtype == np.float64


@pytest.mark.parametrize("interval,buffer_size,delay,aggregator", sorted(_AGGREGATED))
def test_counter_aggregated(interval, buffer_size, delay, aggregator):
    observations, _, env = _counter_observations(
        2, 5, update_interval=interval, buffer_size=buffer_size, delay=delay, aggregator=aggregator
    )
    expected = _AGGREGATED[interval, buffer_size, delay, aggregator]
    np.testing.assert_array_equal(np.array(observations), expected)
    assert env.observation_spec()["counter"].shape == ()
    assert all(value.shape == () for value in observations)


def test_custom_aggregator_reduces_the_buffer_axis():
    observations, _, env = _counter_observations(
        2, 3, buffer_size=3, aggregator=lambda buffer: buffer[-1] - buffer[0]
    )
    np.testing.assert_array_equal(np.array(observations), [0, 2, 2, 2])


def test_counter_with_three_substeps_per_control_step():
    observations, _, _ = _counter_observations(3, 4, update_interval=2, buffer_size=3, delay=1)
    np.testing.assert_array_equal(
        np.array(observations), [[0, 0, 0], [0, 0, 2], [0, 2, 4], [4, 6, 8], [6, 8, 10]]
    )


def test_worked_examples_of_the_docs():
    # docs/observables.md: n = 4, update_interval 3, buffer_size 2, delay 2.
    observations, task, _ = _counter_observations(4, 4, update_interval=3, buffer_size=2, delay=2)
    np.testing.assert_array_equal(np.array(observations), [[0, 0], [0, 0], [3, 6], [6, 9], [9, 12]])
    assert task.evaluated_at == [3, 6, 9, 12, 15]
    means, _, _ = _counter_observations(
        4, 4, update_interval=3, buffer_size=2, delay=2, aggregator="mean"
    )
    np.testing.assert_array_equal(np.array(means), [0, 0, 4.5, 7.5, 10.5])
    # n = 4, update_interval 1, buffer_size 2, delay 1: only substeps 2 and 3 are seen.
    observations, task, _ = _counter_observations(4, 3, buffer_size=2, delay=1)
    np.testing.assert_array_equal(np.array(observations), [[0, 0], [2, 3], [6, 7], [10, 11]])
    assert task.evaluated_at == [2, 3, 6, 7, 10, 11]


def test_strip_singleton_buffer_dim():
    stripped, _, env = _counter_observations(2, 2, strip=True)
    np.testing.assert_array_equal(np.array(stripped), [0, 2, 4])
    assert env.observation_spec()["counter"].shape == ()
    delayed, _, _ = _counter_observations(2, 2, strip=True, delay=1)
    np.testing.assert_array_equal(np.array(delayed), [0, 1, 3])
    kept, _, env = _counter_observations(2, 2, strip=True, buffer_size=2)
    np.testing.assert_array_equal(np.array(kept), [[0, 0], [1, 2], [3, 4]])
    assert env.observation_spec()["counter"].shape == (2,)


def test_once_per_control_step_with_ten_substeps():
    task = _CounterTask(10)
    env = composer.Environment(task, random_state=0)
    env.reset()
    steps = []
    original_step = env.physics.step
    env.physics.step = lambda nstep=1: (steps.append(nstep), original_step(nstep))
    task.evaluated_at.clear()
    for _ in range(5):
        env.step(NO_ACTION)
    assert task.evaluated_at == [10.0, 20.0, 30.0, 40.0, 50.0]
    assert steps == [10] * 5  # one mj_step(nstep=10) per control step


@pytest.mark.parametrize(
    "substeps,options,plans",
    [
        (10, dict(), [(10,), (10,)]),
        (10, dict(buffer_size=3), [(8, 9, 10), (8, 9, 10)]),
        # Values at 9 and 10 arrive at 11 and 12, and by the read at 20 the values of
        # 16..18 have arrived after them: they are never observed.
        (10, dict(buffer_size=3, delay=2), [(6, 7, 8), (6, 7, 8)]),
        (10, dict(update_interval=3), [(9,), (8,), (10,), (9,)]),
        # Arrivals at 6..9: the value at 1 (arriving 6) is pushed out by those of 2, 3
        # by the read at 8; the one at 4 (arriving 9) by 5, 6, 7 by the read at 12.
        (4, dict(buffer_size=2, delay=5), [(2, 3), (2, 3)]),
        (4, dict(update_interval=6), [(), (2,), (4,), ()]),
    ],
)
def test_evaluates_only_what_can_be_observed(substeps, options, plans):
    task = _CounterTask(substeps, **options)
    env = composer.Environment(task, random_state=0)
    updater = updater_module.Updater(list(task.observables.items()), substeps)
    updater.reset(env.physics, env.random_state)
    assert [updater.prepare_for_next_control_step() for _ in plans] == plans


def _reference(substeps, reads, buffer_size, intervals, delays):
    """Counter observations at T = 0, n, ..., reads * n straight from the definition,
    evaluating every scheduled value; also the times whose value is ever observed."""
    horizon = reads * substeps
    # The reset value (the counter's 0) arrives after a delay of its own, drawn first
    # (dm_control's default ZERO padding); the buffer is zeros before it. As in
    # dm_control, building the environment resets the observables once (for the
    # observation spec), and so does the reset's recompilation before the episode's
    # own: each draws one delay from these private streams (they ignore the random
    # state).
    next(delays)
    next(delays)
    samples = [(next(delays), 0)]
    time = 0
    while True:
        time += next(intervals)
        if time > horizon:
            break
        samples.append((time + next(delays), time))
    observations, observed = [], set()
    for read in range(0, horizon + 1, substeps):
        arrived = sorted(sample for sample in samples if sample[0] <= read)
        window = [0] * buffer_size + [time for _, time in arrived]
        observations.append(window[-buffer_size:])
        observed.update(time for _, time in arrived[-buffer_size:])
    return observations, observed, samples


def _constant(value):
    return value, iter(lambda: value, None)


@pytest.mark.parametrize("seed", range(40))
@pytest.mark.parametrize("task_class", [_CounterTask, _CounterTaskWithSubstepCallback])
def test_periodic_matches_reference_and_prunes_exactly(seed, task_class):
    # Fixed intervals and delays: the optimal plan. Random ones (and corrupted
    # observables) are planned as dm_control plans them, which the differential
    # tests check against dm_control itself (tests/differential/test_composer_observables.py).
    rng = np.random.RandomState(seed)
    substeps = int(rng.choice([1, 2, 3, 5]))
    buffer_size = int(rng.randint(1, 5))
    interval, intervals = _constant(int(rng.randint(1, 5)))
    delay, delays = _constant(int(rng.randint(0, 7)))
    reads = 12
    observations, task, _ = _counter_observations(
        substeps,
        reads,
        task_class=task_class,
        update_interval=interval,
        buffer_size=buffer_size,
        delay=delay,
    )
    expected, observed, samples = _reference(substeps, reads, buffer_size, intervals, delays)
    np.testing.assert_array_equal(np.array(observations), np.array(expected, dtype=np.float64))
    # Exactly the values that are observed were evaluated (among those whose first
    # read falls within the run; the planner looks further ahead than the run).
    horizon = reads * substeps
    settled = {
        time
        for arrival, time in samples
        if time > 0 and -(-arrival // substeps) * substeps <= horizon
    }
    assert {int(t) for t in task.evaluated_at} & settled == observed & settled


def test_callable_interval_and_delay_are_deterministic_under_a_seed():
    options = dict(
        update_interval=distributions.UniformInteger(1, 4),
        delay=distributions.UniformInteger(0, 3),
        buffer_size=4,
    )
    first, task, _ = _counter_observations(2, 30, seed=7, **options)
    second, _, _ = _counter_observations(2, 30, seed=7, **options)
    other, _, _ = _counter_observations(2, 30, seed=8, **options)
    np.testing.assert_array_equal(np.array(first), np.array(second))
    assert not np.array_equal(np.array(first), np.array(other))
    # The intervals do vary: some evaluations are 1 substep apart, some 3.
    gaps = set(np.diff(sorted(set(np.concatenate(first).tolist()))))
    assert 1 in gaps and 3 in gaps


def test_variations_draw_from_the_environment_random_state_and_callables_get_no_argument():
    # dm_control's rule: a Variation is called with random_state=, another callable
    # with no arguments.
    received = []

    class Interval(variation.Variation):
        def __call__(self, initial_value=None, current_value=None, random_state=None):
            received.append(random_state)
            return 1

    _, _, env = _counter_observations(2, 2, update_interval=Interval())
    assert received and all(state is env.random_state for state in received)
    calls = []
    _counter_observations(2, 2, delay=lambda: calls.append(None) or 0)
    assert calls
    with pytest.raises(TypeError):
        _counter_observations(2, 2, delay=lambda random_state: 0)


def test_constant_and_callable_options_agree():
    constant, constant_task, _ = _counter_observations(
        3, 8, update_interval=2, buffer_size=2, delay=4
    )
    callable_, callable_task, _ = _counter_observations(
        3, 8, update_interval=lambda: 2, buffer_size=2, delay=lambda: 4
    )
    np.testing.assert_array_equal(np.array(constant), np.array(callable_))
    assert constant_task.evaluated_at == callable_task.evaluated_at


def test_corruptor_applies_once_per_evaluated_value():
    def corruptor(value, random_state):
        return value + random_state.uniform()

    first, task, _ = _counter_observations(1, 6, seed=3, buffer_size=2, corruptor=corruptor)
    second, _, _ = _counter_observations(1, 6, seed=3, buffer_size=2, corruptor=corruptor)
    np.testing.assert_array_equal(np.array(first), np.array(second))
    for previous, current in zip(first[1:], first[2:]):
        assert previous[1] == current[0]  # a buffered value is corrupted once, not per read
    noise = np.array([value[1] for value in first]) - np.arange(7)
    assert np.all((noise > 0) & (noise < 1)) and len(set(noise)) == 7
    # dm_control's default padding: zeros before the (corrupted) reset value.
    assert first[0][0] == 0.0 and first[0][1] == noise[0]
    padded, _, _ = _counter_observations(
        1,
        6,
        seed=3,
        buffer_size=2,
        corruptor=corruptor,
        padding=composer.ObservationPadding.INITIAL_VALUE,
    )
    assert padded[0][0] == padded[0][1] == noise[0]  # the corrupted reset value pads it
    np.testing.assert_array_equal(np.array(padded[1:]), np.array(first[1:]))


@pytest.mark.parametrize(
    "padding,expected",
    [
        # Zeros until the reset value (10) arrives after its delay of 2 substeps.
        (composer.ObservationPadding.ZERO, [[0, 0, 0], [0, 0, 0], [0, 0, 10], [0, 10, 11]]),
        # The reset value fills the buffer from the start.
        (
            composer.ObservationPadding.INITIAL_VALUE,
            [[10, 10, 10], [10, 10, 10], [10, 10, 10], [10, 10, 11]],
        ),
    ],
)
def test_padding_zero_or_initial_value(padding, expected):
    def shifted(value, random_state):
        del random_state
        return value + 10

    observations, _, _ = _counter_observations(
        1, 3, buffer_size=3, delay=2, padding=padding, corruptor=shifted
    )
    np.testing.assert_array_equal(np.array(observations), expected)


def test_padding_must_be_an_observation_padding():
    with pytest.raises(
        ValueError, match="delayed_observation_padding must be an ObservationPadding"
    ):
        composer.Environment(_CounterTask(1), delayed_observation_padding="zero")


def test_observation_spec_draws_no_random_numbers():
    _, _, env = _counter_observations(
        2,
        1,
        update_interval=distributions.UniformInteger(1, 3),
        corruptor=lambda value, random_state: value + random_state.normal(),
    )
    state = env.random_state.get_state()
    env.observation_spec()
    after = env.random_state.get_state()
    assert all(np.array_equal(a, b) for a, b in zip(state, after))


def test_after_step_runs_before_the_last_update():
    class CountingTask(_CounterTask):
        def __init__(self):
            super().__init__(3)
            self.steps_seen = 0
            self._observables["after_steps"] = observable.Generic(
                lambda physics: self.steps_seen, enabled=True
            )

        def after_step(self, physics, random_state):
            self.steps_seen += 1

    env = composer.Environment(CountingTask(), random_state=0)
    env.reset()
    assert [env.step(NO_ACTION).observation["after_steps"][0] for _ in range(3)] == [1, 2, 3]


def test_observations_are_new_arrays_every_step():
    observations, _, _ = _counter_observations(1, 6, update_interval=3)
    for index, first in enumerate(observations):
        for second in observations[index + 1 :]:
            assert not np.shares_memory(first, second)


# MJCF features on a small robot.


class _RobotObservables(composer.Observables):
    @composer.observable
    def joint_positions(self):
        return observable.MJCFFeature("qpos", self._entity.hinges)

    @composer.observable
    def joint_velocities(self):
        return observable.MJCFFeature("qvel", self._entity.hinges)

    @composer.observable
    def torso_position(self):
        return observable.MJCFFeature("xpos", self._entity.torso)

    @composer.observable
    def accelerometer(self):
        return observable.MJCFFeature("sensordata", self._entity.accelerometer)


class _Robot(composer.Entity):
    """A torso on a slide joint with two hinged arms, a motor and an accelerometer."""

    def _build(self, name="robot"):
        spec = mujoco.MjSpec()
        spec.modelname = name
        torso = spec.worldbody.add_body(name="torso", pos=[0, 0, 1])
        slide = torso.add_joint(name="slide", type=mujoco.mjtJoint.mjJNT_SLIDE, axis=[1, 0, 0])
        self.torso_geom = torso.add_geom(name="torso", size=[0.1, 0, 0], mass=2.0)
        self.hinges = []
        self.arms = []
        for side, y in (("left", 0.2), ("right", -0.2)):
            arm = torso.add_body(name=side, pos=[0, y, 0])
            self.hinges.append(arm.add_joint(name=side, axis=[0, 1, 0]))
            arm.add_geom(
                type=mujoco.mjtGeom.mjGEOM_CAPSULE, fromto=[0, 0, 0, 0.3, 0, 0], size=[0.03, 0, 0]
            )
            self.arms.append(arm)
        torso.add_site(name="imu")
        self.accelerometer = spec.add_sensor(
            name="accelerometer",
            type=mujoco.mjtSensor.mjSENS_ACCELEROMETER,
            objtype=mujoco.mjtObj.mjOBJ_SITE,
            objname="imu",
        )
        self.motor = spec.add_actuator(
            name="motor",
            target="left",
            trntype=mujoco.mjtTrn.mjTRN_JOINT,
            ctrlrange=[-1, 1],
            gear=[2, 0, 0, 0, 0, 0],
        )
        self.slide = slide
        self.torso = torso
        self.camera = torso.add_camera(name="eye", pos=[0, -1, 0.3], xyaxes=[1, 0, 0, 0, 0.3, 1])
        spec.worldbody.add_light(pos=[0, 0, 3], dir=[0, 0, -1])
        self._spec = spec

    def _build_observables(self):
        return _RobotObservables(self)


class _Arena(composer.Entity):
    def _build(self):
        self._spec = mujoco.MjSpec()
        self._spec.modelname = "arena"
        self._spec.worldbody.add_geom(type=mujoco.mjtGeom.mjGEOM_PLANE, size=[2, 2, 0.1])


class _RobotTask(composer.Task):
    def __init__(self, robot, substeps=2, extra=None):
        self._arena = _Arena()
        self._arena.attach(robot)
        self._robot = robot
        self.set_timesteps(0.01 * substeps, 0.01)
        self._extra = collections.OrderedDict(extra or {})

    @property
    def root_entity(self):
        return self._arena

    @property
    def task_observables(self):
        return self._extra

    def initialize_episode(self, physics, random_state):
        physics.bind(self._robot.hinges[0]).qpos = 0.3
        physics.bind(self._robot.slide).qvel = 0.5

    def get_reward(self, physics):
        return 0.0


def test_mjcf_features_read_the_right_numbers():
    robot = _Robot()
    robot.observables.enable_all()
    extra = dict(
        both_arms_xpos=observable.MJCFFeature("xpos", robot.arms, enabled=True),
        motor_ctrl=observable.MJCFFeature("ctrl", robot.motor, enabled=True),
        torso_mass=observable.MJCFFeature("mass", robot.torso, enabled=True),
        slide_and_hinges=observable.MJCFFeature("qpos", [robot.slide] + robot.hinges, enabled=True),
        torso_height=observable.MJCFFeature("xpos", robot.torso, index=2, enabled=True),
        arm_x=observable.MJCFFeature("xpos", robot.arms, index=(slice(None), 0), enabled=True),
        geom_position=observable.MJCFFeature("xpos", robot.torso_geom, enabled=True),
    )
    env = composer.Environment(
        _RobotTask(robot, extra=extra), random_state=0, strip_singleton_obs_buffer_dim=True
    )
    env.reset()
    timestep = env.step(np.array([0.5]))
    physics = env.physics
    data, model = physics.data, physics.model
    observation = timestep.observation
    hinge_ids = [physics.bind(hinge).id for hinge in robot.hinges]
    expected = {
        "both_arms_xpos": data.xpos[[physics.bind(arm).id for arm in robot.arms]],
        # One element's scalar row is a scalar, as dm_control's bind gives it.
        "motor_ctrl": np.array(0.5),
        "torso_mass": np.array(2.0),
        "slide_and_hinges": data.qpos[0:3],
        "torso_height": np.array(data.xpos[physics.bind(robot.torso).id][2]),
        "arm_x": data.xpos[[physics.bind(arm).id for arm in robot.arms], 0],
        "geom_position": data.geom_xpos[physics.bind(robot.torso_geom).id],
        "robot/accelerometer": data.sensordata[0:3],
        "robot/joint_positions": data.qpos[model.jnt_qposadr[hinge_ids]],
        "robot/joint_velocities": data.qvel[model.jnt_dofadr[hinge_ids]],
        "robot/torso_position": data.xpos[physics.bind(robot.torso).id],
    }
    # Task observables first, then the entities', each entity's by name.
    assert list(observation) == list(expected)
    spec = env.observation_spec()
    for name, value in expected.items():
        np.testing.assert_array_equal(observation[name], value, err_msg=name)
        assert observation[name].shape == value.shape == spec[name].shape, name
        assert observation[name].dtype == spec[name].dtype, name
        for array in (
            data.qpos,
            data.qvel,
            data.xpos,
            data.sensordata,
            data.ctrl,
            data.geom_xpos,
            model.body_mass,
        ):
            assert not np.shares_memory(observation[name], array), name
    assert observation["robot/joint_positions"][0] != 0.0  # the episode's initial state shows


def test_mjcf_feature_shape_rules():
    """dm_control's shapes: rows stack, variable-width slices concatenate, one
    element's scalar row is a scalar (plus the leading buffer axis here)."""
    robot = _Robot()
    extra = dict(
        one_hinge=observable.MJCFFeature("qpos", robot.hinges[0], enabled=True),
        hinges=observable.MJCFFeature("qpos", robot.hinges, enabled=True),
        two_bodies=observable.MJCFFeature("xmat", robot.arms, enabled=True),
        two_accelerometers=observable.MJCFFeature(
            "sensordata", [robot.accelerometer, robot.accelerometer], enabled=True
        ),
        torso_mass=observable.MJCFFeature("mass", robot.torso, enabled=True),
        masses=observable.MJCFFeature("mass", [robot.torso] + robot.arms, enabled=True),
    )
    env = composer.Environment(_RobotTask(robot, extra=extra), random_state=0)
    shapes = {name: spec.shape for name, spec in env.observation_spec().items() if name in extra}
    assert shapes == {
        "one_hinge": (1, 1),
        "hinges": (1, 2),
        "two_bodies": (1, 2, 9),
        "two_accelerometers": (1, 6),
        "torso_mass": (1,),
        "masses": (1, 3),
    }
    with pytest.raises(ValueError, match="one kind"):
        observable.MJCFFeature("xpos", [robot.torso, robot.torso_geom])


def test_mjcf_feature_index_and_getitem():
    robot = _Robot()
    feature = observable.MJCFFeature("xpos", robot.arms, enabled=True)
    extra = dict(arm_z=feature[:, 2])
    extra["arm_z"].enabled = True
    env = composer.Environment(
        _RobotTask(robot, extra=extra), random_state=0, strip_singleton_obs_buffer_dim=True
    )
    observation = env.reset().observation
    physics = env.physics
    expected = physics.data.xpos[[physics.bind(arm).id for arm in robot.arms], 2]
    np.testing.assert_array_equal(observation["arm_z"], expected)
    with pytest.raises(NotImplementedError, match="already has an index"):
        feature[:, 2][0]


def test_mujoco_feature_reads_named_data():
    robot = _Robot()
    extra = dict(
        left=observable.MujocoFeature("qpos", "robot/left", enabled=True),
        both=observable.MujocoFeature("qpos", ["robot/left", "robot/right"], enabled=True),
        torso=observable.MujocoFeature("xpos", lambda: "robot/torso", enabled=True),
    )
    env = composer.Environment(
        _RobotTask(robot, extra=extra), random_state=0, strip_singleton_obs_buffer_dim=True
    )
    env.reset()
    observation = env.step(np.array([0.5])).observation
    data = env.physics.data
    np.testing.assert_array_equal(observation["left"], data.joint("robot/left").qpos)
    np.testing.assert_array_equal(
        observation["both"],
        np.concatenate([data.joint("robot/left").qpos, data.joint("robot/right").qpos]),
    )
    np.testing.assert_array_equal(observation["torso"], data.body("robot/torso").xpos)
    with pytest.raises(ValueError, match="no joint named 'robot/nope'"):
        composer.Environment(
            _RobotTask(
                _Robot(),
                extra={"bad": observable.MujocoFeature("qpos", "robot/nope", enabled=True)},
            ),
            random_state=0,
        )
    with pytest.raises(TypeError, match="feature_name"):
        observable.MujocoFeature("qpos", 3)


def test_mjcf_feature_errors_name_the_observable():
    robot = _Robot()
    extra = dict(bad=observable.MJCFFeature("qpoz", robot.hinges, enabled=True))
    with pytest.raises(ValueError, match=r"observable 'bad'.*qpoz"):
        composer.Environment(_RobotTask(robot, extra=extra), random_state=0)
    stranger = _Robot(name="stranger")
    extra = dict(foreign=observable.MJCFFeature("qpos", stranger.hinges[0], enabled=True))
    with pytest.raises(ValueError, match="observable 'foreign'"):
        composer.Environment(_RobotTask(_Robot(), extra=extra), random_state=0)


# The entity Observables container.


def test_observables_container():
    robot = _Robot()
    observables = robot.observables
    # In the order of their names, as in dm_control, not of their definitions.
    assert list(observables) == [
        "accelerometer",
        "joint_positions",
        "joint_velocities",
        "torso_position",
    ]
    assert observables.joint_positions is observables["joint_positions"]
    assert not any(item.enabled for item in observables.values())
    observables.joint_positions.enabled = True
    assert observables["joint_positions"].enabled
    observables.enable_all()
    assert all(item.enabled for item in observables.values())
    observables.disable_all()
    extra = observable.Generic(lambda physics: physics.time())
    observables.add_observable("clock", extra)
    assert observables.clock is extra and extra.enabled
    with pytest.raises(AttributeError, match="no observable 'missing'"):
        observables.missing
    with pytest.raises(KeyError):
        observables["missing"]
    task = _RobotTask(robot)
    assert list(task.observables) == [
        "robot/accelerometer",
        "robot/joint_positions",
        "robot/joint_velocities",
        "robot/torso_position",
        "robot/clock",
    ]
    env = composer.Environment(task, random_state=0)
    assert list(env.reset().observation) == ["robot/clock"]


def test_observable_options_at_construction():
    robot = _Robot(
        observable_options={
            "joint_positions": dict(enabled=True, buffer_size=3, delay=1),
            "accelerometer": dict(enabled=True, aggregator="mean"),
        }
    )
    assert robot.observables.joint_positions.buffer_size == 3
    env = composer.Environment(_RobotTask(robot), random_state=0)
    spec = env.observation_spec()
    assert list(spec) == ["robot/accelerometer", "robot/joint_positions"]
    assert spec["robot/joint_positions"].shape == (3, 2)
    assert spec["robot/accelerometer"].shape == (3,)
    with pytest.raises(AttributeError, match="speed"):
        _Robot(observable_options={"joint_positions": dict(speed=2)})
    with pytest.raises(KeyError):
        _Robot(observable_options={"elbow": dict(enabled=True)})


# Bad input.


def test_bad_options_name_the_observable():
    def clock(physics):
        return physics.time()

    with pytest.raises(KeyError, match=r"Unrecognized aggregator name: 'avg'. Generic\(.*clock\)"):
        observable.Generic(clock, aggregator="avg")
    with pytest.raises(ValueError, match=r"clock.*delay must be an integer >= 0.*-1"):
        observable.Generic(clock, delay=-1)
    with pytest.raises(ValueError, match=r"clock.*buffer_size must be an integer >= 1.*0"):
        observable.Generic(clock, buffer_size=0)
    with pytest.raises(ValueError, match=r"clock.*update_interval must be an integer >= 1"):
        observable.Generic(clock, update_interval=0)
    with pytest.raises(ValueError, match=r"clock.*corruptor must be None or a callable"):
        observable.Generic(clock, corruptor=0.1)
    with pytest.raises(TypeError, match="enabled must be a bool"):
        observable.Generic(clock, enabled="yes")
    with pytest.raises(ValueError, match=r"'avg'.*MJCFFeature\('qpos', \['left', 'right'\]\)"):
        _Robot(observable_options={"joint_positions": dict(aggregator="avg")})
    with pytest.raises(ValueError, match="expected an `mjcf.Element`"):
        observable.MJCFFeature("qpos", "left")
    with pytest.raises(ValueError, match="depth or segmentation"):
        observable.MJCFCamera(_Robot().camera, depth=True, segmentation=True)


def test_bad_drawn_values_name_the_observable():
    task = _CounterTask(2, update_interval=lambda: 0)
    env = composer.Environment(task, random_state=0)
    env.reset()
    with pytest.raises(ValueError, match=r"observable 'counter'.*update_interval.*returned 0"):
        env.step(NO_ACTION)
    # The reset value's delay is drawn at reset (dm_control's ZERO padding), so a bad
    # delay is found when the environment is built.
    task = _CounterTask(2, delay=lambda: 1.5)
    with pytest.raises(ValueError, match=r"observable 'counter'.*delay.*returned 1.5"):
        composer.Environment(task, random_state=0)


def test_changing_shape_names_the_observable():
    class GrowingTask(_CounterTask):
        def __init__(self):
            super().__init__(1)
            self._observables["growing"] = observable.Generic(
                lambda physics: np.zeros(int(physics.time()) + 1), enabled=True
            )

    env = composer.Environment(GrowingTask(), random_state=0)
    env.reset()
    with pytest.raises(ValueError, match=r"observable 'growing' returned shape \(2,\)"):
        env.step(NO_ACTION)


def test_updater_rejects_bad_arguments():
    with pytest.raises(ValueError, match="physics_steps_per_control_step"):
        updater_module.Updater([], 0)
    with pytest.raises(TypeError, match="observable 'x'"):
        updater_module.Updater([("x", lambda physics: 0.0)], 1)
    with pytest.raises(RuntimeError, match="before reset"):
        updater_module.Updater([], 1).get_observation()


def test_camera_without_rendering_backend_names_the_observable(monkeypatch):
    def no_backend(*args, **kwargs):
        raise mujoco.FatalError("an OpenGL platform library has not been loaded")

    monkeypatch.setattr(mujoco, "Renderer", no_backend)
    robot = _Robot()
    extra = dict(eye=observable.MJCFCamera(robot.camera, height=16, width=16, enabled=True))
    with pytest.raises(RuntimeError, match=r"(?s)observable 'eye'.*MUJOCO_GL.*osmesa"):
        composer.Environment(_RobotTask(robot, extra=extra), random_state=0)


_CAMERA_SCRIPT = textwrap.dedent("""
    import sys
    import mujoco
    import numpy as np
    sys.path.insert(0, sys.argv[1])
    try:
        mujoco.Renderer(mujoco.MjModel.from_xml_string("<mujoco/>"), 8, 8).close()
    except Exception:
        sys.exit(3)
    from composer_tasks import composer
    from composer_tasks.composer.observation import observable
    from tests import test_observables as t
    robot = t._Robot()
    extra = dict(
        rgb=observable.MJCFCamera(robot.camera, height=24, width=32, enabled=True),
        depth=observable.MJCFCamera(robot.camera, height=24, width=32, depth=True,
                                    enabled=True, update_interval=2, buffer_size=2),
        segmentation=observable.MJCFCamera(robot.camera, height=24, width=32,
                                           segmentation=True, enabled=True),
        named=observable.MujocoCamera("robot/eye", height=24, width=32))
    extra["named"].enabled = True
    env = composer.Environment(t._RobotTask(robot, extra=extra), random_state=0,
                               strip_singleton_obs_buffer_dim=True)
    env.reset()
    observation = env.step(np.array([1.0])).observation
    spec = env.observation_spec()
    for name, value in observation.items():
        assert value.shape == spec[name].shape and value.dtype == spec[name].dtype, name
    assert observation["rgb"].shape == (24, 32, 3) and observation["rgb"].dtype == np.uint8
    assert observation["rgb"].std() > 0
    # MJCFCamera's depth has a channel axis of 1, as dm_control's.
    assert observation["depth"].shape == (2, 24, 32, 1)
    assert observation["depth"].dtype == np.float32
    assert observation["segmentation"].shape == (24, 32, 2)
    assert observation["segmentation"].dtype == np.int32
    assert (observation["segmentation"][..., 0] >= 0).any()
    assert observation["named"].shape == (24, 32, 3) and observation["named"].dtype == np.uint8
    print("camera ok")
    """)


def test_camera_renders_pixels():
    repository = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    outcomes = {}
    for backend in ("egl", "osmesa"):
        environment = dict(os.environ, MUJOCO_GL=backend, PYOPENGL_PLATFORM=backend)
        result = subprocess.run(
            [sys.executable, "-c", _CAMERA_SCRIPT, repository],
            env=environment,
            capture_output=True,
            text=True,
            timeout=120,
        )
        if result.returncode == 0:
            assert "camera ok" in result.stdout
            return
        outcomes[backend] = result
    if all(result.returncode == 3 for result in outcomes.values()):
        pytest.skip("no OpenGL backend (MUJOCO_GL=egl or osmesa) works on this machine")
    failure = next(result for result in outcomes.values() if result.returncode != 3)
    pytest.fail(failure.stderr)


def test_mujoco_camera_takes_dm_controls_arguments():
    camera = observable.MujocoCamera("robot/eye")
    assert (camera.height, camera.width) == (240, 320)
    # None: the updater's defaults (1, 0), as dm_control.
    assert (camera.buffer_size, camera.delay, camera.update_interval) == (None, None, 1)
    depth = observable.MujocoCamera("robot/eye", 24, 32, buffer_size=2, delay=1, depth=True)
    assert (depth.height, depth.width, depth.buffer_size, depth.delay) == (24, 32, 2, 1)
    with pytest.raises(TypeError, match="camera_name must be a str"):
        observable.MujocoCamera(3)
