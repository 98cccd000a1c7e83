"""The Kinova Jaco 3-finger hand, with a pinch site between the fingertips.

Finger placement, inertias, joint properties and actuators carry over the
numbers of dm_control's Jaco hand (dm-control 1.0.50, `third_party/kinova/
jaco_hand.xml` and `entities/manipulators/kinova/jaco_hand.py`, compiled;
recorded in tests/manipulation/reference/). Shapes are primitives fitted to the
extent of each part (palm cylinders, finger boxes) instead of the published
meshes; masses and inertias are set explicitly.

Frames: the hand's z axis points from the wrist towards the fingertips. The
pinch site, between the fingertips 0.193 m from the wrist, is the tool centre
point of the manipulation tasks; its orientation matches the wrist's.
"""

import collections.abc
from collections.abc import Iterable
from typing import Any

import mujoco
import numpy as np

from composer_tasks import composer, mjcf
from composer_tasks.composer.observation import observable
from composer_tasks.physics import Physics
from composer_tasks.robots import base, jaco_arm

_MODEL_NAME = "jaco_hand"
# Finger joints (dm_control jaco_hand.xml): range (rad), friction loss (N m),
# armature (kg m^2), damping (N m s/rad).
FINGER_RANGE = (0.15, 1.35)
_FINGER_JOINT = dict(frictionloss=0.1, armature=0.1, damping=0.75)
# Finger velocity servos (dm_control jaco_hand.py, tuned there for a ~25 N grip
# and a ~1.2 s closing time per the hand's data sheet): gain, control and force ranges.
FINGER_VELOCITY_GAIN = 10.0
FINGER_CTRL_RANGE = (-5.0, 5.0)
FINGER_FORCE_RANGE = (-1.0, 1.0)

_PALM_MASS_KG = 0.54719
_PALM_INERTIA = (0.0007471643167183203, 0.0006565327365328644, 0.0005241760380036293)
_PALM_IPOS = (2.9625652337750666e-05, -0.004450738246590736, -0.05792116734271239)
_PALM_IQUAT = (
    0.9948836731677144,
    -0.10091701946388114,
    -0.001802679379573878,
    -0.004356878917040826,
)
_PROXIMAL: dict[str, Any] = dict(
    mass=0.0255204,
    inertia=(7.069004506974082e-06, 7.0219142333230015e-06, 2.038781190729017e-06),
    ipos=(0.020495434264543845, -0.007902492338918442, -6.8140934826880554e-06),
    iquat=(0.5018435727190034, 0.4991486841808767, 0.5007256735251927, 0.49827444192319464),
)
_DISTAL: dict[str, Any] = dict(
    mass=0.0132655,
    inertia=(2.70189858488431e-06, 2.5422860217636423e-06, 6.640599221315479e-07),
    ipos=(0.012826021237714163, -0.004531130001226857, -3.468581496368186e-06),
    iquat=(0.5003358500029791, 0.5014115754392441, 0.49852543326329696, 0.49972278475868676),
)
# Finger bases in the hand frame (m) and their orientations (w-x-y-z); the joint
# turns about the finger's z axis, closing towards the finger's +y side.
_FINGER_MOUNTS = (
    ((0.00279, 0.03126, -0.11467), (0.24396, -0.63159, -0.38818, 0.62521)),
    ((-0.02226, -0.02707, -0.11482), (0.601679, -0.254671, 0.659653, -0.37146)),
    ((0.02226, -0.02707, -0.11482), (0.659653, -0.37146, 0.601679, -0.254671)),
)
_DISTAL_OFFSET = (0.044, -0.003, 0.0)
# Boxes fitted to the finger segments' extents in their frames (centre, half-sizes, m).
_PROXIMAL_BOX = ((0.0217, -0.008, 0.0), (0.029, 0.0133, 0.0115))
_DISTAL_BOX = ((0.0171, -0.0045, 0.0), (0.0266, 0.01, 0.0113))
# Palm: a cylinder for the hand's shell and a narrower one for the finger insert.
_SHELL = ((0.0, 0.0, -0.0445), (0.046, 0.0445))
_INSERT = ((0.0, 0.0, -0.104), (0.03, 0.0165))
_HAND_QUAT = (0.0, 0.70710678118, 0.70710678118, 0.0)
_GRIP_SITE_POS = (0.0, -0.0001, -0.159)
_PINCH_SITE_POS = (0.015, 0.0024, -0.193)
_FINGER_CONDIM = 4
_TOOL_SITE_GROUP = 4

_DARK_GRAY = (0.1, 0.1, 0.1, 1.0)
_LIGHT_GRAY = (0.7, 0.7, 0.7, 1.0)
_BOX = mujoco.mjtGeom.mjGEOM_BOX
_CYLINDER = mujoco.mjtGeom.mjGEOM_CYLINDER


class JacoHandObservables(base.JointsObservables):
    """Finger angles (rad) and velocities (rad/s), (3,) each (the base class's); the
    pinch site's world position (m, (3,)) and rotation matrix (row-major, (9,))."""

    @composer.observable
    def pinch_site_pos(self) -> observable.MJCFFeature:
        return observable.MJCFFeature("xpos", self._entity._pinch_site)

    @composer.observable
    def pinch_site_rmat(self) -> observable.MJCFFeature:
        return observable.MJCFFeature("xmat", self._entity._pinch_site)


class JacoHand(base.RobotHand):
    """The Jaco 3-finger hand, a `RobotHand` as in dm_control.

    Args:
      name: the entity's name; None or "" keep the model's, "jaco_hand" (as
        dm_control's `if name:`).
      use_pinch_site_as_tcp: make the pinch site the tool centre point (the
        manipulation tasks do); otherwise (dm_control's default) the grip site,
        0.034 m closer to the wrist.
    """

    def _build(self, name: str | None = None, use_pinch_site_as_tcp: bool = False) -> None:
        if not isinstance(use_pinch_site_as_tcp, bool):
            raise TypeError(f"use_pinch_site_as_tcp must be a bool, got {use_pinch_site_as_tcp!r}")
        spec = mujoco.MjSpec()
        spec.modelname = name or _MODEL_NAME
        spec.compiler.degree = False  # Angles (joint ranges) are in radians.
        hand = spec.worldbody.add_body(name="hand", quat=list(_HAND_QUAT))
        _set_inertia(hand, _PALM_MASS_KG, _PALM_INERTIA, _PALM_IPOS, _PALM_IQUAT)
        self._grip_site = hand.add_site(
            name="gripsite",
            pos=list(_GRIP_SITE_POS),
            quat=list(_HAND_QUAT),
            size=[0.01, 0.0, 0.0],
            group=_TOOL_SITE_GROUP,
        )
        self._pinch_site = hand.add_site(
            name="pinchsite",
            pos=list(_PINCH_SITE_POS),
            quat=list(_HAND_QUAT),
            size=[0.01, 0.0, 0.0],
            group=_TOOL_SITE_GROUP,
        )
        self._hand_geoms = [
            hand.add_geom(
                name="link_6_main",
                type=_CYLINDER,
                pos=list(_SHELL[0]),
                size=[*_SHELL[1], 0.0],
                rgba=list(_DARK_GRAY),
                **_contact_kwargs(),
            ),
            hand.add_geom(
                name="link_6_insert",
                type=_CYLINDER,
                pos=list(_INSERT[0]),
                size=[*_INSERT[1], 0.0],
                rgba=list(_LIGHT_GRAY),
                **_contact_kwargs(),
            ),
        ]
        self._joints, self._actuators, self._finger_geoms = [], [], []
        for index, (pos, quat) in enumerate(_FINGER_MOUNTS, start=1):
            proximal = hand.add_body(name=f"b_finger_{index}", pos=list(pos), quat=list(quat))
            _set_inertia(proximal, **_PROXIMAL)
            joint = proximal.add_joint(
                name=f"finger_{index}",
                type=mujoco.mjtJoint.mjJNT_HINGE,
                axis=[0.0, 0.0, 1.0],
                range=list(FINGER_RANGE),
                limited=mujoco.mjtLimited.mjLIMITED_TRUE,
                **_FINGER_JOINT,
            )
            self._finger_geoms.append(
                proximal.add_geom(
                    name=f"finger_knuckle_{index}",
                    type=_BOX,
                    pos=list(_PROXIMAL_BOX[0]),
                    size=list(_PROXIMAL_BOX[1]),
                    rgba=list(_LIGHT_GRAY),
                    **_contact_kwargs(condim=_FINGER_CONDIM),
                )
            )
            distal = proximal.add_body(name=f"b_finger_tip_{index}", pos=list(_DISTAL_OFFSET))
            _set_inertia(distal, **_DISTAL)
            self._finger_geoms.append(
                distal.add_geom(
                    name=f"finger_tip_{index}",
                    type=_BOX,
                    pos=list(_DISTAL_BOX[0]),
                    size=list(_DISTAL_BOX[1]),
                    rgba=list(_LIGHT_GRAY),
                    **_contact_kwargs(condim=_FINGER_CONDIM),
                )
            )
            self._joints.append(joint)
            actuator = spec.add_actuator(
                name=f"finger_{index}",
                target=f"finger_{index}",
                trntype=mujoco.mjtTrn.mjTRN_JOINT,
                ctrlrange=list(FINGER_CTRL_RANGE),
                forcerange=list(FINGER_FORCE_RANGE),
            )
            actuator.set_to_velocity(kv=FINGER_VELOCITY_GAIN)
            actuator.ctrllimited = mujoco.mjtLimited.mjLIMITED_TRUE
            actuator.forcelimited = mujoco.mjtLimited.mjLIMITED_TRUE
            self._actuators.append(actuator)
            spec.add_exclude(bodyname1="hand", bodyname2=f"b_finger_{index}")
        self._tool_center_point = self._pinch_site if use_pinch_site_as_tcp else self._grip_site
        self._spec = spec

    def _build_observables(self) -> JacoHandObservables:
        return JacoHandObservables(self)

    # Parts are PyMJCF handles (`composer_tasks.mjcf.Element`), as dm_control's:
    # `.name` relative to the hand, `physics.bind` with PyMJCF's shapes.

    def _handles(self, elements: Iterable[Any]) -> tuple[mjcf.Element, ...]:
        return tuple(self.mjcf_model._wrap(element) for element in elements)

    @property
    def joints(self) -> tuple[mjcf.Element, ...]:
        return self._handles(self._joints)

    @property
    def actuators(self) -> tuple[mjcf.Element, ...]:
        return self._handles(self._actuators)

    @property
    def tool_center_point(self) -> mjcf.Element:
        return self.mjcf_model._wrap(self._tool_center_point)

    @property
    def pinch_site(self) -> mjcf.Element:
        return self.mjcf_model._wrap(self._pinch_site)

    @property
    def grip_site(self) -> mjcf.Element:
        return self.mjcf_model._wrap(self._grip_site)

    @property
    def hand_geom(self) -> list[mjcf.Element]:
        """dm_control's name: the palm's geoms (shell and insert), a list."""
        return list(self._handles(self._hand_geoms))

    @property
    def hand_geoms(self) -> tuple[mjcf.Element, ...]:
        """`hand_geom` as a tuple."""
        return self._handles(self._hand_geoms)

    @property
    def finger_geoms(self) -> tuple[mjcf.Element, ...]:
        return self._handles(self._finger_geoms)

    @property
    def pinch_site_pos_sensor(self) -> Any:
        """dm_control declares this property but its hand never creates the sensor,
        so reading it raises AttributeError there; so here. The pinch site's
        position is the observable `pinch_site_pos` (or `physics.bind(hand.pinch_site).xpos`).

        Raises:
          AttributeError: always, as dm_control's.
        """
        raise AttributeError(
            "JacoHand has no pinch-site position sensor (dm_control's neither); observe "
            "hand.observables.pinch_site_pos or bind hand.pinch_site"
        )

    @property
    def pinch_site_quat_sensor(self) -> Any:
        """dm_control declares this property but its hand never creates the sensor,
        so reading it raises AttributeError there; so here. The pinch site's
        orientation is the observable `pinch_site_rmat`.

        Raises:
          AttributeError: always, as dm_control's.
        """
        raise AttributeError(
            "JacoHand has no pinch-site orientation sensor (dm_control's neither); observe "
            "hand.observables.pinch_site_rmat or bind hand.pinch_site"
        )

    def set_grasp(self, physics: Physics, close_factors: float | Iterable[float]) -> None:
        """Sets the fingers' angles: 0 fully open, 1 fully closed (one number for all
        fingers or one per finger), updates the kinematics with actuation off (the
        physics' `after_reset`) and then zeroes the fingers' velocity commands, in
        dm_control's order."""
        if not isinstance(close_factors, collections.abc.Iterable):
            close_factors = (close_factors,) * len(self._joints)
        close_factors = np.asarray(list(close_factors), dtype=np.float64)
        if close_factors.shape != (len(self._joints),) or not np.all(
            (close_factors >= 0) & (close_factors <= 1)
        ):
            raise ValueError(
                f"close_factors must be one number or {len(self._joints)} numbers in [0, 1], "
                f"got {close_factors!r}"
            )
        for joint, factor in zip(self._joints, close_factors):
            # The compiled range, as dm_control reads it (a model edit is followed).
            bound = physics.bind(joint)
            low, high = bound.range
            bound.qpos = low + (high - low) * factor
        physics.after_reset()
        for actuator in self._actuators:
            physics.bind(actuator).ctrl = 0.0


def _set_inertia(
    body: mujoco.MjsBody,
    mass: float,
    inertia: Iterable[float],
    ipos: Iterable[float],
    iquat: Iterable[float],
) -> None:
    body.explicitinertial = True
    body.mass = mass
    body.inertia = list(inertia)
    body.ipos = list(ipos)
    body.iquat = list(iquat)


def _contact_kwargs(condim: int = 3) -> dict[str, Any]:
    return dict(
        contype=jaco_arm.ROBOT_CONTYPE,
        conaffinity=jaco_arm.ROBOT_CONAFFINITY,
        condim=condim,
        solimp=list(jaco_arm.CONTACT_SOLIMP),
        solref=list(jaco_arm.CONTACT_SOLREF),
    )
