"""Entity: a reusable piece of a MuJoCo model with its own callbacks and observables.

An entity owns a `mujoco.MjSpec` (`entity.spec`) built in `_build`, or, written
as in dm_control, a PyMJCF model (`composer_tasks.mjcf.RootElement`) returned by
its `mjcf_model` property; `entity.mjcf_model` is the same model as PyMJCF
handles either way. Entities are composed by attaching a child's spec into the
parent's with `MjSpec.attach`, under the prefix `child.name + "/"`; nested
attachments give names such as `creature/leg0/hip`. Attachment is by reference:
element handles an entity keeps (geoms, joints, sensors, actuators) stay valid
and bind to the compiled root model with `physics.bind(handle)`.

Every attachment creates a body in the parent named `child_name/` (the attachment
frame) that holds the child's top-level bodies. It carries the child's pose (and,
for `Arena.add_free_entity`, the free joint), so poses of fixed and free entities
are both expressed as the pose of one body.

The observables container (`Observables`, `@observable`), the lifecycle
callbacks (`Callbacks`) and the compile-error diagnostics live in modules of
their own; their names stay importable from here.
"""

from __future__ import annotations

import abc
import logging

from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

import mujoco
import numpy as np
from numpy.typing import ArrayLike

from composer_tasks import mjcf
from composer_tasks.mjcf import root as mjcf_root
from composer_tasks.composer.callbacks import CALLBACK_NAMES, Callbacks, overrides
from composer_tasks.composer.compile_errors import (
    describe_compile_error,
    stamp_element_info,
)
from composer_tasks.composer.observables import Observables, observable
from composer_tasks.composer.spec_edits import mark_spec_changed, spec_edit_count
from composer_tasks.mjcf import attachment as mjcf_attachment

if TYPE_CHECKING:
    from composer_tasks.physics import Physics

__all__ = [
    "CALLBACK_NAMES",
    "Callbacks",
    "Entity",
    "FreePropObservableMixin",
    "ModelWrapperEntity",
    "Observables",
    "describe_compile_error",
    "mark_spec_changed",
    "observable",
    "overrides",
    "spec_edit_count",
]

_IDENTITY_QUATERNION = np.array([1.0, 0.0, 0.0, 0.0])
_log = logging.getLogger(__name__)


# The spec collections whose elements an entity brings with it, besides its bodies
# (deleted on `detach`): referrers before what they refer to.
_DETACHED_COLLECTIONS = (
    "actuators", "sensors", "equalities", "excludes", "pairs", "tendons", "keys",
    "skins", "materials", "textures", "meshes", "hfields", "numerics", "texts", "tuples",
)  # fmt: skip


class Entity(Callbacks):
    """Base class of everything that makes up a task's model.

    Subclasses implement `_build(**kwargs)`, which either sets `self._spec` to a new
    `mujoco.MjSpec` whose `modelname` is the entity's name, or (as in dm_control)
    builds a `composer_tasks.mjcf.RootElement` that the subclass's `mjcf_model`
    property returns. Optionally `_build_observables()` returns an `Observables`.

    Callbacks (all no-ops by default) and what they may touch:
      initialize_episode_mjcf(random_state): edit the spec (the model recompiles).
      after_compile(physics, random_state): read the freshly compiled model.
      initialize_episode(physics, random_state): set the initial state (inside the
        physics' reset context, so derived quantities follow).
      before_step(physics, random_state): once per control step, after the task's
        `before_step` wrote the action into the controls.
      before_substep(physics, random_state): before every physics step.
      after_substep(physics, random_state): after every physics step.
      after_step(physics, random_state): once per control step, after the last substep.
    """

    # Set by `_build` (or from `mjcf_model`) in the constructor, which checks it.
    _spec: mujoco.MjSpec

    # True for an entity built with MjSpec after a dm_control file that sets no angle
    # unit: alone it compiles in MuJoCo's default (degrees), attached it takes the
    # unit of the model it joins, as PyMJCF's single <compiler> makes it (dm_control's
    # V2019 CMU humanoid: radians on an arena). Models authored through
    # `composer_tasks.mjcf` merge their compiler settings by their records instead.
    angle_unit_from_parent: bool = False

    def __init__(
        self,
        *args: Any,
        observable_options: Mapping[str, Mapping[str, Any]] | None = None,
        **kwargs: Any,
    ) -> None:
        self._parent: Entity | None = None
        self._children: list[Entity] = []
        self._attachment_body: mujoco.MjsBody | None = None
        self._detached = False
        self._spec = None
        self._held_mjcf_root: mjcf.RootElement | None = None
        # RootElements made by `_build` live until the entity holds its own below.
        with mjcf_root.keep_roots_made():
            self._build(*args, **kwargs)
            self._held_mjcf_root = mjcf_root.root_of(self._spec)
        if self._spec is None and type(self).mjcf_model is not Entity.mjcf_model:
            model = self.mjcf_model
            if not isinstance(model, mjcf.RootElement):
                raise TypeError(
                    f"{type(self).__name__}.mjcf_model must return a mjcf.RootElement, "
                    f"got {type(model).__name__}"
                )
            self._spec = model.spec
            self._held_mjcf_root = model
        if not isinstance(self._spec, mujoco.MjSpec):
            raise TypeError(
                f"{type(self).__name__}._build must set self._spec to a mujoco.MjSpec "
                f"(or build a mjcf.RootElement that mjcf_model returns), got "
                f"{type(self._spec).__name__}"
            )
        stamp_element_info(self._spec, self)
        self._observables = self._build_observables()
        if observable_options:
            self._observables.set_options(observable_options)

    def _build(self, *args: Any, **kwargs: Any) -> None:
        # dm_control's `_build` is abstract: an entity without one cannot be made
        # (TypeError, as an ABC's abstract method gives).
        raise TypeError(
            f"Can't instantiate abstract class {type(self).__name__} with abstract method _build"
        )

    def _build_observables(self) -> Observables:
        return Observables(self)

    # Identity and structure.

    @property
    def spec(self) -> mujoco.MjSpec:
        """The `mujoco.MjSpec` this entity built (shared with its root once attached)."""
        return self._spec

    @property
    def mjcf_model(self) -> mjcf.RootElement:
        """This entity's model as PyMJCF handles (`find`, `add`, `attach`, ...), over
        the same spec as `spec`."""
        if self._held_mjcf_root is None:
            self._held_mjcf_root = mjcf.RootElement._for_spec(self._spec)
        return self._held_mjcf_root

    def _handle(self, element: Any) -> Any:
        """The PyMJCF handle (`mjcf.Element`) of one of this entity's spec elements, as
        dm_control's entities hand out their elements (`arena.ground_geoms`,
        `target.geom`): `tag`, `full_identifier`, attributes in MJCF's terms (handles
        compare and hash by their element, so a new one binds like the last). A
        handle is returned as it is."""
        if isinstance(element, mjcf.Element):
            return element
        return self.mjcf_model._wrap(element)

    def _handles(self, elements: Iterable[Any]) -> tuple[Any, ...]:
        """`_handle` of each of `elements`, in order."""
        return tuple(self._handle(element) for element in elements)

    @property
    def name(self) -> str:
        return self._spec.modelname

    @property
    def observables(self) -> Observables:
        return self._observables

    @property
    def parent(self) -> Entity | None:
        return self._parent

    @property
    def root_entity(self) -> Entity:
        entity = self
        while entity._parent is not None:
            entity = entity._parent
        return entity

    @property
    def prefix(self) -> str:
        """The prefix of this entity's elements in the root model ("" for the root)."""
        if self._parent is None:
            return ""
        return self._parent.prefix + self.name + "/"

    @property
    def attachment_body(self) -> mujoco.MjsBody | None:
        """The body that holds this entity in its parent (None for the root)."""
        return self._attachment_body

    @property
    def free_joint(self) -> mujoco.MjsJoint | None:
        """The free joint of this entity's attachment frame (`Arena.add_free_entity`,
        or `frame.add("freejoint")`), or None."""
        body = self._attachment_body
        if body is None:
            return None
        for joint in body.joints:
            if joint.type == mujoco.mjtJoint.mjJNT_FREE:
                return joint
        return None

    def iter_entities(self, exclude_self: bool = False) -> Iterator[Entity]:
        """This entity (unless `exclude_self`) and its descendants, depth-first in
        attachment order."""
        if not exclude_self:
            yield self
        for child in self._children:
            yield from child.iter_entities()

    # Attachment.

    def attach(self, entity: Entity, attach_site: Any = None) -> mjcf.Element:
        """Attaches `entity` (the child) at a site or frame of this entity (default:
        its `attachment_site`, which is its world body unless a subclass names a
        site, as in dm_control).

        Args:
          entity: an unattached `Entity` (dm_control's parameter name).
          attach_site: None, a `mujoco.MjsSite` or `mujoco.MjsFrame` of this entity,
            a site's `mjcf` handle, or the name of one of this entity's sites
            (without this entity's prefix).

        Returns:
          The attachment frame: a `composer_tasks.mjcf` handle on the body
          `child.name + "/"` that holds the child's bodies, to which joints may be
          added (`frame.add("freejoint")`), as in dm_control.
        """
        if attach_site is None:
            default = self.attachment_site
            if not isinstance(default, mjcf.RootElement):
                attach_site = default
        return self._attach(entity, attach_site)

    def _attach(self, child: Entity, attach_site: Any) -> mjcf.Element:
        if not isinstance(child, Entity):
            raise TypeError(f"can only attach an Entity, got {type(child).__name__}")
        if child is self or child in self.root_entity.iter_entities():
            raise ValueError(f"entity {child.name!r} is already part of this model")
        if child._parent is not None:
            raise ValueError(
                f"entity {child.name!r} is already attached to {child._parent.name!r}; detach it first"
            )
        if child._detached:
            raise ValueError(
                f"entity {child.name!r} was detached; MuJoCo consumed its spec on the first "
                "attachment, so build a new entity to attach it again"
            )
        parent_body, position, quaternion, site = self._resolve_attach_site(attach_site)
        siblings = {sibling.name for sibling in self._children}
        if child.name in siblings:
            # dm_control's (PyMJCF's) renaming of a second model of the same name: the
            # first free `name_<n>`, which becomes the entity's name and prefix.
            number = 1
            while f"{child.name}_{number}" in siblings:
                number += 1
            child.spec.modelname = f"{child.name}_{number}"
        prefix = child.name + "/"
        body = parent_body.add_body(name=self.prefix + prefix, pos=position, quat=quaternion)
        if site is not None:
            # The site's orientation as written (euler, ...), resolved when compiling.
            mjcf_attachment.copy_orientation(site, body)
        frame = body.add_frame()
        # Attachment is by reference, and the elements of an attached spec belong to
        # the root spec from then on: the root attaches, under the full prefix.
        child_model = child.mjcf_model
        if child.angle_unit_from_parent:
            # A model whose file sets no angle unit: PyMJCF writes one <compiler> for
            # the whole model, so its numbers are read in the unit of the model it
            # joins (radians on dm_control's arenas), whatever they meant alone.
            child.spec.compiler.degree = self.root_entity.spec.compiler.degree
        mjcf_attachment.merge_compiler(self.root_entity.spec, child_model)
        mjcf_attachment.merge_options(self.root_entity.spec, child.spec)
        mjcf_attachment.merge_statistic(self.root_entity.spec, child.spec)
        # PyMJCF keeps the larger <size> of the two (the rat's njmax and nconmax).
        mjcf_attachment.merge_sizes(self.root_entity.mjcf_model, child_model)
        self.root_entity.spec.attach(child.spec, prefix=self.prefix + prefix, frame=frame)
        mjcf_attachment.link(self.mjcf_model, child_model, body, site)
        mark_spec_changed()
        child._parent = self
        child._attachment_body = body
        self._children.append(child)
        return mjcf.Element(body, self.mjcf_model, "body")

    def _resolve_attach_site(
        self, attach_site: Any
    ) -> tuple[mujoco.MjsBody, ArrayLike, np.ndarray, Any]:
        if attach_site is None:
            if self._parent is None:
                return self._spec.worldbody, [0.0, 0.0, 0.0], _IDENTITY_QUATERNION.copy(), None
            return self._attachment_body, [0.0, 0.0, 0.0], _IDENTITY_QUATERNION.copy(), None
        if isinstance(attach_site, mjcf.Element):
            if attach_site.tag != "site":
                raise TypeError(f"attach_site must be a site, got {attach_site!r}")
            attach_site = attach_site.spec_element
        if isinstance(attach_site, str):
            site = self.root_entity.spec.site(self.prefix + attach_site)
            if site is None:
                raise ValueError(f"entity {self.name!r} has no site named {attach_site!r}")
            attach_site = site
        if isinstance(attach_site, (mujoco.MjsSite, mujoco.MjsFrame)):
            return (
                attach_site.parent,
                np.array(attach_site.pos),
                np.array(attach_site.quat),
                attach_site,
            )
        raise TypeError(
            f"attach_site must be None, a site name, a mujoco.MjsSite or a mujoco.MjsFrame, "
            f"got {type(attach_site).__name__}"
        )

    def detach(self) -> None:
        """Removes this entity (and its descendants) from its parent's model.

        Raises:
          RuntimeError: it is not attached (dm_control's exception type).
        """
        if self._parent is None:
            raise RuntimeError(f"cannot detach entity {self.name!r}: it is not attached")
        spec = self.root_entity.spec
        prefix = self.prefix
        spec.delete(self._attachment_body)
        # MuJoCo deletes the entity's bodies (and what refers to them); the assets and
        # other elements it brought stay unless deleted too, as PyMJCF's detach drops
        # them (an entity of the same name can then be attached again).
        for collection in _DETACHED_COLLECTIONS:
            for element in list(getattr(spec, collection, ())):
                if getattr(element, "name", "").startswith(prefix):
                    spec.delete(element)
        mjcf_attachment.unlink(self.mjcf_model)
        mark_spec_changed()
        self._parent._children.remove(self)
        self._parent = None
        self._attachment_body = None
        self._detached = True

    # Poses, in the world frame.

    def get_pose(self, physics: Physics) -> tuple[np.ndarray, np.ndarray]:
        """(position (3,), quaternion (4,) w-x-y-z) of this entity, as dm_control reads it.

        With a free joint: the joint's qpos, in the world frame. Otherwise: the
        attachment frame's position and orientation in the compiled model, relative
        to the parent body (the world frame for an entity attached to the arena's
        world body); joints of the frame other than a free joint do not move it.

        Raises:
          RuntimeError: the entity is not attached (it is the model's root).
        """
        free_joint = self.free_joint
        if free_joint is not None:
            qpos = physics.bind(free_joint).qpos
            return np.array(qpos[:3]), np.array(qpos[3:])
        body = physics.bind(self._require_attachment_body("get_pose"))
        return np.array(body.pos), np.array(body.quat)

    def set_pose(
        self,
        physics: Physics,
        position: ArrayLike | None = None,
        quaternion: ArrayLike | None = None,
    ) -> None:
        """Places this entity (metres; quaternion w-x-y-z, normalised here).

        A free entity moves through its free joint's qpos (world frame). Otherwise
        the attachment frame's position and orientation in the compiled model are
        set, relative to the parent body, as dm_control does. Derived quantities
        (xpos, ...) follow at the next `forward()` or step.

        Raises:
          ValueError: `position` is not 3 finite values or `quaternion` not 4.
          RuntimeError: the entity is not attached (it is the model's root).
        """
        position = _optional_vector(position, 3, "position")
        quaternion = _optional_vector(quaternion, 4, "quaternion")
        if quaternion is not None:
            quaternion = quaternion / np.linalg.norm(quaternion)
        free_joint = self.free_joint
        if free_joint is not None:
            qpos = physics.bind(free_joint).qpos
            if position is not None:
                qpos[:3] = position
            if quaternion is not None:
                qpos[3:] = quaternion
            return
        body = physics.bind(self._require_attachment_body("set_pose"))
        if position is not None:
            body.pos = position
        if quaternion is not None:
            body.quat = quaternion

    def _require_attachment_body(self, method: str) -> mujoco.MjsBody:
        if self._attachment_body is None:
            raise RuntimeError(
                f"{method}: entity {self.name!r} is not attached (it is the root of the "
                "model), so it has no attachment frame to place"
            )
        return self._attachment_body

    def shift_pose(
        self,
        physics: Physics,
        position: ArrayLike | None = None,
        quaternion: ArrayLike | None = None,
        rotate_velocity: bool = False,
    ) -> None:
        """Translates by `position` and pre-multiplies the orientation by `quaternion`.

        With `rotate_velocity`, a free entity's linear velocity turns with it.
        """
        position = _optional_vector(position, 3, "position")
        quaternion = _optional_vector(quaternion, 4, "quaternion")
        current_position, current_quaternion = self.get_pose(physics)
        new_position = None if position is None else current_position + position
        new_quaternion = None
        if quaternion is not None:
            quaternion = quaternion / np.linalg.norm(quaternion)
            new_quaternion = np.empty(4)
            mujoco.mju_mulQuat(new_quaternion, quaternion, current_quaternion)
            if rotate_velocity and self.free_joint is not None:
                linear, _ = self.get_velocity(physics)
                rotated = np.empty(3)
                mujoco.mju_rotVecQuat(rotated, linear, quaternion)
                self.set_velocity(physics, velocity=rotated)
        self.set_pose(physics, new_position, new_quaternion)

    def get_velocity(self, physics: Physics) -> tuple[np.ndarray, np.ndarray]:
        """(linear (3,), angular (3,)) velocity of a free entity: its free joint's
        qvel, as dm_control reads it: linear in the world frame (m/s), angular in
        the entity's own frame (rad/s, MuJoCo's convention for a free joint).

        Raises:
          ValueError: the entity has no free joint.
        """
        free_joint = self.free_joint
        if free_joint is None:
            raise ValueError(
                f"get_velocity: entity {self.name!r} has no free joint (it is fixed or "
                "attached with other joints)"
            )
        qvel = physics.bind(free_joint).qvel
        return np.array(qvel[:3]), np.array(qvel[3:])

    def set_velocity(
        self,
        physics: Physics,
        velocity: ArrayLike | None = None,
        angular_velocity: ArrayLike | None = None,
    ) -> None:
        """Writes a free entity's free-joint qvel, as dm_control does: `velocity`
        (m/s, world frame) into qvel[:3], `angular_velocity` (rad/s) into qvel[3:]
        as given, so MuJoCo reads it in the entity's own frame. A single number
        fills all three components (dm_control's slice assignment).

        An entity without a free joint is left alone and a warning is logged
        (dm_control's behaviour).

        Raises:
          ValueError: `velocity` or `angular_velocity` is not 3 finite values.
        """
        velocity = _optional_vector(velocity, 3, "velocity", scalar_broadcasts=True)
        angular_velocity = _optional_vector(
            angular_velocity, 3, "angular_velocity", scalar_broadcasts=True
        )
        free_joint = self.free_joint
        if free_joint is None:
            _log.warning(
                "set_velocity: entity %r has no free joint; its velocity was not set", self.name
            )
            return
        qvel = physics.bind(free_joint).qvel
        if velocity is not None:
            qvel[:3] = velocity
        if angular_velocity is not None:
            qvel[3:] = angular_velocity

    @property
    def attachment_site(self) -> mjcf.RootElement:
        """Where `attach` attaches children by default: this entity's model (its
        world body), as in dm_control."""
        return self.mjcf_model

    @property
    def root_body(self) -> mjcf.Element:
        """The body this entity's frame moves with: its attachment frame once
        attached, else its model's world body (`mjcf` handles, as in dm_control)."""
        if self._parent is not None:
            frame = mjcf.get_attachment_frame(self.mjcf_model)
            if frame is not None:
                return frame
        return self.mjcf_model.worldbody

    def _root_rotation(self, physics: Physics) -> np.ndarray:
        # The root body's orientation, as dm_control reads it. A model attached with
        # PyMJCF's `site.attach(model)` rather than `Entity.attach` has no attachment
        # body here, but its world body binds to its attachment frame.
        body = self._attachment_body
        if body is None:
            return np.array(physics.bind(self.root_body).xmat).reshape(3, 3)
        return np.array(physics.bind(body).xmat).reshape(3, 3)

    def global_vector_to_local_frame(
        self, physics: Physics, vec_in_world_frame: ArrayLike
    ) -> np.ndarray:
        """Expresses world-frame vectors in this entity's frame (rotation only, about
        the same origin), as dm_control does: `vector @ xmat` for vectors of 3
        (the last axis), `vector @ xmat[:2, :2]` for vectors of 2, where `xmat` is
        the entity's root body's orientation; leading axes are kept.

        Raises:
          ValueError: the last axis is not of size 2 or 3.
        """
        vector = np.asarray(vec_in_world_frame)
        rotation = self._root_rotation(physics)
        if vector.ndim and vector.shape[-1] == 2:
            return np.dot(vector, rotation[:2, :2])
        if vector.ndim and vector.shape[-1] == 3:
            return np.dot(vector, rotation)
        raise ValueError(f"vector must have a last axis of size 2 or 3, got shape {vector.shape}")

    def global_xmat_to_local_frame(self, physics: Physics, xmat: ArrayLike) -> np.ndarray:
        """Another entity's orientation matrix (its frame to the world, (3, 3) or
        (9,)) as the matrix from its frame to this entity's, in the same shape.

        Raises:
          ValueError: `xmat` is not of shape (3, 3) or (9,).
        """
        xmat = np.asarray(xmat)
        if xmat.shape not in ((3, 3), (9,)):
            raise ValueError(f"xmat must have shape (3, 3) or (9,), got {xmat.shape}")
        local = self._root_rotation(physics).T @ xmat.reshape(3, 3)
        return local.reshape(xmat.shape)

    def configure_joints(self, physics: Physics, position: ArrayLike) -> None:
        """Sets the positions of this entity's own joints (not those of attached
        entities), in the order of its model, as dm_control's default does;
        entities with actuated joints may override it to keep their controls
        consistent."""
        joints = self.mjcf_model.find_all("joint", exclude_attachments=True)
        physics.bind(joints).qpos = position


def _optional_vector(
    value: ArrayLike | None, size: int, name: str, scalar_broadcasts: bool = False
) -> np.ndarray | None:
    if value is None:
        return None
    array = np.asarray(value, dtype=np.float64)
    if scalar_broadcasts and array.ndim == 0:
        # dm_control's slice assignment (`qvel[3:] = 0.`) fills every component.
        array = np.full(size, array)
    # dm_control assigns into a (size,) slice, so leading axes of length 1 pass
    # (a (1, 3) position, as its reference-pose tasks hand over).
    if array.ndim >= 1 and array.shape[-1] == size and all(n == 1 for n in array.shape[:-1]):
        array = array.reshape(size)
    if array.shape != (size,):
        raise ValueError(f"{name} must have shape ({size},), got {array.shape}")
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} must be finite, got {array}")
    return array


class FreePropObservableMixin(metaclass=abc.ABCMeta):
    """Promises the observables of a freely moving prop (dm_control's mixin for
    an `Observables` class): `position`, `orientation`, `linear_velocity` and
    `angular_velocity`."""

    @property
    @abc.abstractmethod
    def position(self) -> Any:
        """The prop's position (m, world frame)."""

    @property
    @abc.abstractmethod
    def orientation(self) -> Any:
        """The prop's orientation quaternion (w, x, y, z; world frame)."""

    @property
    @abc.abstractmethod
    def linear_velocity(self) -> Any:
        """The prop's linear velocity (m/s, world frame)."""

    @property
    @abc.abstractmethod
    def angular_velocity(self) -> Any:
        """The prop's angular velocity (rad/s, world frame)."""


class ModelWrapperEntity(Entity):
    """An entity around a model built elsewhere (dm_control's `ModelWrapperEntity`).

    Args:
      mjcf_model: a `composer_tasks.mjcf.RootElement` (e.g. from `mjcf.from_path`)
        or a `mujoco.MjSpec`, not attached anywhere yet.
    """

    def _build(self, mjcf_model: mjcf.RootElement | mujoco.MjSpec) -> None:
        if isinstance(mjcf_model, mjcf.RootElement):
            if mjcf_model.parent_model is not None:
                raise ValueError(f"model {mjcf_model.model!r} is attached already")
            self._spec = mjcf_model.spec
        elif isinstance(mjcf_model, mujoco.MjSpec):
            self._spec = mjcf_model
        else:
            raise TypeError(
                f"mjcf_model must be a mjcf.RootElement or a mujoco.MjSpec, got "
                f"{type(mjcf_model).__name__}"
            )
        if not self._spec.modelname:
            raise ValueError(
                "the wrapped model needs a name (its model attribute): it is the entity's name"
            )
