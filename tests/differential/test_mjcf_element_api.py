"""PyMJCF's element API where user probes found divergences, against dm_control:
`get_attributes`' type and order, the namespaces `find` and `find_all` accept (and
what they return for each), default classes' parents, copying a model to attach it
beside the original, and the <user> sensor."""

import pytest

ELEMENT_API = """
import copy
from dm_control import mjcf

def names(elements):
    return [[e.tag, e.full_identifier if e.tag != 'default' else e.dclass] for e in elements]

model = mjcf.RootElement(model='probe')
model.option.timestep = 0.004
model.default.geom.set_attributes(size=[0.1], rgba=[1, 0, 0, 1])
leg = model.default.add('default', dclass='leg')
foot = leg.add('default', dclass='foot')
body = model.worldbody.add('body', name='torso', pos=[0, 0, 1], quat=[1, 0, 0, 0])
geom = body.add('geom', name='trunk', type='capsule', size=[0.1, 0.2], rgba=[0, 1, 0, 1],
                dclass=leg, pos=[0, 0, 0.1])
joint = body.add('joint', name='hip', type='hinge', axis=[0, 1, 0], range=[-1, 1],
                 damping=0.5)
other = body.add('geom', name='pad', size=[0.05])
model.contact.add('pair', name='touch', geom1=geom, geom2=other)
model.contact.add('exclude', name='apart', body1=body, body2=body)
model.contact.add('pair', geom1='trunk', geom2='pad')

# get_attributes: an OrderedDict, in PyMJCF's order.
for key, element in [('root', model), ('body', body), ('geom', geom), ('joint', joint),
                     ('option', model.option), ('default_geom', model.default.geom),
                     ('class', leg), ('top_class', model.default)]:
    attributes = element.get_attributes()
    record('type_' + key, type(attributes).__name__)
    record("attributes_" + key, [[k, getattr(v, "dclass", v)] for k, v in attributes.items()])

# Default classes: their parents and the classes below them.
record('top_class_parent', model.default.parent.tag)
record('top_class_parent_is_model', model.default.parent is model)
record('class_parent', [leg.parent.dclass, foot.parent.dclass])
record('find_all_default', names(model.find_all('default')))
record('find_all_default_immediate', names(model.find_all('default', immediate_children_only=True)))
record('class_find_all', names(model.default.find_all('default')))
record('class_find_all_immediate', names(model.default.find_all('default', immediate_children_only=True)))
record('body_find_all_default', names(body.find_all('default')))

# An attached model: its frame is found by 'attachment_frame', listed with the bodies.
child = mjcf.RootElement(model='arm')
upper = child.worldbody.add('body', name='upper')
upper.add('geom', name='bone', size=[0.05])
child.contact.add('exclude', name='self', body1=upper, body2=upper)
frame = body.add('site', name='mount').attach(child)
record('frame_found', model.find('attachment_frame', 'arm').full_identifier)
record('frame_missing', model.find('attachment_frame', 'leg'))
record('frame_find_all', model.find_all('attachment_frame'))
record('bodies', names(model.find_all('body')))

# 'contact': pairs and excludes together, in the order added, attached models' after.
record('find_contact', names([model.find('contact', 'touch'), model.find('contact', 'apart')]))
record('find_contact_attached', model.find('contact', 'arm/self').full_identifier)
record('find_all_contact', names(model.find_all('contact')))
record('find_all_contact_own', names(model.find_all('contact', exclude_attachments=True)))
record('body_find_all_contact', names(body.find_all('contact')))
record('contact_namespaces', [e.spec.namespace if hasattr(e, 'spec') and hasattr(e.spec, 'namespace')
                              else e.spec_namespace for e in model.find_all('contact')])
for namespace in ('skin', 'composite', 'flexcomp'):
    record('find_all_' + namespace, model.find_all(namespace))
    record('find_' + namespace, model.find(namespace, 'anything'))
for namespace in ('pair', 'exclude', 'worldbody', 'nonsense'):
    check('find_all_bad_' + namespace, model.find_all, namespace)
    check('find_bad_' + namespace, model.find, namespace, 'touch')

# A copy of a model shares nothing with it: it attaches beside (or to) the original.
twin = copy.copy(child)
twin.model = 'twin'
model.worldbody.attach(twin)
deep = copy.deepcopy(child)
deep.model = 'deep'
model.worldbody.attach(deep)
record('copies', names(model.find_all('geom')))
record('copy_attributes', list(twin.find('geom', 'bone').get_attributes().items()))

# Attaching merges <size> by the larger value (memory in bytes) and <option> as PyMJCF.
small, large = mjcf.RootElement(model='small'), mjcf.RootElement(model='large')
small.size.nconmax = 123
small.size.njmax = 456
small.size.memory = '10000'
large.size.nconmax = 345
large.size.njmax = 234
large.size.memory = '1M'
large.option.timestep = 0.001
large.option.iterations = 500
small.attach(large)
record('merged_size', [small.size.nconmax, small.size.njmax, small.size.memory])
record('child_size', [large.size.nconmax, large.size.njmax, large.size.memory])
record('merged_option', list(small.option.get_attributes().items()))
record('memory_as_written', [small.size.get_attributes().get('memory')])

# Parsed with resolve_references=False: references read as the names written (also in
# a copy) until resolve_references().
unresolved = mjcf.from_xml_string('''
<mujoco model="refs">
  <worldbody><body name="b"><joint name="hinge"/><geom name="g" size="0.1"/></body></worldbody>
  <actuator><motor name="m" joint="hinge"/></actuator>
  <contact><exclude body1="b" body2="b"/></contact>
</mujoco>''', resolve_references=False)
motor = unresolved.find('actuator', 'm')
record('unresolved', [motor.joint, unresolved.contact.exclude[0].body1])
record('unresolved_copy', copy.copy(unresolved).find('actuator', 'm').joint)
unresolved.resolve_references()
record('resolved', [motor.joint.full_identifier, unresolved.contact.exclude[0].body1.name])

# MJCF text as bytes, an <include>d file and an asset given in `assets`: the files are
# named as PyMJCF names them in get_assets(), and to_xml_string() loads with them.
included = b'<mujoco><worldbody><geom name="inner" size="0.2"/></worldbody></mujoco>'
with_files = mjcf.from_xml_string(
    b'<mujoco model="files"><asset><mesh name="m" file="dir/tetra.obj"/></asset>'
    b'<include file="parts.xml"/><worldbody><geom type="mesh" mesh="m"/></worldbody></mujoco>',
    assets={'parts.xml': included,
            'dir/tetra.obj': b'v 0 0 0\\nv 1 0 0\\nv 0 1 0\\nv 0 0 1\\nf 1 2 3\\nf 1 2 4\\nf 1 3 4\\nf 2 3 4\\n'})
record('files_geoms', sorted(str(g.name) for g in with_files.find_all('geom')))
record('files_assets', sorted(with_files.get_assets()))
reloaded = mjcf.Physics.from_xml_string(with_files.to_xml_string(), assets=with_files.get_assets())
record('files_reloaded', [reloaded.model.ngeom, reloaded.model.nmesh])
check('missing_include', mjcf.from_xml_string, '<mujoco><include file="nowhere.xml"/></mujoco>')

# <cylinder> actuators, among first- and second-order ones, attached: tags, attributes
# and the compiled order (dm_control's element_test, testActuatorReordering).
def mixed(name):
    root = mjcf.RootElement(model=name)
    body = root.worldbody.add('body')
    body.add('geom', type='sphere', size=[0.1])
    slider = body.add('joint', type='slide', name='slide_joint')
    root.actuator.add('general', dyntype='integrator', biastype='affine', dynprm=[1, 0, 0],
                      joint=slider, name='general_act')
    root.actuator.add('cylinder', joint=slider, name='cylinder_act', timeconst=0.5,
                      diameter=0.2, bias=[1, -2, 0])
    root.actuator.add('velocity', joint=slider, name='velocity_act')
    return root
first, second, third = mixed('child_1'), mixed('child_2'), mixed('child_3')
holder = mjcf.RootElement(model='holder')
holder.attach(first)
holder.attach(second)
second.attach(third)
record('cylinder_tags', [a.tag for a in holder.find_all('actuator')])
record('cylinder_attributes', [[k, getattr(v, 'name', v)] for k, v in
                               first.find('actuator', 'cylinder_act').get_attributes().items()])
mixed_physics = mjcf.Physics.from_mjcf_model(holder)
record('mixed_order', [mixed_physics.model.id2name(i, 'actuator') for i in range(mixed_physics.model.nu)])
record('cylinder_prm', [mixed_physics.model.actuator_dynprm[1, :2], mixed_physics.model.actuator_gainprm[1, :2],
                        mixed_physics.model.actuator_biasprm[1, :3], mixed_physics.model.actuator_dyntype])

# The <user> sensor, parsed and added.
parsed = mjcf.from_xml_string('''
<mujoco model="sensed">
  <worldbody><body name="b"><geom size="0.1"/><site name="s"/></body></worldbody>
  <sensor>
    <user name="dummy" dim="2" user="0 1 0 1" datatype="positive" needstage="vel"/>
  </sensor>
</mujoco>''')
dummy = parsed.find('sensor', 'dummy')
record('user_sensor', [dummy.tag, list(dummy.get_attributes().items())])
added = parsed.sensor.add('user', name='added', dim=1, noise=0.1)
record('user_added', [added.tag, added.dim, added.noise, added.needstage])
physics = mjcf.Physics.from_mjcf_model(parsed)
record('user_dims', physics.model.sensor_dim)
"""


@pytest.mark.dm_control_api(
    "mjcf.Element.get_attributes",
    "mjcf.RootElement.get_attributes",
    "mjcf.Element.find",
    "mjcf.Element.find_all",
    "mjcf.RootElement.find",
    "mjcf.RootElement.find_all",
    "mjcf.Element.parent",
    "mjcf.RootElement.attach",
    "mjcf.from_xml_string",
    "mjcf.RootElement.resolve_references",
    "mjcf.RootElement.get_assets",
    "mjcf.RootElement.to_xml_string",
)
def test_element_api_probes_match_dm_control(differential):
    differential.assert_same(ELEMENT_API, "mjcf_element_api", rtol=1e-12, atol=1e-12)
