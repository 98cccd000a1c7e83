"""`rewards.tolerance` against dm_control's, over its sigmoids, bounds and margins."""

import pytest

PROGRAM = """
import numpy as np
from dm_control.utils import rewards

xs = np.linspace(-3.0, 3.0, 61)
for sigmoid in ("gaussian", "hyperbolic", "long_tail", "reciprocal", "cosine", "linear",
                "quadratic", "tanh_squared"):
    for bounds in ((0.0, 0.0), (-1.0, 0.5), (0.2, np.inf)):
        for margin in (0.0, 0.3, 2.0):
            key = f"{sigmoid}/{bounds}/{margin}"
            if margin == 0.0:
                check(key, rewards.tolerance, xs, bounds=bounds, margin=margin, sigmoid=sigmoid)
            else:
                for value_at_margin in (0.1, 0.5):
                    check(f"{key}/{value_at_margin}", rewards.tolerance, xs, bounds=bounds,
                          margin=margin, sigmoid=sigmoid, value_at_margin=value_at_margin)
check("scalar", rewards.tolerance, 0.25, bounds=(0, 1))
check("scalar_type", lambda: type(rewards.tolerance(0.25, bounds=(0, 1))).__name__)
check("bad_bounds", rewards.tolerance, 0.0, bounds=(1, 0))
check("bad_margin", rewards.tolerance, 0.0, bounds=(0, 1), margin=-1)
check("bad_sigmoid", rewards.tolerance, 2.0, bounds=(0, 1), margin=1, sigmoid="nope")
"""


@pytest.mark.dm_control_api("utils.rewards.tolerance")
def test_tolerance_matches_dm_control(differential):
    differential.assert_same(PROGRAM, "rewards", rtol=1e-12, atol=1e-15)
