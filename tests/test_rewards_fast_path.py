"""`rewards.tolerance`'s fast path for float64 arrays with scalar arguments (one plan
per argument set, operations written over one new array) gives the bits of the
general array path and of the scalar path, entry by entry, on random inputs with NaN,
infinities, signed zeros, subnormals, the bounds and the margins exactly."""

import itertools
import math

import numpy as np
import pytest

from composer_tasks import rewards

_BOUNDS = [
    (0.0, 0.0),
    (-0.0, -0.0),
    (0.3, 0.3),
    (-1.5, -1.5),
    (0.5, math.inf),
    (-math.inf, -0.25),
    (-math.inf, math.inf),
    (-0.25, 0.25),
    (-0.0, 2.0),
    (1, 3),  # Python ints, as rewards write them.
]
_MARGINS = [0.0, 0.2, 1, 5.0, 1e-300]


def _values_at_margin(sigmoid):
    zero_allowed = sigmoid in ("cosine", "linear", "quadratic")
    return [0.1, 0.5, 0.999] + ([0.0] if zero_allowed else [])


def _draw(random_state, bounds, margin, size):
    """Random entries, a fifth of them at the edges of every branch."""
    lower, upper = (float(bound) for bound in bounds)
    scale = random_state.choice([1e-3, 0.5, 2.0, 50.0], size=size)
    values = random_state.standard_normal(size) * scale
    finite = [bound for bound in (lower, upper) if math.isfinite(bound)]
    edges = [math.nan, math.inf, -math.inf, 0.0, -0.0, 5e-324, -5e-324, 1e300, -1e300]
    for bound in finite:
        edges += [bound, bound - margin, bound + margin, np.nextafter(bound, math.inf)]
    special = random_state.uniform(size=size) < 0.25
    values[special] = random_state.choice(edges, size=int(special.sum()))
    return values


def _cases():
    for sigmoid in rewards.SIGMOIDS:
        for bounds, margin, value_at_margin in itertools.product(
            _BOUNDS, _MARGINS, _values_at_margin(sigmoid)
        ):
            yield sigmoid, bounds, margin, value_at_margin


@pytest.mark.parametrize("sigmoid", rewards.SIGMOIDS)
def test_fast_path_equals_the_general_and_scalar_paths(sigmoid):
    random_state = np.random.RandomState(len(sigmoid))
    for case_sigmoid, bounds, margin, value_at_margin in _cases():
        if case_sigmoid != sigmoid:
            continue
        kwargs = dict(bounds=bounds, margin=margin, sigmoid=sigmoid)
        kwargs["value_at_margin"] = value_at_margin
        checked = rewards._check_arguments(bounds, margin, sigmoid, value_at_margin)
        for size in (6, 64):
            x = _draw(random_state, bounds, margin, size)
            with np.errstate(all="ignore"):
                fast = rewards.tolerance(x, **kwargs)
                general = rewards._array_tolerance(np, x, *checked)
                alone = [rewards.tolerance(float(entry), **kwargs) for entry in x]
            assert rewards._ARRAY_PLANS[(bounds, margin, sigmoid, value_at_margin)] is not None
            assert type(fast) is np.ndarray and fast.dtype == np.float64
            assert fast.tobytes() == general.tobytes(), kwargs
            assert fast.tobytes() == np.array(alone).tobytes(), kwargs


def test_fast_path_keeps_shape_and_layout_and_its_operand():
    random_state = np.random.RandomState(0)
    block = _draw(random_state, (0.0, 0.0), 1.0, 8 * 9).reshape(8, 9)
    for x in (block, block.T, block[:, 2], block[::2, 1:]):
        kept = x.copy()
        with np.errstate(all="ignore"):
            fast = rewards.tolerance(x, margin=0.5, sigmoid="long_tail")
            general = rewards._array_tolerance(
                np, x, *rewards._check_arguments((0.0, 0.0), 0.5, "long_tail", 0.1)
            )
        np.testing.assert_array_equal(x, kept)
        assert not np.shares_memory(fast, x)
        assert fast.shape == x.shape
        assert fast.strides == general.strides
        assert fast.tobytes() == general.tobytes()


def test_each_call_returns_a_new_array():
    x = np.linspace(-3.0, 3.0, 10)
    first = rewards.tolerance(x, bounds=(-1.0, 1.0), margin=1.0)
    kept = first.copy()
    second = rewards.tolerance(x, bounds=(-1.0, 1.0), margin=1.0)
    assert not np.shares_memory(first, second)
    np.testing.assert_array_equal(first, kept)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(bounds=(1.0, 0.0)), "Lower bound must be <= upper bound"),
        (dict(margin=-1.0), "`margin` must be non-negative"),
        (dict(margin=1.0, sigmoid="nope"), "Unknown sigmoid type 'nope'"),
        (dict(margin=1.0, value_at_margin=1.0), "strictly between 0 and 1"),
        (dict(bounds="ab"), "bounds must hold real numbers"),
    ],
)
def test_arrays_get_the_same_errors(kwargs, message):
    x = np.zeros(16)
    for _ in range(2):  # Nothing is kept from a refused call.
        with pytest.raises(ValueError, match=message):
            rewards.tolerance(x, **kwargs)


def test_other_arrays_take_the_general_path():
    x = np.linspace(-2.0, 2.0, 12)
    bounds = (np.full(12, -0.5), np.full(12, 0.5))
    expected = rewards._array_tolerance(
        np, x, *rewards._check_arguments(bounds, 1.0, "gaussian", 0.1)
    )
    # Array bounds (unhashable), big-endian and float32 entries.
    assert rewards.tolerance(x, bounds=bounds, margin=1.0).tobytes() == expected.tobytes()
    big_endian = rewards.tolerance(x.astype(">f8"), bounds=(-0.5, 0.5), margin=1.0)
    assert big_endian.tobytes() == expected.tobytes()
    single = rewards.tolerance(x.astype(np.float32), bounds=(-0.5, 0.5), margin=1.0)
    assert single.dtype == np.float64
