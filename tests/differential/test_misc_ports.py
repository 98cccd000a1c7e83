"""dm_control modules ported for issue 32, run against dm-control 1.0.50: mjcf's
commit_defaults and class handles, references to unnamed elements, mujoco.math,
the mujoco_profiling wrapper and rl.control's physics-task Environment."""

import pytest

COMMIT_DEFAULTS = """
from dm_control import mjcf

model = mjcf.RootElement(model="m")
model.default.geom.type = "box"
model.default.geom.pos = [0, 1, 0]
top = model.default.add("default", dclass="top")
top.geom.size = [0.5, 0.2, 0.1]
sub = top.add("default", dclass="sub")
sub.geom.rgba = [1, 0, 0, 1]
body = model.worldbody.add("body", name="b", childclass=sub)
record("childclass_is_handle", body.childclass is not None and not isinstance(body.childclass, str))
# (dm_control's commit_defaults needs a class handle: a class name raises AttributeError.)
own = model.worldbody.add("geom", name="own", dclass=top, pos=[1, 1, 1])
mjcf.commit_defaults(own)
record("own_keys", sorted(own.get_attributes()))
record("own_pos", own.pos)
record("own_size", own.size)
inherited = body.add("geom", name="inherited")
mjcf.commit_defaults(inherited, attributes=["rgba", "size"])
record("inherited_keys", sorted(inherited.get_attributes()))
record("inherited_rgba", inherited.rgba)
by_handle = body.add("geom", name="by_handle", dclass=top)
record("dclass_is_handle", not isinstance(by_handle.dclass, str))
mjcf.commit_defaults(by_handle)
record("by_handle_keys", sorted(by_handle.get_attributes()))
physics = mjcf.Physics.from_mjcf_model(model)
record("geom_size", physics.named.model.geom_size)
record("geom_rgba", physics.named.model.geom_rgba)
"""

UNNAMED_REFERENCE = """
from dm_control import mjcf

model = mjcf.RootElement(model="m")
body = model.worldbody.add("body", name="b")
body.add("geom", size=[0.1])
joint = body.add("joint", axis=[1, 0, 0])
motor = model.actuator.add("motor", joint=joint, gear=[2])
record("joint_name", joint.name)
record("joint_attributes", sorted(joint.get_attributes()))
record("motor_keys", sorted(motor.get_attributes()))
physics = mjcf.Physics.from_mjcf_model(model)
record("actuator_trnid", physics.model.actuator_trnid[:, 0])
record("qposadr", physics.bind(joint).qposadr)
record("gear", physics.bind(motor).gear[0])
"""

ACTUATOR_DEFAULTS = """
from dm_control import mjcf

model = mjcf.RootElement(model="m")
model.default.general.forcelimited = "true"
model.default.motor.forcerange = [-2, 3]
model.default.position.kp = 0.1
model.default.velocity.kv = 0.2
record("position_kp", model.default.position.kp)
record("velocity_kv", model.default.velocity.kv)
record("motor_defaults", sorted(model.default.motor.get_attributes()))
body = model.worldbody.add("body", name="b")
body.add("geom", size=[0.1])
joint = body.add("joint", name="j")
position = model.actuator.add("position", name="p", joint=joint)
mjcf.commit_defaults(position)
record("position_attributes", sorted(position.get_attributes()))
record("position_committed", [position.kp, position.kv])
"""

MATH = """
from dm_control.mujoco import math as mjmath

record("prod", mjmath.mj_quatprod([0.5, 0.5, 0.5, 0.5], [0.0, 0.6, 0.8, 0.0]))
record("neg", mjmath.mj_quatneg([0.5, -0.5, 0.5, 0.5]))
record("diff", mjmath.mj_quatdiff([0.5, 0.5, 0.5, 0.5], [0.0, 0.6, 0.8, 0.0]))
record("vel", mjmath.mj_quat2vel([0.9, 0.1, 0.3, 0.2], 0.05))
record("euler", mjmath.euler2quat(10.0, -35.0, 120.0))
"""

PROFILING = """
import numpy as np
from dm_control.suite import cartpole
from dm_control.suite.wrappers import mujoco_profiling

env = mujoco_profiling.Wrapper(cartpole.swingup(random=3), observation_key="timing")
record("spec_keys", list(env.observation_spec()))
record("spec_shape", env.observation_spec()["timing"].shape)
time_step = env.reset()
record("reset_count", time_step.observation["timing"][1])
for _ in range(4):
    time_step = env.step(np.zeros(1))
record("step_count", time_step.observation["timing"][1])
record("positive_duration", bool(time_step.observation["timing"][0] > 0))
"""

CONTROL = """
import collections
import numpy as np
from dm_env import specs
from dm_control import mujoco
from dm_control.rl import control

XML = '''
<mujoco>
  <option timestep="0.01"/>
  <worldbody>
    <body name="cart">
      <joint name="slide" type="slide" axis="1 0 0"/>
      <geom type="box" size="0.1 0.1 0.1" mass="1"/>
    </body>
  </worldbody>
  <actuator><motor joint="slide"/></actuator>
</mujoco>
'''


class Push(control.Task):
    def initialize_episode(self, physics):
        physics.data.qpos[:] = 0.1

    def before_step(self, action, physics):
        physics.set_control(action)

    def action_spec(self, physics):
        return specs.BoundedArray((1,), float, -1.0, 1.0)

    def get_observation(self, physics):
        return collections.OrderedDict(x=physics.data.qpos.copy(), v=physics.data.qvel.copy())

    def get_reward(self, physics):
        return float(physics.data.qpos[0])

    def get_termination(self, physics):
        return 0.5 if physics.data.qpos[0] > 0.12 else None


physics = mujoco.Physics.from_xml_string(XML)
env = control.Environment(physics, Push(), time_limit=0.2, control_timestep=0.02,
                          flat_observation=True)
record("control_timestep", env.control_timestep())
record("spec", {k: (v.shape, str(v.dtype)) for k, v in env.observation_spec().items()})
time_step = env.reset()
steps = []
while not time_step.last():
    time_step = env.step([1.0])
    steps.append((int(time_step.step_type), time_step.reward, time_step.discount))
record("steps", steps)
record("last_observation", time_step.observation["observations"])
record("time", physics.data.time)
record("after_last_is_first", env.step([1.0]).first())
"""


@pytest.mark.dm_control_api("mjcf.commit_defaults", "mjcf.Element.get_attributes")
def test_commit_defaults_and_class_handles_as_in_dm_control(differential):
    differential.assert_same(COMMIT_DEFAULTS, "commit_defaults")


@pytest.mark.dm_control_api("mjcf.commit_defaults")
def test_actuator_defaults_are_kept_per_tag_as_in_dm_control(differential):
    differential.assert_same(ACTUATOR_DEFAULTS, "actuator_defaults")


@pytest.mark.dm_control_api("mjcf.Element.add")
def test_a_reference_to_an_unnamed_element_as_in_dm_control(differential):
    differential.assert_same(UNNAMED_REFERENCE, "unnamed_reference")


def test_mujoco_math_as_in_dm_control(differential):
    differential.assert_same(MATH, "mujoco_math")


@pytest.mark.dm_control_api(
    "suite.wrappers.mujoco_profiling.Wrapper",
    "suite.wrappers.mujoco_profiling.Wrapper.observation_spec",
    "suite.wrappers.mujoco_profiling.Wrapper.reset",
    "suite.wrappers.mujoco_profiling.Wrapper.step",
)
def test_mujoco_profiling_as_in_dm_control(differential):
    differential.assert_same(PROFILING, "mujoco_profiling")


def test_the_physics_task_control_loop_as_in_dm_control(differential):
    differential.assert_same(CONTROL, "control_loop")
