"""LegacyWalker: the walker API of dm_control's `walkers.legacy_base`, which the soccer
walkers (BoxHead, Ant) build on (dm-control 1.0.50, `locomotion/walkers/legacy_base.py`).

Public API (what a task uses, besides `base.Walker`'s):

* `action_spec`: a `specs.BoundedArray` of shape (n_actuators,), float64,
  bounds the actuators' control ranges, named by the actuator names joined with
  tabs without the walker's prefix (as dm_control's `Walker.action_spec`).
* `apply_action(physics, action, random_state)`: writes the controls and records
  the action as `prev_action`.
* `prev_action`: the action last applied this episode (zeros after
  `initialize_episode`), a new array.
* `aliveness(physics)`: in [-1, 0]; 0 unless the walker overrides it.
* `marker_geoms`: the geoms coloured with `marker_rgba` (team colour).
* `snapshot_state()` / `restore_state(state)`: `prev_action`, the only Python state
  kept across steps (`composer.Environment.snapshot`).

Observables (`LegacyWalkerObservables`) have dm_control's legacy names and shapes,
which the soccer agents see: `body_height` is a scalar `()`, `end_effectors_pos` is
flat `(3 * n_end_effectors,)` (egocentric, m), `world_zaxis` (3,), `joints_pos`,
`joints_vel` (n_joints,), `sensors_velocimeter`, `sensors_accelerometer`,
`sensors_gyro` (3,), `sensors_touch` (n_touch,) thresholded at 1 mN,
`sensors_torque` (3 * n_torque,),
`sensors_rangefinder` (n_rangefinder,) as 10 tanh(d / 10) m with no hit as 10 m,
`prev_action` (n_actuators,), `position` (3,), `orientation` (9,), and the scalars
`veloc_forward`, `veloc_strafe`, `veloc_up` (m/s, egocentric), `gyro_backward_roll`,
`gyro_rightward_roll`, `gyro_anticlockwise_spin` (rad/s), `torso_xvel`,
`torso_yvel` (m/s, world frame, centre of mass). `proprioception` and
`kinematic_sensors` group them as dm_control does. All start disabled (dm_control's
convention; this project's other walkers enable theirs).
"""

from typing import Any, Collection, Sequence, cast

import mujoco
import numpy as np
from numpy.typing import ArrayLike

from composer_tasks import composer
from composer_tasks.composer.observation import observable
from composer_tasks.physics import Physics
from composer_tasks.walkers import base
from composer_tasks.walkers import initializers as walker_initializers

# dm_control legacy_base: rangefinder readings are squashed as scale * tanh(d / scale),
# with "no hit" (-1) read as infinitely far.
RANGEFINDER_SCALE_M = 10.0

_XBODY = mujoco.mjtObj.mjOBJ_XBODY


class LegacyMembers:
    """dm_control's legacy walker's members beside its build: the subtree velocity
    refreshed after every substep, the compiled geom ids of the end effectors and of
    the rest, contact summaries, actuator forces, `aliveness`, `obs_on_other`,
    `end_effectors_pos_sensors` and the mocap joint orders. Shared by `LegacyWalker`
    and the CMU humanoids (whose base is dm_control's legacy walker too)."""

    def after_substep(self, physics: Any, random_state: Any) -> None:
        """Refreshes `data.subtree_linvel` after every physics step, as dm_control's
        legacy walker does (`base.refresh_subtree_velocity`: torso_xvel, torso_yvel)."""
        del random_state  # unused, as there
        base.refresh_subtree_velocity(physics)

    def after_compile(self, physics: Physics, random_state: np.random.RandomState) -> None:
        """Records the compiled ids of the end effectors' geoms (every geom in their
        subtrees) and of the walker's other geoms, attached entities' included, as
        dm_control's legacy walker does (`end_effector_geom_ids`, `body_geom_ids`);
        again only when the model was compiled anew."""
        super().after_compile(physics, random_state)  # type: ignore[misc]
        model = physics.model
        if self.__dict__.get("_geom_ids_of_model") is model:
            return
        walker = cast("base.Walker", self)
        end_effector_geoms = [
            geom for body in walker.end_effectors for geom in body.find_all("geom")
        ]
        self._end_effector_geom_ids = _geom_ids(physics, end_effector_geoms)
        all_geoms = list(walker.mjcf_model.find_all("geom"))
        self._body_geom_ids = _geom_ids(physics, all_geoms) - self._end_effector_geom_ids
        self._geom_ids_of_model = model

    @property
    def end_effector_geom_ids(self) -> set[int]:
        """Compiled ids of the end effectors' geoms (set at `after_compile`)."""
        return self.__dict__.setdefault("_end_effector_geom_ids", set())

    @property
    def body_geom_ids(self) -> set[int]:
        """Compiled ids of the walker's geoms other than the end effectors' (set at
        `after_compile`)."""
        return self.__dict__.setdefault("_body_geom_ids", set())

    @property
    def obs_on_other(self) -> dict[str, Any]:
        """dm_control's legacy `obs_on_other`: a dict a task may fill with
        observables of other entities; the walker itself adds none."""
        return self.__dict__.setdefault("_obs_on_other", {})

    @property
    def end_effectors_pos_sensors(self) -> list[Any]:
        """The `framepos` sensors the `end_effectors_pos` observable added (one per
        end effector, relative to the root body), empty before it is built."""
        return self.__dict__.setdefault("_end_effectors_pos_sensors", [])

    def end_effector_contacts(self, physics: Physics) -> dict[tuple[int, int], float]:
        """Contacts touching an end effector: `collect_contacts` over
        `end_effector_geom_ids`."""
        return self.collect_contacts(physics, self.end_effector_geom_ids)

    def body_contacts(self, physics: Physics) -> dict[tuple[int, int], float]:
        """Contacts touching the walker's other geoms: `collect_contacts` over
        `body_geom_ids`."""
        return self.collect_contacts(physics, self.body_geom_ids)

    def collect_contacts(
        self, physics: Physics, geom_ids: Collection[int]
    ) -> dict[tuple[int, int], float]:
        """dm_control's legacy contact summary: for each active contact (dist below
        includemargin) with a geom in `geom_ids`, its normal force (N, the first
        component of `mj_contactForce`), summed per (geom1, geom2) pair of ids."""
        contacts: dict[tuple[int, int], float] = {}
        force_torque = np.zeros(6)
        data = physics.data
        for index in range(data.ncon):
            contact = data.contact[index]
            geom1, geom2 = int(contact.geom1), int(contact.geom2)
            if (geom1 in geom_ids or geom2 in geom_ids) and contact.dist < contact.includemargin:
                mujoco.mj_contactForce(physics.model, data, index, force_torque)
                contacts[(geom1, geom2)] = float(force_torque[0]) + contacts.get(
                    (geom1, geom2), 0.0
                )
        return contacts

    def actuator_force(self, physics: Physics) -> np.ndarray:
        """The actuator forces on the observable joints (`qfrc_actuator`, N or N m)."""
        joints = cast("base.Walker", self)._observable_joints
        return np.array(physics.bind(list(joints)).qfrc_actuator)

    def aliveness(self, physics: Physics) -> float:
        """dm_control's legacy aliveness in [-1, 0] (0: alive); always 0, as there."""
        del physics
        return 0.0

    @property
    def mocap_to_observable_joint_order(self) -> list[int]:
        """For each observable joint, its index in `mocap_joints`."""
        walker = cast(Any, self)
        mocap = [joint.spec_element for joint in walker.mocap_joints]
        return [mocap.index(joint) for joint in walker._observable_joints]

    @property
    def observable_to_mocap_joint_order(self) -> list[int]:
        """For each of `mocap_joints`, its index in `observable_joints`."""
        walker = cast(Any, self)
        observable_joints = list(walker._observable_joints)
        return [observable_joints.index(joint.spec_element) for joint in walker.mocap_joints]


class LegacyWalker(LegacyMembers, base.Walker):
    """A walker with dm_control's legacy API (`prev_action`, `action_spec`, `aliveness`).

    Subclasses call `_set_parts` as every walker does, then `_init_legacy(...)`.
    A subclass written for dm_control instead calls `super()._build(initializer)`
    first, builds its `mjcf_model` and overrides the part properties (see
    `base.Walker._parts_from_properties`); its legacy state is then set up when its
    observables are built.
    """

    def _build(self, initializer: Any = None) -> None:
        """dm_control's legacy walker's build, which its subclasses call first.

        Args:
          initializer: a pose initializer or an iterable of them; None (dm_control's
            default) is one `walkers.initializers.UprightInitializer`.
        """
        # dm_control legacy_base.py: any iterable is a sequence of initializers.
        try:
            self._pending_initializers = tuple(initializer)
        except TypeError:
            self._pending_initializers = (initializer or walker_initializers.UprightInitializer(),)

    def _parts_from_properties(self) -> None:
        """`base.Walker`'s, then, for a walker written as dm_control's (it called
        `_build(initializer)` and overrides the part properties), the legacy state:
        its initializers, no marker geoms, its model's rangefinder sensors."""
        has_parts = "_root_body" in self.__dict__
        super()._parts_from_properties()
        if has_parts or "_prev_action" in self.__dict__:
            return
        pending = self.__dict__.get("_pending_initializers")
        if pending is None:
            raise TypeError(
                f"{type(self).__name__} must call _set_parts and _init_legacy, or "
                "super()._build(initializer) as dm_control's legacy walkers do, in _build"
            )
        rangefinders = [
            sensor
            for sensor in self._spec.sensors
            if sensor.type == mujoco.mjtSensor.mjSENS_RANGEFINDER
        ]
        self._init_legacy((), rangefinders, list(pending))

    def _init_legacy(
        self,
        marker_geoms: Sequence[Any],
        rangefinder_sensors: Sequence[Any] = (),
        initializer: Any = None,
    ) -> None:
        """Finishes a legacy walker's build (in `_build`, after `_set_parts`).

        Args:
          marker_geoms: the geoms that show the team colour (`marker_geoms`).
          rangefinder_sensors: the walker's rangefinder sensors, in observation order.
          initializer: None, a pose initializer or a sequence of them, added in order
            (`add_initializer`).
        """
        self._marker_geoms = tuple(marker_geoms)
        self._rangefinder_sensors = tuple(rangefinder_sensors)
        self._prev_action = np.zeros(len(self.actuators))
        self.__dict__.setdefault("_end_effectors_pos_sensors", [])
        self._obs_on_other: dict[str, Any] = {}
        self._end_effector_geom_ids: set[int] = set()
        self._body_geom_ids: set[int] = set()
        if initializer is not None:
            for item in initializer if isinstance(initializer, (list, tuple)) else [initializer]:
                self.add_initializer(item)

    def _build_observables(self) -> "LegacyWalkerObservables":
        return LegacyWalkerObservables(self)

    @property
    def rangefinder_sensors(self) -> tuple:
        return self._handles(self._rangefinder_sensors)

    def initialize_episode(self, physics: Physics, random_state: np.random.RandomState) -> None:
        """The initial pose (`base.Walker.initialize_episode`) and a zero `prev_action`."""
        super().initialize_episode(physics, random_state)
        self._prev_action = np.zeros(len(self.actuators))

    def apply_action(
        self, physics: Physics, action: ArrayLike, random_state: np.random.RandomState | None
    ) -> None:
        """Writes `action` into the controls (see `base.Walker.apply_action`, which
        checks it) and records it as `prev_action`."""
        super().apply_action(physics, action, random_state)
        self._prev_action = np.array(action, dtype=np.float64)

    @property
    def prev_action(self) -> np.ndarray:
        """The action applied at the previous control step (zeros at the start of
        an episode), a new float64 array of shape (n_actuators,)."""
        return self._prev_action.copy()

    @property
    def mocap_joints(self) -> tuple:
        """dm_control's legacy `mocap_joints`: every joint of the walker's own
        model (not the root joints of its attachment), in model order, as handles."""
        return tuple(self.mjcf_model.find_all("joint"))

    @property
    def marker_geoms(self) -> tuple:
        """The geoms that show the walker's `marker_rgba` (its team colour)."""
        return self._handles(self._marker_geoms)

    def snapshot_state(self) -> dict:
        """The walker's Python state (composer.Environment.snapshot): `prev_action`."""
        return dict(prev_action=self._prev_action.copy())

    def restore_state(self, state: dict) -> None:
        """Returns the walker to a `snapshot_state()` of a walker built alike."""
        prev_action = np.asarray(state["prev_action"], dtype=np.float64)
        if prev_action.shape != self._prev_action.shape:
            raise ValueError(
                f"walker {self.name!r}: the snapshot's prev_action has shape "
                f"{prev_action.shape}, expected {self._prev_action.shape}"
            )
        self._prev_action = prev_action.copy()


def _sensor_component(sensor: Any, index: int, kind: str) -> observable.Observable:
    """Component `index` of a 3-axis sensor's reading. A walker without that sensor
    (one written as dm_control's may have none) gets an observable that raises when
    evaluated, as dm_control's feature over no sensor does when enabled."""
    if sensor is None:

        def missing(physics: Physics) -> np.ndarray:
            raise ValueError(f"this walker has no {kind} sensor to observe")

        return observable.Generic(missing)
    return observable.MJCFFeature("sensordata", sensor, index=index)


def _geom_ids(physics: Physics, geoms: Sequence[Any]) -> set[int]:
    if not geoms:
        return set()
    return {int(i) for i in physics.element_ids([geom.spec_element for geom in geoms])}


def _squashed_rangefinder(sensors: Sequence[Any], physics: Physics) -> np.ndarray:
    distances = np.array(physics.bind(sensors).sensordata, dtype=np.float64)
    distances[distances == -1.0] = np.inf
    return RANGEFINDER_SCALE_M * np.tanh(distances / RANGEFINDER_SCALE_M)


def _empty(physics: Physics) -> np.ndarray:
    del physics
    return np.zeros(0)


class RootMotionObservables(base.WalkerObservables):
    """dm_control's legacy scalars of a walker's root: its world position and
    orientation, velocimeter and gyro components, and its centre of mass's world
    velocity. Shared by the legacy walkers and the CMU humanoid."""

    @composer.observable
    def position(self) -> observable.Observable:
        """World position of the root body (m), (3,)."""
        return observable.MJCFFeature("xpos", self._entity._root_body)

    @composer.observable
    def orientation(self) -> observable.Observable:
        """World orientation of the root body, row-major 3x3 flattened, (9,)."""
        return observable.MJCFFeature("xmat", self._entity._root_body)

    @composer.observable
    def veloc_forward(self) -> observable.Observable:
        """Forward velocity of the root (m/s), a scalar."""
        return _sensor_component(self._entity._velocimeter, 0, "velocimeter")

    @composer.observable
    def veloc_strafe(self) -> observable.Observable:
        """Leftward velocity of the root (m/s), a scalar."""
        return _sensor_component(self._entity._velocimeter, 1, "velocimeter")

    @composer.observable
    def veloc_up(self) -> observable.Observable:
        """Upward velocity of the root (m/s), a scalar."""
        return _sensor_component(self._entity._velocimeter, 2, "velocimeter")

    @composer.observable
    def gyro_backward_roll(self) -> observable.Observable:
        """Angular velocity about the root's x axis (rad/s), a scalar."""
        return _sensor_component(self._entity._gyro, 0, "gyro")

    @composer.observable
    def gyro_rightward_roll(self) -> observable.Observable:
        """Angular velocity about the root's y axis (rad/s), a scalar."""
        return _sensor_component(self._entity._gyro, 1, "gyro")

    @composer.observable
    def gyro_anticlockwise_spin(self) -> observable.Observable:
        """Angular velocity about the root's z axis (rad/s), a scalar."""
        return _sensor_component(self._entity._gyro, 2, "gyro")

    @composer.observable
    def torso_xvel(self) -> observable.Observable:
        """World x velocity of the walker's centre of mass (m/s), a scalar."""
        return observable.MJCFFeature("subtree_linvel", self._entity._root_body, index=0)

    @composer.observable
    def torso_yvel(self) -> observable.Observable:
        """World y velocity of the walker's centre of mass (m/s), a scalar."""
        return observable.MJCFFeature("subtree_linvel", self._entity._root_body, index=1)

    @composer.observable
    def prev_action(self) -> observable.Observable:
        """The action applied at the previous control step, (n_actuators,)."""
        entity = self._entity
        return observable.Generic(lambda physics: entity.prev_action)

    def add_egocentric_xmat(
        self, name: str, xmat_observable: observable.Observable, enabled: bool = True, **kwargs: Any
    ) -> None:
        """dm_control's `add_egocentric_xmat`: adds observable `name`, the value of
        `xmat_observable` (an orientation matrix, (3, 3) or (9,), from some frame to
        the world) as the matrix to the walker's egocentric frame
        (`transform_xmat_to_egocentric_frame`). `kwargs` are `observable.Generic`
        options."""
        entity = self._entity

        def egocentric(physics: Physics) -> np.ndarray:
            xmat = xmat_observable.observation_callable(physics)()
            return entity.transform_xmat_to_egocentric_frame(physics, xmat)

        self.add_observable(name, observable.Generic(egocentric, **kwargs), enabled=enabled)


class LegacyWalkerObservables(RootMotionObservables):
    """dm_control's legacy walker observables (names and shapes: module docstring).

    All start disabled, as in dm_control: a task enables what its agents see (the
    soccer task: `proprioception`, `kinematic_sensors` and `prev_action`).
    """

    def __init__(self, entity: LegacyWalker) -> None:
        super().__init__(entity)
        self.disable_all()

    @composer.observable
    def body_height(self) -> observable.Observable:
        """World z of the root body's origin (m), a scalar."""
        return observable.MJCFFeature("xpos", self._entity._root_body, index=2)

    @composer.observable
    def end_effectors_pos(self) -> observable.Observable:
        """End-effector positions relative to the root (m), egocentric frame,
        flattened to (3 * n_end_effectors,)."""
        entity = self._entity
        entity.end_effectors_pos_sensors[:] = [
            entity.spec.add_sensor(
                name=f"{body.name}_end_effector",
                type=mujoco.mjtSensor.mjSENS_FRAMEPOS,
                objtype=_XBODY,
                objname=body.name,
                reftype=_XBODY,
                refname=entity._root_body.name,
            )
            for body in entity._end_effectors
        ]
        if not entity.end_effectors_pos_sensors:
            return observable.Generic(_empty)  # (0,), as dm_control's reading of none.
        return observable.MJCFFeature("sensordata", list(entity.end_effectors_pos_sensors))

    @composer.observable
    def world_zaxis(self) -> observable.Observable:
        """The world's z axis in the root body's frame, (3,)."""
        return observable.MJCFFeature("xmat", self._entity._root_body, index=slice(6, 9))

    @composer.observable
    def sensors_torque(self) -> observable.Observable:
        """Torque sensor readings (N m), flattened: (3 * n_torque_sensors,)."""
        sensors = list(self._entity._torque_sensors)
        if not sensors:
            return observable.Generic(_empty)
        return observable.MJCFFeature("sensordata", sensors)

    @composer.observable
    def sensors_force(self) -> observable.Observable:
        """Force sensor readings (N), flattened: (3 * n_force_sensors,), (0,) without."""
        return base.sensordata_of_type(self._entity, mujoco.mjtSensor.mjSENS_FORCE)

    @property
    def dynamic_sensors(self) -> list[observable.Observable]:
        """dm_control's legacy group: force, torque and touch, empty or not."""
        return [self.sensors_force, self.sensors_torque, self.sensors_touch]

    @composer.observable
    def sensors_rangefinder(self) -> observable.Observable:
        """Rangefinder distances (m) squashed as 10 tanh(d / 10); no hit reads 10."""
        sensors = list(self._entity.rangefinder_sensors)
        if not sensors:
            return observable.Generic(_empty)
        return observable.Generic(lambda physics: _squashed_rangefinder(sensors, physics))


# dm_control's names for these classes (`locomotion.walkers.legacy_base.Walker` and
# `.WalkerObservables`).
Walker = LegacyWalker
WalkerObservables = LegacyWalkerObservables
