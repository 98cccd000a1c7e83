"""The abstract robot arm and hand (dm_control's `entities.manipulators.base`).

A `RobotArm` is a chain of joints ending in a wrist site where a hand attaches;
it offers what the manipulation tasks and `ToolCenterPointInitializer` need of any
arm: drawing joint angles and moving a site to a pose by inverse kinematics. A
`RobotHand` offers a tool centre point and a way to set its grasp. `JacoArm` and
`JacoHand` (composer_tasks.robots) are the concrete ones, as in dm_control.
"""

import abc
from collections.abc import Sequence
from typing import Any

import mujoco
import numpy as np

from composer_tasks import composer, mjcf
from composer_tasks.composer.observation import observable
from composer_tasks.composer.robot import DOWN_QUATERNION
from composer_tasks.physics import Physics
from composer_tasks.utils import inverse_kinematics

__all__ = ["DOWN_QUATERNION", "JointsObservables", "RobotArm", "RobotHand"]


class JointsObservables(composer.Observables):
    """The joints' positions (`qpos`) and velocities (`qvel`) of any robot whose
    `joints` property lists its joints: rad and rad/s for hinges, m and m/s for
    slides, one value per joint."""

    @composer.observable
    def joints_pos(self) -> observable.MJCFFeature:
        return observable.MJCFFeature("qpos", self._entity.joints)

    @composer.observable
    def joints_vel(self) -> observable.MJCFFeature:
        return observable.MJCFFeature("qvel", self._entity.joints)


class RobotArm(composer.Robot, metaclass=abc.ABCMeta):
    """A robot arm: `joints` from base to wrist and a `wrist_site` where a hand
    attaches (`attach` puts a child there by default).

    Subclasses implement `_build`, `joints`, `wrist_site` and `actuators`.
    """

    def _build_observables(self) -> composer.Observables:
        return JointsObservables(self)

    @property
    @abc.abstractmethod
    def joints(self) -> Sequence[Any]:
        """The arm's joint elements, base to wrist."""
        raise NotImplementedError

    @property
    @abc.abstractmethod
    def wrist_site(self) -> Any:
        """The site at the end of the arm, where a hand attaches."""
        raise NotImplementedError

    @property
    def attachment_site(self) -> Any:
        """The wrist site: where `attach` puts a child by default."""
        return self.wrist_site

    def joint_sampling_bounds(self, physics: Physics) -> np.ndarray:
        """(2, number of joints) lower and upper positions to draw joints from: a
        limited joint's range, [0, 2 pi) for an unlimited hinge (rad).

        Raises:
          RuntimeError: a joint that is not a hinge has no limits (dm_control's
            error: there is no range to draw it from).
        """
        bound = physics.bind(self.joints)
        bounds = np.array(bound.range, dtype=np.float64, copy=True).reshape(-1, 2)
        hinge = np.asarray(bound.type).reshape(-1) == mujoco.mjtJoint.mjJNT_HINGE
        limited = np.asarray(bound.limited).reshape(-1).astype(bool)
        unbounded = ~hinge & ~limited
        if np.any(unbounded):
            joints = list(self.joints)
            names = ", ".join(repr(joints[int(i)].name) for i in np.flatnonzero(unbounded))
            raise RuntimeError(
                f"{type(self).__name__} {self.name!r}: every joint that is not a hinge must "
                f"be limited to draw its position; unbounded: {names}"
            )
        bounds[hinge & ~limited] = (0.0, 2 * np.pi)
        return bounds.T

    def randomize_arm_joints(self, physics: Physics, random_state: np.random.RandomState) -> None:
        """Sets every joint to a position drawn uniformly from
        `joint_sampling_bounds` (one `random_state.uniform` call, as dm_control)."""
        lower, upper = self.joint_sampling_bounds(physics)
        physics.bind(self.joints).qpos = random_state.uniform(lower, upper)

    def set_site_to_xpos(
        self,
        physics: Physics,
        random_state: np.random.RandomState,
        site: Any,
        target_pos: Any,
        target_quat: Any = None,
        max_ik_attempts: int = 10,
    ) -> bool:
        """Moves the arm's joints (inverse kinematics, written in place) so that
        `site` (an element or its full name) reaches world position `target_pos` (m)
        with orientation `target_quat` ([w, x, y, z]; None: pointing down); after
        each failed attempt the joints are drawn anew (`randomize_arm_joints`), up to
        `max_ik_attempts`. The angles found are shifted by whole turns into
        `joint_sampling_bounds`. Returns whether the pose was reached. dm_control's
        `RobotArm.set_site_to_xpos`, with its solver settings (rotation weight 2).

        Raises:
          ValueError: `site` is neither an element nor a string.
        """
        if isinstance(site, str):
            site_name = site
        elif isinstance(site, mjcf.Element):
            site_name = site.full_identifier
        else:
            raise ValueError(f"site should be an mjcf.Element or a site's full name, got {site!r}")
        if target_quat is None:
            target_quat = DOWN_QUATERNION
        lower, upper = self.joint_sampling_bounds(physics)
        joint_names = [joint.full_identifier for joint in self.joints]
        success = False
        for _ in range(max_ik_attempts):
            success = inverse_kinematics.qpos_from_site_pose(
                physics=physics,
                site_name=site_name,
                target_pos=target_pos,
                target_quat=target_quat,
                joint_names=joint_names,
                rot_weight=2,
                inplace=True,
            ).success
            if success:
                # Whole turns, joint by joint, as dm_control canonicalises.
                for joint, low, high in zip(self.joints, lower, upper):
                    bound = physics.bind(joint)
                    while bound.qpos >= high:
                        bound.qpos -= 2 * np.pi
                    while bound.qpos < low:
                        bound.qpos += 2 * np.pi
                        if bound.qpos > high:
                            success = False
                            break
            if success or max_ik_attempts <= 1:
                break
            self.randomize_arm_joints(physics, random_state)
        return bool(success)


class RobotHand(composer.Robot, metaclass=abc.ABCMeta):
    """A robot hand: a `tool_center_point` site and `set_grasp`.

    Subclasses implement `_build`, `tool_center_point`, `set_grasp` and `actuators`.
    """

    @property
    @abc.abstractmethod
    def tool_center_point(self) -> Any:
        """The site the hand acts at (what `ToolCenterPointInitializer` moves)."""
        raise NotImplementedError

    @abc.abstractmethod
    def set_grasp(self, physics: Physics, close_factors: Any) -> None:
        """Sets the fingers' positions: 0 fully open, 1 fully closed; one number for
        every finger or one per finger."""
        raise NotImplementedError
