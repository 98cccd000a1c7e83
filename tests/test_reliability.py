"""Regression tests of issue 14: divergence in batches, snapshots that miss solver
state, restores without a reset, vector reseeding, aliased observations, warnings
that pass silently, and the rough edges of seeds and adapters."""

import logging
import pickle

import dm_env
import numpy as np
import pytest

from composer_tasks import composer
from composer_tasks.batch import BatchEnvironment, copy_seed
from composer_tasks.composer.variation import deterministic
from composer_tasks.composer.variation import distributions
from composer_tasks.physics import PhysicsError
from composer_tasks.wrappers.gymnasium import GymnasiumEnv, GymnasiumVectorEnv
from suites import cartpole
from suites import locomotion
from suites import suite

from core_fixtures import RandomHeightTask

# A gear so large that the cart's first acceleration is not finite (issue 14, item 1).
_HUGE_GEAR = {
    ("actuator", "slide", "gear"): deterministic.Constant(np.array([1e13, 0, 0, 0, 0, 0]))
}


def _diverging_single(seed, raise_on_error=True):
    env = suite.load(
        "cartpole",
        "balance",
        task_kwargs={"random": seed},
        environment_kwargs={"raise_exception_on_physics_error": raise_on_error},
    )
    env.physics.model.actuator("slide").gear[0] = 1e13
    return env


# 1. Batch divergence behaves as the single environment, per copy.


@pytest.mark.parametrize("num_envs", [1, 2])
def test_batch_divergence_in_the_first_step_raises_with_mujocos_text(num_envs):
    batch = suite.load_batch(
        "cartpole", "balance", num_envs, num_threads=1, seed=0, model_variations=_HUGE_GEAR
    )
    assert batch.vectorized
    batch.reset()
    single = _diverging_single(copy_seed(0, 0))
    single.reset()
    with pytest.raises(PhysicsError) as single_error:
        single.step(np.ones(1))
    with pytest.raises(PhysicsError) as batch_error:
        batch.step(np.ones((num_envs, 1)))
    assert "QACC" in str(single_error.value)
    assert str(batch_error.value) == f"copy 0: {single_error.value}"


def test_batch_divergence_without_raising_ends_the_copys_episode_and_logs(caplog):
    batch = suite.load_batch(
        "cartpole",
        "balance",
        2,
        num_threads=1,
        seed=0,
        environment_kwargs={"raise_exception_on_physics_error": False},
    )
    singles = [
        suite.load(
            "cartpole",
            "balance",
            task_kwargs={"random": copy_seed(0, i)},
            environment_kwargs={"raise_exception_on_physics_error": False},
        )
        for i in range(2)
    ]
    assert batch.vectorized
    first = batch.reset()
    for env in singles:
        env.reset()
    # Copy 1 diverges at its first step, in the batch and alone.
    with batch.copy_physics(1) as physics:
        physics.model.actuator("slide").gear[0] = 1e13
    singles[1].physics.model.actuator("slide").gear[0] = 1e13
    with caplog.at_level(logging.WARNING):
        batched = batch.step(np.ones((2, 1)))
    alone = [env.step(np.ones(1)) for env in singles]
    assert batched.step_type.tolist() == [dm_env.StepType.MID, dm_env.StepType.LAST]
    for index, timestep in enumerate(alone):
        assert batched.step_type[index] == timestep.step_type
        assert batched.reward[index] == timestep.reward
        assert batched.discount[index] == timestep.discount
        for name, value in timestep.observation.items():
            np.testing.assert_array_equal(batched.observation[name][index], value)
    np.testing.assert_array_equal(
        batched.observation["position"][1], first.observation["position"][1]
    )
    assert any("copy 1: physics diverged" in record.getMessage() for record in caplog.records)
    # The next step resets the copy that diverged.
    with batch.copy_physics(1) as physics:
        physics.model.actuator("slide").gear[0] = 10.0
    assert batch.step(np.ones((2, 1))).step_type.tolist() == [
        dm_env.StepType.MID,
        dm_env.StepType.FIRST,
    ]


def test_negative_mass_variations_are_refused():
    batch = suite.load_batch(
        "cartpole",
        "balance",
        2,
        seed=0,
        model_variations={("body", "pole_1", "mass"): deterministic.Constant(-1.0)},
    )
    with pytest.raises(ValueError, match="negative value .*mass"):
        batch.reset()


def test_negative_mass_set_directly_raises_in_the_batch_as_alone():
    single = suite.load("cartpole", "balance", task_kwargs={"random": 0})
    single.physics.model.body("pole_1").mass[0] = -1.0
    with pytest.raises(PhysicsError, match="Inertia matrix"):
        single.reset()
    batch = suite.load_batch("cartpole", "balance", 2, seed=0)
    with batch.copy_physics(0) as physics:
        physics.model.body("pole_1").mass[0] = -1.0
    with pytest.raises(PhysicsError, match="Inertia matrix"):
        batch.reset()


# 2. Snapshots hold the solver's warm start: resumes are bit-identical on contacts.


@pytest.mark.parametrize(
    "domain, task", [("walker", "walk"), ("cheetah", "run"), ("hopper", "hop")]
)
def test_snapshot_restores_into_a_fresh_environment_bit_for_bit_with_contacts(domain, task):
    env = suite.load(domain, task, task_kwargs={"random": 3})
    spec = env.action_spec()
    actions = np.random.RandomState(0).uniform(spec.minimum, spec.maximum, size=(80,) + spec.shape)
    env.reset()
    for action in actions[:40]:
        env.step(action)
    snapshot = pickle.loads(pickle.dumps(env.snapshot()))
    expected = [env.step(action) for action in actions[40:]]
    fresh = suite.load(domain, task, task_kwargs={"random": 99})
    fresh.restore(snapshot)
    for action, want in zip(actions[40:], expected):
        got = fresh.step(action)
        assert got.step_type == want.step_type and got.reward == want.reward
        for name in want.observation:
            np.testing.assert_array_equal(
                got.observation[name], want.observation[name], err_msg=name
            )


# 3. Locomotion tasks restored without a reset step on.


def test_walker_run_gaps_restores_into_a_fresh_environment_and_steps():
    env = locomotion.load("walker_run_gaps", seed=0)
    env.reset()
    spec = env.action_spec()
    for _ in range(3):
        env.step(np.zeros(spec.shape))
    snapshot = env.snapshot()
    want = env.step(np.zeros(spec.shape))
    fresh = locomotion.load("walker_run_gaps", seed=1)
    fresh.restore(snapshot)
    got = fresh.step(np.zeros(spec.shape))
    assert got.reward == want.reward and got.step_type == want.step_type


# 5. The same vector reset seed gives the same everything.


def test_vector_reset_seed_repeats_model_variations():
    variations = {("body", "creature/torso", "mass"): distributions.Uniform(0.5, 2.0)}
    vector = GymnasiumVectorEnv(
        BatchEnvironment(RandomHeightTask, 3, seed=0, model_variations=variations)
    )
    first, _ = vector.reset(seed=7)
    masses = vector.batch_env.model_values("body", "creature/torso", "mass")
    vector.reset(seed=8)
    assert not np.array_equal(
        masses, vector.batch_env.model_values("body", "creature/torso", "mass")
    )
    again, _ = vector.reset(seed=7)
    np.testing.assert_array_equal(
        masses, vector.batch_env.model_values("body", "creature/torso", "mass")
    )
    for name in first:
        np.testing.assert_array_equal(first[name], again[name])
    # And equals a batch built with that seed.
    built = BatchEnvironment(RandomHeightTask, 3, seed=7, model_variations=variations)
    built.reset()
    np.testing.assert_array_equal(masses, built.model_values("body", "creature/torso", "mass"))


def test_vector_reset_validates_every_seed_before_changing_anything():
    batch = BatchEnvironment(RandomHeightTask, 3, seed=0)
    vector = GymnasiumVectorEnv(batch)
    states = [env.random_state.get_state()[1].copy() for env in batch.envs]
    with pytest.raises(ValueError, match=r"seed\[2\]"):
        vector.reset(seed=[1, 2, 2**32])
    for env, state in zip(batch.envs, states):
        np.testing.assert_array_equal(env.random_state.get_state()[1], state)
    observation, _ = vector.reset(seed=2**32 - 2)
    assert observation["height"].shape == (3, 1, 1)
    with pytest.raises(TypeError, match="seed"):
        batch.reseed(1.5)


# 6. Returned batch observations never alias the batch's state.


def test_mutating_returned_observations_changes_nothing_later(caplog):
    batch = suite.load_batch(
        "cartpole",
        "balance",
        2,
        seed=0,
        environment_kwargs={"raise_exception_on_physics_error": False},
    )
    batch.reset()
    returned = batch.step(np.zeros((2, 1)))
    kept = {name: value.copy() for name, value in returned.observation.items()}
    snapshot = batch.snapshot()
    for value in returned.observation.values():
        value[...] = 12345.0
    returned.observation.pop("velocity")
    assert not any(
        np.shares_memory(value, snapshot["last_observation"][name])
        for name, value in returned.observation.items()
    )
    with batch.copy_physics(0) as physics:
        physics.model.actuator("slide").gear[0] = 1e13
    diverged = batch.step(np.ones((2, 1)))
    assert diverged.step_type[0] == dm_env.StepType.LAST
    for name, value in kept.items():
        np.testing.assert_array_equal(diverged.observation[name][0], value[0], err_msg=name)
    np.testing.assert_array_equal(snapshot["last_observation"]["position"], kept["position"])


# 7. MuJoCo's warnings during a step (here: a bad control it zeroes) are errors.


def _unlimited_task():
    task = RandomHeightTask()
    task.creature.legs[0].motor.ctrllimited = 0
    return task


def test_huge_control_on_an_unlimited_actuator_is_refused_by_the_spec():
    # An actuator without a control range is bounded by MuJoCo's mjMAXVAL (1e10), as in
    # dm_control: a control MuJoCo would zero with a warning is refused before the step,
    # naming the actuator, by the single environment and the batch alike.
    env = composer.Environment(_unlimited_task(), random_state=0)
    env.reset()
    with pytest.raises(ValueError, match=r"outside the bounds.*=20000000000.0 not in"):
        env.step(np.array([2e10, 0.0]))
    batch = BatchEnvironment(_unlimited_task, 2, seed=0)
    batch.reset()
    with pytest.raises(ValueError, match="copy 1 are outside the bounds"):
        batch.step(np.array([[0.0, 0.0], [2e10, 0.0]]))


def _unlimited_cartpole():
    task = cartpole.Balance(swing_up=False, sparse=False)
    task.root_entity.spec.actuators[0].ctrllimited = 0
    return task


def test_huge_control_in_a_vectorised_batch_is_refused():
    batch = BatchEnvironment(_unlimited_cartpole, 2, seed=0)
    assert batch.vectorized and batch.action_spec().maximum[0] == 1e10
    batch.reset()
    with pytest.raises(ValueError, match="copy 0 are outside the bounds"):
        batch.step(np.array([[2e10], [0.0]]))


# Rough edges: seeds, sizes, adapters, late validation.


@pytest.mark.parametrize(
    "seed, error, message",
    [
        (1.5, TypeError, "seed must be an int"),
        (True, TypeError, "seed must be an int"),
        (-1, ValueError, "seed must be an int .* got -1"),
    ],
)
def test_batch_seeds_are_checked_like_the_single_environments(seed, error, message):
    with pytest.raises(error, match=message):
        BatchEnvironment(RandomHeightTask, 2, seed=seed)
    with pytest.raises(error, match=message):
        suite.load_batch("cartpole", "balance", 2, seed=seed)


def test_load_batch_refuses_a_random_state_as_the_batch_seed():
    with pytest.raises(TypeError, match=r"task_kwargs\['random'\] of load_batch is the batch seed"):
        suite.load_batch("cartpole", "balance", 2, task_kwargs={"random": np.random.RandomState(0)})


def test_a_billion_copies_are_refused_before_allocating():
    with pytest.raises(ValueError, match="num_envs=1000000000 copies need at least"):
        suite.load_batch("cartpole", "balance", 10**9, seed=0)


def test_vector_env_stepped_before_reset_raises():
    vector = GymnasiumVectorEnv(BatchEnvironment(RandomHeightTask, 2, seed=0))
    with pytest.raises(RuntimeError, match="call reset"):
        vector.step(np.zeros((2, 2)))


@pytest.mark.parametrize("action", [np.array([True]), np.array(["0.5"])])
def test_adapters_reject_bool_and_string_actions(action):
    single = GymnasiumEnv(suite.load("cartpole", "balance", task_kwargs={"random": 0}))
    single.reset()
    with pytest.raises(ValueError, match="dtype"):
        single.step(action)
    vector = GymnasiumVectorEnv(suite.load_batch("cartpole", "balance", 2, seed=0))
    vector.reset()
    with pytest.raises(ValueError, match="dtype"):
        vector.step(np.stack([action, action]))


def test_adapters_refuse_the_other_kind_of_environment_at_construction():
    with pytest.raises(TypeError, match="GymnasiumVectorEnv"):
        GymnasiumEnv(BatchEnvironment(RandomHeightTask, 1, seed=0))
    with pytest.raises(TypeError, match="GymnasiumEnv"):
        GymnasiumVectorEnv(composer.Environment(RandomHeightTask(), random_state=0))


def test_unknown_model_variation_names_fail_at_construction():
    with pytest.raises(ValueError, match="body 'no_such_body'"):
        suite.load_batch(
            "cartpole",
            "balance",
            2,
            seed=0,
            model_variations={("body", "no_such_body", "mass"): deterministic.Constant(1.0)},
        )
    with pytest.raises(ValueError, match="attribute 'weight'"):
        suite.load_batch(
            "cartpole",
            "balance",
            2,
            seed=0,
            model_variations={("body", "pole_1", "weight"): deterministic.Constant(1.0)},
        )


def test_time_limit_must_be_a_number():
    with pytest.raises(TypeError, match="time_limit must be a real number of seconds"):
        composer.Environment(RandomHeightTask(), time_limit="10")


# One error path per public constructor argument.


def _task():
    return RandomHeightTask()


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        (dict(task="cartpole"), TypeError, "task must be a composer.Task"),
        (dict(time_limit="10"), TypeError, "time_limit must be a real number"),
        (dict(random_state=1.5), TypeError, "random_state 1.5 is not a seed"),
        (dict(random_state=-1), ValueError, "random_state must be an int"),
        (dict(check_spec_changes="always"), TypeError, "check_spec_changes must be a bool"),
        (dict(textures="yes"), TypeError, "textures must be a bool"),
    ],
)
def test_environment_constructor_errors(kwargs, error, message):
    kwargs = {"task": _task(), **kwargs}
    with pytest.raises(error, match=message):
        composer.Environment(**kwargs)


_MASS = {("body", "creature/torso", "mass"): distributions.Uniform(0.5, 2.0)}


@pytest.mark.parametrize(
    "args, kwargs, error, message",
    [
        ((42, 2), {}, TypeError, "task_or_factory"),
        ((RandomHeightTask(), 2), {}, ValueError, "serves one copy"),
        ((_task, 0), {}, ValueError, "num_envs must be an integer >= 1"),
        ((_task, 2.0), {}, ValueError, "num_envs must be an integer >= 1"),
        ((_task, 2), dict(num_threads=-1), ValueError, "num_threads must be an integer >= 0"),
        ((_task, 2), dict(seed="0"), TypeError, "seed must be an int"),
        ((_task, 2), dict(time_limit="10"), TypeError, "time_limit must be a real number"),
        ((_task, 2), dict(model_variations=[1]), TypeError, "model_variations must be a mapping"),
        (
            (_task, 2),
            dict(model_variations={("wing", "x", "mass"): 1.0}),
            ValueError,
            "model_variations keys",
        ),
        (
            (_task, 2),
            dict(model_variations={("body", "creature/torso", "mass"): 1.0}),
            TypeError,
            "must be a variation",
        ),
        ((_task, 2), dict(textures=1), TypeError, "textures must be a bool"),
        ((_task, 2), dict(no_such_argument=1), TypeError, "no_such_argument"),
    ],
)
def test_batch_constructor_errors(args, kwargs, error, message):
    with pytest.raises(error, match=message):
        BatchEnvironment(*args, **kwargs)


def test_batch_from_environments_errors():
    with pytest.raises(TypeError, match="environment_factory must be a callable"):
        BatchEnvironment.from_environments(3, 2)
    with pytest.raises(TypeError, match="copy 0 is a str"):
        BatchEnvironment.from_environments(lambda seed: "not an environment", 2)


@pytest.mark.parametrize(
    "args, kwargs, error, message",
    [
        (("no_such_domain", "balance"), {}, ValueError, "unknown domain"),
        (("cartpole", "no_such_task"), {}, ValueError, "unknown task"),
        (
            ("cartpole", "balance"),
            dict(task_kwargs=[("random", 0)]),
            TypeError,
            "task_kwargs must be a dict",
        ),
        (
            ("cartpole", "balance"),
            dict(task_kwargs={"no_such_argument": 1}),
            TypeError,
            "no_such_argument",
        ),
        (
            ("cartpole", "balance"),
            dict(environment_kwargs=1),
            TypeError,
            "environment_kwargs must be a dict",
        ),
        (
            ("cartpole", "balance"),
            dict(visualize_reward="yes"),
            ValueError,
            "visualize_reward must be a bool",
        ),
    ],
)
def test_suite_load_errors(args, kwargs, error, message):
    with pytest.raises(error, match=message):
        suite.load(*args, **kwargs)


@pytest.mark.parametrize(
    "args, kwargs, error, message",
    [
        (("no_such_domain", "balance", 2), {}, ValueError, "unknown domain"),
        (("cartpole", "no_such_task", 2), {}, ValueError, "unknown task"),
        (("cartpole", "balance", 0), {}, ValueError, "num_envs must be an integer >= 1"),
        (("cartpole", "balance", 2), dict(task_kwargs=3), TypeError, "task_kwargs must be a dict"),
        (
            ("cartpole", "balance", 2),
            dict(num_threads=-2),
            ValueError,
            "num_threads must be an integer >= 0",
        ),
        (
            ("cartpole", "balance", 2),
            dict(environment_kwargs="x"),
            TypeError,
            "environment_kwargs must be a dict",
        ),
        (
            ("cartpole", "balance", 2),
            dict(seed=1, task_kwargs={"random": 1}),
            ValueError,
            "not both",
        ),
        (
            ("cartpole", "balance", 2),
            dict(model_variations={("body", "cart", "bulk"): distributions.Uniform(1, 2)}),
            ValueError,
            "attribute 'bulk'",
        ),
    ],
)
def test_suite_load_batch_errors(args, kwargs, error, message):
    with pytest.raises(error, match=message):
        suite.load_batch(*args, **kwargs)


def test_gymnasium_adapter_constructor_errors():
    env = composer.Environment(_task(), random_state=0)
    with pytest.raises(TypeError, match="env must be a dm_env.Environment"):
        GymnasiumEnv("cartpole")
    with pytest.raises(TypeError, match="flatten_observations must be a bool"):
        GymnasiumEnv(env, flatten_observations="yes")
    with pytest.raises(ValueError, match="render_mode"):
        GymnasiumEnv(env, render_mode="human")
    with pytest.raises(TypeError, match="render_camera"):
        GymnasiumEnv(env, render_camera=1.5)
    with pytest.raises(ValueError, match="render_size"):
        GymnasiumEnv(env, render_size=(0, 10))
    batch = BatchEnvironment(_task, 2, seed=0)
    with pytest.raises(TypeError, match="batch_env must be"):
        GymnasiumVectorEnv("batch")
    with pytest.raises(TypeError, match="flatten_observations must be a bool"):
        GymnasiumVectorEnv(batch, flatten_observations=None)
