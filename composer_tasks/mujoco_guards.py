"""Guards around MuJoCo's Python bindings where a wrong key crashes the interpreter.

MuJoCo 4.0's lists of structs in `MjData` (`data.contact`, `data.warning`,
`data.timer`, `data.solver`) end the process with a segmentation fault when
indexed with anything but an integer or a slice (`data.contact['geom1']`,
`data.warning[1.5]`, `data.contact[[0, 1]]`). dm_control's `physics.data.contact`
is a NumPy record array, which raises an exception for such keys. Importing
`composer_tasks` installs, once, an index check in front of those four types'
`__getitem__`: integers (anything with `__index__`: NumPy integers, MuJoCo's enums)
and slices go through (a 0-d integer array as its integer), any other key
raises TypeError naming it. Fields
(`data.contact.geom1`, `data.contact.dist`) read as before.
"""

import operator
from collections.abc import Callable
from typing import Any

import numpy as np
from mujoco import _structs

_GUARDED_LISTS = ("_MjContactList", "_MjWarningStatList", "_MjTimerStatList", "_MjSolverStatList")


def _guarded(kind: type, getitem: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    def __getitem__(self: Any, key: Any) -> Any:
        if isinstance(key, slice):
            return getitem(self, key)
        try:
            operator.index(key)
        except TypeError:
            raise TypeError(
                f"{kind.__name__.lstrip('_')} indices must be integers or slices, not "
                f"{type(key).__name__} ({key!r}); fields are attributes "
                "(data.contact.geom1, data.contact.dist)"
            ) from None
        if isinstance(key, np.ndarray):  # a 0-d integer array: its integer
            key = int(key)
        return getitem(self, key)

    __getitem__._composer_tasks_guard = True  # type: ignore[attr-defined]
    return __getitem__


def install() -> None:
    """Puts the index check in front of the lists' `__getitem__` (idempotent)."""
    for name in _GUARDED_LISTS:
        kind = getattr(_structs, name, None)
        if kind is None:
            continue
        getitem = kind.__getitem__
        if getattr(getitem, "_composer_tasks_guard", False):
            continue
        kind.__getitem__ = _guarded(kind, getitem)
