"""composer_tasks.mujoco_math: dm_control's quaternion helpers."""

import numpy as np
import pytest

from composer_tasks import mujoco_math


def test_products_conjugates_and_differences():
    x, y, z = [0.0, 1, 0, 0], [0.0, 0, 1, 0], [0.0, 0, 0, 1]
    np.testing.assert_allclose(mujoco_math.mj_quatprod(x, y), z)
    np.testing.assert_allclose(
        mujoco_math.mj_quatneg([0.5, 0.5, -0.5, 0.5]), [0.5, -0.5, 0.5, -0.5]
    )
    np.testing.assert_allclose(mujoco_math.mj_quatdiff(x, y), [0, 0, 0, -1])
    np.testing.assert_allclose(mujoco_math.mj_quat2vel(x, 0.1), [np.pi / 0.1, 0, 0])


def test_euler2quat_composes_yaw_pitch_roll_in_degrees():
    np.testing.assert_allclose(mujoco_math.euler2quat(0, 0, 90), [np.sqrt(0.5), 0, 0, np.sqrt(0.5)])
    expected = mujoco_math.mj_quatprod(
        mujoco_math.mj_quatprod(mujoco_math.euler2quat(0, 0, 30), mujoco_math.euler2quat(0, 20, 0)),
        mujoco_math.euler2quat(10, 0, 0),
    )
    np.testing.assert_allclose(mujoco_math.euler2quat(10, 20, 30), expected, atol=1e-12)


def test_a_quaternion_of_the_wrong_shape_is_named():
    with pytest.raises(
        ValueError, match=r"r must be a quaternion of shape \(4,\), got shape \(3,\)"
    ):
        mujoco_math.mj_quatprod([1, 0, 0, 0], [1, 0, 0])
