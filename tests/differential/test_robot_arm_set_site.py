"""`JacoArm.set_site_to_xpos` (dm_control's `RobotArm.set_site_to_xpos`) against
dm_control's: the joint angles inverse kinematics finds for the wrist and for a
hand's pinch site, from the same seed, and a pose out of reach."""

_PROGRAM = """
import numpy as np
from dm_control import composer, mjcf
from dm_control.entities.manipulators import kinova

arm = kinova.JacoArm()
hand = kinova.JacoHand()
arm.attach(hand)
arena = composer.Arena()
arena.attach(arm)
physics = mjcf.Physics.from_mjcf_model(arena.mjcf_model)
random_state = np.random.RandomState(3)
for key, site, pos, quat in (
    ("pinch_down", hand.pinch_site, [0.0, 0.0, 0.3], None),
    ("pinch_tilted", hand.pinch_site, [0.0, -0.1, 0.5], [1.0, 1.0, 0.0, 0.0]),
    ("wrist_by_name", arm.wrist_site.full_identifier, [0.2, 0.1, 0.4], None),
    ("out_of_reach", arm.wrist_site, [3.0, 0.0, 0.0], None),
):
    quat = None if quat is None else np.array(quat) / np.linalg.norm(quat)
    success = arm.set_site_to_xpos(physics, random_state, site, np.array(pos), quat,
                                   max_ik_attempts=4)
    record(key + "_success", success)
    record(key + "_qpos", physics.bind(arm.joints).qpos.copy())
    physics.forward()
    bound = physics.bind(site) if not isinstance(site, str) else physics.named.data
    xpos = bound.xpos if not isinstance(site, str) else physics.named.data.site_xpos[site]
    record(key + "_xpos", np.array(xpos))
check("bad_site", arm.set_site_to_xpos, physics, random_state, 7, np.zeros(3))
"""


def test_set_site_to_xpos_matches_dm_control(differential):
    # The solver's iterates agree to rounding (MuJoCo 4.x and 3.17 Jacobians).
    differential.assert_same(_PROGRAM, "robot_arm_set_site", rtol=1e-6, atol=1e-8)
