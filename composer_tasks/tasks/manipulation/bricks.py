"""Stack and reassemble Duplo bricks (dm_control paper §8.2).

Reward (dm-control 1.0.50 `manipulation/bricks.py`): for each pair (bottom,
top) of consecutive bricks in the desired stack, d is the sum of the distances
(m) between two opposite studs of the bottom brick and the matching holes of the
top brick (the smaller of the two ways the top brick can sit, since a brick turned
by 180 degrees fits the same), and

    close   = tolerance(d, bounds=(0, 0.01),  margin=0.1)     (Gaussian)
    clicked = tolerance(d, bounds=(0, 0.001), margin=0.001)
    pair    = (close_coef * close + clicked) / (close_coef + 1)

with close_coef 0.1 for stacking and 0 for reassembling; the reward is the mean
over the pairs. A snapped pair gives d ~ 0 and a pair reward of 1.

The bottom brick of the stack is fixed to the table (except in
`stack_2_bricks_moveable_base`). Where it is the same brick every episode, it is
attached without a free joint once and moved by its attachment body's pose. Where
the order is random, every brick is free, and for the episode the bottom brick is
made 10^4 times heavier (120 kg: forces of tens of newtons cannot move it) and
welded to the world at its settled pose (`data.eq_active`); dm_control removes
that brick's free joint and recompiles instead. Neither way recompiles per
episode here. The welds only stand for "fixed to the table": bricks hold each
other by their studs alone.
Translucent, contactless "hint" bricks beside the workspace show the goal stack.
"""

import collections
import copy
from collections.abc import Sequence
from typing import Any

import mujoco
import numpy as np
from numpy.typing import ArrayLike

from composer_tasks import rewards
from composer_tasks.arenas.table import Table
from composer_tasks.composer import initializers
from composer_tasks.composer.observation import observable
from composer_tasks.composer.variation import base as variation_base
from composer_tasks.composer.variation import distributions
from composer_tasks.physics import Physics
from composer_tasks.props.bricks import Duplo
from composer_tasks.robots import JacoArm
from composer_tasks.robots import JacoHand
from composer_tasks.tasks.manipulation import common
from composer_tasks.tasks.manipulation.shared import registry, tags

BrickWorkspace = collections.namedtuple(
    "BrickWorkspace", ["prop_bbox", "tcp_bbox", "goal_hint_pos", "goal_hint_quat", "arm_offset"]
)
_PROP_Z_OFFSET_M = 1e-6
WORKSPACE = BrickWorkspace(
    prop_bbox=common.BoundingBox((-0.1, -0.1, _PROP_Z_OFFSET_M), (0.1, 0.1, _PROP_Z_OFFSET_M)),
    tcp_bbox=common.BoundingBox((-0.1, -0.1, 0.15), (0.1, 0.1, 0.4)),
    goal_hint_pos=(0.2, 0.1, 0.0),
    goal_hint_quat=(-0.38268343, 0.0, 0.0, 0.92387953),
    arm_offset=common.ARM_OFFSET_M,
)
_HINT_ALPHA = 0.75
CLOSE_THRESHOLD_M = 0.01
CLICK_THRESHOLD_M = 0.001
_COLORS = (
    (1.0, 0.0, 0.0),
    (0.0, 1.0, 0.0),
    (0.0, 0.0, 1.0),
    (0.0, 1.0, 1.0),
    (1.0, 0.0, 1.0),
    (1.0, 1.0, 0.0),
)
_MAX_BRICKS = len(_COLORS)
# The weld that holds the episode's bottom brick to the table: stiff (time
# constant 4 ms, twice the physics timestep, MuJoCo's safe minimum) and damped.
_BASE_WELD_SOLREF = (0.004, 1.0)
_LARGE_STACK_MEMORY_BYTES = 64 * 2**20
# How much heavier the episode's bottom brick is made: MuJoCo's soft constraints
# scale their force with the body's mass, so a 12 g brick's weld would give way by
# centimetres under the 6-18 N that part bricks; 120 kg does not move.
_FIXED_BRICK_MASS_SCALE = 1e4
# `fixed_index` value for tasks whose fixed brick is chosen every episode.
PER_EPISODE = "per_episode"


def _brick_names(count: int) -> tuple[list[str], list[str]]:
    """dm_control's names: bricks duplo2x4, duplo2x4_2, duplo2x4_4, ...; the hint
    bricks take the odd suffixes in between (they were attached in turn)."""
    names: list[str] = []
    hints: list[str] = []
    for index in range(count):
        names.append("duplo2x4" if index == 0 else f"duplo2x4_{2 * index}")
        hints.append(f"duplo2x4_{2 * index + 1}")
    return names, hints


def _rotation(quaternion: ArrayLike) -> np.ndarray:
    matrix = np.empty(9)
    mujoco.mju_quat2Mat(matrix, np.asarray(quaternion, dtype=np.float64))
    return matrix.reshape(3, 3)


class _BrickTask(common.ArmTask):
    """Arena, robot, bricks (brick `fixed_index` without a free joint) and hint bricks."""

    def __init__(
        self,
        arena: Table,
        arm: JacoArm,
        hand: JacoHand,
        num_bricks: int,
        settings: common.ObservationSettings,
        workspace: BrickWorkspace,
        fixed_index: int | str | None,
        control_timestep: float,
    ):
        if not 2 <= num_bricks <= _MAX_BRICKS:
            raise ValueError(f"num_bricks must be between 2 and {_MAX_BRICKS}, got {num_bricks!r}")
        self._arena, self._arm, self._hand = arena, arm, hand
        if num_bricks > 3:
            # Each snapped pair makes dozens of contacts; MuJoCo's default arena
            # (sized from the model) is too small for a stack of more than three.
            arena.spec.memory = _LARGE_STACK_MEMORY_BYTES
        common.attach_robot(arena, arm, hand, workspace.arm_offset)
        self.set_timesteps(control_timestep, arena.spec.option.timestep)
        self._task_observables = common.add_camera_observables(arena, settings, common.FRONT_CLOSE)
        options = common.make_options(settings, common.FREEPROP_OBSERVABLES)
        names, hint_names = _brick_names(num_bricks)
        self._bricks, self._hints, self._base_welds = [], [], []
        self._brick_inertials = None
        for index in range(num_bricks):
            brick = Duplo(color=_COLORS[index], name=names[index], observable_options=options)
            if index == fixed_index:
                arena.attach(brick)
            else:
                arena.add_free_entity(brick)
            if fixed_index == PER_EPISODE:
                body = brick.attachment_body
                assert body is not None  # Set by `add_free_entity`.
                self._base_welds.append(
                    arena.spec.add_equality(
                        name=f"{names[index]}_to_table",
                        type=mujoco.mjtEq.mjEQ_WELD,
                        objtype=mujoco.mjtObj.mjOBJ_BODY,
                        name1=body.name,
                        name2="world",
                        active=False,
                        solref=list(_BASE_WELD_SOLREF),
                    )
                )
            self._bricks.append(brick)
            hint = Duplo(color=_COLORS[index], name=hint_names[index])
            _hintify(hint)
            arena.attach(hint)
            self._hints.append(hint)
        self._goal_hint_pos = np.array(workspace.goal_hint_pos)
        self._goal_hint_quat = np.array(workspace.goal_hint_quat)
        self._tcp_initializer = initializers.ToolCenterPointInitializer(
            hand,
            arm,
            position=distributions.Uniform(*workspace.tcp_bbox),
            quaternion=common.DOWN_QUATERNION,
        )
        common.add_bbox_site(arena, *workspace.tcp_bbox, rgba=common.GREEN, name="tcp_spawn_area")
        common.add_bbox_site(arena, *workspace.prop_bbox, rgba=common.BLUE, name="prop_spawn_area")
        # Stud and hole sites the reward compares: opposite corners of each brick.
        corners = ((0, 0), (1, 3))
        self._corner_studs = [[b.stud_sites[c] for c in corners] for b in self._bricks]
        self._corner_holes = [[b.hole_sites[c] for c in corners] for b in self._bricks]

    @property
    def bricks(self) -> tuple[Duplo, ...]:
        return tuple(self._bricks)

    def _pair_distances(self, physics: Physics, pairs: Sequence[tuple[int, int]]) -> np.ndarray:
        distances = []
        for bottom, top in pairs:
            studs = np.array([physics.bind(s).xpos for s in self._corner_studs[bottom]])
            holes = np.array([physics.bind(s).xpos for s in self._corner_holes[top]])
            straight = np.linalg.norm(studs - holes, axis=1).sum()
            turned = np.linalg.norm(studs[::-1] - holes, axis=1).sum()
            distances.append(min(straight, turned))
        return np.array(distances)

    def fix_to_table(self, physics: Physics, index: int | None) -> None:
        """Holds brick `index` where it is for the episode: it becomes 10^4 times
        heavier and its weld to the world is switched on (only for tasks built with
        `fixed_index=PER_EPISODE`); the other bricks get their own masses back.
        `index=None` gives every brick its own mass back and fixes none."""
        model = physics.model
        if self._brick_inertials is None:
            self._brick_inertials = []
            for brick in self._bricks:
                body = physics.bind(brick.attachment_body).id
                dofs = np.flatnonzero(model.dof_bodyid == body)
                self._brick_inertials.append(
                    (
                        body,
                        dofs,
                        float(model.body_mass[body]),
                        model.body_inertia[body].copy(),
                        model.body_invweight0[body].copy(),
                        model.dof_invweight0[dofs].copy(),
                    )
                )
        for brick_index, (body, dofs, mass, inertia, invweight, dof_invweight) in enumerate(
            self._brick_inertials
        ):
            scale = _FIXED_BRICK_MASS_SCALE if brick_index == index else 1.0
            # A brick is a body without children: its subtree is itself; the world's
            # subtree mass counts every body.
            model.body_subtreemass[0] += mass * scale - model.body_mass[body]
            model.body_subtreemass[body] = mass * scale
            model.body_mass[body] = mass * scale
            model.body_inertia[body] = inertia * scale
            # The constants MuJoCo scales constraints by (mj_setConst would compute
            # them at qpos0, where the bricks overlap).
            model.body_invweight0[body] = invweight / scale
            model.dof_invweight0[dofs] = dof_invweight / scale
        if index is None:
            return
        weld = physics.bind(self._base_welds[index])
        position, quaternion = self._bricks[index].get_pose(physics)
        # The world's pose in the brick's frame: MuJoCo's weld keeps it.
        inverse = np.empty(4)
        mujoco.mju_negQuat(inverse, quaternion)
        relative_position = np.empty(3)
        mujoco.mju_rotVecQuat(relative_position, -position, inverse)
        # eq_data of a weld: anchor (3), relative position (3), relative quaternion
        # (4), then the torque scale and what else the compiler put there (kept).
        data = np.array(weld.data)
        data[0:3] = 0.0
        data[3:6] = relative_position
        data[6:10] = inverse
        weld.data = data
        physics.data.eq_active[weld.id] = 1

    # Snapshots (composer.Environment.snapshot): the bricks' own masses and inertias,
    # read from the model before a brick is first made heavy, are Python state: a
    # restored model may hold a heavy brick, which must not be taken for its own.

    def snapshot_state(self) -> dict:
        """The record of the bricks' own inertial properties (None until the first
        `fix_to_table`), as picklable copies."""
        return {"brick_inertials": copy.deepcopy(self._brick_inertials)}

    def restore_state(self, state: dict) -> None:
        """Returns to a `snapshot_state()` of a task built alike."""
        self._brick_inertials = copy.deepcopy(state["brick_inertials"])

    def pairwise_rewards(
        self, physics: Physics, pairs: Sequence[tuple[int, int]], close_coef: float
    ) -> np.ndarray:
        """Per (bottom, top) pair of brick indices, the stacking reward in [0, 1]."""
        distances = self._pair_distances(physics, pairs)
        close = rewards.tolerance(
            distances, bounds=(0, CLOSE_THRESHOLD_M), margin=CLOSE_THRESHOLD_M * 10
        )
        clicked = rewards.tolerance(
            distances, bounds=(0, CLICK_THRESHOLD_M), margin=CLICK_THRESHOLD_M
        )
        return np.asarray((close_coef * close + clicked) / (close_coef + 1.0))


def build_stack(
    physics: Physics,
    bricks: Sequence[Duplo],
    base_pos: Any,
    base_quat: Any,
    order: Sequence[int] | np.ndarray,
    random_state: np.random.RandomState,
) -> None:
    """Poses `bricks[order[0]]` at (base_pos, base_quat) and snaps the others on top in
    `order`, each turned by 180 degrees about z with probability 1/2 (the reward
    does not tell the two apart). Positions in metres, world frame."""
    position = np.asarray(variation_base.evaluate(base_pos, random_state=random_state), float)
    quaternion = np.asarray(variation_base.evaluate(base_quat, random_state=random_state), float)
    quaternion = quaternion / np.linalg.norm(quaternion)
    bricks[order[0]].set_pose(physics, position=position, quaternion=quaternion)
    # Site positions in a brick's frame (the same for every brick).
    stud = np.array(bricks[0].stud_sites[0, 0].pos)
    holes = {
        (0, 0): np.array(bricks[0].hole_sites[0, 0].pos),
        (1, 3): np.array(bricks[0].hole_sites[1, 3].pos),
    }
    for top_index in order[1:]:
        stud_world = position + _rotation(quaternion) @ stud
        if random_state.rand() < 0.5:
            turned = np.empty(4)
            mujoco.mju_mulQuat(turned, quaternion, np.array([0.0, 0.0, 0.0, 1.0]))
            quaternion, hole = turned, holes[(1, 3)]
        else:
            hole = holes[(0, 0)]
        position = stud_world - _rotation(quaternion) @ hole
        bricks[top_index].set_pose(physics, position=position, quaternion=quaternion)


def _hintify(brick: Duplo) -> None:
    """Makes a brick translucent and contactless."""
    for geom in brick.spec.geoms:
        geom.contype = 0
        geom.conaffinity = 0
        rgba = np.array(geom.rgba)
        if rgba[3] > 0.5:
            rgba[3] = _HINT_ALPHA
            geom.rgba = rgba.tolist()


class Stack(_BrickTask):
    """Stack `target_height` bricks in the order 0, 1, ...; brick 0 is fixed to the
    table unless `moveable_base`.

    Args:
      arena, arm, hand: the table, `JacoArm` and `JacoHand` (attached here).
      num_bricks: bricks on the table (2 to 6).
      target_height: bricks in the goal stack (2 to `num_bricks`).
      moveable_base: give the bottom brick a free joint too.
      randomize_order: draw the goal order at every episode (`target_height`
        distinct bricks, dm_control's `random_state.choice`) and observe it as
        the task observable `desired_order`; with a fixed base, the goal's bottom
        brick is the one held to the table.
      obs_settings: a `common.ObservationSettings`.
      workspace: a `BrickWorkspace`.
      control_timestep: seconds per agent step.
    """

    def __init__(
        self,
        arena: Table,
        arm: JacoArm,
        hand: JacoHand,
        num_bricks: int,
        target_height: int,
        moveable_base: bool,
        randomize_order: bool,
        obs_settings: common.ObservationSettings,
        workspace: BrickWorkspace = WORKSPACE,
        control_timestep: float = common.CONTROL_TIMESTEP_S,
    ):
        if not 2 <= target_height <= num_bricks:
            raise ValueError(
                f"target_height must be between 2 and num_bricks ({num_bricks}), got {target_height!r}"
            )
        if moveable_base:
            fixed_index = None
        else:
            fixed_index = PER_EPISODE if randomize_order else 0
        super().__init__(
            arena,
            arm,
            hand,
            num_bricks,
            obs_settings,
            workspace,
            fixed_index=fixed_index,
            control_timestep=control_timestep,
        )
        self._randomize_order = bool(randomize_order)
        self._moveable_base = bool(moveable_base)
        self._num_bricks = num_bricks
        self._target_height = target_height
        self._desired_order = np.arange(target_height)
        if randomize_order:
            self._task_observables["desired_order"] = _desired_order_observable(self, obs_settings)
        self._brick_placer = initializers.PropPlacer(
            self._bricks,
            position=distributions.Uniform(*workspace.prop_bbox),
            quaternion=common.uniform_z_rotation(),
            settle_physics=True,
        )

    @property
    def desired_order(self) -> np.ndarray:
        return self._desired_order.copy()

    def initialize_episode_mjcf(self, random_state: np.random.RandomState) -> None:
        # Drawn here, before the bricks draw their stud radii, as dm_control draws it.
        if self._randomize_order:
            self._desired_order = random_state.choice(
                self._num_bricks, size=self._target_height, replace=False
            )

    def initialize_episode(self, physics: Physics, random_state: np.random.RandomState) -> None:
        fixes_per_episode = self._randomize_order and not self._moveable_base
        if fixes_per_episode:
            self.fix_to_table(physics, None)  # Last episode's bottom brick is light again.
        self._brick_placer(physics, random_state)
        if fixes_per_episode:
            self.fix_to_table(physics, self._desired_order[0])
        self._hand.set_grasp(physics, close_factors=random_state.uniform())
        self._tcp_initializer(physics, random_state)
        build_stack(
            physics,
            self._hints,
            self._goal_hint_pos,
            self._goal_hint_quat,
            self._desired_order,
            random_state,
        )

    def get_reward(self, physics: Physics) -> float:
        pairs = list(zip(self._desired_order[:-1], self._desired_order[1:]))
        # NumPy's float64, as dm_control's `np.mean` (the time step's reward type).
        return np.float64(np.mean(self.pairwise_rewards(physics, pairs, close_coef=0.1)))

    def snapshot_state(self) -> dict:
        """The bricks' inertial record and this episode's goal order."""
        return {**super().snapshot_state(), "desired_order": self._desired_order.copy()}

    def restore_state(self, state: dict) -> None:
        super().restore_state(state)
        self._desired_order = _order(state["desired_order"], self._target_height, "desired_order")


class Reassemble(_BrickTask):
    """Take apart a stack of bricks 0, 1, ..., n-1 (brick 0 fixed) and rebuild it as
    0, n-1, ..., 1.

    Args:
      arena, arm, hand, num_bricks, obs_settings, workspace, control_timestep: as
        `Stack`'s.
      randomize_initial_order: shuffle the initial stack's order at every episode
        (dm_control shuffles the previous episode's order in place, so orders
        compound across episodes; so here). Its bottom brick is held to the table.
      randomize_desired_order: shuffle the goal's bricks above the bottom one at
        every episode, and observe the goal order as the task observable
        `desired_order`. Otherwise the goal is the initial stack with its bricks
        above the bottom one reversed.
    """

    def __init__(
        self,
        arena: Table,
        arm: JacoArm,
        hand: JacoHand,
        num_bricks: int,
        randomize_initial_order: bool,
        randomize_desired_order: bool,
        obs_settings: common.ObservationSettings,
        workspace: BrickWorkspace = WORKSPACE,
        control_timestep: float = common.CONTROL_TIMESTEP_S,
    ):
        super().__init__(
            arena,
            arm,
            hand,
            num_bricks,
            obs_settings,
            workspace,
            fixed_index=PER_EPISODE if randomize_initial_order else 0,
            control_timestep=control_timestep,
        )
        self._randomize_initial_order = bool(randomize_initial_order)
        self._randomize_desired_order = bool(randomize_desired_order)
        self._initial_order = np.arange(num_bricks)
        self._desired_order = np.concatenate([[0], np.arange(num_bricks - 1, 0, -1)])
        if randomize_desired_order:
            self._task_observables["desired_order"] = _desired_order_observable(self, obs_settings)
        self._base_pos = distributions.Uniform(*workspace.prop_bbox)
        self._base_quat = common.uniform_z_rotation()

    @property
    def desired_order(self) -> np.ndarray:
        return self._desired_order.copy()

    def initialize_episode_mjcf(self, random_state: np.random.RandomState) -> None:
        # dm_control's draws, here before the bricks draw their stud radii, as there
        # (bricks.py Reassemble): the last episode's initial stack shuffled in place;
        # the goal keeps its (fixed) bottom brick and reverses the rest, which are
        # then shuffled in place.
        if self._randomize_initial_order:
            random_state.shuffle(self._initial_order)
        self._desired_order[0] = self._initial_order[0]
        self._desired_order[1:] = self._initial_order[-1:0:-1]
        if self._randomize_desired_order:
            random_state.shuffle(self._desired_order[1:])

    def initialize_episode(self, physics: Physics, random_state: np.random.RandomState) -> None:
        build_stack(
            physics,
            self._bricks,
            self._base_pos,
            self._base_quat,
            self._initial_order,
            random_state,
        )
        if self._randomize_initial_order:
            self.fix_to_table(physics, self._initial_order[0])
        build_stack(
            physics,
            self._hints,
            self._goal_hint_pos,
            self._goal_hint_quat,
            self._desired_order,
            random_state,
        )
        self._hand.set_grasp(physics, close_factors=random_state.uniform())
        self._tcp_initializer(physics, random_state)

    def get_reward(self, physics: Physics) -> float:
        pairs = list(zip(self._desired_order[:-1], self._desired_order[1:]))
        # No coarse shaping: it would discourage taking the initial stack apart.
        return np.float64(np.mean(self.pairwise_rewards(physics, pairs, close_coef=0.0)))

    def snapshot_state(self) -> dict:
        """The bricks' inertial record and this episode's initial and goal orders."""
        return {
            **super().snapshot_state(),
            "initial_order": self._initial_order.copy(),
            "desired_order": self._desired_order.copy(),
        }

    def restore_state(self, state: dict) -> None:
        super().restore_state(state)
        count = len(self._bricks)
        self._initial_order = _order(state["initial_order"], count, "initial_order")
        self._desired_order = _order(state["desired_order"], count, "desired_order")


def _order(order: ArrayLike, length: int, name: str) -> np.ndarray:
    """A snapshot's brick order as an int array of `length` distinct indices.

    Raises:
      ValueError: it is not.
    """
    order = np.asarray(order)
    if (
        order.shape != (length,)
        or order.dtype.kind not in "iu"
        or len(set(order.tolist())) != length
    ):
        raise ValueError(
            f"the snapshot's {name} must be {length} distinct brick indices, got {order!r}"
        )
    return order.copy()


def _desired_order_observable(
    task: "Stack | Reassemble", settings: common.ObservationSettings
) -> observable.Generic:
    """The goal stack's brick indices, bottom first, as floats (a prop-pose feature)."""
    desired_order = observable.Generic(lambda physics: task.desired_order.astype(np.float64))
    desired_order.configure(**common.observable_options(settings.prop_pose))
    return desired_order


def make_stack(
    settings: common.ObservationSettings,
    num_bricks: int,
    moveable_base: bool,
    target_height: int | None = None,
    randomize_order: bool = False,
) -> Stack:
    """A `Stack` task of `num_bricks` Duplo bricks on the Jaco arm's table (dm_control
    paper section 8.1); `target_height` defaults to all of them."""
    target_height = num_bricks if target_height is None else target_height
    return Stack(
        Table(),
        common.make_arm(settings),
        common.make_hand(settings),
        num_bricks,
        target_height,
        moveable_base,
        randomize_order,
        settings,
    )


def make_reassemble(
    settings: common.ObservationSettings, num_bricks: int, randomize_order: bool = False
) -> Reassemble:
    """A `Reassemble` task of `num_bricks` Duplo bricks on the Jaco arm's table;
    `randomize_order` randomises both the initial and the goal order (dm_control's
    `reassemble_5_bricks_random_order`)."""
    return Reassemble(
        Table(),
        common.make_arm(settings),
        common.make_hand(settings),
        num_bricks,
        randomize_order,
        randomize_order,
        settings,
    )


# dm_control's task functions (its `manipulation/bricks.py`), in its order and with its
# registry tags: each returns a new task; `suites.manipulation.load` wraps one in an
# environment with a 10 s time limit.


@registry.add(tags.FEATURES)
def stack_2_bricks_features() -> Stack:
    """Stack 2 bricks on a base brick held to the table. Observes proprioception, joint torques and the props' poses."""
    return make_stack(common.PERFECT_FEATURES, 2, moveable_base=False)


@registry.add(tags.VISION)
def stack_2_bricks_vision() -> Stack:
    """Stack 2 bricks on a base brick held to the table. Observes proprioception, joint torques and the front_close camera."""
    return make_stack(common.VISION, 2, moveable_base=False)


@registry.add(tags.FEATURES)
def stack_2_bricks_moveable_base_features() -> Stack:
    """Stack 2 bricks, the bottom one free to move. Observes proprioception, joint torques and the props' poses."""
    return make_stack(common.PERFECT_FEATURES, 2, moveable_base=True)


@registry.add(tags.VISION)
def stack_2_bricks_moveable_base_vision() -> Stack:
    """Stack 2 bricks, the bottom one free to move. Observes proprioception, joint torques and the front_close camera."""
    return make_stack(common.VISION, 2, moveable_base=True)


@registry.add(tags.FEATURES)
def stack_3_bricks_features() -> Stack:
    """Stack 3 bricks in a fixed order, the bottom one held to the table. Observes proprioception, joint torques and the props' poses."""
    return make_stack(common.PERFECT_FEATURES, 3, moveable_base=False)


@registry.add(tags.VISION)
def stack_3_bricks_vision() -> Stack:
    """Stack 3 bricks in a fixed order, the bottom one held to the table. Observes proprioception, joint torques and the front_close camera."""
    return make_stack(common.VISION, 3, moveable_base=False)


@registry.add(tags.FEATURES)
def stack_3_bricks_random_order_features() -> Stack:
    """Stack 3 bricks in an order drawn every episode (observed as `desired_order`). Observes proprioception, joint torques and the props' poses."""
    return make_stack(common.PERFECT_FEATURES, 3, moveable_base=False, randomize_order=True)


@registry.add(tags.FEATURES)
def stack_2_of_3_bricks_random_order_features() -> Stack:
    """Stack 2 of 3 bricks, which and in what order drawn every episode. Observes proprioception, joint torques and the props' poses."""
    return make_stack(
        common.PERFECT_FEATURES, 3, moveable_base=False, target_height=2, randomize_order=True
    )


@registry.add(tags.VISION)
def stack_2_of_3_bricks_random_order_vision() -> Stack:
    """Stack 2 of 3 bricks, which and in what order drawn every episode. Observes proprioception, joint torques and the front_close camera."""
    return make_stack(common.VISION, 3, moveable_base=False, target_height=2, randomize_order=True)


@registry.add(tags.FEATURES)
def reassemble_3_bricks_fixed_order_features() -> Reassemble:
    """Take apart a stack of 3 bricks and rebuild it with the top two swapped. Observes proprioception, joint torques and the props' poses."""
    return make_reassemble(common.PERFECT_FEATURES, 3)


@registry.add(tags.VISION)
def reassemble_3_bricks_fixed_order_vision() -> Reassemble:
    """Take apart a stack of 3 bricks and rebuild it with the top two swapped. Observes proprioception, joint torques and the front_close camera."""
    return make_reassemble(common.VISION, 3)


@registry.add(tags.FEATURES)
def reassemble_5_bricks_random_order_features() -> Reassemble:
    """Rebuild a stack of 5 bricks in another order, both orders drawn every episode. Observes proprioception, joint torques and the props' poses."""
    return make_reassemble(common.PERFECT_FEATURES, 5, randomize_order=True)


@registry.add(tags.VISION)
def reassemble_5_bricks_random_order_vision() -> Reassemble:
    """Rebuild a stack of 5 bricks in another order, both orders drawn every episode. Observes proprioception, joint torques and the front_close camera."""
    return make_reassemble(common.VISION, 5, randomize_order=True)
