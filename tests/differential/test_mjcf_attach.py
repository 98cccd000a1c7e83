"""PyMJCF attachment against dm_control's: names and prefixes, `find` and `find_all`
through namespaces, `namescope`, frames at sites, free joints, `detach`, `remove`,
renaming of same-name models, merging of compiler settings, MJCF text and export."""

import pytest

# A creature of three legs attached at rotated sites, on an arena.
TREE = """
import numpy as np
from dm_control import mjcf

def leg(name):
    m = mjcf.RootElement(model=name)
    t = m.worldbody.add("body", name="thigh", pos=[0.1, 0, 0])
    hip = t.add("joint", name="hip", type="hinge", axis=[0, 0, 1])
    t.add("geom", name="thigh", type="capsule", fromto=[0, 0, 0, 0.2, 0, 0], size=[0.03])
    t.add("site", name="tip", pos=[0.2, 0, 0])
    m.actuator.add("motor", name="hip", joint=hip, gear=[2])
    m.sensor.add("jointpos", name="hip_pos", joint=hip)
    return m

creature = mjcf.RootElement(model="creature")
torso = creature.worldbody.add("body", name="torso")
torso.add("geom", name="torso", type="sphere", size=[0.2])
legs = []
for i in range(3):
    s = torso.add("site", name=f"hip{i}", pos=[0.2 * i, 0, 0], euler=[0, 0, 30 * i])
    l = leg(f"leg{i}")
    s.attach(l)
    legs.append(l)
arena = mjcf.RootElement(model="arena")
arena.worldbody.add("geom", name="floor", type="plane", size=[5, 5, 0.1])
frame = arena.attach(creature)
frame.add("freejoint")

record("joints", [j.full_identifier for j in arena.find_all("joint")])
record("bodies", [b.full_identifier for b in arena.find_all("body")])
record("geoms", [g.full_identifier for g in arena.find_all("geom")])
record("sites", sorted(s.full_identifier for s in arena.find_all("site")))
record("actuators", [a.full_identifier for a in arena.find_all("actuator")])
record("sensors", [a.full_identifier for a in arena.find_all("sensor")])
record("creature_joints", [j.full_identifier for j in creature.find_all("joint")])
record("creature_joints_excl", [j.full_identifier for j in creature.find_all("joint", exclude_attachments=True)])
record("torso_immediate_sites", [j.full_identifier for j in torso.find_all("site", immediate_children_only=True)])
record("leg1_hip_name", legs[1].find("joint", "hip").name)
record("leg1_hip_full", legs[1].find("joint", "hip").full_identifier)
record("via_creature", creature.find("joint", "leg1/hip").full_identifier)
record("via_arena", arena.find("joint", "creature/leg1/hip").full_identifier)
record("missing", arena.find("joint", "creature/leg1/nope"))
record("namescope_name", legs[1].namescope.name)
record("leg_parent_model", legs[1].parent_model.model)
record("leg_root_model", legs[1].root_model.model)
record("frame_full", mjcf.get_attachment_frame(legs[2]).full_identifier)
record("frame_pos", mjcf.get_attachment_frame(legs[2]).pos)
record("frame_euler", mjcf.get_attachment_frame(legs[2]).euler)
record("frame_quat", mjcf.get_attachment_frame(legs[2]).quat)
check("frame_attrs", lambda: sorted(mjcf.get_attachment_frame(legs[2]).get_attributes()))
record("freejoint", mjcf.get_frame_freejoint(creature).full_identifier)
check("freejoint_unattached", lambda: mjcf.get_frame_freejoint(arena))
record("enter_scope", arena.namescope.name)
check("find_default_ns", lambda: arena.find("default", "main"))
check("bad_namespace", lambda: arena.find("joints", "x"))
physics = mjcf.Physics.from_mjcf_model(arena)
record("nq", physics.model.nq)
record("nu", physics.model.nu)
record("site_xpos", physics.bind(legs[2].find("site", "tip")).xpos)
legs[1].detach()
check("detached_parent", lambda: legs[1].parent_model)
record("joints_after_detach", [j.full_identifier for j in arena.find_all("joint")])
physics = mjcf.Physics.from_mjcf_model(arena)
record("nu_after_detach", physics.model.nu)
check("detach_twice", lambda: legs[1].detach())
spare = torso.add("body", name="spare", pos=[0, 0, 0.5])
spare.add("geom", name="spare", size=[0.05])
spare.add("body", name="inner").add("geom", size=[0.01])
spare.remove()
check("removed_is_removed", lambda: spare.is_removed)
record("bodies_after_remove", [b.full_identifier for b in arena.find_all("body")])
record("nbody_after_remove", mjcf.Physics.from_mjcf_model(arena).model.nbody)
extra = leg("leg0")
s = torso.add("site", name="hip9", pos=[0, 0.3, 0])
s.attach(extra)
record("extra_model", extra.model)
record("extra_hip", extra.find("joint", "hip").full_identifier)
import mujoco
back = mujoco.MjModel.from_xml_string(arena.to_xml_string(), arena.get_assets())
record("xml_roundtrip_sizes", [back.nbody, back.njnt, back.ngeom, back.nsite, back.nu, back.nsensor])
"""

# A model in radians attached to one with no angle setting switches the whole
# model; conflicting settings raise; an unset child follows the root.
COMPILER = """
from dm_control import mjcf

def child(name, angle=None):
    c = mjcf.RootElement(model=name)
    if angle:
        c.compiler.angle = angle
    b = c.worldbody.add("body", name="b", euler=[0, 0, 1.0])
    b.add("joint", name="j", axis=[0, 0, 1], range=[-30, 30], limited=True)
    b.add("geom", size=[0.1])
    return c

def sizes(root):
    p = mjcf.Physics.from_mjcf_model(root)
    return [p.model.body_quat[1:].round(9).tolist(), p.model.jnt_range.round(9).tolist()]

parent = mjcf.RootElement(model="p")
parent.attach(child("rad", "radian"))
record("unset_parent_takes_radian", parent.compiler.angle)
check("unset_parent_sizes", sizes, parent)
parent.attach(child("deg_unset"))
check("later_unset_child_follows", sizes, parent)
check("conflict", lambda: parent.attach(child("deg", "degree")))

parent2 = mjcf.RootElement(model="p2")
parent2.compiler.angle = "radian"
parent2.attach(child("plain"))
check("radian_parent_unset_child", sizes, parent2)
record("radian_parent_angle", parent2.compiler.angle)

parent3 = mjcf.RootElement(model="p3")
parent3.compiler.angle = "degree"
check("explicit_degree_conflict", lambda: parent3.attach(child("rad", "radian")))
record("after_conflict_angle", parent3.compiler.angle)

parent4 = mjcf.RootElement(model="p4")
parent4.attach(child("same", "degree"))
record("degree_child_into_unset", parent4.compiler.angle)
check("degree_sizes", sizes, parent4)
"""

EXPORT = """
import os
import tempfile
import zipfile
import mujoco
from dm_control import mjcf

m = mjcf.RootElement(model="exported")
b = m.worldbody.add("body", name="b", pos=[0, 0, 1])
b.add("joint", name="j", axis=[0, 1, 0])
b.add("geom", name="g", type="box", size=[0.1, 0.1, 0.1])
m.actuator.add("motor", name="m", joint="j")
with tempfile.TemporaryDirectory() as folder:
    mjcf.export_with_assets(m, folder)
    record("files_default", sorted(os.listdir(folder)))
    loaded = mujoco.MjModel.from_xml_path(os.path.join(folder, "exported.xml"))
    record("loaded_sizes", [loaded.nbody, loaded.njnt, loaded.ngeom, loaded.nu])
    mjcf.export_with_assets(m, os.path.join(folder, "sub", "dir"), "named.xml")
    record("files_named", sorted(os.listdir(os.path.join(folder, "sub", "dir"))))
    check("bad_name", mjcf.export_with_assets, m, folder, "model.txt")
    path = mjcf.export_with_assets_as_zip(m, folder)
    record("zip_name", os.path.basename(path))
    with zipfile.ZipFile(path) as archive:
        record("zip_members", sorted(archive.namelist()))
    path = mjcf.export_with_assets_as_zip(m, folder, model_name="other")
    with zipfile.ZipFile(path) as archive:
        record("zip_members_named", sorted(archive.namelist()))
"""


@pytest.mark.dm_control_api(
    "mjcf.Element.attach",
    "mjcf.RootElement.attach",
    "mjcf.RootElement.detach",
    "mjcf.Element.find",
    "mjcf.Element.find_all",
    "mjcf.Element.remove",
    "mjcf.Element.full_identifier",
    "mjcf.Element.namescope",
    "mjcf.RootElement.parent_model",
    "mjcf.RootElement.root_model",
    "mjcf.RootElement.to_xml_string",
    "mjcf.RootElement.get_assets",
    "mjcf.get_attachment_frame",
    "mjcf.get_frame_freejoint",
    "mjcf.Physics.bind",
)
def test_attach_find_detach_and_remove(differential):
    differential.assert_same(TREE, "mjcf_attach_tree", rtol=1e-9, atol=1e-9)


@pytest.mark.dm_control_api("mjcf.Element.attach", "mjcf.RootElement.compiler")
def test_compiler_settings_merge_as_in_pymjcf(differential):
    differential.assert_same(COMPILER, "mjcf_attach_compiler", rtol=1e-9, atol=1e-9)


@pytest.mark.dm_control_api("mjcf.export_with_assets", "mjcf.export_with_assets_as_zip")
def test_export_with_assets(differential):
    differential.assert_same(EXPORT, "mjcf_export", rtol=0, atol=0)


# A parent that adds actuators and sensors after attaching models: PyMJCF compiles
# the parent's own section elements first, then each attached model's, in attach
# order; MjSpec's attach copies the child's elements into the parent's lists at
# the moment of attaching, so later additions of the parent come after them and
# the compiled order (action vector, sensordata) differs. Bodies and joints agree.
SECTION_ORDER = """
from dm_control import mjcf

def leg(name):
    m = mjcf.RootElement(model=name)
    b = m.worldbody.add("body", name="b")
    j = b.add("joint", name="j", type="hinge")
    b.add("geom", size=[0.1])
    m.actuator.add("motor", name="m", joint=j)
    m.sensor.add("jointpos", name="s", joint=j)
    return m

root = mjcf.RootElement(model="root")
body = root.worldbody.add("body", name="base")
slide = body.add("joint", name="jb", type="slide")
body.add("geom", size=[0.2])
root.actuator.add("motor", name="before", joint=slide)
body.add("site", name="mount").attach(leg("l1"))
root.actuator.add("position", name="after", joint=slide)
root.sensor.add("jointvel", name="s_after", joint=slide)
root.worldbody.attach(leg("l2"))
physics = mjcf.Physics.from_mjcf_model(root)
record("bodies", [physics.model.id2name(i, "body") for i in range(physics.model.nbody)])
record("joints", [physics.model.id2name(i, "joint") for i in range(physics.model.njnt)])
record("actuators", [physics.model.id2name(i, "actuator") for i in range(physics.model.nu)])
record("sensors", [physics.model.id2name(i, "sensor") for i in range(physics.model.nsensor)])
"""


@pytest.mark.xfail(
    strict=True,
    reason="mjcf: a parent's actuators and sensors added after an attach compile after "
    "the attached model's here (MjSpec's lists only append; moving an element would leave "
    "its handles dangling), before them in PyMJCF; a SectionOrderWarning names them and "
    "find_all lists them in PyMJCF's order (docs/mjcf.md, differences table)",
)
def test_section_order_after_attach_as_in_pymjcf(differential):
    differential.assert_same(SECTION_ORDER, "mjcf_attach_section_order")


DOCUMENT_ORDER = """
from dm_control import mjcf

def leg(name):
    model = mjcf.RootElement(model=name)
    body = model.worldbody.add('body', name='b')
    model.worldbody.add('geom', name='world_geom', size=[0.1])
    body.add('joint', name='j', type='hinge')
    body.add('geom', name='leg_geom', size=[0.1])
    model.actuator.add('motor', name='m', joint='j')
    model.sensor.add('jointpos', name='s', joint='j')
    return model

model = mjcf.RootElement(model='m')
body = model.worldbody.add('body', name='b')
body.add('geom', name='first', type='sphere', size=[0.1])
site = body.add('site', name='s1')
body.add('geom', name='second', type='sphere', size=[0.1])
inner = body.add('body', name='inner')
inner.add('geom', name='inner_geom', type='sphere', size=[0.1])
body.add('geom', name='third', type='sphere', size=[0.1])
joint = body.add('joint', name='late', type='slide')
other = body.add('site', name='s2')
other.attach(leg('at_s2'))
first_frame = site.attach(leg('at_s1'))
frame = site.attach(leg('also_at_s1'))
frame.add('joint', name='frame_hinge', type='hinge')
model.actuator.add('motor', name='own_before', joint=joint)
model.worldbody.add('geom', name='world_geom', type='plane', size=[1, 1, 0.1])
model.attach(leg('at_world'))
model.worldbody.add('geom', name='last', type='plane', size=[1, 1, 0.1])
model.actuator.add('position', name='own_after', joint=joint)
model.sensor.add('jointvel', name='own_sensor', joint=joint)
model.contact.add('exclude', name='x', body1=body, body2=inner)
model.contact.add('pair', name='p', geom1='first', geom2='second')
model.custom.add('text', name='t', data='x')
model.custom.add('numeric', name='n', data=[1])
for kind in ('body', 'geom', 'joint', 'site', 'actuator', 'sensor'):
    record('find_all ' + kind, [e.full_identifier for e in model.find_all(kind)])
    record('immediate ' + kind,
           [e.full_identifier for e in body.find_all(kind, immediate_children_only=True)])
    record('own ' + kind,
           [e.full_identifier for e in model.find_all(kind, exclude_attachments=True)])
    record('at_s1 ' + kind,
           [e.full_identifier for e in first_frame.find_all(kind)])
record('body children', [(e.tag, e.full_identifier) for e in body.all_children()])
record('frame children', [(e.tag, e.full_identifier) for e in frame.all_children()])
record('world children', [(e.tag, e.full_identifier) for e in model.worldbody.all_children()])
for section in ('actuator', 'sensor', 'contact', 'custom'):
    record(section, [(e.tag, e.name) for e in getattr(model, section).all_children()])
"""


@pytest.mark.dm_control_api(
    "mjcf.RootElement.find_all", "mjcf.Element.find_all", "mjcf.Element.all_children"
)
def test_find_all_and_all_children_follow_the_document_order(differential):
    differential.assert_same(DOCUMENT_ORDER, "mjcf_document_order")


DEFAULTS_AFTER_ATTACH = """
from dm_control import mjcf

def child(name):
    model = mjcf.RootElement(model=name)
    first = model.default.add('default', dclass='a')
    first.geom.rgba = [1, 0, 0, 1]
    inner = first.add('default', dclass='b')
    inner.geom.size = [0.2]
    model.default.add('default', dclass='z')
    model.worldbody.add('body', name='b').add('geom', name='g', dclass='b')
    return model, first

def listed(model):
    return [(cls.dclass, cls.full_identifier) for cls in model.default.default]

parsed = mjcf.from_xml_string(
    '<mujoco model="parsed"><default><default class="p"><geom rgba="0 1 0 1"/>'
    '<default class="q"/></default></default>'
    '<worldbody><geom name="pg" class="q" size="0.1"/></worldbody></mujoco>')
root = mjcf.RootElement(model='r')
root.default.add('default', dclass='own')
model, first = child('c')
record('before', listed(model))
root.attach(model)
root.attach(parsed)
deeper, _ = child('d')
model.attach(deeper)
record('child', listed(model))
record('nested', [(cls.dclass, cls.full_identifier) for cls in first.default])
record('root', listed(root))
record('parsed', listed(parsed))
record('found', model.find('default', 'b').full_identifier)
late = first.add('default', dclass='late')
record('late', [(cls.dclass, cls.full_identifier) for cls in first.default])
# A class handle made before the attach sets the attached model's class.
first.geom.rgba = [0, 0, 1, 1]
model.worldbody.add('geom', name='added', dclass='a', size=[0.1])
physics = mjcf.Physics.from_mjcf_model(root)
record('size', physics.named.model.geom_size['c/g'])
record('rgba', [physics.named.model.geom_rgba[name] for name in ('c/g', 'c/added')])
"""


@pytest.mark.dm_control_api("mjcf.RootElement.default", "mjcf.RootElement.attach")
def test_default_classes_of_attached_models_as_in_pymjcf(differential):
    differential.assert_same(DEFAULTS_AFTER_ATTACH, "mjcf_defaults_after_attach")


STATISTIC_MERGE_PROGRAM = """
from dm_control import mjcf

arena = mjcf.RootElement(model="arena")
arena.worldbody.add("geom", type="plane", size=[1, 1, 1])
creature = mjcf.RootElement(model="creature")
creature.statistic.meansize = 0.003
creature.statistic.extent = 2
creature.worldbody.add("geom", type="sphere", size=[0.1])
arena.attach(creature)
physics = mjcf.Physics.from_mjcf_model(arena)
record("merged", [physics.model.stat.meansize, physics.model.stat.extent])
other = mjcf.RootElement(model="other")
other.statistic.meansize = 0.5
check("conflict", arena.attach, other)
"""


@pytest.mark.dm_control_api("mjcf.RootElement.attach")
def test_an_attached_models_statistic_merges_as_in_pymjcf(differential):
    # The rat's <statistic meansize="0.003"/> reaches the arena's model, as there; two
    # models setting different values conflict.
    differential.assert_same(STATISTIC_MERGE_PROGRAM, "mjcf_statistic_merge")
