"""composer.variation.math against dm_control's: Log, Max, Min and Norm over values,
variations and keyword arguments, drawing from the same seeds; their equality and
repr."""

import pytest

MATH = """
import numpy as np
from dm_control.composer.variation import distributions, math, noises

def draws(label, make, initial_values=(None, 2.0, np.array([1.0, 4.0]))):
    for k, initial in enumerate(initial_values):
        random_state = np.random.RandomState(7 + k)
        def call():
            v = make()
            out = [v(initial_value=initial, current_value=initial, random_state=random_state)
                   for _ in range(3)]
            return out + [random_state.uniform()]
        check(f'{label}/{k}', call)

draws('log_value', lambda: math.Log(3.0))
draws('log_variation', lambda: math.Log(distributions.Uniform(1.0, 5.0)))
draws('log_array', lambda: math.Log(distributions.Uniform([1.0, 2.0], [3.0, 4.0])))
draws('max_variation', lambda: math.Max(distributions.Uniform([0, 0, 0], [1, 2, 3])))
draws('max_axis', lambda: math.Max(distributions.Normal(np.zeros((2, 3))), axis=1))
draws('min_variation', lambda: math.Min(distributions.Uniform([0, 0, 0], [1, 2, 3])))
draws('min_list', lambda: math.Min([distributions.Uniform(), distributions.Normal(), 0.25]))
draws('norm_variation', lambda: math.Norm(distributions.Uniform([-1, -1, -1], [1, 1, 1])))
draws('norm_ord', lambda: math.Norm(distributions.Normal(np.zeros(4)), ord=distributions.UniformChoice([1, 2, np.inf])))
draws('norm_of_noise', lambda: math.Norm(noises.Additive(distributions.Uniform(-1, 1))), (2.0, np.array([1.0, 4.0])))
draws('arithmetic', lambda: 2.0 * math.Log(distributions.Uniform(1.0, 2.0)) + 1.0)
draws('nested', lambda: math.Max([math.Log(distributions.Uniform(1, 3)), math.Norm([3.0, 4.0])]))
check('log_negative', lambda: math.Log(-1.0)())
check('equality', lambda: [
    math.Log(2.0) == math.Log(2.0),
    math.Log(2.0) == math.Log(3.0),
    math.Log(2.0) == math.Max(2.0),
    math.Max(1.0, axis=0) == math.Max(1.0, axis=0),
    math.Max(1.0, axis=0) == math.Max(1.0, axis=1),
    math.Max(1.0, axis=0) == math.Max(1.0),
    math.Norm(distributions.Uniform(0, 1)) == math.Norm(distributions.Uniform(0, 1)),
    math.Min(1.0) == 1.0,
])
check('repr', lambda: [repr(math.Log(2.0)), repr(math.Max(1.5, axis=0)), repr(math.Norm())])
check('abstract', lambda: math.MathOp(1.0))
check('is_variation', lambda: isinstance(math.Log(1.0), distributions.base.Variation))
"""


@pytest.mark.dm_control_api(
    "composer.variation.math.MathOp",
    "composer.variation.math.Log",
    "composer.variation.math.Max",
    "composer.variation.math.Min",
    "composer.variation.math.Norm",
)
def test_math_variations_match_dm_control(differential):
    differential.assert_same(MATH, "composer_variation_math", rtol=1e-12, atol=1e-12)
