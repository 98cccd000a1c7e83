"""Vectorised suite tasks on JAX arrays: the same quantities, observations and outcome
that serve the CPU batch, evaluated on a physics whose data and model fields are
`jax.numpy` arrays (as a device batch shares them), agree with the CPU batch, stay
JAX arrays, and trace under `jax.jit`."""

import numpy as np
import pytest

from composer_tasks import array_namespace, rewards
from composer_tasks import batch as batch_module
from composer_tasks.composer import environment as environment_module
from suites import rllab, suite

jax = pytest.importorskip("jax")
jnp = jax.numpy

_NUM_ENVS = 3
_STEPS = 4
# (JAX's x64 mode, the fields' float dtype, tolerance). In float64 the differences
# are rounding only (JAX may sum or fuse in another order than NumPy); float32 is
# what a MuJoCo Warp batch's arrays hold.
_PRECISIONS = (
    (False, np.float32, dict(rtol=1e-4, atol=1e-4)),
    (True, np.float64, dict(rtol=1e-9, atol=1e-9)),
)


def _suite_batch(domain, task):
    return suite.load_batch(domain, task, _NUM_ENVS, seed=3)


def _rllab_batch(name):
    return rllab.load_batch(name, _NUM_ENVS, seed=3)


# The tasks whose batch takes the vectorised path (by the batch's own rule: the
# rllab variants with per-step hooks do not).
# The default run checks a few representative tasks (no contacts; contacts and a free
# joint; many bodies; sensors and sites; an rllab system); the rest run under -m slow
# (about 13 minutes on two loaded cores for all of them).
_DEFAULT_RUN = frozenset(
    {
        "cartpole-swingup",
        "cheetah-run",
        "humanoid-run",
        "finger-turn_easy",
        "rllab-cartpole_swing_up",
    }
)


def _param(load_batch, names, name):
    return pytest.param(
        load_batch, names, id=name, marks=() if name in _DEFAULT_RUN else pytest.mark.slow
    )


_TASKS = [
    _param(_suite_batch, (domain, task), f"{domain}-{task}")
    for domain, task in suite.ALL_TASKS
    if batch_module._vectorizable([suite.load(domain, task)])
] + [
    _param(_rllab_batch, (name,), f"rllab-{name}")
    for name in rllab.ALL
    if batch_module._vectorizable([rllab.load(name)])
]


class _Fields:
    """MjData or MjModel field names over per-copy (N, ...) values from `lookup`,
    converted by `convert`; records the array fields read."""

    def __init__(self, lookup, convert, read):
        self._lookup = lookup
        self._convert = convert
        self._read = read

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        value = self._lookup(name)
        if isinstance(value, np.ndarray):
            self._read.add(name)
            value = self._convert(value)
        setattr(self, name, value)
        return value


class _Traced:
    """The fields given (traced arrays), and the non-array attributes of `lookup`."""

    def __init__(self, fields, lookup):
        self._fields = fields
        self._lookup = lookup

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        if name in self._fields:
            return self._fields[name]
        value = self._lookup(name)
        if isinstance(value, np.ndarray):
            raise AttributeError(f"{name} was not read when evaluated eagerly")
        return value


def _batch_after_steps(load_batch, names):
    batch = load_batch(*names)
    assert batch.vectorized
    spec = batch.action_spec()
    actions = np.random.RandomState(0).uniform(
        spec.minimum, spec.maximum, size=(_STEPS, _NUM_ENVS) + spec.shape
    )
    timestep = batch.reset()
    for action in actions:
        timestep = batch.step(action)
    return batch, timestep


def _numpy_fields(batch):
    models = [batch.copy_model(i) for i in range(batch.num_envs)]

    def model_field(name):
        value = getattr(models[0], name)
        if isinstance(value, np.ndarray):
            return np.stack([np.array(getattr(model, name)) for model in models])
        return value

    def data_field(name):
        return np.array(batch.batch.bind(name))

    return model_field, data_field


def _evaluate(task, physics):
    observation = {
        name: observable.raw_callable(physics)
        for name, observable in task.observables.items()
        if observable.enabled
    }
    reward, terminated, discount = environment_module._task_outcome(task, physics)
    return observation, reward, terminated, discount


def _as_numpy(value):
    return np.broadcast_to(np.asarray(value, dtype=np.float64), (_NUM_ENVS,))


def _check(observation, reward, terminated, discount, timestep, tolerance, arrays=True):
    """The JAX results against the CPU batch's timestep after the same step."""
    for name, expected in timestep.observation.items():
        value = observation[name]
        if arrays:
            assert isinstance(value, jax.Array), f"{name} is a {type(value).__name__}"
        np.testing.assert_allclose(np.asarray(value), expected, err_msg=name, **tolerance)
    if arrays:
        assert isinstance(reward, jax.Array), f"reward is a {type(reward).__name__}"
        # Tasks that never end early or discount give Python constants; others arrays.
        for name, value in (("termination", terminated), ("discount", discount)):
            assert isinstance(value, (bool, float, jax.Array)), f"{name}: {type(value)}"
    np.testing.assert_allclose(_as_numpy(reward), timestep.reward, **tolerance)
    np.testing.assert_allclose(_as_numpy(discount), timestep.discount, **tolerance)
    np.testing.assert_array_equal(
        np.broadcast_to(np.asarray(terminated, dtype=bool), (_NUM_ENVS,)), timestep.last()
    )


@pytest.mark.parametrize("load_batch, names", _TASKS)
def test_task_functions_agree_on_jax_arrays_and_trace_under_jit(load_batch, names):
    batch, timestep = _batch_after_steps(load_batch, names)
    task = batch.envs[0].task
    template = batch.envs[0].physics
    model_field, data_field = _numpy_fields(batch)
    for x64, dtype, tolerance in _PRECISIONS:
        # JAX's caches of compiled primitives do not tell the two modes apart.
        jax.clear_caches()
        with jax.enable_x64(x64):

            def to_jax(value, dtype=dtype):
                if np.issubdtype(value.dtype, np.floating):
                    value = value.astype(dtype)
                return jnp.asarray(value)

            read_model, read_data = set(), set()
            physics = template.over_arrays(
                _Fields(model_field, to_jax, read_model), _Fields(data_field, to_jax, read_data)
            )
            _check(*_evaluate(task, physics), timestep, tolerance)

            # The same functions traced: fields in, observation and outcome out.
            data = {name: to_jax(data_field(name)) for name in sorted(read_data)}
            model = {name: to_jax(model_field(name)) for name in sorted(read_model)}

            def traced(data, model):
                view = template.over_arrays(_Traced(model, model_field), _Traced(data, data_field))
                return _evaluate(task, view)

            _check(*jax.jit(traced)(data, model), timestep, tolerance, arrays=False)


def test_namespace_tells_numpy_from_jax_and_names_other_types():
    assert array_namespace.namespace(np.zeros(2), 1.0, np.float64(2.0)) is np
    assert array_namespace.namespace() is np
    assert array_namespace.namespace(np.zeros(2), jnp.zeros(2)) is jnp
    assert jax.jit(lambda x: array_namespace.namespace(x) is jnp)(jnp.zeros(2))
    with pytest.raises(TypeError, match=r"argument 1 is a builtins\.list"):
        array_namespace.namespace(np.zeros(2), [1.0])


def test_array_helpers_give_one_result_on_either_namespace():
    a, b = np.arange(6.0).reshape(2, 3), -np.arange(6.0).reshape(2, 3)
    interleaved = array_namespace.interleave_last_axis(a, b)
    np.testing.assert_array_equal(interleaved[0], [0, -0, 1, -1, 2, -2])
    joined = array_namespace.concatenate_last_axis(a[:, 0], b)
    np.testing.assert_array_equal(joined, np.column_stack([a[:, 0], b]))
    for numpy_result, jax_result in (
        (interleaved, array_namespace.interleave_last_axis(jnp.asarray(a), jnp.asarray(b))),
        (joined, array_namespace.concatenate_last_axis(jnp.asarray(a[:, 0]), jnp.asarray(b))),
    ):
        assert isinstance(jax_result, jax.Array)
        np.testing.assert_array_equal(np.asarray(jax_result), numpy_result)
    with pytest.raises(ValueError, match="one shape"):
        array_namespace.interleave_last_axis(a, b[:, :2])


@pytest.mark.parametrize("sigmoid", rewards.SIGMOIDS)
def test_tolerance_on_jax_arrays_matches_numpy_and_traces(sigmoid):
    x = np.random.RandomState(0).uniform(-3.0, 4.0, size=(5, 4))
    x[0, 0] = np.nan
    value_at_margin = 0.0 if sigmoid in ("cosine", "linear", "quadratic") else 0.2
    per_copy = np.linspace(0.0, 1.0, 5)[:, None]
    cases = [
        ((0.0, 1.0), 0.0),
        ((0.0, 1.0), 1.5),
        ((1.0, 1.0), 2.0),
        ((0.0, np.inf), 1.0),
        ((-np.inf, 0.5), 1.0),
        ((-np.inf, np.inf), 1.0),
        ((np.zeros((5, 1)), per_copy + 0.5), per_copy),
    ]
    with jax.enable_x64(True):
        for bounds, margin in cases:
            expected = rewards.tolerance(x, bounds, margin, sigmoid, value_at_margin)
            as_jax = (tuple(jnp.asarray(bound) for bound in bounds), jnp.asarray(margin))
            for jax_bounds, jax_margin in (
                (bounds, margin),
                as_jax if not np.isscalar(margin) else (bounds, margin),
            ):

                def reward(y, jax_bounds=jax_bounds, jax_margin=jax_margin):
                    return rewards.tolerance(y, jax_bounds, jax_margin, sigmoid, value_at_margin)

                eager = reward(jnp.asarray(x))
                assert isinstance(eager, jax.Array)
                np.testing.assert_allclose(np.asarray(eager), expected, rtol=1e-12, atol=1e-12)
                traced = jax.jit(reward)(jnp.asarray(x))
                np.testing.assert_allclose(np.asarray(traced), expected, rtol=1e-12, atol=1e-12)
