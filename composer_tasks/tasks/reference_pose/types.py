"""The clip collection a reference-pose task samples from (dm_control's
`locomotion.tasks.reference_pose.types`)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


class ClipCollection:
    """A collection of motion-capture clips: identifiers, and per clip the step
    range to use and a sampling weight.

    Args:
      ids: the clip identifiers (keys of the HDF5 file).
      start_steps: the first step of each clip to use (default 0 for every clip).
      end_steps: the step each clip ends at (default: None, which a tracking task
        replaces by each clip's length once it has loaded the clips).
      weights: each clip's non-negative sampling weight (default 1.0 each).

    Raises:
      ValueError: a per-clip sequence's length is not the number of ids, or a
        weight is negative (the message starts "ClipCollection validation
        failed", as dm_control's).
    """

    def __init__(
        self,
        ids: Sequence[str],
        start_steps: Sequence[int] | None = None,
        end_steps: Sequence[int] | None = None,
        weights: Sequence[int | float] | None = None,
    ) -> None:
        self.ids = ids
        self.start_steps = start_steps
        self.end_steps = end_steps
        self.weights = weights
        count = len(self.ids)
        if self.start_steps is None:
            self.start_steps = (0,) * count
        elif len(self.start_steps) != count:
            _fail(f"{len(self.start_steps)} start_steps for {count} ids")
        if self.end_steps is not None and len(self.end_steps) != count:
            _fail(f"{len(self.end_steps)} end_steps for {count} ids")
        if self.weights is None:
            self.weights = (1.0,) * count
        else:
            if len(self.weights) != count:
                _fail(f"{len(self.weights)} weights for {count} ids")
            if not np.all(np.asarray(self.weights) >= 0.0):
                _fail(f"weights must be non-negative, got {tuple(self.weights)}")

    def __repr__(self) -> str:
        return (
            f"ClipCollection(ids={self.ids!r}, start_steps={self.start_steps!r}, "
            f"end_steps={self.end_steps!r}, weights={self.weights!r})"
        )


def _fail(reason: str) -> None:
    raise ValueError(f"ClipCollection validation failed. {reason}")
