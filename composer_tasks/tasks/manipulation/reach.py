"""Reach: bring the pinch site to a target site or a Duplo brick (dm_control paper §8.2).

Reward (dm-control 1.0.50 `manipulation/reach.py`): with d the distance (m)
between the pinch site and the target, `tolerance(d, bounds=(0, 0.05),
margin=0.05)` (Gaussian: 1 within 5 cm, 0.1 at 10 cm).
"""

import collections

import mujoco
import numpy as np

from composer_tasks import rewards
from composer_tasks.arenas.table import Table
from composer_tasks.physics import Physics
from composer_tasks.robots import JacoArm
from composer_tasks.robots import JacoHand
from composer_tasks.composer import initializers
from composer_tasks.composer.observation import observable
from composer_tasks.composer.variation import distributions
from composer_tasks.props.bricks import Duplo
from composer_tasks.tasks.manipulation import common
from composer_tasks.tasks.manipulation.shared import registry, tags

ReachWorkspace = collections.namedtuple("ReachWorkspace", ["target_bbox", "tcp_bbox", "arm_offset"])

_PROP_Z_OFFSET_M = 0.001
DUPLO_WORKSPACE = ReachWorkspace(
    target_bbox=common.BoundingBox((-0.1, -0.1, _PROP_Z_OFFSET_M), (0.1, 0.1, _PROP_Z_OFFSET_M)),
    tcp_bbox=common.BoundingBox((-0.1, -0.1, 0.2), (0.1, 0.1, 0.4)),
    arm_offset=common.ARM_OFFSET_M,
)
SITE_WORKSPACE = ReachWorkspace(
    target_bbox=common.BoundingBox((-0.2, -0.2, 0.02), (0.2, 0.2, 0.4)),
    tcp_bbox=common.BoundingBox((-0.2, -0.2, 0.02), (0.2, 0.2, 0.4)),
    arm_offset=common.ARM_OFFSET_M,
)
TARGET_RADIUS_M = 0.05
_SPHERE = mujoco.mjtGeom.mjGEOM_SPHERE


class Reach(common.ArmTask):
    """Move the pinch site to within 5 cm of a target.

    Args:
      arena, arm, hand: the table, `JacoArm` and `JacoHand` (attached here).
      prop: a free prop to reach for, or None for a target site drawn in
        `workspace.target_bbox`.
      obs_settings: a `common.ObservationSettings`.
      workspace: a `ReachWorkspace`.
      control_timestep: seconds per agent step.
    """

    def __init__(
        self,
        arena: Table,
        arm: JacoArm,
        hand: JacoHand,
        prop: Duplo | None,
        obs_settings: common.ObservationSettings,
        workspace: ReachWorkspace,
        control_timestep: float = common.CONTROL_TIMESTEP_S,
    ):
        self._arena, self._arm, self._hand, self._prop = arena, arm, hand, prop
        common.attach_robot(arena, arm, hand, workspace.arm_offset)
        self.set_timesteps(control_timestep, arena.spec.option.timestep)
        self._tcp_initializer = initializers.ToolCenterPointInitializer(
            hand,
            arm,
            position=distributions.Uniform(*workspace.tcp_bbox),
            quaternion=common.DOWN_QUATERNION,
        )
        self._task_observables = common.add_camera_observables(
            arena, obs_settings, common.FRONT_CLOSE
        )
        target_position = distributions.Uniform(*workspace.target_bbox)
        if prop is not None:
            # The prop shows where the target is; its site is hidden.
            self._target = prop.spec.worldbody.add_site(
                name="target_site",
                type=_SPHERE,
                size=[TARGET_RADIUS_M, 0, 0],
                rgba=list(common.RED),
                group=common.TASK_SITE_GROUP,
            )
            arena.add_free_entity(prop)
            self._prop_placer = initializers.PropPlacer(
                [prop],
                position=target_position,
                quaternion=common.uniform_z_rotation(),
                settle_physics=True,
            )
        else:
            self._target = arena.add_site(
                name="target_site",
                type=_SPHERE,
                size=[TARGET_RADIUS_M, 0, 0],
                rgba=list(common.RED),
            )
            self._target_placer = target_position
            target_observable = observable.MJCFFeature("xpos", self._target)
            target_observable.configure(**common.observable_options(obs_settings.prop_pose))
            self._task_observables["target_position"] = target_observable
        common.add_bbox_site(arena, *workspace.tcp_bbox, rgba=common.GREEN, name="tcp_spawn_area")
        common.add_bbox_site(
            arena, *workspace.target_bbox, rgba=common.BLUE, name="target_spawn_area"
        )

    @property
    def target(self) -> mujoco.MjsSite:
        """The target site (on the prop, or on the table's world body)."""
        return self._target

    def initialize_episode(self, physics: Physics, random_state: np.random.RandomState) -> None:
        self._hand.set_grasp(physics, close_factors=random_state.uniform())
        self._tcp_initializer(physics, random_state)
        if self._prop is not None:
            self._prop_placer(physics, random_state)
        else:
            physics.bind(self._target).pos = self._target_placer(random_state=random_state)

    def get_reward(self, physics: Physics) -> float | np.ndarray:
        hand = physics.bind(self._hand.tool_center_point).xpos
        target = physics.bind(self._target).xpos
        distance = np.linalg.norm(hand - target)
        return rewards.tolerance(distance, bounds=(0, TARGET_RADIUS_M), margin=TARGET_RADIUS_M)


def make_reach(settings: common.ObservationSettings, use_site: bool) -> Reach:
    """A `Reach` task: to a target site (`use_site`) or to a Duplo brick."""
    arena = Table()
    arm, hand = common.make_arm(settings), common.make_hand(settings)
    if use_site:
        return Reach(arena, arm, hand, None, settings, SITE_WORKSPACE)
    prop = Duplo(observable_options=common.make_options(settings, common.FREEPROP_OBSERVABLES))
    return Reach(arena, arm, hand, prop, settings, DUPLO_WORKSPACE)


# dm_control's task functions (its `manipulation/reach.py`), in its order and with its
# registry tags (the reach tasks are the "easy" ones).


@registry.add(tags.FEATURES, tags.EASY)
def reach_duplo_features() -> Reach:
    """Bring the pinch site to a Duplo brick. Observes proprioception, joint torques and the props' poses."""
    return make_reach(common.PERFECT_FEATURES, use_site=False)


@registry.add(tags.VISION, tags.EASY)
def reach_duplo_vision() -> Reach:
    """Bring the pinch site to a Duplo brick. Observes proprioception, joint torques and the front_close camera."""
    return make_reach(common.VISION, use_site=False)


@registry.add(tags.FEATURES, tags.EASY)
def reach_site_features() -> Reach:
    """Bring the pinch site to a target site. Observes proprioception, joint torques and the props' poses."""
    return make_reach(common.PERFECT_FEATURES, use_site=True)


@registry.add(tags.VISION, tags.EASY)
def reach_site_vision() -> Reach:
    """Bring the pinch site to a target site. Observes proprioception, joint torques and the front_close camera."""
    return make_reach(common.VISION, use_site=True)
