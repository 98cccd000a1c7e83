"""Plays CMU motion-capture clips on the CMU humanoid in the viewer (dm_control's
`locomotion.tasks.reference_pose.mocap_playback`).

    python -m composer_tasks.tasks.reference_pose.mocap_playback

shows the clips of the "run_jump_tiny" collection one after another (the 2020 CMU
data, downloaded on first use: `composer_tasks.mocap.cmu_mocap_data`).
"""

from __future__ import annotations

import sys
from typing import Any

from composer_tasks import arenas, composer, walkers
from composer_tasks.mocap import cmu_mocap_data
from composer_tasks.tasks.reference_pose import tracking


def mocap_playback_env(
    random_state: Any = None, ref_path: str | None = None
) -> composer.Environment:
    """A 30 s environment of a `tracking.PlaybackTask` of the position-controlled
    CMU humanoid (V2020) on a floor, replaying "run_jump_tiny".

    `ref_path` (this project's option) reads another HDF5 file instead of the CMU
    2020 data.
    """
    task = tracking.PlaybackTask(
        walker=walkers.CMUHumanoidPositionControlledV2020,
        arena=arenas.Floor(),
        ref_path=ref_path
        if ref_path is not None
        else cmu_mocap_data.get_path_for_cmu(version="2020"),
        dataset="run_jump_tiny",
    )
    return composer.Environment(
        time_limit=30, task=task, random_state=random_state, strip_singleton_obs_buffer_dim=True
    )


def main(unused_argv: Any) -> None:
    """Opens the viewer on one environment kept across resets, so that each reset
    plays the next clip rather than the first again."""
    del unused_argv
    from composer_tasks import viewer

    viewer.launch(mocap_playback_env())


if __name__ == "__main__":
    main(sys.argv)
