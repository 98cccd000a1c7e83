"""Inverse kinematics for a site: joint positions that put a site at a target pose
(dm_control's `utils.inverse_kinematics`, 1.0.50).

    from composer_tasks.utils import inverse_kinematics as ik

    result = ik.qpos_from_site_pose(physics, "arm/tcp", target_pos=[0.3, 0.0, 0.2])
    result.qpos, result.err_norm, result.steps, result.success

The algorithm, its defaults and its stopping rules are dm_control's
(dm_control/utils/inverse_kinematics.py): Gauss-Newton steps on MuJoCo's site
Jacobian (`mj_jacSite`), damped while the error is large, with the step clipped
and the search abandoned when the error no longer shrinks fast enough. Given the
same MuJoCo results, the joint positions, error, step count and success flag are
dm_control's, bit for bit.
"""

import copy
import logging
from collections.abc import Sequence
from typing import Any, NamedTuple

import mujoco
import numpy as np
from numpy.typing import ArrayLike

_LOG = logging.getLogger(__name__)

_INVALID_JOINT_NAMES_TYPE = (
    "`joint_names` must be either None, a list, a tuple, or a numpy array; got {}."
)
_REQUIRE_TARGET_POS_OR_QUAT = "At least one of `target_pos` or `target_quat` must be specified."


class IKResult(NamedTuple):
    """What `qpos_from_site_pose` found.

    Attributes:
      qpos: (nq,) joint positions (a copy, or `physics.data.qpos` itself when the
        solve ran in place).
      err_norm: the last error: position error (m) plus `rot_weight` times the
        rotation error (rad).
      steps: the index of the last iteration performed (0-based, as dm_control's).
      success: whether `err_norm` fell below `tol`.
    """

    qpos: np.ndarray
    err_norm: float
    steps: int
    success: bool


def nullspace_method(
    jac_joints: np.ndarray, delta: np.ndarray, regularization_strength: float = 0.0
) -> np.ndarray:
    """The joint displacement that best achieves an end-effector displacement: the
    least-squares solution of J dq = delta, damped when `regularization_strength`
    is positive (damped least squares, Buss 2004, "Introduction to inverse
    kinematics with Jacobian transpose, pseudoinverse and damped least squares
    methods").

    Args:
      jac_joints: (ndelta, nv) Jacobian of the end effector in the joints.
      delta: (ndelta,) wanted displacement (position and/or rotation).
      regularization_strength: weight of the quadratic penalty on |dq|^2; 0 solves
        the normal equations by least squares (minimum-norm on singular Jacobians).

    Returns:
      (nv,) joint displacement.
    """
    jacobian = np.asarray(jac_joints)
    normal_matrix = jacobian.T.dot(jacobian)
    rhs = jacobian.T.dot(delta)
    if regularization_strength > 0:
        normal_matrix += np.eye(normal_matrix.shape[0]) * regularization_strength
        return np.linalg.solve(normal_matrix, rhs)
    return np.linalg.lstsq(normal_matrix, rhs, rcond=-1)[0]


def solve_site_pose(
    model: mujoco.MjModel,
    data: mujoco.MjData,
    site_id: int,
    target_pos: ArrayLike | None,
    target_quat: ArrayLike | None,
    dof_indices: Any = slice(None),
    tol: float = 1e-14,
    rot_weight: float = 1.0,
    regularization_threshold: float = 0.1,
    regularization_strength: float = 3e-2,
    max_update_norm: float = 2.0,
    progress_thresh: float = 20.0,
    max_steps: int = 100,
) -> tuple[float, int, bool]:
    """`qpos_from_site_pose`'s iteration on `data` in place, for callers that hold
    ids rather than names (as `ToolCenterPointInitializer` does).

    Args:
      model, data: the MuJoCo model and the data whose `qpos` is moved; on return
        its positions are forwarded (`mj_fwdPosition`) for the final `qpos`.
      site_id: the site's id.
      dof_indices: the dofs allowed to move: a slice, or an integer index array.
      The rest: as `qpos_from_site_pose`.

    Returns:
      (err_norm, steps, success), as `IKResult`'s fields.
    """
    if target_pos is None and target_quat is None:
        raise ValueError(_REQUIRE_TARGET_POS_OR_QUAT)
    if max_steps < 1:
        # dm_control fails with UnboundLocalError here (no error was ever computed).
        raise ValueError(f"max_steps must be at least 1, got {max_steps!r}")
    dtype = data.qpos.dtype
    rows = 6 if target_pos is not None and target_quat is not None else 3
    jac = np.empty((rows, model.nv), dtype=dtype)
    err = np.empty(rows, dtype=dtype)
    # Position rows first, then rotation rows (views, which mj_jacSite fills).
    jac_pos = jac[:3] if target_pos is not None else None
    err_pos = err[:3] if target_pos is not None else None
    jac_rot = jac[rows - 3 :] if target_quat is not None else None
    err_rot = err[rows - 3 :] if target_quat is not None else None
    if target_quat is not None:
        target_quat = np.asarray(target_quat, dtype=np.float64)
        if target_quat.shape != (4,):
            raise ValueError(f"target_quat must have shape (4,), got {target_quat.shape}")
    update_nv = np.zeros(model.nv, dtype=dtype)
    site_xquat = np.empty(4, dtype=dtype)
    neg_site_xquat = np.empty(4, dtype=dtype)
    err_rot_quat = np.empty(4, dtype=dtype)

    mujoco.mj_fwdPosition(model, data)
    site_xpos = data.site_xpos[site_id]
    site_xmat = data.site_xmat[site_id]

    err_norm = 0.0
    steps = 0
    success = False
    for steps in range(max_steps):
        err_norm = 0.0
        if err_pos is not None:
            err_pos[:] = target_pos - site_xpos
            err_norm += np.linalg.norm(err_pos)
        if err_rot is not None:
            # The rotation taking the site's frame to the target's, as a velocity
            # over unit time (rad).
            mujoco.mju_mat2Quat(site_xquat, site_xmat)
            mujoco.mju_negQuat(neg_site_xquat, site_xquat)
            mujoco.mju_mulQuat(err_rot_quat, target_quat, neg_site_xquat)
            mujoco.mju_quat2Vel(err_rot, err_rot_quat, 1)
            err_norm += np.linalg.norm(err_rot) * rot_weight
        if err_norm < tol:
            _LOG.debug("Converged after %i steps: err_norm=%3g", steps, err_norm)
            success = True
            break
        mujoco.mj_jacSite(model, data, jac_pos, jac_rot, site_id)
        # Joint limits are not taken into account, as in dm_control.
        strength = regularization_strength if err_norm > regularization_threshold else 0.0
        update_joints = nullspace_method(jac[:, dof_indices], err, regularization_strength=strength)
        update_norm = np.linalg.norm(update_joints)
        # Too little progress for the step's size: stop, likely at a local minimum.
        # A zero step is infinitely little progress (dm_control divides by zero).
        if update_norm == 0 or err_norm / update_norm > progress_thresh:
            _LOG.debug(
                "Step %2i: err_norm / update_norm > %3g; halting for insufficient progress",
                steps,
                progress_thresh,
            )
            break
        if update_norm > max_update_norm:
            update_joints *= max_update_norm / update_norm
        update_nv[dof_indices] = update_joints
        # Integrates on the joints' manifolds (quaternions for ball and free joints).
        mujoco.mj_integratePos(model, data.qpos, update_nv, 1)
        mujoco.mj_fwdPosition(model, data)
        _LOG.debug("Step %2i: err_norm=%-10.3g update_norm=%-10.3g", steps, err_norm, update_norm)
    if not success and steps == max_steps - 1:
        _LOG.warning("Failed to converge after %i steps: err_norm=%3g", steps, err_norm)
    return err_norm, steps, success


def qpos_from_site_pose(
    physics: Any,
    site_name: str,
    target_pos: ArrayLike | None = None,
    target_quat: ArrayLike | None = None,
    joint_names: Sequence[str] | np.ndarray | None = None,
    tol: float = 1e-14,
    rot_weight: float = 1.0,
    regularization_threshold: float = 0.1,
    regularization_strength: float = 3e-2,
    max_update_norm: float = 2.0,
    progress_thresh: float = 20.0,
    max_steps: int = 100,
    inplace: bool = False,
) -> IKResult:
    """Joint positions that put a site at a target position and/or orientation.

    Each iteration measures the error (world frame: the position error in metres
    plus `rot_weight` times the rotation error in radians, `mju_quat2Vel` of
    target * site^-1), stops if it is below `tol`, else solves for a joint step
    with `nullspace_method` on the site Jacobian's columns of the allowed dofs
    (damped by `regularization_strength` while the error exceeds
    `regularization_threshold`), stops if error / |step| exceeds `progress_thresh`,
    clips |step| to `max_update_norm` and integrates it (`mj_integratePos`).

    Args:
      physics: a `Physics`.
      site_name: the site's full name (e.g. "arm/wrist_site").
      target_pos: (3,) world position (m), or None to leave it free.
      target_quat: (4,) world orientation [w, x, y, z], or None to leave it free.
        One of the two targets must be given.
      joint_names: a list, tuple or array of the joints that may move (all their
        dofs), or None for every joint.
      tol: the error below which the solve succeeds.
      rot_weight: weight of the rotation error against the position error.
      regularization_threshold: damp the step while the error exceeds this.
      regularization_strength: the damping (penalty on |step|^2).
      max_update_norm: the largest |step|.
      progress_thresh: stop when error / |step| exceeds this.
      max_steps: the most iterations.
      inplace: move `physics.data` itself (and return a view of its qpos) rather
        than a copy of the data.

    Returns:
      An `IKResult` (qpos, err_norm, steps, success).

    Raises:
      ValueError: neither target is given, `joint_names` has another type,
        `target_quat` is not (4,), or `max_steps` < 1 (where dm_control fails with
        UnboundLocalError).
      composer_tasks.physics.Error: the model has no site `site_name`.
      KeyError: a joint name is not in the model.
      IndexError: `joint_names` is empty (dm_control's type).
    """
    if target_pos is None and target_quat is None:
        raise ValueError(_REQUIRE_TARGET_POS_OR_QUAT)
    model = physics.model
    # Only qpos is read back, so a copy of the data suffices where dm_control
    # copies the whole Physics (its copy's forward pass leaves qpos as it is).
    data = physics.data if inplace else copy.copy(physics.data)
    site_id = model.name2id(site_name, "site")
    if joint_names is None:
        dof_indices: Any = slice(None)
    elif isinstance(joint_names, (list, np.ndarray, tuple)):
        # The dofs of each named joint (a ball joint has three, a free joint six).
        if len(joint_names) == 0:
            # dm_control fails indexing the Jacobian with an empty float array.
            raise IndexError("joint_names is empty: name at least one joint that may move")
        names = list(joint_names) if isinstance(joint_names, tuple) else joint_names
        dof_indices = physics.named.model.dof_jntid.axes.row.convert_key_item(names)
    else:
        raise ValueError(_INVALID_JOINT_NAMES_TYPE.format(type(joint_names)))
    err_norm, steps, success = solve_site_pose(
        model,
        data,
        site_id,
        target_pos,
        target_quat,
        dof_indices,
        tol=tol,
        rot_weight=rot_weight,
        regularization_threshold=regularization_threshold,
        regularization_strength=regularization_strength,
        max_update_norm=max_update_norm,
        progress_thresh=progress_thresh,
        max_steps=max_steps,
    )
    qpos = data.qpos if inplace else data.qpos.copy()
    return IKResult(qpos=qpos, err_norm=err_norm, steps=steps, success=success)
