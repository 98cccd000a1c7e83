"""Run a Control Suite task with a simple policy and report returns and speed.

python -m suites cartpole swingup --policy random --episodes 3 --seed 0
python -m suites cartpole swingup --video swingup.mp4   # records the first episode
python -m suites manipulation stack_2_bricks_features   # a manipulation environment
python -m suites soccer --team_size 2 --walker boxhead --video match.mp4   # a soccer match
"""

import os
import sys

from absl import app
from absl import flags

from composer_tasks import gl_backend, video
from suites import cli
from suites import suite

_POLICY = flags.DEFINE_enum("policy", "random", ["random", "zero"], "Action policy.")
_EPISODES = flags.DEFINE_integer("episodes", 1, "Episodes to run.", lower_bound=1)
_SEED = flags.DEFINE_integer("seed", 0, "Seed of the task and of the random policy.")
_VIDEO = flags.DEFINE_string(
    "video", None, "Record the first episode from camera 0 to this .mp4 or .gif file."
)
_PROGRESS = flags.DEFINE_bool(
    "progress", True, "Show a progress bar (steps done, rate, time left) on stderr."
)
_TEAM_SIZE = flags.DEFINE_integer("team_size", 2, "soccer: players per team.", lower_bound=1)
_WALKER = flags.DEFINE_enum(
    "walker", "boxhead", ["boxhead", "ant", "humanoid"], "soccer: the players' walker."
)


# Control steps per episode at most, when set: tests/test_readme.py runs the README's
# commands with a short budget this way (a user never needs it).
STEP_BUDGET_VARIABLE = "COMPOSER_TASKS_STEP_BUDGET"


def step_budget() -> int | None:
    """The positive integer in $COMPOSER_TASKS_STEP_BUDGET, or None when unset.

    Raises:
      app.UsageError: the variable holds anything else.
    """
    value = os.environ.get(STEP_BUDGET_VARIABLE)
    if value is None:
        return None
    if not value.isdigit() or int(value) < 1:
        raise app.UsageError(f"{STEP_BUDGET_VARIABLE}={value!r}; expected a positive integer.")
    return int(value)


def main(argv):
    if _VIDEO.value is not None:
        # Importing composer_tasks chose the backend; say which before rendering.
        print(gl_backend.describe(), file=sys.stderr)
    if len(argv) == 2 and argv[1] == "soccer":
        if _VIDEO.value is not None:
            video.video_format(_VIDEO.value)
        cli.run_soccer(
            _TEAM_SIZE.value,
            _WALKER.value,
            _POLICY.value,
            _EPISODES.value,
            _SEED.value,
            video_path=_VIDEO.value,
            progress=_PROGRESS.value,
            max_steps=step_budget(),
        )
        return
    if len(argv) != 3:
        raise app.UsageError(
            f"usage: python -m suites DOMAIN TASK [--policy random|zero] [--episodes N] [--seed S] "
            f"[--video PATH.mp4|PATH.gif], or python -m suites soccer [--team_size N] "
            f"[--walker boxhead|ant|humanoid] [the same flags]; "
            f"tasks: {', '.join(f'{d}:{t}' for d, t in suite.ALL_TASKS)}"
        )
    if _VIDEO.value is not None:
        video.video_format(_VIDEO.value)  # A bad extension fails before any episode runs.
    cli.run(
        argv[1],
        argv[2],
        _POLICY.value,
        _EPISODES.value,
        _SEED.value,
        video_path=_VIDEO.value,
        progress=_PROGRESS.value,
        max_steps=step_budget(),
    )


if __name__ == "__main__":
    app.run(main)
