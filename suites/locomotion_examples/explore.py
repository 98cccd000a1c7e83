"""Watch the CMU humanoid's gaps corridor in the viewer (dm_control's
`locomotion.examples.explore`).

    python -m suites.locomotion_examples.explore

The viewer is this project's (`composer_tasks.viewer.launch`), which takes the
environment itself where dm_control's takes a loader.
"""

from __future__ import annotations

from collections.abc import Sequence

from absl import app

from composer_tasks import viewer
from suites.locomotion_examples import basic_cmu_2019


def main(argv: Sequence[str]) -> None:
    """Opens the viewer on `basic_cmu_2019.cmu_humanoid_run_gaps()`.

    Raises:
      app.UsageError: for positional command-line arguments.
    """
    if len(argv) > 1:
        raise app.UsageError(f"unexpected command-line arguments: {list(argv[1:])!r}")
    viewer.launch(basic_cmu_2019.cmu_humanoid_run_gaps())


if __name__ == "__main__":
    app.run(main)
