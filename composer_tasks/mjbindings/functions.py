"""`mjlib`, MuJoCo's C API as dm_control code calls it: the `mujoco` module itself
(as in dm-control 1.0.50), and the flag-name tuples dm_control keeps beside it.

    mjlib.mju_mulQuat(product, quat_a, quat_b)   # writes `product` in place
"""

import mujoco

mjlib = mujoco

# The display names of MuJoCo's flags and labels, in enum order (tuples of str).
mjDISABLESTRING = mujoco.mjDISABLESTRING
mjENABLESTRING = mujoco.mjENABLESTRING
mjTIMERSTRING = mujoco.mjTIMERSTRING
mjLABELSTRING = mujoco.mjLABELSTRING
mjFRAMESTRING = mujoco.mjFRAMESTRING
mjVISSTRING = mujoco.mjVISSTRING
mjRNDSTRING = mujoco.mjRNDSTRING
