"""The cameras and sensors of dm_control's walkers, compiled in an arena, against
dm-control 1.0.50: the cameras' names, ids, modes, positions, orientations and
fields of view (a camera id or name that renders another view would change every
image a user records), the sensors' names in `sensordata` order (this project's
centre-of-mass velocity sensors, which come after them, left out) and the sites'
names and poses (the ids `site_xpos` is indexed by)."""

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
    record(f'{tag}/sensors', [model.id2name(i, 'sensor') for i in range(model.nsensor)
                              if not model.id2name(i, 'sensor').endswith('subtreelinvel')])
    record(f'{tag}/sites', [model.id2name(i, 'site') for i in range(model.nsite)])
    if tag != 'rat':  # the rat's positions are rounded to 0.1 mm here
        record(f'{tag}/site_pose', [model.site_pos, model.site_quat])
        record(f'{tag}/site_size', model.site_size)
    record(f'{tag}/lights', [model.id2name(i, 'light') for i in range(model.nlight)])
    record(f'{tag}/light_pose', [model.light_pos, model.light_dir, model.light_mode])
    record(f'{tag}/joints', [model.id2name(i, 'joint') for i in range(model.njnt)])
"""


@pytest.mark.dm_control_api(
    "locomotion.walkers.Rat",
    "locomotion.walkers.Ant",
    "locomotion.walkers.CMUHumanoidPositionControlledV2020",
    "locomotion.walkers.CMUHumanoidPositionControlled",
    "locomotion.walkers.RollingBallWithHead",
)
def test_walker_cameras_and_sensors_match_dm_control(differential):
    differential.assert_same(PROGRAM, "walker_cameras", rtol=1e-12, atol=1e-12)
