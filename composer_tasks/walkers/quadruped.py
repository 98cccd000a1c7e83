"""Quadruped: the ant-like four-legged walker of Heess et al. 2017, torque-controlled.

Heess et al. 2017 (§3) describe "a simple three-dimensional quadrupedal body" with 8
actuated joints. This body follows the ant that DeepMind's locomotion code ships
(dm_control `third_party/ant/ant.xml`, after Schulman et al. 2015): a sphere torso
of radius 0.25 m with four legs at 45 degrees to the heading; each leg is a fixed
hip segment, a thigh swinging about the vertical hip joint (+-30 degrees) and a foot
hinged at the ankle (+-20 degrees), all capsules of radius 0.08 m; motors of gear
75 N m per unit control; densities 100 kg/m^3 (torso) and 50 kg/m^3 (legs).

Degrees of freedom: the free root joint (6; 7 generalised coordinates) and the 8
actuated hinges, so nv = 14 and nq = 15. The paper's count of 12 cannot be met by
any free-floating body with 8 hinges; the ant's layout is kept (docs explain).

Frames and units: the torso's frame is the egocentric frame (x forward between the
front legs, y left, z up); angles in radians. At ankle angle 0 a foot points 50
degrees below the horizontal (the middle of the ant's published 30-70 degree ankle
range); positive ankle angles lift the foot. In the initial pose (all joints at 0)
the foot tips rest on the walker's ground plane, the torso 0.51 m above it.
"""

import mujoco
import numpy as np

from composer_tasks.walkers import base

_TORSO_RADIUS_M = 0.25
_TORSO_DENSITY = 100.0
_LEG_DENSITY = 50.0
_LEG_RADIUS_M = 0.08
# Horizontal lengths of the hip segment and thigh, and the foot's length (m).
_HIP_SEGMENT_LENGTH_M = 0.2 * np.sqrt(2.0)
_THIGH_LENGTH_M = 0.2 * np.sqrt(2.0)
_FOOT_LENGTH_M = 0.4 * np.sqrt(2.0)
_FOOT_DROOP_DEG = 50.0
_HIP_RANGE_DEG = 30.0
_ANKLE_RANGE_DEG = 20.0
_GEAR = 75.0
# Legs in the ant's actuator order, with their yaw (degrees) from the heading.
_LEGS = (("front_left", 45.0), ("front_right", -45.0), ("back_right", -135.0), ("back_left", 135.0))
# Touch sites enclose the leg capsules with this much room (m).
_TOUCH_MARGIN_M = 0.01

_CAPSULE = mujoco.mjtGeom.mjGEOM_CAPSULE


class Quadruped(base.Walker):
    """An ant-like quadruped with 8 torque-actuated hinges (hip and ankle per leg).

    Args:
      name: the entity's name (its prefix in the model).
    """

    def _build(self, name: str = "walker") -> None:
        spec = mujoco.MjSpec()
        spec.modelname = name
        spec.compiler.degree = True
        _set_defaults(spec)
        spec.add_material(name="self", rgba=[0.8, 0.6, 0.4, 1.0])
        torso = spec.worldbody.add_body(name="torso")
        torso.add_geom(
            name="torso",
            type=mujoco.mjtGeom.mjGEOM_SPHERE,
            size=[_TORSO_RADIUS_M, 0.0, 0.0],
            density=_TORSO_DENSITY,
        )
        _, root_sensors = base.add_root_sensors(spec, torso)
        joints, feet, foot_geoms, foot_touch, thigh_touch = [], [], [], [], []
        for leg, yaw in _LEGS:
            direction = np.array([np.cos(np.radians(yaw)), np.sin(np.radians(yaw)), 0.0])
            torso.add_geom(
                name=f"{leg}_hip_segment",
                type=_CAPSULE,
                fromto=[0.0, 0.0, 0.0, *(_HIP_SEGMENT_LENGTH_M * direction)],
                size=[_LEG_RADIUS_M, 0.0, 0.0],
            )
            thigh = torso.add_body(
                name=f"{leg}_thigh",
                pos=list(_HIP_SEGMENT_LENGTH_M * direction),
                euler=[0.0, 0.0, yaw],
            )
            joints.append(
                thigh.add_joint(
                    name=f"{leg}_hip", axis=[0.0, 0.0, 1.0], range=[-_HIP_RANGE_DEG, _HIP_RANGE_DEG]
                )
            )
            thigh.add_geom(
                name=f"{leg}_thigh",
                type=_CAPSULE,
                fromto=[0.0, 0.0, 0.0, _THIGH_LENGTH_M, 0.0, 0.0],
                size=[_LEG_RADIUS_M, 0.0, 0.0],
            )
            thigh_touch.append(
                base.add_touch_sensor(
                    spec,
                    thigh,
                    f"{leg}_thigh_touch",
                    type=_CAPSULE,
                    fromto=[0.0, 0.0, 0.0, _THIGH_LENGTH_M, 0.0, 0.0],
                    size=[_LEG_RADIUS_M + _TOUCH_MARGIN_M, 0.0, 0.0],
                )
            )
            # The foot's origin is its tip, so that end-effector positions say where
            # the feet are; the ankle hinge sits a foot length behind it.
            droop = np.radians(_FOOT_DROOP_DEG)
            tip = [
                _THIGH_LENGTH_M + _FOOT_LENGTH_M * np.cos(droop),
                0.0,
                -_FOOT_LENGTH_M * np.sin(droop),
            ]
            foot = thigh.add_body(name=f"{leg}_foot", pos=tip, euler=[0.0, _FOOT_DROOP_DEG, 0.0])
            joints.append(
                foot.add_joint(
                    name=f"{leg}_ankle",
                    pos=[-_FOOT_LENGTH_M, 0.0, 0.0],
                    axis=[0.0, -1.0, 0.0],
                    range=[-_ANKLE_RANGE_DEG, _ANKLE_RANGE_DEG],
                )
            )
            foot_geoms.append(
                foot.add_geom(
                    name=f"{leg}_foot",
                    type=_CAPSULE,
                    fromto=[-_FOOT_LENGTH_M, 0.0, 0.0, 0.0, 0.0, 0.0],
                    size=[_LEG_RADIUS_M, 0.0, 0.0],
                )
            )
            foot_touch.append(
                base.add_touch_sensor(
                    spec,
                    foot,
                    f"{leg}_foot_touch",
                    type=_CAPSULE,
                    fromto=[-_FOOT_LENGTH_M, 0.0, 0.0, 0.0, 0.0, 0.0],
                    size=[_LEG_RADIUS_M + _TOUCH_MARGIN_M, 0.0, 0.0],
                )
            )
            feet.append(foot)
        for joint in joints:
            spec.add_actuator(
                name=joint.name,
                target=joint.name,
                trntype=mujoco.mjtTrn.mjTRN_JOINT,
                gear=[_GEAR, 0, 0, 0, 0, 0],
            )
        standing_height = base.height_above_lowest_point(spec, torso)
        torso.pos = [0.0, 0.0, standing_height]
        # The tracking cameras first, so that camera 0 of a model with a
        # quadruped (what videos show by default) looks at it from behind.
        base.add_tracking_cameras(spec, torso, standing_height)
        camera = torso.add_camera(
            name="egocentric",
            pos=[_TORSO_RADIUS_M, 0.0, 0.11],
            xyaxes=[0.0, -1.0, 0.0, 0.0, 0.0, 1.0],
            fovy=90.0,
        )
        self._spec = spec
        self._set_parts(
            root_body=torso,
            observable_joints=joints,
            pose_joints=joints,
            initial_qpos=np.zeros(len(joints)),
            standing_height=standing_height,
            end_effectors=feet,
            egocentric_camera=camera,
            root_sensors=root_sensors,
            touch_sensors=foot_touch + thigh_touch,
            torque_sensors=(),
            ground_contact_geoms=foot_geoms,
        )


def _set_defaults(spec: mujoco.MjSpec) -> None:
    """The ant's contact, joint and motor parameters (dm_control third_party/ant)."""
    main = spec.default
    main.geom.friction = [1.0, 0.5, 0.5]
    main.geom.solref = [0.02, 1.0]
    main.geom.solimp = [0.0, 0.8, 0.01, 0.5, 2.0]
    main.geom.density = _LEG_DENSITY
    main.geom.material = "self"
    main.joint.limited = mujoco.mjtLimited.mjLIMITED_TRUE
    main.joint.armature = 1.0
    main.joint.damping = [1.0, 0.0, 0.0]
    main.joint.stiffness = [1.0, 0.0, 0.0]
    main.joint.solref_limit = [0.04, 1.0]
    main.joint.solimp_limit = [0.0, 0.8, 0.03, 0.5, 2.0]
    main.actuator.set_to_motor()
    main.actuator.ctrllimited = mujoco.mjtLimited.mjLIMITED_TRUE
    main.actuator.ctrlrange = [-1.0, 1.0]
