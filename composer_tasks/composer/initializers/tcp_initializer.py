"""`ToolCenterPointInitializer`: moves an arm so that its hand's tool centre point
reaches a sampled pose, by inverse kinematics through MuJoCo's site Jacobian
(`qpos_from_site_pose`), rejecting poses whose solution makes the robot touch
itself or a fixed body (dm_control's `composer.initializers.tcp_initializer`)."""

from typing import Any

import mujoco
import numpy as np
from numpy.typing import ArrayLike

from composer_tasks.composer.environment import EpisodeInitializationError
from composer_tasks.composer.initializer import Initializer
from composer_tasks.composer.initializers import utils
from composer_tasks.composer.initializers.utils import Sampled
from composer_tasks.composer.robot import DOWN_QUATERNION
from composer_tasks.physics import Physics
from composer_tasks.utils import inverse_kinematics

# The message of the `EpisodeInitializationError` raised when every sampled pose fails
# (dm_control keeps its message in a module constant of the same name, which its tests
# format to match the error).
_REJECTION_SAMPLING_FAILED = (
    "no collision-free inverse-kinematics solution in {max_rejection_samples} sampled "
    "poses x {max_ik_attempts} attempts"
)

# Inverse kinematics defaults (dm_control utils/inverse_kinematics.py).
_IK_TOLERANCE = 1e-14
_IK_MAX_STEPS = 100
_IK_ROTATION_WEIGHT = 1.0


def qpos_from_site_pose(
    physics: Physics,
    site: Any,
    target_pos: ArrayLike,
    target_quat: ArrayLike | None = None,
    dofs: ArrayLike | None = None,
    rotation_weight: float = _IK_ROTATION_WEIGHT,
    tolerance: float = _IK_TOLERANCE,
    max_steps: int = _IK_MAX_STEPS,
) -> bool:
    """Moves `dofs` so that `site` reaches a pose, writing `physics.data.qpos` in
    place: `utils.inverse_kinematics.qpos_from_site_pose`'s solve (dm_control's
    algorithm and defaults) for a site handle or id and dof indices.

    Args:
      physics: a `Physics`; its positions and kinematics are updated in place.
      site: a `mujoco.MjsSite`, a PyMJCF site or a site id.
      target_pos: (3,) world position in metres.
      target_quat: None or a (4,) unit quaternion (w, x, y, z), world frame.
      dofs: indices of the dofs allowed to move (default: all).
      rotation_weight: weight of the rotation error (rad) against the position
        error (m).

    Returns:
      True if the error fell below `tolerance`.
    """
    site = getattr(site, "spec_element", site)  # a PyMJCF handle's spec element
    site_id = site if isinstance(site, (int, np.integer)) else physics.bind(site).id
    target_pos = np.asarray(target_pos, dtype=np.float64)
    if target_pos.shape != (3,):
        raise ValueError(f"target_pos must have shape (3,), got {target_pos.shape}")
    dof_indices = slice(None) if dofs is None else np.asarray(dofs, dtype=np.int64)
    _, _, success = inverse_kinematics.solve_site_pose(
        physics.model,
        physics.data,
        int(site_id),
        target_pos,
        target_quat,
        dof_indices,
        tol=tolerance,
        rot_weight=rotation_weight,
        max_steps=max_steps,
    )
    return success


class ToolCenterPointInitializer(Initializer):
    """Puts a hand's tool centre point at a sampled pose by inverse kinematics.

    The arm must offer `joints` (hinges, in chain order), `joint_sampling_bounds(physics)`
    ((2, n) lower and upper bounds, radians) and, if `hand` is None, `wrist_site`;
    the hand offers `tool_center_point`. The first IK attempt starts from the arm's
    current angles (as dm_control's `RobotArm.set_site_to_xpos`), later ones from
    random angles within the bounds. A solution is rejected when the arm touches
    itself, the arm touches the hand, or either touches a body without a free
    joint (the table, a fixed brick); then another pose is drawn.

    Args:
      hand: the hand entity, or None to place the arm's wrist site.
      arm: the arm entity.
      position: (3,) world position (m) or a variation drawing one.
      quaternion: unit quaternion (w, x, y, z) or a variation; default pointing down.
      ignore_collisions: accept the first IK solution.
      max_ik_attempts: IK restarts (from random joint angles) per sampled pose.
      max_rejection_samples: sampled poses before `EpisodeInitializationError`.
    """

    def __init__(
        self,
        # Entities with the attributes the class docstring lists (duck-typed: robot
        # arms and hands share no class).
        hand: Any,
        arm: Any,
        position: Sampled,
        quaternion: Sampled = None,
        ignore_collisions: bool = False,
        max_ik_attempts: int = 10,
        max_rejection_samples: int = 10,
    ) -> None:
        for name, value in (
            ("max_ik_attempts", max_ik_attempts),
            ("max_rejection_samples", max_rejection_samples),
        ):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
                raise ValueError(f"{name} must be an integer >= 1, got {value!r}")
        self._hand = hand
        self._arm = arm
        self._position = position
        self._quaternion = DOWN_QUATERNION if quaternion is None else quaternion
        self._ignore_collisions = bool(ignore_collisions)
        self._max_ik_attempts = int(max_ik_attempts)
        self._max_rejection_samples = int(max_rejection_samples)
        self._cache_model = None

    def _prepare(self, physics: Physics) -> None:
        if self._cache_model is physics.model:
            return
        model = physics.model
        # The arm's joints may be PyMJCF handles (as dm_control's) or spec elements.
        joints = [getattr(j, "spec_element", j) for j in self._arm.joints]
        self._arm_dofs = np.array([model.jnt_dofadr[physics.bind(j).id] for j in joints])
        self._arm_qpos = np.array([model.jnt_qposadr[physics.bind(j).id] for j in joints])
        robot_geoms = utils.geoms_of(physics, self._arm)
        hand_geoms = (
            utils.geoms_of(physics, self._hand) if self._hand is not None else np.zeros(0, np.int64)
        )
        arm_only = np.setdiff1d(robot_geoms, hand_geoms)
        self._geom_role = np.zeros(model.ngeom, dtype=np.int8)  # 0: external free or world
        self._geom_role[arm_only] = 1
        self._geom_role[hand_geoms] = 2
        # Geoms on bodies that hang from a free joint anywhere above them.
        free_bodies = np.zeros(model.nbody, dtype=bool)
        for body in range(1, model.nbody):
            parent = model.body_parentid[body]
            has_free = any(
                model.jnt_type[j] == mujoco.mjtJoint.mjJNT_FREE
                for j in range(
                    model.body_jntadr[body], model.body_jntadr[body] + model.body_jntnum[body]
                )
            )
            free_bodies[body] = has_free or free_bodies[parent]
        external_fixed = (self._geom_role == 0) & ~free_bodies[model.geom_bodyid]
        self._geom_role[external_fixed] = 3
        site = self._hand.tool_center_point if self._hand is not None else self._arm.wrist_site
        self._site = getattr(site, "spec_element", site)
        self._cache_model = model

    def _has_relevant_collisions(self, physics: Physics) -> bool:
        contact = physics.data.contact
        if len(contact.dist) == 0:
            return False
        touching = contact.dist <= 0
        role1 = self._geom_role[contact.geom1]
        role2 = self._geom_role[contact.geom2]
        arm_arm = (role1 == 1) & (role2 == 1)
        arm_hand = ((role1 == 1) & (role2 == 2)) | ((role1 == 2) & (role2 == 1))
        robot = lambda role: (role == 1) | (role == 2)
        robot_fixed = (robot(role1) & (role2 == 3)) | ((role1 == 3) & robot(role2))
        return bool(np.any(touching & (arm_arm | arm_hand | robot_fixed)))

    def __call__(self, physics: Physics, random_state: np.random.RandomState) -> None:
        """Sets the arm's joint angles; raises `EpisodeInitializationError` on failure."""
        self._prepare(physics)
        qpos = physics.data.qpos
        initial = qpos[self._arm_qpos].copy()
        lower, upper = self._arm.joint_sampling_bounds(physics)
        for _ in range(self._max_rejection_samples):
            target_pos = utils.evaluate_as_array(self._position, random_state)
            target_quat = utils.evaluate_as_array(self._quaternion, random_state)
            success = False
            # dm_control's `RobotArm.set_site_to_xpos`: after every failed attempt
            # (the last included) the joints are drawn anew, unless only one
            # attempt is allowed; the draws keep the random stream aligned.
            for _ in range(self._max_ik_attempts):
                success = qpos_from_site_pose(
                    physics,
                    self._site,
                    target_pos,
                    target_quat,
                    dofs=self._arm_dofs,
                    rotation_weight=2.0,
                )
                if success:
                    success = _wrap_into(qpos, self._arm_qpos, lower, upper)
                if success or self._max_ik_attempts <= 1:
                    break
                qpos[self._arm_qpos] = random_state.uniform(lower, upper)
            if success:
                physics.forward()
                if self._ignore_collisions or not self._has_relevant_collisions(physics):
                    return
            qpos[self._arm_qpos] = initial
        physics.forward()
        raise EpisodeInitializationError(
            _REJECTION_SAMPLING_FAILED.format(
                max_rejection_samples=self._max_rejection_samples,
                max_ik_attempts=self._max_ik_attempts,
            )
        )


def _wrap_into(
    qpos: np.ndarray, addresses: np.ndarray, lower: np.ndarray, upper: np.ndarray
) -> bool:
    """Shifts angles by whole turns into [lower, upper); False if one cannot be.

    As dm_control's `RobotArm.set_site_to_xpos` canonicalises: turn by turn (not by
    a modulo, so that the angles are the same bits), every joint visited even after
    one fails."""
    success = True
    for address, low, high in zip(addresses, lower, upper):
        while qpos[address] >= high:
            qpos[address] -= 2 * np.pi
        while qpos[address] < low:
            qpos[address] += 2 * np.pi
            if qpos[address] > high:
                success = False
                break
    return success
