"""The rat's compiled model beyond its geoms, and a seeded rollout, against
dm-control 1.0.50: on a Floor, every body's position and orientation, every
joint's position, axis, range and class parameters, every actuator's and site's
parameters (rodent.xml's numbers at full precision, so they compile to the same
bits), then the joint positions and the walker's observations after a seeded
rollout of 20 control steps of a minimal composer task, and the `foot_mods` and
`torque_actuators` options."""

import pytest

MODEL = """
import numpy as np
from dm_control import mjcf
from dm_control.locomotion.arenas import floors
from dm_control.locomotion.walkers import rodent

arena = floors.Floor()
walker = rodent.Rat()
arena.add_free_entity(walker)
model = mjcf.Physics.from_mjcf_model(arena.mjcf_model).model


def signed(quats):
    # A quaternion and its negative are one rotation: the first nonzero entry positive.
    quats = np.array(quats, dtype=float)
    for row in quats:
        if row[np.flatnonzero(np.abs(row) > 1e-12)[0]] < 0:
            row *= -1
    return quats


for kind, count in (('body', model.nbody), ('joint', model.njnt), ('actuator', model.nu),
                    ('site', model.nsite), ('camera', model.ncam), ('tendon', model.ntendon)):
    record(kind + '_names', [model.id2name(i, kind) for i in range(count)])
record('body_pos', model.body_pos)
record('body_quat', signed(model.body_quat))
for field in ('jnt_pos', 'jnt_axis', 'jnt_range', 'jnt_stiffness', 'jnt_group', 'jnt_limited',
              'jnt_solref', 'jnt_solimp', 'qpos0', 'qpos_spring', 'dof_damping',
              'dof_armature', 'dof_frictionloss', 'actuator_gear', 'actuator_ctrlrange',
              'actuator_gainprm', 'actuator_biasprm', 'actuator_forcerange',
              'actuator_dynprm', 'actuator_ctrllimited', 'actuator_forcelimited',
              'actuator_trntype', 'actuator_trnid', 'tendon_range', 'tendon_limited',
              'wrap_prm', 'site_pos', 'site_size', 'site_type', 'site_group', 'site_rgba',
              'cam_pos', 'cam_fovy'):
    record(field, getattr(model, field))
record('site_quat', signed(model.site_quat))
record('cam_quat', signed(model.cam_quat))
"""

ROLLOUT = """
import numpy as np
from dm_control import composer
from dm_control.locomotion.arenas import floors
from dm_control.locomotion.walkers import rodent


class StandStill(composer.Task):
    # The rat on a floor, rewarded nothing: only the walker's dynamics matter.

    def __init__(self):
        self._arena = floors.Floor()
        self._walker = rodent.Rat()
        self._arena.add_free_entity(self._walker)
        for observable in self._walker.observables.proprioception:
            observable.enabled = True
        for name in ('head_height', 'sensors_torque', 'tendons_pos', 'tendons_vel',
                     'actuator_activation', 'appendages_pos', 'sensors_touch',
                     'sensors_accelerometer', 'sensors_velocimeter', 'sensors_gyro'):
            getattr(self._walker.observables, name).enabled = True
        self.set_timesteps(control_timestep=0.01, physics_timestep=0.002)

    @property
    def root_entity(self):
        return self._arena

    def get_reward(self, physics):
        return 0.0


task = StandStill()
env = composer.Environment(task, random_state=0)
timestep = env.reset()
actions = np.random.RandomState(0)
spec = env.action_spec()
record('qpos_reset', env.physics.data.qpos)
for step in range(20):
    timestep = env.step(actions.uniform(spec.minimum, spec.maximum))
    record('qpos_%02d' % step, env.physics.data.qpos)
for key in sorted(timestep.observation):
    record('observation/' + key, timestep.observation[key])
"""


@pytest.mark.dm_control_api("locomotion.walkers.Rat.mjcf_model")
def test_rat_model_matches_dm_control(differential):
    differential.assert_same(MODEL, "rodent_model", rtol=0.0, atol=0.0)


# The compiled models are equal bit for bit, the reset pose too; MuJoCo 3.17 and
# this project's MuJoCo then part in the last bits of each step's arithmetic. Over
# 20 control steps (100 physics steps) the positions stay within 7.4e-12 (joint
# angles, the free joint's position and quaternion, appendage and tendon
# lengths), the velocities and the head's inertial sensors within 7.6e-10.
ROLLOUT_TOLERANCES = (("_vel|sensors_(accelerometer|gyro|velocimeter)", 0.0, 1e-9),)


@pytest.mark.dm_control_api(
    "locomotion.walkers.Rat",
    "locomotion.walkers.rodent.RodentObservables.proprioception",
    "locomotion.walkers.rodent.RodentObservables.actuator_activation",
    "locomotion.walkers.rodent.RodentObservables.appendages_pos",
    "locomotion.walkers.rodent.RodentObservables.head_height",
    "locomotion.walkers.rodent.RodentObservables.tendons_pos",
    "locomotion.walkers.rodent.RodentObservables.tendons_vel",
)
def test_rat_rollout_matches_dm_control(differential):
    differential.assert_same(
        ROLLOUT, "rodent_rollout", rtol=0.0, atol=1e-11, tolerances=ROLLOUT_TOLERANCES
    )


OPTIONS = """
import numpy as np
from dm_control import mjcf
from dm_control.locomotion.walkers import rodent

# foot_mods narrows the ankle's and toe's ranges and leaves the actuators' gains as
# the file gives them; torque_actuators makes every actuator a motor of gain equal
# to its force limit, without bias.
for options in ({'foot_mods': True}, {'torque_actuators': True}):
    walker = rodent.Rat(**options)
    model = mjcf.Physics.from_mjcf_model(walker.mjcf_model).model
    for field in ('jnt_range', 'actuator_gaintype', 'actuator_gainprm', 'actuator_biastype',
                  'actuator_biasprm', 'actuator_forcerange'):
        record('%s/%s' % (sorted(options)[0], field), getattr(model, field))
    record('%s/joint_actuators_range' % sorted(options)[0],
           np.array(walker.joint_actuators_range, dtype=float))
"""


@pytest.mark.dm_control_api("locomotion.walkers.Rat.joint_actuators_range")
def test_rat_options_match_dm_control(differential):
    differential.assert_same(OPTIONS, "rodent_options", rtol=0.0, atol=0.0)
