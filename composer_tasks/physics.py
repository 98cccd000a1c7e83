"""Physics: a compiled MuJoCo model and its data, with the operations tasks need.

`Physics` owns one `mujoco.MjModel` and one `mujoco.MjData` (and the `mujoco.MjSpec`
they were compiled from, when there is one), and behaves as dm-control 1.0.50's
`mujoco.Physics` by default: `bind(joint)` (MuJoCo's `MjData.bind` / `MjModel.bind`)
with dm_control's dirty marking and lazy forward, `named` indexing with its axes,
`get_state` of qpos, qvel and act, reset passes with actuation disabled,
`check_invalid_state`, and dm_control's wrapper methods on `model` and `data`
(which stay MuJoCo's own structs). It adds the lifecycle the Environment needs:
stepping with divergence detection, full-state save and restore
(`get_full_state`), recompilation from a changed spec and lazy rendering.

Suite domains subclass `Physics` to give physical quantities names, e.g.
`pole_angle_cosine()` or `torso_upright()`.
"""

import collections
import contextlib
import copy as _copy
import ctypes
import functools
import glob
import logging
import os
import tempfile
import weakref
from typing import Any, Callable, Dict, Iterator, NamedTuple, Optional, Tuple, Union

import mujoco
import numpy as np
from dm_env import specs
from numpy.typing import ArrayLike

from composer_tasks import rendering

# MuJoCo's warnings that mean the simulation diverged: MuJoCo resets the data.
_DIVERGENCE_WARNINGS = frozenset(
    int(w)
    for w in (
        mujoco.mjtWarning.mjWARN_BADQACC,
        mujoco.mjtWarning.mjWARN_BADQPOS,
        mujoco.mjtWarning.mjWARN_BADQVEL,
    )
)
# Every warning MuJoCo can raise. Any of them during a step means the step did not
# simulate what was asked (a bad control zeroed, contacts or constraints dropped for
# want of memory, an inertia too close to singular), so a step that raised one is
# treated as a divergence.
_NUM_WARNINGS = int(mujoco.mjtWarning.mjNWARNING)
_RK4 = int(mujoco.mjtIntegrator.mjINT_RK4)

# What a snapshot must hold to continue bit for bit: the physics state, the controls
# and applied forces, and the solver's warm start (`qacc_warmstart`), without which
# contact-rich models differ by round-off on the next step.
_STATE = mujoco.mjtState.mjSTATE_INTEGRATION

# Names of the global MjData arrays that MuJoCo's per-element bindings call otherwise:
# a sensor's slice of `sensordata` is its binding's `data`.
# dm_control's names of binding attributes that MuJoCo names otherwise.
_BINDING_ALIASES = {"sensordata": "data", "element_id": "id"}


def _engine_timer() -> ctypes.c_void_p | None:
    """MuJoCo's `mjcb_time` global (a ctypes view), or None where it cannot be reached."""
    directory = os.path.dirname(mujoco.__file__)
    for pattern in ("libmujoco.so*", "libmujoco*.dylib", "mujoco.dll"):
        for path in sorted(glob.glob(os.path.join(directory, pattern))):
            try:
                # The library is loaded already (the bindings link it), so this
                # returns that same instance and its globals.
                return ctypes.c_void_p.in_dll(ctypes.CDLL(path), "mjcb_time")
            except (OSError, ValueError):
                continue
    return None


_ENGINE_TIMER = _engine_timer()


def paused_profiling_clock() -> "_PausedProfilingClock":
    """A context in which MuJoCo's stage timers read no clock (`mjcb_time` cleared).

    `import mujoco` installs a clock as `mjcb_time`, so that every MjData's `timer`
    profiles the pipeline's stages, at the cost of a clock read at each stage's
    start and end. On the cart-pole (RK4, one substep per control step) mj_step +
    mj_step1 take 4.3 us without it and 6.9 us with it (2 cores, x86_64, MuJoCo
    4.0.0), and `mujoco.batch` pays it for every copy. `mujoco.set_mjcb_time(None)`
    keeps that default, so this clears the global itself and restores it on exit.
    `Physics.step` and the batch step their physics inside one (unless
    `Physics.time_stages` is set): `data.timer` durations stay 0. The clock is one
    process-wide global: MjData stepped by other threads meanwhile get no timings,
    and threads that pause and restore it in overlapping spans can leave it off
    (timings only; the simulation is unaffected). Where the global cannot be
    reached (ctypes cannot find the library), it does nothing.

        with paused_profiling_clock():
            batch.step(nstep=5)
    """
    return _PausedProfilingClock()


class _PausedProfilingClock:
    """`paused_profiling_clock`'s context; not reentrant (enter it again only after it exits)."""

    __slots__ = ("_clock",)

    def __enter__(self) -> "_PausedProfilingClock":
        if _ENGINE_TIMER is not None:
            self._clock = _ENGINE_TIMER.value
            _ENGINE_TIMER.value = None
        return self

    def __exit__(self, *exception_info: object) -> None:
        if _ENGINE_TIMER is not None:
            _ENGINE_TIMER.value = self._clock


class ModelFileNotFoundError(FileNotFoundError, ValueError):
    """No model file at the path given (`Physics.from_xml_path`, `from_binary_path`,
    `reload_from_xml_path`): a `FileNotFoundError`, and a `ValueError` as dm_control
    raises (MuJoCo's loader error)."""


class Error(ValueError):
    """A name or object type that the model does not have (`model.name2id`), as
    dm_control's `mujoco.wrapper.core.Error`."""


def _object_type(object_type: Union[str, int]) -> int:
    if isinstance(object_type, str):
        type_id = mujoco.mju_str2Type(object_type)
        if not type_id:
            raise Error(f"{object_type!r} is not a valid object type name")
        return type_id
    return int(object_type)


# The names that PyMJCF gives unnamed elements another element refers to:
# `<model>//unnamed_<kind>_<n>` ("//unnamed_geom_0" in the root model). Such an element
# of an attached model is named in its own model first, so MjSpec's attach prefix
# makes it `<model>///unnamed_...` in the compiled model; the names read and looked up
# through this module and `named` are dm_control's.
UNNAMED_PREFIX = "//unnamed_"
_ATTACHED_UNNAMED = "/" + UNNAMED_PREFIX


def dm_control_element_name(compiled_name: str) -> str:
    """An element's name in the compiled model as dm_control names it."""
    if _ATTACHED_UNNAMED in compiled_name:
        return compiled_name.replace(_ATTACHED_UNNAMED, UNNAMED_PREFIX)
    return compiled_name


def compiled_element_name(name: str) -> str:
    """The compiled model's name of the element dm_control names `name`."""
    at = name.find(UNNAMED_PREFIX)
    if at > 0 and name[at - 1] != "/":
        return name[:at] + _ATTACHED_UNNAMED + name[at + len(UNNAMED_PREFIX) :]
    return name


def _model_name2id(model: mujoco.MjModel, name: str, object_type: Union[str, int]) -> int:
    """The id of the object of type `object_type` (a lowercase name such as
    "body" or an `mjtObj`) named `name`.

    Raises:
        Error: no such object type, or no object of that type has that name.
    """
    type_id = _object_type(object_type)
    object_id = mujoco.mj_name2id(model, type_id, name)
    if object_id == -1 and UNNAMED_PREFIX in name:
        object_id = mujoco.mj_name2id(model, type_id, compiled_element_name(name))
    if object_id == -1:
        raise Error(
            f"Object of type {mujoco.mju_type2Str(type_id)!r} with name {name!r} does not exist."
        )
    return object_id


def _model_id2name(model: mujoco.MjModel, object_id: int, object_type: Union[str, int]) -> str:
    """The name of object `object_id` of type `object_type`, "" if it has none."""
    name = mujoco.mj_id2name(model, _object_type(object_type), object_id) or ""
    return dm_control_element_name(name)


def _disable_bits(flags: Tuple[Union[str, int], ...]) -> int:
    bits = 0
    for flag in flags:
        if isinstance(flag, str):
            member = getattr(mujoco.mjtDisableBit, "mjDSBL_" + flag.upper(), None)
            if member is None:
                names = [
                    name.split("_", 1)[1].lower()
                    for name in list(mujoco.mjtDisableBit.__members__)[:-1]
                ]
                raise ValueError(
                    f"{flag!r} is not a valid flag name. Valid names: {', '.join(names)}"
                )
            bits |= int(member)
        else:
            bits |= int(mujoco.mjtDisableBit(flag))
    return bits


@contextlib.contextmanager
def _model_disable(model: mujoco.MjModel, *flags: Union[str, int]) -> Iterator[None]:
    """Disables MuJoCo flags (lowercase names such as "gravity", "contact",
    "actuation", or `mjtDisableBit` values) for the duration of the context.

    Raises:
        ValueError: a flag that is no `mjtDisableBit`.
    """
    options = model.opt
    saved = options.disableflags
    options.disableflags = saved | _disable_bits(flags)
    try:
        yield
    finally:
        options.disableflags = saved


def _model_name(model: mujoco.MjModel) -> str:
    """The model's name (the first of its names)."""
    return bytes(model.names).split(b"\0", 1)[0].decode()


def _model_to_bytes(model: mujoco.MjModel) -> bytes:
    """The model as an MJB binary."""
    buffer = np.zeros(mujoco.mj_sizeModel(model), dtype=np.uint8)
    mujoco.mj_saveModel(model, None, buffer)
    return buffer.tobytes()


def _model_save_binary(model: mujoco.MjModel, path: str) -> None:
    """Writes the model as an MJB binary file."""
    mujoco.mj_saveModel(model, path, None)


def _data_object_velocity(
    data: mujoco.MjData,
    object_id: Union[int, str],
    object_type: Union[str, int],
    local_frame: bool = False,
) -> np.ndarray:
    """(2, 3) linear then angular velocity of an object (by id or name), in the
    world frame or, with `local_frame`, the object's."""
    type_id = _object_type(object_type)
    if not isinstance(object_id, (int, np.integer)):
        object_id = _model_name2id(data.model, object_id, type_id)
    velocity = np.empty(6)
    mujoco.mj_objectVelocity(data.model, data, type_id, int(object_id), velocity, local_frame)
    # MuJoCo gives (angular, linear).
    return velocity.reshape(2, 3)[::-1]


def _data_contact_force(data: mujoco.MjData, contact_id: int) -> np.ndarray:
    """(2, 3) force then torque of contact `contact_id` in the contact frame, after
    the actuation, acceleration and constraint stages that compute them.

    Raises:
        ValueError: `contact_id` is not in [0, ncon).
    """
    if not 0 <= contact_id < data.ncon:
        raise ValueError(
            f"contact_id must be in [0, {data.ncon - 1}] (data.ncon={data.ncon}), got {contact_id}"
        )
    model = data.model
    mujoco.mj_fwdActuation(model, data)
    mujoco.mj_fwdAcceleration(model, data)
    mujoco.mj_fwdConstraint(model, data)
    wrench = np.empty(6)
    mujoco.mj_contactForce(model, data, contact_id, wrench)
    return wrench.reshape(2, 3)


# dm_control wraps MjModel and MjData in Python classes with these methods, whose
# `.ptr` is the raw struct. Here `physics.model` and `physics.data` are the raw
# structs themselves (every MuJoCo function takes them, at no cost per call), so
# the methods are added to MuJoCo's classes, where MuJoCo has none of that name;
# `ptr` is the struct itself, so dm_control code passing `physics.model.ptr` works.
_MODEL_METHODS = {
    "ptr": property(lambda self: self, doc="The struct itself (dm_control's raw pointer)."),
    "name2id": _model_name2id,
    "id2name": _model_id2name,
    "disable": _model_disable,
    "name": property(_model_name),
    "to_bytes": _model_to_bytes,
    "save_binary": _model_save_binary,
    "copy": lambda self: _copy.copy(self),
}
_DATA_METHODS = {
    "ptr": property(lambda self: self, doc="The struct itself (dm_control's raw pointer)."),
    "object_velocity": _data_object_velocity,
    "contact_force": _data_contact_force,
    "copy": lambda self: _copy.copy(self),
}


def dm_control_struct_methods() -> dict:
    """{struct class: {name: attribute}} of dm_control's wrapper methods that
    `composer_tasks.physics` adds to `mujoco.MjModel` and `mujoco.MjData`."""
    return {mujoco.MjModel: dict(_MODEL_METHODS), mujoco.MjData: dict(_DATA_METHODS)}


for _struct, _methods in dm_control_struct_methods().items():
    for _name, _method in _methods.items():
        if not hasattr(_struct, _name):
            setattr(_struct, _name, _method)


# dm_control's messages (mujoco/engine.py), under its names: its own tests and
# programs match them word for word.
_INVALID_PHYSICS_STATE = "Physics state is invalid. Warning(s) raised: {warning_names}"
_KEYFRAME_ID_OUT_OF_RANGE = (
    "`keyframe_id` must be between 0 and {max_valid} inclusive, got: {actual}."
)
_BOTH_SEGMENTATION_AND_DEPTH_ENABLED = rendering.BOTH_SEGMENTATION_AND_DEPTH_ENABLED
_OVERLAYS_NOT_SUPPORTED_FOR_DEPTH_OR_SEGMENTATION = (
    rendering.OVERLAYS_NOT_SUPPORTED_FOR_DEPTH_OR_SEGMENTATION
)
_RENDER_FLAG_OVERRIDES_NOT_SUPPORTED_FOR_DEPTH_OR_SEGMENTATION = (
    rendering.RENDER_FLAG_OVERRIDES_NOT_SUPPORTED_FOR_DEPTH_OR_SEGMENTATION
)
_WARNING_NAMES = tuple(mujoco.mjtWarning.__members__)[:_NUM_WARNINGS]

# dm_control's camera classes of `mujoco` (engine.py), defined in `rendering`.
Camera = rendering.Camera
MovableCamera = rendering.MovableCamera
TextOverlay = rendering.TextOverlay
CameraMatrices = rendering.CameraMatrices
Pose = rendering.Pose
Selected = rendering.Selected


class NamedIndexStructs(NamedTuple):
    """What `Physics.named` returns (dm_control's `NamedIndexStructs`): `model` and
    `data`, each of whose arrays is indexed by element names."""

    model: Any
    data: Any


def action_spec(physics: "Physics") -> specs.BoundedArray:
    """The spec of actions that set `physics`' actuators' controls (dm_control's
    `mujoco.action_spec`): float64 of shape (nu,), unnamed; each actuator's bounds are
    its `ctrlrange` where it is control-limited, else +-`mujoco.mjMAXVAL`."""
    model = physics.model
    limited = np.asarray(model.actuator_ctrllimited).ravel().astype(bool)
    minimum = np.full(model.nu, -mujoco.mjMAXVAL, dtype=float)
    maximum = np.full(model.nu, mujoco.mjMAXVAL, dtype=float)
    minimum[limited] = model.actuator_ctrlrange[limited, 0]
    maximum[limited] = model.actuator_ctrlrange[limited, 1]
    return specs.BoundedArray(shape=(model.nu,), dtype=float, minimum=minimum, maximum=maximum)


class PhysicsError(RuntimeError):
    """The simulation diverged or MuJoCo warned during a step.

    MuJoCo flagged a bad acceleration, position or velocity (and reset the data), or
    raised another warning that means the step did not simulate what was asked: a
    bad (NaN, infinite or larger than 1e10) control it zeroed, a full contact or
    constraint buffer, a singular inertia. The message carries MuJoCo's text.
    """


def array_fields(struct: Any) -> Iterator[Tuple[str, np.ndarray]]:
    """(name, array) of every public array field of a MuJoCo struct (`MjModel`,
    `MjData`), in `dir` order; the arrays are the struct's own (views, not copies)."""
    for name in dir(struct):
        if name.startswith("_"):
            continue
        value = getattr(struct, name, None)
        if isinstance(value, np.ndarray):
            yield name, value


def warning_error(numbers: np.ndarray, lastinfo: np.ndarray, start_time: float) -> PhysicsError:
    """The `PhysicsError` for a simulation whose warning counters rose during a step.

    Args:
        numbers: the simulation's warning counters, (mjNWARNING,) (`data.warning.number`).
        lastinfo: each warning's last info, (mjNWARNING,) (`data.warning.lastinfo`).
        start_time: simulated time (seconds) at the start of the step.

    The message lists MuJoCo's text of every warning raised since the episode began
    (counters restart with it), so that a single environment and a batch's copy
    report the same step alike.
    """
    raised = [index for index in range(_NUM_WARNINGS) if numbers[index]]
    texts = "; ".join(mujoco.mju_warningText(index, int(lastinfo[index])) for index in raised)
    if _DIVERGENCE_WARNINGS.intersection(raised):
        return PhysicsError(
            f"physics diverged during the step that started at t={start_time:.6g} s: {texts}"
        )
    return PhysicsError(
        f"MuJoCo warned during the step that started at t={start_time:.6g} s: {texts}"
    )


# Writes through a binding to these MjData fields change the state that derived
# quantities are computed from, so they mark the physics dirty (dm_control's
# `mjcf.constants.MJDATA_TRIGGERS_DIRTY`); every other MjData field is derived.
DATA_TRIGGERS_DIRTY = frozenset(("qpos", "qvel", "act", "ctrl", "qfrc_applied", "xfrc_applied"))
# MjModel fields whose writes change only what is drawn, not the dynamics
# (dm_control's `MJMODEL_DOESNT_TRIGGER_DIRTY`, names without their element prefix).
MODEL_DOESNT_TRIGGER_DIRTY = frozenset(
    ("rgba", "matid", "emission", "specular", "shininess", "reflectance", "needstage")
)
# Writing a frame offset of the model must zero the element's `sameframe` flag (and
# a body's `simple` flag for its inertial frame), or MuJoCo keeps using the frame
# the flag promised instead of the written offset (dm_control's
# `MJMODEL_DISABLE_ON_WRITE`). Keyed by the MjModel field.
MODEL_DISABLE_ON_WRITE = {
    "body_pos": ("body_sameframe",),
    "body_quat": ("body_sameframe",),
    "geom_pos": ("geom_sameframe",),
    "geom_quat": ("geom_sameframe",),
    "site_pos": ("site_sameframe",),
    "site_quat": ("site_sameframe",),
    "body_ipos": ("body_simple", "body_sameframe"),
    "body_iquat": ("body_simple", "body_sameframe"),
}


# Spec element types whose model fields a write may disable `sameframe` flags of.
_FRAME_PREFIXES = {mujoco.MjsBody: "body_", mujoco.MjsGeom: "geom_", mujoco.MjsSite: "site_"}


def triggers_dirty(struct_name: str, field: str, attribute: str) -> bool:
    """Whether a write through a binding to `field` of `struct_name` ("model" or
    "data"), bound as `attribute`, makes derived quantities stale (dm_control's rule:
    the six state and input fields of MjData, and every MjModel field but those that
    only change what is drawn)."""
    if struct_name == "data":
        return field in DATA_TRIGGERS_DIRTY
    return attribute not in MODEL_DOESNT_TRIGGER_DIRTY


# dm_control's message for pickling a bound array (mjcf/physics.py).
PICKLING_NOT_SUPPORTED = "Objects of type {type} cannot be pickled."


class SynchronizingArrayWrapper(np.ndarray):
    """A view of a MuJoCo array returned by a binding, whose item writes
    (`physics.bind(joint).qpos[0] = 0.3`) mark the physics dirty as an assignment
    to the binding's attribute does, and zero the `sameframe` flags a frame offset
    write disables (dm_control's `SynchronizingArrayWrapper`).

    Arrays computed from one (`view * 2`, a copy) are plain `np.ndarray`s.
    """

    _physics: Any = None
    _marks_dirty = False
    _disable: Tuple[Callable[[], None], ...] = ()
    # For a copy of entries gathered from several places (a list of elements'
    # non-adjacent rows): writes the whole array back to where it came from.
    _write_back: Any = None

    def __array_wrap__(
        self, array: np.ndarray, context: Any = None, return_scalar: bool = False
    ) -> Any:
        result = np.asarray(array)
        return result[()] if return_scalar else result

    def __setitem__(self, index: Any, value: Any) -> None:
        physics = self._physics
        if physics is not None and physics._dirty and not self._marks_dirty:
            physics.forward()
        super().__setitem__(index, value)
        if self._write_back is not None:
            self._write_back(np.asarray(self))
        for zero in self._disable:
            zero()
        if physics is not None and self._marks_dirty:
            physics._dirty = True

    def copy(self, order: Any = "C") -> np.ndarray:  # type: ignore[override]
        return np.array(self, order=order)

    def __copy__(self) -> np.ndarray:
        return np.array(self)

    def __deepcopy__(self, memo: Any) -> np.ndarray:
        return np.array(self)

    def __reduce__(self) -> Any:
        # As dm_control's bound arrays: a view of a live simulation is not data.
        # (A copy, `np.array(value)`, pickles.)
        raise NotImplementedError(PICKLING_NOT_SUPPORTED.format(type=type(self)))


# The name this project used before (dm_control's name above is the class's own, so
# that a printed bound array reads as it does there).
BoundArray = SynchronizingArrayWrapper


def bound_array(
    view: np.ndarray,
    physics: "Physics",
    marks_dirty: bool,
    disable: Tuple[Callable[[], None], ...] = (),
    write_back: Any = None,
) -> SynchronizingArrayWrapper:
    """`view` as a `SynchronizingArrayWrapper` of `physics`: writes into it mark the physics dirty when
    `marks_dirty`, and call each of `disable` (which zero `sameframe` flags).
    `write_back`, for a gathered copy rather than a view, is called with the whole
    array after each write."""
    bound = view.view(SynchronizingArrayWrapper)
    bound._physics = physics
    bound._marks_dirty = marks_dirty
    bound._disable = disable
    bound._write_back = write_back
    return bound


class Binding:
    """Model and data attributes of one spec element or a sequence of them.

    Reading an attribute returns MuJoCo's own binding of the compiled data
    (`MjData.bind`) when the data has that attribute (e.g. `qpos`, `xpos`, `ctrl`),
    otherwise that of the model (e.g. `mass`, `size`, `gear`). For a single element
    the arrays are views: writing into them changes the simulation. For a sequence
    of elements the values are concatenated into a new flat array, in element order
    (`bind([body1, body2]).xpos` has shape (6,)); assign to the attribute
    (`binding.qpos = values`) to write them.

    As in dm_control, a write of the state or inputs (`qpos`, `qvel`, `act`, `ctrl`,
    `qfrc_applied`, `xfrc_applied`) or of a model parameter marks the physics dirty,
    and the next read of a derived quantity through a binding (`xpos`, `sensordata`)
    runs `Physics.forward` first. Reads of `physics.data` itself never do.
    """

    __slots__ = (
        "_model_binding",
        "_data_binding",
        "_stacked",
        "_views",
        "_owners",
        "_physics",
        "_model_prefix",
    )

    def __init__(
        self,
        model_binding: Any,
        data_binding: Any,
        stacked: bool,
        physics: "Physics",
        model_prefix: str = "",
    ) -> None:
        object.__setattr__(self, "_model_binding", model_binding)
        object.__setattr__(self, "_model_prefix", model_prefix)
        object.__setattr__(self, "_data_binding", data_binding)
        object.__setattr__(self, "_stacked", stacked)
        object.__setattr__(self, "_physics", physics)
        # Views of a single element stay valid as long as the model and data do,
        # and Physics drops its bindings whenever those change.
        object.__setattr__(self, "_views", {})
        # name -> (owner binding, its attribute name, marks dirty, flags to zero)
        object.__setattr__(self, "_owners", {})

    def _resolve(self, name: str) -> Tuple[Any, str, bool, Tuple[str, ...]]:
        try:
            return self._owners[name]
        except KeyError:
            pass
        real_name = _BINDING_ALIASES.get(name, name)
        data_binding = self._data_binding
        if data_binding is not None and hasattr(data_binding, real_name):
            owner, struct_name = data_binding, "data"
        elif hasattr(self._model_binding, real_name):
            owner, struct_name = self._model_binding, "model"
        else:
            raise AttributeError(
                f"neither the model nor the data has an attribute {name!r} for this element"
            )
        disable: Tuple[str, ...] = ()
        field = real_name
        if struct_name == "model":
            field = self._model_prefix + real_name
            flags = MODEL_DISABLE_ON_WRITE.get(field, ())
            disable = tuple(flag.split("_", 1)[1] for flag in flags)
        # An element's id and name are neither derived nor writable: reading them
        # never needs a forward pass (dm_control's `element_id` does not run one).
        marks_dirty = real_name in ("id", "name") or triggers_dirty(struct_name, field, real_name)
        resolved = (owner, real_name, marks_dirty, disable)
        self._owners[name] = resolved
        return resolved

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        views = self._views
        physics = self._physics
        if name in views:
            view, marks_dirty = views[name]
            if physics._dirty and not marks_dirty:
                physics.forward()
            return view
        owner, real_name, marks_dirty, disable = self._resolve(name)
        if physics._dirty and not marks_dirty:
            physics.forward()
        value = getattr(owner, real_name)
        if self._stacked:
            return np.array(value)
        if isinstance(value, np.ndarray):
            zeroes = tuple(
                functools.partial(np.copyto, getattr(self._model_binding, flag), 0)
                for flag in disable
            )
            value = bound_array(value, physics, marks_dirty, zeroes)
            views[name] = (value, marks_dirty)
        return value

    def __setattr__(self, name: str, value: Any) -> None:
        owner, real_name, marks_dirty, disable = self._resolve(name)
        physics = self._physics
        if physics._dirty and not marks_dirty:
            physics.forward()
        if name in self._views:
            self._views[name][0][...] = value
        else:
            setattr(owner, real_name, value)
            for flag in disable:
                setattr(self._model_binding, flag, 0)
        if marks_dirty:
            physics._dirty = True


def check_equality_anchors(spec: mujoco.MjSpec) -> None:
    """Refuses a `connect` equality between bodies whose anchor was never set.

    MuJoCo's schema requires one (so PyMJCF's compile raises); MjSpec would compile it
    with its default data, an anchor 1 m along y, silently. `composer_tasks.mjcf`
    leaves an unset anchor NaN, found here before compiling.

    Raises:
      ValueError: naming the equality.
    """
    for index, equality in enumerate(spec.equalities):
        if equality.type != mujoco.mjtEq.mjEQ_CONNECT:
            continue
        if equality.objtype == mujoco.mjtObj.mjOBJ_SITE:
            continue
        if np.any(np.isnan(np.asarray(equality.data)[:3])):
            name = equality.name or f"equalities[{index}] (unnamed)"
            raise ValueError(
                f"connect equality {name!r} between bodies {equality.name1!r} and "
                f"{equality.name2!r} has no anchor: one of (site1, site2), (body1, anchor) "
                "must be specified, as MuJoCo's schema requires"
            )


# MJCF text that this project wrote from a spec (`spec_xml`), by its bytes -> that
# spec. MuJoCo's XML writer keeps six significant digits, so the text alone compiles to
# a model up to 1e-6 away from the spec's (a joint range of -160 degrees, a mass from
# a capsule's size); compiled from the spec it was written from, the text gives the
# spec's model bit for bit. Bounded: the least recently written text goes first.
_WRITTEN_SPECS: "collections.OrderedDict[bytes, mujoco.MjSpec]" = collections.OrderedDict()
_WRITTEN_SPECS_KEPT = 32


def spec_xml(spec: mujoco.MjSpec) -> bytes:
    """MJCF text of `spec` (MuJoCo's writer, as bytes, the type of dm_control's model
    files) that `Physics.from_xml_string` compiles to the spec's own model, bit for bit.

    MuJoCo's writer rounds numbers to six significant digits; the text keeps that
    form (it parses anywhere MJCF does), and this module remembers which spec wrote
    it (a copy, so later edits of `spec` do not change it). The same text with
    assets compiles from that spec; edited text, or text given to another loader
    (`mujoco.MjModel.from_xml_string`, `mjcf.from_xml_string`), is parsed, and its
    numbers are the rounded ones.
    """
    if not isinstance(spec, mujoco.MjSpec):
        raise TypeError(f"spec must be a mujoco.MjSpec, got {type(spec).__name__}")
    text = spec.to_xml().encode()
    remember_written_text(text, spec)
    return text


def remember_written_text(text: Union[str, bytes], spec: mujoco.MjSpec) -> None:
    """Records that MuJoCo's writer wrote `text` from `spec` (see `spec_xml`): this
    module's `from_xml_string` then compiles that text from a copy of the spec, with
    the spec's own asset files, unless the caller's assets give one of those files
    other contents."""
    key = text.encode() if isinstance(text, str) else bytes(text)
    _WRITTEN_SPECS[key] = spec.copy()
    _WRITTEN_SPECS.move_to_end(key)
    while len(_WRITTEN_SPECS) > _WRITTEN_SPECS_KEPT:
        _WRITTEN_SPECS.popitem(last=False)


def _compile_xml_string(
    xml_string: Union[str, bytes], assets: Optional[Dict[str, bytes]]
) -> Tuple[Optional[mujoco.MjSpec], mujoco.MjModel]:
    """(spec or None, compiled model) of MJCF text and its assets (text that
    `spec_xml` wrote compiles from a copy of the spec it was written from)."""
    key = xml_string.encode() if isinstance(xml_string, str) else xml_string
    written = _WRITTEN_SPECS.get(key) if isinstance(key, bytes) else None
    given = assets or {}
    if written is not None and all(
        given.get(name, data) == data for name, data in written.assets.items()
    ):
        spec = written.copy()
        return spec, spec.compile()
    try:
        spec = mujoco.MjSpec.from_string(xml_string, assets=assets or {})
    except ValueError:
        # MjSpec cannot read `<include>` files from `assets`; MuJoCo's XML loader can,
        # and if it fails too, its error is the one that names what is wrong with the
        # model (the spec's may only say that an included file could not be opened).
        return None, mujoco.MjModel.from_xml_string(xml_string, assets=assets or {})
    return spec, spec.compile()


@contextlib.contextmanager
def _pymjcf_names(spec: mujoco.MjSpec) -> Iterator[None]:
    """While compiling `spec`, if it is a PyMJCF model (`composer_tasks.mjcf`), the
    model compiles as dm_control's PyMJCF models compile: its unnamed elements of every
    kind (`mjcf.root.unnamed_identifiers`) carry PyMJCF's names for them
    (`//unnamed_geom_0`, `walker//unnamed_site_2`, an attachment frame's joint named
    after the frame), so that `model.id2name` and `physics.named` read them as there,
    and a heightfield given only rows and columns is flat, as MuJoCo's XML parser makes
    it. The spec is left as it was afterwards."""
    from composer_tasks.mjcf import root as root_module

    root = root_module.root_of(spec)
    if root is None:
        yield
        return
    try:
        named = root_module.unnamed_identifiers(root._top())
    except ValueError:
        # MuJoCo refuses to list a spec's bodies after a compile of it failed, until
        # one succeeds ("The mjSpec does not match mjModel"): compile once (raising
        # the model's own error if it still has one), then name and compile.
        spec.compile()
        named = root_module.unnamed_identifiers(root._top())
    # A heightfield given rows and columns but no file or elevation data is flat, as
    # MuJoCo's XML parser makes it (the spec alone refuses to compile it).
    flat = [
        hfield
        for hfield in spec.hfields
        if not hfield.file and hfield.nrow > 0 and hfield.ncol > 0 and not len(hfield.userdata)
    ]
    try:
        for element, identifier in named:
            element.name = identifier
        for hfield in flat:
            hfield.userdata = [0.0] * (hfield.nrow * hfield.ncol)
        yield
    finally:
        for element, _ in named:
            element.name = ""
        for hfield in flat:
            hfield.userdata = []


def compile_spec(spec: mujoco.MjSpec) -> mujoco.MjModel:
    """`spec.compile()`, a PyMJCF model's unnamed elements named as dm_control's."""
    with _pymjcf_names(spec):
        return spec.compile()


class Physics:
    """A compiled MuJoCo model, its data, and (optionally) the spec it came from.

    Attributes:
        model: the `mujoco.MjModel`.
        data: the `mujoco.MjData`.
        spec: the `mujoco.MjSpec` the model was compiled from, or None.
        time_stages: keep MuJoCo's per-stage timers (`data.timer`) running during
            `step` (False by default: see `step`).
    """

    time_stages = False
    # dm_control's `rl.control.Physics.legacy_step`: `step` leaves positions,
    # velocities and what derives from them current (see `step`).
    legacy_step = True

    def __init__(
        self,
        model: Union[mujoco.MjModel, mujoco.MjData],
        data: Optional[mujoco.MjData] = None,
        spec: Optional[mujoco.MjSpec] = None,
    ) -> None:
        """A Physics of `model` and `data` (new data if None), as they are.

        `Physics(data)` with one `mujoco.MjData` is dm_control's form: the data's
        model, forwarded with actuation disabled (`after_reset`; a `PhysicsError`
        of that pass is logged).
        """
        from_data = isinstance(model, mujoco.MjData) and data is None and spec is None
        if from_data:
            model, data = model.model, model
        if not isinstance(model, mujoco.MjModel):
            raise TypeError(f"model must be a mujoco.MjModel, got {type(model).__name__}")
        self._spec = spec
        # Models compiled into this Physics after its first (`recompile`, a reload):
        # an Environment that keeps the compiled model's values sees by it that
        # the model was compiled anew without it.
        self.compile_count = 0
        self._warnings_cause_exception = True
        self._renderers = {}
        # Renderers hold GL contexts; release them with the Physics rather than at
        # interpreter exit, where some backends (OSMesa) fail noisily.
        weakref.finalize(self, rendering.close_renderers, self._renderers)
        self._install(model, data if data is not None else mujoco.MjData(model))
        if from_data:
            self._after_reset_logged()

    def _after_reset_logged(self) -> None:
        try:
            self.after_reset()
        except PhysicsError as error:
            logging.warning("%s", error)

    def _install(self, model: mujoco.MjModel, data: mujoco.MjData) -> None:
        self._model = model
        self._data = data
        self._bindings = {}
        self._element_ids = {}
        self._dirty = False
        self._named = None
        # Live views into model and data, read or written every step; fetching them
        # anew each time costs more than the small models' physics.
        self._warning_numbers = self._data.warning.number
        self._options = self._model.opt
        self._ctrl = self._data.ctrl
        # The warning counters at the last check, as bytes: comparing 28 bytes is
        # the cheapest test that no counter rose during a step.
        self._checked_warnings = self._warning_numbers.tobytes()
        self.close_renderers()
        self._model_changed()

    def _model_changed(self) -> None:
        """Hook for subclasses: called whenever `model`/`data` are (re)installed, the
        place to resolve and cache element ids their named quantities use."""

    # Construction.

    @classmethod
    def from_spec(cls, spec: mujoco.MjSpec) -> "Physics":
        """Compiles `spec` (a `mujoco.MjSpec`) and returns a Physics that keeps it."""
        if not isinstance(spec, mujoco.MjSpec):
            raise TypeError(f"spec must be a mujoco.MjSpec, got {type(spec).__name__}")
        check_equality_anchors(spec)
        model = compile_spec(spec)
        physics = cls(model, mujoco.MjData(model), spec=spec)
        physics._forward_unchecked()
        return physics

    @classmethod
    def from_model(cls, model: mujoco.MjModel) -> "Physics":
        """A Physics of a compiled model with new data, forwarded as `from_spec` does
        (dm_control's `Physics.from_model`); it has no spec, so it cannot recompile."""
        physics = cls(model, mujoco.MjData(model))
        physics._forward_unchecked()
        return physics

    @classmethod
    def from_byte_string(cls, byte_string: bytes) -> "Physics":
        """A Physics of a model binary (MJB) given as bytes."""
        if not isinstance(byte_string, (bytes, bytearray)):
            raise TypeError(f"byte_string must be bytes, got {type(byte_string).__name__}")
        with tempfile.TemporaryDirectory() as directory:
            path = os.path.join(directory, "model.mjb")
            with open(path, "wb") as file:
                file.write(byte_string)
            return cls.from_binary_path(path)

    @classmethod
    def from_binary_path(cls, path: Union[str, os.PathLike]) -> "Physics":
        """A Physics of a model binary (MJB) file."""
        path = os.fspath(path)
        if not os.path.exists(path):
            raise ModelFileNotFoundError(f"no MJB file at {path!r}")
        return cls.from_model(mujoco.MjModel.from_binary_path(path))

    def reload_from_xml_string(
        self, xml_string: str, assets: Optional[Dict[str, bytes]] = None
    ) -> None:
        """Replaces the model and data by those of MJCF text, as a new Physics
        `from_xml_string` would have them; bindings and renderers are dropped."""
        self._reload(*_compile_xml_string(xml_string, assets))

    def reload_from_xml_path(self, path: Union[str, os.PathLike]) -> None:
        """Replaces the model and data by those of an MJCF file (see
        `reload_from_xml_string`)."""
        path = os.fspath(path)
        if not os.path.exists(path):
            raise ModelFileNotFoundError(f"no MJCF file at {path!r}")
        spec = mujoco.MjSpec.from_file(path)
        check_equality_anchors(spec)
        self._reload(spec, spec.compile())

    def _reload(self, spec: Optional[mujoco.MjSpec], model: mujoco.MjModel) -> None:
        self._spec = spec
        self.compile_count += 1
        self._install(model, mujoco.MjData(model))
        self._forward_unchecked()

    @classmethod
    def from_xml_string(
        cls, xml_string: str, assets: Optional[Dict[str, bytes]] = None
    ) -> "Physics":
        """Parses MJCF text (with an optional `{filename: bytes}` asset dict).

        A model whose `<include>` files come in `assets` is compiled by MuJoCo's XML
        loader, as MjSpec cannot read them from there: that Physics has no spec
        (it cannot `recompile`)."""
        spec, model = _compile_xml_string(xml_string, assets)
        physics = cls(model, mujoco.MjData(model), spec=spec)
        physics._forward_unchecked()
        return physics

    @classmethod
    def from_xml_path(cls, path: Union[str, os.PathLike]) -> "Physics":
        """Loads an MJCF file; relative asset paths resolve against its folder."""
        path = os.fspath(path)
        if not os.path.exists(path):
            raise ModelFileNotFoundError(f"no MJCF file at {path!r}")
        spec = mujoco.MjSpec.from_file(path)
        return cls.from_spec(spec)

    @property
    def model(self) -> mujoco.MjModel:
        """The compiled `mujoco.MjModel` itself, to pass to MuJoCo's functions; it also
        has dm_control's wrapper methods (`ptr`, `name2id`, `id2name`, `disable`,
        `name`: see `composer_tasks.physics.dm_control_struct_methods`)."""
        return self._model

    @property
    def data(self) -> mujoco.MjData:
        """The `mujoco.MjData` itself, with dm_control's wrapper methods (`ptr`,
        `object_velocity`, `contact_force`, `copy`)."""
        return self._data

    @property
    def named(self) -> Any:
        """`model` and `data` arrays indexed by element names, with dm_control's
        row and column names (`physics.named.data.qpos["hinge"]`,
        `physics.named.data.xpos["torso", "z"]`, `...qpos.axes.row.names`).

        Reads and writes go straight to the arrays: unlike `bind`, they neither
        mark the physics dirty nor run `forward`, as in dm_control."""
        named = self._named
        if named is None:
            from composer_tasks.mjcf import indexing  # noqa: PLC0415  (mjcf imports this module)

            indexer = indexing.NamedIndexer(self)
            named = self._named = NamedIndexStructs(model=indexer.model, data=indexer.data)
        return named

    @property
    def is_dirty(self) -> bool:
        """Whether a write through a binding changed the state or the model since
        the last `forward` (dm_control's `mjcf.Physics.is_dirty`); the next read of a
        derived quantity through a binding then runs `forward` first. `step` leaves
        the flag as it is, as dm_control's does."""
        return self._dirty

    def mark_as_dirty(self) -> None:
        """Marks derived quantities stale: the next read through a binding forwards."""
        self._dirty = True

    @property
    def spec(self) -> Optional[mujoco.MjSpec]:
        return self._spec

    def recompile(self) -> None:
        """Recompiles the model from its (changed) spec, keeping the simulation state,
        and forwards it with actuation disabled (`after_reset`).

        Bindings, renderers and anything else derived from the old model are dropped.
        """
        if self._spec is None:
            raise ValueError("this Physics was not built from a spec, so it cannot recompile")
        with _pymjcf_names(self._spec):
            model, data = self._spec.recompile(self._model, self._data)
        self.compile_count += 1
        self._install(model, data)
        # A new model's first forward pass, as dm_control's reload runs it.
        self.after_reset()

    # Simulation.

    def step(self, nstep: int = 1) -> None:
        """Advances the simulation by `nstep` physics timesteps.

        Positions, velocities and the quantities derived from them (body and site
        poses, sensors of those stages) describe the state *after* the step, as
        observations need: the step finishes with `mj_step1` at the new state, and
        the next step starts with the `mj_step2` half that state is ready for, so
        the extra work is nil. This is how the published Control Suite steps; a
        bare `mj_step` would leave those quantities one substep behind. With the
        RK4 integrator, which cannot be split, it is `mj_step` then `mj_step1`.
        With `legacy_step` False (dm_control's flag, set on the instance) it is a
        bare `mj_step`, as dm_control then steps.

        MuJoCo's per-stage timers (`data.timer`) read no clock during the step
        (`paused_profiling_clock`), which saves up to a third of a small model's
        step; set `time_stages = True` on the Physics (or its class) to keep them.

        Raises:
            PhysicsError: if MuJoCo flagged a divergence (bad qacc, qpos or qvel) or
                raised any other warning during the step. The message carries
                MuJoCo's warning text and the time.
        """
        clock = _ENGINE_TIMER
        if clock is None or self.time_stages:
            self._advance(nstep)
            return
        saved = clock.value
        clock.value = None
        try:
            self._advance(nstep)
        finally:
            clock.value = saved

    def _advance(self, nstep: int) -> None:
        model, data = self._model, self._data
        start_time = data.time
        if not self.legacy_step:
            # dm_control's `legacy_step=False`: plain mj_step, which leaves the
            # derived quantities as they were at the last substep's start.
            mujoco.mj_step(model, data, nstep)
        elif self._options.integrator == _RK4:
            mujoco.mj_step(model, data, nstep)
            mujoco.mj_step1(model, data)
        else:
            mujoco.mj_step2(model, data)
            if nstep > 1:
                mujoco.mj_step(model, data, nstep - 1)
            mujoco.mj_step1(model, data)
        if self._warning_numbers.tobytes() != self._checked_warnings:
            self.check_divergence(start_time)

    def forward(self, check_warnings: bool = True) -> None:
        """Computes everything derived from the state (`mj_forward`) without stepping.

        Args:
            check_warnings: False for a state that is only probed (a pose tried while
                searching for a free one, where bodies may overlap deeply): MuJoCo's
                warnings of that pass (a contact buffer overflowing, say) are then
                counted as seen instead of raised.

        Raises:
            PhysicsError: MuJoCo warned (see `check_divergence`) and `check_warnings`.
        """
        if not check_warnings:
            self._forward_unchecked(actuation=True)
            return
        mujoco.mj_forward(self._model, self._data)
        self._dirty = False
        self.check_divergence(self._data.time)

    def _forward_unchecked(self, actuation: bool = False) -> None:
        """`mj_forward` of a state nobody chose (the model's defaults, where entities
        may overlap until an episode places them), whose warnings (a contact buffer
        overflowing, say) are not the simulation's: they are counted as seen.

        Without `actuation` the pass runs with actuation disabled, as dm_control's
        first forward of a new model (`after_reset`) does."""
        if actuation:
            mujoco.mj_forward(self._model, self._data)
        else:
            with self._model.disable("actuation"):
                mujoco.mj_forward(self._model, self._data)
        self._dirty = False
        self._checked_warnings = self._warning_numbers.tobytes()

    @contextlib.contextmanager
    def check_invalid_state(self) -> Iterator[None]:
        """Raises `PhysicsError` on exit if a MuJoCo warning counter rose inside
        (logs it instead within `suppress_physics_errors`), as dm_control's does.

        The message is dm_control's ("Physics state is invalid. Warning(s) raised:
        mjWARN_BADCTRL"); the error's cause (`__cause__`, printed above it in a
        traceback) is a `PhysicsError` with MuJoCo's text of each warning."""
        before = self._warning_numbers.copy()
        yield
        risen = self._warning_numbers > before
        self._checked_warnings = self._warning_numbers.tobytes()
        if risen.any():
            names = ", ".join(name for name, up in zip(_WARNING_NAMES, risen) if up)
            error = PhysicsError(_INVALID_PHYSICS_STATE.format(warning_names=names))
            details = warning_error(
                np.where(risen, self._warning_numbers, 0),
                self._data.warning.lastinfo,
                self._data.time,
            )
            if self._warnings_cause_exception:
                raise error from details
            logging.warning("%s (%s)", error, details)

    @contextlib.contextmanager
    def suppress_physics_errors(self) -> Iterator[None]:
        """A context in which MuJoCo's warnings are logged rather than raised as
        `PhysicsError` (by `step`, `forward` and `check_invalid_state`)."""
        previous = self._warnings_cause_exception
        self._warnings_cause_exception = False
        try:
            yield
        finally:
            self._warnings_cause_exception = previous

    def enable_profiling(self) -> None:
        """Keeps MuJoCo's per-stage timers (`data.timer`) running during `step`
        (dm_control's `enable_profiling`; the same as setting `time_stages`)."""
        self.time_stages = True

    def check_divergence(self, start_time: Optional[float] = None) -> None:
        """Raises `PhysicsError` if a MuJoCo warning counter of `data` rose since the
        last check (logs it within `suppress_physics_errors`): `step` and `forward`
        call it; so does a `BatchEnvironment` after copying a copy's batched step into
        its data. (dm_control's base `check_divergence` does nothing; its `step`
        checks the same counters.)

        Args:
            start_time: simulated time (seconds) at the start of the step, for the
                message; the current time if None.
        """
        numbers = self._warning_numbers
        current = numbers.tobytes()
        if current == self._checked_warnings:
            return
        self._checked_warnings = current
        error = warning_error(
            numbers,
            self._data.warning.lastinfo,
            self._data.time if start_time is None else start_time,
        )
        if self._warnings_cause_exception:
            raise error
        logging.warning("%s", error)

    def reset(self, keyframe_id: Optional[int] = None) -> None:
        """Resets the data to the model's defaults (or keyframe `keyframe_id`) and
        runs `mj_forward` with actuation disabled, since no control has been chosen
        yet (as dm_control does).

        Raises:
            ValueError: `keyframe_id` is not the index of one of the model's keyframes.
            PhysicsError: MuJoCo warned during the forward pass.
        """
        if keyframe_id is None:
            mujoco.mj_resetData(self._model, self._data)
        else:
            if isinstance(keyframe_id, bool) or not 0 <= keyframe_id < self._model.nkey:
                raise ValueError(
                    _KEYFRAME_ID_OUT_OF_RANGE.format(
                        max_valid=self._model.nkey - 1, actual=keyframe_id
                    )
                )
            mujoco.mj_resetDataKeyframe(self._model, self._data, keyframe_id)
        self._checked_warnings = self._warning_numbers.tobytes()
        self.after_reset()

    def after_reset(self) -> None:
        """`forward` with actuation disabled: what `reset_context` runs on exit, so
        that derived quantities match the state set inside without actuator forces
        of a control nobody chose (dm_control's `after_reset`)."""
        with self._model.disable("actuation"):
            self.forward()

    @contextlib.contextmanager
    def reset_context(self) -> Iterator["Physics"]:
        """`reset` on entry (a `PhysicsError` it raises is dropped: the state is
        about to be set) and `after_reset` on exit, as dm_control's.

        Inside the context set positions, velocities and model parameters freely; a
        step taken inside starts from the forward pass of the reset state.

        Raises:
            PhysicsError: MuJoCo warned during the forward pass on exit.
        """
        try:
            self.reset()
        except PhysicsError:
            pass
        yield self
        self.after_reset()

    def time(self) -> float:
        """Simulation time in seconds."""
        return self._data.time

    def timestep(self) -> float:
        """Physics timestep in seconds."""
        return self._model.opt.timestep

    def set_control(self, control: ArrayLike) -> None:
        """Writes the actuator controls (`data.ctrl`)."""
        np.copyto(self._ctrl, control)

    # Generalised coordinates, as copies: an observation or a reward term holding one
    # never changes when the simulation steps on. Written with `self.data`, so they
    # read (N, ...) arrays on a batch's physics too.

    def position(self) -> np.ndarray:
        """Generalised positions `qpos` (a copy)."""
        return self.data.qpos.copy()

    def velocity(self) -> np.ndarray:
        """Generalised velocities `qvel` (a copy)."""
        return self.data.qvel.copy()

    def control(self) -> np.ndarray:
        """Actuator controls `ctrl` (a copy)."""
        return self.data.ctrl.copy()

    def activation(self) -> np.ndarray:
        """Actuator activations `act` (a copy)."""
        return self.data.act.copy()

    def state(self) -> np.ndarray:
        """The same as `get_state()`: qpos, qvel, act (and plugin state), a new array."""
        return np.concatenate(self._physics_state_items())

    # Binding.

    def bind(self, elements: Any) -> Binding:
        """Model and data attributes of spec elements in the compiled model.

        Args:
            elements: one spec element (`mujoco.MjsJoint`, `MjsGeom`, `MjsBody`, ...) or a
                sequence of them, of the spec this Physics was compiled from (elements of
                attached child specs included).

        Returns:
            A `Binding`: `physics.bind(joint).qpos`, `physics.bind(body).mass = 2.0`.
            PyMJCF handles (`mjcf.Element`, as entities hand out) bind as their spec
            elements.
        """
        try:
            return self._bindings[elements]
        except (KeyError, TypeError):
            pass
        mjs = getattr(elements, "_mjs", None)
        if mjs is not None:
            return self.bind(mjs)
        if isinstance(elements, (list, tuple)) and any(hasattr(e, "_mjs") for e in elements):
            return self.bind([getattr(element, "_mjs", element) for element in elements])
        stacked = isinstance(elements, (list, tuple))
        if stacked:
            elements = list(elements)
            key = tuple(elements)
            if key in self._bindings:
                return self._bindings[key]
        else:
            key = elements
        model_binding = self._model.bind(elements)
        try:
            data_binding = self._data.bind(elements)
        except TypeError:  # elements without data (materials, textures, ...)
            data_binding = None
        first = elements[0] if stacked and elements else elements
        prefix = _FRAME_PREFIXES.get(type(first), "")
        # A proxy: the Physics owns its bindings, which must not keep it alive (its
        # renderers close when the last reference to it goes).
        binding = Binding(model_binding, data_binding, stacked, weakref.proxy(self), prefix)
        self._bindings[key] = binding
        return binding

    def element_ids(self, elements: Any) -> np.ndarray:
        """The ids in the compiled model of a sequence of spec elements of one kind,
        in their order, as a read-only int64 array.

        Resolved on the first call and cached until the model is replaced (a
        recompile): per-step quantities index `model`/`data` arrays with it, e.g.
        `physics.data.qpos[physics.model.jnt_qposadr[physics.element_ids(joints)]]`.
        A `bind(elements)` attribute gathers through MuJoCo's binding at every read,
        which costs about ten times as much for a handful of elements.
        """
        key = tuple(elements)
        ids = self._element_ids.get(key)
        if ids is None:
            ids = np.array(self.bind(key).id, dtype=np.int64).reshape(-1)
            ids.flags.writeable = False
            self._element_ids[key] = ids
        return ids

    # State.

    def _physics_state_items(self) -> list:
        """The arrays `get_state` concatenates (dm_control's name): qpos, qvel, act,
        and the plugin state where the model has plugins."""
        data = self._data
        if self._model.nplugin > 0:
            return [data.qpos, data.qvel, data.act, data.plugin_state]
        return [data.qpos, data.qvel, data.act]

    def get_state(self, sig: Optional[int] = None) -> np.ndarray:
        """The physics state as dm_control has it: qpos, qvel and act concatenated
        (and the plugin state where the model has plugins), as a new float64 array;
        no time, controls or warm start (`get_full_state` has those).

        Args:
            sig: a `mujoco.mjtState` bit mask: then `mj_getState`'s state of those parts.
        """
        if sig is None:
            return np.concatenate(self._physics_state_items())
        state = np.empty(mujoco.mj_stateSize(self._model, sig))
        mujoco.mj_getState(self._model, self._data, state, sig)
        return state

    def set_state(self, physics_state: ArrayLike, sig: Optional[int] = None) -> None:
        """Writes a state of `get_state(sig)` back. As in dm_control, nothing is
        recomputed: call `forward()` for the derived quantities.

        Raises:
            ValueError: the state has the wrong size for this model.
            TypeError: with `sig`, the state has the wrong size for it (MuJoCo's
                `mj_setState` error, which dm_control passes on).
        """
        state = np.asarray(physics_state, dtype=np.float64)
        if sig is not None:
            expected = mujoco.mj_stateSize(self._model, sig)
            if state.shape != (expected,):
                raise TypeError(
                    f"state must have shape ({expected},) for this model and sig {sig}, "
                    f"got {state.shape}"
                )
            mujoco.mj_setState(self._model, self._data, state, sig)
            return
        items = self._physics_state_items()
        expected = sum(item.size for item in items)
        if state.shape != (expected,):
            raise ValueError(
                f"state must have shape ({expected},) for this model (qpos, qvel, act"
                f"{', plugin_state' if len(items) > 3 else ''}), got {state.shape}"
            )
        start = 0
        for item in items:
            item[...] = state[start : start + item.size]
            start += item.size

    def get_full_state(self) -> np.ndarray:
        """Everything the next step depends on (`mjSTATE_INTEGRATION`: time, qpos,
        qvel, act, controls, applied forces, mocap poses, user data, plugin state and
        the solver's warm start), as a new float64 array: what snapshots save."""
        state = np.empty(mujoco.mj_stateSize(self._model, _STATE))
        mujoco.mj_getState(self._model, self._data, state, _STATE)
        return state

    def set_full_state(self, state: ArrayLike) -> None:
        """Restores a state from `get_full_state()` and recomputes derived quantities;
        the next step is bit-identical to the one the saved simulation took.

        Raises:
            ValueError: the state has the wrong size for this model (or is of the
                `mjSTATE_FULLPHYSICS` layout that versions before warm starts saved).
        """
        state = np.asarray(state, dtype=np.float64)
        expected = mujoco.mj_stateSize(self._model, _STATE)
        if state.shape != (expected,):
            raise ValueError(
                f"state must have shape ({expected},) for this model (mjSTATE_INTEGRATION), "
                f"got {state.shape}"
            )
        mujoco.mj_setState(self._model, self._data, state, _STATE)
        self.forward()

    def over_arrays(self, model: Any, data: Any) -> "Physics":
        """A Physics of this class whose `model` and `data` are other objects with
        MjModel's and MjData's field names, e.g. a batch's (N, ...) arrays
        (`composer_tasks.batch.batch_physics`), keeping what this one resolved (the
        element ids a subclass caches in `_model_changed`). Its named quantities read
        those objects; it is for reading, not for stepping, binding or rendering.
        """
        view = object.__new__(type(self))
        view.__dict__.update(self.__dict__)
        view._model = model
        view._data = data
        view._bindings = {}
        view._element_ids = {}
        view._named = None
        # Renderer caches belong to this Physics' own model: the view gets none.
        view.__dict__.pop("_renderers", None)
        return view

    def copy(self, share_model: bool = False) -> "Physics":
        """A Physics with a copy of the data and (unless `share_model`) of the model,
        forwarded with actuation disabled as dm_control's copy is (`after_reset`).

        A PhysicsError of that pass is logged, not raised."""
        model = self._model if share_model else _copy.copy(self._model)
        data = _copy.copy(self._data) if share_model else mujoco.MjData(model)
        if not share_model:
            mujoco.mj_copyData(data, model, self._data)
        clone = type(self)(model, data, spec=self._spec)
        clone._after_reset_logged()
        return clone

    def __getstate__(self) -> Dict[str, Any]:
        # As dm_control's: the state lives in the data (which carries its model);
        # the spec (not picklable) and the renderers are not kept.
        return {"data": self._data}

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self.__init__(state["data"])

    def free(self) -> None:
        """Releases the renderers; the model and data are freed with the last
        reference to them (dm_control's `free` frees the native structs at once)."""
        self.close_renderers()

    # Rendering (composer_tasks.rendering).

    def render(
        self,
        height: int = 240,
        width: int = 320,
        camera_id: int | str = -1,
        overlays: Any = (),
        depth: bool = False,
        segmentation: bool = False,
        scene_option: mujoco.MjvOption | None = None,
        render_flag_overrides: Optional[Dict[Union[str, int], bool]] = None,
        scene_callback: Optional[Callable[["Physics", mujoco.MjvScene], None]] = None,
        *,
        shadows: bool = True,
        reflections: bool = True,
        antialias: bool = True,
        level_of_detail: str = "auto",
    ) -> np.ndarray:
        """Renders a camera view with a cached `mujoco.Renderer`.

        Args:
            height, width: image size in pixels (positive integers).
            camera_id: camera index or name; -1 is the free camera.
            overlays: `TextOverlay`s drawn over an RGB image (dm_control's).
            depth: return a (height, width) float32 depth image: distances along
                the camera axis in metres, of the scene as an RGB image draws it (the
                skybox included), as dm_control gives them (`rendering.dm_control_depth`).
            segmentation: return (height, width, 2) int32 (object id, object type).
            scene_option: an optional `mujoco.MjvOption`.
            shadows, reflections, antialias: draw shadows, reflective surfaces, and
                smooth edges (the model's `visual.quality.offsamples` multisampling).
                All three off make CPU rendering (Mesa llvmpipe) several times
                faster; agent cameras usually turn them off.
            level_of_detail: how finely spheres, capsules, ellipsoids and cylinders
                are tessellated. "auto" uses the fewest slices and stacks (at most the
                model's `visual.quality.numslices` / `numstacks`) for which the outline
                of such a shape as wide as the image strays less than half a pixel from
                the true outline: 18 slices and 10 stacks at 64x64, the model's own
                (28 and 16 by default) from about 160 pixels up. "full" always uses the
                model's. Only the smoothness of silhouettes and the shading across round
                shapes differ; the model is not changed (docs/rendering.md).
            render_flag_overrides: rendering flags to set for this image, keyed by
                lowercase name ("wireframe") or `mujoco.mjtRndFlag` (RGB only), as
                dm_control's.
            scene_callback: called with (physics, scene) after the scene is updated
                and before it is drawn, e.g. to add geoms, as dm_control's.

        Returns:
            (height, width, 3) uint8 RGB unless depth or segmentation is asked.

        One renderer is kept per image size, antialiasing and tessellation, at most
        `rendering.MAX_CACHED_RENDERERS` of them (least recently used closed first).
        """
        return rendering.render(
            self,
            height=height,
            width=width,
            camera_id=camera_id,
            overlays=overlays,
            depth=depth,
            segmentation=segmentation,
            scene_option=scene_option,
            shadows=shadows,
            reflections=reflections,
            antialias=antialias,
            level_of_detail=level_of_detail,
            render_flag_overrides=render_flag_overrides,
            scene_callback=scene_callback,
        )

    def upload_hfield(self, hfield_id: int) -> None:
        """Re-uploads heightfield `hfield_id` to the renderers after its
        `model.hfield_data` was written at run time (renderers copy it to the GPU
        once, when they are created)."""
        rendering.upload_hfield(self._renderers, self._model, hfield_id)

    def close_renderers(self) -> None:
        """Closes the cached renderers (their GL contexts)."""
        rendering.close_renderers(self._renderers)

    def close(self) -> None:
        """Releases the renderers (the model and data are freed with this object)."""
        self.close_renderers()


# dm_control.mujoco's submodules, as this project names them.
_SUBMODULES = {
    "engine": __name__,
    "index": "composer_tasks.mjcf.indexing",
    "wrapper": "composer_tasks.mujoco.wrapper",
}


def __getattr__(name: str) -> Any:
    """MuJoCo's own names (`mj_step`, `mj_contactForce`, `mjtObj`, `MjvOption`, ...):
    dm_control's `mujoco` module re-exports MuJoCo's bindings (`from mujoco import *`),
    so code written for it calls `mujoco.mj_contactForce(physics.model.ptr, ...)`
    through the module this one stands for (`from dm_control import mujoco`). Its
    submodules `engine` (this module), `index` and `wrapper` are there too."""
    if name in _SUBMODULES:
        import importlib
        import sys

        return (
            sys.modules[__name__]
            if name == "engine"
            else importlib.import_module(_SUBMODULES[name])
        )
    if not name.startswith("_"):
        try:
            return getattr(mujoco, name)
        except AttributeError:
            pass
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
