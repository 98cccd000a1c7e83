"""Humanoid: the Control Suite humanoid's body as a free walker.

Heess et al. 2017 (§3) use a humanoid with 21 actuated joints and 28 degrees of
freedom; the 28 count the generalised coordinates (qpos): 7 of the free root joint
(position and quaternion) and the 21 hinges, that is 27 velocity degrees of freedom.
The body is the Control Suite's (`mjcf_models.humanoid`, reused here, not
duplicated): its geometry, masses, joints, gears, cameras and sensors are the
published ones; this module removes the world around it (floor, skybox, the free
joint, which `arena.add_free_entity` provides) and lowers the torso so the feet
rest on the walker's ground plane.

Frames: the torso's frame is the egocentric frame (x forward, y left, z up).
Sensors: the suite's velocimeter, accelerometer and gyro on the torso site "root";
touch sensors under both halves of each foot, then on the thighs and shins
(contacts "at the feet and legs", Heess et al. 2017 §3.1); force-torque sites at the hips, knees
and ankles, whose torques `sensors_torque` observes.
"""

import numpy as np

from composer_tasks import mjcf
from composer_tasks.walkers import base
from mjcf_models import humanoid as humanoid_model

# The two capsules of each foot, named '<toe side>_<foot side>_foot' in the suite.
_FOOT_GEOMS = ("right_right_foot", "left_right_foot", "right_left_foot", "left_left_foot")
# Leg touch sites (the suite's), after the feet in `touch_sensors`: Heess et al.
# 2017 (§3.1) give the quadruped and humanoid "contact sensors attached to the
# feet and legs".
_LEG_TOUCH_SITES = ("right_thigh", "right_shin", "left_thigh", "left_shin")
# Lower-limb force-torque sites, in the suite's sensor order.
_LOWER_LIMB_SITES = (
    "left_ankle",
    "right_ankle",
    "left_knee",
    "right_knee",
    "left_hip",
    "right_hip",
)
# Hands and feet, in the order of dm_control's CMU humanoid end effectors.
_END_EFFECTORS = ("right_hand", "left_hand", "right_foot", "left_foot")


class Humanoid(base.Walker):
    """The Control Suite humanoid (21 torque-actuated hinges) as a free walker.

    Args:
      name: the entity's name (its prefix in the model).
    """

    def _build(self, name: str = "walker") -> None:
        spec = humanoid_model.make_spec()
        spec.modelname = name
        base.strip_world(spec)
        spec.delete(spec.joint("root"))
        torso = spec.body("torso")
        standing_height = base.height_above_lowest_point(spec, torso)
        torso.pos = [0.0, 0.0, standing_height]
        self._spec = spec
        self._head = spec.body("head")
        joints = [spec.joint(joint) for joint in humanoid_model.JOINT_NAMES]
        self._set_parts(
            root_body=torso,
            observable_joints=joints,
            pose_joints=joints,
            initial_qpos=np.zeros(len(joints)),
            standing_height=standing_height,
            end_effectors=[spec.body(body) for body in _END_EFFECTORS],
            egocentric_camera=spec.camera("egocentric"),
            root_sensors=[spec.sensor(f"torso_{kind}") for kind in ("vel", "accel", "gyro")],
            touch_sensors=[spec.sensor(f"{site}_touch") for site in _FOOT_GEOMS + _LEG_TOUCH_SITES],
            torque_sensors=[spec.sensor(f"{site}_torque") for site in _LOWER_LIMB_SITES],
            ground_contact_geoms=[spec.geom(geom) for geom in _FOOT_GEOMS],
        )

    @property
    def head(self) -> mjcf.Element:
        """The head body (a sphere of radius 0.09 m centred at its origin)."""
        return self._handle(self._head)
