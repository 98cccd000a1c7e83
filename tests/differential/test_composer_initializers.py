"""composer.initializers against dm_control's: PropPlacer with its options over
several episodes (poses, the random draws, settling, rejection failures and the
Environment's retries of EpisodeInitializationError), and the module's names."""

import pytest

PROGRAM = """
import numpy as np
from dm_control import composer, mjcf
from dm_control.composer import initializers
from dm_control.composer.variation import distributions, rotations

class Prop(composer.Entity):
    def _build(self, name, size):
        self._model = mjcf.RootElement(model=name)
        body = self._model.worldbody.add('body', name='body')
        body.add('geom', name='geom', type='box', size=[size] * 3, mass=0.5)
    @property
    def mjcf_model(self):
        return self._model

class Floor(composer.Arena):
    def _build(self):
        super()._build(name='floor')
        self.mjcf_model.worldbody.add('geom', name='ground', type='plane', size=[2, 2, 0.1])

class Task(composer.Task):
    def __init__(self, **placer_options):
        self._arena = Floor()
        self._props = [Prop(f'prop{i}', 0.05 + 0.02 * i) for i in range(3)]
        for prop in self._props:
            self._arena.add_free_entity(prop)
        self._placer = initializers.PropPlacer(self._props, **placer_options)
        self.attempts = 0
    @property
    def root_entity(self):
        return self._arena
    def initialize_episode(self, physics, random_state):
        self.attempts += 1
        self._placer(physics, random_state)
    def get_reward(self, physics):
        return 0.0

def run(label, episodes=3, **options):
    task = Task(**options)
    env = composer.Environment(task, random_state=5, max_reset_attempts=3)
    for episode in range(episodes):
        try:
            env.reset()
        except composer.EpisodeInitializationError as error:
            record(f'{label}/{episode}/error', type(error).__name__)
            record(f'{label}/{episode}/attempts', task.attempts)
            continue
        physics = env.physics
        record(f'{label}/{episode}/poses', [np.concatenate(prop.get_pose(physics)) for prop in task._props])
        record(f'{label}/{episode}/time', physics.data.time)
        record(f'{label}/{episode}/next', env.random_state.uniform())

box = distributions.Uniform([-0.5, -0.5, 0.1], [0.5, 0.5, 0.5])
run('plain', position=box)
run('rotated', position=box, quaternion=rotations.UniformQuaternion())
run('ignore_collisions', position=distributions.Uniform([-0.01, -0.01, 0.1], [0.01, 0.01, 0.2]), ignore_collisions=True)
run('crowded', episodes=1, position=distributions.Uniform([-0.01, -0.01, 0.1], [0.01, 0.01, 0.11]), max_attempts_per_prop=2)
run('settle', position=box, settle_physics=True, max_settle_physics_time=0.5)
run('settle_min', position=box, settle_physics=True, min_settle_physics_time=0.1, max_settle_physics_time=1.0)
run('settle_raise', episodes=1, position=box, settle_physics=True, max_settle_physics_time=0.01, raise_exception_on_settle_failure=True)
floor = Floor()
loose = Prop('p', 0.1)
floor.add_free_entity(loose)
check('bad_settle_attempts', initializers.PropPlacer, [loose], position=[0, 0, 0], max_settle_physics_attempts=0)
record('names', sorted(n for n in dir(initializers) if not n.startswith('_') and n in ('PropPlacer', 'ToolCenterPointInitializer', 'prop_initializer', 'tcp_initializer', 'utils')))
record('is_initializer', isinstance(initializers.PropPlacer([loose], position=[0, 0, 0]), composer.Initializer))
"""

ISOLATOR = """
import numpy as np
from dm_control import mjcf
from dm_control.composer.initializers import utils

model = mjcf.RootElement(model='chain')
body = model.worldbody.add('body', name='upper')
hinge = body.add('joint', name='hinge', type='hinge', axis=[0, 1, 0])
slide = body.add('joint', name='slide', type='slide', axis=[1, 0, 0])
body.add('geom', size=[0.1])
other = model.worldbody.add('body', name='other', pos=[1, 0, 0])
other.add('freejoint', name='free')
other.add('geom', size=[0.1])
physics = mjcf.Physics.from_mjcf_model(model)
physics.bind([hinge, slide]).qpos = [0.3, 0.2]
physics.named.data.qpos['free'] = [1, 0, 0.5, 1, 0, 0, 0]
isolator = utils.JointStaticIsolator(physics, [slide])
with isolator:
    physics.bind([hinge, slide]).qpos = [0.9, 0.7]
    physics.named.data.qpos['free'] = [2, 2, 2, 1, 0, 0, 0]
    physics.named.data.qvel['free'] = np.ones(6)
record('after', np.array(physics.data.qpos))
record('after_qvel', np.array(physics.data.qvel))
with utils.JointStaticIsolator(physics, hinge):
    physics.bind(hinge).qpos = 1.5
    physics.bind(slide).qpos = -0.5
record('single', np.array(physics.data.qpos))
second = mjcf.RootElement(model='second')
second_joint = second.worldbody.add('body').add('joint', name='j')
check('two_models', utils.JointStaticIsolator, physics, [hinge, second_joint])
"""


@pytest.mark.dm_control_api("composer.initializers.utils.JointStaticIsolator")
def test_joint_static_isolator_matches_dm_control(differential):
    differential.assert_same(ISOLATOR, "composer_joint_static_isolator")


@pytest.mark.dm_control_api(
    "composer.initializers.PropPlacer",
    "composer.Initializer",
    "composer.EpisodeInitializationError",
    "composer.Environment.reset",
    "composer.Arena.add_free_entity",
    "composer.Entity.get_pose",
)
def test_prop_placer_matches_dm_control(differential):
    differential.assert_same(PROGRAM, "composer_initializers", rtol=1e-9, atol=1e-12)


# The arm's inverse kinematics under ToolCenterPointInitializer: where each attempt
# starts (the current angles, then random ones), how many joint draws a failed
# sample takes (one after every failed attempt, the last included), and the angles
# of a solution, all as dm_control's `RobotArm.set_site_to_xpos`. The targets are
# hard enough that most attempts fail; collisions are ignored, since the arms'
# geometry differs (primitives here, meshes there).
TCP_IK = """
import numpy as np
from dm_control import composer, mjcf
from dm_control.composer import initializers
from dm_control.entities.manipulators import kinova
from dm_control.manipulation.shared import arenas

arena = arenas.Standard()
arm = kinova.JacoArm()
hand = kinova.JacoHand()
arm.attach(hand)
arena.attach_offset(arm, offset=(0, 0, 0))
physics = mjcf.Physics.from_mjcf_model(arena.mjcf_model)
for target in ([0.05, -0.02, 0.25], [-0.0556, 0.07415, 0.22067], [0.05318, 0.00368, 0.22968]):
    for attempts in (1, 2, 5):
        physics.reset()
        random_state = np.random.RandomState(5)
        initializer = initializers.ToolCenterPointInitializer(
            hand=hand, arm=arm, position=np.array(target), quaternion=np.array([0.0, 1, 0, 0]),
            max_ik_attempts=attempts, max_rejection_samples=2, ignore_collisions=True)
        try:
            initializer(physics, random_state)
            record(f'{target}/{attempts}/placed', True)
        except composer.EpisodeInitializationError:
            record(f'{target}/{attempts}/placed', False)
        record(f'{target}/{attempts}/qpos', np.array(physics.bind(arm.joints).qpos))
        record(f'{target}/{attempts}/draws', random_state.get_state()[2])
"""


@pytest.mark.dm_control_api("composer.initializers.ToolCenterPointInitializer")
def test_tool_center_point_inverse_kinematics_matches_dm_control(differential):
    differential.assert_same(TCP_IK, "composer_tcp_ik", rtol=1e-7, atol=1e-9)
