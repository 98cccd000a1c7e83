"""Small helpers for task authors (dm_control's `utils` counterparts): `containers`,
`transformations`, `inverse_kinematics`, `io`."""
