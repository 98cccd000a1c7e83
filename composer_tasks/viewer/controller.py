"""The viewer's logic without a window: real-time pacing, key commands, overlay text.

A `Controller` runs a `dm_env` environment with a policy. The window (see
`window.py`) calls `tick(elapsed_wall_seconds)` once per frame and forwards key
presses to `handle_key`; everything else here is plain Python, so tests drive it
directly.
"""

from __future__ import annotations

import collections
from collections import abc
import math
import traceback
from typing import Any, Callable, TypeVar

import dm_env
import numpy as np

from composer_tasks import policies
from composer_tasks import video

# Key codes as MuJoCo's viewer reports them (mjKEY_*, which equal GLFW's).
KEY_SPACE = 32
KEY_MINUS = 45
KEY_EQUAL = 61
KEY_BACKSPACE = 259
KEY_RIGHT = 262
KEY_KP_SUBTRACT = 333
KEY_KP_ADD = 334
KEY_F9 = 298

PAUSE, STEP, RESTART, SLOWER, FASTER = "pause", "step", "restart", "slower", "faster"
OBSERVATION = "observation"

KEY_BINDINGS: collections.OrderedDict[int, str] = collections.OrderedDict(
    [
        (KEY_SPACE, PAUSE),
        (KEY_RIGHT, STEP),
        (KEY_BACKSPACE, RESTART),
        (KEY_MINUS, SLOWER),
        (KEY_KP_SUBTRACT, SLOWER),
        (KEY_EQUAL, FASTER),
        (KEY_KP_ADD, FASTER),
        (KEY_F9, OBSERVATION),
    ]
)

HELP_TEXT = (
    ("Space", "pause / resume"),
    ("Right", "one control step (pauses)"),
    ("Backspace", "restart the episode"),
    ("- / =", "slower / faster"),
    ("F9", "hide / show the observation"),
    ("Ctrl+R-drag", "push the double-clicked body"),
    ("[ / ] / Esc", "fixed cameras / free camera"),
    ("Tab", "show MuJoCo's panels"),
)

# Playback speeds, as multiples of real time.
SPEEDS = (1 / 32, 1 / 16, 1 / 8, 1 / 4, 1 / 2, 1.0, 2.0, 4.0, 8.0)
# A tick catches up at most this much wall time; a longer stall (a slow frame, a
# debugger) is dropped rather than raced through afterwards.
MAX_LAG_SECONDS = 0.5
# Elapsed wall time over which the achieved speed is averaged for the overlay.
_SPEED_WINDOW_SECONDS = 1.0
# Observations with more values than this are summarised by shape and range.
_MAX_VALUES_SHOWN = 48
_VALUES_PER_LINE = 8

_Result = TypeVar("_Result")


class Controller:
    """Runs `env` with `policy` in real time, paused, stepped, restarted or sped up.

    Args:
      env: a `dm_env.Environment` whose control timestep is known: a
        `composer.Environment` or a wrapper of one.
      policy: `policy(timestep) -> action`, called with the last `dm_env.TimeStep`;
        None applies the action nearest to zero inside the action bounds.
      paused: start paused.
      speed: initial playback speed, one of `SPEEDS` (1.0 is real time).

    The episode restarts by itself after its last step. Episode statistics:
    `episode_step` (control steps this episode), `episode` (0 for the first),
    `episode_return`, `last_episode_return` (None before the first episode ended),
    `last_episode_end` (why the last episode ended: `termination_reason`).

    With `recover=True` (the web viewer's choice) an exception raised by the
    environment or the policy inside `tick` or a command does not propagate: it is
    recorded in `last_error` (with its traceback in `last_traceback`), reported to
    `on_error(message)`, and the episode restarts. If the restart raises too, the
    controller pauses, and Restart tries again.
    """

    def __init__(
        self,
        env: Any,
        policy: Callable[[dm_env.TimeStep], Any] | None = None,
        paused: bool = False,
        speed: float = 1.0,
        recover: bool = False,
        on_error: Callable[[str], Any] | None = None,
    ) -> None:
        if policy is None:
            policy = policies.zero_policy(env.action_spec())
        elif not callable(policy):
            raise TypeError(
                f"policy must be callable(timestep) -> action, got {type(policy).__name__}"
            )
        if speed not in SPEEDS:
            raise ValueError(
                f"speed must be one of {SPEEDS} (multiples of real time), got {speed!r}"
            )
        self._env = env
        self._policy = policy
        self._control_timestep = video.control_timestep(env)
        self._speed = float(speed)
        self._recover = bool(recover)
        self._on_error = on_error
        self.last_error: str | None = None
        self.last_traceback: str | None = None
        self.last_episode_end: str | None = None
        self.paused = bool(paused)
        self.show_observation = True
        self.episode = -1
        self.last_episode_return: float | None = None
        self._owed_sim_seconds = 0.0
        # (elapsed wall seconds, control steps taken) of the recent ticks.
        self._recent: collections.deque[tuple[float, int]] = collections.deque()
        self._start_episode()

    # State read by the window and tests.

    @property
    def env(self) -> Any:
        return self._env

    @property
    def timestep(self) -> dm_env.TimeStep:
        """The last `dm_env.TimeStep` (the reset one at the start of an episode)."""
        return self._timestep

    @property
    def speed(self) -> float:
        """Requested playback speed as a multiple of real time."""
        return self._speed

    def set_speed(self, speed: float | np.floating) -> None:
        """Sets the playback speed to any multiple of real time in (0, max(SPEEDS)]
        (the keys step through `SPEEDS`; the web viewer's slider sets any value)."""
        if (
            isinstance(speed, bool)
            or not isinstance(speed, (int, float, np.floating))
            or not 0 < speed <= SPEEDS[-1]
        ):
            raise ValueError(
                f"speed must be a multiple of real time in (0, {SPEEDS[-1]:g}], got {speed!r}"
            )
        self._speed = float(speed)

    @property
    def control_timestep(self) -> float:
        return self._control_timestep

    def achieved_speed(self) -> float | None:
        """Simulated seconds per wall second over the last second of running, or None."""
        wall = sum(elapsed for elapsed, _ in self._recent)
        if wall <= 0:
            return None
        return sum(steps for _, steps in self._recent) * self._control_timestep / wall

    # Commands.

    def handle_key(self, key: int) -> bool:
        """Runs the command bound to `key` (a MuJoCo key code); False if unbound."""
        command = KEY_BINDINGS.get(key)
        if command is None:
            return False
        self.command(command)
        return True

    def command(self, name: str) -> None:
        """Runs one of PAUSE, STEP, RESTART, SLOWER, FASTER, OBSERVATION."""
        if name in (STEP, RESTART) and self._recover:
            self._guarded(lambda: self._command(name))
        else:
            self._command(name)

    def _command(self, name: str) -> None:
        if name == PAUSE:
            self.paused = not self.paused
            self._owed_sim_seconds = 0.0
        elif name == STEP:
            self.paused = True
            self._step()
        elif name == RESTART:
            self._start_episode()
        elif name == SLOWER:
            self._speed = max([s for s in SPEEDS if s < self._speed], default=SPEEDS[0])
        elif name == FASTER:
            self._speed = min([s for s in SPEEDS if s > self._speed], default=SPEEDS[-1])
        elif name == OBSERVATION:
            self.show_observation = not self.show_observation
        else:
            raise ValueError(
                f"unknown viewer command {name!r}; commands: {sorted(set(KEY_BINDINGS.values()))}"
            )

    # Running.

    def tick(self, elapsed_wall_seconds: float) -> int:
        """Advances the simulation by the control steps due after `elapsed_wall_seconds`
        of wall time at the current speed; returns how many steps were taken."""
        if not elapsed_wall_seconds >= 0:
            raise ValueError(f"elapsed_wall_seconds must be >= 0, got {elapsed_wall_seconds!r}")
        steps = 0
        if not self.paused:
            self._owed_sim_seconds += elapsed_wall_seconds * self.speed
            # Steps due, with a tolerance so that 0.03 s / 0.01 s counts as three.
            due = math.floor(self._owed_sim_seconds / self._control_timestep + 1e-9)
            limit = max(1, math.floor(MAX_LAG_SECONDS * self.speed / self._control_timestep))
            if due > limit:
                due = limit
                self._owed_sim_seconds = due * self._control_timestep
            if self._recover:
                steps = self._guarded(lambda: self._steps(due))
            else:
                steps = self._steps(due)
            self._owed_sim_seconds -= due * self._control_timestep
        self._recent.append((elapsed_wall_seconds, steps))
        while len(self._recent) > 1 and sum(e for e, _ in self._recent) > _SPEED_WINDOW_SECONDS:
            self._recent.popleft()
        return steps

    def _steps(self, count: int) -> int:
        for _ in range(count):
            self._step()
        return count

    def _guarded(self, run: Callable[[], _Result]) -> _Result | int:
        """Runs `run()`; on an exception records it, reports it and restarts the episode.
        Returns `run()`'s result, or 0 after an exception."""
        try:
            return run()
        except Exception as error:
            self.last_error = f"{type(error).__name__}: {error}"
            self.last_traceback = traceback.format_exc()
            where = f"episode {self.episode}, step {self.episode_step}"
            self.last_episode_end = f"error: {self.last_error}"
            message = f"the environment raised at {where}: {self.last_error}"
            try:
                self._start_episode()
                message += "; the episode restarted"
            except Exception as reset_error:
                self.paused = True
                self.last_error = f"{type(reset_error).__name__}: {reset_error}"
                self.last_traceback += traceback.format_exc()
                message += (
                    f"; restarting raised too ({self.last_error}), so the viewer "
                    f"is paused: Restart tries again"
                )
            if self._on_error is not None:
                self._on_error(message)
            return 0

    def _start_episode(self) -> None:
        if self.episode >= 0 and self.episode_step > 0:
            self.last_episode_return = self.episode_return
        self._timestep = self._env.reset()
        self.episode += 1
        self.episode_step = 0
        self.episode_return = 0.0
        self._owed_sim_seconds = 0.0

    def _step(self) -> None:
        if self._timestep.last():
            self._start_episode()
            return
        timestep = self._env.step(self._policy(self._timestep))
        self._timestep = timestep
        self.episode_step += 1
        if timestep.reward is not None:
            self.episode_return += float(np.sum(timestep.reward))
        if timestep.last():
            self.last_episode_end = termination_reason(timestep)

    # Overlay.

    def status_text(self) -> tuple[str, str]:
        """(labels, values): episode, step, time, reward, return, speed, state."""
        timestep = self._timestep
        reward = "-" if timestep.reward is None else _format_number(np.sum(timestep.reward))
        achieved = self.achieved_speed()
        speed = f"x{self.speed:g}"
        if achieved is not None and not self.paused:
            speed += f" (actual x{achieved:.2f})"
        last_return = (
            "-" if self.last_episode_return is None else _format_number(self.last_episode_return)
        )
        state = "paused" if self.paused else ("last step" if timestep.last() else "running")
        rows = (
            ("episode", str(self.episode)),
            ("step", str(self.episode_step)),
            ("time", f"{self.episode_step * self._control_timestep:.3f} s"),
            ("reward", reward),
            ("return", _format_number(self.episode_return)),
            ("last return", last_return),
            ("speed", speed),
            ("state", state),
            ("last end", self.last_episode_end or "-"),
        )
        return "\n".join(label for label, _ in rows), "\n".join(value for _, value in rows)

    def observation_text(self) -> tuple[str, str]:
        """(names, values) of the current observation, one line per row of values."""
        observation = self._timestep.observation
        if isinstance(observation, (list, tuple)):
            # A multi-agent environment's per-agent observations, agent by agent.
            observation = {
                f"agent{index}/{name}": value
                for index, agent in enumerate(observation)
                for name, value in agent.items()
            }
        elif not isinstance(observation, abc.Mapping):
            observation = {"observation": observation}
        names, values = [], []
        for name, value in observation.items():
            lines = _format_values(np.asarray(value))
            names.extend([name] + [""] * (len(lines) - 1))
            values.extend(lines)
        return "\n".join(names), "\n".join(values)


def termination_reason(timestep: dm_env.TimeStep) -> str:
    """Why an episode ended, from its last `dm_env.TimeStep`: the discount tells a
    termination (0: the task ended it, or the physics diverged) from a truncation
    (the time limit, discount 1 for composer environments)."""
    discount = np.asarray(timestep.discount if timestep.discount is not None else 0.0)
    if np.all(discount == 0):
        return "terminated (discount 0)"
    return f"truncated: time limit (discount {float(np.mean(discount)):g})"


def _format_number(value: float) -> str:
    return f"{float(value):.3f}"


def _format_values(array: np.ndarray) -> list[str]:
    if array.size > _MAX_VALUES_SHOWN or (array.ndim >= 2 and array.dtype == np.uint8):
        if array.size == 0:
            return [f"{array.shape} {array.dtype}"]
        return [f"{array.shape} {array.dtype} in [{array.min():.3g}, {array.max():.3g}]"]
    flat = array.ravel()
    if flat.size == 0:
        return ["(empty)"]
    if flat.dtype.kind == "b":
        flat = flat.astype(int)
    text = [f"{v: .2f}" for v in flat.astype(float)]
    return [" ".join(text[i : i + _VALUES_PER_LINE]) for i in range(0, len(text), _VALUES_PER_LINE)]
