"""The Walker base class and the observables every walker shares.

Conventions that hold for every walker (docs/locomotion_walkers.md has the details):

* The root body's frame is the walker's egocentric frame: x points forward, y to the
  walker's left, z up (when the walker stands upright); for the CMU humanoids it is
  dm_control's CMU pelvis frame (y up, z forward). Velocimeter, accelerometer and
  gyro sit at its origin and read in it.
* The walker's own frame (the one `set_pose`/`get_pose` move) has its origin on the
  ground below the root body when the walker stands in its initial pose, so
  `walker.set_pose(physics, position=(x, y, ground_height))` stands it on the ground.
  `standing_height` is the height of the root body above that origin, in metres.
  The CMU humanoids are dm_control's exception: their origin is the root body and
  `upright_pose` stands them up (`walker_state.place_walker` applies it).
* Free walkers are attached with `arena.add_free_entity(walker)`: the free joint lives
  on the attachment body. The planar walker carries its own root joints and is
  attached with `arena.attach(walker)` (`is_planar` is True).
* `initialize_episode` sets the walker's joint angles (and zero joint velocities) to
  its initial pose and leaves the root pose alone: the task places the walker.
"""

from __future__ import annotations

import collections
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import mujoco
import numpy as np
from dm_env import specs
from numpy.typing import ArrayLike

from composer_tasks import composer, mjcf
from composer_tasks.composer.observation import observable

if TYPE_CHECKING:
    from composer_tasks.physics import Physics

# Contact normal force (newtons) above which a touch sensor counts as touching
# (dm_control's locomotion walkers use the same threshold).
TOUCH_THRESHOLD_N = 1e-3
# Egocentric camera image size in pixels (height and width), as in dm_control.
EGOCENTRIC_CAMERA_PIXELS = 64


def _read_only_floats(value: ArrayLike, name: str) -> np.ndarray:
    array = np.array(value, dtype=np.float64)
    if not np.all(np.isfinite(array)):
        raise ValueError(f"WalkerPose {name} must be finite, got {value!r}")
    array.flags.writeable = False
    return array


class WalkerPose(collections.namedtuple("WalkerPose", ("qpos", "xpos", "xquat"))):
    """dm_control's `WalkerPose`: a walker's joint and Cartesian pose.

    qpos: joint positions, or None for the model's `qpos0`; xpos: a Cartesian
    displacement of the walker (metres, world frame); xquat: a quaternion
    displacement of its root body (w, x, y, z; dm_control does not normalise it).
    Each given value is held, as in dm_control, as a read-only float64 copy;
    equality compares the values element-wise.
    """

    __slots__ = ()

    def __new__(
        cls,
        qpos: ArrayLike | None = None,
        xpos: ArrayLike = (0, 0, 0),
        xquat: ArrayLike = (1, 0, 0, 0),
    ) -> WalkerPose:
        return super().__new__(
            cls,
            None if qpos is None else _read_only_floats(qpos, "qpos"),
            _read_only_floats(xpos, "xpos"),
            _read_only_floats(xquat, "xquat"),
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, WalkerPose):
            return NotImplemented
        if (self.qpos is None) != (other.qpos is None):
            return False
        return bool(
            (self.qpos is None or np.array_equal(self.qpos, other.qpos))
            and np.array_equal(self.xpos, other.xpos)
            and np.array_equal(self.xquat, other.xquat)
        )

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = None  # type: ignore[assignment]  # Holds arrays, as dm_control's.


_XBODY = mujoco.mjtObj.mjOBJ_XBODY
_SITE = mujoco.mjtObj.mjOBJ_SITE
_BODY = mujoco.mjtObj.mjOBJ_BODY


class Walker(composer.Entity):
    """Base class of walkers: an entity with actuators that moves over an arena.

    Subclasses build their spec in `_build` and then call `_set_parts(...)` with the
    elements the walker is made of. Element handles stay valid after attachment and
    bind to the compiled model with `physics.bind(...)`.

    Attributes:
      is_planar: True if the walker moves in the world x-z plane through its own
        root joints (attach it with `attach`, not `add_free_entity`).
    """

    is_planar = False
    # A walker that is an MJCF file in dm_control sets this: a site's size left out
    # there (a sphere's "0.01") keeps MuJoCo's default 0.005 in its other entries.
    mjcf_file_site_sizes = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.mjcf_file_site_sizes:
            fill_unset_site_sizes(self._spec)

    def _set_parts(
        self,
        *,
        root_body: mujoco.MjsBody,
        observable_joints: Iterable[mujoco.MjsJoint],
        pose_joints: Iterable[mujoco.MjsJoint],
        initial_qpos: ArrayLike,
        standing_height: float,
        end_effectors: Iterable[mujoco.MjsBody],
        egocentric_camera: mujoco.MjsCamera,
        root_sensors: Sequence[mujoco.MjsSensor],
        touch_sensors: Iterable[mujoco.MjsSensor],
        torque_sensors: Iterable[mujoco.MjsSensor],
        ground_contact_geoms: Iterable[mujoco.MjsGeom],
        mocap_tracking_bodies: Iterable[mujoco.MjsBody] | None = None,
        tracking_cameras: Sequence[mujoco.MjsCamera] | None = None,
    ) -> None:
        """Records the walker's elements; every subclass calls this at the end of `_build`.

        Args:
          root_body: the body whose frame is the egocentric frame.
          observable_joints: joints observed by `joints_pos`/`joints_vel`.
          pose_joints: the joints `initialize_episode` sets (all but the root's).
          initial_qpos: their initial positions (radians for hinges), one per joint.
          standing_height: height (m) of the root body above the walker's origin.
          end_effectors: bodies whose egocentric positions `end_effectors_pos` gives.
          egocentric_camera: the camera of the `egocentric_camera` observable.
          root_sensors: (velocimeter, accelerometer, gyro) sensors at the root.
          touch_sensors, torque_sensors: sequences of sensors (may be empty).
          ground_contact_geoms: geoms expected to touch the ground when walking.
          mocap_tracking_bodies: bodies for motion-capture tracking; default all of
            the walker's bodies but the root.
          tracking_cameras: the walker's own cameras that follow it (a walker of
            dm_control's, which has its own); None adds `add_tracking_cameras`'.
        """
        self._root_body = root_body
        self._observable_joints = tuple(observable_joints)
        self._pose_joints = tuple(pose_joints)
        self._initial_qpos = np.array(initial_qpos, dtype=np.float64)
        if self._initial_qpos.shape != (len(self._pose_joints),):
            raise ValueError(
                f"{type(self).__name__}: initial_qpos has shape {self._initial_qpos.shape}, "
                f"expected one value per pose joint ({len(self._pose_joints)},)"
            )
        self._standing_height = float(standing_height)
        self._end_effectors = tuple(end_effectors)
        self._egocentric_camera = egocentric_camera
        self._velocimeter, self._accelerometer, self._gyro = root_sensors
        self._touch_sensors = tuple(touch_sensors)
        self._torque_sensors = tuple(torque_sensors)
        self._ground_contact_geoms = tuple(ground_contact_geoms)
        self._actuators = tuple(self._spec.actuators)
        if mocap_tracking_bodies is None:
            mocap_tracking_bodies = [
                body
                for body in self._spec.bodies
                if body is not self._spec.worldbody and body != root_body
            ]
        self._mocap_tracking_bodies = tuple(mocap_tracking_bodies)
        self._addresses_model = None
        self._initializers: list[Any] = []
        self._tracking_cameras = (
            add_tracking_cameras(self._spec, root_body, self._standing_height)
            if tracking_cameras is None
            else tuple(tracking_cameras)
        )

    def _build_observables(self) -> WalkerObservables:
        return WalkerObservables(self)

    def _parts_from_properties(self) -> None:
        """Records the parts of a walker written as dm_control's are: one whose
        `_build` makes its `mjcf_model` and which overrides the properties
        (`root_body`, `observable_joints`, `actuators`, and optionally
        `end_effectors`, `egocentric_camera`, `ground_contact_geoms`) instead of
        calling `_set_parts`. Its root sensors, touch and torque sensors are the
        model's sensors of those types; it has no pose joints (dm_control's base
        walker sets no initial pose) and a standing height of 0. Called before its
        observables are built; does nothing for a walker that called `_set_parts`.
        """
        if "_root_body" in self.__dict__:
            return
        walker_type = type(self)

        def overridden(name: str) -> bool:
            return getattr(walker_type, name) is not getattr(Walker, name)

        def raw(element: Any) -> Any:
            return getattr(element, "spec_element", element)

        def raws(name: str) -> tuple:
            return tuple(raw(item) for item in getattr(self, name)) if overridden(name) else ()

        for name in ("root_body", "observable_joints"):
            if not overridden(name):
                raise TypeError(
                    f"{walker_type.__name__} must call _set_parts in _build or override "
                    f"the Walker property {name!r}"
                )
        self._root_body = raw(self.root_body)
        self._observable_joints = raws("observable_joints")
        self._actuators = (
            raws("actuators") if overridden("actuators") else tuple(self._spec.actuators)
        )
        self._pose_joints = ()
        self._initial_qpos = np.zeros(0)
        self._standing_height = 0.0
        self._end_effectors = raws("end_effectors")
        self._egocentric_camera = (
            raw(self.egocentric_camera) if overridden("egocentric_camera") else None
        )
        self._ground_contact_geoms = raws("ground_contact_geoms")
        sensors = list(self._spec.sensors)

        def of_type(kind: mujoco.mjtSensor) -> list[mujoco.MjsSensor]:
            return [sensor for sensor in sensors if sensor.type == kind]

        self._velocimeter, self._accelerometer, self._gyro = (
            next(iter(of_type(kind)), None)
            for kind in (
                mujoco.mjtSensor.mjSENS_VELOCIMETER,
                mujoco.mjtSensor.mjSENS_ACCELEROMETER,
                mujoco.mjtSensor.mjSENS_GYRO,
            )
        )
        self._touch_sensors = tuple(of_type(mujoco.mjtSensor.mjSENS_TOUCH))
        self._torque_sensors = tuple(of_type(mujoco.mjtSensor.mjSENS_TORQUE))
        self._mocap_tracking_bodies = tuple(
            body
            for body in self._spec.bodies
            if body is not self._spec.worldbody and body != self._root_body
        )
        self._addresses_model = None
        self._initializers = []
        self._tracking_cameras = ()

    # Parts, as PyMJCF handles (`composer_tasks.mjcf.Element`) over the walker's spec
    # elements, as dm_control gives them: `.name` relative to the walker
    # ("front_left_hip"), and `physics.bind` with PyMJCF's shapes. The raw
    # `mujoco.Mjs...` element of a handle is its `spec_element`.

    @property
    def root_body(self) -> mjcf.Element:
        """The body whose frame is the walker's egocentric frame (x forward, z up)."""
        return self._handle(self._root_body)

    @property
    def actuators(self) -> tuple[mjcf.Element, ...]:
        """The walker's actuators, in model order."""
        return self._handles(self._actuators)

    @property
    def observable_joints(self) -> tuple[mjcf.Element, ...]:
        """The joints observed by `joints_pos` and `joints_vel`, in that order."""
        return self._handles(self._observable_joints)

    @property
    def end_effectors(self) -> tuple[mjcf.Element, ...]:
        """Bodies at the ends of the limbs, in the order of `end_effectors_pos`."""
        return self._handles(self._end_effectors)

    @property
    def egocentric_camera(self) -> mjcf.Element:
        """The camera looking forward from the walker's head or torso."""
        return self._handle(self._egocentric_camera)

    @property
    def mocap_tracking_bodies(self) -> tuple[mjcf.Element, ...]:
        """Bodies whose poses motion-capture tracking compares (all but the root)."""
        return self._handles(self._mocap_tracking_bodies)

    @property
    def ground_contact_geoms(self) -> tuple[mjcf.Element, ...]:
        """Geoms expected to touch the ground in normal locomotion (feet)."""
        return self._handles(self._ground_contact_geoms)

    @property
    def standing_height(self) -> float:
        """Height (m) of the root body's origin above the walker's origin in the
        initial pose: where the root body is when the walker stands on flat ground."""
        return self._standing_height

    @property
    def upright_pose(self) -> WalkerPose:
        """dm_control's `upright_pose`: the displacement that stands the walker
        upright, `WalkerPose()` (none) for the walkers built standing with their
        origin on the ground. The CMU humanoids, built lying with their origin at
        the root as dm_control's, override it with dm_control's (0, 0, 0.94) or
        (0, 0, 1.143) and an unnormalised quaternion (docs/locomotion_walkers.md)."""
        return WalkerPose(xpos=np.zeros(3), xquat=np.array([1.0, 0.0, 0.0, 0.0]))

    @property
    def velocimeter(self) -> mjcf.Element:
        return self._handle(self._velocimeter)

    @property
    def accelerometer(self) -> mjcf.Element:
        return self._handle(self._accelerometer)

    @property
    def gyro(self) -> mjcf.Element:
        return self._handle(self._gyro)

    @property
    def touch_sensors(self) -> tuple[mjcf.Element, ...]:
        return self._handles(self._touch_sensors)

    @property
    def torque_sensors(self) -> tuple[mjcf.Element, ...]:
        return self._handles(self._torque_sensors)

    # Frames.

    def transform_vec_to_egocentric_frame(
        self, physics: Physics, vec_in_world_frame: ArrayLike
    ) -> np.ndarray:
        """Rotates world-frame vectors into the root body's (egocentric) frame.

        The rotation is linear (no translation): give vectors relative to the
        root's position for positions. The last axis holds the vector components:

        * (..., 3): each vector v becomes R^T v, R being the root's rotation matrix
          (`xmat`), so the result is v in the root's x (forward), y (left), z (up).
        * (..., 2): horizontal vectors; each is rotated by minus the root's heading
          (the yaw of its x axis projected on the ground plane), which stays
          meaningful when the walker pitches or rolls.

        Returns:
          A new float64 array of the input's shape.

        Raises:
          ValueError: if the last axis is not of length 2 or 3.
        """
        vectors = np.asarray(vec_in_world_frame, dtype=np.float64)
        if vectors.ndim == 0 or vectors.shape[-1] not in (2, 3):
            raise ValueError(
                "vec_in_world_frame must have a last axis of length 2 or 3, got shape "
                f"{vectors.shape}"
            )
        rotation = np.asarray(physics.bind(self._root_body).xmat).reshape(3, 3)
        if vectors.shape[-1] == 3:
            return vectors @ rotation
        heading = rotation[:2, 0]
        norm = np.hypot(heading[0], heading[1])
        cosine, sine = (1.0, 0.0) if norm == 0 else heading / norm
        # Rows of the inverse yaw rotation are the heading and its left normal.
        return vectors @ np.array([[cosine, -sine], [sine, cosine]])

    def transform_xmat_to_egocentric_frame(self, physics: Physics, xmat: ArrayLike) -> np.ndarray:
        """Expresses another frame's world orientation (`xmat`, (9,) or (3, 3))
        relative to the root body's frame: R_root^T R. Same shape as given."""
        matrix = np.asarray(xmat, dtype=np.float64)
        if matrix.shape not in ((9,), (3, 3)):
            raise ValueError(f"xmat must have shape (9,) or (3, 3), got {matrix.shape}")
        rotation = np.asarray(physics.bind(self._root_body).xmat).reshape(3, 3)
        return (rotation.T @ matrix.reshape(3, 3)).reshape(matrix.shape)

    # Episode.

    def initialize_episode(self, physics: Physics, random_state: np.random.RandomState) -> None:
        """`reinitialize_pose`: the joints (not the root) in the initial pose with
        zero velocity, then the walker's pose initializers.

        The root pose is the task's to set, before or after this callback.
        """
        self.reinitialize_pose(physics, random_state)

    def reinitialize_pose(self, physics: Physics, random_state: np.random.RandomState) -> None:
        """dm_control's `reinitialize_pose`: sets the pose joints to `initial_qpos`
        with zero velocity, then runs each of the walker's initializers
        (`add_initializer`) in the order added; without initializers the pose
        is deterministic and `random_state` is not drawn from."""
        qpos_addresses, dof_addresses = self._pose_addresses(physics)
        physics.data.qpos[qpos_addresses] = self._initial_qpos
        physics.data.qvel[dof_addresses] = 0.0
        for initializer in self._initializers:
            initializer.initialize_pose(physics, self, random_state)

    def add_initializer(self, initializer: Any) -> None:
        """Adds a pose initializer: an object with `initialize_pose(physics,
        walker, random_state)` (dm_control's walker initializer API), run by
        `reinitialize_pose` after the initial pose is set.

        Raises:
          TypeError: if `initializer` has no callable `initialize_pose`.
        """
        if not callable(getattr(initializer, "initialize_pose", None)):
            raise TypeError(
                f"an initializer needs initialize_pose(physics, walker, random_state), got "
                f"{initializer!r}"
            )
        self._initializers.append(initializer)

    @property
    def initializers(self) -> tuple:
        """The pose initializers `reinitialize_pose` runs, in order."""
        return tuple(self._initializers)

    # dm_control's walker API.

    def _root_joint_body(self, attachment_frame: Any) -> mujoco.MjsBody:
        """The attachment body that root joints go on, after checking that
        `attachment_frame` is what `arena.attach(walker)` returned and that the walker
        hangs from the world body (ValueError otherwise)."""
        body = self.attachment_body
        # `Entity.attach` returns an mjcf handle on the attachment body; a raw MjSpec
        # frame whose parent is that body is accepted too.
        element = getattr(attachment_frame, "spec_element", attachment_frame)
        if body is None or (element is not body and getattr(element, "parent", None) is not body):
            raise ValueError(
                f"attachment_frame must be the frame arena.attach({self.name!r} walker) "
                f"returned, got {attachment_frame!r}"
            )
        if body.parent.name != "world":
            raise ValueError(
                f"walker {self.name!r} hangs from body {body.parent.name!r}; root joints "
                "need it attached to the arena's world body (arena.attach(walker))"
            )
        return body

    def create_root_joints(self, attachment_frame: Any) -> None:
        """dm_control's `create_root_joints`: gives the walker a free joint at the
        frame `arena.attach(walker)` returned, so that
        `walker.create_root_joints(arena.attach(walker))` equals
        `arena.add_free_entity(walker)`.

        Raises:
          ValueError: if `attachment_frame` is not this walker's attachment frame,
            if the walker is not attached to the root entity's world body, or if
            it already has root joints (a planar walker always has).
        """
        body = self._root_joint_body(attachment_frame)
        if self.is_planar or self.free_joint is not None or body.joints:
            raise ValueError(
                f"walker {self.name!r} already has root joints (a planar walker carries its "
                "own; attach it with arena.attach(walker) alone)"
            )
        # Named after the frame ("walker/"), as PyMJCF names an attachment frame's
        # unnamed joint.
        body.add_freejoint(name=body.name)
        composer.mark_spec_changed()

    @property
    def action_spec(self) -> specs.BoundedArray:
        """dm_control's walker action spec: one float64 per actuator within its
        control range (-1, 1 for an actuator without one)."""
        minimum, maximum = [], []
        for actuator in self._actuators:
            limited = actuator.ctrllimited != mujoco.mjtLimited.mjLIMITED_FALSE
            low, high = actuator.ctrlrange if limited else (-1.0, 1.0)
            minimum.append(low)
            maximum.append(high)
        return specs.BoundedArray(
            shape=(len(self._actuators),),
            dtype=np.float64,
            minimum=minimum,
            maximum=maximum,
            name="\t".join(
                actuator.name[len(self.prefix) :]
                if actuator.name.startswith(self.prefix)
                else actuator.name
                for actuator in self._actuators
            ),
        )

    def apply_action(
        self, physics: Physics, action: ArrayLike, random_state: np.random.RandomState | None
    ) -> None:
        """dm_control's `apply_action`: writes `action` (one value per actuator, in
        `actuators` order) into the walker's controls.

        Raises:
          ValueError: for an action of the wrong shape or with non-finite values.
        """
        del random_state  # Plain torque or servo controls: nothing random.
        action = np.asarray(action, dtype=np.float64)
        if action.shape != (len(self._actuators),) or not np.isfinite(action).all():
            raise ValueError(
                f"action must be {len(self._actuators)} finite values (one per actuator of "
                f"walker {self.name!r}), got shape {action.shape}"
            )
        # Multi-walker tasks call this for every walker at every step: the ids are
        # resolved once per compiled model.
        physics.data.ctrl[physics.element_ids(self._actuators)] = action
        # dm_control writes the controls through a binding, which marks the physics
        # dirty: the next observation read through a binding forwards first.
        physics.mark_as_dirty()

    @property
    def tracking_cameras(self) -> tuple:
        """The cameras that follow the walker from outside (names under the
        walker's prefix, e.g. "walker/back"): a walker of dm_control's has its
        cameras, and only those (the CMU humanoids' back, side and front_side, the
        rat's back, side, side_alt and top, the ant's float_far and floating, the
        jumping ball's tracking); the project's other walkers get `back`, `side`
        and `front` (`add_tracking_cameras`)."""
        return self._tracking_cameras

    @property
    def initial_qpos(self) -> np.ndarray:
        """Initial positions of the pose joints (`pose_joints`), a new array."""
        return self._initial_qpos.copy()

    @property
    def pose_joints(self) -> tuple[mujoco.MjsJoint, ...]:
        """The joints `initialize_episode` sets: every joint but the root's."""
        return self._pose_joints

    def _egocentric_scene_option(self) -> mujoco.MjvOption | None:
        """The `mujoco.MjvOption` the egocentric camera renders with (None: default)."""
        return None

    def _pose_addresses(self, physics: Physics) -> tuple[np.ndarray, np.ndarray]:
        model = physics.model
        if self._addresses_model is not model:
            ids = [physics.bind(joint).id for joint in self._pose_joints]
            self._qpos_addresses = model.jnt_qposadr[ids].copy()
            self._dof_addresses = model.jnt_dofadr[ids].copy()
            self._addresses_model = model
        return self._qpos_addresses, self._dof_addresses


def add_root_sensors(
    spec: mujoco.MjSpec,
    root_body: mujoco.MjsBody,
    site_name: str = "root",
    com_velocity: bool = True,
    order: Sequence[str] = ("velocimeter", "accelerometer", "gyro"),
) -> tuple[mujoco.MjsSite, tuple[mujoco.MjsSensor, ...]]:
    """Adds a site at the root body's origin with a velocimeter, an accelerometer and a
    gyro on it, made in `order` (their order in `sensordata`), and (with
    `com_velocity`) a centre-of-mass velocity sensor (see `add_com_velocity_sensor`).

    A `subtreelinvel` sensor on the root body makes MuJoCo keep `data.subtree_linvel`
    current, so `physics.bind(walker._root_body).subtree_linvel` is the walker's
    centre-of-mass velocity (world frame, m/s) after every step; every walker has one.

    Returns:
      (site, (velocimeter, accelerometer, gyro)).

    Raises:
      ValueError: `order` does not name each of the three once (nothing is added).
    """
    types = {
        "velocimeter": mujoco.mjtSensor.mjSENS_VELOCIMETER,
        "accelerometer": mujoco.mjtSensor.mjSENS_ACCELEROMETER,
        "gyro": mujoco.mjtSensor.mjSENS_GYRO,
    }
    if sorted(order) != sorted(types):
        raise ValueError(f"order must list {sorted(types)} once each, got {order!r}")
    site = root_body.add_site(
        name=site_name, size=[0.01, 0.0, 0.0], group=4, rgba=[1.0, 0.0, 0.0, 0.5]
    )
    made = {
        kind: spec.add_sensor(
            name=f"{site_name}_{kind}", type=types[kind], objtype=_SITE, objname=site_name
        )
        for kind in order
    }
    if com_velocity:
        add_com_velocity_sensor(spec, root_body)
    return site, (made["velocimeter"], made["accelerometer"], made["gyro"])


# MuJoCo's default site size (each of the three entries), metres.
_DEFAULT_SITE_SIZE_M = 0.005


def fill_unset_site_sizes(spec: mujoco.MjSpec) -> None:
    """Gives every site of `spec` MuJoCo's default 0.005 m in the size entries left at
    0 after the first (those its type does not read), as a site of an MJCF file whose
    size lists fewer numbers has them."""
    for site in spec.sites:
        size = np.array(site.size, dtype=np.float64)
        if np.any(size[1:] == 0):
            size[1:][size[1:] == 0] = _DEFAULT_SITE_SIZE_M
            site.size = size


def refresh_subtree_velocity(physics: Any) -> None:
    """Computes `data.subtree_linvel` (and the other subtree velocities) for the
    current state, which MuJoCo computes only when a sensor needs them: dm_control's
    legacy walkers call it after every physics step (`after_substep`), so that
    `physics.bind(walker.root_body).subtree_linvel` (torso_xvel, torso_yvel) is
    current."""
    mujoco.mj_subtreeVel(physics.model, physics.data)


def add_com_velocity_sensor(spec: mujoco.MjSpec, root_body: mujoco.MjsBody) -> mujoco.MjsSensor:
    """Adds a `subtreelinvel` sensor on the root body, named "<root>_subtreelinvel"."""
    return spec.add_sensor(
        name=f"{root_body.name}_subtreelinvel",
        type=mujoco.mjtSensor.mjSENS_SUBTREELINVEL,
        objtype=_BODY,
        objname=root_body.name,
    )


def add_touch_sensor(
    spec: mujoco.MjSpec,
    body: mujoco.MjsBody,
    name: str,
    sensor_name: str | None = None,
    **site_attributes: Any,
) -> mujoco.MjsSensor:
    """Adds a touch site `name` (invisible group 4) on `body` and a touch sensor
    reading it, named `sensor_name` (default: the site's name)."""
    body.add_site(name=name, group=4, rgba=[0.0, 0.0, 1.0, 0.3], **site_attributes)
    return spec.add_sensor(
        name=name if sensor_name is None else sensor_name,
        type=mujoco.mjtSensor.mjSENS_TOUCH,
        objtype=_SITE,
        objname=name,
    )


# Tracking cameras: (name, direction from the walker to the camera in the root's
# heading frame, x forward, y left), seen from a distance proportional to the
# walker's height. dm_control's CMU humanoid carries "back", "side" and
# "front_side" cameras in `trackcom` mode 3 m away at 1.4 m height; these keep
# its idea (a camera that follows the centre of mass without turning with
# the body) with distances scaled to each body.
TRACKING_CAMERAS = (("back", (-1.0, 0.0)), ("side", (0.0, -1.0)), ("front", (1.0, 0.0)))
# Camera distance and height per metre of the walker's standing height (the
# CMU humanoid's 3 m and 1.4 m for its ~1.2 m root height, rounded).
_TRACKING_DISTANCE_PER_M = 2.5
_TRACKING_HEIGHT_PER_M = 1.2
# Small bodies (the quadruped spans 1.6 m at 0.5 m height) are seen from at
# least this far and this high, so that the whole body and the ground ahead fit.
_TRACKING_MIN_DISTANCE_M = 3.0
_TRACKING_MIN_HEIGHT_M = 1.2


def add_camera(
    body: mujoco.MjsBody,
    name: str,
    pos: Sequence[float],
    *,
    xyaxes: Sequence[float] | None = None,
    zaxis: Sequence[float] | None = None,
    trackcom: bool = True,
    fovy: float | None = None,
) -> mujoco.MjsCamera:
    """Adds a camera given as an MJCF file gives it (`xyaxes` or `zaxis`, left to
    the compiler, so that the compiled orientation is the file's bit for bit), in
    `trackcom` mode unless `trackcom` is False."""
    camera = body.add_camera(name=name, pos=list(pos))
    if trackcom:
        camera.mode = mujoco.mjtCamLight.mjCAMLIGHT_TRACKCOM
    if xyaxes is not None:
        camera.alt.type = mujoco.mjtOrientation.mjORIENTATION_XYAXES
        camera.alt.xyaxes = list(xyaxes)
    elif zaxis is not None:
        camera.alt.type = mujoco.mjtOrientation.mjORIENTATION_ZAXIS
        camera.alt.zaxis = list(zaxis)
    if fovy is not None:
        camera.fovy = fovy
    return camera


def add_tracking_cameras(
    spec: mujoco.MjSpec, root_body: mujoco.MjsBody, standing_height_m: float
) -> tuple[mujoco.MjsCamera, ...]:
    """Adds the `TRACKING_CAMERAS` the walker's `spec` lacks to `root_body`: each
    in `trackcom` mode (it follows the walker's centre of mass, keeping its
    world orientation, as dm_control's walker cameras do), looking at the root
    from its direction, at a distance of 2.5 and a height of 1.2 times the
    standing height (at least 3 m away and 1.2 m high). A camera of that name the body
    already has (the Control Suite bodies' published "back" and "side") is
    kept. Returns the `mujoco.MjsCamera`s in `TRACKING_CAMERAS` order."""
    distance = max(_TRACKING_MIN_DISTANCE_M, _TRACKING_DISTANCE_PER_M * standing_height_m)
    height = max(_TRACKING_MIN_HEIGHT_M, _TRACKING_HEIGHT_PER_M * standing_height_m)
    cameras = []
    for name, (forward, left) in TRACKING_CAMERAS:
        existing = spec.camera(name)
        if existing is not None:
            cameras.append(existing)
            continue
        direction = np.array([forward, left, 0.0])
        position = distance * direction + np.array([0.0, 0.0, height - standing_height_m])
        # The camera looks back along -direction, tilted down towards the root.
        look = -position / np.linalg.norm(position)
        right = np.cross(look, [0.0, 0.0, 1.0])
        right /= np.linalg.norm(right)
        up = np.cross(right, look)
        cameras.append(
            root_body.add_camera(
                name=name,
                mode=mujoco.mjtCamLight.mjCAMLIGHT_TRACKCOM,
                pos=list(position),
                xyaxes=list(right) + list(up),
                fovy=60.0,
            )
        )
    return tuple(cameras)


def strip_world(spec: mujoco.MjSpec, keep_materials: Iterable[str] = ("self",)) -> None:
    """Turns a standalone model's spec (a Control Suite domain) into a body to attach.

    Removes what belongs to the world rather than the body: geoms of the world body
    (the floor), every texture (skybox, floor grid) and the materials not in
    `keep_materials`. Resets the global options the arena owns (timestep,
    statistics) to MuJoCo's defaults so that attaching reports no conflicts.
    """
    for geom in list(spec.worldbody.geoms):
        spec.delete(geom)
    for texture in list(spec.textures):
        spec.delete(texture)
    for material in list(spec.materials):
        if material.name not in keep_materials:
            spec.delete(material)
    default = mujoco.MjSpec()
    spec.option.timestep = default.option.timestep
    spec.stat.center = default.stat.center
    spec.stat.extent = default.stat.extent


def height_above_lowest_point(
    spec: mujoco.MjSpec,
    root_body: mujoco.MjsBody,
    joint_positions: Iterable[tuple[str, float]] = (),
) -> float:
    """Height (m) of `root_body`'s origin above the lowest point of the spec's
    colliding geoms, with the root upright and joints at `joint_positions`.

    Compiles a copy of `spec` (about a millisecond for a body without textures).

    Args:
      spec: the walker's spec, before it is attached.
      root_body: the root body; its pose in the spec is ignored.
      joint_positions: (joint name, position) pairs; other joints at `qpos0`.
    """
    copy = spec.copy()
    copy.body(root_body.name).pos = [0.0, 0.0, 0.0]
    copy.body(root_body.name).quat = [1.0, 0.0, 0.0, 0.0]
    model = copy.compile()
    data = mujoco.MjData(model)
    for name, position in joint_positions:
        data.qpos[model.jnt_qposadr[model.joint(name).id]] = position
    mujoco.mj_kinematics(model, data)
    root_height = data.xpos[model.body(root_body.name).id][2]
    lowest = np.inf
    for geom in range(model.ngeom):
        if not (model.geom_contype[geom] or model.geom_conaffinity[geom]):
            continue
        lowest = min(lowest, _lowest_z(model, data, geom))
    return float(root_height - lowest)


def _lowest_z(model: mujoco.MjModel, data: mujoco.MjData, geom: int) -> float:
    """World z of the lowest point of a sphere, capsule, ellipsoid or box geom."""
    size = model.geom_size[geom]
    # Row 2 of the rotation: the world z components of the geom's axes.
    up = data.geom_xmat[geom].reshape(3, 3)[2]
    centre = data.geom_xpos[geom][2]
    kind = model.geom_type[geom]
    if kind == mujoco.mjtGeom.mjGEOM_SPHERE:
        return centre - size[0]
    if kind == mujoco.mjtGeom.mjGEOM_CAPSULE:
        return centre - abs(up[2]) * size[1] - size[0]
    if kind == mujoco.mjtGeom.mjGEOM_ELLIPSOID:
        return centre - np.sqrt(np.sum((up * size) ** 2))
    if kind == mujoco.mjtGeom.mjGEOM_BOX:
        return centre - np.sum(np.abs(up) * size)
    raise ValueError(f"geom {model.geom(geom).name!r}: unsupported type {kind} for a walker")


def sensordata_of_type(entity: composer.Entity, sensor_type: Any) -> observable.Observable:
    """The readings of every sensor of `sensor_type` in `entity`'s own spec,
    concatenated in definition order ((0,) without any): dm_control's
    `MJCFFeature("sensordata", mjcf_model.sensor.<type>)`.

    The sensors are looked up when first read on a compiled model, so sensors
    that other observables add while the walker is built are included.
    """
    cache: dict[str, Any] = {}

    def read(physics: Physics) -> np.ndarray:
        model = physics.model
        if cache.get("model") is not model:
            ids = [
                physics.bind(sensor).id
                for sensor in entity.spec.sensors
                if sensor.type == sensor_type
            ]
            columns = [
                np.arange(model.sensor_adr[i], model.sensor_adr[i] + model.sensor_dim[i])
                for i in ids
            ]
            cache["columns"] = np.concatenate(columns) if columns else np.zeros(0, dtype=int)
            cache["model"] = model
        return physics.data.sensordata[cache["columns"]]

    return observable.Generic(read)


def _no_touch(physics: Physics) -> np.ndarray:
    del physics
    return np.zeros(0)


def _no_torque(physics: Physics) -> np.ndarray:
    del physics
    return np.zeros(0)


def _feature_or_empty(kind: str, elements: Any) -> observable.Observable:
    """`MJCFFeature(kind, elements)`, or an empty (0,) reading where the walker has
    none of those elements (dm_control's feature of an empty list reads so)."""
    if elements is None or (isinstance(elements, (list, tuple)) and not elements):
        return observable.Generic(_no_touch)
    return observable.MJCFFeature(kind, list(elements) if isinstance(elements, tuple) else elements)


def _threshold_touch(sensors: Sequence[mujoco.MjsSensor], physics: Physics) -> np.ndarray:
    return (np.asarray(physics.bind(sensors).sensordata) > TOUCH_THRESHOLD_N).astype(np.float64)


_DISABLED_BY_DEFAULT = frozenset({"egocentric_camera", "sensors_framequat"})


class WalkerObservables(composer.Observables):
    """Observables of every walker: all enabled except the egocentric camera, which
    renders and so costs far more than the rest, `sensors_framequat` (dm_control's,
    (4 n_framequat,): empty for most walkers), and `sensors_touch`/`sensors_torque`
    of a walker without touch/torque sensors (the planar walker and the quadruped
    have no torque sensors): an observable with nothing to read stays defined, with
    an empty (0,) reading, but off, so that no observation carries an empty entry.
    Tasks enable or disable any.

    Shapes: joints_pos, joints_vel (n_joints,); sensors_velocimeter,
    sensors_accelerometer, sensors_gyro (3,); sensors_touch (n_touch,); sensors_torque
    (3 n_torque,); body_height () as in dm_control; world_zaxis (3,);
    end_effectors_pos (3 n_end_effectors,); egocentric_camera (64, 64, 3) uint8.
    """

    def __init__(self, entity: Walker) -> None:
        entity._parts_from_properties()
        super().__init__(entity)
        for name, item in self.items():
            item.enabled = name not in _DISABLED_BY_DEFAULT
        if not entity._touch_sensors:
            self.sensors_touch.enabled = False
        if not entity._torque_sensors:
            self.sensors_torque.enabled = False

    @composer.observable
    def joints_pos(self) -> observable.Observable:
        """Positions of the observable joints (rad for hinges, m for slides)."""
        return _feature_or_empty("qpos", self._entity._observable_joints)

    @composer.observable
    def joints_vel(self) -> observable.Observable:
        """Velocities of the observable joints (rad/s, m/s)."""
        return _feature_or_empty("qvel", self._entity._observable_joints)

    @composer.observable
    def sensors_velocimeter(self) -> observable.Observable:
        """Linear velocity of the root (m/s) in the egocentric frame."""
        return _feature_or_empty("sensordata", self._entity._velocimeter)

    @composer.observable
    def sensors_accelerometer(self) -> observable.Observable:
        """Linear acceleration of the root minus gravity (m/s^2), egocentric frame;
        about (0, 0, 9.81) at rest upright."""
        return _feature_or_empty("sensordata", self._entity._accelerometer)

    @composer.observable
    def sensors_gyro(self) -> observable.Observable:
        """Angular velocity of the root (rad/s) in the egocentric frame."""
        return _feature_or_empty("sensordata", self._entity._gyro)

    @composer.observable
    def sensors_touch(self) -> observable.Observable:
        """1.0 where a touch sensor feels more than 1 mN of normal force, else 0.0."""
        sensors = list(self._entity._touch_sensors)
        if not sensors:
            return observable.Generic(_no_touch)
        return observable.Generic(lambda physics: _threshold_touch(sensors, physics))

    @composer.observable
    def sensors_torque(self) -> observable.Observable:
        """Torques (N m) measured by the torque sensors, each in its site's frame,
        concatenated (3 n_torque,); (0,) for walkers without torque sensors."""
        sensors = list(self._entity._torque_sensors)
        if not sensors:
            return observable.Generic(_no_torque)
        return observable.MJCFFeature("sensordata", sensors)

    @composer.observable
    def body_height(self) -> observable.Observable:
        """World z of the root body's origin (m), shape (1,)."""
        return observable.MJCFFeature("xpos", self._entity._root_body, index=2)

    @composer.observable
    def world_zaxis(self) -> observable.Observable:
        """The world's up axis expressed in the egocentric frame, (3,)."""
        return observable.MJCFFeature("xmat", self._entity._root_body, index=slice(6, 9))

    @composer.observable
    def egocentric_camera(self) -> observable.Observable:
        """RGB image (64, 64, 3) uint8 from the egocentric camera."""
        entity = self._entity
        if entity._egocentric_camera is None:

            def no_camera(physics: Physics) -> np.ndarray:
                raise ValueError(
                    f"walker {entity.name!r} ({type(entity).__name__}) has no egocentric camera"
                )

            return observable.Generic(no_camera)
        return observable.MJCFCamera(
            self._entity._egocentric_camera,
            height=EGOCENTRIC_CAMERA_PIXELS,
            width=EGOCENTRIC_CAMERA_PIXELS,
            scene_option=self._entity._egocentric_scene_option(),
        )

    @composer.observable
    def end_effectors_pos(self) -> observable.Observable:
        """End-effector positions relative to the root (m), egocentric frame, one
        row per end effector."""
        entity = self._entity
        root_name = entity._root_body.name
        sensors = [
            entity.spec.add_sensor(
                name=f"{body.name}_end_effector",  # dm_control's legacy walkers' name
                type=mujoco.mjtSensor.mjSENS_FRAMEPOS,
                objtype=_XBODY,
                objname=body.name,
                reftype=_XBODY,
                refname=root_name,
            )
            for body in entity._end_effectors
        ]
        # dm_control's legacy walkers list the sensors this observable added
        # (`end_effectors_pos_sensors`), refilled in place as there.
        entity.__dict__.setdefault("_end_effectors_pos_sensors", [])[:] = entity._handles(sensors)
        return _feature_or_empty("sensordata", sensors)

    def add_egocentric_vector(
        self,
        name: str,
        world_frame_observable: observable.Observable,
        enabled: bool = True,
        origin_callable: Callable[[Physics], ArrayLike] | None = None,
        **kwargs: Any,
    ) -> None:
        """dm_control's `add_egocentric_vector`: adds observable `name`, the value
        of `world_frame_observable` (world-frame vectors, last axis 2 or 3)
        minus `origin_callable(physics)` (zeros if None), rotated into the
        walker's egocentric frame (`transform_vec_to_egocentric_frame`).
        `kwargs` are `observable.Generic` options (update_interval, ...)."""
        entity = self._entity

        def egocentric(physics: Physics) -> np.ndarray:
            vector = np.asarray(
                world_frame_observable.observation_callable(physics)(), dtype=np.float64
            )
            if origin_callable is not None:
                vector = vector - np.asarray(origin_callable(physics), dtype=np.float64)
            return entity.transform_vec_to_egocentric_frame(physics, vector)

        self.add_observable(name, observable.Generic(egocentric, **kwargs), enabled=enabled)

    @composer.observable
    def sensors_framequat(self) -> observable.Observable:
        """Every frame-orientation sensor's quaternion (w, x, y, z) in the walker,
        flattened: (4 * n,), (0,) without."""
        return sensordata_of_type(self._entity, mujoco.mjtSensor.mjSENS_FRAMEQUAT)

    # Groupings (as dm_control's): observables a task typically enables together.

    @property
    def proprioception(self) -> list[observable.Observable]:
        return [
            self.joints_pos,
            self.joints_vel,
            self.body_height,
            self.end_effectors_pos,
            self.world_zaxis,
        ]

    @property
    def kinematic_sensors(self) -> list[observable.Observable]:
        return [self.sensors_gyro, self.sensors_velocimeter, self.sensors_accelerometer]

    @property
    def dynamic_sensors(self) -> list[observable.Observable]:
        """Touch and torque observables, leaving out those of walkers without them."""
        groups = []
        if self._entity._touch_sensors:
            groups.append(self.sensors_touch)
        if self._entity._torque_sensors:
            groups.append(self.sensors_torque)
        return groups
