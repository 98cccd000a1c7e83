"""The exceptions a dm_control program catches, raised here by the same mistakes: the
class dm_control raises (or a subclass of it), so that `except` clauses carry over."""

import pytest

PROGRAM = """
import numpy as np
from dm_control import composer, mjcf, suite

def caught(key, function, *classes):
    try:
        function()
    except Exception as error:
        record(key, [isinstance(error, cls) for cls in classes])
        return
    record(key, 'no error')

class Box(composer.Entity):
    def _build(self):
        self._model = mjcf.RootElement(model='box')
        body = self._model.worldbody.add('body', name='b')
        self.joint = body.add('joint', name='j', type='slide', axis=[1, 0, 0])
        body.add('geom', name='g', type='box', size=[0.1] * 3, mass=1)
    @property
    def mjcf_model(self):
        return self._model

class Task(composer.Task):
    def __init__(self):
        self._root = composer.Arena()
        self.box = Box()
        self._root.attach(self.box)
    @property
    def root_entity(self):
        return self._root
    def get_reward(self, physics):
        return 0.0

task = Task()
caught('timesteps_not_multiple', lambda: task.set_timesteps(control_timestep=0.01,
                                                            physics_timestep=0.003), ValueError)
caught('attach_twice', lambda: task.root_entity.attach(task.box), ValueError)
model = mjcf.RootElement()
caught('unknown_attribute', lambda: model.worldbody.add('body', nosuch=1), AttributeError)
caught('unknown_tag', lambda: model.worldbody.add('nosuchtag'), AttributeError, ValueError)
caught('bad_value', lambda: model.worldbody.add('geom', size='abc'), ValueError)
caught('bad_enum', lambda: model.worldbody.add('geom', type='blob'), ValueError)
model.worldbody.add('body', name='dup')
caught('duplicate_name', lambda: model.worldbody.add('body', name='dup'), ValueError)
caught('find_namespace', lambda: model.find('nosuch', 'x'), ValueError)
caught('xml_malformed', lambda: mjcf.from_xml_string(
    "<mujoco><worldbody><body name='a'></worldbody></mujoco>"), SyntaxError)
caught('xml_unknown_attribute', lambda: mjcf.from_xml_string(
    "<mujoco><worldbody><body foo='1'/></worldbody></mujoco>"), AttributeError)
caught('xml_unknown_element', lambda: mjcf.from_xml_string(
    "<mujoco><worldbody><nosuch/></worldbody></mujoco>"), KeyError)
caught('xml_bad_value', lambda: mjcf.from_xml_string(
    "<mujoco><worldbody><geom size='a'/></worldbody></mujoco>"), ValueError)
env = suite.load('cartpole', 'balance', task_kwargs={'random': 0})
env.reset()
physics = env.physics
caught('named_missing', lambda: physics.named.data.qpos['nosuch'], KeyError)
caught('named_shape', lambda: physics.named.data.qpos.__setitem__('slider', [1, 2]), ValueError)
caught('suite_domain', lambda: suite.load('nosuch', 'balance'), ValueError)
caught('suite_task', lambda: suite.load('cartpole', 'nosuch'), ValueError)
caught('suite_task_kwarg', lambda: suite.load('cartpole', 'balance', task_kwargs={'nosuch': 1}),
       TypeError)
caught('render_camera', lambda: physics.render(camera_id=99), ValueError)
environment = composer.Environment(Task(), random_state=0)
environment.reset()
other = mjcf.RootElement()
foreign = other.worldbody.add('body', name='zz')
caught('bind_foreign', lambda: environment.physics.bind(foreign).xpos, KeyError)
caught('bind_attribute', lambda: environment.physics.bind(environment.task.box.joint).nosuch,
       AttributeError)
linked = mjcf.RootElement()
for name, height in (('a', 1.0), ('b', 2.0)):
    body = linked.worldbody.add('body', name=name, pos=[0, 0, height])
    body.add('freejoint')
    body.add('geom', size=[0.1])
linked.equality.add('connect', body1='a', body2='b')
caught('connect_without_anchor', lambda: mjcf.Physics.from_mjcf_model(linked), ValueError)
linked.equality.connect[0].anchor = [0, 0, 0.5]
record('connect_anchor', mjcf.Physics.from_mjcf_model(linked).model.eq_data[0][:3])
record('hasattr_binding', hasattr(environment.physics.bind(environment.task.box.joint), 'nosuch'))
"""


@pytest.mark.dm_control_api(
    "mjcf.Physics.bind",
    "composer.Entity.attach",
    "suite.load",
    "mjcf.from_xml_string",
    "mjcf.Physics.from_mjcf_model",
)
def test_mistakes_raise_the_exceptions_dm_control_raises(differential):
    differential.assert_same(PROGRAM, "error_types")
