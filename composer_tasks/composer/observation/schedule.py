"""Which evaluations of an observable can still reach an observation.

Time is counted in physics substeps since the episode's reset (t = 0). Observations
are read at the ends of control steps, t = 0, n, 2n, ... for n substeps per control
step. An evaluation at time s with delay d arrives at a = s + d; a value is visible
in the first observation read at R >= a, and at later reads only while fewer than
`buffer_size` values arrived after it (ordered by arrival, then evaluation time).
Since later reads only add arrivals, a value that is not among the last
`buffer_size` arrivals at R is never observed, and need not be evaluated.
"""

from __future__ import annotations

import bisect
import collections
import itertools
import math
from collections.abc import Callable, Iterable


def first_read_at_or_after(arrival: int, n: int) -> int:
    """The first observation time (a multiple of n) at or after `arrival`."""
    return -(-arrival // n) * n


def periodic_substeps(t0: int, n: int, interval: int, delay: int, buffer_size: int) -> list[int]:
    """Substeps (1..n after t0) at which a constant-rate observable must be evaluated.

    Evaluations happen at the multiples of `interval` (> 0); every one has the same
    `delay`, so arrivals keep evaluation order and the values arriving after the one
    at s by its first read R are those at s + interval, s + 2 interval, ... <= R - delay.

    Args:
      t0: time of the read that starts this control step (a multiple of n).
      n: physics substeps per control step.
      interval, delay, buffer_size: the observable's options (ints).

    Returns:
      A list of offsets from t0, increasing.
    """
    needed = []
    first = (t0 // interval + 1) * interval
    for time in range(first, t0 + n + 1, interval):
        arrival = time + delay
        later_arrivals = (first_read_at_or_after(arrival, n) - arrival) // interval
        if later_arrivals < buffer_size:
            needed.append(time - t0)
    return needed


class RandomSchedule:
    """Evaluation times and delays of an observable whose interval or delay is random.

    Intervals and delays are drawn in sample order, as (interval before sample k,
    delay of sample k) pairs, as far ahead as planning needs; the sequence drawn is
    the same whatever is pruned.

    Args:
      draw_interval: function of no arguments returning the next interval (int >= 1).
      draw_delay: function of no arguments returning the next delay (int >= 0).
    """

    def __init__(self, draw_interval: Callable[[], int], draw_delay: Callable[[], int]):
        self._draw_interval = draw_interval
        self._draw_delay = draw_delay
        # (time, delay) drawn but not yet planned
        self._upcoming: collections.deque[tuple[int, int]] = collections.deque()
        self._last_time = 0  # the reset evaluation

    def snapshot_state(self) -> dict:
        """The (time, delay) pairs drawn but not yet planned and the last drawn time."""
        return {"upcoming": list(self._upcoming), "last_time": self._last_time}

    def restore_state(self, state: dict) -> None:
        """Continues from a `snapshot_state()`; draws nothing."""
        self._upcoming = collections.deque(tuple(item) for item in state["upcoming"])
        self._last_time = state["last_time"]

    def _draw_until(self, time: int) -> None:
        while self._last_time <= time:
            self._last_time += self._draw_interval()
            self._upcoming.append((self._last_time, self._draw_delay()))

    def plan(
        self, t0: int, n: int, buffer_size: int, in_flight: Iterable[tuple[int, int]]
    ) -> list[tuple[int, int]]:
        """The evaluations in (t0, t0 + n] whose values can reach an observation.

        Args:
          t0: time of the read that starts this control step.
          n: physics substeps per control step.
          buffer_size: the observable's buffer size.
          in_flight: (arrival, time) of evaluated values that had not arrived at t0.

        Returns:
          A list of (offset from t0, delay), by increasing offset.
        """
        t1 = t0 + n
        self._draw_until(t1)
        candidates = []
        while self._upcoming and self._upcoming[0][0] <= t1:
            candidates.append(self._upcoming.popleft())
        if not candidates:
            return []
        reads = [first_read_at_or_after(time + delay, n) for time, delay in candidates]
        horizon = max(reads)
        # A value evaluated after the horizon cannot arrive by any of these reads.
        self._draw_until(horizon)
        future = itertools.takewhile(lambda item: item[0] <= horizon, self._upcoming)
        keys = sorted(
            itertools.chain(
                in_flight,
                ((time + delay, time) for time, delay in candidates),
                ((time + delay, time) for time, delay in future),
            )
        )
        needed = []
        for (time, delay), read in zip(candidates, reads):
            arrived_by_read = bisect.bisect_right(keys, (read, math.inf))
            up_to_itself = bisect.bisect_right(keys, (time + delay, time))
            if arrived_by_read - up_to_itself < buffer_size:
                needed.append((time - t0, delay))
        return needed
