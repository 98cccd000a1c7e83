"""Record an episode of an environment to an MP4 or GIF file.

    from composer_tasks import video
    video.record_episode(env, "episode.mp4", policy=my_policy, camera_id=0)

The file plays in real time: with `fps` frames per second of video, frame k shows
the simulation at the first control step at or after k / fps seconds of simulated
time. Rendering goes through `env.physics.render`, so it works headless with
`MUJOCO_GL=egl` or `MUJOCO_GL=osmesa` (docs/rendering.md).

Policies are callables `policy(timestep) -> action` (see `composer_tasks.policies`),
where `timestep` is the `dm_env.TimeStep` the environment returned last.
"""

from __future__ import annotations

import collections
import math
import os
from collections.abc import Callable
from typing import Any

import dm_env
import numpy as np

from composer_tasks import policies

_FORMATS = {".mp4": "mp4", ".gif": "gif"}
# GIF stores frame delays in hundredths of a second, and browsers play delays
# under 0.02 s at 0.1 s, so the default GIF frame rate stays at or below 50 fps.
_MAX_DEFAULT_GIF_FPS = 50.0
# Frame times closer than this (in control steps) to a step count fall on it:
# 0.3 s / 0.01 s is 30 steps even where the division gives 29.999999999999996.
_FRAME_TIME_TOLERANCE = 1e-6

Recording = collections.namedtuple(
    "Recording", ["path", "num_frames", "fps", "num_steps", "episode_return"]
)
Recording.__doc__ = """What `record_episode` wrote.

Attributes:
  path: the file written.
  num_frames: frames in the file.
  fps: frames per second of the file.
  num_steps: control steps taken (the reset not counted).
  episode_return: the sum of the rewards (undiscounted).
"""


def control_timestep(env: Any) -> float:
    """Seconds per control step of `env` (a composer Environment or a wrapper of one)."""
    task = getattr(env, "task", None)
    if task is not None and getattr(task, "control_timestep", None):
        return float(task.control_timestep)
    if callable(getattr(env, "control_timestep", None)):
        return float(env.control_timestep())
    raise TypeError(
        f"cannot tell the control timestep of {type(env).__name__}: expected an environment "
        f"with `task.control_timestep` (composer.Environment) or a `control_timestep()` method"
    )


def video_format(path: str | os.PathLike) -> str:
    """'mp4' or 'gif' from the extension of `path` (case-insensitive)."""
    extension = os.path.splitext(os.fspath(path))[1].lower()
    if extension not in _FORMATS:
        raise ValueError(
            f"cannot tell the video format of {os.fspath(path)!r}: its extension should be "
            f"one of {sorted(_FORMATS)}"
        )
    return _FORMATS[extension]


def default_fps(env: Any, file_format: str) -> float:
    """One frame per control step, except that GIF stays at or below 50 fps."""
    fps = 1.0 / control_timestep(env)
    if file_format == "gif" and fps > _MAX_DEFAULT_GIF_FPS:
        stride = math.ceil(fps / _MAX_DEFAULT_GIF_FPS - _FRAME_TIME_TOLERANCE)
        fps /= stride
    return fps


def open_writer(
    path: str | os.PathLike, fps: float | np.number, file_format: str | None = None
) -> Any:
    """An imageio writer of RGB frames for `path` (MP4 by ffmpeg/libx264, or GIF)."""
    import imageio.v2 as imageio  # A soft dependency: only recording needs it.

    file_format = file_format or video_format(path)
    if file_format == "mp4":
        # macro_block_size=1 keeps the frame size as given instead of rescaling it.
        return imageio.get_writer(
            os.fspath(path),
            format="FFMPEG",
            fps=fps,
            codec="libx264",
            macro_block_size=1,
            ffmpeg_log_level="error",
        )
    # Pillow's GIF writer takes the delay per frame in milliseconds; loop=0 repeats forever.
    return imageio.get_writer(
        os.fspath(path), format="GIF", mode="I", duration=1000.0 / fps, loop=0
    )


def record_episode(
    env: Any,
    path: str | os.PathLike,
    policy: Callable[[dm_env.TimeStep], Any] | None = None,
    camera_id: int | str = 0,
    fps: float | np.number | None = None,
    height: int | np.integer = 240,
    width: int | np.integer = 320,
    max_steps: int | np.integer | None = None,
) -> Recording:
    """Runs one episode from `env.reset()` and writes what `camera_id` sees to `path`.

    Args:
      env: a `composer.Environment` (or a wrapper forwarding `physics` and `task`).
      path: the output file; `.mp4` (H.264) or `.gif`, chosen by extension.
      policy: `policy(timestep) -> action`; None uses the action nearest to zero.
      camera_id: camera index or name; -1 is the free camera.
      fps: frames per second of video; the video plays in real time, so this is
        also the number of frames per second of simulated time. None gives one
        frame per control step (for GIF at most 50 fps, see `default_fps`).
      height, width: frame size in pixels. MP4 (yuv420p) needs even sizes.
      max_steps: stop after this many control steps even if the episode goes on.

    Returns:
      A `Recording`.

    Raises:
      ValueError: an unknown extension (the message names the path), a bad size,
        fps or max_steps.
    """
    file_format = video_format(path)
    for name, value in (("height", height), ("width", width)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise ValueError(f"{name} must be a positive integer number of pixels, got {value!r}")
    if file_format == "mp4" and (height % 2 or width % 2):
        raise ValueError(
            f"MP4 (H.264, yuv420p) needs an even height and width, got {height}x{width} "
            f"for {os.fspath(path)!r}"
        )
    if max_steps is not None and (
        isinstance(max_steps, bool) or not isinstance(max_steps, (int, np.integer)) or max_steps < 1
    ):
        raise ValueError(f"max_steps must be a positive integer or None, got {max_steps!r}")
    if fps is None:
        fps = default_fps(env, file_format)
    elif not (isinstance(fps, (int, float, np.number)) and math.isfinite(fps) and fps > 0):
        raise ValueError(f"fps must be a positive number of frames per second, got {fps!r}")
    if policy is None:
        policy = policies.zero_policy(env.action_spec())
    elif not callable(policy):
        raise TypeError(f"policy must be callable(timestep) -> action, got {type(policy).__name__}")
    step_seconds = control_timestep(env)
    frame_steps = 1.0 / (fps * step_seconds)

    def render() -> np.ndarray:
        return env.physics.render(height=height, width=width, camera_id=camera_id)

    num_frames = 0
    num_steps = 0
    episode_return = 0.0
    writer = open_writer(path, fps, file_format)
    try:
        timestep = env.reset()
        while True:
            # Frames due by now: frame k belongs to step ceil(k * frame_steps).
            due = math.floor(num_steps / frame_steps + _FRAME_TIME_TOLERANCE) + 1
            if due > num_frames:
                frame = render()
                for _ in range(due - num_frames):
                    writer.append_data(frame)
                num_frames = due
            if timestep.last() or (max_steps is not None and num_steps >= max_steps):
                break
            timestep = env.step(policy(timestep))
            num_steps += 1
            if timestep.reward is not None:
                episode_return += float(timestep.reward)
    finally:
        writer.close()
    return Recording(os.fspath(path), num_frames, float(fps), num_steps, episode_return)
