"""Place: put a brick on a raised target, a fixed brick or a cradle (dm_control paper §8.2).

Reward (dm-control 1.0.50 `manipulation/place.py`), with r = 0.05 m and the
distances between the pinch site (tcp), the brick's origin (obj) and the target
site on the pedestal (target), every term a long-tail `tolerance`:

    grasp     = tolerance(|obj - tcp|,    bounds=(0, r),      margin=r)
    in_place  = tolerance(|obj - target|, bounds=(0, r),      margin=r)
    hand_away = tolerance(|tcp - target|, bounds=(4 r, inf), margin=3 r)
    reward = (grasp (1 - in_place) + hand_away in_place + 10 in_place) / 11

The bricks need not snap together for full reward.
"""

import collections

import numpy as np

from composer_tasks import rewards
from composer_tasks.arenas.table import Table
from composer_tasks.physics import Physics
from composer_tasks.robots import JacoArm
from composer_tasks.robots import JacoHand
from composer_tasks.composer import initializers
from composer_tasks.composer.variation import distributions
from composer_tasks.props.bricks import Duplo
from composer_tasks.props.pedestal import PEDESTAL_RADIUS_M
from composer_tasks.props.pedestal import Pedestal
from composer_tasks.props.pedestal import PedestalObservables
from composer_tasks.props.pedestal import SphereCradle
from composer_tasks.tasks.manipulation import common
from composer_tasks.tasks.manipulation.shared import registry, tags

# dm_control defines the pedestal and the cradle in this module; here they are props.
__all__ = [
    "Pedestal",
    "PedestalObservables",
    "Place",
    "PlaceWorkspace",
    "SphereCradle",
    "TARGET_RADIUS_M",
    "WORKSPACE",
    "make_place",
    "place_brick_features",
    "place_brick_vision",
    "place_cradle_features",
    "place_cradle_vision",
]

PlaceWorkspace = collections.namedtuple(
    "PlaceWorkspace", ["prop_bbox", "target_bbox", "tcp_bbox", "arm_offset"]
)
TARGET_RADIUS_M = 0.05
_PROP_Z_OFFSET_M = 1e-6
WORKSPACE = PlaceWorkspace(
    prop_bbox=common.BoundingBox((-0.1, -0.1, _PROP_Z_OFFSET_M), (0.1, 0.1, _PROP_Z_OFFSET_M)),
    tcp_bbox=common.BoundingBox((-0.1, -0.1, PEDESTAL_RADIUS_M + 0.1), (0.1, 0.1, 0.4)),
    target_bbox=common.BoundingBox(
        (-0.1, -0.1, PEDESTAL_RADIUS_M), (0.1, 0.1, PEDESTAL_RADIUS_M + 0.1)
    ),
    arm_offset=common.ARM_OFFSET_M,
)
_IN_PLACE_WEIGHT = 10.0


class Place(common.ArmTask):
    """Place `prop` on the `cradle` held up by a pedestal.

    Args:
      arena, arm, hand: the table, `JacoArm` and `JacoHand` (attached here).
      prop: the free brick to place.
      obs_settings: a `common.ObservationSettings`.
      workspace: a `PlaceWorkspace`.
      control_timestep: seconds per agent step.
      cradle: the entity on top of the pedestal (a `Duplo` or a `SphereCradle`).
    """

    def __init__(
        self,
        arena: Table,
        arm: JacoArm,
        hand: JacoHand,
        prop: Duplo,
        obs_settings: common.ObservationSettings,
        workspace: PlaceWorkspace,
        control_timestep: float,
        cradle: Duplo | SphereCradle,
    ):
        self._arena, self._arm, self._hand, self._prop = arena, arm, hand, prop
        common.attach_robot(arena, arm, hand, workspace.arm_offset)
        self.set_timesteps(control_timestep, arena.spec.option.timestep)
        self._task_observables = common.add_camera_observables(
            arena, obs_settings, common.FRONT_CLOSE
        )
        self._tcp_initializer = initializers.ToolCenterPointInitializer(
            hand,
            arm,
            position=distributions.Uniform(*workspace.tcp_bbox),
            quaternion=common.DOWN_QUATERNION,
        )
        arena.add_free_entity(prop)
        self._pedestal = Pedestal(cradle=cradle, target_radius=TARGET_RADIUS_M)
        arena.attach(self._pedestal)
        for pedestal_observable in self._pedestal.observables.values():
            pedestal_observable.configure(**common.observable_options(obs_settings.prop_pose))
        self._prop_placer = initializers.PropPlacer(
            [prop],
            position=distributions.Uniform(*workspace.prop_bbox),
            quaternion=common.uniform_z_rotation(),
            settle_physics=True,
            max_attempts_per_prop=50,
        )
        self._pedestal_placer = initializers.PropPlacer(
            [self._pedestal],
            position=distributions.Uniform(*workspace.target_bbox),
            settle_physics=False,
        )
        common.add_bbox_site(arena, *workspace.tcp_bbox, rgba=common.GREEN, name="tcp_spawn_area")
        common.add_bbox_site(arena, *workspace.prop_bbox, rgba=common.BLUE, name="prop_spawn_area")
        common.add_bbox_site(
            arena, *workspace.target_bbox, rgba=common.CYAN, name="pedestal_spawn_area"
        )

    @property
    def prop(self) -> Duplo:
        return self._prop

    @property
    def pedestal(self) -> Pedestal:
        return self._pedestal

    def initialize_episode(self, physics: Physics, random_state: np.random.RandomState) -> None:
        self._pedestal_placer(physics, random_state, ignore_contacts_with_entities=[self._prop])
        self._hand.set_grasp(physics, close_factors=random_state.uniform())
        self._tcp_initializer(physics, random_state)
        self._prop_placer(physics, random_state)

    def get_reward(self, physics: Physics) -> float | np.ndarray:
        target = physics.bind(self._pedestal.target_site).xpos
        obj = physics.bind(self._prop.attachment_body).xpos
        tcp = physics.bind(self._hand.tool_center_point).xpos
        grasp = rewards.tolerance(
            np.linalg.norm(obj - tcp),
            bounds=(0, TARGET_RADIUS_M),
            margin=TARGET_RADIUS_M,
            sigmoid="long_tail",
        )
        in_place = rewards.tolerance(
            np.linalg.norm(obj - target),
            bounds=(0, TARGET_RADIUS_M),
            margin=TARGET_RADIUS_M,
            sigmoid="long_tail",
        )
        hand_away = rewards.tolerance(
            np.linalg.norm(tcp - target),
            bounds=(4 * TARGET_RADIUS_M, np.inf),
            margin=3 * TARGET_RADIUS_M,
            sigmoid="long_tail",
        )
        grasp_or_hand_away = grasp * (1 - in_place) + hand_away * in_place
        return (grasp_or_hand_away + _IN_PLACE_WEIGHT * in_place) / (1 + _IN_PLACE_WEIGHT)


def make_place(settings: common.ObservationSettings, cradle_name: str) -> Place:
    """A `Place` task: a Duplo brick onto `cradle_name` ("duplo" or "cradle").

    Raises:
      ValueError: another cradle name.
    """
    prop = Duplo(observable_options=common.make_options(settings, common.FREEPROP_OBSERVABLES))
    if cradle_name == "duplo":
        cradle = Duplo()
    elif cradle_name == "cradle":
        cradle = SphereCradle()
    else:
        raise ValueError(f"cradle_name must be 'duplo' or 'cradle', got {cradle_name!r}")
    return Place(
        Table(),
        common.make_arm(settings),
        common.make_hand(settings),
        prop,
        settings,
        WORKSPACE,
        common.CONTROL_TIMESTEP_S,
        cradle,
    )


# dm_control's task functions (its `manipulation/place.py`), in its order and with its
# registry tags.


@registry.add(tags.FEATURES)
def place_brick_features() -> Place:
    """Place a Duplo brick on a brick held up by a pedestal. Observes proprioception, joint torques and the props' poses."""
    return make_place(common.PERFECT_FEATURES, "duplo")


@registry.add(tags.VISION)
def place_brick_vision() -> Place:
    """Place a Duplo brick on a brick held up by a pedestal. Observes proprioception, joint torques and the front_close camera."""
    return make_place(common.VISION, "duplo")


@registry.add(tags.FEATURES)
def place_cradle_features() -> Place:
    """Place a Duplo brick in a cradle of spheres held up by a pedestal. Observes proprioception, joint torques and the props' poses."""
    return make_place(common.PERFECT_FEATURES, "cradle")


@registry.add(tags.VISION)
def place_cradle_vision() -> Place:
    """Place a Duplo brick in a cradle of spheres held up by a pedestal. Observes proprioception, joint torques and the front_close camera."""
    return make_place(common.VISION, "cradle")
