"""`VariationBroadcaster`: one variation's values shared by many users, in order.

    shared_friction = VariationBroadcaster(distributions.Uniform(0.5, 1.5))
    variator.bind_attributes(left_foot, friction=shared_friction.get_proxy())
    variator.bind_attributes(right_foot, friction=shared_friction.get_proxy())

Each proxy sees the same sequence of values. The wrapped variation is evaluated
only when the proxy being called has no value waiting: the new value is queued
for every proxy, and each proxy returns its oldest queued value. So when every
proxy is called once per round, all of them return that round's value; a proxy
called ahead of the others draws the next values, which the others receive on
their later calls (as dm_control's broadcaster does).
"""

from __future__ import annotations

import collections
import weakref
from typing import Any

from composer_tasks.composer.variation import base
from composer_tasks.composer.variation.base import RandomStateLike


class VariationBroadcaster:
    """Shares the values of `wrapped_variation` among the proxies it hands out.

    The wrapped variation is evaluated with no initial or current value (the
    value is shared, so it cannot depend on one user's quantity), and with the
    `random_state` of the proxy call that needed a new value.
    """

    def __init__(self, wrapped_variation: Any):
        self._wrapped_variation = wrapped_variation
        # proxy -> the values it has still to return, oldest first. Weak, so a proxy
        # nobody holds any more stops collecting values.
        self._queues: weakref.WeakKeyDictionary[_BroadcastedValueProxy, collections.deque] = (
            weakref.WeakKeyDictionary()
        )

    def get_proxy(self) -> base.Variation:
        """A new variation that returns this broadcaster's values, starting with the
        next value drawn (values drawn before it was made are not replayed)."""
        proxy = _BroadcastedValueProxy(self)
        self._queues[proxy] = collections.deque()
        return proxy

    def _next_value(self, proxy: _BroadcastedValueProxy, random_state: Any) -> Any:
        queue = self._queues[proxy]
        if not queue:
            value = base.evaluate(self._wrapped_variation, None, None, random_state)
            for pending in self._queues.values():
                pending.append(value)
        return queue.popleft()


class _BroadcastedValueProxy(base.Variation):
    """One user's view of a `VariationBroadcaster`; ignores its own quantity's values."""

    def __init__(self, broadcaster: VariationBroadcaster):
        self._broadcaster = broadcaster

    def __call__(
        self,
        initial_value: Any = None,
        current_value: Any = None,
        random_state: RandomStateLike | None = None,
    ) -> Any:
        return self._broadcaster._next_value(self, random_state)

    def __repr__(self) -> str:
        return f"VariationBroadcaster proxy of {self._broadcaster._wrapped_variation!r}"
