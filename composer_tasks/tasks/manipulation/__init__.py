"""The manipulation tasks of the dm_control paper (§8) on the Jaco arm and hand."""
