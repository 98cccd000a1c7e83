"""Lift: raise a brick or a large box 0.3 m above where it rested (dm_control paper §8.2).

Reward (dm-control 1.0.50 `manipulation/lift.py`): with h the height (m) of the
prop's lowest bounding-box corner and h0 + 0.3 the target (h0 measured after the
prop settled at reset), `tolerance(h, bounds=(h0 + 0.3, inf), margin=0.3,
value_at_margin=0, sigmoid="linear")`: 0 at rest, rising linearly to 1 at the
target height.

The large box (0.18 m cube, 1.3 kg) is too big for a pinch grip and must be
lifted by other means.
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
from composer_tasks.props.primitive import Primitive
from composer_tasks.tasks.manipulation import common
from composer_tasks.tasks.manipulation.shared import registry, tags

LiftWorkspace = collections.namedtuple("LiftWorkspace", ["prop_bbox", "tcp_bbox", "arm_offset"])

DUPLO_WORKSPACE = LiftWorkspace(
    prop_bbox=common.BoundingBox((-0.1, -0.1, 0.0), (0.1, 0.1, 0.0)),
    tcp_bbox=common.BoundingBox((-0.1, -0.1, 0.2), (0.1, 0.1, 0.4)),
    arm_offset=common.ARM_OFFSET_M,
)
BOX_HALF_SIZE_M = 0.09
BOX_MASS_KG = 1.3
BOX_WORKSPACE = LiftWorkspace(
    prop_bbox=common.BoundingBox((-0.1, -0.1, BOX_HALF_SIZE_M), (0.1, 0.1, BOX_HALF_SIZE_M)),
    tcp_bbox=common.BoundingBox((-0.1, -0.1, 0.2), (0.1, 0.1, 0.4)),
    arm_offset=common.ARM_OFFSET_M,
)
DISTANCE_TO_LIFT_M = 0.3


class Lift(common.ArmTask):
    """Lift `prop` (an entity with `vertices` sites) by 0.3 m.

    Args:
      arena, arm, hand: the table, `JacoArm` and `JacoHand` (attached here).
      prop: the free prop to lift; its `vertices` are the corners of its bounds.
      obs_settings: a `common.ObservationSettings`.
      workspace: a `LiftWorkspace`.
      control_timestep: seconds per agent step.
    """

    def __init__(
        self,
        arena: Table,
        arm: JacoArm,
        hand: JacoHand,
        prop: Duplo | Primitive,
        obs_settings: common.ObservationSettings,
        workspace: LiftWorkspace,
        control_timestep: float = common.CONTROL_TIMESTEP_S,
    ):
        if not prop.vertices:
            raise ValueError(
                f"prop {prop.name!r} has no vertex sites; build it with vertex_sites=True"
            )
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
        self._prop_placer = initializers.PropPlacer(
            [prop],
            position=distributions.Uniform(*workspace.prop_bbox),
            quaternion=common.uniform_z_rotation(),
            ignore_collisions=True,
            settle_physics=True,
        )
        self._target_height_site = common.add_bbox_site(
            arena, (-1, -1, 0), (1, 1, 0), rgba=common.RED, name="target_height"
        )
        common.add_bbox_site(arena, *workspace.tcp_bbox, rgba=common.GREEN, name="tcp_spawn_area")
        common.add_bbox_site(arena, *workspace.prop_bbox, rgba=common.BLUE, name="prop_spawn_area")
        self._target_height = DISTANCE_TO_LIFT_M

    @property
    def prop(self) -> Duplo | Primitive:
        return self._prop

    @property
    def target_height(self) -> float:
        """This episode's target height (m) of the prop's lowest corner."""
        return self._target_height

    def lowest_vertex_height(self, physics: Physics) -> float:
        """Height (m) of the prop's lowest bounding-box corner."""
        # A Primitive's vertices are PyMJCF handles, a brick's spec sites.
        sites = [getattr(site, "spec_element", site) for site in self._prop.vertices]
        vertex_ids = physics.element_ids(sites)
        return float(np.min(physics.data.site_xpos[vertex_ids, 2]))

    def initialize_episode(self, physics: Physics, random_state: np.random.RandomState) -> None:
        self._hand.set_grasp(physics, close_factors=random_state.uniform())
        self._prop_placer(physics, random_state)
        self._tcp_initializer(physics, random_state)
        self._target_height = DISTANCE_TO_LIFT_M + self.lowest_vertex_height(physics)
        physics.bind(self._target_height_site).pos[2] = self._target_height

    def get_reward(self, physics: Physics) -> float | np.ndarray:
        return rewards.tolerance(
            self.lowest_vertex_height(physics),
            bounds=(self._target_height, np.inf),
            margin=DISTANCE_TO_LIFT_M,
            value_at_margin=0.0,
            sigmoid="linear",
        )

    # Snapshots (composer.Environment.snapshot): the target height is Python state.

    def snapshot_state(self) -> dict:
        """This episode's target height (m)."""
        return {"target_height": self._target_height}

    def restore_state(self, state: dict) -> None:
        self._target_height = float(state["target_height"])


def make_lift(settings: common.ObservationSettings, prop_name: str) -> Lift:
    """A `Lift` task of the prop `prop_name` ("duplo" or "box").

    Raises:
      ValueError: another prop name.
    """
    options = common.make_options(settings, common.FREEPROP_OBSERVABLES)
    if prop_name == "duplo":
        prop, workspace = Duplo(vertex_sites=True, observable_options=options), DUPLO_WORKSPACE
    elif prop_name == "box":
        # dm_control builds the box without a name, so its observations are named
        # "unnamed_model/..."; the same name keeps the observation keys equal.
        prop = Primitive(
            "box",
            [BOX_HALF_SIZE_M] * 3,
            name="unnamed_model",
            mass=BOX_MASS_KG,
            vertex_sites=True,
            observable_options=options,
        )
        workspace = BOX_WORKSPACE
    else:
        raise ValueError(f"prop_name must be 'duplo' or 'box', got {prop_name!r}")
    return Lift(
        Table(), common.make_arm(settings), common.make_hand(settings), prop, settings, workspace
    )


# dm_control's task functions (its `manipulation/lift.py`), in its order and with its
# registry tags.


@registry.add(tags.FEATURES)
def lift_brick_features() -> Lift:
    """Lift a Duplo brick. Observes proprioception, joint torques and the props' poses."""
    return make_lift(common.PERFECT_FEATURES, "duplo")


@registry.add(tags.VISION)
def lift_brick_vision() -> Lift:
    """Lift a Duplo brick. Observes proprioception, joint torques and the front_close camera."""
    return make_lift(common.VISION, "duplo")


@registry.add(tags.FEATURES)
def lift_large_box_features() -> Lift:
    """Lift a box too large for a pinch grip. Observes proprioception, joint torques and the props' poses."""
    return make_lift(common.PERFECT_FEATURES, "box")


@registry.add(tags.VISION)
def lift_large_box_vision() -> Lift:
    """Lift a box too large for a pinch grip. Observes proprioception, joint torques and the front_close camera."""
    return make_lift(common.VISION, "box")
