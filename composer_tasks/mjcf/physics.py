"""`mjcf.Physics`: a `Physics` that binds PyMJCF handles and indexes arrays by name.

    physics = mjcf.Physics.from_mjcf_model(model)
    physics.bind(joints).qpos                 # (n,) for n hinges
    physics.bind(body).xpos                   # (3,), a live view
    physics.named.data.qpos["leg0/hip"]       # by full name

Shapes follow PyMJCF (see `indexing`). One element's attributes are live views
(writing into them changes the simulation); a list's are read-only copies, written
by assignment (`physics.bind(joints).qpos = values`).

A physics remembers the revision of its model when it compiled: after the model
is edited through handles, `bind` and `named` raise until the physics is
recompiled (`physics.recompile()`, which the Environment does itself when the
edits happened in `initialize_episode_mjcf`).
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable
from typing import Any, cast

import numpy as np

from composer_tasks import physics as physics_module
from composer_tasks.mjcf import element as element_module
from composer_tasks.mjcf import indexing
from composer_tasks.mjcf import root as root_module

# dm_control's message for pickling a bound array (mjcf/physics.py), under its name.
_PICKLING_NOT_SUPPORTED = physics_module.PICKLING_NOT_SUPPORTED


class ElementNotInModelError(KeyError, ValueError):
    """`physics.bind` of an element the compiled model does not hold (of another
    model, or added after compiling). A `KeyError` as dm_control's (its named index
    does not find the name) and a `ValueError`."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class Physics(physics_module.Physics):
    """`composer_tasks.physics.Physics` with PyMJCF's `bind` and `named`."""

    @classmethod
    def from_mjcf_model(cls, mjcf_model: root_module.RootElement) -> "Physics":
        """Compiles a `RootElement` (its root model) into a Physics."""
        if not isinstance(mjcf_model, root_module.RootElement):
            raise TypeError(f"expected a mjcf.RootElement, got {type(mjcf_model).__name__}")
        # `from_spec` makes an instance of `cls`; its annotation names the base class.
        return cast("Physics", cls.from_spec(mjcf_model._top_spec()))

    def reload_from_mjcf_model(self, mjcf_model: root_module.RootElement) -> None:
        """Replaces the model and data by a fresh compile of `mjcf_model`, as a new
        Physics `from_mjcf_model` would have them; bindings and renderers are dropped."""
        if not isinstance(mjcf_model, root_module.RootElement):
            raise TypeError(f"expected a mjcf.RootElement, got {type(mjcf_model).__name__}")
        spec = mjcf_model._top_spec()
        physics_module.check_equality_anchors(spec)
        self._reload(spec, physics_module.compile_spec(spec))

    def _model_changed(self) -> None:
        super()._model_changed()
        spec = self.spec
        root = root_module.root_of(spec) if spec is not None else None
        self._mjcf_root = root
        self._compiled_revision = root._revision if root is not None else None
        self._mjcf_bindings = {}

    def _check_current(self) -> None:
        root = self._mjcf_root
        if root is None and self.spec is not None:
            root = root_module.root_of(self.spec)
            if root is not None:
                self._mjcf_root, self._compiled_revision = root, 0
        if root is not None and root._revision != self._compiled_revision:
            raise ValueError(
                f"model {root.model!r} was edited after this physics was compiled; call "
                "physics.recompile() (or build a new Physics) before binding or indexing"
            )

    @property
    def named(self) -> indexing.NamedIndexer:
        """Arrays of `model` and `data` indexed by element names (see
        `composer_tasks.physics.Physics.named`); raises while the model is edited
        and not recompiled."""
        self._check_current()
        return super().named

    def bind(self, elements: Any) -> Any:
        """Attributes of PyMJCF handles or `mujoco.Mjs...` elements in the compiled model.

        A handle (or any iterable of handles, a NumPy array of them included) gives
        a `Binding` with PyMJCF's shapes; an empty iterable gives an empty binding
        (every attribute an empty array, assignments refused), as dm_control's; raw
        spec elements keep `composer_tasks.physics.Physics.bind`'s behaviour.

        Raises:
            ValueError: `elements` is None.
        """
        if isinstance(elements, element_module.Element):
            return self._bind_handles(elements, False)
        if elements is None:
            raise ValueError("mjcf_elements is None.")
        if not isinstance(elements, (list, tuple)):
            try:
                elements = tuple(elements)
            except TypeError:  # one spec element
                return super().bind(elements)
        if not elements:
            return _EMPTY_BINDING
        if all(isinstance(e, element_module.Element) for e in elements):
            return self._bind_handles(tuple(elements), True)
        if any(isinstance(e, element_module.Element) for e in elements):
            raise TypeError("bind a list of mjcf elements or a list of spec elements, not both")
        return super().bind(list(elements))

    def _bind_handles(
        self, key: element_module.Element | tuple[element_module.Element, ...], is_sequence: bool
    ) -> "Binding":
        self._check_current()
        binding = self._mjcf_bindings.get(key)
        if binding is None:
            handles = key if isinstance(key, tuple) else (key,)
            mjs = [_bindable(handle) for handle in handles]
            kinds = {indexing.kind_of(element) for element in mjs}
            if len(kinds) != 1:
                raise ValueError(
                    "Cannot bind to a collection containing multiple element types: "
                    f"{sorted(kinds)}"
                )
            kind = kinds.pop()
            try:
                if self.spec is None:
                    # A physics without its spec (unpickled, or built from a model):
                    # elements are found by name, as dm_control binds them.
                    ids = [self.model.name2id(element.name, kind) for element in mjs]
                else:
                    try:
                        ids = indexing.element_ids(self.model, kind, mjs)
                    except ValueError:
                        if not _from_other_spec(self.spec, handles):
                            raise
                        # A physics compiled from the model's text (`to_xml_string`):
                        # its elements by their names there, as dm_control binds them.
                        ids = [
                            self.model.name2id(handle.full_identifier, kind) for handle in handles
                        ]
            except (ValueError, KeyError) as error:
                raise ElementNotInModelError(
                    f"{handles[0]!r} (or another of the elements) is not in the compiled model; "
                    f"was it added after compiling? ({error})"
                ) from error
            if kind == "body" and len({self.model.body_mocapid[i] >= 0 for i in ids}) > 1:
                raise ValueError(
                    "Cannot bind to a collection containing multiple element types: "
                    "mocap and other bodies"
                )
            # A proxy: the Physics owns its bindings, which must not keep it alive.
            binding = Binding._of_ids(weakref.proxy(self), kind, ids, is_sequence)
            self._mjcf_bindings[key] = binding
        return binding


def _from_other_spec(spec: Any, handles: tuple[element_module.Element, ...]) -> bool:
    """Whether the handles are of a model whose spec is not `spec` (the physics was
    compiled from that model's text, not from it)."""
    return all(handle._scope._top()._spec is not spec for handle in handles)


def _bindable(handle: element_module.Element) -> Any:
    if handle.tag == "inertial":
        raise TypeError(f"{handle!r}: bind the body instead of its <inertial>")
    return handle.spec_element


class Binding:
    """Attributes (`qpos`, `xpos`, `xmat`, `sensordata`, `mass`, `element_id`, ...) of
    bound handles, with PyMJCF's shapes.

    As in dm_control, writing the state or inputs (`qpos`, `qvel`, `act`, `ctrl`,
    `qfrc_applied`, `xfrc_applied`) or a model parameter (other than colours and
    materials) marks the physics dirty, and the next read of any other attribute
    through a binding runs `physics.forward()` first; writing a frame offset (`pos`,
    `quat` of a body, geom or site; `ipos`, `iquat` of a body) zeroes the element's
    `sameframe` (and `simple`) flag so that MuJoCo uses the written offset. Item
    writes into a returned array (`bind(joints).qpos[0] = 0.3`) do the same.
    """

    __slots__ = ("_ids", "_is_sequence", "_kind", "_locations", "_physics")

    def __init__(self, physics: Physics, namespace: str, named_index: str | list[str]) -> None:
        """Binds elements by name, as dm_control's constructor does (`physics.bind`
        is the usual way to make a binding).

        Args:
          physics: the physics whose arrays the binding reads and writes.
          namespace: the elements' kind ("joint", "geom", ..., or "mocap_body").
          named_index: one element's full name, or a list of names.

        Raises:
          ValueError: `namespace` is no kind of element that can be bound, or a
            name is not in the compiled model.
        """
        kind = "body" if namespace == "mocap_body" else namespace
        if kind not in indexing.KINDS:
            raise ValueError(f"elements of type {namespace!r} cannot be bound to physics")
        is_sequence = not isinstance(named_index, str)
        names = list(named_index) if is_sequence else [named_index]
        ids = [int(physics.model.name2id(name, kind)) for name in names]
        self._set_up(physics, kind, ids, is_sequence)

    @classmethod
    def _of_ids(cls, physics: Physics, kind: str, ids: list[int], is_sequence: bool) -> Binding:
        """The binding of the elements of `kind` with ids `ids` in the compiled model."""
        binding = cls.__new__(cls)
        binding._set_up(physics, kind, ids, is_sequence)
        return binding

    def _set_up(self, physics: Physics, kind: str, ids: list[int], is_sequence: bool) -> None:
        object.__setattr__(self, "_physics", physics)
        object.__setattr__(self, "_kind", kind)
        object.__setattr__(self, "_ids", ids)
        object.__setattr__(self, "_is_sequence", is_sequence)
        object.__setattr__(self, "_locations", {})

    @property
    def element_id(self) -> int | np.ndarray:
        """The element's id in the compiled model (an array of ids for a list)."""
        return np.array(self._ids) if self._is_sequence else self._ids[0]

    def _location(self, name: str) -> _Attribute:
        attribute = self._locations.get(name)
        if attribute is None:
            physics = self._physics
            model, data = physics.model, physics.data
            try:
                location = indexing.locate(
                    model, data, self._kind, self._ids, name, self._is_sequence
                )
            except AttributeError as error:
                # dm_control's wording, then why.
                raise AttributeError(
                    f"bound element <{self._kind}> does not have attribute {name!r}: {error}"
                ) from None
            marks_dirty = physics_module.triggers_dirty(location.struct, location.name, name)
            disable = []
            if location.struct == "model":
                for flag in physics_module.MODEL_DISABLE_ON_WRITE.get(location.name, ()):
                    disable.append(
                        indexing.locate(
                            model, data, self._kind, self._ids, flag.split("_", 1)[1], True
                        )
                    )
            attribute = _Attribute(location, marks_dirty, tuple(disable))
            self._locations[name] = attribute
        return attribute

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        attribute = self._location(name)
        physics = self._physics
        if physics._dirty and not attribute.marks_dirty:
            physics.forward()
        view = attribute.view
        if view is not None:
            return view[()] if attribute.scalar else view
        location = attribute.location
        if not self._is_sequence and location.contiguous:
            view = location.view()
            attribute.scalar = view.shape == ()
            if attribute.scalar:
                attribute.view = view
                return view[()]
            attribute.view = physics_module.bound_array(
                view, physics, attribute.marks_dirty, attribute.disable_views()
            )
            return attribute.view
        return physics_module.bound_array(
            location.read(),
            physics,
            attribute.marks_dirty,
            attribute.disable_views(),
            write_back=location.write,
        )

    def _columns(self, name: str, column: Any) -> Any:
        """The NumPy index of `column` (names such as "x" or ["x", "z"] where the
        attribute's MuJoCo field has named columns) in the attribute's rows."""
        location = self._location(name).location
        axis = indexing.column_axis(location.name, location.array)
        return column if axis is None else axis.convert_key_item(column)

    def __getitem__(self, index: Any) -> Any:
        """`binding["pos"]` is `binding.pos`; `binding["pos", columns]` selects
        columns of each element's row, by number, slice or name (dm_control's)."""
        if isinstance(index, tuple):
            name, column = index
            value = np.asarray(getattr(self, name))
            columns = self._columns(name, column)
            selected = np.array(value[:, columns] if self._is_sequence else value[columns])
            return selected[()] if selected.ndim == 0 else selected
        return getattr(self, index)

    def __setitem__(self, index: Any, value: Any) -> None:
        """Writes `binding[name] = value` or `binding[name, columns] = value`. As in
        dm_control, this marks the physics dirty as an assignment does, but zeroes
        no `sameframe` flag (only attribute assignments and item writes do)."""
        name, column = index if isinstance(index, tuple) else (index, None)
        attribute = self._location(name)
        physics = self._physics
        if physics._dirty and not attribute.marks_dirty:
            physics.forward()
        if column is None:
            attribute.location.write(value)
        else:
            columns = self._columns(name, column)
            values = attribute.location.read()
            if self._is_sequence:
                values[:, columns] = value
            else:
                values[columns] = value
            attribute.location.write(values)
        if attribute.marks_dirty:
            physics._dirty = True

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "element_id":
            raise AttributeError("element_id cannot be set")
        attribute = self._location(name)
        physics = self._physics
        if physics._dirty and not attribute.marks_dirty:
            physics.forward()
        attribute.location.write(value)
        for flags in attribute.disable:
            flags.write(0)
        if attribute.marks_dirty:
            physics._dirty = True


class _EmptyBinding:
    """The binding of no elements: every attribute is an empty array."""

    __slots__ = ()

    def __getattr__(self, name: str) -> np.ndarray:
        if name.startswith("__"):
            raise AttributeError(name)
        return np.empty(0)

    def __setattr__(self, name: str, value: Any) -> None:
        raise ValueError("Cannot assign a value to an empty binding.")


_EMPTY_BINDING = _EmptyBinding()


class _Attribute:
    """Where a bound attribute lives, whether writing it marks the physics dirty,
    and the flags (`sameframe`, `simple`) a write zeroes."""

    __slots__ = ("disable", "location", "marks_dirty", "scalar", "view")

    def __init__(
        self,
        location: indexing.Location,
        marks_dirty: bool,
        disable: tuple[indexing.Location, ...],
    ) -> None:
        self.location = location
        self.marks_dirty = marks_dirty
        self.disable = disable
        # A single element's contiguous entries, found once: a `SynchronizingArrayWrapper`, or
        # the 0-d view of a scalar (`scalar`), whose value is returned.
        self.view: np.ndarray | None = None
        self.scalar = False

    def disable_views(self) -> tuple[Callable[[], None], ...]:
        return tuple(functools.partial(flags.write, 0) for flags in self.disable)


__all__ = ["Binding", "Physics"]
