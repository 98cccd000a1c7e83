"""Walkers' sensors and velocities, and soccer's egocentric sensors, against dm_control.

dm_control's legacy walkers carry the sensors of their models and nothing more, and
refresh `subtree_linvel` after every physics step (`mj_subtreeVel` in
`after_substep`); here a `subtreelinvel` sensor did that, one sensor more in every
walker (nsensor, sensordata, names). The jumping and rolling balls set their free
joint's velocity (they are not BoxHeads there). Soccer's egocentric sensors live in
each walker's model under dm_control's names; the field texture has its size.
"""

import pytest

SENSORS = r"""
import numpy as np
from dm_control import mjcf
from dm_control.locomotion.walkers import cmu_humanoid, ant, jumping_ball, rodent
from dm_control.locomotion.soccer import boxhead
from dm_control.locomotion.arenas import floors
makers = {
    'cmu2019': lambda: cmu_humanoid.CMUHumanoid(),
    'cmu2020': lambda: cmu_humanoid.CMUHumanoidPositionControlledV2020(),
    'ant': lambda: ant.Ant(),
    'jumping': lambda: jumping_ball.JumpingBallWithHead(),
    'rolling': lambda: jumping_ball.RollingBallWithHead(),
    'rat': lambda: rodent.Rat(),
    'boxhead': lambda: boxhead.BoxHead(),
}
for key, make in makers.items():
    walker = make()
    arena = floors.Floor()
    arena.add_free_entity(walker)
    physics = mjcf.Physics.from_mjcf_model(arena.mjcf_model)
    m = physics.model
    record(key + '/sensors', [m.id2name(i, 'sensor') for i in range(m.nsensor)])
    record(key + '/nsensordata', int(m.nsensordata))
"""

FALLING = r"""
import numpy as np
from dm_control import composer, mjcf
from dm_control.locomotion.walkers import cmu_humanoid, ant, jumping_ball, rodent
from dm_control.locomotion.soccer import boxhead
from dm_control.locomotion.arenas import floors


class Fall(composer.Task):
    def __init__(self, walker):
        self._arena = floors.Floor()
        self._walker = walker
        self._arena.add_free_entity(walker)
        self.set_timesteps(control_timestep=0.03, physics_timestep=0.005)

    @property
    def root_entity(self):
        return self._arena

    def initialize_episode(self, physics, random_state):
        self._walker.set_pose(physics, position=[0, 0, 3])
        self._walker.set_velocity(physics, velocity=[1.0, -0.5, 0.0])

    def get_reward(self, physics):
        return 0.0


makers = {
    'cmu2019': lambda: cmu_humanoid.CMUHumanoid(),
    'ant': lambda: ant.Ant(),
    'rolling': lambda: jumping_ball.RollingBallWithHead(),
    'rat': lambda: rodent.Rat(),
    'boxhead': lambda: boxhead.BoxHead(),
}
for key, make in makers.items():
    walker = make()
    m = mjcf.Physics.from_mjcf_model(floors.Floor().mjcf_model)
    env = composer.Environment(Fall(walker), random_state=np.random.RandomState(0))
    env.reset()
    model = env.physics.model
    record(key + '/sensors', [model.id2name(i, 'sensor') for i in range(model.nsensor)])
    record(key + '/nsensordata', int(model.nsensordata))
    env.step(np.zeros(env.action_spec().shape))
    record(key + '/subtree_linvel', env.physics.bind(walker.root_body).subtree_linvel)
    record(key + '/sensordata', env.physics.data.sensordata)
"""

BALLS = r"""
import numpy as np
from dm_control import mjcf
from dm_control.locomotion.walkers import jumping_ball
from dm_control.locomotion.arenas import floors
for cls in (jumping_ball.RollingBallWithHead, jumping_ball.JumpingBallWithHead):
    walker = cls()
    arena = floors.Floor()
    arena.add_free_entity(walker)
    physics = mjcf.Physics.from_mjcf_model(arena.mjcf_model)
    m = physics.model
    k = cls.__name__
    record(k + '/joints', [(m.id2name(i, 'joint'), int(m.jnt_type[i])) for i in range(m.njnt)])
    record(k + '/nq', m.nq)
    walker.set_velocity(physics, velocity=[1.0, -0.5, 0.0], angular_velocity=[0, 0, 0.3])
    record(k + '/qvel', physics.data.qvel)
    walker.set_pose(physics, position=[0, 0, 3], quaternion=[0, 0, 0, 1])
    record(k + '/qpos', physics.data.qpos)
    record(k + '/pose', walker.get_pose(physics))
    record(k + '/vel', walker.get_velocity(physics))
"""

SOCCER = r"""
import numpy as np
from dm_control.locomotion import soccer

np.random.seed(0)
env = soccer.load(team_size=2, time_limit=10.0, disable_walker_contacts=False,
                  enable_field_box=True, terminate_on_goal=False,
                  walker_type=soccer.WalkerType.BOXHEAD, random_state=np.random.RandomState(3))
timestep = env.reset()
model = env.physics.model
names = [model.id2name(i, 'sensor') for i in range(model.nsensor)]
# The names (not their order: the egocentric sensors compile after every walker's own
# sensors here, docs/porting_from_dm_control.md).
record('sensor_names', sorted(names))
record('textures', [(model.id2name(i, 'texture'), int(model.tex_width[i]), int(model.tex_height[i]))
                    for i in range(model.ntex)])
named = env.physics.named.data.sensordata
record('ego_ball', [named['home0/ball_ego_pos'], named['away1/ball_ego_linvel']])
record('ego_other', named['home1/head_body_opponent_0_end_effector'])
walker = env.task.players[0].walker
record('walker_attributes', [walker.ball_ego_pos_sensor.full_identifier,
                             sorted(walker.obs_on_other),
                             [s.full_identifier for s in walker.obs_on_other['teammate_0_ego_orientation']]])
record('ball_root', [env.task.ball.root_body.tag, env.task.ball.root_body.full_identifier])
for i, observation in enumerate(timestep.observation):
    for key in sorted(observation):
        record(f'reset/{i}/{key}', observation[key])
"""


@pytest.mark.dm_control_api(
    "locomotion.walkers.cmu_humanoid.CMUHumanoid",
    "locomotion.walkers.cmu_humanoid.CMUHumanoidPositionControlledV2020",
    "locomotion.walkers.ant.Ant",
    "locomotion.walkers.jumping_ball.JumpingBallWithHead",
    "locomotion.walkers.jumping_ball.RollingBallWithHead",
    "locomotion.walkers.rodent.Rat",
    "locomotion.soccer.boxhead.BoxHead",
)
def test_walkers_carry_dm_controls_sensors(differential):
    differential.assert_same(SENSORS, "walker_sensors")


@pytest.mark.dm_control_api(
    "locomotion.walkers.legacy_base.Walker.after_substep",
    "composer.Entity.set_velocity",
    "composer.Entity.set_pose",
)
def test_subtree_velocity_is_refreshed_after_every_substep(differential):
    differential.assert_same(FALLING, "walker_subtree", rtol=1e-7, atol=1e-9)


@pytest.mark.dm_control_api(
    "locomotion.walkers.jumping_ball.JumpingBallWithHead.set_velocity",
    "composer.Entity.get_velocity",
    "composer.Entity.get_pose",
)
def test_balls_set_their_free_joints_velocity(differential):
    differential.assert_same(BALLS, "walker_balls")


@pytest.mark.dm_control_api(
    "locomotion.soccer.load",
    "locomotion.soccer.soccer_ball.SoccerBall.root_body",
    "locomotion.soccer.pitch.Pitch",
)
def test_soccer_egocentric_sensors_have_dm_controls_names(differential):
    differential.assert_same(SOCCER, "soccer_sensors", rtol=1e-6, atol=1e-9)
