"""Scripted controllers for the manipulation tasks: Cartesian control by inverse kinematics.

Not learned policies: each control step, the pinch site's 6-D error (position,
and orientation against a "pointing down, turned by yaw" target) goes through a
damped least-squares inverse of MuJoCo's site Jacobian (`mj_jacSite`) for the
six arm joints, giving joint velocities that the arm's velocity servos track.
The fingers open or close at full speed. Scripts chain waypoints: reach a
site, grasp and lift a brick, or carry it onto another and press it down until
the studs snap.

They prove the tasks can be solved (tests/manipulation/test_scripted.py) and
show how to drive the arm (examples/manipulation_scripted.py).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import dm_env
import mujoco
import numpy as np
from numpy.typing import ArrayLike

from composer_tasks import composer
from composer_tasks.composer import initializers
from composer_tasks.physics import Physics
from composer_tasks.props import bricks as brick_props
from composer_tasks.tasks.manipulation import common
from composer_tasks.tasks.manipulation import reach

# Gain (1/s) from pinch-site error to commanded velocity, and the damping of the
# least-squares inverse.
_POSITION_GAIN = 6.0
_ROTATION_GAIN = 4.0
# Integral gain (1/s^2) on the position error: the velocity servos need a standing
# velocity error to hold the arm against gravity, which a proportional law alone
# would leave as a millimetre-sized position offset.
_INTEGRAL_GAIN = 8.0
# Bound (m s) of the integrated error, so that an unreachable target (the table
# in the way) does not wind up the integral into large motions.
_INTEGRAL_LIMIT = 0.005
_DAMPING = 1e-3
_FINGER_SPEED = 5.0


@dataclasses.dataclass
class Waypoint:
    """Hold the pinch site at `position` (m, world) with yaw `yaw` (rad) and the
    fingers `closing` (True) or opening, until `done(physics)` or `max_steps`.
    `orientation`, when given, is the pinch site's target orientation (w-x-y-z
    quaternion, world frame) instead of pointing down with `yaw`."""

    position: Callable[[Physics], np.ndarray]
    yaw: Callable[[Physics], float]
    closing: bool
    done: Callable[[Physics], bool]
    max_steps: int
    orientation: Callable[[Physics], np.ndarray] | None = None


class CartesianController:
    """Joint-velocity actions that move a task's pinch site to a Cartesian pose.

    Args:
      env: a `composer.Environment` whose task has `arm` and `hand`.
    """

    def __init__(self, env: composer.Environment) -> None:
        task = env.task
        if not isinstance(task, common.ArmTask):
            raise TypeError(
                f"env.task must be a manipulation task (common.ArmTask), got {type(task).__name__}"
            )
        self._env = env
        self._task = task
        self._prepared_for: object = None
        self._integral = np.zeros(3)

    def _prepare(self) -> None:
        physics = self._env.physics
        if self._prepared_for is physics.model:
            return
        model = physics.model
        self._dofs = np.array(
            [model.jnt_dofadr[physics.bind(j).element_id] for j in self._task.arm.joints]
        )
        self._site = physics.bind(self._task.hand.pinch_site).element_id
        spec = self._env.action_spec()
        self._low, self._high = spec.minimum, spec.maximum
        self._prepared_for = model

    def pinch_position(self) -> np.ndarray:
        """The pinch site's position (m, world frame), (3,)."""
        return np.array(self._env.physics.bind(self._task.hand.pinch_site).xpos)

    def action(
        self,
        target_position: ArrayLike,
        yaw: float,
        closing: bool,
        orientation: ArrayLike | None = None,
    ) -> np.ndarray:
        """The action that moves the pinch site towards `target_position` (m) pointing
        down with `yaw` (rad, about world z), or turned to the quaternion
        `orientation` (w-x-y-z, world frame) when given; fingers closing or opening."""
        self._prepare()
        physics = self._env.physics
        model, data = physics.model, physics.data
        if orientation is None:
            target_quat = np.empty(4)
            mujoco.mju_mulQuat(target_quat, _yaw_quaternion(yaw), initializers.DOWN_QUATERNION)
        else:
            target_quat = np.asarray(orientation, dtype=np.float64)
        site_quat = np.empty(4)
        mujoco.mju_mat2Quat(site_quat, data.site_xmat[self._site])
        inverse = np.empty(4)
        mujoco.mju_negQuat(inverse, site_quat)
        error_quat = np.empty(4)
        mujoco.mju_mulQuat(error_quat, target_quat, inverse)
        rotation_error = np.empty(3)
        mujoco.mju_quat2Vel(rotation_error, error_quat, 1.0)
        position_error = np.asarray(target_position) - data.site_xpos[self._site]
        jac_pos = np.empty((3, model.nv))
        jac_rot = np.empty((3, model.nv))
        mujoco.mj_jacSite(model, data, jac_pos, jac_rot, self._site)
        jacobian = np.vstack([jac_pos[:, self._dofs], jac_rot[:, self._dofs]])
        self._integral = np.clip(
            self._integral + position_error * self._task.control_timestep,
            -_INTEGRAL_LIMIT,
            _INTEGRAL_LIMIT,
        )
        desired = np.concatenate(
            [
                _POSITION_GAIN * position_error + _INTEGRAL_GAIN * self._integral,
                _ROTATION_GAIN * rotation_error,
            ]
        )
        joint_velocity = jacobian.T @ np.linalg.solve(
            jacobian @ jacobian.T + _DAMPING * np.eye(6), desired
        )
        arm_limit = self._high[:6]
        # Scale the whole vector down (not each joint) so the direction is kept.
        scale = np.max(np.abs(joint_velocity) / arm_limit)
        if scale > 1:
            joint_velocity /= scale
        action = np.empty(len(self._low))
        action[:6] = joint_velocity
        action[6:] = _FINGER_SPEED if closing else -_FINGER_SPEED
        return np.clip(action, self._low, self._high)

    def run(
        self, waypoints: list[Waypoint], timestep: dm_env.TimeStep | None = None
    ) -> tuple[dm_env.TimeStep | None, list[float]]:
        """Follows the waypoints in turn; returns (last timestep, rewards per step).
        The timestep is `timestep` when no step was taken."""
        rewards_seen: list[float] = []
        for waypoint in waypoints:
            self._integral[:] = 0.0
            for _ in range(waypoint.max_steps):
                physics = self._env.physics
                if waypoint.done(physics):
                    break
                timestep = self._env.step(
                    self.action(
                        waypoint.position(physics),
                        waypoint.yaw(physics),
                        waypoint.closing,
                        None if waypoint.orientation is None else waypoint.orientation(physics),
                    )
                )
                rewards_seen.append(timestep.reward)
                if timestep.last():
                    return timestep, rewards_seen
        return timestep, rewards_seen


def _yaw_quaternion(yaw: float) -> np.ndarray:
    return np.array([np.cos(yaw / 2), 0.0, 0.0, np.sin(yaw / 2)])


def brick_grasp_yaw(physics: Physics, brick: brick_props.Duplo) -> float:
    """Yaw (rad, in [-pi/2, pi/2)) of the pointing-down hand that closes its fingers
    across the brick's short (31.8 mm) side.

    The hand closes along its y axis (one finger on one side, two on the other);
    a quarter turn from the brick's yaw puts that axis along the brick's x axis.
    The brick looks the same turned by half a turn, so the yaw is wrapped.
    """
    _, quaternion = brick.get_pose(physics)
    matrix = np.empty(9)
    mujoco.mju_quat2Mat(matrix, quaternion)
    x_axis = matrix.reshape(3, 3)[:, 0]
    brick_yaw = np.arctan2(x_axis[1], x_axis[0])
    return _half_turn_wrap(brick_yaw + np.pi / 2)


def _steps(count: int) -> Callable[[Physics], bool]:
    """Done after `count` calls (control steps)."""
    counter = {"n": 0}

    def done(physics: Physics) -> bool:
        del physics
        counter["n"] += 1
        return counter["n"] > count

    return done


def _near(
    controller: CartesianController,
    target: Callable[[Physics], np.ndarray],
    tolerance_m: float,
) -> Callable[[Physics], bool]:
    """Done when the pinch site is within `tolerance_m` of `target(physics)`."""

    def done(physics: Physics) -> bool:
        return bool(np.linalg.norm(controller.pinch_position() - target(physics)) < tolerance_m)

    return done


def reach_site_waypoints(controller: CartesianController, task: reach.Reach) -> list[Waypoint]:
    """Move the pinch site onto the reach target and hold it there."""

    def target(physics: Physics) -> np.ndarray:
        return np.array(physics.bind(task.target).xpos)

    return [
        Waypoint(
            position=target,
            yaw=lambda physics: 0.0,
            closing=False,
            done=lambda physics: False,
            max_steps=250,
        )
    ]


# Heights (m) of the pinch site above a brick's origin (its base): above it, and
# around it to grasp. Grasping 13 mm up keeps the fingertips from reaching below
# the brick (at 8 mm they pushed some bricks away as they closed, and landed on
# the bottom brick's studs before a carried brick's studs engaged).
_APPROACH_HEIGHT_M = 0.10
_GRASP_HEIGHT_M = 0.013
# Closing on a brick: the fingers close until they stall against it (every finger
# slower than _STALLED_FINGER_SPEED_RADPS, after at least _MIN_CLOSE_STEPS control
# steps), at most _CLOSE_STEPS steps. Lifting before the grip has built up drops
# the brick or lets it tilt in the fingers.
_CLOSE_STEPS = 30
_MIN_CLOSE_STEPS = 8
_STALLED_FINGER_SPEED_RADPS = 0.1
_RELEASE_STEPS = 15
# Finger angle (rad) below which a finger counts as open (fully open: 0.15).
_OPEN_FINGER_ANGLE_RAD = 0.3
_RECLOSE_STEPS = 12
# A brick within this height (m) of the snapped height counts as snapped.
_SNAPPED_TOLERANCE_M = 0.0003
# Presses of the closed fingers on a released brick before giving up, and the
# control steps of each press.
_PRESS_ATTEMPTS = 3
_PRESS_STEPS = 25
# How close (m) the held brick must come to its place 30 mm above the snapped
# height (where it is carried to) and _SEATING_HEIGHT_M above it, clear of the
# studs' tops, from where it is pushed straight down.
_CARRY_TOLERANCE_M = 0.004
_SEATING_HEIGHT_M = 0.006
_SEATING_TOLERANCE_M = 0.0005


def _brick_origin(physics: Physics, brick: brick_props.Duplo) -> np.ndarray:
    return np.array(physics.bind(brick.attachment_body).xpos)


def _fingers_stalled(task: common.ArmTask) -> Callable[[Physics], bool]:
    """Done when the fingers have closed for `_MIN_CLOSE_STEPS` control steps and
    every finger moves slower than `_STALLED_FINGER_SPEED_RADPS`."""
    counter = {"n": 0}

    def done(physics: Physics) -> bool:
        counter["n"] += 1
        if counter["n"] <= _MIN_CLOSE_STEPS:
            return False
        speeds = np.array([physics.bind(j).qvel for j in task.hand.joints])
        return bool(np.all(np.abs(speeds) < _STALLED_FINGER_SPEED_RADPS))

    return done


def lift_waypoints(
    controller: CartesianController,
    task: common.ArmTask,
    brick: brick_props.Duplo,
    lift_to_m: float,
    grasp_height_m: float = _GRASP_HEIGHT_M,
) -> list[Waypoint]:
    """Grasp `brick` from above, the pinch site `grasp_height_m` above its origin,
    and raise the pinch site to `lift_to_m` metres."""
    grasp_yaw: dict[str, float] = {}

    def yaw(physics: Physics) -> float:
        if "yaw" not in grasp_yaw:
            grasp_yaw["yaw"] = brick_grasp_yaw(physics, brick)
        return grasp_yaw["yaw"]

    def above(physics: Physics) -> np.ndarray:
        return _brick_origin(physics, brick) + (0, 0, _APPROACH_HEIGHT_M)

    def around(physics: Physics) -> np.ndarray:
        return _brick_origin(physics, brick) + (0, 0, grasp_height_m)

    held: dict[str, np.ndarray] = {}

    def hold(physics: Physics) -> np.ndarray:
        held.setdefault("position", controller.pinch_position())
        return held["position"]

    def lifted(physics: Physics) -> np.ndarray:
        position = hold(physics).copy()
        position[2] = lift_to_m
        return position

    return [
        Waypoint(above, yaw, False, _near(controller, above, 0.01), 100),
        Waypoint(around, yaw, False, _near(controller, around, 0.004), 60),
        Waypoint(hold, yaw, True, _fingers_stalled(task), _CLOSE_STEPS),
        Waypoint(lifted, yaw, True, lambda p: False, 250),
    ]


def _yaw_of_x_axis(matrix: ArrayLike) -> float:
    x_axis = np.asarray(matrix).reshape(3, 3)[:, 0]
    return float(np.arctan2(x_axis[1], x_axis[0]))


def _half_turn_wrap(angle: float) -> float:
    """`angle` shifted by multiples of pi into [-pi/2, pi/2) (bricks look the same
    turned by half a turn)."""
    return float((angle + np.pi / 2) % np.pi - np.pi / 2)


def hand_yaw(controller: CartesianController) -> float:
    """The yaw (rad) of the pointing-down hand: the inverse of `action`'s target."""
    matrix = np.asarray(controller._env.physics.bind(controller._task.hand.pinch_site).xmat)
    x_axis = matrix.reshape(3, 3)[:, 0]
    return float(np.arctan2(-x_axis[0], x_axis[1]))


def stack_waypoints(
    controller: CartesianController,
    task: common.ArmTask,
    top: brick_props.Duplo,
    bottom: brick_props.Duplo,
    press_depth_m: float = 0.006,
) -> list[Waypoint]:
    """Grasp `top`, carry it over `bottom`, turn it to the same yaw and lower it
    onto the studs; let go, close the hand above it and push it down with the
    fingertips (aiming `press_depth_m` below its snapped top face) until it snaps,
    backing off and pressing again up to `_PRESS_ATTEMPTS` times.

    Placement uses feedback on the held brick's pose: the pinch site is moved by
    the error between where `top` is and where it should be.
    """
    grasp = lift_waypoints(controller, task, top, lift_to_m=0.12)[:3]

    def brick_pose(physics: Physics, brick: brick_props.Duplo) -> tuple[np.ndarray, float]:
        body = physics.bind(brick.attachment_body)
        return np.array(body.xpos), _yaw_of_x_axis(body.xmat)

    def yaw(physics: Physics) -> float:
        _, top_yaw = brick_pose(physics, top)
        _, bottom_yaw = brick_pose(physics, bottom)
        return hand_yaw(controller) + _half_turn_wrap(bottom_yaw - top_yaw)

    def top_at(height_above_stacked: float) -> Callable[[Physics], np.ndarray]:
        def position(physics: Physics) -> np.ndarray:
            top_position, _ = brick_pose(physics, top)
            bottom_position, _ = brick_pose(physics, bottom)
            goal = bottom_position + (0.0, 0.0, brick_props.STACKED_OFFSET_M + height_above_stacked)
            return controller.pinch_position() + (goal - top_position)

        return position

    def aligned(height_above_stacked: float, tolerance_m: float) -> Callable[[Physics], bool]:
        def done(physics: Physics) -> bool:
            top_position, top_yaw = brick_pose(physics, top)
            bottom_position, bottom_yaw = brick_pose(physics, bottom)
            goal = bottom_position + (0.0, 0.0, brick_props.STACKED_OFFSET_M + height_above_stacked)
            return bool(
                np.linalg.norm(top_position - goal) < tolerance_m
                and abs(_half_turn_wrap(bottom_yaw - top_yaw)) < 0.01
            )

        return done

    def levelled(turn: bool) -> Callable[[Physics], np.ndarray]:
        """The pinch site's orientation that would hold `top` level (its z axis up),
        turned to `bottom`'s yaw if `turn`: the held brick's orientation error,
        applied to the hand. A brick swings in the grip when the hand accelerates;
        this keeps it level for seating on the studs."""

        def orientation(physics: Physics) -> np.ndarray:
            body = physics.bind(top.attachment_body)
            top_yaw = _yaw_of_x_axis(body.xmat)
            goal_yaw = top_yaw
            if turn:
                _, bottom_yaw = brick_pose(physics, bottom)
                goal_yaw += _half_turn_wrap(bottom_yaw - top_yaw)
            top_inverse = np.empty(4)
            mujoco.mju_negQuat(top_inverse, np.array(body.xquat))
            error = np.empty(4)
            mujoco.mju_mulQuat(error, _yaw_quaternion(goal_yaw), top_inverse)
            site_quat = np.empty(4)
            mujoco.mju_mat2Quat(site_quat, np.array(physics.bind(task.hand.pinch_site).xmat))
            target = np.empty(4)
            mujoco.mju_mulQuat(target, error, site_quat)
            return target

        return orientation

    def up(physics: Physics) -> np.ndarray:
        position = controller.pinch_position()
        position[2] = 0.12
        return position

    hold_yaw: dict[str, float] = {}

    def current_yaw(physics: Physics) -> float:
        hold_yaw.setdefault("yaw", hand_yaw(controller))
        return hold_yaw["yaw"]

    held: dict[str, np.ndarray] = {}

    def hold(physics: Physics) -> np.ndarray:
        held.setdefault("position", controller.pinch_position())
        return held["position"]

    def above_top(height: float) -> Callable[[Physics], np.ndarray]:
        def position(physics: Physics) -> np.ndarray:
            top_position, _ = brick_pose(physics, top)
            bottom_position, _ = brick_pose(physics, bottom)
            return np.array(
                [
                    top_position[0],
                    top_position[1],
                    bottom_position[2] + 2 * brick_props.BRICK_HEIGHT_M + height,
                ]
            )

        return position

    def fingers_open(physics: Physics) -> bool:
        angles = np.array([physics.bind(j).qpos for j in task.hand.joints])
        return bool(np.all(angles < _OPEN_FINGER_ANGLE_RAD))

    def snapped(physics: Physics) -> bool:
        top_position, _ = brick_pose(physics, top)
        bottom_position, _ = brick_pose(physics, bottom)
        return bool(
            top_position[2] - bottom_position[2]
            < brick_props.STACKED_OFFSET_M + _SNAPPED_TOLERANCE_M
        )

    press_yaw: dict[str, float] = {}

    def fixed_yaw(physics: Physics) -> float:
        press_yaw.setdefault("yaw", hand_yaw(controller))
        return press_yaw["yaw"]

    def snapped_or_near(target: Callable[[Physics], np.ndarray]) -> Callable[[Physics], bool]:
        near = _near(controller, target, 0.005)
        return lambda physics: snapped(physics) or near(physics)

    presses = []
    for attempt in range(_PRESS_ATTEMPTS):
        if attempt:
            # Back off above the brick before pressing again.
            presses.append(
                Waypoint(above_top(0.02), fixed_yaw, True, snapped_or_near(above_top(0.02)), 15)
            )
        presses.append(Waypoint(above_top(-press_depth_m), fixed_yaw, True, snapped, _PRESS_STEPS))
    return (
        grasp
        + [
            Waypoint(
                up,
                current_yaw,
                True,
                lambda p: controller.pinch_position()[2] > 0.1,
                60,
                levelled(turn=False),
            ),
            Waypoint(
                top_at(0.03),
                yaw,
                True,
                aligned(0.03, _CARRY_TOLERANCE_M),
                150,
                levelled(turn=True),
            ),
            Waypoint(
                top_at(_SEATING_HEIGHT_M),
                yaw,
                True,
                aligned(_SEATING_HEIGHT_M, _SEATING_TOLERANCE_M),
                20,
                levelled(turn=True),
            ),
            # Push the held, level brick straight down onto the studs.
            Waypoint(
                top_at(-press_depth_m),
                yaw,
                True,
                snapped,
                _PRESS_STEPS,
                levelled(turn=True),
            ),
            # Let go of the brick resting on the studs, close the hand above it and
            # push it down with the closed fingers until it snaps.
            Waypoint(hold, fixed_yaw, False, fingers_open, _RELEASE_STEPS),
            Waypoint(
                above_top(0.04), fixed_yaw, False, _near(controller, above_top(0.04), 0.005), 15
            ),
            Waypoint(above_top(0.04), fixed_yaw, True, _steps(_RECLOSE_STEPS), _RECLOSE_STEPS + 1),
        ]
        + presses
        + [Waypoint(above_top(0.08), fixed_yaw, False, _steps(10), 11)]
    )
