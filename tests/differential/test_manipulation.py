"""Manipulation against dm_control: the environment list and tags, every
environment's observation and action specs, and the Jaco arm's and hand's handles,
attachment and tool centre point, and the Primitive prop's handles."""

import pytest

TASKS_PROGRAM = """
import numpy as np
from dm_control import manipulation

record("ALL", manipulation.ALL)
record("TAGS", manipulation.TAGS)
for tag in manipulation.TAGS:
    record(f"tag/{tag}", manipulation.get_environments_by_tag(tag))


def raises_key_error(function, *args):
    try:
        function(*args)
    except KeyError:
        return True
    return False


record("unknown_name", raises_key_error(manipulation.load, "nope"))
record("unknown_tag", raises_key_error(manipulation.get_environments_by_tag, "nope"))
for name in manipulation.ALL:
    env = manipulation.load(name, seed=0)
    spec = env.observation_spec()
    if name.endswith("_vision"):
        # Camera specs: names, shapes and dtypes (their bounds: docs/manipulation.md).
        record(f"{name}/observation_spec",
               {key: (value.shape, str(value.dtype)) for key, value in spec.items()})
    else:
        record(f"{name}/observation_spec", spec)
    record(f"{name}/action_spec", env.action_spec())
    record(f"{name}/control_timestep", env.control_timestep())
"""

ROBOT_PROGRAM = """
import numpy as np
from dm_control import composer, mjcf
from dm_control.entities.manipulators import kinova
from dm_control.entities.props import primitive

arm, hand = kinova.JacoArm(), kinova.JacoHand()
record("arm/joints", [joint.name for joint in arm.joints])
record("arm/actuators", [actuator.name for actuator in arm.actuators])
record("arm/attachment_site", arm.attachment_site.name)
record("hand/tool_center_point", hand.tool_center_point.name)
record("hand/pinch_tcp", kinova.JacoHand(use_pinch_site_as_tcp=True).tool_center_point.name)
record("hand/hand_geom", [geom.name for geom in hand.hand_geom])
record("hand/finger_geoms", [geom.name for geom in hand.finger_geoms])
arm.attach(hand)
physics = mjcf.Physics.from_mjcf_model(arm.mjcf_model)
physics.bind(arm.joints).qpos = [0.0, 3.5, 1.0, 4.7, 0.0, 1.6]
physics.forward()
record("wrist_xpos", physics.bind(arm.wrist_site).xpos)
record("tcp_xpos", physics.bind(hand.tool_center_point).xpos)
record("pinch_xpos", physics.bind(hand.pinch_site).xpos)
record("bind_joints_range", physics.bind(arm.joints).range.shape)
record("bind_geom_bodyid", np.shape(physics.bind(hand.hand_geom[0]).bodyid))

prop = primitive.Primitive("box", [0.02, 0.03, 0.04], name="box")
record("prop/geom", prop.geom.name)
record("prop/sensors", [prop.position.name, prop.orientation.name,
                        prop.linear_velocity.name, prop.angular_velocity.name])
record("prop/observables", sorted(prop.observables.as_dict()))
"""


@pytest.mark.dm_control_api(
    "manipulation.ALL",
    "manipulation.TAGS",
    "manipulation.get_environments_by_tag",
    "manipulation.load",
)
def test_manipulation_environments_have_dm_control_specs(differential):
    differential.assert_same(TASKS_PROGRAM, "manipulation_tasks", timeout_s=600)


# The Jaco robots and entities.props are outside the coverage table's surface
# (tests/differential/api_surface_dm.py); what they serve there is manipulation.load.
@pytest.mark.dm_control_api("manipulation.load")
def test_jaco_arm_hand_and_primitive_match_dm_control(differential):
    differential.assert_same(ROBOT_PROGRAM, "manipulation_robot", rtol=1e-6, atol=1e-6)
