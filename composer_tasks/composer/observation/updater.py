"""Evaluates enabled observables at the substeps where they matter and buffers them.

The semantics (docs/observables.md has them with a worked example):

* Time t counts physics substeps since the reset (t = 0); observations are read at
  t = 0, n, 2n, ... (the end of each control step of n substeps).
* At reset every observable is evaluated once. How its buffer starts is the
  padding (`ObservationPadding`, dm_control's option of the same name): with ZERO
  (dm_control's default) the buffer starts as zeros and the reset value arrives
  after its delay like any other value (a delay drawn at reset if the delay is
  callable); with INITIAL_VALUE the reset value fills the whole buffer at once,
  whatever its delay: the sensor is taken to have read the reset state forever
  before the episode began.
* Later evaluations happen at t = u1, u1 + u2, ... (the intervals, drawn one per
  evaluation if `update_interval` is callable), each after the physics step that
  ends at t (and, for t = n of a control step, after the `after_step` callbacks).
  The value evaluated at t, corrupted then, arrives at t + delay (a delay drawn per
  evaluation if callable).
* The observation at T holds the last `buffer_size` values that arrived by T, in
  order of arrival (ties: evaluation order), oldest first, padded in front as above: shape (buffer_size, *value_shape). With `strip_singleton_buffer_dim`
  and buffer_size 1 the leading axis is dropped. With an aggregator the observation
  is `aggregator(buffer)`, of the buffer as read: without its leading axis where
  that is dropped (so the aggregator reduces the value's own first axis), as in
  dm_control.
* Evaluations whose value can never be in an observation are skipped, so an
  observable with interval 1, buffer 1 and delay 0 is evaluated once per control
  step, after its last substep.
"""

from __future__ import annotations

import collections
import enum
import functools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

import numpy as np
from dm_env import specs

from composer_tasks.composer.observation import observable as observable_module
from composer_tasks.composer.observation import schedule as schedule_module
from composer_tasks.composer.variation import base as variation_base

if TYPE_CHECKING:
    from composer_tasks.composer.variation.base import RandomStateLike
    from composer_tasks.physics import Physics

# dm_control's defaults of an observable's options, which an option of None means.
DEFAULT_BUFFER_SIZE = observable_module.DEFAULT_BUFFER_SIZE
DEFAULT_UPDATE_INTERVAL = observable_module.DEFAULT_UPDATE_INTERVAL
DEFAULT_DELAY = observable_module.DEFAULT_DELAY

# Periodic plans repeat every lcm(n, intervals) substeps; beyond this many distinct
# phases they are recomputed each step rather than cached.
_MAX_CACHED_PHASES = 4096

# Builtin exception types whose message is rewritten to name the observable;
# anything else (PhysicsError, user-defined errors) propagates untouched.
_RENAMEABLE_ERRORS = (ValueError, TypeError, RuntimeError, AttributeError, IndexError, KeyError)

# One evaluation planned in a control step: (substep, slot, delay).
_Entry = tuple[int, "_Slot", int]
# A plan's evaluations: substep -> ([(index, read)] of direct slots, [(slot, delay)]
# of the others).
_Actions = dict[int, tuple[list[tuple[int, Callable[[], np.ndarray]]], list[tuple["_Slot", int]]]]


class ObservationPadding(enum.Enum):
    """What fills an observation buffer before values arrive (dm_control's names).

    ZERO: zeros, the reset value arriving after its delay (dm_control's default).
    INITIAL_VALUE: the reset value, in every slot, from the reset on.
    """

    INITIAL_VALUE = -1
    ZERO = 0


class Updater:
    """Turns enabled observables into per-control-step observations.

    The Environment calls, per episode: `reset(physics, random_state)` (or, to
    continue from a `snapshot_state()`, `restore(physics, random_state, state)`),
    then `get_observation()`; per control step: `prepare_for_next_control_step()`, which
    returns the increasing 1-based substeps after which it must call
    `update(substep)` (the last possible one is `physics_steps_per_control_step`),
    then `get_observation()`.

    Args (dm_control's, in its order):
      observables: a mapping name -> Observable, (name, Observable) pairs, or (as in
        dm_control) a list or tuple of such mappings, in observation order; the
        observation and its spec then have the same structure (a list or tuple of
        mappings of the same types). Only those enabled at construction are used,
        whatever they say later.
      physics_steps_per_control_step: physics substeps per control step (int >= 1).
      strip_singleton_buffer_dim: drop the leading buffer axis of observations whose
        buffer size is 1 (an aggregator then gets the buffer without it, as in
        dm_control).
      pad_with_initial_value: how buffers start at reset: a bool as dm_control takes
        it (True: `ObservationPadding.INITIAL_VALUE`; False, the default: `ZERO`), or
        an `ObservationPadding`.
    """

    def __init__(
        self,
        observables: Mapping[str, observable_module.Observable]
        | Iterable[tuple[str, observable_module.Observable]]
        | Sequence[Mapping[str, observable_module.Observable]],
        physics_steps_per_control_step: int | np.integer = 1,
        strip_singleton_buffer_dim: bool = False,
        pad_with_initial_value: bool | np.bool_ | ObservationPadding = False,
    ):
        n = physics_steps_per_control_step
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
            raise ValueError(f"physics_steps_per_control_step must be an integer >= 1, got {n!r}")
        # dm_control's nested form: a list or tuple of mappings. Each observable is kept
        # under (position, name); the structure is rebuilt for observations and specs.
        self._structure: list[tuple[type, list[str]]] | None = None
        self._structure_type: type | None = None
        self._mapping_type: type = collections.OrderedDict
        if (
            isinstance(observables, (list, tuple))
            and observables
            and all(isinstance(group, Mapping) for group in observables)
        ):
            self._structure_type = type(observables)
            self._structure = []
            items = []
            for group in cast(Sequence[Mapping[str, observable_module.Observable]], observables):
                names = [name for name, item in group.items() if item.enabled]
                self._structure.append((type(group), names))
                items.extend(
                    ((len(self._structure) - 1, name), item) for name, item in group.items()
                )
        else:
            # Observations come in the type of mapping given, as dm_control's (an
            # OrderedDict from pairs, as composer's Environment gives them there).
            if isinstance(observables, dict):
                self._mapping_type = type(observables)
            # Anything with `items()` is a mapping (pyright does not narrow on hasattr).
            if hasattr(observables, "items"):
                pairs = cast(Mapping[str, observable_module.Observable], observables).items()
            else:
                pairs = cast(Iterable[tuple[str, observable_module.Observable]], observables)
            items = list(pairs)
        for name, observable in items:
            if not isinstance(observable, observable_module.Observable):
                raise TypeError(
                    f"observable {name!r} must be an observable.Observable, got "
                    f"{type(observable).__name__}"
                )
        if isinstance(pad_with_initial_value, (bool, np.bool_)):
            padding = (
                ObservationPadding.INITIAL_VALUE
                if pad_with_initial_value
                else ObservationPadding.ZERO
            )
        elif isinstance(pad_with_initial_value, ObservationPadding):
            padding = pad_with_initial_value
        else:
            raise TypeError(
                "pad_with_initial_value must be a bool or an ObservationPadding, got "
                f"{pad_with_initial_value!r}"
            )
        self._padding = padding
        self._items = [(name, observable) for name, observable in items if observable.enabled]
        self._names = [name for name, _ in self._items]
        self._n = int(n)
        self._strip = bool(strip_singleton_buffer_dim)
        self._slots: list[_Slot] | None = None
        self._plan = _Plan({}, frozenset(), None)

    def _slot_name(self, key: Any) -> str:
        # In the nested form an observable's key is (position, name).
        return key[1] if self._structure is not None else key

    def _nest(self, values: Mapping[Any, Any]) -> Any:
        """`values` (by key) in the structure the observables were given in."""
        assert self._structure is not None and self._structure_type is not None
        return self._structure_type(
            group_type((name, values[(position, name)]) for name in names)
            for position, (group_type, names) in enumerate(self._structure)
        )

    # Episode start.

    def reset(self, physics: Physics, random_state: RandomStateLike) -> None:
        """Evaluates every observable on the reset state and starts its schedule.

        Raises:
          RuntimeError, ValueError, ...: naming the observable, if it cannot be read
            from this physics (an element missing from the model, a camera without a
            rendering backend, ...).
        """
        self._slots = []
        for index, (name, observable) in enumerate(self._items):
            try:
                self._slots.append(
                    _Slot(
                        index,
                        self._slot_name(name),
                        observable,
                        physics,
                        random_state,
                        self._strip,
                        self._padding,
                        self._n,
                    )
                )
            except _RENAMEABLE_ERRORS as error:
                if type(error) not in _RENAMEABLE_ERRORS or str(error).startswith(
                    f"observable {name!r}"
                ):
                    raise
                raise type(error)(f"observable {name!r} ({observable!r}): {error}") from error
        # As dm_control: every observable's first evaluation, then per observable its
        # reset value's delay and the reset value, so corruptors and random delays draw
        # in the same order.
        for slot in self._slots:
            slot.start()
        self._current = [slot.reset_observation() for slot in self._slots]
        self._start_at(0)

    def _require_reset(self, method: str) -> None:
        if self._slots is None:
            raise RuntimeError(f"Updater.{method} called before reset")

    # Per control step.

    def prepare_for_next_control_step(self) -> tuple[int, ...]:
        """Plans the next control step; returns the substeps needing `update`, increasing."""
        self._require_reset("prepare_for_next_control_step")
        self._t0 = t0 = self._t1
        self._t1 = t0 + self._n
        if self._random:
            entries = self._periodic_plan_entries(t0) + self._random_plan_entries(t0)
            plan = self._assemble(entries)
        else:
            phase = t0 % self._period
            plan = self._plans.get(phase)
            if plan is None:
                plan = self._assemble(self._periodic_plan_entries(t0))
                if len(self._plans) < _MAX_CACHED_PHASES:
                    self._plans[phase] = plan
        self._plan = plan
        self._updates_done = 0
        self._substeps_counted = 0
        self._handed_out = False
        return plan.substeps

    def _periodic_plan_entries(self, t0: int) -> list[_Entry]:
        phase = t0 % self._period
        entries = self._periodic_entries.get(phase)
        if entries is None:
            # Periodic slots are those whose interval and delay are ints.
            entries = [
                (substep, slot, cast(int, slot.delay))
                for slot in self._periodic
                for substep in schedule_module.periodic_substeps(
                    t0,
                    self._n,
                    cast(int, slot.interval),
                    cast(int, slot.delay),
                    slot.buffer_size,
                )
            ]
            if len(self._periodic_entries) < _MAX_CACHED_PHASES:
                self._periodic_entries[phase] = entries
        return entries

    def _random_plan_entries(self, t0: int) -> list[_Entry]:
        entries = []
        for slot in self._random:
            in_flight = [(arrival, time) for arrival, time, _ in slot.pending]
            schedule = slot.schedule
            assert schedule is not None  # The random slots are those with a schedule.
            for substep, delay in schedule.plan(t0, self._n, slot.buffer_size, in_flight):
                entries.append((substep, slot, delay))
        return entries

    def _assemble(self, entries: list[_Entry]) -> _Plan:
        # Within a substep observables are evaluated in observation order, so that
        # corruptors draw random numbers in a fixed order.
        entries = sorted(entries, key=lambda entry: (entry[0], entry[1].index))
        actions: _Actions = {}
        for substep, slot, delay in entries:
            direct, buffered = actions.setdefault(substep, ([], []))
            if slot.direct:
                direct.append((slot.index, slot.read))
            else:
                buffered.append((slot, delay))
        refreshed = frozenset(slot.index for _, slot, _ in entries if slot.direct)
        # The common case: every observable is direct and read after the same substep,
        # so that substep's values simply become the new list of current values.
        everything_at = None
        if not self._buffered:
            assert self._slots is not None  # A plan is made after the reset.
            for substep, (direct, _) in actions.items():
                if len(direct) == len(self._slots):
                    everything_at = substep
        return _Plan(actions, refreshed, everything_at)

    def update(self, substep: int | None = None) -> None:
        """Evaluates the observables planned for `substep` (1-based) of this control
        step. Without `substep` (dm_control's form, called after every physics
        substep), the substep is the number of calls since
        `prepare_for_next_control_step`."""
        if substep is None:
            self._substeps_counted += 1
            substep = self._substeps_counted
        plan = self._plan
        if substep == plan.everything_at:
            self._updates_done += 1
            self._current = [read() for _, read in plan.actions[substep][0]]
            return
        actions = plan.actions.get(substep)
        if actions is None:
            self._require_reset("update")
            return
        self._updates_done += 1
        direct, buffered = actions
        current = self._current
        for index, read in direct:
            current[index] = read()
        if buffered:
            time = self._t0 + substep
            for slot, delay in buffered:
                slot.receive(time, delay)

    def get_observation(self) -> dict[str, np.ndarray]:
        """The observation at the end of the current control step (or at reset).

        Returns:
          A dict name -> new array (sharing memory with nothing else), in the order the
          observables were given.
        """
        self._require_reset("get_observation")
        current = self._current
        plan = self._plan
        if self._handed_out or self._updates_done != len(plan.actions):
            fresh = frozenset()
        else:
            fresh = plan.refreshed
        if len(fresh) != len(self._direct_indices):
            # Values not re-evaluated since they were last returned are copied, so that
            # no two observations share memory.
            for index in self._direct_indices:
                if index not in fresh:
                    current[index] = current[index].copy()
        if self._buffered:
            time = self._t1
            for slot in self._buffered:
                current[slot.index] = slot.observe(time)
        self._handed_out = True
        if self._structure is not None:
            return self._nest(dict(zip(self._names, current)))
        return self._mapping_type(zip(self._names, current))

    def observation_spec(self) -> collections.OrderedDict[str, specs.Array]:
        """OrderedDict name -> `dm_env.specs.Array` with the exact shape and dtype.

        Fixed at reset from the reset observation, so asking for it draws no random
        numbers.
        """
        self._require_reset("observation_spec")
        if self._structure is not None:
            return self._nest(dict(zip(self._names, self._spec.values())))
        return collections.OrderedDict(self._spec)

    # Snapshots.

    def snapshot_state(self) -> dict:
        """What the updater keeps between two control steps, picklable and sharing no
        memory with it: the time, the last observation's values, and per observable
        its buffer, the values in flight (evaluated, not yet arrived) and the
        intervals and delays drawn ahead. `restore` continues from it.

        Raises:
          RuntimeError: before `reset`, or in the middle of a control step (after
            `prepare_for_next_control_step`, before its last `update`).
        """
        self._require_reset("snapshot_state")
        assert self._slots is not None  # Checked by _require_reset.
        if self._updates_done != len(self._plan.actions):
            raise RuntimeError(
                "Updater.snapshot_state called in the middle of a control step; take "
                "snapshots between control steps"
            )
        return {
            "names": list(self._names),
            "time": self._t1,
            "current": [np.array(value) for value in self._current],
            "slots": [slot.snapshot_state() for slot in self._slots],
        }

    def restore(self, physics: Physics, random_state: RandomStateLike, state: dict) -> None:
        """Continues from `state`, a `snapshot_state()` of an updater of the same
        observables, as `reset` starts an episode, but evaluating nothing and drawing
        nothing: the corruptors and random intervals and delays are bound to
        `random_state`, whose state the caller restores to the one the snapshot was
        taken with, so the values they draw next are those the original would have
        drawn.

        Raises:
          ValueError: `state` is of other observables (names, buffer sizes, or
            whether they are buffered differ).
        """
        if list(state["names"]) != self._names:
            raise ValueError(
                f"the snapshot's observables {list(state['names'])} are not this updater's "
                f"{self._names}"
            )
        slots = []
        for index, ((name, observable), slot_state) in enumerate(zip(self._items, state["slots"])):
            slot = _Slot(
                index,
                self._slot_name(name),
                observable,
                physics,
                random_state,
                self._strip,
                self._padding,
                self._n,
                restored=slot_state,
            )
            slots.append(slot)
        self._slots = slots
        self._current = [np.array(value) for value in state["current"]]
        self._start_at(state["time"])

    def _start_at(self, time: int) -> None:
        """The slots' groupings, empty plan caches and the spec, at substep `time`."""
        slots = self._slots
        assert slots is not None  # Set by reset and restore before they call this.
        self._direct_indices = [slot.index for slot in slots if slot.direct]
        self._buffered = [slot for slot in slots if not slot.direct]
        self._random = [slot for slot in slots if slot.schedule is not None]
        self._periodic = [slot for slot in slots if slot.schedule is None]
        # Periodic slots are those whose interval is an int.
        self._period = math.lcm(self._n, *(cast(int, slot.interval) for slot in self._periodic))
        self._periodic_entries: dict[int, list[_Entry]] = {}
        self._plans: dict[int, _Plan] = {}
        self._spec = collections.OrderedDict(
            (key, _spec(slot, value)) for key, slot, value in zip(self._names, slots, self._current)
        )
        self._t1 = time
        self._t0 = time
        self._plan = _Plan({}, frozenset(self._direct_indices), None)
        self._updates_done = 0
        self._substeps_counted = 0
        self._handed_out = False


def _spec(slot: _Slot, value: np.ndarray) -> specs.Array:
    """The spec of one observation, as dm_control makes it: the observable's own
    `array_spec` (its type and bounds kept) with the observation's shape, or, with an
    aggregator, the observable's bounds only if the aggregator says
    `preserves_bounds`; a plain `Array` when the observable has no spec. The shape and
    dtype are always those of the observation value."""
    array_spec = slot.array_spec
    if array_spec is None:
        return specs.Array(value.shape, value.dtype, slot.name)
    if slot.aggregator is None:
        return array_spec.replace(name=slot.name, shape=value.shape, dtype=value.dtype)
    if isinstance(array_spec, specs.BoundedArray) and getattr(
        slot.aggregator, "preserves_bounds", False
    ):
        return specs.BoundedArray(
            value.shape, value.dtype, array_spec.minimum, array_spec.maximum, slot.name
        )
    return specs.Array(value.shape, value.dtype, slot.name)


class _Plan:
    """One control step's evaluations.

    Attributes:
      actions: substep -> ([(index, read)] of direct slots, [(slot, delay)] of others).
      substeps: the substeps with actions, increasing.
      refreshed: indices of the direct slots this plan evaluates.
      everything_at: the substep after which every slot is evaluated, all being
        direct, or None.
    """

    __slots__ = ("actions", "substeps", "refreshed", "everything_at")

    def __init__(self, actions: _Actions, refreshed: frozenset[int], everything_at: int | None):
        self.actions = actions
        self.substeps = tuple(sorted(actions))
        self.refreshed = refreshed
        self.everything_at = everything_at


class _Slot:
    """One enabled observable's reader, schedule and buffer for one episode.

    A slot is `direct` when its observation is simply its latest value (buffer size
    1, constant delay 0, no aggregator): its reader gives the observation itself
    (with the leading buffer axis unless stripped), stored as evaluated. Other slots
    keep values in flight and a (buffer_size, ...) buffer.
    """

    def __init__(
        self,
        index: int,
        name: str,
        observable: observable_module.Observable,
        physics: Physics,
        random_state: RandomStateLike,
        strip: bool,
        padding: ObservationPadding,
        n_substeps: int,
        restored: Mapping[str, Any] | None = None,
    ):
        """Evaluates the observable on the reset state (for its shape and dtype;
        `start` then starts its buffer), or, given `restored` (a
        `snapshot_state()`), takes its state from that instead without evaluating
        or drawing anything."""
        self.index = index
        self.name = name
        interval, self.buffer_size, delay = observable_module.timing_options(observable)
        self.aggregator = observable.aggregator
        self.array_spec = observable.array_spec
        self.interval = interval
        self.delay = delay
        self.direct = self.buffer_size == 1 and self.aggregator is None and delay == 0
        leading_axis = self.direct and not strip
        # MJCF features have their shape and dtype by construction; other values are
        # checked against the first one, before any leading axis is added.
        checked = (
            not isinstance(observable, observable_module.MJCFFeature)
            or observable.corruptor is not None
        )
        read = observable.observation_callable(
            physics, random_state, leading_axis=leading_axis and not checked
        )
        if restored is None:
            first = read()
            self._value_shape, self._value_dtype = first.shape, first.dtype
        else:
            self._value_shape = tuple(restored["value_shape"])
            self._value_dtype = np.dtype(restored["value_dtype"])
        if checked:
            if type(observable) is observable_module.Generic and observable.corruptor is None:
                # The copy and the checks in one call: these are read every step.
                read = _checked_copy_reader(
                    observable._raw_reader(physics), self._value_shape, self._value_dtype, name
                )
            else:
                read = functools.partial(
                    _checked_read, read, self._value_shape, self._value_dtype, name
                )
            if leading_axis:
                read = functools.partial(_with_leading_axis, read)
                if restored is None:
                    first = first[np.newaxis]
        self.read = read
        self._camera = isinstance(observable, observable_module.CameraObservable)
        self._interval_drawer = _drawer(interval, random_state, name, "update_interval", 1)
        self._delay_drawer = _drawer(delay, random_state, name, "delay", 0)
        # dm_control plans an observable with the defaults (interval 1, delay 0) and a
        # buffer smaller than the control step as the periodic plan does; any other
        # whose evaluations draw random numbers follows its schedule exactly.
        dm_control_periodic = interval == 1 and delay == 0 and self.buffer_size < n_substeps
        if (
            callable(interval)
            or callable(delay)
            or (observable.corruptor is not None and not dm_control_periodic)
        ):
            self.schedule = schedule_module.RandomSchedule(
                self._interval_drawer, self._delay_drawer
            )
        else:
            self.schedule = None
        self._strip_output = strip and self.buffer_size == 1
        self._builtin_aggregator = any(
            self.aggregator is a for a in observable_module.AGGREGATORS.values()
        )
        self._padding = padding
        # (arrival, time, value), in arrival order
        self.pending: list[tuple[int, int, np.ndarray]] = []
        if restored is not None:
            self._check_restorable(restored)
            self._restore(restored)
            return
        # The evaluation that gave the shape and dtype (dm_control's spec inference).
        self._first = first

    def start(self) -> None:
        """Starts the episode's buffer as dm_control's `Updater.reset` does, once every
        observable had its first evaluation: draws the reset value's delay, then
        evaluates the reset value (again; a camera's first image is reused, dm_control
        knowing a camera's spec without one)."""
        first_delay = self._delay_drawer()
        value = self._first if self._camera else self.read()
        del self._first
        if self.direct:
            self._reset_value = value
        elif self._padding is ObservationPadding.INITIAL_VALUE:
            self._buffer = np.repeat(value[np.newaxis], self.buffer_size, axis=0)
        else:
            self._buffer = np.zeros((self.buffer_size,) + value.shape, value.dtype)
            self.pending.append((first_delay, 0, value))

    def snapshot_state(self) -> dict[str, Any]:
        """The buffer, the values in flight and the schedule drawn ahead (copies)."""
        return {
            "value_shape": tuple(self._value_shape),
            "value_dtype": self._value_dtype.str,
            "buffer": None if self.direct else self._buffer.copy(),
            "pending": [(arrival, time, np.array(value)) for arrival, time, value in self.pending],
            "schedule": None if self.schedule is None else self.schedule.snapshot_state(),
        }

    def _check_restorable(self, state: Mapping[str, Any]) -> None:
        buffer = state["buffer"]
        if (buffer is None) != self.direct or (
            buffer is not None and len(buffer) != self.buffer_size
        ):
            saved = "no buffer" if buffer is None else f"a buffer of {len(buffer)}"
            mine = "no buffer" if self.direct else f"a buffer of {self.buffer_size}"
            raise ValueError(
                f"observable {self.name!r}: the snapshot holds {saved}, this observable has {mine} "
                "(its buffer_size, delay or aggregator differ)"
            )
        scheduled_here = self.schedule is not None
        if (state["schedule"] is not None) != scheduled_here:
            kinds = ("periodic", "drawn") if scheduled_here else ("drawn", "periodic")
            raise ValueError(
                f"observable {self.name!r}: the snapshot's evaluations are planned "
                f"{kinds[0]}, this observable's {kinds[1]} (its update_interval, delay "
                "or corruptor differ)"
            )

    def _restore(self, state: Mapping[str, Any]) -> None:
        self.pending = [
            (arrival, time, np.array(value)) for arrival, time, value in state["pending"]
        ]
        if not self.direct:
            self._buffer = np.array(state["buffer"])
        if self.schedule is not None:
            self.schedule.restore_state(state["schedule"])

    def reset_observation(self) -> np.ndarray:
        if self.direct:
            return self._reset_value
        return self.observe(0)

    def receive(self, time: int, delay: int) -> None:
        arrival = time + delay
        item = (arrival, time, self.read())
        pending = self.pending
        if not pending or pending[-1][:2] < item[:2]:
            pending.append(item)
        else:
            position = len(pending)
            while position and pending[position - 1][:2] > item[:2]:
                position -= 1
            pending.insert(position, item)

    def observe(self, time: int) -> np.ndarray:
        pending = self.pending
        buffer = self._buffer
        if pending and pending[0][0] <= time:
            count = 0
            while count < len(pending) and pending[count][0] <= time:
                count += 1
            arrived = [value for _, _, value in pending[:count]]
            del pending[:count]
            size = self.buffer_size
            if count >= size:
                buffer[:] = arrived[-size:]
            else:
                buffer[: size - count] = buffer[count:]
                buffer[size - count :] = arrived
        if self.aggregator is not None:
            # As dm_control: the aggregator's result as it is (a NumPy scalar for a
            # scalar's buffer), of the buffer as dm_control reads it (its one value,
            # without the leading axis, where that axis is stripped). A custom
            # aggregator gets a copy, as there, so a view it returns does not change
            # later.
            read = buffer[0, ...] if self._strip_output else buffer
            if self._builtin_aggregator:
                return self.aggregator(read)
            return self.aggregator(read.copy())
        if self._strip_output:
            # `[0, ...]`: a scalar's value stays a 0-d array, as dm_control's buffer
            # gives it (a new one).
            return buffer[0, ...].copy()
        return buffer.copy()


def _checked_copy_reader(
    raw_read: Callable[[], Any], shape: tuple[int, ...], dtype: np.dtype, name: str
) -> Callable[[], np.ndarray]:
    """A reader of new arrays of `raw_read()`'s values, checked against `shape` and
    `dtype` as `_checked_read` checks them."""

    def read() -> np.ndarray:
        value = np.array(raw_read())
        if value.shape == shape and value.dtype == dtype:
            return value
        return _conformed(value, shape, dtype, name)

    return read


def _checked_read(
    read: Callable[[], np.ndarray], shape: tuple[int, ...], dtype: np.dtype, name: str
) -> np.ndarray:
    return _conformed(read(), shape, dtype, name)


def _conformed(value: np.ndarray, shape: tuple[int, ...], dtype: np.dtype, name: str) -> np.ndarray:
    if value.shape != shape:
        raise ValueError(
            f"observable {name!r} returned shape {value.shape}, but its shape at reset "
            f"(and in the observation spec) is {shape}"
        )
    if value.dtype != dtype:
        if not np.can_cast(value.dtype, dtype, casting="same_kind"):
            raise ValueError(
                f"observable {name!r} returned dtype {value.dtype}, which does not convert "
                f"to its dtype at reset (and in the observation spec), {dtype}"
            )
        value = value.astype(dtype)
    return value


def _with_leading_axis(read: Callable[[], np.ndarray]) -> np.ndarray:
    return read()[np.newaxis]


def _drawer(
    option: observable_module.StoredIntOption,
    random_state: RandomStateLike,
    name: str,
    option_name: str,
    minimum: int,
) -> Callable[[], int]:
    if not callable(option):
        return lambda: option
    # As dm_control: a Variation draws from the environment's random state, any
    # other callable is called with no arguments.
    if isinstance(option, variation_base.Variation):
        call = functools.partial(option, random_state=random_state)
    else:
        call = option

    def draw() -> int:
        value = call()
        array = np.asarray(value)
        if array.shape != () or array.dtype.kind not in "iu" or array < minimum:
            raise ValueError(
                f"observable {name!r}: {option_name} callable {option!r} returned {value!r}; "
                f"expected an integer >= {minimum}"
            )
        return int(array)

    return draw
