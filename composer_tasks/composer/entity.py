"""Entity: a reusable piece of a MuJoCo model with its own callbacks and observables.

An entity owns a `mujoco.MjSpec` (`entity.spec`) built in `_build`. Entities are
composed by attaching a child's spec into the parent's with `MjSpec.attach`, under
the prefix `child.name + "/"`; nested attachments give names such as
`creature/leg0/hip`. Attachment is by reference: element handles an entity keeps
(geoms, joints, sensors, actuators) stay valid and bind to the compiled root model
with `physics.bind(handle)`.

Every attachment creates a body in the parent named `child_name/` (the attachment
body) that holds the child's top-level bodies. It carries the child's pose (and, for
`add_free_entity`, the free joint), so poses of fixed and free entities are both
expressed as the pose of one body.
"""

import collections
import inspect
import re

import mujoco
import numpy as np

_IDENTITY_QUATERNION = np.array([1.0, 0.0, 0.0, 0.0])

# Spec element collections whose members get an `info` string naming the entity
# that created them; MuJoCo appends `info` to every compile error about an element.
_ELEMENT_COLLECTIONS = (
    "bodies", "geoms", "joints", "sites", "cameras", "lights", "frames",
    "actuators", "sensors", "tendons", "equalities", "materials", "textures",
    "meshes", "hfields", "excludes", "pairs", "keys",
)

# Callbacks an Entity or a Task may override; the Environment calls only the
# overridden substep callbacks so that untouched substeps run as one mj_step call.
CALLBACK_NAMES = (
    "initialize_episode_mjcf", "after_compile", "initialize_episode",
    "before_step", "before_substep", "after_substep", "after_step",
)


_spec_edit_count = 0


def mark_spec_changed():
    """Tells the Environment that a spec was edited, so that the next reset recompiles.

    Attaching, detaching and `variation.MJCFVariator` call it; call it after editing
    spec elements directly in `initialize_episode_mjcf` (or build the Environment
    with `check_spec_changes=True`, which compares the whole spec at every reset,
    at the cost of compiling it).
    """
    global _spec_edit_count
    _spec_edit_count += 1


def spec_edit_count():
    """How many spec edits `mark_spec_changed` has recorded in this process."""
    return _spec_edit_count


class _ObservableMethod:
    """Descriptor made by `@observable`: the method builds the observable once."""

    def __init__(self, method):
        self.method = method
        self.name = method.__name__
        self.__doc__ = method.__doc__

    def __get__(self, observables, owner=None):
        if observables is None:
            return self
        return observables[self.name]


def observable(method):
    """Declares a method of an `Observables` subclass as an observable.

    The method takes `self` (the `Observables`, whose `_entity` is the entity) and
    returns an observable; it is called once, when the entity is built.
    """
    return _ObservableMethod(method)


class Observables:
    """The observables of one entity, by name, in declaration order.

    Access them as attributes (`entity.observables.joint_positions`) or by key
    (`entity.observables["joint_positions"]`). All start disabled unless their
    definition or `observable_options` enables them.
    """

    def __init__(self, entity):
        self._entity = entity
        self._observables = collections.OrderedDict()
        # Definition order, base classes first; an override keeps its base's place.
        for cls in reversed(type(self).__mro__):
            for name, member in vars(cls).items():
                if isinstance(member, _ObservableMethod) and name not in self._observables:
                    self._observables[name] = None
        for name in self._observables:
            method = inspect.getattr_static(self, name)
            self._observables[name] = method.method(self)

    @property
    def entity(self):
        return self._entity

    def __getitem__(self, name):
        try:
            return self._observables[name]
        except KeyError:
            raise KeyError(
                f"entity {self._entity.name!r} has no observable {name!r}; it has "
                f"{list(self._observables)}") from None

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self._observables[name]
        except KeyError:
            raise AttributeError(
                f"entity {self._entity.name!r} has no observable {name!r}; it has "
                f"{list(self._observables)}") from None

    def __contains__(self, name):
        return name in self._observables

    def __iter__(self):
        return iter(self._observables)

    def __len__(self):
        return len(self._observables)

    def keys(self):
        return self._observables.keys()

    def values(self):
        return self._observables.values()

    def items(self):
        return self._observables.items()

    def as_dict(self):
        """A new ordered dict of name -> observable."""
        return collections.OrderedDict(self._observables)

    def add_observable(self, name, observable_object, enabled=True):
        """Adds (or replaces) an observable under `name` and sets its `enabled`."""
        if not isinstance(name, str) or not name or "/" in name:
            raise ValueError(f"observable name must be a non-empty string without '/', got {name!r}")
        observable_object.enabled = enabled
        self._observables[name] = observable_object

    def enable_all(self):
        for observable_object in self._observables.values():
            observable_object.enabled = True

    def disable_all(self):
        for observable_object in self._observables.values():
            observable_object.enabled = False

    def set_options(self, options):
        """Configures observables from `{name: {option: value}}`.

        Raises:
          KeyError: for an observable this entity does not have.
          AttributeError: for an option observables do not have.
        """
        for name, observable_options in options.items():
            observable_object = self[name]
            for option, value in observable_options.items():
                if not hasattr(type(observable_object), option):
                    raise AttributeError(
                        f"observable {name!r} of entity {self._entity.name!r} has no option {option!r}")
                try:
                    setattr(observable_object, option, value)
                except (TypeError, ValueError) as error:
                    raise type(error)(
                        f"observable {name!r} of entity {self._entity.name!r}: {error}") from error


class Callbacks:
    """The lifecycle callbacks of entities and tasks, all no-ops by default.

    What each may touch is in `Entity`'s docstring. The Environment calls only those a
    class overrides, so substeps nobody hooks into run as one physics call.
    """

    def initialize_episode_mjcf(self, random_state):
        pass

    def after_compile(self, physics, random_state):
        pass

    def initialize_episode(self, physics, random_state):
        pass

    def before_step(self, physics, action, random_state):
        pass

    def before_substep(self, physics, action, random_state):
        pass

    def after_substep(self, physics, random_state):
        pass

    def after_step(self, physics, random_state):
        pass


class Entity(Callbacks):
    """Base class of everything that makes up a task's model.

    Subclasses implement `_build(**kwargs)`, which must set `self._spec` to a new
    `mujoco.MjSpec` whose `modelname` is the entity's name, and optionally
    `_build_observables()`, which returns an `Observables`.

    Callbacks (all no-ops by default) and what they may touch:
      initialize_episode_mjcf(random_state): edit the spec (the model recompiles).
      after_compile(physics, random_state): read the freshly compiled model.
      initialize_episode(physics, random_state): set the initial state (inside the
        physics' reset context, so derived quantities follow).
      before_step(physics, action, random_state): once per control step.
      before_substep(physics, action, random_state): before every physics step.
      after_substep(physics, random_state): after every physics step.
      after_step(physics, random_state): once per control step, after the last substep.
    """

    def __init__(self, *args, observable_options=None, **kwargs):
        self._parent = None
        self._children = []
        self._attachment_body = None
        self._free_joint = None
        self._detached = False
        self._spec = None
        self._build(*args, **kwargs)
        if not isinstance(self._spec, mujoco.MjSpec):
            raise TypeError(
                f"{type(self).__name__}._build must set self._spec to a mujoco.MjSpec, "
                f"got {type(self._spec).__name__}")
        _stamp_element_info(self._spec, self)
        self._observables = self._build_observables()
        if observable_options:
            self._observables.set_options(observable_options)

    def _build(self, *args, **kwargs):
        raise NotImplementedError(f"{type(self).__name__} must implement _build")

    def _build_observables(self):
        return Observables(self)

    # Identity and structure.

    @property
    def spec(self):
        """The `mujoco.MjSpec` this entity built (shared with its root once attached)."""
        return self._spec

    @property
    def name(self):
        return self._spec.modelname

    @property
    def observables(self):
        return self._observables

    @property
    def parent(self):
        return self._parent

    @property
    def root_entity(self):
        entity = self
        while entity._parent is not None:
            entity = entity._parent
        return entity

    @property
    def prefix(self):
        """The prefix of this entity's elements in the root model ("" for the root)."""
        if self._parent is None:
            return ""
        return self._parent.prefix + self.name + "/"

    @property
    def attachment_body(self):
        """The body that holds this entity in its parent (None for the root)."""
        return self._attachment_body

    @property
    def free_joint(self):
        """The free joint added by `add_free_entity`, or None."""
        return self._free_joint

    def iter_entities(self):
        """This entity and its descendants, depth-first in attachment order."""
        yield self
        for child in self._children:
            yield from child.iter_entities()

    # Attachment.

    def attach(self, child, attach_site=None):
        """Attaches `child` at a site or frame of this entity (default: its world body).

        Args:
          child: an unattached `Entity`.
          attach_site: None, a `mujoco.MjsSite` or `mujoco.MjsFrame` of this entity,
            or the name of one of this entity's sites (without this entity's prefix).

        Returns:
          The `mujoco.MjsFrame` the child's bodies hang from, inside the attachment
          body `child.name + "/"`.
        """
        return self._attach(child, attach_site, free=False)

    def add_free_entity(self, child):
        """Attaches `child` to the world body with a free joint (6 DoF)."""
        return self._attach(child, None, free=True)

    def _attach(self, child, attach_site, free):
        if not isinstance(child, Entity):
            raise TypeError(f"can only attach an Entity, got {type(child).__name__}")
        if child is self or child in self.root_entity.iter_entities():
            raise ValueError(f"entity {child.name!r} is already part of this model")
        if child._parent is not None:
            raise ValueError(
                f"entity {child.name!r} is already attached to {child._parent.name!r}; detach it first")
        if child._detached:
            raise ValueError(
                f"entity {child.name!r} was detached; MuJoCo consumed its spec on the first "
                "attachment, so build a new entity to attach it again")
        if free and self._parent is not None:
            raise ValueError("free entities must be attached to the root entity")
        prefix = child.name + "/"
        for sibling in self._children:
            if sibling.name == child.name:
                raise ValueError(
                    f"entity {self.name!r} already has a child named {child.name!r}; "
                    "give each attached entity a distinct name")
        parent_body, position, quaternion = self._resolve_attach_site(attach_site)
        body = parent_body.add_body(
            name=self.prefix + prefix, pos=position, quat=quaternion)
        frame = body.add_frame()
        # Attachment is by reference, and the elements of an attached spec belong to
        # the root spec from then on: the root attaches, under the full prefix.
        self.root_entity.spec.attach(child.spec, prefix=self.prefix + prefix, frame=frame)
        if free:
            child._free_joint = body.add_freejoint()
        mark_spec_changed()
        child._parent = self
        child._attachment_body = body
        self._children.append(child)
        return frame

    def _resolve_attach_site(self, attach_site):
        if attach_site is None:
            if self._parent is None:
                return self._spec.worldbody, [0.0, 0.0, 0.0], _IDENTITY_QUATERNION.copy()
            return self._attachment_body, [0.0, 0.0, 0.0], _IDENTITY_QUATERNION.copy()
        if isinstance(attach_site, str):
            site = self.root_entity.spec.site(self.prefix + attach_site)
            if site is None:
                raise ValueError(f"entity {self.name!r} has no site named {attach_site!r}")
            attach_site = site
        if isinstance(attach_site, (mujoco.MjsSite, mujoco.MjsFrame)):
            return attach_site.parent, np.array(attach_site.pos), np.array(attach_site.quat)
        raise TypeError(
            f"attach_site must be None, a site name, a mujoco.MjsSite or a mujoco.MjsFrame, "
            f"got {type(attach_site).__name__}")

    def detach(self):
        """Removes this entity (and its descendants) from its parent's model."""
        if self._parent is None:
            raise ValueError(f"entity {self.name!r} is not attached")
        self.root_entity.spec.delete(self._attachment_body)
        mark_spec_changed()
        self._parent._children.remove(self)
        self._parent = None
        self._attachment_body = None
        self._free_joint = None
        self._detached = True

    # Poses, in the world frame.

    def get_pose(self, physics):
        """(position (3,), quaternion (4,) w-x-y-z) of this entity in the world frame."""
        if self._free_joint is not None:
            qpos = physics.bind(self._free_joint).qpos
            return np.array(qpos[:3]), np.array(qpos[3:])
        if self._attachment_body is None:
            return np.zeros(3), _IDENTITY_QUATERNION.copy()
        body = physics.bind(self._attachment_body)
        return np.array(body.xpos), np.array(body.xquat)

    def set_pose(self, physics, position=None, quaternion=None):
        """Places this entity in the world frame (metres; unit quaternion w-x-y-z).

        A free entity moves through its free joint's qpos. A fixed entity moves by
        changing its attachment body's pose in the compiled model. Derived quantities
        (xpos, ...) follow at the next `forward()` or step.
        """
        position = _optional_vector(position, 3, "position")
        quaternion = _optional_vector(quaternion, 4, "quaternion")
        if quaternion is not None:
            quaternion = quaternion / np.linalg.norm(quaternion)
        if self._free_joint is not None:
            qpos = physics.bind(self._free_joint).qpos
            if position is not None:
                qpos[:3] = position
            if quaternion is not None:
                qpos[3:] = quaternion
            return
        if self._attachment_body is None:
            raise ValueError(f"entity {self.name!r} is the root of the model and has no pose to set")
        body = physics.bind(self._attachment_body)
        parent_id = physics.model.body_parentid[body.id]
        parent_position = physics.data.xpos[parent_id]
        parent_quaternion = physics.data.xquat[parent_id]
        inverse_parent = np.empty(4)
        mujoco.mju_negQuat(inverse_parent, parent_quaternion)
        if position is not None:
            local = np.empty(3)
            mujoco.mju_rotVecQuat(local, position - parent_position, inverse_parent)
            body.pos = local
        if quaternion is not None:
            local_quaternion = np.empty(4)
            mujoco.mju_mulQuat(local_quaternion, inverse_parent, quaternion)
            body.quat = local_quaternion

    def shift_pose(self, physics, position=None, quaternion=None, rotate_velocity=False):
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
            if rotate_velocity and self._free_joint is not None:
                linear, _ = self.get_velocity(physics)
                rotated = np.empty(3)
                mujoco.mju_rotVecQuat(rotated, linear, quaternion)
                self.set_velocity(physics, velocity=rotated)
        self.set_pose(physics, new_position, new_quaternion)

    def get_velocity(self, physics):
        """(linear (3,), angular (3,)) velocity in the world frame (m/s, rad/s)."""
        if self._attachment_body is None:
            return np.zeros(3), np.zeros(3)
        body_id = physics.bind(self._attachment_body).id
        velocity = np.empty(6)
        mujoco.mj_objectVelocity(
            physics.model, physics.data, mujoco.mjtObj.mjOBJ_BODY, body_id, velocity, 0)
        return velocity[3:].copy(), velocity[:3].copy()

    def set_velocity(self, physics, velocity=None, angular_velocity=None):
        """Sets a free entity's velocity: linear in the world frame (m/s), angular in
        the world frame (rad/s; MuJoCo stores it in the body frame)."""
        if self._free_joint is None:
            raise ValueError(f"entity {self.name!r} has no free joint, so its velocity cannot be set")
        velocity = _optional_vector(velocity, 3, "velocity")
        angular_velocity = _optional_vector(angular_velocity, 3, "angular_velocity")
        qvel = physics.bind(self._free_joint).qvel
        if velocity is not None:
            qvel[:3] = velocity
        if angular_velocity is not None:
            quaternion = physics.bind(self._free_joint).qpos[3:]
            inverse = np.empty(4)
            mujoco.mju_negQuat(inverse, quaternion)
            local = np.empty(3)
            mujoco.mju_rotVecQuat(local, angular_velocity, inverse)
            qvel[3:] = local

    def global_vector_to_local_frame(self, physics, vector):
        """Expresses a world-frame vector in this entity's frame.

        A 2-D vector is taken in the horizontal plane and rotated by the entity's yaw
        only, as a heading for planar navigation.
        """
        vector = np.asarray(vector, dtype=np.float64)
        if vector.shape not in ((2,), (3,)):
            raise ValueError(f"vector must have shape (2,) or (3,), got {vector.shape}")
        if self._attachment_body is None:
            return vector.copy()
        rotation = np.array(physics.bind(self._attachment_body).xmat).reshape(3, 3)
        if vector.shape == (2,):
            heading = rotation[:2, 0]
            norm = np.linalg.norm(heading)
            cosine, sine = (1.0, 0.0) if norm == 0 else heading / norm
            return np.array([cosine * vector[0] + sine * vector[1],
                             -sine * vector[0] + cosine * vector[1]])
        return rotation.T @ vector


def overrides(instance, base, name):
    """True if `instance`'s class overrides the method `name` of `base`."""
    return getattr(type(instance), name) is not getattr(base, name)


def _optional_vector(value, size, name):
    if value is None:
        return None
    array = np.asarray(value, dtype=np.float64)
    if array.shape != (size,):
        raise ValueError(f"{name} must have shape ({size},), got {array.shape}")
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} must be finite, got {array}")
    return array


def _stamp_element_info(spec, entity):
    label = f"created by entity {entity.name!r} ({type(entity).__module__}.{type(entity).__qualname__})"
    for collection in _ELEMENT_COLLECTIONS:
        for element in getattr(spec, collection, ()):
            if hasattr(element, "info") and not element.info:
                element.info = label


_ELEMENT_NAME = re.compile(r"Element name '([^']*)'")


def describe_compile_error(root_entity, error):
    """MuJoCo's compile error plus the owning entity and the Python line naming the element."""
    message = str(error)
    match = _ELEMENT_NAME.search(message)
    if not match or not match.group(1):
        return f"the model of entity {root_entity.name!r} failed to compile: {message}"
    element_name = match.group(1)
    owner = root_entity
    for entity in root_entity.iter_entities():
        if element_name.startswith(entity.prefix) and len(entity.prefix) >= len(owner.prefix):
            owner = entity
    local_name = element_name[len(owner.prefix):]
    location = _find_name_in_source(type(owner), local_name)
    where = f", named at {location}" if location else ""
    return (f"element {element_name!r} of entity {owner.name!r} "
            f"({type(owner).__module__}.{type(owner).__qualname__}{where}) failed to compile: {message}")


def _find_name_in_source(cls, local_name):
    pattern = re.compile(r"""(['"])""" + re.escape(local_name) + r"""\1""")
    for klass in cls.__mro__:
        if klass is Entity or klass is object:
            continue
        try:
            lines, first_line = inspect.getsourcelines(klass)
            path = inspect.getsourcefile(klass)
        except (OSError, TypeError):
            continue
        for offset, line in enumerate(lines):
            if pattern.search(line):
                return f"{path}:{first_line + offset}"
    return None
