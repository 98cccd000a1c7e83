"""Copies of a batch's copy 0 made without building or compiling: clones sharing its spec.

Building a copy by its factory builds a task and its `MjSpec`, compiles the spec and
constructs a `composer.Environment`: milliseconds and a spec's memory per copy. A
clone is instead copy 0's task as built, copied (`StateCopier`) with every `MjSpec`
and spec element shared, in an `Environment` of copy 0's settings
(`Environment.clone_construction`) over a Physics of copy 0's compiled model; what
construction draws from the random state (`after_compile` callbacks, the observation
updater's reset) runs again on the clone's own seeded stream. So a clone holds its
own random streams, Python attributes, observation buffers and Physics, and shares
the spec, its elements and the compiled model's values.

Cloning is safe by construction, not by hope:

  * The copier copies only what it knows how to copy (containers, numpy arrays that
    own their memory, random streams, plain Python objects, functions and their
    closures, bound methods, partials) and shares only what is immutable or the
    spec's; anything else (a lock, a mapping view, a weak reference, a numpy view
    into MuJoCo's memory, a compiled model or MjData other than copy 0's Physics',
    a generator) refuses the clone, naming the attribute's path.
  * Copy 0 may not have `initialize_episode_mjcf` callbacks: they edit the spec per
    episode, and clones share it.
  * `Cloner.verify` builds copy 1 by its factory too and compares it with the clone
    of copy 0 for copy 1's seed: the spec's XML, the compiled model's bytes, the
    simulation state, and the whole attribute structure of the two Environments (types,
    values, array bytes, random-stream states, which objects are shared). A factory
    whose copies differ in more than their seed's stream after construction (lqr's
    stiffnesses, drawn from the copy's stream before its Environment exists) fails
    it, and the batch builds every copy by its factory (`BatchEnvironment` logs the
    task and the reason once).
"""

import collections
import enum
import functools
import types
from typing import Any, Iterator, Optional, cast

import dm_env
import mujoco
import numpy as np
from dm_env import specs

from composer_tasks import batch_fields
from composer_tasks.composer import compiled_model
from composer_tasks.composer import environment as environment_module
from composer_tasks.composer.observation import observable as observable_module
from composer_tasks.mjcf import assets, defaults, element_api, namescope
from composer_tasks.physics import Physics

# Values copied by sharing them: immutable, or (types, modules, builtins) never
# per copy.
_ATOMS = (
    type(None),
    bool,
    int,
    float,
    complex,
    str,
    bytes,
    range,
    slice,
    type,
    enum.Enum,
    np.generic,
    np.dtype,
    np.ufunc,
    types.ModuleType,
    specs.Array,
    dm_env.StepType,
    type(Ellipsis),
    type(NotImplemented),
    # Immutable once taken; clones share copy 0's (`Environment._finish_compile`).
    compiled_model.CompiledModel,
)
# MuJoCo's spec objects (the `MjSpec` and its elements) and enums, which clones share.
_SHARED_MODULES = ("mujoco._specs", "mujoco._enums")
_INTEGRATION_STATE = mujoco.mjtState.mjSTATE_INTEGRATION


class _UnusedSeedSequence(np.random.bit_generator.ISeedSequence):
    """The seed sequence of a bit generator that is legacy-seeded right after it is
    made (`seeded_stream`): its first state is overwritten, so it is not worth
    NumPy's hashing of a fresh `SeedSequence` (a third of making a clone)."""

    def generate_state(self, n_words: int, dtype: Any = np.uint32) -> np.ndarray:
        return np.zeros(n_words, dtype=dtype)


_UNUSED_SEED_SEQUENCE = _UnusedSeedSequence()


def seeded_stream(seed: int) -> np.random.RandomState:
    """`np.random.RandomState(seed)`, the same state bit for bit (an MT19937 seeded
    by `seed` with NumPy's legacy seeding, no Gaussian cached), made faster."""
    # NumPy takes any ISeedSequence here; its type stubs name only SeedSequence.
    stream = np.random.RandomState(np.random.MT19937(cast(Any, _UNUSED_SEED_SEQUENCE)))
    stream.seed(seed)
    return stream


class CloneRefused(Exception):
    """Copy 0 cannot be cloned safely; the message says which attribute and why."""


# `composer_tasks.mjcf`'s handles of a model (its root, elements, sections, name
# scopes, default classes, settings structs, assets): the PyMJCF view of the spec,
# one per spec (`mjcf.root_of`), shared with the spec they describe.
_SHARED_MJCF_CLASSES = (
    element_api.ElementMethods,
    element_api.SectionMethods,
    element_api.RootElementMethods,
    namescope.NameScope,
    defaults.DefaultClass,
    defaults.DefaultTag,
    defaults.Struct,
    defaults.VisualStruct,
    assets.Asset,
)


@functools.lru_cache(maxsize=None)
def _shared_kind(kind: type) -> bool:
    return kind.__module__.startswith(_SHARED_MODULES) or issubclass(kind, _SHARED_MJCF_CLASSES)


def _shared_mujoco(value: Any) -> bool:
    """Whether `value` belongs to the spec (a MuJoCo spec object or enum, or a PyMJCF
    handle of one), which clones share."""
    return _shared_kind(type(value))


# The commonest atoms, tested by exact type first.
_ATOM_TYPES = frozenset({type(None), bool, int, float, str, bytes})


@functools.lru_cache(maxsize=None)
def _atom_kind(kind: type) -> Optional[bool]:
    """Whether values of type `kind` are atoms; None where it depends on the value
    (tuples and frozensets by their items, builtin functions by what they are bound to)."""
    if kind in (tuple, frozenset) or issubclass(kind, types.BuiltinFunctionType):
        return None
    return issubclass(kind, _ATOMS) or _shared_kind(kind)


def _is_atom(value: Any) -> bool:
    kind = type(value)
    if kind in _ATOM_TYPES:
        return True
    verdict = _atom_kind(kind)
    if verdict is not None:
        return verdict
    if kind is tuple or kind is frozenset:
        return all(_is_atom(item) for item in value)
    owner = getattr(value, "__self__", None)
    return owner is None or isinstance(owner, types.ModuleType)


class StateCopier:
    """Deep copies of copy 0's Python state for one clone.

    Args:
      memo: objects already standing for their copy 0 counterparts, by `id` of the
        counterpart (copy 0's random state -> the clone's, copy 0's Physics -> the
        clone's); every copy made is added, so an object reached twice is copied once
        and the copies keep copy 0's sharing.
      originals: objects that keep the memo's ids valid (kept alive with it).

    Raises (from `copy`):
      CloneRefused: a value the copier cannot copy safely, with its path.
    """

    def __init__(self, memo: dict[int, Any], originals: list[Any]) -> None:
        self._memo = memo
        self._originals = originals

    def copy(self, value: Any, path: Any) -> Any:
        """A copy of `value`; `path` names it in a refusal (a str, or a (parent path,
        suffix) pair, formatted only when refused)."""
        if type(value) in _ATOM_TYPES:
            return value
        key = id(value)
        if key in self._memo:
            return self._memo[key]
        if _is_atom(value):
            return value
        copied = self._copy_new(value, path)
        self._memo[key] = copied
        self._originals.append(value)
        return copied

    def _remember(self, original: Any, copied: Any) -> None:
        self._memo[id(original)] = copied
        self._originals.append(original)

    def _copy_new(self, value: Any, path: Any) -> Any:
        kind = type(value)
        copy = self.copy
        if kind is list:
            result: list = []
            self._remember(value, result)
            result.extend(copy(item, (path, f"[{index}]")) for index, item in enumerate(value))
            return result
        if kind is tuple:
            return tuple(copy(item, (path, f"[{index}]")) for index, item in enumerate(value))
        if kind is dict or kind is collections.OrderedDict:
            result_dict = kind()
            self._remember(value, result_dict)
            for item_key, item in value.items():
                result_dict[copy(item_key, (path, " key"))] = copy(item, (path, item_key))
            return result_dict
        if kind is np.ndarray:
            base = value.base
            if base is None:
                return value.copy()
            if type(base) is np.ndarray and base.base is None:
                # A view of an array that owns its memory: the same view of its copy.
                copied_base = copy(base, (path, ".base"))
                view = np.ndarray(
                    value.shape,
                    value.dtype,
                    buffer=copied_base,
                    offset=value.ctypes.data - base.ctypes.data,
                    strides=value.strides,
                )
                view.flags.writeable = value.flags.writeable
                return view
            raise CloneRefused(
                f"{_path_text(path)} is a numpy view into memory that is not a numpy "
                f"array's (a {type(base).__name__}: MuJoCo's, say), which a copy would "
                "not follow"
            )
        if kind is types.FunctionType:
            return self._copy_function(value, path)
        if kind is types.MethodType:
            return types.MethodType(
                copy(value.__func__, (path, ".__func__")),
                copy(value.__self__, (path, ".__self__")),
            )
        if kind is functools.partial:
            return functools.partial(
                copy(value.func, (path, ".func")),
                *copy(value.args, (path, ".args")),
                **copy(value.keywords, (path, ".keywords")),
            )
        if isinstance(value, tuple) and hasattr(kind, "_fields"):
            return kind._make(
                copy(item, (path, f".{field}")) for field, item in zip(kind._fields, value)
            )
        if kind is set or kind is frozenset:
            return kind(copy(item, (path, " item")) for item in value)
        if isinstance(value, np.random.RandomState):
            stream = np.random.RandomState()
            stream.set_state(value.get_state())
            return stream
        if isinstance(value, np.random.Generator):
            generator_copy = np.random.Generator(type(value.bit_generator)())
            generator_copy.bit_generator.state = value.bit_generator.state
            return generator_copy
        if kind is mujoco.MjvOption:
            return mujoco.MjvOption.__copy__(value)
        if isinstance(value, types.CellType):
            cell = types.CellType()
            self._remember(value, cell)
            try:
                contents = value.cell_contents
            except ValueError:  # an empty cell
                return cell
            cell.cell_contents = copy(contents, (path, ".cell_contents"))
            return cell
        return self._copy_instance(value, path)

    def _copy_function(self, function: types.FunctionType, path: Any) -> Any:
        closure = function.__closure__
        defaults = function.__defaults__
        keyword_defaults = function.__kwdefaults__
        if (
            (closure is None or all(_cell_is_atom(cell) for cell in closure))
            and (defaults is None or _is_atom(defaults))
            and (keyword_defaults is None or all(map(_is_atom, keyword_defaults.values())))
            and not function.__dict__
        ):
            return function
        # A closure over per-copy state: the same code over copies of its cells.
        copied = types.FunctionType(
            function.__code__,
            function.__globals__,
            function.__name__,
            self.copy(defaults, (path, ".__defaults__")),
            None
            if closure is None
            else tuple(
                self.copy(cell, (path, f" closure {name!r}"))
                for name, cell in zip(function.__code__.co_freevars, closure)
            ),
        )
        copied.__kwdefaults__ = self.copy(keyword_defaults, (path, ".__kwdefaults__"))
        copied.__dict__.update(self.copy(function.__dict__, (path, ".__dict__")))
        copied.__qualname__ = function.__qualname__
        copied.__module__ = function.__module__
        return copied

    def _copy_instance(self, value: Any, path: Any) -> Any:
        """A plain Python object: a new instance of its class (its `__new__` and
        `__init__` not run) with copies of its attributes."""
        kind = type(value)
        refusal = _instance_refusal(kind)
        if refusal is not None:
            raise CloneRefused(f"{_path_text(path)} is a {refusal}")
        copied = object.__new__(kind)
        self._remember(value, copied)
        attributes = getattr(value, "__dict__", None)
        if attributes is not None:
            dropped = _dropped_caches(kind)
            object.__setattr__(
                copied,
                "__dict__",
                {
                    attribute: self.copy(item, (path, f".{attribute}"))
                    for attribute, item in attributes.items()
                    if attribute not in dropped
                },
            )
        for slot in _slots(kind):
            if hasattr(value, slot):
                object.__setattr__(
                    copied, slot, self.copy(getattr(value, slot), (path, f".{slot}"))
                )
        return copied


def _path_text(path: Any) -> str:
    """A `StateCopier` path as text: "task._root._observables"."""
    parts = []
    while isinstance(path, tuple):
        path, suffix = path
        attribute_like = isinstance(suffix, str) and suffix[:1] in (".", "[", " ")
        parts.append(suffix if attribute_like else f"[{suffix!r}]")
    parts.append(path)
    return "".join(reversed(parts))


# Caches a clone leaves out, by the class that keeps them: each is keyed by the
# identity of the model and data it was made for, which a clone's are not, so the
# clone's first use (its own construction's observation reset) makes its own.
_CACHES = ((observable_module.MJCFFeature, frozenset({"_cached_reader"})),)


@functools.lru_cache(maxsize=None)
def _dropped_caches(kind: type) -> frozenset[str]:
    dropped: frozenset[str] = frozenset()
    for owner, names in _CACHES:
        if issubclass(kind, owner):
            dropped |= names
    return dropped


@functools.lru_cache(maxsize=None)
def _instance_refusal(kind: type) -> Optional[str]:
    """Why instances of `kind` cannot be copied as plain Python objects, or None."""
    name = f"{kind.__module__}.{kind.__qualname__}"
    if issubclass(kind, (Physics, environment_module.Environment, mujoco.MjModel, mujoco.MjData)):
        return f"{name} other than copy 0's own (a clone would share it)"
    if (
        kind.__module__ in ("builtins", "_thread", "threading", "weakref", "_weakrefset")
        or kind.__module__.startswith(("mujoco", "numpy"))
        or ("__dict__" not in dir(kind) and not _slots(kind))
    ):
        return f"{name}, which a clone cannot copy safely"
    if getattr(kind, "__deepcopy__", None) is not None or (
        kind.__reduce_ex__ is not object.__reduce_ex__ or kind.__reduce__ is not object.__reduce__
    ):
        return f"{name}, which defines its own copying (__deepcopy__ or __reduce__)"
    try:
        object.__new__(kind)
    except TypeError as error:
        return f"{name}, not a plain Python object ({error})"
    return None


def _cell_is_atom(cell: types.CellType) -> bool:
    try:
        return _is_atom(cell.cell_contents)
    except ValueError:  # an empty cell
        return True


@functools.lru_cache(maxsize=None)
def _slots(kind: type) -> tuple[str, ...]:
    names: list[str] = []
    for klass in kind.__mro__:
        slots = klass.__dict__.get("__slots__", ())
        if isinstance(slots, str):
            slots = (slots,)
        names.extend(slot for slot in slots if slot not in ("__dict__", "__weakref__"))
    return tuple(names)


class Cloner:
    """Makes copies of `first` (a batch's copy 0, as built) for other seeds.

    Args:
      first: copy 0's `composer.Environment`, never reset.
      model: copy 0's compiled model as built (the batch's shared model); clones'
        Physics start from copies of it.

    Raises:
      CloneRefused: copy 0 cannot be cloned (the message says why).
    """

    def __init__(self, first: environment_module.Environment, model: mujoco.MjModel) -> None:
        physics = first.physics
        spec = first.task.root_entity.spec
        if physics.spec is not spec:
            raise CloneRefused("its Physics was not compiled from its task's root spec")
        mjcf_hooks = first.hooks["initialize_episode_mjcf"]
        if mjcf_hooks:
            names = ", ".join(getattr(hook, "__qualname__", repr(hook)) for hook in mjcf_hooks)
            raise CloneRefused(
                f"its initialize_episode_mjcf callbacks ({names}) edit the spec per episode, "
                "which clones would share"
            )
        self._first = first
        self._physics_class = type(physics)
        self._spec = spec
        self._model = model
        self._first_physics = physics
        # Copy 0's own model and data as built (its Physics may hold others by the time
        # it is cloned): what copy 0 keeps of them, in caches keyed by the model say,
        # a clone keeps of its own.
        self._first_model = physics.model
        self._first_data = physics.data
        self._reference = batch_fields.ModelReference(model)
        # The model and data a clone's Physics holds while it is constructed, restored
        # to copy 0's model and a new MjData before each clone: allocating them per
        # clone (a cart-pole MjData's arena is 13 MB) would cost more than the rest
        # of a clone. `release` gives a clone that keeps its Physics copies of them.
        self._work_model = mujoco.MjModel.__copy__(model)
        self._work_data = mujoco.MjData(model)
        # What `Physics.from_spec` makes of copy 0's model: new data, forwarded with
        # actuation off (a deterministic pass, so copying its result equals running it).
        self._new_data = mujoco.MjData(model)
        self._physics_class(self._work_model, self._new_data, spec=spec)._forward_unchecked()
        # The work model's fields that differ from copy 0's model (None: not known).
        self._work_model_differences: Optional[tuple[str, ...]] = ()

    def clone(self, seed: int) -> environment_module.Environment:
        """Copy 0 as a new Environment seeded with `seed` would have built it.

        Its Physics holds this Cloner's work model and data until `release` (or the
        caller installing others): the next clone reuses them."""
        first = self._first
        random_state = seeded_stream(seed)
        model = self._work_model
        differences = self._work_model_differences
        if differences is None:
            differences = self._reference.differences(model)
        for name in differences:
            batch_fields.set_model_field(model, name, batch_fields.model_field(self._model, name))
        self._work_model_differences = None
        mujoco.mj_copyData(self._work_data, model, self._new_data)
        # As `Physics.from_spec` makes it, but for the compiling.
        physics = self._physics_class(model, self._work_data, spec=self._spec)
        memo: dict[int, Any] = {
            id(first.random_state): random_state,
            id(self._first_physics): physics,
            id(self._first_model): model,
            id(self._first_data): self._work_data,
        }
        copier = StateCopier(memo, [])
        task = copier.copy(first.task, "task")
        return first.clone_construction(
            task,
            random_state,
            physics,
            lambda name, value: copier.copy(value, ("environment", f".{name}")),
        )

    def release(
        self, env: environment_module.Environment, differences: Optional[tuple[str, ...]]
    ) -> None:
        """Gives the last clone, `env`, its own copies of the work model and data if
        its Physics still holds them (before the next `clone` reuses them).

        `differences`: the fields in which the work model, as the clone's
        construction left it, differs from copy 0's model
        (`batch_fields.ModelReference.differences`), or None to find them here."""
        self._work_model_differences = (
            self._reference.differences(self._work_model) if differences is None else differences
        )
        physics = env.physics
        if physics.model is not self._work_model:
            return
        model = mujoco.MjModel.__copy__(self._work_model)
        data = mujoco.MjData(model)
        mujoco.mj_copyData(data, model, self._work_data)
        physics._install(model, data)

    def verify(self, built: environment_module.Environment, seed: int) -> Optional[str]:
        """Why cloning is not safe for this factory, or None: compares `built` (a copy
        built by the factory with `seed`, never reset) with the clone for `seed`."""
        try:
            clone = self.clone(seed)
        except CloneRefused as error:
            return str(error)
        except Exception as error:  # noqa: BLE001  (any failure of a clone means: build them)
            return f"cloning copy 0 raised {type(error).__name__}: {error}"
        if type(built) is not type(clone):
            return f"its copies are {type(built).__name__}, copy 0 a {type(clone).__name__}"
        built_spec = built.task.root_entity.spec
        if built_spec is self._spec:
            return "its factory returns copies that share one spec"
        try:
            same_spec = built_spec.to_xml() == self._spec.to_xml()
        except ValueError as error:
            return f"its spec cannot be written as XML to compare copies ({error})"
        if not same_spec:
            return "copy 1's spec differs from copy 0's (its factory builds copies that differ)"
        differences = batch_fields.ModelReference(built.physics.model).differences(
            clone.physics.model
        )
        if differences:
            return (
                f"copy 1's compiled model differs from copy 0's clone in {', '.join(differences)}"
            )
        if _integration_state(built.physics) != _integration_state(clone.physics):
            return "copy 1's simulation state differs from copy 0's clone's"
        built_tokens = list(_fingerprint(built))
        clone_tokens = list(_fingerprint(clone))
        for (path, token), (_, clone_token) in zip(built_tokens, clone_tokens):
            if token != clone_token:
                return (
                    f"copy 1 differs from copy 0's clone for its seed at {path} "
                    f"({_describe(token)} against {_describe(clone_token)})"
                )
        if len(built_tokens) != len(clone_tokens):
            return "copy 1 holds more or fewer objects than copy 0's clone for its seed"
        return None


def _integration_state(physics: Physics) -> bytes:
    """The state the simulation integrates (positions, velocities, controls, applied
    forces, mocap, ...) as bytes. Everything else in MjData derives from it and the
    model, and resets (`mj_resetData`) restart it; the constraint rows of the
    last forward pass may hold bytes MuJoCo never wrote, so they are not compared."""
    size = mujoco.mj_stateSize(physics.model, _INTEGRATION_STATE)
    state = np.empty(size)
    mujoco.mj_getState(physics.model, physics.data, state, _INTEGRATION_STATE)
    return state.tobytes()


def _describe(token: Any) -> str:
    text = repr(token)
    return text if len(text) <= 80 else text[:77] + "..."


def _fingerprint(env: environment_module.Environment) -> Iterator[tuple[str, Any]]:
    """(path, token) of everything an Environment holds, depth first, such that two
    Environments with equal token sequences hold equal values in equal structures
    (spec elements by kind and name, physics by kind: their models are compared
    apart)."""
    seen: dict[int, int] = {}
    keep: list[Any] = []
    stack: list[tuple[str, Any]] = [("environment", env)]
    while stack:
        path, value = stack.pop()
        if _is_atom(value) and not _shared_mujoco(value):
            yield path, (type(value).__qualname__, _atom_token(value))
            continue
        key = id(value)
        if key in seen:
            yield path, ("shared", seen[key])
            continue
        seen[key] = len(seen)
        keep.append(value)
        kind = type(value)
        token: tuple = (f"{kind.__module__}.{kind.__qualname__}",)
        children: list[tuple[str, Any]] = []
        if _shared_mujoco(value):
            token += (_element_name(value),)
        elif isinstance(value, (Physics, mujoco.MjModel, mujoco.MjData)):
            pass
        elif isinstance(value, np.ndarray):
            token += (value.dtype.str, value.shape, value.tobytes())
        elif isinstance(value, np.random.RandomState):
            state = cast(tuple, value.get_state())
            token += (state[1].tobytes(), *state[2:])
        elif isinstance(value, np.random.Generator):
            token += (repr(value.bit_generator.state),)
        elif isinstance(value, (list, tuple)):
            token += (len(value),)
            children = [(f"{path}[{index}]", item) for index, item in enumerate(value)]
        elif isinstance(value, dict) or isinstance(value, types.MappingProxyType):
            token += (len(value),)
            for item_key, item in value.items():
                children += [(f"{path} key", item_key), (f"{path}[{item_key!r}]", item)]
        elif isinstance(value, (set, frozenset)):
            token += (sorted(map(repr, value)),)
        elif isinstance(value, types.MethodType):
            children = [(f"{path}.__func__", value.__func__), (f"{path}.__self__", value.__self__)]
        elif isinstance(value, types.FunctionType):
            token += (value.__module__, value.__qualname__)
            cells = value.__closure__ or ()
            children = [
                (f"{path} closure {name!r}", _cell_value(cell))
                for name, cell in zip(value.__code__.co_freevars, cells)
            ]
            children.append((f"{path}.__defaults__", value.__defaults__))
        elif isinstance(value, functools.partial):
            children = [
                (f"{path}.func", value.func),
                (f"{path}.args", value.args),
                (f"{path}.keywords", value.keywords),
            ]
        else:
            attributes = getattr(value, "__dict__", None)
            if isinstance(attributes, dict):
                # By name (a clone sets its attributes in another order), the task first
                # so that a difference is named by its path from the task.
                children = [
                    (f"{path}.{name}", item)
                    for name, item in sorted(
                        attributes.items(), key=lambda entry: (entry[0] != "_task", entry[0])
                    )
                ]
            children += [
                (f"{path}.{slot}", getattr(value, slot))
                for slot in _slots(kind)
                if hasattr(value, slot)
            ]
        yield path, token
        stack.extend(reversed(children))


def _element_name(value: Any) -> Any:
    """A spec object's name, where it has one (a removed element's handle raises)."""
    try:
        name = getattr(value, "name", None)
    except ValueError:
        return "<removed>"
    return name if isinstance(name, str) else None


def _cell_value(cell: types.CellType) -> Any:
    try:
        return cell.cell_contents
    except ValueError:
        return None


def _atom_token(value: Any) -> Any:
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, np.generic):
        return (value.dtype.str, value.tobytes())
    if isinstance(value, tuple):
        return tuple(_atom_token(item) for item in value)
    if isinstance(value, frozenset):
        return sorted(map(repr, map(_atom_token, value)))
    if _shared_mujoco(value):
        return (type(value).__qualname__, _element_name(value))
    if isinstance(value, (types.BuiltinFunctionType, types.ModuleType, type, np.ufunc)):
        return getattr(value, "__qualname__", getattr(value, "__name__", repr(value)))
    return repr(value)
