"""Runnable examples: the dm_control paper's Composer tutorial on this framework."""
