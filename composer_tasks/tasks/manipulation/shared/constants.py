"""Constants the manipulation tasks share (dm-control 1.0.50, manipulation/shared/constants.py)."""

# Seconds between the agent's actions.
CONTROL_TIMESTEP = 0.04

# Translucent colours of task sites (RGBA).
RED = (1.0, 0.0, 0.0, 0.3)
GREEN = (0.0, 1.0, 0.0, 0.3)
BLUE = (0.0, 0.0, 1.0, 0.3)
CYAN = (0.0, 1.0, 1.0, 0.3)
MAGENTA = (1.0, 0.0, 1.0, 0.3)
YELLOW = (1.0, 1.0, 0.0, 0.3)

# The geom group of task sites: not drawn by default.
TASK_SITE_GROUP = 3
