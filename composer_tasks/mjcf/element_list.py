"""The repeated children of an element or section, as PyMJCF hands them out.

`model.actuator.motor`, `body.joint`, `model.default.default`: PyMJCF returns a view
that is a list and a mapping at once, with its own rules, which code written for
dm_control relies on (dm_control/mjcf/element.py, `_ElementListView`):

* Iterating, `len` and `in` see the parent's own children of that tag and then, for a
  section (`actuator`, `sensor`, `default`, ...), the same children of every model
  attached to this one, in the order attached (each with its own attached models).
* `view["name"]` is the own child with that identifier (`name`, or `dclass` for
  default classes), `view["arm/name"]` the one of the attached model `arm`; an
  unknown one raises `KeyError`.
* `view[i]` with `i >= 0` counts the own children only; a negative `i` or a slice
  indexes the whole list, attached models' children included.
* `del view[i]` (or `view["name"]`) removes an own child from the model;
  `view.clear()` removes every child in the view, attached models' too.

`ElementList` is a `list` of the whole view (so list code keeps working) with those
rules on top. It is a snapshot: children added later are not in it.
"""

from collections.abc import Sequence
from typing import Any

PREFIX_SEPARATOR = "/"


class ElementList(list):
    """The children with one tag of `parent`: its own, then attached models' (see the
    module docstring)."""

    def __init__(
        self,
        tag: str,
        parent: Any,
        own: Sequence[Any],
        scoped: Sequence[tuple[str, "ElementList"]] = (),
    ) -> None:
        own = list(own)
        super().__init__(own + [element for _, elements in scoped for element in elements])
        self._tag = tag
        self._parent = parent
        self._own = own
        self._scoped = list(scoped)
        self._identifier = "dclass" if tag == "default" else "name"

    @property
    def tag(self) -> str:
        """The children's tag."""
        return self._tag

    @property
    def parent(self) -> Any:
        """The element or section whose children these are."""
        return self._parent

    @property
    def namescope(self) -> Any:
        """The name scope of the parent's model."""
        return self._parent._scope.namescope

    def _not_found(self, index: str) -> KeyError:
        return KeyError(
            f"An element <{self._tag}> with {self._identifier}={index!r} does not exist"
        )

    def _own_position(self, index: Any) -> int:
        if isinstance(index, str):
            for position, element in enumerate(self._own):
                if getattr(element, self._identifier, None) == index:
                    return position
            raise self._not_found(index)
        if isinstance(index, bool) or not hasattr(index, "__index__"):
            raise TypeError(
                f"list indices must be integers, slices or identifiers, not {type(index).__name__}"
            )
        position = index.__index__()
        if not 0 <= position < len(self._own):
            raise IndexError("list index out of range")
        return position

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, str) and PREFIX_SEPARATOR in index:
            scope_name, rest = index.split(PREFIX_SEPARATOR, 1)
            for name, elements in self._scoped:
                if name == scope_name:
                    try:
                        return elements[rest]
                    except KeyError:
                        raise self._not_found(index) from None
            raise self._not_found(index)
        if isinstance(index, slice):
            return list(super().__getitem__(index))
        if not isinstance(index, (str, bool)) and hasattr(index, "__index__"):
            if index.__index__() < 0:
                return super().__getitem__(index)
        return self._own[self._own_position(index)]

    def __delitem__(self, index: Any) -> None:
        self._own[self._own_position(index)].remove()

    def clear(self) -> None:
        """Removes every child in the view from its model, attached models' too."""
        from composer_tasks.mjcf import element as element_module

        element_module.remove_together(list(self))

    def __str__(self) -> str:
        """PyMJCF's: each element's own text, named from the parent's model."""
        root = self.namescope
        return str(
            [
                element.to_xml_string(prefix_root=root, self_only=True, pretty_print=False)
                if hasattr(element, "to_xml_string") and not getattr(element, "is_removed", False)
                else str(element)
                for element in self
            ]
        )

    def __repr__(self) -> str:
        return "MJCF Elements List: " + str(self)
