"""agents.specs.ActionBounds: actions mapped into the spec's box land inside it exactly."""

import numpy as np
import pytest
from dm_env import specs

from agents import specs as agent_specs


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_actions_on_bounds_that_float32_cannot_hold_stay_inside(dtype):
    # 6 degrees in radians: float32(0.10471975511965977) rounds outward (the MPL
    # hand's wrist increment bound, where a D4PG run failed the bounds check).
    bound = np.deg2rad(6.0)
    spec = specs.BoundedArray((3,), dtype, minimum=-bound, maximum=[bound, 1.0, 2.0])
    bounds = agent_specs.action_bounds(spec)
    unit = np.array([[-1.0, 1.0, 1.0], [1.0, -1.0, 0.0], [-5.0, 5.0, 0.3]], np.float32)
    actions = bounds.to_env(unit)
    assert actions.dtype == dtype
    spec.validate(actions[0])
    for row in actions:
        assert np.all(row.astype(np.float64) >= np.broadcast_to(spec.minimum, (3,)))
        assert np.all(row.astype(np.float64) <= np.broadcast_to(spec.maximum, (3,)))
    np.testing.assert_allclose(actions[0, 0], -bound, rtol=1e-6)
    np.testing.assert_allclose(bounds.to_unit(actions), np.clip(unit, -1, 1), atol=1e-5)


def test_hand_catch_accepts_actions_on_its_bounds():
    from suites import hand

    env = hand.load("catch", seed=0)
    bounds = agent_specs.action_bounds(env.action_spec())
    env.reset()
    for corner in (-1.0, 1.0):
        action = bounds.to_env(np.full((1, bounds.size), corner, np.float32))[0]
        env.step(action)
