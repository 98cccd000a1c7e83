"""Watch a 2-vs-2 soccer match in the viewer (dm_control's
`locomotion.soccer.explore`).

    python -m suites.soccer_explore --walker_type=ANT --noenable_field_box

Flags (dm_control's names and defaults): `--walker_type` BOXHEAD, ANT or
HUMANOID (BOXHEAD); `--enable_field_box` (on); `--disable_walker_contacts` (off);
`--terminate_on_goal` (off). The match keeps the pitch's aspect ratio. The
viewer is this project's (`composer_tasks.viewer.launch`), which takes the
environment itself where dm_control's takes a loader.
"""

from __future__ import annotations

from collections.abc import Sequence

from absl import app
from absl import flags

from composer_tasks import viewer
from suites import soccer

FLAGS = flags.FLAGS

flags.DEFINE_enum(
    "walker_type",
    "BOXHEAD",
    [walker_type.name for walker_type in soccer.WalkerType],
    "The players' body.",
)
flags.DEFINE_bool(
    "enable_field_box", True, "Invisible walls around the pitch stop the ball (not the players)."
)
flags.DEFINE_bool("disable_walker_contacts", False, "Players pass through each other.")
flags.DEFINE_bool("terminate_on_goal", False, "End the episode at the first goal.")


def main(argv: Sequence[str]) -> None:
    """Opens the viewer on a 2-vs-2 match built from the parsed flags.

    Raises:
      app.UsageError: for positional command-line arguments.
    """
    if len(argv) > 1:
        raise app.UsageError(f"unexpected command-line arguments: {list(argv[1:])!r}")
    env = soccer.load(
        team_size=2,
        walker_type=soccer.WalkerType[FLAGS.walker_type],
        disable_walker_contacts=FLAGS.disable_walker_contacts,
        enable_field_box=FLAGS.enable_field_box,
        keep_aspect_ratio=True,
        terminate_on_goal=FLAGS.terminate_on_goal,
    )
    viewer.launch(env)


if __name__ == "__main__":
    app.run(main)
