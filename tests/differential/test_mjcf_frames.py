"""Attachment frames as a user meets them, against dm_control: the frame and its
joints (free, named, unnamed) printed, found and bound; `get_attachment_frame`,
`get_frame_freejoint`, `get_frame_joints`; nested attachments; the compiled names,
`physics.named` rows and a short rollout; renaming an attached model."""

import pytest

PROGRAM = r"""
import numpy as np
from dm_control import mjcf

def leg(name):
    m = mjcf.RootElement(model=name)
    m.worldbody.add('geom', name='hub', type='sphere', size=[0.03])
    b = m.worldbody.add('body', name='thigh')
    b.add('joint', name='hip', axis=[0, 0, 1], range=[-1, 1])
    b.add('geom', name='g', type='capsule', fromto=[0, 0, 0, 0.2, 0, 0], size=[0.02])
    m.actuator.add('position', name='a', joint='hip', kp=5)
    return m

arena = mjcf.RootElement(model='arena')
arena.worldbody.add('geom', name='floor', type='plane', size=[2, 2, 0.1])
l1 = leg('l1'); l2 = leg('l2'); l3 = leg('l3')
f1 = arena.attach(l1); f1.add('freejoint'); f1.pos = [0, 0, 0.5]
f2 = arena.worldbody.add('site', name='s2', pos=[1, 0, 0.5]).attach(l2)
f2.add('joint', name='slide', type='slide', axis=[1, 0, 0])
f2.add('joint', type='hinge', axis=[0, 1, 0])
l2.worldbody.add('site', name='s3').attach(l3)
record('frame1', [f1.full_identifier, repr(f1), f1.tag])
check('frame1_name', lambda: f1.name)
record('get_frame', mjcf.get_attachment_frame(l2).full_identifier)
check('freejoint_of_frame', mjcf.get_frame_freejoint, f1)
record('freejoint', repr(mjcf.get_frame_freejoint(l1)))
record('freejoint2', mjcf.get_frame_freejoint(l2))
record('frame_joints', [repr(j) for j in mjcf.get_frame_joints(l2)])
record('frame_joints1', [repr(j) for j in mjcf.get_frame_joints(l1)])
record('frame_joints3', mjcf.get_frame_joints(l3))
record('find_frame', [repr(arena.find('attachment_frame', 'l1')), repr(arena.find('attachment_frame', 'l2/l3'))])
record('find_all_joints', [j.full_identifier for j in arena.find_all('joint')])
record('find_all_joints_noatt', [j.full_identifier for j in arena.find_all('joint', exclude_attachments=True)])
record('find_all_bodies', [b.full_identifier for b in arena.find_all('body')])
record('worldbody_children', [repr(c) for c in arena.worldbody.all_children()])
record('frame_children', [repr(c) for c in f2.all_children()])
record('parent_model', [l3.parent_model.model, l3.root_model.model, repr(l3.root)])
physics = mjcf.Physics.from_mjcf_model(arena)
record('qpos_names', list(physics.named.data.qpos.axes.row.names))
record('jnt_names', [physics.model.id2name(i, 'joint') for i in range(physics.model.njnt)])
record('body_names', [physics.model.id2name(i, 'body') for i in range(physics.model.nbody)])
record('bind_frame', physics.bind(f1).xpos)
record('bind_free', physics.bind(mjcf.get_frame_freejoint(l1)).qpos)
record('bind_frame_joints', physics.bind(mjcf.get_frame_joints(l2)).qpos)
record('qpos_free', physics.named.data.qpos['l1/'])
record('qpos_slide', physics.named.data.qpos['l2/slide/'])
record('ctrl_names', list(physics.named.data.ctrl.axes.row.names))
physics.bind(arena.find_all('actuator')).ctrl = [0.3, -0.2, 0.1]
physics.step(20)
record('qpos', physics.data.qpos)
record('site_xpos', physics.named.data.site_xpos)
record('is_same', [l1.is_same_as(l2)])
l3.model = 'renamed'
record('renamed', [j.full_identifier for j in arena.find_all('joint')])
record('text', arena.to_xml_string())
"""


@pytest.mark.dm_control_api(
    "mjcf.get_attachment_frame",
    "mjcf.get_frame_freejoint",
    "mjcf.get_frame_joints",
    "mjcf.RootElement.attach",
    "mjcf.Element.attach",
    "mjcf.Element.all_children",
    "mjcf.RootElement.find",
    "mjcf.RootElement.find_all",
    "mjcf.Physics.bind",
)
def test_attachment_frames_match_dm_control(differential):
    differential.assert_same(PROGRAM, "frames", rtol=1e-9, atol=1e-12)


SETTINGS = r"""
from dm_control import mjcf
root = mjcf.RootElement(model='root')
child = mjcf.RootElement(model='child')
child.option.timestep = 0.004
root.attach(child)
child.option.timestep = 0.005
child.compiler.angle = 'radian'
child.visual.quality.shadowsize = 2048
child.option.flag.gravity = 'disable'
child.size.njmax = 300
record('root', [root.option.timestep, root.compiler.angle, root.visual.quality.shadowsize,
                root.option.flag.gravity, root.size.njmax])
record('child', [child.option.timestep, child.compiler.angle, child.option.flag.gravity,
                 dict(child.option.get_attributes())])
record('text', root.to_xml_string())
physics = mjcf.Physics.from_mjcf_model(root)
record('compiled', [physics.model.opt.timestep, int(physics.model.opt.disableflags)])
"""


@pytest.mark.dm_control_api("mjcf.RootElement.option", "mjcf.RootElement.compiler")
def test_an_attached_models_settings_are_the_roots(differential):
    differential.assert_same(SETTINGS, "attached_settings")
