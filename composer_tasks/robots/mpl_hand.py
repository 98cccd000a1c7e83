"""An anthropomorphic hand with the kinematics of the Modular Prosthetic Limb (MPL).

The D4PG paper's dexterous manipulation tasks (Barth-Maron et al. 2018, Appendix E)
use a simulated MPL hand: 22 degrees of freedom, 19 in the fingers and 3 in the
wrist, driven by 13 position actuators (PD servos), the finger joints coupled so
that the hand is under-actuated, the wrist at a fixed place above a table. Those
numbers come from the paper. Which joints are actuated and which follow them is
the MPL's published layout (Johannes et al. 2011, cited there): the wrist's
pronation, deviation and flexion, the thumb's four joints, the index finger's
abduction and knuckle, the middle and ring fingers' knuckles and the little
finger's abduction and knuckle are actuated (13); every middle and end joint of
the four fingers follows its knuckle, and the ring finger's abduction follows
the little finger's (9 coupled joints, by equality constraints).

This project's choices, not the paper's: the geometry is primitives (a box palm,
capsule phalanges) sized to an adult human hand; masses sum to about 0.42 kg; the
joint ranges are human ranges of motion; the coupling ratios (middle joint 1.0,
end joint 0.8 of the knuckle; ring abduction 0.5 of the little finger's) follow
the usual human finger synergy; servo gains hold the hand against gravity.

Frames (metres, radians): in the palm's frame the fingers point along +x, the
palm's grasping side faces -z and the thumb sits on +y (a right hand). The
entity's root is the wrist; it is mounted so that wrist pronation 0 holds the palm
vertical (thumb up), -pi/2 palm down and +pi/2 palm up.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from composer_tasks import composer, mjcf
from composer_tasks.composer.observation import observable

# Wrist (rad): pronation-supination about the forearm axis, ulnar-radial deviation
# in the palm's plane, flexion-extension towards the palm.
WRIST_JOINTS = (
    ("wrist_pronation", (1.0, 0.0, 0.0), (-np.pi / 2, np.pi / 2)),
    ("wrist_deviation", (0.0, 0.0, 1.0), (np.deg2rad(-15.0), np.deg2rad(30.0))),
    ("wrist_flexion", (0.0, 1.0, 0.0), (np.deg2rad(-60.0), np.deg2rad(60.0))),
)
# Palm: half-extents (m) along x (length), y (width), z (thickness) and its mass (kg).
PALM_HALF_EXTENTS_M = (0.05, 0.042, 0.014)
PALM_MASS_KG = 0.25
# Fingers: name, knuckle offset across the palm (m, +y towards the thumb), the
# three phalanx lengths (m) and whether the knuckle abducts.
FINGERS = (
    ("index", 0.028, (0.040, 0.024, 0.020), True),
    ("middle", 0.009, (0.045, 0.028, 0.021), False),
    ("ring", -0.010, (0.042, 0.026, 0.020), True),
    ("little", -0.029, (0.033, 0.020, 0.018), True),
)
PHALANX_RADII_M = (0.0095, 0.0085, 0.0075)
PHALANX_MASSES_KG = (0.016, 0.010, 0.007)
# Thumb: metacarpal, proximal and distal lengths (m); its base on the palm (m).
THUMB_LENGTHS_M = (0.040, 0.032, 0.026)
THUMB_RADII_M = (0.012, 0.010, 0.009)
THUMB_MASSES_KG = (0.025, 0.014, 0.009)
THUMB_BASE_M = (-0.025, 0.036, -0.006)
# Human ranges of motion (rad).
ABDUCTION_RANGE = (np.deg2rad(-20.0), np.deg2rad(20.0))
KNUCKLE_RANGE = (np.deg2rad(-10.0), np.deg2rad(90.0))
MIDDLE_RANGE = (0.0, np.deg2rad(100.0))
END_RANGE = (0.0, np.deg2rad(80.0))
THUMB_RANGES = (
    ("thumb_abduction", (0.0, np.deg2rad(90.0))),
    ("thumb_rotation", (0.0, np.deg2rad(60.0))),
    ("thumb_knuckle", (0.0, np.deg2rad(60.0))),
    ("thumb_end", (0.0, np.deg2rad(80.0))),
)
# Coupled joints follow their driver: q_follower = ratio * q_driver.
MIDDLE_RATIO = 1.0
END_RATIO = 0.8
RING_ABDUCTION_RATIO = 0.5
# Position servos: stiffness (N m/rad) and force limits (N m).
WRIST_KP, WRIST_FORCE_LIMIT = 20.0, 6.0
FINGER_KP, FINGER_FORCE_LIMIT = 1.5, 1.0
JOINT_DAMPING = 0.05
JOINT_ARMATURE = 0.001
WRIST_DAMPING = 0.5
WRIST_LINK_MASS_KG = 0.02
WRIST_LINK_INERTIA = 2e-6

_SKIN = (0.85, 0.72, 0.6, 1.0)
_DARK = (0.25, 0.25, 0.28, 1.0)

NUM_JOINTS = 22
NUM_ACTUATORS = 13


class MPLHandObservables(composer.Observables):
    """The hand's 22 joint angles (rad), 22 joint velocities (rad/s), 13 actuator
    position targets (rad) and 5 fingertip touch readings (N)."""

    _entity: MPLHand

    @composer.observable
    def actuator_targets(self) -> observable.MJCFFeature:
        return observable.MJCFFeature("ctrl", list(self._entity.actuators))

    @composer.observable
    def fingertip_touch(self) -> observable.MJCFFeature:
        return observable.MJCFFeature("sensordata", list(self._entity.touch_sensors))

    @composer.observable
    def joint_positions(self) -> observable.MJCFFeature:
        return observable.MJCFFeature("qpos", list(self._entity.joints))

    @composer.observable
    def joint_velocities(self) -> observable.MJCFFeature:
        return observable.MJCFFeature("qvel", list(self._entity.joints))


class MPLHand(composer.Entity):
    """The hand: 22 hinge joints, 13 position actuators, 5 fingertip touch sensors.

    Args:
      name: the entity's name (its elements' prefix once attached).
    """

    def _build(self, name: str = "mpl_hand") -> None:
        model = mjcf.RootElement(model=name)
        model.compiler.angle = "radian"
        defaults: Any = model.default
        defaults.joint.damping = JOINT_DAMPING
        defaults.joint.armature = JOINT_ARMATURE
        defaults.geom.rgba = _SKIN
        defaults.geom.condim = 4
        defaults.geom.friction = [1.0, 0.02, 0.001]
        self._mjcf_root = model
        self._joints: list = []
        self._actuators: list = []
        self._touch_sensors: list = []
        self._fingertip_sites: list = []

        parent = model.worldbody
        for joint_name, axis, joint_range in WRIST_JOINTS:
            parent = parent.add("body", name=joint_name.replace("wrist_", "wrist_link_"))
            joint = parent.add("joint", name=joint_name, type="hinge", axis=axis, range=joint_range)
            joint.damping = WRIST_DAMPING
            if joint_name != WRIST_JOINTS[-1][0]:
                # The wrist's small carpal links between its three axes.
                parent.add(
                    "inertial",
                    pos=[0.0, 0.0, 0.0],
                    mass=WRIST_LINK_MASS_KG,
                    diaginertia=[WRIST_LINK_INERTIA] * 3,
                )
            self._add_servo(joint, WRIST_KP, WRIST_FORCE_LIMIT)
        self._palm = parent
        hx, hy, hz = PALM_HALF_EXTENTS_M
        self._palm_geom = parent.add(
            "geom",
            name="palm",
            type="box",
            pos=[hx, 0.0, 0.0],
            size=[hx, hy, hz],
            mass=PALM_MASS_KG,
            rgba=_DARK,
        )
        # The centre of the palm's grasping face: where a caught object rests.
        self._palm_site = parent.add("site", name="palm_centre", pos=[hx, 0.0, -hz], size=[0.01])

        drivers: dict[str, Any] = {}
        for finger, offset, lengths, abducts in FINGERS:
            link = parent.add("body", name=f"{finger}_0", pos=[2 * hx, offset, 0.0])
            if abducts:
                # Abduction (about the palm's normal) and the knuckle share the first link.
                drivers[f"{finger}_abduction"] = link.add(
                    "joint",
                    name=f"{finger}_abduction",
                    type="hinge",
                    axis=[0.0, 0.0, 1.0],
                    range=ABDUCTION_RANGE,
                )
            for segment, (length, radius, mass, joint_range) in enumerate(
                zip(
                    lengths,
                    PHALANX_RADII_M,
                    PHALANX_MASSES_KG,
                    (KNUCKLE_RANGE, MIDDLE_RANGE, END_RANGE),
                )
            ):
                if segment:
                    link = link.add(
                        "body", name=f"{finger}_{segment}", pos=[lengths[segment - 1], 0.0, 0.0]
                    )
                joint_name = f"{finger}_" + ("knuckle", "middle", "end")[segment]
                # Flexion about +y turns the finger from +x towards the palm's side, -z.
                drivers[joint_name] = link.add(
                    "joint", name=joint_name, type="hinge", axis=[0.0, 1.0, 0.0], range=joint_range
                )
                link.add(
                    "geom",
                    name=f"{finger}_phalanx_{segment}",
                    type="capsule",
                    fromto=[0.0, 0.0, 0.0, length - radius, 0.0, 0.0],
                    size=[radius],
                    mass=mass,
                )
            self._add_fingertip(link, finger, lengths[-1], PHALANX_RADII_M[-1])

        # Thumb: abduction (out of the palm's plane) and rotation (across the palm,
        # opposition) at its base, then the knuckle and the end joint bend it.
        link = parent.add("body", name="thumb_0", pos=THUMB_BASE_M, euler=[0.0, 0.0, 0.6])
        thumb_axes = ([1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, 1.0, 0.0], [0.0, 1.0, 0.0])
        thumb_joints = [
            link.add("joint", name=joint_name, type="hinge", axis=axis, range=joint_range)
            for (joint_name, joint_range), axis in zip(THUMB_RANGES[:2], thumb_axes[:2])
        ]
        for segment, (length, radius, mass) in enumerate(
            zip(THUMB_LENGTHS_M, THUMB_RADII_M, THUMB_MASSES_KG)
        ):
            if segment:
                link = link.add(
                    "body", name=f"thumb_{segment}", pos=[THUMB_LENGTHS_M[segment - 1], 0.0, 0.0]
                )
                joint_name, joint_range = THUMB_RANGES[segment + 1]
                thumb_joints.append(
                    link.add(
                        "joint",
                        name=joint_name,
                        type="hinge",
                        axis=thumb_axes[segment + 1],
                        range=joint_range,
                    )
                )
            link.add(
                "geom",
                name=f"thumb_phalanx_{segment}",
                type="capsule",
                fromto=[0.0, 0.0, 0.0, length - radius, 0.0, 0.0],
                size=[radius],
                mass=mass,
            )
        for joint in thumb_joints:
            self._add_servo(joint, FINGER_KP, FINGER_FORCE_LIMIT)
        self._add_fingertip(link, "thumb", THUMB_LENGTHS_M[-1], THUMB_RADII_M[-1])

        # Actuated finger joints in the MPL's order, then the couplings.
        for joint_name in (
            "index_abduction",
            "index_knuckle",
            "middle_knuckle",
            "ring_knuckle",
            "little_abduction",
            "little_knuckle",
        ):
            self._add_servo(drivers[joint_name], FINGER_KP, FINGER_FORCE_LIMIT)
        for finger, _, _, _ in FINGERS:
            for follower, ratio in (("middle", MIDDLE_RATIO), ("end", END_RATIO)):
                self._couple(drivers[f"{finger}_{follower}"], drivers[f"{finger}_knuckle"], ratio)
        self._couple(drivers["ring_abduction"], drivers["little_abduction"], RING_ABDUCTION_RATIO)
        self._joints = model.find_all("joint")

    def _add_servo(self, joint: Any, kp: float, force_limit: float) -> None:
        actuator = self._mjcf_root.actuator.add(
            "position",
            name=joint.name,
            joint=joint,
            kp=kp,
            ctrlrange=joint.range,
            forcerange=[-force_limit, force_limit],
        )
        self._actuators.append(actuator)

    def _couple(self, follower: Any, driver: Any, ratio: float) -> None:
        self._mjcf_root.equality.add(
            "joint",
            name=f"couple_{follower.name}",
            joint1=follower,
            joint2=driver,
            polycoef=[0.0, ratio, 0.0, 0.0, 0.0],
        )

    def _add_fingertip(self, link: Any, finger: str, length: float, radius: float) -> None:
        site = link.add(
            "site",
            name=f"{finger}_tip",
            type="sphere",
            pos=[length - radius, 0.0, -0.3 * radius],
            size=[radius * 1.1],
            rgba=[0.9, 0.4, 0.4, 0.3],
        )
        self._fingertip_sites.append(site)
        self._touch_sensors.append(
            self._mjcf_root.sensor.add("touch", name=f"{finger}_touch", site=site)
        )

    def _build_observables(self) -> MPLHandObservables:
        return MPLHandObservables(self)

    @property
    def mjcf_model(self) -> mjcf.RootElement:
        return self._mjcf_root

    @property
    def joints(self) -> tuple:
        """The 22 hinge joints, wrist first."""
        return tuple(self._joints)

    @property
    def actuators(self) -> tuple:
        """The 13 position actuators (targets in rad)."""
        return tuple(self._actuators)

    @property
    def touch_sensors(self) -> tuple:
        """Touch sensors on the thumb's and each finger's tip pad."""
        return tuple(self._touch_sensors)

    @property
    def fingertip_sites(self) -> tuple:
        return tuple(self._fingertip_sites)

    @property
    def palm(self) -> Any:
        """The palm's body."""
        return self._palm

    @property
    def palm_geom(self) -> Any:
        return self._palm_geom

    @property
    def palm_site(self) -> Any:
        """A site at the centre of the palm's grasping face."""
        return self._palm_site
