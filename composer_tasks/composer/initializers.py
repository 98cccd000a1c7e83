"""Initializers: callables that set part of the initial state of an episode.

Tasks call them from `initialize_episode(physics, random_state)`:

* `PropPlacer` places free props at sampled poses, rejecting poses in which a
  prop penetrates anything (rejection sampling), and optionally lets them settle
  under gravity while every other joint stays where it was.
* `ToolCenterPointInitializer` moves an arm so that its hand's tool centre point
  reaches a sampled pose, by inverse kinematics through MuJoCo's site Jacobian
  (`qpos_from_site_pose`), rejecting poses whose solution makes the robot touch
  itself or a fixed body.

They follow dm_control's `composer.initializers` (dm-control 1.0.50) in
behaviour and defaults; the code is this project's.
"""

from typing import Any, Optional, Sequence

import mujoco
import numpy as np
from numpy.typing import ArrayLike

from composer_tasks.composer import entity as entity_module
from composer_tasks.composer.variation import base as variation_base
from composer_tasks.physics import Physics, PhysicsError

# dm_control's defaults: settled when every prop joint moves slower than 1e-3
# (m/s or rad/s) and accelerates less than 1e-2, within 2 s of simulated time.
_SETTLE_QVEL_TOL = 1e-3
_SETTLE_QACC_TOL = 1e-2
# Physics steps between two settling checks: the checks are Python and the
# steps are one MuJoCo call, so checking every few steps settles ~5x faster
# while stopping at most this many steps later than a check after every step.
_SETTLE_CHECK_EVERY_STEPS = 5

# Inverse kinematics defaults (dm_control utils/inverse_kinematics.py).
_IK_TOLERANCE = 1e-14
_IK_MAX_STEPS = 100
_IK_ROTATION_WEIGHT = 1.0
_IK_REGULARIZATION_THRESHOLD = 0.1
_IK_REGULARIZATION_STRENGTH = 3e-2
_IK_MAX_UPDATE_NORM = 2.0
_IK_PROGRESS_THRESHOLD = 20.0

_IDENTITY_QUATERNION = np.array([1.0, 0.0, 0.0, 0.0])

# A value an initializer draws: an array or number, or a `Variation`, callable or
# nested structure of them that `variation.evaluate` turns into one (hence Any).
Sampled = Any


class EpisodeInitializationError(RuntimeError):
    """An initializer could not find a valid initial state within its attempts."""


def _evaluate(
    value: Sampled,
    random_state: np.random.RandomState,
    initial_value: np.ndarray | None = None,
    current_value: np.ndarray | None = None,
) -> np.ndarray:
    return np.asarray(
        variation_base.evaluate(
            value,
            initial_value=initial_value,
            current_value=current_value,
            random_state=random_state,
        ),
        dtype=np.float64,
    )


def _entity_body_ids(physics: Physics, entity: entity_module.Entity) -> np.ndarray:
    """Ids of the attachment body of `entity` and every body below it."""
    model = physics.model
    if entity.attachment_body is None:
        return np.arange(model.nbody)
    top = physics.bind(entity.attachment_body).id
    ids = [body for body in range(model.nbody) if body == top or _is_descendant(model, body, top)]
    return np.array(ids, dtype=np.int64)


def _is_descendant(model: mujoco.MjModel, body: int, ancestor: int) -> bool:
    while body > 0:
        body = model.body_parentid[body]
        if body == ancestor:
            return True
    return False


def geoms_of(physics: Physics, entity: entity_module.Entity) -> np.ndarray:
    """Ids of the geoms on the bodies of `entity` (attachment body and below)."""
    bodies = _entity_body_ids(physics, entity)
    return np.flatnonzero(np.isin(physics.model.geom_bodyid, bodies))


class PropPlacer:
    """Places free props at sampled poses without interpenetration.

    Args:
      props: the entities to place, each attached with `add_free_entity` (or
        attached fixed: then its attachment body moves).
      position: a (3,) position in metres (world frame) or a variation drawing one.
      quaternion: a unit quaternion (w, x, y, z) or a variation drawing one.
      ignore_collisions: accept the first sample whatever it touches.
      max_attempts_per_prop: samples per prop before `EpisodeInitializationError`.
      settle_physics: afterwards, simulate until the props are at rest (every
        other joint is held at its position and velocity meanwhile).
      max_qvel_tol, max_qacc_tol: "at rest" thresholds of the props' joints.
      min_settle_physics_time, max_settle_physics_time: bounds (s) on settling.
      max_settle_physics_attempts: how many times to re-place when settling fails.
      raise_exception_on_settle_failure: raise instead of accepting unsettled props.
    """

    def __init__(
        self,
        props: Sequence[entity_module.Entity],
        position: Sampled,
        quaternion: Sampled = None,
        ignore_collisions: bool = False,
        max_qvel_tol: float = _SETTLE_QVEL_TOL,
        max_qacc_tol: float = _SETTLE_QACC_TOL,
        max_attempts_per_prop: int = 20,
        settle_physics: bool = False,
        min_settle_physics_time: float = 0.0,
        max_settle_physics_time: float = 2.0,
        max_settle_physics_attempts: int = 1,
        raise_exception_on_settle_failure: bool = False,
    ) -> None:
        props = list(props)
        if not props or not all(isinstance(p, entity_module.Entity) for p in props):
            raise TypeError(f"props must be a non-empty sequence of Entity, got {props!r}")
        for name, value in (
            ("max_attempts_per_prop", max_attempts_per_prop),
            ("max_settle_physics_attempts", max_settle_physics_attempts),
        ):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
                raise ValueError(f"{name} must be an integer >= 1, got {value!r}")
        if not 0 <= min_settle_physics_time <= max_settle_physics_time:
            raise ValueError(
                "settling times must satisfy 0 <= min_settle_physics_time <= "
                f"max_settle_physics_time, got {min_settle_physics_time!r}, "
                f"{max_settle_physics_time!r}"
            )
        self._props = props
        self._position = position
        self._quaternion = _IDENTITY_QUATERNION if quaternion is None else quaternion
        self._ignore_collisions = bool(ignore_collisions)
        self._max_attempts_per_prop = int(max_attempts_per_prop)
        self._settle_physics = bool(settle_physics)
        self._max_qvel_tol = float(max_qvel_tol)
        self._max_qacc_tol = float(max_qacc_tol)
        self._min_settle_time = float(min_settle_physics_time)
        self._max_settle_time = float(max_settle_physics_time)
        self._max_settle_attempts = int(max_settle_physics_attempts)
        self._raise_on_settle_failure = bool(raise_exception_on_settle_failure)
        self._cache_model = None

    def _prepare(self, physics: Physics) -> None:
        """Geom ids, their contact bits and the props' dofs (cached per model)."""
        if self._cache_model is physics.model:
            return
        model = physics.model
        self._prop_geoms = [geoms_of(physics, prop) for prop in self._props]
        self._prop_dofs = np.concatenate(
            [
                np.flatnonzero(np.isin(model.dof_bodyid, _entity_body_ids(physics, prop)))
                for prop in self._props
            ]
        ).astype(np.int64)
        self._prop_qpos = (
            np.concatenate(
                [
                    np.arange(
                        model.jnt_qposadr[j], model.jnt_qposadr[j] + _qpos_size(model.jnt_type[j])
                    )
                    for j in range(model.njnt)
                    if model.jnt_dofadr[j] in set(self._prop_dofs.tolist())
                ]
            ).astype(np.int64)
            if len(self._prop_dofs)
            else np.zeros(0, np.int64)
        )
        self._cache_model = model

    def __call__(
        self,
        physics: Physics,
        random_state: np.random.RandomState,
        ignore_contacts_with_entities: Optional[Sequence[entity_module.Entity]] = None,
    ) -> None:
        """Samples and sets the props' poses.

        Args:
          physics: the task's `Physics`.
          random_state: a `np.random.RandomState`.
          ignore_contacts_with_entities: entities (placed later) whose contacts
            do not count as collisions now.

        Raises:
          EpisodeInitializationError: when a prop found no collision-free pose.
        """
        self._prepare(physics)
        model = physics.model
        ignored = [geoms_of(physics, e) for e in (ignore_contacts_with_entities or ())]
        all_geoms = (
            np.concatenate(self._prop_geoms + ignored)
            if self._prop_geoms
            else np.zeros(0, np.int64)
        )
        saved = (model.geom_contype[all_geoms].copy(), model.geom_conaffinity[all_geoms].copy())
        # Unplaced props and ignored entities take no part in contacts meanwhile.
        model.geom_contype[all_geoms] = 0
        model.geom_conaffinity[all_geoms] = 0
        try:
            for _ in range(self._max_settle_attempts):
                self._place(physics, random_state, all_geoms, saved)
                if not self._settle_physics or self._settle(physics):
                    return
            if self._raise_on_settle_failure:
                raise EpisodeInitializationError(
                    f"props {[p.name for p in self._props]} did not settle within "
                    f"{self._max_settle_time} s in {self._max_settle_attempts} attempt(s)"
                )
        finally:
            model.geom_contype[all_geoms] = saved[0]
            model.geom_conaffinity[all_geoms] = saved[1]

    def _place(
        self,
        physics: Physics,
        random_state: np.random.RandomState,
        all_geoms: np.ndarray,
        saved: tuple[np.ndarray, np.ndarray],
    ) -> None:
        model = physics.model
        index = {geom: i for i, geom in enumerate(all_geoms.tolist())}
        for prop, geoms in zip(self._props, self._prop_geoms):
            rows = [index[g] for g in geoms.tolist()]
            model.geom_contype[geoms] = saved[0][rows]
            model.geom_conaffinity[geoms] = saved[1][rows]
            initial_position, initial_quaternion = prop.get_pose(physics)
            position, quaternion = initial_position, initial_quaternion
            for _ in range(self._max_attempts_per_prop):
                position = _evaluate(self._position, random_state, initial_position, position)
                quaternion = _evaluate(
                    self._quaternion, random_state, initial_quaternion, quaternion
                )
                prop.set_pose(physics, position, quaternion)
                try:
                    physics.forward()
                except PhysicsError:
                    continue
                if self._ignore_collisions or not _penetrates(physics, geoms):
                    break
            else:
                raise EpisodeInitializationError(
                    f"no collision-free pose for prop {prop.name!r} in "
                    f"{self._max_attempts_per_prop} attempts"
                )

    def _settle(self, physics: Physics) -> bool:
        """Steps until the props rest; other joints are held. True if they rested."""
        data = physics.data
        model = physics.model
        others_qpos = np.setdiff1d(np.arange(model.nq), self._prop_qpos)
        others_dof = np.setdiff1d(np.arange(model.nv), self._prop_dofs)
        held_qpos = data.qpos[others_qpos].copy()
        held_qvel = data.qvel[others_dof].copy()
        start_time = data.time
        try:
            while data.time - start_time < self._max_settle_time:
                physics.step(_SETTLE_CHECK_EVERY_STEPS)
                data.qpos[others_qpos] = held_qpos
                data.qvel[others_dof] = held_qvel
                if len(self._prop_dofs) == 0:
                    return True
                rested = (
                    np.max(np.abs(data.qvel[self._prop_dofs])) < self._max_qvel_tol
                    and np.max(np.abs(data.qacc[self._prop_dofs])) < self._max_qacc_tol
                )
                if rested and data.time - start_time > self._min_settle_time:
                    return True
            return False
        finally:
            data.time = start_time
            physics.forward()


def _qpos_size(joint_type: int) -> int:
    return {int(mujoco.mjtJoint.mjJNT_FREE): 7, int(mujoco.mjtJoint.mjJNT_BALL): 4}.get(
        int(joint_type), 1
    )


def _penetrates(physics: Physics, geoms: np.ndarray) -> bool:
    """True if any active contact with penetration (dist <= 0) involves `geoms`."""
    contact = physics.data.contact
    if len(contact.dist) == 0:
        return False
    touching = contact.dist <= 0
    involved = np.isin(contact.geom1, geoms) | np.isin(contact.geom2, geoms)
    return bool(np.any(touching & involved))


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
    """Moves `dofs` so that `site` reaches a pose, by damped least squares on MuJoCo's
    site Jacobian (`mj_jacSite`), writing `physics.data.qpos` in place.

    The error is the position error (m) plus `rotation_weight` times the rotation
    error (rad; `mju_quat2Vel` of target * site^-1). Each step solves
    J dq = err, regularised by 3e-2 while the error exceeds 0.1, clips |dq| to 2,
    and stops when the error is below `tolerance` or progress stalls
    (error / |dq| > 20), as dm_control's `inverse_kinematics.qpos_from_site_pose`.

    Args:
      physics: a `Physics`; its positions and kinematics are updated in place.
      site: a `mujoco.MjsSite`, a PyMJCF site handle or a site id.
      target_pos: (3,) world position in metres.
      target_quat: None or a (4,) unit quaternion (w, x, y, z), world frame.
      dofs: indices of the dofs allowed to move (default: all).

    Returns:
      True if the error fell below `tolerance`.
    """
    model, data = physics.model, physics.data
    site = getattr(site, "spec_element", site)  # a PyMJCF handle's spec element
    site_id = site if isinstance(site, (int, np.integer)) else physics.bind(site).id
    dofs = np.arange(model.nv) if dofs is None else np.asarray(dofs, dtype=np.int64)
    target_pos = np.asarray(target_pos, dtype=np.float64)
    if target_pos.shape != (3,):
        raise ValueError(f"target_pos must have shape (3,), got {target_pos.shape}")
    if target_quat is not None:
        target_quat = np.asarray(target_quat, dtype=np.float64)
        if target_quat.shape != (4,):
            raise ValueError(f"target_quat must have shape (4,), got {target_quat.shape}")
    jac_pos = np.empty((3, model.nv))
    jac_rot = np.empty((3, model.nv))
    site_quat = np.empty(4)
    inverse = np.empty(4)
    error_quat = np.empty(4)
    error_rot = np.empty(3)
    update = np.zeros(model.nv)
    _kinematics(model, data)
    for _ in range(max_steps):
        error_pos = target_pos - data.site_xpos[site_id]
        error_norm = np.linalg.norm(error_pos)
        if target_quat is not None:
            mujoco.mju_mat2Quat(site_quat, data.site_xmat[site_id])
            mujoco.mju_negQuat(inverse, site_quat)
            mujoco.mju_mulQuat(error_quat, target_quat, inverse)
            mujoco.mju_quat2Vel(error_rot, error_quat, 1.0)
            error_norm += np.linalg.norm(error_rot) * rotation_weight
        if error_norm < tolerance:
            return True
        mujoco.mj_jacSite(model, data, jac_pos, jac_rot, site_id)
        if target_quat is not None:
            jacobian = np.vstack([jac_pos[:, dofs], jac_rot[:, dofs]])
            error = np.concatenate([error_pos, error_rot])
        else:
            jacobian, error = jac_pos[:, dofs], error_pos
        strength = _IK_REGULARIZATION_STRENGTH if error_norm > _IK_REGULARIZATION_THRESHOLD else 0.0
        hessian = jacobian.T @ jacobian + strength * np.eye(len(dofs))
        step = (
            np.linalg.solve(hessian, jacobian.T @ error)
            if strength
            else np.linalg.lstsq(hessian, jacobian.T @ error, rcond=None)[0]
        )
        step_norm = np.linalg.norm(step)
        if step_norm == 0 or error_norm / step_norm > _IK_PROGRESS_THRESHOLD:
            return False
        if step_norm > _IK_MAX_UPDATE_NORM:
            step *= _IK_MAX_UPDATE_NORM / step_norm
        update[:] = 0.0
        update[dofs] = step
        mujoco.mj_integratePos(model, data.qpos, update, 1.0)
        _kinematics(model, data)
    return False


def _kinematics(model: mujoco.MjModel, data: mujoco.MjData) -> None:
    """Poses and the centres of mass the Jacobians need; no collision detection."""
    mujoco.mj_kinematics(model, data)
    mujoco.mj_comPos(model, data)


class ToolCenterPointInitializer:
    """Puts a hand's tool centre point at a sampled pose by inverse kinematics.

    The arm must offer `joints` (hinges, in chain order), `joint_sampling_bounds(physics)`
    ((2, n) lower and upper bounds, radians) and, if `hand` is None, `wrist_site`;
    the hand offers `tool_center_point`. The first IK attempt starts from the arm's
    `home_qpos` if it has one (else from the current angles), later ones from
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
        robot_geoms = geoms_of(physics, self._arm)
        hand_geoms = (
            geoms_of(physics, self._hand) if self._hand is not None else np.zeros(0, np.int64)
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
            target_pos = _evaluate(self._position, random_state)
            target_quat = _evaluate(self._quaternion, random_state)
            success = False
            for attempt in range(self._max_ik_attempts):
                if attempt > 0:
                    qpos[self._arm_qpos] = random_state.uniform(lower, upper)
                elif hasattr(self._arm, "home_qpos"):
                    qpos[self._arm_qpos] = self._arm.home_qpos
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
                if success:
                    break
            if success:
                physics.forward()
                if self._ignore_collisions or not self._has_relevant_collisions(physics):
                    return
            qpos[self._arm_qpos] = initial
        physics.forward()
        raise EpisodeInitializationError(
            f"no collision-free inverse-kinematics solution in {self._max_rejection_samples} "
            f"sampled poses x {self._max_ik_attempts} attempts"
        )


def _wrap_into(
    qpos: np.ndarray, addresses: np.ndarray, lower: np.ndarray, upper: np.ndarray
) -> bool:
    """Shifts angles by multiples of 2 pi into [lower, upper); False if one cannot be."""
    for address, low, high in zip(addresses, lower, upper):
        value = qpos[address]
        value = low + np.mod(value - low, 2 * np.pi)
        if value >= high:
            return False
        qpos[address] = value
    return True


# The orientation whose z axis points down (world -z): a hand pointing at the table.
DOWN_QUATERNION = np.array([0.0, 0.70710678118, 0.70710678118, 0.0])
