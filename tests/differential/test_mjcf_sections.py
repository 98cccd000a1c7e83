"""The sections of <mujoco> that hold more than bodies and actuators, against
dm_control's PyMJCF: <tendon> (spatial tendons through sites, around geoms with a
side site and over pulleys, fixed tendons over joints, their attributes and default
class, actuators and sensors on them, attachment, parsing) and <custom> (numeric,
text and tuple data): what the handles read back, what the compiled model holds and
a short trajectory."""

import pytest

TENDONS = """
import numpy as np
from dm_control import mjcf

def ident(value):
    # A reference reads back as the element (a handle given) or the name (a name given).
    return getattr(value, 'name', value)

def arm(name):
    model = mjcf.RootElement(model=name)
    model.default.tendon.set_attributes(width=0.004, rgba=[0.2, 0.8, 0.2, 1], stiffness=[3.0])
    cls = model.default.add('default', dclass='stiff')
    cls.tendon.set_attributes(stiffness=[50.0], damping=[0.5])
    upper = model.worldbody.add('body', name='upper', pos=[0, 0, 1])
    shoulder = upper.add('joint', name='shoulder', type='hinge', axis=[0, 1, 0], damping=0.1)
    upper.add('geom', name='upper', type='capsule', fromto=[0, 0, 0, 0.3, 0, 0], size=[0.03])
    origin = upper.add('site', name='origin', pos=[0.05, 0, 0.05])
    lower = upper.add('body', name='lower', pos=[0.3, 0, 0])
    elbow = lower.add('joint', name='elbow', type='hinge', axis=[0, 1, 0], damping=0.1)
    lower.add('geom', name='lower', type='capsule', fromto=[0, 0, 0, 0.3, 0, 0], size=[0.025])
    insertion = lower.add('site', name='insertion', pos=[0.15, 0, 0.03])
    wrap_body = upper.add('body', name='pulley_body', pos=[0.3, 0, 0])
    cylinder = wrap_body.add('geom', name='wrap', type='cylinder', size=[0.04, 0.02],
                             xyaxes=[1, 0, 0, 0, 0, 1], contype=0, conaffinity=0)
    side = wrap_body.add('site', name='side', pos=[0, 0, 0.08])
    flexor = model.tendon.add('spatial', name='flexor', limited=True, range=[0.1, 0.6],
                              frictionloss=0.05, margin=0.01)
    flexor.add('site', site=origin)
    flexor.add('geom', geom=cylinder, sidesite='side')
    flexor.add('site', site='insertion')
    split = model.tendon.add('spatial', name='split', dclass='stiff', springlength=[0.35])
    split.add('site', site=origin)
    split.add('site', site=insertion)
    split.add('pulley', divisor=2)
    split.add('site', site=side)
    split.add('site', site=insertion)
    coupling = model.tendon.add('fixed', name='coupling', stiffness=[20.0])
    coupling.add('joint', joint=shoulder, coef=1.0)
    coupling.add('joint', joint='elbow', coef=-0.5)
    model.actuator.add('motor', name='pull', tendon=flexor, gear=[10.0], ctrlrange=[-1, 1])
    model.sensor.add('tendonpos', name='flexor_length', tendon='flexor')
    model.sensor.add('tendonvel', name='coupling_speed', tendon=coupling)
    return model

model = arm('arm')
flexor = model.find('tendon', 'flexor')
split = model.find('tendon', 'split')
coupling = model.find('tendon', 'coupling')
record('find_all', [t.full_identifier for t in model.find_all('tendon')])
record('tags', [t.tag for t in model.tendon.all_children()])
record('spatial', [t.name for t in model.tendon.spatial])
record('fixed', [t.name for t in model.tendon.fixed])
record('section_tag', model.tendon.tag)
record('parent', flexor.parent.tag)
record('flexor_attributes', flexor.get_attributes())
record('split_attributes', split.get_attributes())
record('coupling_attributes', coupling.get_attributes())
record('flexor_children', [c.tag for c in flexor.all_children()])
record('flexor_sites', [ident(c.site) for c in flexor.site])
record('flexor_geom', [[ident(c.geom), ident(c.sidesite)] for c in flexor.geom])
record('split_pulley', [c.divisor for c in split.pulley])
record('coupling_joints', [[ident(c.joint), c.coef] for c in coupling.joint])
record('child_parent', flexor.site[0].parent.name)
record('child_attributes', [c.get_attributes().keys() and sorted(c.get_attributes()) for c in flexor.all_children()])
record('actuator_tendon', ident(model.find('actuator', 'pull').tendon))
record('sensor_tendon', [ident(s.tendon) for s in model.sensor.all_children()])
record('default_tendon', model.default.tendon.get_attributes())
check('bad_child', flexor.add, 'joint', joint='shoulder')
check('bad_attribute', flexor.add, 'site', site=model.find('site', 'origin'), coef=2.0)
check('bad_kind', model.tendon.add, 'cable', name='c')
check('wrong_reference', coupling.add, 'joint', joint=model.find('site', 'origin'))

physics = mjcf.Physics.from_mjcf_model(model)
record('ntendon', physics.model.ntendon)
record('nwrap', physics.model.nwrap)
record('wrap_type', physics.model.wrap_type)
record('wrap_prm', physics.model.wrap_prm)
for name in ('flexor', 'split', 'coupling'):
    binding = physics.bind(model.find('tendon', name))
    for field in ('range', 'limited', 'stiffness', 'damping', 'frictionloss', 'margin',
                  'width', 'rgba', 'lengthspring', 'num', 'length', 'velocity'):
        check(f'{name}/{field}', lambda: np.array(getattr(binding, field)))
record('named_length', physics.named.data.ten_length)
for step in range(60):
    physics.bind(model.find('actuator', 'pull')).ctrl = 0.5 * np.sin(0.1 * step)
    physics.step()
    if step % 20 == 19:
        record(f'{step}/qpos', physics.data.qpos)
        record(f'{step}/ten_length', physics.data.ten_length)
        record(f'{step}/sensordata', physics.data.sensordata)

# Attached twice under a root: names carry the prefixes, the references follow.
root = mjcf.RootElement(model='root')
left, right = arm('left'), arm('right')
root.worldbody.attach(left)
root.worldbody.add('site', name='mount', pos=[0.5, 0, 0]).attach(right)
record('attached_find_all', [t.full_identifier for t in root.find_all('tendon')])
record('attached_find', root.find('tendon', 'right/coupling').full_identifier)
physics = mjcf.Physics.from_mjcf_model(root)
record('attached_names', [physics.model.id2name(i, 'tendon') for i in range(physics.model.ntendon)])
record('attached_length', physics.named.data.ten_length)

# Parsed from XML: kinds, attributes and references read as written.
parsed = mjcf.from_xml_string('''
<mujoco model="parsed">
  <default><tendon width="0.01"/></default>
  <worldbody>
    <site name="anchor" pos="0 0 1"/>
    <body name="bob" pos="0 0 0.5">
      <joint name="swing" type="hinge" axis="0 1 0"/>
      <joint name="slide" type="slide" axis="1 0 0"/>
      <geom type="sphere" size="0.05" mass="1"/>
      <site name="hook"/>
    </body>
  </worldbody>
  <tendon>
    <spatial name="rope" limited="true" range="0 0.6" stiffness="100">
      <site site="anchor"/>
      <site site="hook"/>
    </spatial>
    <fixed name="coupling" stiffness="5" springlength="0.1">
      <joint joint="swing" coef="1"/>
      <joint joint="slide" coef="0.5"/>
    </fixed>
  </tendon>
</mujoco>
''')
record('parsed_find_all', [[t.tag, t.name] for t in parsed.find_all('tendon')])
record('parsed_attributes', parsed.find('tendon', 'coupling').get_attributes())
record('parsed_paths', [[c.tag, sorted(c.get_attributes())] for t in parsed.find_all('tendon')
                        for c in t.all_children()])
record('parsed_targets', [ident(c.site) for c in parsed.find('tendon', 'rope').site]
       + [[ident(c.joint), c.coef] for c in parsed.find('tendon', 'coupling').joint])
copied = mjcf.RootElement(model='copied')
copied.include_copy(parsed)
record('parsed_copy_paths', [[t.name, [c.tag for c in t.all_children()]] for t in copied.find_all('tendon')])
physics = mjcf.Physics.from_mjcf_model(parsed)
record('parsed_length', physics.named.data.ten_length)

# Removing a tendon takes its actuator's and sensor's target with it at compile time.
model.find('tendon', 'split').remove()
record('removed_find_all', [t.full_identifier for t in model.find_all('tendon')])
physics = mjcf.Physics.from_mjcf_model(model)
record('removed_ntendon', physics.model.ntendon)
"""


@pytest.mark.dm_control_api(
    "mjcf.RootElement.tendon",
    "mjcf.RootElement.find",
    "mjcf.RootElement.find_all",
    "mjcf.Element.add",
    "mjcf.Element.all_children",
    "mjcf.Element.get_attributes",
    "mjcf.Element.remove",
    "mjcf.Physics.bind",
)
def test_tendon_section_matches_dm_control(differential):
    differential.assert_same(TENDONS, "mjcf_tendons", rtol=1e-7, atol=1e-9)


CUSTOM = """
import numpy as np
from dm_control import mjcf

def ident(value):
    return getattr(value, 'name', value)

model = mjcf.RootElement(model='m')
body = model.worldbody.add('body', name='b')
geom = body.add('geom', name='g', type='sphere', size=[0.1])
body.add('site', name='s')
gains = model.custom.add('numeric', name='gains', size=4, data=[1.5, 2.5])
model.custom.add('numeric', name='scalar', data=[7.0])
note = model.custom.add('text', name='note', data='hello world')
pairs = model.custom.add('tuple', name='pairs')
first = pairs.add('element', objtype='body', objname=body, prm=0.5)
second = pairs.add('element', objtype='geom', objname='g')
third = pairs.add('element', objtype='site', objname='s', prm=-1.0)
record('section_tag', model.custom.tag)
record('children', [[c.tag, c.name] for c in model.custom.all_children()])
record('numerics', [c.name for c in model.custom.numeric])
record('tuples', [c.name for c in model.custom.tuple])
record('gains', gains.get_attributes())
record('note', note.get_attributes())
record('pairs', pairs.get_attributes())
record('entries', [[c.tag, c.objtype, ident(c.objname), c.prm] for c in pairs.all_children()])
record('entry_parent', first.parent.name)
record('entry_list', len(pairs.element))
second.prm = 3.0
gains.data = [4.0, 5.0, 6.0]
note.data = 'changed'
record('changed', [second.prm, list(gains.data), note.data])
check('bad_tag', model.custom.add, 'vector', name='v')
check('bad_attribute', pairs.add, 'element', objtype='body', objname='b', weight=2.0)
check('numeric_bad_size', model.custom.add, 'numeric', name='bad', size='big')

physics = mjcf.Physics.from_mjcf_model(model)
m = physics.model
record('nnumeric', m.nnumeric)
record('numeric_size', m.numeric_size)
record('numeric_data', m.numeric_data)
record('ntext', m.ntext)
record('text', [m.id2name(i, 'text') for i in range(m.ntext)])
record('ntuple', m.ntuple)
record('tuple_size', m.tuple_size)
record('tuple_objtype', m.tuple_objtype)
record('tuple_objid', m.tuple_objid)
record('tuple_objprm', m.tuple_objprm)

# Attached: the names and the references carry the prefix.
root = mjcf.RootElement(model='root')
root.custom.add('numeric', name='gains', data=[0.0])
root.attach(model)
physics = mjcf.Physics.from_mjcf_model(root)
m = physics.model
record('attached_numerics', [m.id2name(i, 'numeric') for i in range(m.nnumeric)])
record('attached_tuples', [m.id2name(i, 'tuple') for i in range(m.ntuple)])
record('attached_tuple_objid', m.tuple_objid)

gains.remove()
record('removed', [c.name for c in model.custom.all_children()])
"""


@pytest.mark.dm_control_api(
    "mjcf.RootElement.custom",
    "mjcf.Element.add",
    "mjcf.Element.all_children",
    "mjcf.Element.get_attributes",
)
def test_custom_section_matches_dm_control(differential):
    differential.assert_same(CUSTOM, "mjcf_custom", rtol=1e-12, atol=1e-12)


DEFORMABLE = """
import numpy as np
from dm_control import mjcf
from dm_control.mjcf import skin as skin_module

def ident(value):
    return getattr(value, 'name', value)

def limb(name):
    model = mjcf.RootElement(model=name)
    material = model.asset.add('material', name='flesh', rgba=[0.8, 0.5, 0.4, 1])
    upper = model.worldbody.add('body', name='upper', pos=[0, 0, 1])
    upper.add('joint', name='hip', type='hinge', axis=[0, 1, 0])
    upper.add('geom', name='upper', type='capsule', fromto=[0, 0, 0, 0, 0, -0.4], size=[0.05])
    lower = upper.add('body', name='lower', pos=[0, 0, -0.4])
    lower.add('joint', name='knee', type='hinge', axis=[0, 1, 0])
    lower.add('geom', name='lower', type='capsule', fromto=[0, 0, 0, 0, 0, -0.4], size=[0.04])
    vertices = [0.05, 0, 0.95,  -0.05, 0, 0.95,  0.05, 0, 0.6,  -0.05, 0, 0.6,
                0.05, 0, 0.2,  -0.05, 0, 0.2]
    skin = model.deformable.add('skin', name='leg', vertex=vertices, material=material,
                                face=[0, 1, 2, 1, 3, 2, 2, 3, 4, 3, 5, 4], inflate=0.01, group=1)
    skin.add('bone', body=upper, bindpos=[0, 0, -1], bindquat=[1, 0, 0, 0],
             vertid=[0, 1, 2, 3], vertweight=[1, 1, 0.5, 0.5])
    skin.add('bone', body='lower', bindpos=[0, 0, -0.6], bindquat=[1, 0, 0, 0],
             vertid=[2, 3, 4, 5], vertweight=[0.5, 0.5, 1, 1])
    return model

model = limb('limb')
skin = model.find('deformable', 'leg')
record('section_tag', model.deformable.tag)
record('children', [c.tag for c in model.deformable.all_children()])
record('skins', [c.name for c in model.deformable.skin])
record('skin_attributes', sorted(skin.get_attributes()))
record('skin_vertex', np.array(skin.vertex))
record('skin_face', np.array(skin.face))
record('bones', [[b.tag, ident(b.body), np.array(b.bindpos), np.array(b.vertid), np.array(b.vertweight)] for b in skin.all_children()])
record('bone_list', len(skin.bone))
record('bone_parent', skin.bone[0].parent.name)
check('bad_attribute', skin.add, 'bone', body='upper', weight=1.0)
check('bad_tag', model.deformable.add, 'cloth', name='c')

def compiled(physics, label):
    m = physics.model
    for field in ('nskin', 'skin_vertnum', 'skin_facenum', 'skin_bonenum', 'skin_vert',
                  'skin_face', 'skin_bonebodyid', 'skin_bonebindpos', 'skin_bonebindquat',
                  'skin_bonevertid', 'skin_bonevertweight', 'skin_inflate', 'skin_group',
                  'skin_matid', 'skin_rgba'):
        record(f'{label}/{field}', np.array(getattr(m, field)))

physics = mjcf.Physics.from_mjcf_model(model)
compiled(physics, 'own')
record('skin_name', physics.model.id2name(0, 'skin'))

# A skin given as a file (its contents): MuJoCo reads the vertices and bones from it.
filed = limb('filed')
data = skin_module.Skin(
    vertices=np.array([[0, 0, 0], [0.1, 0, 0], [0, 0.1, 0]], dtype=np.float32),
    texcoords=np.zeros((0, 2), dtype=np.float32),
    faces=np.array([[0, 1, 2]], dtype=np.int32),
    bones=[skin_module.Bone(body=lambda: filed.find('body', 'upper'), bindpos=np.zeros(3, np.float32),
                            bindquat=np.array([1, 0, 0, 0], np.float32),
                            vertex_ids=np.array([0, 1, 2], np.int32),
                            vertex_weights=np.ones(3, np.float32))])
filed.deformable.add('skin', name='patch', file=mjcf.Asset(skin_module.serialize(data), '.skn'))
physics = mjcf.Physics.from_mjcf_model(filed)
compiled(physics, 'file')

# Attached: names and bone bodies carry the prefix.
root = mjcf.RootElement(model='root')
root.worldbody.attach(limb('left'))
root.worldbody.attach(limb('right'))
record('attached_find', root.find('deformable', 'right/leg').full_identifier)
physics = mjcf.Physics.from_mjcf_model(root)
record('attached_names', [physics.model.id2name(i, 'skin') for i in range(physics.model.nskin)])
compiled(physics, 'attached')

skin.remove()
record('removed', [c.name for c in model.deformable.all_children()])
"""


@pytest.mark.dm_control_api(
    "mjcf.RootElement.deformable",
    "mjcf.Element.add",
    "mjcf.Element.all_children",
    "mjcf.Element.get_attributes",
)
def test_deformable_skins_match_dm_control(differential):
    # A skin's rgba is float32 in MjSpec (float64 as written in dm_control).
    differential.assert_same(DEFORMABLE, "mjcf_deformable", rtol=1e-7, atol=1e-7)


EXTENSION = """
import numpy as np
from dm_control import mjcf

def ident(value):
    return getattr(value, 'name', value)

model = mjcf.RootElement(model='m')
body = model.worldbody.add('body', name='b')
hinge = body.add('joint', name='hinge', type='hinge', axis=[0, 1, 0], damping=0.2)
body.add('geom', type='capsule', fromto=[0, 0, 0, 0.3, 0, 0], size=[0.03], mass=1.0)
pid = model.extension.add('plugin', plugin='mujoco.pid')
gains = pid.add('instance', name='gains')
gains.add('config', key='kp', value='40')
ki = gains.add('config', key='ki', value='0')
gains.add('config', key='kd', value='2')
servo = model.actuator.add('plugin', name='servo', joint=hinge, plugin='mujoco.pid',
                           instance=gains, ctrlrange=[-1, 1], actdim=1)
record('section_tag', model.extension.tag)
record('plugins', [[c.tag, c.plugin] for c in model.extension.all_children()])
record('plugin_list', [c.plugin for c in model.extension.plugin])
record('instances', [[c.tag, c.name] for c in pid.all_children()])
record('instance_list', [c.name for c in pid.instance])
record('configs', [[c.tag, c.key, c.value] for c in gains.all_children()])
record('config_list', [c.key for c in gains.config])
record('instance_parent', gains.parent.plugin)
record('config_parent', ki.parent.name)
record('found', model.find('plugin', 'gains').name)
record('servo', [servo.tag, servo.plugin, ident(servo.instance), ident(servo.joint)])
record('servo_found', model.find('actuator', 'servo').tag)
ki.value = '1'
record('changed', [c.value for c in gains.config])
check('bad_extension_child', model.extension.add, 'instance', name='x')
check('bad_instance_attribute', pid.add, 'instance', name='y', plugin='mujoco.pid')
check('bad_config_attribute', lambda: gains.add('config', key='kv', weight='1'))

physics = mjcf.Physics.from_mjcf_model(model)
m = physics.model
record('nplugin', m.nplugin)
record('plugin_names', [m.id2name(i, 'plugin') for i in range(m.nplugin)])
record('plugin_attr', m.plugin_attr)
record('actuator_plugin', m.actuator_plugin)
record('na', m.na)
for step in range(50):
    physics.bind(servo).ctrl = 0.5
    physics.step()
    if step % 10 == 9:
        record(f'{step}/qpos', physics.data.qpos)
        record(f'{step}/actuator_force', physics.data.actuator_force)
        record(f'{step}/act', physics.data.act)
"""


@pytest.mark.dm_control_api(
    "mjcf.RootElement.extension",
    "mjcf.Element.add",
    "mjcf.Element.all_children",
    "mjcf.RootElement.find",
)
def test_extension_plugins_match_dm_control(differential):
    differential.assert_same(EXTENSION, "mjcf_extension", rtol=1e-7, atol=1e-9)


FLEX = """
import numpy as np
from dm_control import mjcf

model = mjcf.RootElement(model='m')
model.option.timestep = 0.002
model.worldbody.add('geom', name='floor', type='plane', size=[1, 1, 0.1])
names = []
for i, (x, y) in enumerate([(0, 0), (0.1, 0), (0, 0.1), (0.1, 0.1)]):
    body = model.worldbody.add('body', name=f'v{i}', pos=[x, y, 0.3])
    body.add('joint', name=f'z{i}', type='slide', axis=[0, 0, 1])
    body.add('joint', name=f'x{i}', type='slide', axis=[1, 0, 0])
    body.add('geom', type='sphere', size=[0.005], mass=0.01, contype=0, conaffinity=0)
    names.append(f'v{i}')
material = model.asset.add('material', name='cloth', rgba=[0.2, 0.3, 0.9, 1])
flex = model.deformable.add('flex', name='sheet', dim=2, body=' '.join(names),
                            vertex=[0, 0, 0] * 4, element=[0, 1, 2, 1, 3, 2], radius=0.004,
                            material=material, group=2)
flex.contact.set_attributes(condim=3, solref=[0.01, 1], friction=[0.8], selfcollide='none')
flex.elasticity.set_attributes(young=2e3, poisson=0.2, thickness=0.002, damping=0.01)
record('section_children', [c.tag for c in model.deformable.all_children()])
record('found', model.find('deformable', 'sheet').name)
record('flex_attributes', sorted(flex.get_attributes()))
record('body', flex.body)
record('element', np.array(flex.element))
record('children', [c.tag for c in flex.all_children()])
record('contact', flex.contact.get_attributes())
record('elasticity', flex.elasticity.get_attributes())
record('edge', flex.edge.get_attributes())
record('contact_parent', flex.contact.parent.name)
check('add_existing', flex.add, 'contact')

physics = mjcf.Physics.from_mjcf_model(model)
m = physics.model
for field in ('nflex', 'nflexvert', 'nflexedge', 'nflexelem', 'flex_dim', 'flex_vertnum',
              'flex_edgenum', 'flex_elemnum', 'flex_vertbodyid', 'flex_elem', 'flex_radius',
              'flex_condim', 'flex_friction', 'flex_solref', 'flex_selfcollide', 'flex_group',
              'flex_rgba', 'flex_damping'):
    check(field, lambda: np.array(getattr(m, field)))
# MuJoCo 4 keeps two materials a flex (its model's flex_matid is (nflex, 2)); the
# first is the one MJCF's `material` sets.
record('flex_matid', np.array(m.flex_matid).reshape(m.nflex, -1)[:, 0])
record('flex_name', m.id2name(0, 'flex'))
for step in range(150):
    physics.step()
    if step % 50 == 49:
        record(f'{step}/qpos', physics.data.qpos)
"""


@pytest.mark.dm_control_api(
    "mjcf.RootElement.deformable",
    "mjcf.Element.add",
    "mjcf.Element.all_children",
    "mjcf.Element.get_attributes",
    "mjcf.Element.set_attributes",
)
def test_deformable_flexes_match_dm_control(differential):
    differential.assert_same(FLEX, "mjcf_flex", rtol=1e-6, atol=1e-8)


COPY = """
import numpy as np
from dm_control import mjcf

def ident(value):
    return getattr(value, 'name', value)

source = mjcf.RootElement(model='source')
body = source.worldbody.add('body', name='b', pos=[0, 0, 1])
hinge = body.add('joint', name='hinge', type='hinge', axis=[0, 1, 0])
body.add('geom', name='g', type='capsule', fromto=[0, 0, 0, 0.3, 0, 0], size=[0.03])
top = source.worldbody.add('site', name='top', pos=[0, 0, 1.5])
tip = body.add('site', name='tip', pos=[0.3, 0, 0])
rope = source.tendon.add('spatial', name='rope', width=0.005, stiffness=[10.0])
rope.add('site', site=top)
rope.add('site', site='tip')
coupling = source.tendon.add('fixed', name='coupling')
coupling.add('joint', joint=hinge, coef=0.5)
source.custom.add('numeric', name='gains', data=[1.0, 2.0])
pairs = source.custom.add('tuple', name='pairs')
pairs.add('element', objtype='body', objname=body, prm=0.5)
skin = source.deformable.add('skin', name='patch', vertex=[0, 0, 1, 0.1, 0, 1, 0, 0.1, 1],
                             face=[0, 1, 2])
skin.add('bone', body=body, bindpos=[0, 0, 1], bindquat=[1, 0, 0, 0], vertid=[0, 1, 2],
         vertweight=[1, 1, 1])
pid = source.extension.add('plugin', plugin='mujoco.pid')
gains = pid.add('instance', name='gains')
gains.add('config', key='kp', value='20')
source.actuator.add('plugin', name='servo', joint=hinge, plugin='mujoco.pid', instance=gains)

copy = mjcf.RootElement(model='copy')
copy.include_copy(source)
record('tendons', [[t.tag, t.name, sorted(t.get_attributes())] for t in copy.find_all('tendon')])
record('paths', [[c.tag, sorted(c.get_attributes())] for t in copy.find_all('tendon') for c in t.all_children()])
record('path_targets', [ident(c.site) for c in copy.find('tendon', 'rope').site])
record('custom', [[c.tag, c.name] for c in copy.custom.all_children()])
record('entries', [[e.objtype, ident(e.objname), e.prm] for e in copy.custom.tuple[0].element])
record('skins', [[s.name, len(s.bone)] for s in copy.deformable.skin])
record('plugins', [[p.plugin, [i.name for i in p.instance]] for p in copy.extension.plugin])
record('configs', [[c.key, c.value] for c in copy.find('plugin', 'gains').config])
physics = mjcf.Physics.from_mjcf_model(copy)
m = physics.model
record('sizes', [m.ntendon, m.nwrap, m.nnumeric, m.ntuple, m.nskin, m.nplugin, m.nu])
physics.bind(copy.find('joint', 'hinge')).qpos = 0.3
physics.forward()
record('ten_length', physics.data.ten_length)
"""


@pytest.mark.dm_control_api("mjcf.RootElement.include_copy")
def test_include_copy_of_the_list_sections_matches_dm_control(differential):
    differential.assert_same(COPY, "mjcf_sections_copy", rtol=1e-9, atol=1e-9)
