"""Tests for the Variation base class: arithmetic, evaluate, random_state."""

import collections

import numpy as np
import pytest

from composer_tasks.composer import variation
from composer_tasks.composer.variation import deterministic
from composer_tasks.composer.variation import distributions
from composer_tasks.composer.variation import noises

Constant = deterministic.Constant


@pytest.mark.parametrize(
    "expression, expected",
    [
        (lambda: Constant(2.0) + 3.0, 5.0),
        (lambda: 3.0 + Constant(2.0), 5.0),
        (lambda: Constant(2.0) - 3.0, -1.0),
        (lambda: 3.0 - Constant(2.0), 1.0),
        (lambda: Constant(2.0) * 3.0, 6.0),
        (lambda: 3.0 * Constant(2.0), 6.0),
        (lambda: Constant(2.0) / 4.0, 0.5),
        (lambda: 4.0 / Constant(2.0), 2.0),
        (lambda: Constant(2.0) ** 3.0, 8.0),
        (lambda: 3.0 ** Constant(2.0), 9.0),
        (lambda: -Constant(2.0), -2.0),
        (lambda: Constant(2.0) * Constant(5.0) - Constant(1.0), 9.0),
        (lambda: -((Constant(1.0) + 2.0) ** 2) / 3.0, -3.0),
    ],
)
def test_arithmetic_with_numbers_and_variations(expression, expected):
    composed = expression()
    assert isinstance(composed, variation.Variation)
    assert composed() == expected


def test_arithmetic_applies_python_operators_to_the_values_as_dm_control_does():
    # Lists concatenate and repeat, as Python's (and dm_control's) operators do them;
    # arrays combine elementwise.
    assert (Constant([1.0, 2.0]) + [10.0, 20.0])() == [1.0, 2.0, 10.0, 20.0]
    assert (Constant([1.0, 2.0]) * 2)() == [1.0, 2.0, 1.0, 2.0]
    composed = Constant(np.array([1.0, 2.0])) + [10.0, 20.0]
    np.testing.assert_array_equal(composed(), [11.0, 22.0])
    with pytest.raises(TypeError):
        (-Constant([1.0, 2.0]))()
    # NumPy must not turn this into an object array of per-element variations.
    composed = np.array([1.0, 2.0]) + Constant(1.0)
    assert isinstance(composed, variation.Variation)
    np.testing.assert_array_equal(composed(), [2.0, 3.0])
    composed = np.float64(3.0) * Constant(2.0)
    assert isinstance(composed, variation.Variation)
    assert composed() == 6.0


def test_operands_receive_the_same_arguments():
    # Each operand sees initial_value and current_value.
    composed = noises.Additive(Constant(1.0)) * noises.Additive(Constant(1.0), cumulative=True)
    assert composed(initial_value=2.0, current_value=4.0) == 3.0 * 5.0


def test_random_operands_draw_in_order_from_the_given_state():
    composed = distributions.Normal(0.0, 1.0) * 2.0 + distributions.Uniform(5.0, 6.0)
    random_state = np.random.RandomState(7)
    reference = np.random.RandomState(7)
    for _ in range(3):
        expected = reference.normal(0.0, 1.0) * 2.0 + reference.uniform(5.0, 6.0)
        assert composed(random_state=random_state) == expected


def test_composed_distribution_statistics():
    composed = 3.0 * distributions.Normal(1.0, 2.0, shape=10000) - 1.0
    samples = composed(random_state=np.random.RandomState(0))
    assert samples.shape == (10000,)
    assert np.mean(samples) == pytest.approx(2.0, abs=0.3)
    assert np.std(samples) == pytest.approx(6.0, rel=0.05)


def test_str_and_repr_show_the_expression_as_dm_control_writes_them():
    expression = -(Constant(1) + 2)
    assert str(expression) == "neg(add(1, 2))"
    assert repr(expression) == "UnaryOperation(neg(add(1, 2)))"
    assert repr(Constant(1) * Constant(2)) == "BinaryOperation(mul(Constant(1), Constant(2)))"
    assert str(Constant(np.array([4, 5]))[1]) == "[4 5][1]"
    assert repr(Constant(np.array([4, 5]))[1]) == "GetItemOperation(Constant(array([4, 5]))[1])"


def test_evaluate_nested_structures():
    Pair = collections.namedtuple("Pair", ["first", "second"])
    sequence = deterministic.Sequence([1, 2, 3, 4, 5])
    array = np.arange(3.0)
    structure = {
        "a": [sequence, (sequence, "text")],
        "b": Pair(sequence, array),
        "c": {"d": sequence, "e": 7},
        "f": float,
    }
    result = variation.evaluate(structure)
    assert result == {
        "a": [1, (2, "text")],
        "b": Pair(3, array),
        "c": {"d": 4, "e": 7},
        "f": float,
    }
    assert type(result["b"]) is Pair
    assert result["b"].second is array


def test_evaluate_passes_arguments_by_keyword():
    calls = []

    def record(initial_value, current_value, random_state):
        calls.append((initial_value, current_value, random_state))
        return len(calls)

    random_state = np.random.RandomState(0)
    assert variation.evaluate([record, (record,)], "initial", "current", random_state) == [1, (2,)]
    assert calls == [("initial", "current", random_state)] * 2
    assert variation.evaluate(5) == 5


def test_random_variations_without_a_random_state_draw_from_numpy_global_one():
    # As dm_control's, which fall back to np.random.
    np.random.seed(3)
    expected = [np.random.uniform(), 1.0 + np.random.normal()]
    np.random.seed(3)
    drawn = [distributions.Uniform()(), (Constant(1.0) + distributions.Normal())()]
    assert drawn == expected
    # dm_control's `random_state or np.random`: a false seed is the global one too...
    np.random.seed(3)
    assert distributions.Uniform()(random_state=0) == expected[0]
    # ...and another that is not a generator raises (a TypeError and an AttributeError).
    with pytest.raises(TypeError, match="random_state"):
        distributions.Uniform()(random_state=3)
    with pytest.raises(AttributeError, match="random_state"):
        distributions.Uniform()(random_state=3)


def test_generator_and_random_state_are_both_accepted():
    for random_state in (np.random.RandomState(0), np.random.default_rng(0)):
        for distribution in (
            distributions.Uniform(),
            distributions.UniformInteger(3),
            distributions.UniformChoice([1, 2]),
            distributions.Normal(),
            distributions.LogNormal(),
            distributions.Exponential(),
            distributions.Bernoulli(),
            distributions.UniformPointOnSphere(),
        ):
            assert np.all(np.isfinite(distribution(random_state=random_state)))


def test_subclass_must_implement_call():
    class Incomplete(variation.Variation):
        pass

    with pytest.raises(TypeError):
        Incomplete()


def test_custom_variation():

    class UniformCircle(variation.Variation):
        """A point uniform in a disc of the given radius (metres), z = 0."""

        def __init__(self, radius):
            self._radius = radius

        def __call__(self, initial_value=None, current_value=None, random_state=None):
            random_state = variation.require_random_state(random_state, self)
            radius = self._radius * np.sqrt(random_state.uniform())
            angle = random_state.uniform(0.0, 2.0 * np.pi)
            return np.array([radius * np.cos(angle), radius * np.sin(angle), 0.0])

    offset = UniformCircle(0.5) + np.array([1.0, 0.0, 0.0])
    random_state = np.random.RandomState(0)
    points = np.array([offset(random_state=random_state) for _ in range(200)])
    assert np.all(np.linalg.norm(points - [1.0, 0.0, 0.0], axis=1) <= 0.5)
    with pytest.raises(TypeError, match="random_state"):
        UniformCircle(1.0)(random_state="seed")
