"""Environment: the lifecycle order, determinism, recompilation, episode ends, bad input."""

import logging
import pickle

import dm_env
import mujoco
import numpy as np
import pytest

from composer_tasks import composer
from composer_tasks.composer.observation import observable
from composer_tasks.physics import PhysicsError

from core_fixtures import Leg, Plane, RandomHeightTask, Torso

_CALLBACKS = (
    "initialize_episode_mjcf",
    "after_compile",
    "initialize_episode",
    "before_step",
    "before_substep",
    "after_substep",
    "after_step",
)


def _tracing(cls, trace):
    """A subclass of `cls` whose callbacks append (name, callback) to `trace`."""

    def make(callback):
        def method(self, *args):
            trace.append((self.name if isinstance(self, composer.Entity) else "task", callback))
            return getattr(cls, callback)(self, *args)

        return method

    return type(f"Tracing{cls.__name__}", (cls,), {name: make(name) for name in _CALLBACKS})


def test_callback_order_one_reset_two_steps_three_substeps():
    trace = []
    TracingTorso = _tracing(Torso, trace)
    TracingLeg = _tracing(Leg, trace)

    class Creature(TracingTorso):
        def _build(self):
            spec = mujoco.MjSpec()
            spec.modelname = "creature"
            body = spec.worldbody.add_body(name="torso")
            body.add_geom(size=[0.1, 0.0, 0.0])
            self._spec = spec
            self.attach(TracingLeg(name="leg"))

    class Task(_tracing(composer.Task, trace)):
        def __init__(self):
            self.arena = Plane()
            self.arena.attach(Creature())
            self.set_timesteps(0.006, 0.002)
            self._obs = {"count": observable.Generic(self._observe, enabled=True)}

        def _observe(self, physics):
            trace.append(("task", "observation"))
            return physics.time()

        @property
        def root_entity(self):
            return self.arena

        @property
        def task_observables(self):
            return self._obs

        def get_reward(self, physics):
            trace.append(("task", "get_reward"))
            return 0.0

    env = composer.Environment(Task(), random_state=0)
    trace.clear()
    env.reset()
    env.step([0.0])
    env.step([0.0])
    step = [("task", "before_step"), ("creature", "before_step"), ("leg", "before_step")]
    substep = [
        ("task", "before_substep"),
        ("creature", "before_substep"),
        ("leg", "before_substep"),
        ("task", "after_substep"),
        ("creature", "after_substep"),
        ("leg", "after_substep"),
    ]
    end = [
        ("task", "after_step"),
        ("creature", "after_step"),
        ("leg", "after_step"),
        ("task", "observation"),
        ("task", "get_reward"),
    ]
    expected = [
        ("task", "initialize_episode_mjcf"),
        ("creature", "initialize_episode_mjcf"),
        ("leg", "initialize_episode_mjcf"),
        # As in dm_control, which compiles a new physics at every such reset.
        ("task", "after_compile"),
        ("creature", "after_compile"),
        ("leg", "after_compile"),
        # dm_control's observation updater is reset after compiling and after
        # initialize_episode, each evaluating an observable twice (for its spec, then
        # its reset value).
        ("task", "observation"),
        ("task", "observation"),
        ("task", "initialize_episode"),
        ("creature", "initialize_episode"),
        ("leg", "initialize_episode"),
        ("task", "observation"),
        ("task", "observation"),
    ] + (step + substep * 3 + end) * 2
    assert trace == expected


def _rollout(seed, episodes=3, steps=5):
    env = composer.Environment(RandomHeightTask(), time_limit=0.05, random_state=seed)
    actions = np.random.RandomState(123)
    record = []
    for _ in range(episodes):
        timestep = env.reset()
        record.append(dict(timestep.observation))
        for _ in range(steps):
            timestep = env.step(actions.uniform(-1, 1, size=2))
            record.append((timestep.reward, dict(timestep.observation)))
    return record


def _equal(a, b):
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)
    if isinstance(a, tuple):
        return all(_equal(x, y) for x, y in zip(a, b))
    return a == b


def test_same_seed_same_trajectory_bit_for_bit():
    first, second = _rollout(7), _rollout(7)
    assert all(_equal(a, b) for a, b in zip(first, second))
    other = _rollout(8)
    assert not all(_equal(a, b) for a, b in zip(first, other))


def test_specs_and_time_limit_truncation():
    env = composer.Environment(RandomHeightTask(), time_limit=0.05, random_state=0)
    spec = env.action_spec()
    assert spec.shape == (2,)
    np.testing.assert_array_equal(spec.minimum, [-1.0, -1.0])
    assert spec.name == "creature/leg0/hip\tcreature/leg1/hip"
    observation_spec = env.observation_spec()
    assert list(observation_spec) == ["height", "hips"]
    assert observation_spec["hips"].shape == (1, 2)
    assert env.reward_spec().shape == ()
    assert env.discount_spec().maximum == 1.0
    timestep = env.reset()
    assert timestep.first() and timestep.reward is None
    types = []
    while not timestep.last():
        timestep = env.step([0.0, 0.0])
        types.append(timestep.step_type)
    assert types == [dm_env.StepType.MID] * 4 + [dm_env.StepType.LAST]
    assert timestep.discount == 1.0
    # A step after LAST starts a new episode.
    assert env.step([0.0, 0.0]).first()


def test_strip_singleton_buffer_dim():
    env = composer.Environment(RandomHeightTask(), strip_singleton_obs_buffer_dim=True)
    assert env.observation_spec()["hips"].shape == (2,)
    assert env.reset().observation["height"].shape == (1,)


def test_observations_share_no_memory_with_physics():
    env = composer.Environment(RandomHeightTask(), random_state=0)
    observation = env.reset().observation
    for value in observation.values():
        assert not np.shares_memory(value, env.physics.data.qpos)
    before = observation["hips"].copy()
    env.step([1.0, 1.0])
    np.testing.assert_array_equal(observation["hips"], before)


class _Terminating(RandomHeightTask):
    def should_terminate_episode(self, physics):
        return physics.time() >= 0.02 - 1e-9


class _TerminatingWithDiscount(_Terminating):
    def get_discount(self, physics):
        return 0.5


# dm_control Composer's rule: a termination carries the task's get_discount, which is
# 1 unless the task defines it.
@pytest.mark.parametrize(
    "task_class, discount", [(_Terminating, 1.0), (_TerminatingWithDiscount, 0.5)]
)
def test_termination_uses_task_discount(task_class, discount):
    env = composer.Environment(task_class(), time_limit=1.0, random_state=0)
    env.reset()
    assert env.step([0.0, 0.0]).mid()
    last = env.step([0.0, 0.0])
    assert last.last() and last.discount == discount


@pytest.mark.parametrize(
    "action, error, message",
    [
        (np.zeros(3), ValueError, r"shape \(3,\).*'creature/leg0/hip\\tcreature/leg1/hip'"),
        # np.copyto's rule, as dm_control's set_control: a TypeError.
        (np.array(["a", "b"]), TypeError, "dtype <U1.*action spec"),
        (np.array([np.nan, 0.0]), ValueError, r"non-finite entries at \[0\].*action spec"),
        (np.array([0.0, 1.5]), ValueError, r"creature/leg1/hip=1.5 not in \[-1.0, 1.0\]"),
    ],
)
def test_bad_actions_name_the_spec(action, error, message):
    env = composer.Environment(RandomHeightTask(), random_state=0, strict_action_bounds=True)
    env.reset()
    with pytest.raises(error, match=message):
        env.step(action)


def test_actions_broadcast_as_dm_control_set_control_broadcasts():
    # dm_control writes the action with np.copyto: a scalar or a length-1 array fills
    # every control, leading axes of length 1 drop, booleans become numbers.
    stepped = []
    for action in (0.25, [0.25], np.full((1, 2), 0.25), np.float32(0.25)):
        env = composer.Environment(RandomHeightTask(), random_state=0)
        env.reset()
        stepped.append(env.step(action).observation)
    env = composer.Environment(RandomHeightTask(), random_state=0)
    env.reset()
    expected = env.step(np.full(2, 0.25)).observation
    for observation in stepped:
        for key, value in expected.items():
            np.testing.assert_array_equal(observation[key], value)


def test_actions_outside_the_bounds_are_stepped_as_in_dm_control_unless_strict():
    # dm_control writes the control as given; MuJoCo limits a control-limited
    # actuator's control to its ctrlrange when it computes the force.
    env = composer.Environment(RandomHeightTask(), random_state=0)
    clamped = composer.Environment(RandomHeightTask(), random_state=0)
    env.reset()
    clamped.reset()
    timestep = env.step(np.array([0.0, 1.5]))
    expected = clamped.step(np.array([0.0, 1.0]))
    assert timestep.mid()
    np.testing.assert_array_equal(env.physics.data.ctrl, [0.0, 1.5])
    np.testing.assert_array_equal(env.physics.data.qpos, clamped.physics.data.qpos)
    for key, value in expected.observation.items():
        np.testing.assert_array_equal(timestep.observation[key], value)
    with pytest.raises(TypeError, match="strict_action_bounds"):
        composer.Environment(RandomHeightTask(), strict_action_bounds="yes")


@pytest.mark.parametrize(
    "value, unlimited", [(np.nan, False), (np.nan, True), (np.inf, True), (-2e10, True)]
)
def test_controls_mujoco_rejects_raise_an_invalid_action_error_or_end_the_episode(value, unlimited):
    action = np.array([0.0, value])
    task_factory = _unlimited_leg if unlimited else RandomHeightTask
    env = composer.Environment(task_factory(), random_state=0)
    env.reset()
    # dm_control raises PhysicsError for them (MuJoCo's bad-control warning); here they
    # are refused before the step, with an error that is both that and a ValueError.
    with pytest.raises(composer.InvalidActionError, match="creature/leg1/hip|at \\[1\\]") as error:
        env.step(action)
    assert isinstance(error.value, ValueError) and isinstance(error.value, PhysicsError)
    assert env.step(np.zeros(2)).mid()  # the refused action changed nothing
    lenient = composer.Environment(
        task_factory(), random_state=0, raise_exception_on_physics_error=False
    )
    lenient.reset()
    # As dm_control: written and stepped; MuJoCo's bad-control warning ends the episode.
    last = lenient.step(action)
    assert last.last() and last.reward == 0.0 and last.discount == 0.0
    assert lenient.physics.data.time > 0.0
    assert lenient.step(np.zeros(2)).first()


def _unlimited_leg():
    task = RandomHeightTask()
    task.creature.legs[1].motor.ctrllimited = 0
    return task


def test_an_infinite_control_of_a_control_limited_actuator_is_limited_as_in_dm_control():
    env = composer.Environment(RandomHeightTask(), random_state=0)
    limited = composer.Environment(RandomHeightTask(), random_state=0)
    env.reset()
    limited.reset()
    assert env.step(np.array([0.0, np.inf])).mid()
    limited.step(np.array([0.0, 1.0]))
    np.testing.assert_array_equal(env.physics.data.qpos, limited.physics.data.qpos)


class _Exploding(RandomHeightTask):
    def before_step(self, physics, action, random_state):
        super().before_step(physics, action, random_state)
        if physics.time() > 0.015:
            physics.data.qvel[:] = np.inf


def test_divergence_raises_or_ends_the_episode():
    env = composer.Environment(_Exploding(), random_state=0)
    env.reset()
    env.step([0.0, 0.0])
    env.step([0.0, 0.0])
    with pytest.raises(PhysicsError, match="diverged"):
        env.step([0.0, 0.0])
    quiet = composer.Environment(
        _Exploding(), random_state=0, raise_exception_on_physics_error=False
    )
    quiet.reset()
    quiet.step([0.0, 0.0])
    quiet.step([0.0, 0.0])
    timestep = quiet.step([0.0, 0.0])
    assert timestep.last() and timestep.discount == 0.0 and timestep.reward == 0.0
    assert quiet.step([0.0, 0.0]).first()


class _GrowingLegs(RandomHeightTask):
    """Changes the spec in initialize_episode_mjcf every other episode."""

    def __init__(self, announce=True):
        super().__init__()
        self.episode = 0
        self.announce = announce

    def initialize_episode_mjcf(self, random_state):
        self.episode += 1
        if self.episode % 2 == 0:
            geom = self.creature.legs[0].geom
            geom.size = [geom.size[0] * 1.5, 0.0, 0.0]
            if self.announce:
                composer.mark_spec_changed()


def test_recompiles_only_when_the_spec_changed_and_keeps_state():
    env = composer.Environment(_GrowingLegs(), random_state=0)
    env.reset()  # episode 1: no change
    model = env.physics.model
    env.step([0.0, 0.0])
    env.reset()  # episode 2: the leg grew
    assert env.physics.model is not model
    assert env.physics.bind(env.task.creature.legs[0].geom).size[0] == pytest.approx(0.045)
    grown = env.physics.model
    env.reset()  # episode 3: no change
    assert env.physics.model is grown


def test_unannounced_spec_edits_are_found_in_the_first_episodes_and_then_always(caplog):
    env = composer.Environment(_GrowingLegs(announce=False), random_state=0)
    env.reset()  # episode 1: no change
    model = env.physics.model
    with caplog.at_level(logging.WARNING):
        env.reset()  # episode 2: the leg grew in the spec, and nobody said so
    assert env.physics.model is not model
    assert env.physics.bind(env.task.creature.legs[0].geom).size[0] == pytest.approx(0.045)
    assert "without announcing it" in caplog.text and ".size" in caplog.text
    caplog.clear()
    for episode in range(3, 9):  # from now on every episode is compared, logged once
        model = env.physics.model
        env.reset()
        assert (env.physics.model is not model) == (episode % 2 == 0), episode
    assert "without announcing it" not in caplog.text


def test_check_spec_changes_true_compares_every_episode_and_false_never():
    checked = composer.Environment(
        _GrowingLegs(announce=False), random_state=0, check_spec_changes=True
    )
    quiet = composer.Environment(
        _GrowingLegs(announce=False), random_state=0, check_spec_changes=False
    )
    for episode in range(1, 7):
        checked_model, quiet_model = checked.physics.model, quiet.physics.model
        checked.reset()
        quiet.reset()
        assert (checked.physics.model is not checked_model) == (episode % 2 == 0), episode
        assert quiet.physics.model is quiet_model
    assert checked.physics.bind(checked.task.creature.legs[0].geom).size[0] == pytest.approx(
        0.03 * 1.5**3
    )


class _LateEdit(RandomHeightTask):
    """Edits a raw spec element in place only from episode `first_edit` on."""

    def __init__(self, first_edit):
        super().__init__()
        self.episode = 0
        self.first_edit = first_edit

    def initialize_episode_mjcf(self, random_state):
        self.episode += 1
        if self.episode >= self.first_edit:
            self.creature.legs[0].geom.size[0] += 0.01  # in place: no setter runs


def test_in_place_edits_are_found_and_the_check_stops_after_the_first_episodes():
    from composer_tasks.composer.environment import AUTO_CHECKED_RESETS

    found = composer.Environment(_LateEdit(first_edit=AUTO_CHECKED_RESETS), random_state=0)
    for _ in range(AUTO_CHECKED_RESETS):
        found.reset()
    assert found.physics.bind(found.task.creature.legs[0].geom).size[0] == pytest.approx(0.04)
    # An edit first made after the checked episodes is not seen (documented): the
    # check costs nothing once the first episodes showed that the callbacks announce.
    late = composer.Environment(_LateEdit(first_edit=AUTO_CHECKED_RESETS + 1), random_state=0)
    for _ in range(AUTO_CHECKED_RESETS + 1):
        late.reset()
    assert late.physics.bind(late.task.creature.legs[0].geom).size[0] == pytest.approx(0.03)
    assert late._spec_fingerprint is None


@pytest.mark.parametrize("recompile_mjcf_every_episode", [True, False])
def test_after_compile_sees_the_model_defaults_as_on_a_new_physics(recompile_mjcf_every_episode):
    # dm_control compiles a new physics at every reset that runs the MJCF callbacks,
    # so `after_compile` sees the model's initial state (time 0, qpos0), whether the
    # spec changed (recompiled here) or not (the physics kept here).
    seen = {}

    class Recording(_GrowingLegs):
        def after_compile(self, physics, random_state):
            seen["qpos"] = physics.data.qpos.copy()
            seen["time"] = physics.data.time

    env = composer.Environment(
        Recording(), random_state=0, recompile_mjcf_every_episode=recompile_mjcf_every_episode
    )
    env.reset()
    for _ in range(2):  # Episode 2 grows a leg (recompiled), episode 3 does not (kept).
        env.step([0.5, 0.5])
        env.step([0.5, 0.5])
        assert env.physics.data.time > 0
        seen.clear()
        env.reset()
        if not recompile_mjcf_every_episode:
            assert seen == {}  # The MJCF callbacks and after_compile ran at the first reset.
            continue
        assert seen["time"] == 0.0
        np.testing.assert_array_equal(seen["qpos"], env.physics.model.qpos0)


def test_untouched_substeps_run_as_one_mj_step_call(monkeypatch):
    env = composer.Environment(
        RandomHeightTask(control_timestep=0.02, physics_timestep=0.002), random_state=0
    )
    env.reset()
    calls = []
    original = env.physics.step
    monkeypatch.setattr(env.physics, "step", lambda nstep=1: (calls.append(nstep), original(nstep)))
    env.step([0.0, 0.0])
    assert calls == [10]


def test_control_timestep_must_be_a_multiple():
    task = RandomHeightTask()
    with pytest.raises(ValueError, match="integer multiple"):
        task.set_timesteps(0.005, 0.002)
    with pytest.raises(ValueError, match="positive"):
        task.set_timesteps(-0.01, 0.002)
    task.set_timesteps(0.03, 0.01)  # 0.03 / 0.01 is 2.9999999999999996 in floating point.
    assert task.physics_steps_per_control_step == 3


def test_constructor_errors():
    with pytest.raises(TypeError, match="composer.Task"):
        composer.Environment("task")
    with pytest.raises(TypeError, match="time_limit"):
        composer.Environment(RandomHeightTask(), time_limit="10")
    with pytest.raises(TypeError, match="random_state"):
        composer.Environment(RandomHeightTask(), random_state="seed")


def test_time_limits_of_zero_or_less_end_at_the_first_step_as_in_dm_control():
    for time_limit in (0, -1.0, -np.inf):
        env = composer.Environment(RandomHeightTask(), time_limit=time_limit, random_state=0)
        env.reset()
        assert env.step(np.zeros(2)).last()
    env = composer.Environment(RandomHeightTask(), time_limit=np.nan, random_state=0)
    env.reset()
    assert not any(env.step(np.zeros(2)).last() for _ in range(20))


def test_unbounded_actuators_still_reject_infinite_actions():
    class Free(RandomHeightTask):
        def __init__(self):
            super().__init__()
            for leg in self.creature.legs:
                leg.motor.ctrllimited = 0

    env = composer.Environment(Free(), random_state=0)
    # dm_control's bound of an actuator without a control range: mjMAXVAL (1e10).
    np.testing.assert_array_equal(env.action_spec().maximum, [1e10, 1e10])
    env.reset()
    env.step([100.0, -100.0])
    with pytest.raises(ValueError, match=r"beyond MuJoCo's mjMAXVAL.*creature/leg1/hip=inf"):
        env.step([0.0, np.inf])


def _continue(env, actions):
    records = []
    for action in actions:
        timestep = env.step(action)
        records.append((timestep.step_type, timestep.reward, dict(timestep.observation)))
    return records


def test_snapshot_and_restore_continue_exactly_across_episodes():
    import pickle

    env = composer.Environment(RandomHeightTask(), time_limit=0.08, random_state=3)
    actions = np.random.RandomState(0).uniform(-1, 1, size=(40, 2))
    env.reset()
    _continue(env, actions[:13])
    snapshot = pickle.loads(pickle.dumps(env.snapshot()))
    expected = _continue(env, actions[13:])
    other = composer.Environment(RandomHeightTask(), time_limit=0.08, random_state=99)
    other.restore(snapshot)
    resumed = _continue(other, actions[13:])
    assert all(_equal(a, b) for a, b in zip(expected, resumed))
    assert sum(step_type == dm_env.StepType.FIRST for step_type, _, _ in expected) >= 3


def test_snapshot_refuses_other_models():
    snapshot = composer.Environment(RandomHeightTask()).snapshot()

    class ThreeLegs(RandomHeightTask):
        def __init__(self):
            super().__init__()
            self.creature.attach(Leg(name="leg2"))

    with pytest.raises(ValueError, match="does not fit this model"):
        composer.Environment(ThreeLegs()).restore(snapshot)


def _noise():
    from composer_tasks.composer.variation import distributions, noises

    return noises.Additive(distributions.Normal(0.0, 0.1))


def _random_steps(low, high):
    from composer_tasks.composer.variation import distributions

    return distributions.UniformInteger(low, high)


# Observable options (of "height", a Generic, and "hips", an MJCFFeature) whose
# state lives in the updater between steps: buffers, values in flight, intervals
# and delays drawn ahead, and noise drawn from the environment's random state.
_OBSERVATION_OPTIONS = {
    "noise": ({"corruptor": _noise()}, {"corruptor": _noise()}),
    "buffers_and_fixed_delays": (
        {"buffer_size": 3, "delay": 7},
        {"buffer_size": 2, "update_interval": 3, "delay": 4},
    ),
    "random_intervals_and_delays": (
        {
            "buffer_size": 4,
            "update_interval": _random_steps(1, 4),
            "delay": _random_steps(0, 9),
            "corruptor": _noise(),
        },
        {
            "update_interval": _random_steps(2, 6),
            "aggregator": "mean",
            "buffer_size": 3,
            "corruptor": _noise(),
        },
    ),
    "interval_without_buffer": (
        {"update_interval": 7},
        {"update_interval": 3, "corruptor": _noise()},
    ),
}


def _configured_task(options):
    task = RandomHeightTask()
    for name, name_options in zip(("height", "hips"), options):
        task.task_observables[name].configure(**name_options)
    return task


@pytest.mark.parametrize(
    "padding, strip",
    [(composer.ObservationPadding.ZERO, False), (composer.ObservationPadding.INITIAL_VALUE, True)],
)
@pytest.mark.parametrize("kind", sorted(_OBSERVATION_OPTIONS))
def test_snapshots_hold_the_observation_buffers_and_the_noise_continues(kind, padding, strip):
    def make(seed):
        return composer.Environment(
            _configured_task(_OBSERVATION_OPTIONS[kind]),
            time_limit=0.1,
            random_state=seed,
            strip_singleton_obs_buffer_dim=strip,
            delayed_observation_padding=padding,
        )

    env = make(3)
    actions = list(np.random.RandomState(0).uniform(-1, 1, size=(45, 2)))
    # snapshots[k]: after construction (k = 0), after the reset (1), after k - 1 steps;
    # records[k]: the reset's (0) or the k-th step's TimeStep.
    snapshots = [pickle.loads(pickle.dumps(env.snapshot()))]
    records = _continue(env, actions[:1])
    snapshots.append(pickle.loads(pickle.dumps(env.snapshot())))
    for action in actions:
        records += _continue(env, [action])
        snapshots.append(pickle.loads(pickle.dumps(env.snapshot())))
    assert sum(step_type == dm_env.StepType.FIRST for step_type, _, _ in records) >= 3
    # Into a fresh environment with another seed: from right after construction,
    # right after a reset, mid-episode, and at an episode's last step.
    last = next(
        index
        for index, (step_type, _, _) in enumerate(records)
        if step_type == dm_env.StepType.LAST
    )
    for taken in (0, 1, 7, 12, last + 1, 31):
        fresh = make(99)
        fresh.restore(snapshots[taken])
        resumed = _continue(fresh, actions[max(taken - 1, 0) :] if taken else actions[:1] + actions)
        assert len(resumed) == len(records) - taken
        assert all(_equal(a, b) for a, b in zip(records[taken:], resumed)), (kind, taken)


def test_restoring_observations_of_other_observables_changes_nothing():
    env = composer.Environment(
        _configured_task(_OBSERVATION_OPTIONS["buffers_and_fixed_delays"]), random_state=3
    )
    env.reset()
    for _ in range(5):
        env.step(np.zeros(2))
    snapshot = env.snapshot()
    other_options = [
        (
            ({"buffer_size": 2, "delay": 7}, {}),
            "'height': the snapshot holds a buffer of 3, this observable has a buffer of 2",
        ),
        (
            ({"delay": 0}, {}),
            "'height': the snapshot holds a buffer of 3, this observable has no buffer",
        ),
        (
            (
                {"buffer_size": 3, "delay": _random_steps(0, 3)},
                {"buffer_size": 2, "update_interval": 3, "delay": 4},
            ),
            "'height': the snapshot's evaluations are planned periodic, this observable's drawn",
        ),
    ]
    for options, message in other_options:
        fresh = composer.Environment(_configured_task(options), random_state=4)
        before = fresh.physics.get_state()
        with pytest.raises(ValueError, match=message):
            fresh.restore(snapshot)
        np.testing.assert_array_equal(fresh.physics.get_state(), before)
    task = _configured_task(_OBSERVATION_OPTIONS["buffers_and_fixed_delays"])
    task.task_observables["hips"].enabled = False
    with pytest.raises(
        ValueError, match=r"observables \['height', 'hips'\] are not this updater's"
    ):
        composer.Environment(task).restore(snapshot)


def test_restoring_observations_of_another_shape_is_refused():
    env = composer.Environment(_configured_task(_OBSERVATION_OPTIONS["noise"]), random_state=3)
    env.reset()
    snapshot = env.snapshot()
    task = _configured_task(_OBSERVATION_OPTIONS["noise"])
    task.task_observables["height"] = observable.Generic(
        lambda physics: np.zeros(2), corruptor=_noise(), enabled=True
    )
    with pytest.raises(ValueError, match=r"observations \['height'\] do not fit"):
        composer.Environment(task).restore(snapshot)


def test_snapshots_between_substeps_are_refused():
    env = composer.Environment(
        _configured_task(_OBSERVATION_OPTIONS["buffers_and_fixed_delays"]), random_state=3
    )
    env.reset()
    steps = env.control_step(np.zeros(2))
    env.physics.step(next(steps))
    with pytest.raises(RuntimeError, match="in the middle of a control step"):
        env.snapshot()


def test_snapshots_of_earlier_versions_restore_plain_observables_only():
    env = composer.Environment(RandomHeightTask(), random_state=3)
    env.reset()
    env.step(np.zeros(2))
    snapshot = env.snapshot()
    del snapshot["observations"]
    expected = env.step(np.ones(2))
    fresh = composer.Environment(RandomHeightTask(), random_state=4)
    fresh.restore(snapshot)
    resumed = fresh.step(np.ones(2))
    assert _equal(dict(expected.observation), dict(resumed.observation))
    noisy = composer.Environment(_configured_task(_OBSERVATION_OPTIONS["noise"]), random_state=4)
    with pytest.raises(ValueError, match="holds no observation buffers"):
        noisy.restore(snapshot)


def _bounded_spec(minimum, maximum):
    minimum, maximum = np.asarray(minimum, float), np.asarray(maximum, float)
    return dm_env.specs.BoundedArray(minimum.shape, np.float64, minimum, maximum, "a\tb")


@pytest.mark.parametrize(
    "minimum, maximum",
    [
        ([-1.0, -1.0], [1.0, 1.0]),  # symmetric and uniform (the suite's)
        ([-2.0, 0.0], [3.0, 1.0]),  # asymmetric
        ([-np.inf, 0.0], [np.inf, 1.0]),  # partly unbounded
    ],
)
@pytest.mark.filterwarnings("error")
def test_the_fast_action_check_agrees_with_plain_comparisons(minimum, maximum):
    from composer_tasks.composer import environment as environment_module

    check = environment_module.action_bounds_check(_bounded_spec(minimum, maximum))
    minimum, maximum = np.array(minimum), np.array(maximum)
    tiny = np.nextafter(0.0, 1.0)
    candidates = [
        minimum,
        maximum,
        np.nextafter(minimum, -np.inf),
        np.nextafter(maximum, np.inf),
        np.zeros(2),
        np.full(2, tiny),
        np.full(2, -tiny),
        np.full(2, 1e300),
        np.array([np.nan, 0.5]),
        np.array([0.5, np.nan]),
        np.array([np.inf, 0.5]),
        np.array([-np.inf, 0.5]),
        np.array([0.5, np.inf]),
    ]
    for action in candidates:
        expected = bool(
            np.all(np.isfinite(action)) and np.all(minimum <= action) and np.all(action <= maximum)
        )
        assert bool(check(action)) == expected, action


def test_without_textures_the_model_is_small_and_the_physics_the_same():
    from suites import suite

    full = suite.load("walker", "walk", task_kwargs={"random": 3})
    bare = suite.load(
        "walker", "walk", task_kwargs={"random": 3}, environment_kwargs={"textures": False}
    )
    assert full.physics.model.tex_data.nbytes > 1_000_000
    assert bare.physics.model.tex_data.nbytes < 1_000
    assert full.physics.model.ntex == bare.physics.model.ntex
    actions = np.random.RandomState(0).uniform(-1.0, 1.0, size=(300, 6))
    for timesteps in zip(*[[env.reset()] + [env.step(a) for a in actions] for env in (full, bare)]):
        first, second = timesteps
        assert first.step_type == second.step_type and first.reward == second.reward
        for name, value in first.observation.items():
            np.testing.assert_array_equal(value, second.observation[name])
    # Snapshots leave textures out, so they move between the two kinds.
    bare.restore(pickle.loads(pickle.dumps(full.snapshot())))
    np.testing.assert_array_equal(bare.physics.data.qpos, full.physics.data.qpos)
    assert bare.physics.model.tex_data.nbytes < 1_000


def test_textures_must_be_a_bool():
    with pytest.raises(TypeError, match="textures must be a bool"):
        composer.Environment(RandomHeightTask(), textures="no")


def test_an_unannounced_edit_between_episodes_is_not_blamed_on_a_callback(caplog):
    # The edit is made by the user between two episodes, through a raw handle; the
    # task's initialize_episode_mjcf edits nothing (issue 29).
    class Quiet(RandomHeightTask):
        def initialize_episode_mjcf(self, random_state):
            del random_state

    env = composer.Environment(Quiet(), random_state=0)
    env.reset()
    env.task.creature.legs[0].geom.size[0] += 0.01  # in place: no setter runs
    with caplog.at_level(logging.WARNING):
        env.reset()
    assert "between episodes" in caplog.text and ".size" in caplog.text
    assert "An initialize_episode_mjcf callback edited" not in caplog.text
    assert env.physics.bind(env.task.creature.legs[0].geom).size[0] == pytest.approx(0.04)
