"""Tests for composer_tasks.rewards.tolerance against hand-computed values."""

import math

import numpy as np
import pytest

from composer_tasks.rewards import SIGMOIDS, tolerance

# Values at normalised distance 0.5 and 2 (i.e. half and twice the margin)
# for value_at_margin = 0.1, worked out by hand from each sigmoid's formula.
_HALF_AND_TWICE = {
    # exp(-d^2 * ln(1/v) ) = v ** (d^2).
    "gaussian": (0.1**0.25, 0.1**4),
    # 1 / cosh(d * arccosh(10)); cosh(a / 2) = sqrt((cosh(a) + 1) / 2) and
    # cosh(2a) = 2 cosh(a)^2 - 1.
    "hyperbolic": (math.sqrt(2.0 / 11.0), 1.0 / 199.0),
    # 1 / (9 d^2 + 1).
    "long_tail": (1.0 / 3.25, 1.0 / 37.0),
    # 1 / (9 d + 1).
    "reciprocal": (1.0 / 5.5, 1.0 / 19.0),
    # Scale arccos(-0.8) / pi, so cos(pi * 0.5 * scale) = sqrt((1 - 0.8) / 2);
    # past d * scale = 1 the value stays 0.
    "cosine": ((1.0 + math.sqrt(0.1)) / 2.0, 0.0),
    # 1 - 0.9 d, floored at 0.
    "linear": (0.55, 0.0),
    # 1 - 0.9 d^2, floored at 0.
    "quadratic": (0.775, 0.0),
    # 1 - tanh(d a)^2 with tanh(a) = sqrt(0.9); tanh(a / 2) =
    # tanh(a) / (1 + sqrt(1 - tanh(a)^2)); tanh(2a) = 2t / (1 + t^2).
    "tanh_squared": (
        1.0 - 0.9 / (1.0 + math.sqrt(0.1)) ** 2,
        1.0 - (2.0 * math.sqrt(0.9) / 1.9) ** 2,
    ),
}


def test_every_sigmoid_has_hand_computed_values():
    assert set(_HALF_AND_TWICE) == set(SIGMOIDS)


@pytest.mark.parametrize("sigmoid", SIGMOIDS)
def test_hand_computed_values_above_and_below(sigmoid):
    half, twice = _HALF_AND_TWICE[sigmoid]
    bounds = (-1.0, 2.0)
    margin = 4.0
    # Distance 2 = half the margin above the upper bound, and below the lower.
    assert tolerance(4.0, bounds, margin, sigmoid) == pytest.approx(half, abs=1e-12)
    assert tolerance(-3.0, bounds, margin, sigmoid) == pytest.approx(half, abs=1e-12)
    # Distance 8 = twice the margin.
    assert tolerance(10.0, bounds, margin, sigmoid) == pytest.approx(twice, abs=1e-12)
    assert tolerance(-9.0, bounds, margin, sigmoid) == pytest.approx(twice, abs=1e-12)


@pytest.mark.parametrize("sigmoid", SIGMOIDS)
@pytest.mark.parametrize("value_at_margin", [0.1, 0.5, 0.9])
def test_value_at_margin_is_hit_exactly(sigmoid, value_at_margin):
    for x in (3.5, -2.5):
        value = tolerance(
            x, bounds=(0.0, 1.0), margin=2.5, sigmoid=sigmoid, value_at_margin=value_at_margin
        )
        assert value == pytest.approx(value_at_margin, abs=1e-12)


@pytest.mark.parametrize("sigmoid", ["cosine", "linear", "quadratic"])
def test_compact_sigmoids_accept_zero_value_at_margin(sigmoid):
    values = tolerance(
        np.array([1.0, 1.5, 2.0, 5.0]),
        bounds=(0.0, 1.0),
        margin=1.0,
        sigmoid=sigmoid,
        value_at_margin=0.0,
    )
    half = {"cosine": 0.5, "linear": 0.5, "quadratic": 0.75}[sigmoid]
    np.testing.assert_allclose(values, [1.0, half, 0.0, 0.0], atol=1e-12)


def test_cosine_stays_at_zero_past_its_half_period():
    # value_at_margin = 0.5 gives scale 1/2: zero at 2 margins and beyond,
    # where an unclipped cosine would rise again (to 0.5 at 3 margins).
    values = tolerance(np.array([2.0, 3.0, 4.0]), margin=1.0, sigmoid="cosine", value_at_margin=0.5)
    np.testing.assert_allclose(values, [0.0, 0.0, 0.0], atol=1e-12)


@pytest.mark.parametrize("sigmoid", SIGMOIDS)
def test_one_inside_and_at_the_bounds(sigmoid):
    x = np.array([-1.0, -0.25, 0.0, 0.7, 2.0])
    np.testing.assert_array_equal(
        tolerance(x, bounds=(-1.0, 2.0), margin=0.5, sigmoid=sigmoid), np.ones(5)
    )


@pytest.mark.parametrize("sigmoid", SIGMOIDS)
def test_decreases_monotonically_outside(sigmoid):
    x = np.linspace(1.0, 6.0, 51)
    values = tolerance(x, bounds=(0.0, 1.0), margin=1.0, sigmoid=sigmoid)
    assert np.all(np.diff(values) <= 0.0)
    assert np.all((values >= 0.0) & (values <= 1.0))


def test_zero_margin_is_a_step():
    x = np.array([-0.5, 0.0, 0.5, 1.0, 1.0 + 1e-12, 3.0])
    np.testing.assert_array_equal(tolerance(x, bounds=(0.0, 1.0)), [0.0, 1.0, 1.0, 1.0, 0.0, 0.0])
    assert tolerance(0.0) == 1.0
    assert tolerance(1e-9) == 0.0


def test_infinite_bounds():
    assert tolerance(np.inf, bounds=(0.0, np.inf), margin=1.0) == 1.0
    assert tolerance(-np.inf, bounds=(0.0, np.inf), margin=1.0) == 0.0
    assert tolerance(1e300, bounds=(-np.inf, np.inf)) == 1.0
    assert (
        tolerance(-2.0, bounds=(0.0, np.inf), margin=2.0, sigmoid="linear", value_at_margin=0.0)
        == 0.0
    )


def test_scalar_in_float_out_array_in_array_out():
    assert type(tolerance(0.3, (0.0, 1.0))) is float
    assert type(tolerance(np.float32(0.3), (0.0, 1.0))) is float
    assert type(tolerance(3, (0, 1), margin=1)) is float

    x = np.array([[0.5, 3.5], [-0.5, 1.5]])
    values = tolerance(x, bounds=(0.0, 1.0), margin=1.0, sigmoid="linear")
    assert isinstance(values, np.ndarray)
    assert values.shape == (2, 2)
    assert values.dtype == np.float64
    np.testing.assert_allclose(values, [[1.0, 0.0], [0.55, 0.55]], atol=1e-12)

    listed = tolerance([0.0, 2.0], margin=1.0, sigmoid="reciprocal")
    np.testing.assert_allclose(listed, [1.0, 1.0 / 19.0], atol=1e-12)

    # A 0-d array is no scalar (np.isscalar), in dm_control as here: a 0-d array back.
    zero_dim = tolerance(np.array(0.0))
    assert type(zero_dim) is np.ndarray and zero_dim.shape == ()


def test_array_bounds_broadcast():
    values = tolerance(
        np.array([1.0, 1.0]),
        bounds=([0.0, 2.0], [1.0, 3.0]),
        margin=1.0,
        sigmoid="linear",
        value_at_margin=0.5,
    )
    np.testing.assert_allclose(values, [1.0, 0.5], atol=1e-12)


def test_nan_is_outside_the_bounds_as_in_dm_control():
    # dm_control: a NaN x is never in bounds and its distance is NaN; a zero margin
    # gives 0, a sigmoid its value at NaN (0 for those of compact support).
    assert tolerance(np.nan, (0.0, 1.0)) == 0.0
    values = tolerance(np.array([np.nan, 0.5]), (0.0, 1.0), margin=1.0)
    assert math.isnan(values[0]) and values[1] == 1.0
    for sigmoid in ("linear", "quadratic", "cosine"):
        assert tolerance(np.nan, (0.0, 1.0), margin=1.0, sigmoid=sigmoid) == 0.0
        np.testing.assert_array_equal(
            tolerance(np.full(20, np.nan), (0.0, 1.0), margin=1.0, sigmoid=sigmoid), 0.0
        )


def test_infinite_margins_and_zero_margins_follow_dm_control():
    x = np.array([-np.inf, -5.0, 0.5, 7.0, np.inf])
    np.testing.assert_array_equal(
        tolerance(x, (0.0, 1.0), margin=np.inf), [np.nan, 1.0, 1.0, 1.0, np.nan]
    )
    np.testing.assert_array_equal(
        tolerance(x, (0.0, 1.0), margin=np.inf, sigmoid="linear"), [0.0, 1.0, 1.0, 1.0, 0.0]
    )
    # A zero margin's output is a step: the sigmoid and value_at_margin go unread.
    assert tolerance(2.0, (0.0, 1.0), sigmoid="nope", value_at_margin=7.0) == 0.0


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(bounds=(1.0, 0.0)), "bounds"),
        (dict(bounds=([0.0, 2.0], [1.0, 1.0])), "bounds"),
        (dict(bounds=(0.0, np.nan)), "bounds"),
        (dict(bounds=(0.0,)), "bounds"),
        (dict(bounds=("low", "high")), "bounds"),
        (dict(margin=-0.1), "margin"),
        (dict(margin=np.nan), "margin"),
        (dict(margin=[1.0, -2.0]), "margin"),
        (dict(margin=[1.0, np.nan]), "margin"),
        (dict(margin="wide"), "margin"),
        (dict(margin=1.0, sigmoid="sigmoid"), "sigmoid"),
        (dict(margin=1.0, sigmoid=None), "sigmoid"),
        (dict(margin=1.0, value_at_margin=1.0), "value_at_margin"),
        (dict(margin=1.0, value_at_margin=-0.1), "value_at_margin"),
        (dict(margin=1.0, value_at_margin=0.0), "value_at_margin"),
        (dict(margin=1.0, sigmoid="tanh_squared", value_at_margin=0.0), "value_at_margin"),
        (dict(margin=1.0, sigmoid="linear", value_at_margin=1.0), "value_at_margin"),
        (dict(margin=1.0, sigmoid="quadratic", value_at_margin=-1e-9), "value_at_margin"),
        (dict(margin=1.0, value_at_margin="small"), "value_at_margin"),
    ],
)
def test_invalid_arguments_name_the_argument(kwargs, message):
    with pytest.raises(ValueError, match=message):
        tolerance(0.5, **kwargs)


@pytest.mark.parametrize("sigmoid", SIGMOIDS)
def test_scalar_and_array_inputs_agree(sigmoid):
    x = np.array([-np.inf, -3.0, -1.0, -0.2, 0.0, 0.4, 1.0, 1.3, 2.5, 40.0, np.inf])
    for margin in (0.0, 1.7):
        values = tolerance(x, bounds=(0.0, 1.0), margin=margin, sigmoid=sigmoid)
        scalars = [
            tolerance(float(xi), bounds=(0.0, 1.0), margin=margin, sigmoid=sigmoid) for xi in x
        ]
        np.testing.assert_array_equal(values, scalars)


@pytest.mark.parametrize("sigmoid", SIGMOIDS)
def test_scalar_and_array_paths_agree_bit_for_bit_on_many_inputs(sigmoid):
    # Batched rewards evaluate arrays where a single environment evaluates scalars.
    x = np.random.RandomState(0).uniform(-5.0, 6.0, size=20000)
    values = tolerance(x, bounds=(0.0, 1.0), margin=1.7, sigmoid=sigmoid, value_at_margin=0.2)
    scalars = np.array(
        [
            tolerance(
                float(xi), bounds=(0.0, 1.0), margin=1.7, sigmoid=sigmoid, value_at_margin=0.2
            )
            for xi in x
        ]
    )
    np.testing.assert_array_equal(values, scalars)


@pytest.mark.parametrize("sigmoid", SIGMOIDS)
def test_array_margins_match_per_entry_scalar_calls(sigmoid):
    # One margin per entry, as for batched copies whose targets differ in size.
    x = np.array([0.5, 1.5, 0.2, np.nan, 3.0])
    margins = np.array([1.0, 2.0, 0.0, 1.0, 0.0])
    lower, upper = np.zeros(5), np.array([0.3, 0.3, 0.3, 0.3, 2.0])
    value_at_margin = 0.2
    expected = [
        tolerance(
            float(xi),
            bounds=(float(lo), float(hi)),
            margin=float(m),
            sigmoid=sigmoid,
            value_at_margin=value_at_margin,
        )
        for xi, lo, hi, m in zip(x, lower, upper, margins)
    ]
    actual = tolerance(
        x, bounds=(lower, upper), margin=margins, sigmoid=sigmoid, value_at_margin=value_at_margin
    )
    np.testing.assert_array_equal(actual, expected)


@pytest.mark.parametrize("shape", [(1,), (1, 1), ()])
def test_one_element_arrays_keep_their_shape_and_the_scalar_value(shape):
    for x in (-2.0, 0.5, 3.7, np.nan):
        value = tolerance(np.full(shape, x), bounds=(0.0, 1.0), margin=1.5)
        # 0-d arrays too give arrays, as in dm_control.
        assert type(value) is np.ndarray and value.shape == shape
        np.testing.assert_array_equal(
            value, np.full(shape, tolerance(x, bounds=(0.0, 1.0), margin=1.5))
        )


def test_zero_dimensional_arrays_act_as_numbers():
    # Quantities indexed as quantity[..., i] (one copy or a batch) are 0-d arrays.
    expected = tolerance(0.5, bounds=(0.0, 0.2), margin=1.0)
    value = tolerance(np.array(0.5), bounds=(0.0, np.array(0.2)), margin=np.array(1.0))
    assert value.shape == () and float(value) == expected


@pytest.mark.parametrize("sigmoid", SIGMOIDS)
@pytest.mark.parametrize("shape", [(2,), (5,), (4, 4), (2, 1, 3)])
@pytest.mark.parametrize(
    "bounds", [(0.0, 1.0), (0.0, 0.0), (0.5, 0.5), (1.0, np.inf), (-np.inf, 0.3), (-np.inf, np.inf)]
)
def test_small_arrays_agree_bit_for_bit_with_large_ones(sigmoid, shape, bounds):
    # A single environment's rewards see a few actuators or joints at a time (the
    # entry-by-entry path); a batch sees (N, k) arrays (the array path).
    rng = np.random.RandomState(1)
    x = rng.uniform(-5.0, 6.0, size=(200,) + shape)
    x[0].flat[0] = np.nan
    x[1].flat[-1] = np.inf
    x[2].flat[0] = -np.inf
    kwargs = dict(bounds=bounds, margin=1.7, sigmoid=sigmoid, value_at_margin=0.2)
    large = tolerance(x, **kwargs)
    for index in range(len(x)):
        small = tolerance(x[index], **kwargs)
        assert isinstance(small, np.ndarray) and small.shape == shape and small.dtype == np.float64
        np.testing.assert_array_equal(small, large[index])
