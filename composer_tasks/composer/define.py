"""Decorators for entity methods that return elements and observables
(dm_control's `composer.define`)."""

from __future__ import annotations

import threading
from typing import Any, Callable

from composer_tasks.composer.observables import observable

__all__ = ["cached_property", "observable"]


class cached_property(property):  # noqa: N801  (dm_control's name)
    """A read-only property computed once per instance, on first access, then kept
    in the instance's `__dict__` (the computation runs under a lock, once even when
    threads race for it)."""

    def __init__(self, func: Callable[[Any], Any], doc: str | None = None) -> None:
        super().__init__(fget=func, doc=doc)
        self._name = func.__name__
        self._lock = threading.RLock()

    def __get__(self, instance: Any, owner: type | None = None) -> Any:
        if instance is None:
            return self
        values = instance.__dict__
        if self._name in values:
            return values[self._name]
        with self._lock:
            if self._name not in values:
                assert self.fget is not None  # Set by the constructor.
                values[self._name] = self.fget(instance)
            return values[self._name]
