"""An image larger than the model's offscreen buffer is refused with the buffer's size
and how to raise it, not blamed on the GL backend (issue 29)."""

import numpy as np
import pytest

from suites import suite


def test_an_image_larger_than_the_offscreen_buffer_names_the_buffer():
    physics = suite.load("cartpole", "swingup", task_kwargs={"random": 0}).physics
    with pytest.raises(ValueError) as error:
        physics.render(5000, 5000)
    message = str(error.value)
    assert "5000x5000" in message and "480x640" in message
    assert "model.vis.global_.offwidth = 5000" in message and "MUJOCO_GL" not in message
    with pytest.raises(ValueError, match="offscreen buffer of 480x640"):
        physics.render(481, 10)
    assert not physics._renderers  # Nothing was made for the refused sizes.


def test_raising_the_buffer_as_the_message_says_renders():
    physics = suite.load("cartpole", "swingup", task_kwargs={"random": 0}).physics
    physics.model.vis.global_.offheight = 500
    physics.model.vis.global_.offwidth = 700
    image = physics.render(500, 700)
    assert image.shape == (500, 700, 3) and np.any(image)
