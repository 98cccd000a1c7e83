"""Wrappers of suite environments (`dm_env.Environment` in, `dm_env.Environment` out)."""
