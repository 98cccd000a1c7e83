"""Random pushes on a walker's torso, on a schedule drawn from the task's random state.

Used by the probe courses of Heess et al. 2017 (§4: "unobserved perturbations in
the form of ... random forces applied to the Humanoid's torso") and by the tasks
of Liang et al. 2018 (§4.1: "random forces onto the agents ... every 200 to 300
frames, for a few Newtons each time").
"""

from __future__ import annotations

import numbers
from typing import TYPE_CHECKING, Any, Optional, Sequence

import numpy as np

from composer_tasks.tasks import walker_state

if TYPE_CHECKING:
    from composer_tasks.physics import Physics
    from composer_tasks.walkers.base import Walker


def _count(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{name} must be an int >= 1, got {value!r}")
    return int(value)


class RandomPushes:
    """Pushes the walker's root body now and then with a horizontal force.

    A push starts every `randint(low, high)` control steps (inclusive; the first
    `randint(low, high)` steps after the episode starts), lasts `duration_steps`
    control steps and is a force of uniform magnitude in `force_n` newtons in a
    uniformly random horizontal direction (along ±x for a planar walker, whose
    plane is x-z), applied at the root body's centre of mass through
    `data.xfrc_applied`, world frame.

    Call `reset(physics, random_state)` in the task's `initialize_episode` and
    `before_step(physics, random_state)` in its `before_step`.

    Args:
      walker: the walker (its `root_body` is pushed).
      interval_steps: (low, high) control steps between push starts.
      force_n: (low, high) push magnitude, newtons.
      duration_steps: control steps a push lasts.

    Raises:
      ValueError: for a bad interval, force range or duration.
    """

    def __init__(
        self,
        walker: Walker,
        interval_steps: Sequence[int],
        force_n: Sequence[float],
        duration_steps: int = 1,
    ) -> None:
        low, high = (_count(value, "interval_steps") for value in interval_steps)
        if low > high:
            raise ValueError(
                f"interval_steps must be (low, high) with low <= high, got {interval_steps!r}"
            )
        force = tuple(force_n)
        if (
            len(force) != 2
            or not all(
                isinstance(v, numbers.Real)
                and not isinstance(v, bool)
                and np.isfinite(v)
                and v >= 0
                for v in force
            )
            or force[0] > force[1]
        ):
            raise ValueError(
                f"force_n must be (low, high) newtons with 0 <= low <= high, got {force_n!r}"
            )
        self._walker = walker
        self._interval = (low, high)
        self._force_range = (float(force[0]), float(force[1]))
        self._duration = _count(duration_steps, "duration_steps")
        self._planar = bool(getattr(walker, "is_planar", False))
        self._step = 0
        self._next: int | None = None
        self._remaining = 0
        self._force = np.zeros(3)
        self._root_id: int | None = None
        self._model: Any = None

    @property
    def force(self) -> np.ndarray:
        """The force (3,) newtons, world frame, applied this control step (a copy)."""
        return self._force.copy()

    @property
    def next_push_step(self) -> Optional[int]:
        """The control step (counted from 1 in each episode) of the next push start."""
        return self._next

    def _root(self, physics: Physics) -> int:
        if self._model is not physics.model:
            self._root_id = int(physics.bind(walker_state.spec_element(self._walker.root_body)).id)
            self._model = physics.model
        # Set on the first call: no model is cached before it.
        assert self._root_id is not None
        return self._root_id

    def reset(self, physics: Physics, random_state: np.random.RandomState) -> None:
        """Starts an episode: no force, the first push scheduled."""
        self._step = 0
        self._remaining = 0
        self._force = np.zeros(3)
        self._next = int(random_state.randint(self._interval[0], self._interval[1] + 1))
        physics.data.xfrc_applied[self._root(physics)] = 0.0

    def before_step(self, physics: Physics, random_state: np.random.RandomState) -> None:
        """Advances one control step: starts a push if one is due, and writes
        the force of this step (zero between pushes) into `xfrc_applied`."""
        self._step += 1
        if self._next is not None and self._step == self._next:
            magnitude = random_state.uniform(*self._force_range)
            if self._planar:
                direction = np.array([1.0 if random_state.uniform() < 0.5 else -1.0, 0.0, 0.0])
            else:
                angle = random_state.uniform(-np.pi, np.pi)
                direction = np.array([np.cos(angle), np.sin(angle), 0.0])
            self._force = magnitude * direction
            self._remaining = self._duration
            self._next += int(random_state.randint(self._interval[0], self._interval[1] + 1))
        if self._remaining > 0:
            self._remaining -= 1
        elif self._force.any():
            self._force = np.zeros(3)
        applied = physics.data.xfrc_applied[self._root(physics)]
        applied[:3] = self._force
        applied[3:] = 0.0

    # Snapshots: the schedule is Python state; its owner (a task) saves it in its
    # own `snapshot_state` (composer.Environment.snapshot).

    def snapshot_state(self) -> dict:
        """The episode's schedule: control steps so far, the next push's step, the
        current push's steps left and its force (picklable copies)."""
        return {
            "step": self._step,
            "next": self._next,
            "remaining": self._remaining,
            "force": self._force.copy(),
        }

    def restore_state(self, state: dict) -> None:
        """Returns to a `snapshot_state()`; the force reaches `xfrc_applied` with
        the physics state, which holds applied forces.

        Raises:
          ValueError: the force is not a (3,) vector.
        """
        force = np.array(state["force"], dtype=np.float64)
        if force.shape != (3,):
            raise ValueError(f"the snapshot's push force must be a (3,) vector, got {force.shape}")
        self._step = int(state["step"])
        self._next = None if state["next"] is None else int(state["next"])
        self._remaining = int(state["remaining"])
        self._force = force


def snapshot_optional_pushes(pushes: "RandomPushes | None") -> "dict | None":
    """The `snapshot_state` of a task's optional `RandomPushes` (None without pushes)."""
    return None if pushes is None else pushes.snapshot_state()


def restore_optional_pushes(pushes: "RandomPushes | None", state: "dict | None") -> None:
    """Restores a task's optional `RandomPushes` from `snapshot_optional_pushes`.

    Raises:
      ValueError: the snapshot has pushes and the task not, or the reverse.
    """
    if (state is None) != (pushes is None):
        raise ValueError(
            f"the snapshot's task {'has no' if state is None else 'has'} pushes, "
            f"this one {'has' if state is None else 'has none'}"
        )
    # The check above makes both None or both set.
    if pushes is not None and state is not None:
        pushes.restore_state(state)
