"""The CMU humanoids' joint ranges alone and attached to an arena, against dm_control:
the V2019 file sets no angle unit, so dm_control reads it in degrees alone and in the
arena's radians once attached (one <compiler> for the whole model)."""

import pytest

PROGRAM = """
import numpy as np
from dm_control import mjcf
from dm_control.locomotion.arenas import floors
from dm_control.locomotion.walkers import cmu_humanoid

for name in ('CMUHumanoid', 'CMUHumanoidPositionControlled', 'CMUHumanoidPositionControlledV2020'):
    walker = getattr(cmu_humanoid, name)()
    alone = mjcf.Physics.from_mjcf_model(walker.mjcf_model)
    record(name + '/alone', np.array(alone.model.jnt_range))
    arena = floors.Floor()
    arena.add_free_entity(walker)
    physics = mjcf.Physics.from_mjcf_model(arena.mjcf_model)
    record(name + '/on_arena', np.array(physics.model.jnt_range))
    record(name + '/ctrlrange', np.array(physics.model.actuator_ctrlrange))
"""


@pytest.mark.dm_control_api(
    "locomotion.walkers.cmu_humanoid.CMUHumanoid",
    "locomotion.walkers.CMUHumanoidPositionControlled",
)
def test_cmu_humanoid_joint_ranges_alone_and_attached_match_dm_control(differential):
    differential.assert_same(PROGRAM, "cmu_angle_units", rtol=1e-6, atol=1e-6)
