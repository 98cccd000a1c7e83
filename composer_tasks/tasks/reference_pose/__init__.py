"""Reference-pose (motion tracking) pieces of dm_control's locomotion tasks.

Only `rewards` is here: the reward functions compare feature dictionaries and
need no motion-capture data.
"""
