"""Experiment tracking beside metrics.csv: TensorBoard event files, Weights & Biases,
and evaluation videos, as CleanRL and Stable-Baselines3 users expect them.

Every row a run writes to metrics.csv (`csv_log.CsvLog`, shared by `experiment.train`,
distributed D4PG and DPPO) also goes, as scalars at its `step`, to

  * TensorBoard: event files in the run directory (`tensorboard --logdir runs/`),
    written with tensorboardX (no TensorFlow), on by default when it is installed
    (the `agents` extra); a resumed run purges the events after its checkpoint, as
    the CSV drops its rows;
  * Weights & Biases, with a project name (`--wandb PROJECT`); `WANDB_MODE=offline`
    keeps the run in the run directory's wandb/ folder for a later `wandb sync`.

With `video_every`, the evaluation at the first step and then every `video_every`
environment steps also records one episode of the deterministic policy to
`videos/step_<step>.mp4` in the run directory (and to W&B).
"""

import dataclasses
import importlib.util
import json
import os
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

VIDEO_DIR = "videos"
# The run's settings, written by experiment.write_config_json.
CONFIG_FILE = "config.json"


def tensorboard_available() -> bool:
    """Whether tensorboardX is installed (the default of `Settings.tensorboard`)."""
    return importlib.util.find_spec("tensorboardX") is not None


@dataclasses.dataclass(frozen=True)
class Settings:
    """What a run tracks besides metrics.csv.

    Attributes:
      tensorboard: write TensorBoard event files into the run directory.
      wandb_project: a Weights & Biases project to log to, or None.
      video_every: environment steps between evaluation videos, or None for none.
    """

    tensorboard: bool = dataclasses.field(default_factory=tensorboard_available)
    wandb_project: str | None = None
    video_every: int | None = None

    def __post_init__(self) -> None:
        if self.tensorboard and not tensorboard_available():
            raise ValueError(
                "tensorboard=True needs tensorboardX: pip install tensorboardX "
                "(or the agents extra), or pass --notensorboard."
            )
        if self.wandb_project is not None:
            if not self.wandb_project.strip():
                raise ValueError(f"wandb_project {self.wandb_project!r} is empty.")
            if importlib.util.find_spec("wandb") is None:
                raise ValueError(
                    f"--wandb {self.wandb_project} needs the wandb package: pip install wandb."
                )
        if self.video_every is not None and (
            not isinstance(self.video_every, int) or self.video_every < 1
        ):
            raise ValueError(f"video_every = {self.video_every!r}; expected a positive integer.")


class Tracker:
    """The trackers of one run directory, opened by `open_tracker`.

    Args:
      settings: what to track.
      out_dir: the run directory (metrics.csv's).
      config: the run's settings (its config.json), given to W&B.
      resume_step: the checkpoint's step when resuming (later events are purged),
        else None.
    """

    def __init__(
        self,
        settings: Settings,
        out_dir: str,
        config: Mapping[str, Any],
        resume_step: int | None = None,
    ):
        self.settings = settings
        self.out_dir = os.fspath(out_dir)
        self._last_video_step: int | None = None
        self._writer = None
        self._wandb_run = None
        if settings.tensorboard:
            from tensorboardX import SummaryWriter  # pylint: disable=import-outside-toplevel

            purge = None if resume_step is None else resume_step + 1
            self._writer = SummaryWriter(logdir=self.out_dir, purge_step=purge)
        if settings.wandb_project is not None:
            import wandb  # pylint: disable=import-outside-toplevel

            self._wandb_run = wandb.init(
                project=settings.wandb_project,
                dir=self.out_dir,
                name=os.path.basename(os.path.abspath(self.out_dir)),
                config=dict(config),
                reinit="finish_previous",
            )

    def write(self, row: Mapping[str, Any]) -> None:
        """Logs the numeric values of a metrics row at its 'step'."""
        step = int(row["step"])
        scalars = {
            name: float(value)
            for name, value in row.items()
            if name != "step"
            and isinstance(value, int | float | np.number)
            and not isinstance(value, bool)
            and np.isfinite(value)
        }
        if self._writer is not None:
            for name, value in scalars.items():
                self._writer.add_scalar(name, value, step)
            self._writer.flush()
        if self._wandb_run is not None:
            self._wandb_run.log(scalars, step=step)

    def video_due(self, step: int) -> bool:
        """Whether the evaluation at `step` records a video (`video_every`)."""
        every = self.settings.video_every
        if every is None:
            return False
        return self._last_video_step is None or step - self._last_video_step >= every

    def record_video(
        self, step: int, policy: Callable[[Any], Any], make_env: Callable[[int], Any], seed: int
    ) -> str:
        """Records one episode of `policy` (batched observations -> batched actions,
        an agent's `policy()`) on `make_env(seed)` to videos/step_<step>.mp4."""
        from composer_tasks import video  # pylint: disable=import-outside-toplevel

        path = os.path.join(self.out_dir, VIDEO_DIR, f"step_{step}.mp4")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        env = make_env(seed)
        try:
            video.record_episode(env, path, policy=single_env_policy(policy))
        finally:
            close = getattr(env, "close", None)
            if close is not None:
                close()
        self._last_video_step = step
        if self._wandb_run is not None:
            import wandb  # pylint: disable=import-outside-toplevel

            self._wandb_run.log({"eval_video": wandb.Video(path, format="mp4")}, step=step)
        return path

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
        if self._wandb_run is not None:
            self._wandb_run.finish()


def single_env_policy(policy: Callable[[Any], Any]) -> Callable[[Any], np.ndarray]:
    """A batched policy (observations with a leading axis of copies) as a policy of
    one environment's timesteps."""

    def act(timestep: Any) -> np.ndarray:
        observation = timestep.observation
        if isinstance(observation, Mapping):
            batched = type(observation)(
                (key, np.asarray(value)[None]) for key, value in observation.items()
            )
        else:
            batched = np.asarray(observation)[None]
        return np.asarray(policy(batched))[0]

    return act


def open_tracker(
    settings: Settings | None, out_dir: str, resume_step: int | None = None
) -> Tracker | None:
    """A `Tracker` for the run in `out_dir` (its config.json, written before, goes to
    W&B), or None when `settings` is None or tracks nothing."""
    if settings is None:
        return None
    if not settings.tensorboard and settings.wandb_project is None and not settings.video_every:
        return None
    config_path = os.path.join(out_dir, CONFIG_FILE)
    config = {}
    if os.path.exists(config_path):
        with open(config_path) as file:
            config = json.load(file)
    return Tracker(settings, out_dir, config, resume_step)
