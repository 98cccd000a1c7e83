"""dm_control's `suite.utils.randomizers`: random initial joint positions.

The draws, their order and their distributions are dm-control 1.0.50's, so a seed
gives the same pose there and here. (The suite's own domains draw the same numbers
in one vector call: `suites.base.RandomPosePhysics.randomize_joints`.)
"""

import mujoco
import numpy as np

_HINGE = mujoco.mjtJoint.mjJNT_HINGE
_SLIDE = mujoco.mjtJoint.mjJNT_SLIDE
_BALL = mujoco.mjtJoint.mjJNT_BALL
_FREE = mujoco.mjtJoint.mjJNT_FREE


def random_limited_quaternion(random, limit):
    """A unit quaternion (w, x, y, z) rotating by an angle drawn uniformly in
    [0, `limit`) radians about an axis drawn uniformly on the sphere.

    Draws three normals (the axis), then one uniform (the angle), from `random`
    (a `np.random.RandomState`).
    """
    axis = random.randn(3)
    axis /= np.linalg.norm(axis)
    angle = random.rand() * limit
    quaternion = np.zeros(4)
    mujoco.mju_axisAngle2Quat(quaternion, axis, angle)
    return quaternion


def randomize_limited_and_rotational_joints(physics, random=None):
    """Sets a random position of every joint of `physics`, in joint order:

    - a limited hinge or slide: uniform within its range;
    - an unlimited hinge: uniform in [-pi, pi] (radians); an unlimited slide stays;
    - a limited ball joint: `random_limited_quaternion` within its range's upper
      bound (radians);
    - an unlimited ball joint: a uniform unit quaternion (four normals, normalised);
    - a free joint: its orientation from four uniforms in [0, 1) normalised (the
      published draw, which covers only quaternions of positive components); its
      position stays.

    Args:
      physics: a `Physics` (its `named.data.qpos` is written).
      random: a `np.random.RandomState`; None uses NumPy's global random state.
    """
    random = random or np.random
    model = physics.model
    qpos = physics.named.data.qpos
    for joint in range(model.njnt):
        name = model.joint(joint).name
        kind = model.jnt_type[joint]
        low, high = model.jnt_range[joint]
        if model.jnt_limited[joint]:
            if kind == _HINGE or kind == _SLIDE:  # (`in` misses: NumPy int vs enum)
                qpos[name] = random.uniform(low, high)
            elif kind == _BALL:
                qpos[name] = random_limited_quaternion(random, high)
        elif kind == _HINGE:
            qpos[name] = random.uniform(-np.pi, np.pi)
        elif kind == _BALL:
            quaternion = random.randn(4)
            quaternion /= np.linalg.norm(quaternion)
            qpos[name] = quaternion
        elif kind == _FREE:
            quaternion = random.rand(4)
            quaternion /= np.linalg.norm(quaternion)
            qpos[name][3:] = quaternion
