"""The multi-legged creature of the dm_control paper's tutorial (§5.4), built with MjSpec.

An ellipsoid torso with `num_legs` legs spaced evenly around it. Each leg is an
entity of its own (a thigh swinging about a vertical hip joint and a shin
swinging about a horizontal knee joint, both driven by position actuators) attached
at a site on the torso's rim.
"""

from __future__ import annotations

import mujoco
import numpy as np
from numpy.typing import ArrayLike

from composer_tasks import composer
from composer_tasks.composer.observation import observable

_TORSO_RADIUS_M = 0.1
_LEG_LENGTH_M = 0.2
_LEG_RADIUS_M = _LEG_LENGTH_M / 5
# Position-servo gain (N m / rad) of both leg actuators.
_SERVO_GAIN = 10.0


class Leg(composer.Entity):
    """One leg: a hip (about z) and a knee (about y), each with a position actuator."""

    def _build(
        self,
        name: str = "leg",
        length: float = _LEG_LENGTH_M,
        rgba: ArrayLike = (0.5, 0.5, 0.5, 1.0),
    ) -> None:
        spec = mujoco.MjSpec()
        spec.modelname = name
        thigh = spec.worldbody.add_body(name="thigh")
        self._hip = thigh.add_joint(name="hip", axis=[0.0, 0.0, 1.0])
        thigh.add_geom(
            name="thigh",
            type=mujoco.mjtGeom.mjGEOM_CAPSULE,
            fromto=[0.0, 0.0, 0.0, length, 0.0, 0.0],
            size=[_LEG_RADIUS_M, 0.0, 0.0],
            rgba=rgba,
        )
        shin = thigh.add_body(name="shin", pos=[length, 0.0, 0.0])
        self._knee = shin.add_joint(name="knee", axis=[0.0, 1.0, 0.0])
        shin.add_geom(
            name="shin",
            type=mujoco.mjtGeom.mjGEOM_CAPSULE,
            fromto=[0.0, 0.0, 0.0, 0.0, 0.0, -length],
            size=[_LEG_RADIUS_M, 0.0, 0.0],
            rgba=rgba,
        )
        self._actuators: list[mujoco.MjsActuator] = []
        for joint_name in ("hip", "knee"):
            actuator = spec.add_actuator(
                name=joint_name,
                target=joint_name,
                trntype=mujoco.mjtTrn.mjTRN_JOINT,
                ctrllimited=1,
                ctrlrange=[-1.0, 1.0],
            )
            actuator.set_to_position(kp=_SERVO_GAIN)
            self._actuators.append(actuator)
        self._spec = spec

    @property
    def joints(self) -> tuple[mujoco.MjsJoint, ...]:
        return (self._hip, self._knee)

    @property
    def actuators(self) -> tuple[mujoco.MjsActuator, ...]:
        return tuple(self._actuators)


class CreatureObservables(composer.Observables):
    """The creature's observables: its leg joints' angles and velocities, its pose."""

    _entity: Creature

    @composer.observable
    def joint_positions(self) -> observable.MJCFFeature:
        """Hip and knee angles of every leg (radians), in leg order."""
        return observable.MJCFFeature("qpos", list(self._entity.joints))

    @composer.observable
    def joint_velocities(self) -> observable.MJCFFeature:
        """Hip and knee angular velocities of every leg (rad/s), in leg order."""
        return observable.MJCFFeature("qvel", list(self._entity.joints))


class Creature(composer.Entity):
    """A creature with `num_legs` legs, each leg coloured at random.

    Args:
      num_legs: number of legs (>= 1).
      random_state: a `np.random.RandomState` for the leg colours.
      name: the entity's name.
    """

    def _build(
        self,
        num_legs: int = 4,
        random_state: np.random.RandomState | None = None,
        name: str = "creature",
    ) -> None:
        if (
            isinstance(num_legs, bool)
            or not isinstance(num_legs, (int, np.integer))
            or num_legs < 1
        ):
            raise ValueError(f"num_legs must be an integer >= 1, got {num_legs!r}")
        random_state = random_state if random_state is not None else np.random.RandomState(0)
        spec = mujoco.MjSpec()
        spec.modelname = name
        rgba = np.append(random_state.uniform(size=3), 1.0)
        torso = spec.worldbody.add_body(name="torso")
        torso.add_geom(
            name="torso",
            type=mujoco.mjtGeom.mjGEOM_ELLIPSOID,
            size=[_TORSO_RADIUS_M, _TORSO_RADIUS_M, _TORSO_RADIUS_M / 2],
            rgba=rgba,
        )
        self._spec = spec
        self._legs: list[Leg] = []
        for index in range(num_legs):
            theta = 2 * np.pi * index / num_legs
            site = torso.add_site(
                name=f"hip_site_{index}",
                pos=[_TORSO_RADIUS_M * np.cos(theta), _TORSO_RADIUS_M * np.sin(theta), 0.0],
                quat=[np.cos(theta / 2), 0.0, 0.0, np.sin(theta / 2)],
            )
            leg = Leg(name=f"leg{index}", rgba=np.append(random_state.uniform(size=3), 1.0))
            self.attach(leg, site)
            self._legs.append(leg)

    def _build_observables(self) -> CreatureObservables:
        return CreatureObservables(self)

    @property
    def legs(self) -> tuple[Leg, ...]:
        return tuple(self._legs)

    @property
    def joints(self) -> tuple[mujoco.MjsJoint, ...]:
        return tuple(joint for leg in self._legs for joint in leg.joints)

    @property
    def actuators(self) -> tuple[mujoco.MjsActuator, ...]:
        return tuple(actuator for leg in self._legs for actuator in leg.actuators)
