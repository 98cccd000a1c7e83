"""Tests for variation.distributions: moments, shapes, parameters, errors."""

import math

import numpy as np
import pytest

from composer_tasks.composer.variation import deterministic
from composer_tasks.composer.variation import distributions
from composer_tasks.composer.variation import noises

_N = 10000

# (distribution, exact mean, exact standard deviation).
_MOMENTS = [
    (lambda: distributions.Uniform(2.0, 5.0), 3.5, 3.0 / math.sqrt(12.0)),
    # Discrete uniform on {0..9}: variance (10^2 - 1) / 12.
    (lambda: distributions.UniformInteger(10), 4.5, math.sqrt(99.0 / 12.0)),
    (lambda: distributions.UniformInteger(-3, 1), -1.5, math.sqrt(15.0 / 12.0)),
    # E[x^2] = 54 / 3 = 18.
    (
        lambda: distributions.UniformChoice([1.0, 2.0, 7.0]),
        10.0 / 3.0,
        math.sqrt(18.0 - 100.0 / 9.0),
    ),
    (lambda: distributions.Normal(1.0, 2.0), 1.0, 2.0),
    # exp(mu + sigma^2 / 2), and sqrt(exp(sigma^2) - 1) times that.
    (
        lambda: distributions.LogNormal(0.1, 0.5),
        math.exp(0.225),
        math.sqrt(math.exp(0.25) - 1.0) * math.exp(0.225),
    ),
    (lambda: distributions.Exponential(2.0), 2.0, 2.0),
    (lambda: distributions.Bernoulli(0.3), 0.3, math.sqrt(0.21)),
]


@pytest.mark.parametrize("make, mean, std", _MOMENTS)
@pytest.mark.parametrize("generator", [np.random.RandomState, np.random.default_rng])
def test_moments_over_10000_samples(make, mean, std, generator):
    samples = make()(np.zeros(_N), random_state=generator(1))
    assert samples.shape == (_N,)
    # Standard error of the mean is std / 100; allow 4 of them.
    assert np.mean(samples) == pytest.approx(mean, abs=4.0 * std / 100.0)
    assert np.std(samples) == pytest.approx(std, rel=0.05)


@pytest.mark.parametrize("make, mean, std", _MOMENTS)
def test_same_seed_same_samples(make, mean, std):
    del mean, std
    first = make()(np.zeros(5), random_state=np.random.RandomState(3))
    second = make()(np.zeros(5), random_state=np.random.RandomState(3))
    other = make()(np.zeros(50), random_state=np.random.RandomState(4))
    np.testing.assert_array_equal(first, second)
    assert not np.all(other[:5] == first)


def test_uniform_integer_and_bernoulli_values():
    random_state = np.random.RandomState(0)
    integers = distributions.UniformInteger(2, 5, shape=1000)(random_state=random_state)
    assert set(np.unique(integers)) == {2, 3, 4}
    assert np.issubdtype(integers.dtype, np.integer)
    bits = distributions.Bernoulli(0.5, shape=1000)(random_state=random_state)
    assert set(np.unique(bits)) == {0, 1}


def test_uniform_point_on_sphere():
    points = distributions.UniformPointOnSphere(shape=(_N,))(random_state=np.random.RandomState(0))
    assert points.shape == (_N, 3)
    np.testing.assert_allclose(np.linalg.norm(points, axis=1), 1.0, rtol=1e-12)
    # Each coordinate of a uniform point on the sphere is uniform on [-1, 1]:
    # mean 0, variance 1/3.
    np.testing.assert_allclose(points.mean(axis=0), 0.0, atol=0.03)
    np.testing.assert_allclose(points.std(axis=0), math.sqrt(1.0 / 3.0), rtol=0.05)
    # As dm_control: a point per element of the initial value, unless single_sample.
    per_element = distributions.UniformPointOnSphere()(
        np.zeros(7), random_state=np.random.RandomState(0)
    )
    assert per_element.shape == (7, 3)
    single = distributions.UniformPointOnSphere(single_sample=True)(
        np.zeros(7), random_state=np.random.RandomState(0)
    )
    assert single.shape == (3,)


def test_sample_shape_rules():
    random_state = np.random.RandomState(0)
    normal = distributions.Normal()
    assert np.shape(normal(random_state=random_state)) == ()
    assert normal(np.zeros((2, 3)), random_state=random_state).shape == (2, 3)
    assert np.shape(normal(5.0, random_state=random_state)) == ()

    single = distributions.Normal(single_sample=True)
    assert np.shape(single(np.zeros((2, 3)), random_state=random_state)) == ()

    shaped = distributions.Normal(shape=(4,))
    assert shaped(np.zeros((2, 3)), random_state=random_state).shape == (4,)
    assert distributions.Uniform(shape=2)(random_state=random_state).shape == (2,)

    # Array parameters broadcast when there is no value to follow.
    low = np.array([0.0, 10.0, 20.0])
    sample = distributions.Uniform(low, low + 1.0)(random_state=random_state)
    assert sample.shape == (3,)
    assert np.all((sample >= low) & (sample < low + 1.0))


def test_uniform_choice_is_numpys_choice():
    # As dm_control: NumPy's choice, with the shape of the initial value.
    choice = distributions.UniformChoice([1.5, 2.5, 3.5])
    expected = np.random.RandomState(0).choice([1.5, 2.5, 3.5], size=(2, 2))
    np.testing.assert_array_equal(
        choice(np.zeros((2, 2)), random_state=np.random.RandomState(0)), expected
    )
    # Entries that are arrays are refused, as NumPy refuses them there.
    colours = [np.array([1.0, 0.0, 0.0, 1.0]), np.array([0.0, 1.0, 0.0, 1.0])]
    with pytest.raises(ValueError, match="1-dimensional"):
        distributions.UniformChoice(colours)(random_state=np.random.RandomState(0))


def test_uniform_choice_of_scalars_follows_the_value_shape():
    choice = distributions.UniformChoice(["a", "b", "c"])
    random_state = np.random.RandomState(0)
    assert choice(random_state=random_state) in ("a", "b", "c")
    assert choice(np.zeros(6), random_state=random_state).shape == (6,)


def test_parameters_may_be_variations():
    normal = distributions.Normal(loc=deterministic.Sequence([0.0, 10.0]), scale=0.0)
    random_state = np.random.RandomState(0)
    assert [normal(random_state=random_state) for _ in range(3)] == [0.0, 10.0, 0.0]

    # Parameters see the initial value: uniform within +-10% of it.
    relative = distributions.Uniform(noises.Multiplicative(0.9), noises.Multiplicative(1.1))
    initial = np.array([1.0, 10.0, 100.0])
    samples = np.array([relative(initial, random_state=random_state) for _ in range(200)])
    assert np.all((samples >= 0.9 * initial) & (samples <= 1.1 * initial))
    assert np.all(samples.std(axis=0) > 0.01 * initial)


def test_parameter_variations_are_checked_when_called():
    bad = distributions.Normal(scale=deterministic.Sequence([1.0, -1.0]))
    random_state = np.random.RandomState(0)
    bad(random_state=random_state)
    with pytest.raises(ValueError, match="scale"):
        bad(random_state=random_state)


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: distributions.Uniform(2.0, 1.0), "low must be <= high"),
        (lambda: distributions.Uniform([0.0, 2.0], [1.0, 1.0]), "low must be <= high"),
        (lambda: distributions.Uniform(0.0, np.inf), "high must be finite"),
        (lambda: distributions.Uniform("a", 1.0), "low"),
        (lambda: distributions.UniformInteger(3, 3), "low must be < high"),
        (lambda: distributions.UniformInteger(0), "low must be >= 1"),
        (lambda: distributions.UniformInteger(1.5, 3), "low must be an integer"),
        (lambda: distributions.UniformChoice([]), "choices"),
        (lambda: distributions.UniformChoice("abc"), "choices"),
        (lambda: distributions.UniformChoice(3), "choices"),
        (lambda: distributions.Normal(0.0, -1.0), "scale"),
        (lambda: distributions.Normal(np.nan, 1.0), "loc"),
        (lambda: distributions.LogNormal(0.0, -0.1), "sigma"),
        (lambda: distributions.Exponential(-2.0), "scale"),
        (lambda: distributions.Bernoulli(1.5), "prob"),
        (lambda: distributions.Bernoulli([0.5, -0.1]), "prob"),
        (lambda: distributions.Normal(single_sample=True, shape=(3,)), "single_sample"),
        (lambda: distributions.Normal(shape=(-1,)), "shape"),
        (lambda: distributions.Normal(shape="big"), "shape"),
        (lambda: distributions.UniformPointOnSphere(shape=(2, -3)), "shape"),
    ],
)
def test_bad_parameters_raise_value_error(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_sequence_needs_an_iterable():
    with pytest.raises(TypeError, match="values"):
        deterministic.Sequence(3)


def test_parameters_by_name_and_keyword_parameters_as_attributes():
    assert distributions.UniformInteger(2, 5).parameters == {"low": 2, "high": 5}
    assert distributions.Bernoulli(0.3).parameters == {"n": 1, "prob": 0.3}
    # As dm_control: keyword parameters read as attributes, positional ones do not.
    assert distributions.Uniform(0.5, 2.0).high == 2.0
    with pytest.raises(AttributeError, match="low"):
        distributions.UniformInteger(2, 5).low
