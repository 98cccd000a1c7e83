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
    """Evaluation times and delays of an observable planned as dm_control plans them:
    for one whose interval or delay is random, or whose evaluations draw random
    numbers (a corruptor), so that the same seed draws the same numbers in the
    same order as dm_control's `observation.Updater`.

    At each control step starting at t0 the schedule is extended, drawing an
    (interval, delay) pair per evaluation, until it reaches t0 + 2n; then the
    evaluations that dm_control's `Buffer.drop_unobserved_upcoming_items` finds
    never observed are dropped (its simulation of future reads, kept exactly,
    including where it keeps an evaluation that could be dropped), and those in
    (t0, t0 + n] are this step's.

    Args:
      draw_interval: function of no arguments returning the next interval (int >= 1).
      draw_delay: function of no arguments returning the next delay (int >= 0).
    """

    def __init__(self, draw_interval: Callable[[], int], draw_delay: Callable[[], int]):
        self._draw_interval = draw_interval
        self._draw_delay = draw_delay
        # (time, delay) planned beyond the current control step, by time.
        self._upcoming: collections.deque[tuple[int, int]] = collections.deque()

    def snapshot_state(self) -> dict:
        """The (time, delay) pairs planned beyond the current control step."""
        return {"upcoming": list(self._upcoming)}

    def restore_state(self, state: dict) -> None:
        """Continues from a `snapshot_state()`; draws nothing."""
        self._upcoming = collections.deque(tuple(item) for item in state["upcoming"])

    def plan(
        self, t0: int, n: int, buffer_size: int, in_flight: Iterable[tuple[int, int]]
    ) -> list[tuple[int, int]]:
        """The evaluations in (t0, t0 + n] that dm_control makes.

        Args:
          t0: time of the read that starts this control step.
          n: physics substeps per control step.
          buffer_size: the observable's buffer size.
          in_flight: (arrival, time) of evaluated values that had not arrived at t0,
            by arrival.

        Returns:
          A list of (offset from t0, delay), by increasing offset.
        """
        upcoming = self._upcoming
        last = upcoming[-1][0] if upcoming else t0
        while last < t0 + 2 * n:
            last += self._draw_interval()
            upcoming.append((last, self._draw_delay()))
        drop_unobserved(upcoming, list(in_flight), buffer_size, n)
        needed = []
        while upcoming and upcoming[0][0] <= t0 + n:
            time, delay = upcoming.popleft()
            needed.append((time - t0, delay))
        return needed


class _Arrival:
    """One value in dm_control's simulation of future reads; compared by identity."""

    __slots__ = ("time", "delay", "arrival")

    def __init__(self, time: float, delay: float) -> None:
        self.time, self.delay, self.arrival = time, delay, time + delay


def drop_unobserved(
    schedule: collections.deque[tuple[int, int]],
    in_flight: list[tuple[float, float]],
    buffer_size: int,
    n: int,
) -> None:
    """Removes from `schedule` the evaluations that dm_control's
    `Buffer.drop_unobserved_upcoming_items` removes (the same simulation of the reads
    at multiples of n, so the same evaluations remain)."""
    existing = [_Arrival(time, arrival - time) for arrival, time in reversed(in_flight)]
    existing_iter = itertools.chain(existing, iter(lambda: _Arrival(-math.inf, 0), None))
    current = next(existing_iter)
    pending: collections.deque[_Arrival] = collections.deque()
    # By arrival; a stable sort keeps equal arrivals in time order.
    proposed = sorted((_Arrival(time, delay) for time, delay in schedule), key=_arrival_key)
    for item in reversed(proposed):
        while current.arrival > item.arrival:
            pending.appendleft(current)
            current = next(existing_iter)
        pending.appendleft(item)
    first_time = min(time for time, _ in schedule)
    # dm_control floors here (ceil of a floor division).
    read_time = n * (first_time // n)
    arrived: collections.deque[_Arrival] = collections.deque()
    while pending:
        newly_arrived: collections.deque[_Arrival] = collections.deque()
        while pending and pending[0].arrival <= read_time:
            item = pending.popleft()
            arrived.append(item)
            newly_arrived.append(item)
        while len(arrived) > buffer_size:
            stale = arrived.popleft()
            if newly_arrived and stale is newly_arrived[0]:
                newly_arrived.popleft()
                if stale.time >= first_time:
                    schedule.remove((int(stale.time), int(stale.delay)))
        read_time += n


def _arrival_key(item: _Arrival) -> float:
    return item.arrival
