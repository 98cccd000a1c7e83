"""A process-wide count of spec edits, so that the Environment recompiles only when needed.

Attaching and detaching entities, `variation.MJCFVariator` and every edit made
through a `composer_tasks.mjcf` handle call `mark_spec_changed`; the Environment
compares the count before and after the `initialize_episode_mjcf` callbacks and
recompiles the model only if it moved.
"""

_spec_edit_count = 0


def mark_spec_changed() -> None:
    """Tells the Environment that a spec was edited, so that the next reset recompiles.

    Attaching, detaching, `variation.MJCFVariator` and `composer_tasks.mjcf` handles
    call it; call it after editing `mujoco.Mjs...` spec elements directly in
    `initialize_episode_mjcf` (or build the Environment with
    `check_spec_changes=True`, which compares the whole spec at every reset, at the
    cost of compiling it).
    """
    global _spec_edit_count
    _spec_edit_count += 1


def spec_edit_count() -> int:
    """How many spec edits `mark_spec_changed` has recorded in this process."""
    return _spec_edit_count
