"""Images larger than the offscreen buffer are refused as dm_control refuses them."""

import pytest

PROGRAM = """
from dm_control import suite

physics = suite.load("cartpole", "swingup", task_kwargs={"random": 0}).physics
record("offscreen_buffer", [physics.model.vis.global_.offheight,
                            physics.model.vis.global_.offwidth])
check("too_large", physics.render, 5000, 5000)
check("too_tall", physics.render, 481, 10)
check("too_wide", physics.render, 10, 641)
"""


@pytest.mark.dm_control_api("mujoco.Physics.render", "suite.load")
def test_images_beyond_the_offscreen_buffer_are_value_errors(differential):
    differential.assert_same(PROGRAM, "rendering_limits")
