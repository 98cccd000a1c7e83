"""A weld's `relpose`, `anchor` and `torquescale` through PyMJCF, and the
`ToolCenterPointInitializer` beside a free obstacle held by such a weld (the case of
dm_control's own tcp_initializer_test), against dm_control's."""

import pytest

WELD = """
import numpy as np
from dm_control import mjcf

root = mjcf.RootElement()
body = root.worldbody.add('body', name='a', pos=[0.2, 0.0, 0.1])
body.add('freejoint')
body.add('geom', type='sphere', size=[0.1])
plain = root.equality.add('weld', body1=body)
for name in ('relpose', 'anchor', 'torquescale'):
    record('unset_' + name, getattr(plain, name))
posed = root.equality.add('weld', body1=body, relpose=[0.1, 0.2, 0.3, 1, 0, 0, 0],
                          anchor=[0.5, 0, 0], torquescale=2.0)
for name in ('relpose', 'anchor', 'torquescale'):
    record(name, getattr(posed, name))
posed.relpose = [0.4, 0.0, 0.2, 1, 0, 0, 0]
record('relpose_edited', posed.relpose)
physics = mjcf.Physics.from_mjcf_model(root)
record('eq_data', physics.model.eq_data[:, :11])
physics.step(50)
record('held', physics.bind(body).xpos)
partial = root.equality.add('weld', body1=body, relpose=[0, 0, 1])
record('partial_relpose', partial.relpose[:3])
"""

TCP_FREE_OBSTACLE = """
import numpy as np
from dm_control import composer, mjcf
from dm_control.composer.initializers import tcp_initializer
from dm_control.entities import props
from dm_control.entities.manipulators import kinova

arm, hand, arena = kinova.JacoArm(), kinova.JacoHand(), composer.Arena()
arena.attach(arm)
arm.attach(hand)
target_pos, target_quat = np.array([0.1, 0.2, 0.3]), np.array([0.0, 1.0, 1.0, 0.0])
obstacle = props.Primitive(geom_type='sphere', size=[0.3], pos=target_pos)
frame = arena.add_free_entity(obstacle)
frame.pos = target_pos
arena.mjcf_model.equality.add('weld', body1=frame, relpose=np.hstack([target_pos, [1, 0, 0, 0]]))
physics = mjcf.Physics.from_mjcf_model(arena.mjcf_model)
initializer = tcp_initializer.ToolCenterPointInitializer(
    hand=hand, arm=arm, position=target_pos, quaternion=target_quat)
initializer(physics=physics, random_state=np.random.RandomState(0))
site = physics.bind(hand.tool_center_point)
record('tcp_xpos', site.xpos)
record('tcp_xmat', site.xmat)
record('obstacle_xpos', physics.bind(frame).xpos)
"""


def test_weld_pose_attributes_match_dm_control(differential):
    differential.assert_same(WELD, "weld_attributes", rtol=1e-9, atol=1e-9)


@pytest.mark.dm_control_api("composer.initializers.ToolCenterPointInitializer")
def test_tcp_initializer_beside_a_welded_free_obstacle_matches_dm_control(differential):
    # The pose reached is the target on both sides (IK to 1e-14 there, 1e-7 here:
    # the joint angles may differ, the site pose does not).
    differential.assert_same(TCP_FREE_OBSTACLE, "tcp_free_obstacle", rtol=0.0, atol=1e-6)
