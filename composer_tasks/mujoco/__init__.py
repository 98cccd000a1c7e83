"""Counterparts of dm_control's `dm_control.mujoco` sub-modules that are not the
engine itself (the engine, `Physics`, is `composer_tasks.physics`)."""
