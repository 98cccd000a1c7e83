"""The cameras of dm_control's walkers, compiled in an arena: names, ids, modes,
positions, orientations and fields of view, against dm-control 1.0.50 (a camera
id or name that renders another view would change every image a user records)."""

import pytest

PROGRAM = """
from dm_control import mjcf
from dm_control.locomotion.arenas import floors
from dm_control.locomotion.walkers import ant, cmu_humanoid, jumping_ball, rodent

for tag, walker_class in [
    ('rat', rodent.Rat),
    ('ant', ant.Ant),
    ('cmu2020', cmu_humanoid.CMUHumanoidPositionControlledV2020),
    ('cmu2019', cmu_humanoid.CMUHumanoidPositionControlled),
    ('ball', jumping_ball.RollingBallWithHead),
]:
    arena = floors.Floor()
    walker = walker_class()
    arena.add_free_entity(walker)
    model = mjcf.Physics.from_mjcf_model(arena.mjcf_model).model
    record(f'{tag}/names', [model.id2name(i, 'camera') for i in range(model.ncam)])
    record(f'{tag}/mode', model.cam_mode)
    record(f'{tag}/pos', model.cam_pos)
    record(f'{tag}/quat', model.cam_quat)
    record(f'{tag}/fovy', model.cam_fovy)
    record(f'{tag}/egocentric', walker.egocentric_camera.name)
"""


@pytest.mark.dm_control_api(
    "locomotion.walkers.Rat",
    "locomotion.walkers.Ant",
    "locomotion.walkers.CMUHumanoidPositionControlledV2020",
    "locomotion.walkers.CMUHumanoidPositionControlled",
    "locomotion.walkers.RollingBallWithHead",
)
def test_walker_cameras_match_dm_control(differential):
    differential.assert_same(PROGRAM, "walker_cameras", rtol=1e-12, atol=1e-12)
