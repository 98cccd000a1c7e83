"""`Buffer`: one observable's buffered and delayed values, by dm_control's rules
(its `composer.observation.obs_buffer`), for code that drives buffers itself.

The Environment's `Updater` keeps its own buffers (planned evaluations, values
shared with nothing); it gives the same observations.
"""

from __future__ import annotations

import collections
from collections.abc import Iterable
from typing import Any

import numpy as np

from composer_tasks.composer.observation import schedule as schedule_module


class Buffer:
    """Values of one observable, each arriving `delay` steps after its
    `timestamp`; `read(t)` gives the last `buffer_size` values arrived by t, oldest
    first (ties in order of insertion), padded in front with zeros, or with the
    first value inserted when `pad_with_initial_value`.

    Args:
      buffer_size: how many values `read` returns (an int >= 1).
      shape: one value's shape (an int or a sequence of ints).
      dtype: the values' NumPy dtype.
      pad_with_initial_value: pad with the first inserted value rather than zeros.
      strip_singleton_buffer_dim: with buffer_size 1, `read` returns the value
        without the leading buffer axis.
    """

    def __init__(
        self,
        buffer_size: int,
        shape: int | Iterable[int],
        dtype: Any,
        pad_with_initial_value: bool = False,
        strip_singleton_buffer_dim: bool = False,
    ) -> None:
        if isinstance(buffer_size, bool) or not isinstance(buffer_size, (int, np.integer)):
            raise TypeError(f"buffer_size must be an int >= 1, got {buffer_size!r}")
        if buffer_size < 1:
            raise ValueError(f"buffer_size must be an int >= 1, got {buffer_size!r}")
        value_shape = (int(shape),) if isinstance(shape, (int, np.integer)) else tuple(shape)
        self._buffer_size = int(buffer_size)
        self._has_buffer_dim = not (strip_singleton_buffer_dim and buffer_size == 1)
        self._shape = ((self._buffer_size,) if self._has_buffer_dim else ()) + value_shape
        self._dtype = np.dtype(dtype)
        # (arrival, timestamp, delay, value); `arrived` keeps the last buffer_size.
        self._arrived: collections.deque[tuple[float, float, int, np.ndarray]] = collections.deque(
            maxlen=self._buffer_size
        )
        if not pad_with_initial_value:
            zero = np.zeros(value_shape, self._dtype)
            self._arrived.extend((-np.inf, -np.inf, 0, zero) for _ in range(self._buffer_size))
        self._pending: list[tuple[float, float, int, np.ndarray]] = []

    @property
    def shape(self) -> tuple[int, ...]:
        """The shape `read` returns."""
        return self._shape

    @property
    def dtype(self) -> np.dtype:
        return self._dtype

    def _deliver(self, time: float) -> None:
        count = 0
        while count < len(self._pending) and self._pending[count][0] <= time:
            count += 1
        self._arrived.extend(self._pending[:count])
        del self._pending[:count]

    def insert(self, timestamp: int, delay: int, value: Any) -> None:
        """Adds `value`, observed at `timestamp`, arriving at `timestamp + delay`.

        Raises:
          ValueError: `delay` is negative.
        """
        if delay < 0:
            raise ValueError(f"delay must not be negative, got {delay!r}")
        if not self._arrived:
            self._arrived.extend(
                (-np.inf, -np.inf, 0, np.array(value)) for _ in range(self._buffer_size)
            )
        self._deliver(timestamp)
        item = (timestamp + delay, timestamp, delay, np.array(value))
        if delay == 0:
            self._arrived.append(item)
            return
        position = len(self._pending)
        # After every value arriving no later: equal arrivals keep insertion order.
        while position and self._pending[position - 1][0] > item[0]:
            position -= 1
        self._pending.insert(position, item)

    def read(self, current_time: int) -> np.ndarray:
        """The values arrived by `current_time`: a new array of `shape`."""
        self._deliver(current_time)
        if not self._has_buffer_dim:
            return self._arrived[0][3].copy()
        out = np.empty(self._shape, self._dtype)
        for index, item in enumerate(self._arrived):
            out[index] = item[3]
        return out

    def drop_unobserved_upcoming_items(
        self, observation_schedule: collections.deque[tuple[int, int]], read_interval: int
    ) -> None:
        """Removes from `observation_schedule` (a deque of (timestamp, delay),
        changed in place) the planned values that reads at multiples of
        `read_interval` would never return, as dm_control plans them."""
        schedule_module.drop_unobserved(
            observation_schedule,
            [(arrival, timestamp) for arrival, timestamp, _, _ in self._pending],
            self._buffer_size,
            read_interval,
        )
