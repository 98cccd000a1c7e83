"""The repeated children of a PyMJCF element or section (`model.actuator.motor`,
`body.joint`, `model.default.default`) against dm_control's `_ElementListView`:
attached models' children included in a section's view, identifiers with and without
a scope prefix, own-only positive indices, negative indices and slices over the whole
view, deletion and `clear`."""

import pytest

PROGRAM = """
from dm_control import mjcf

def arm(name):
    model = mjcf.RootElement(model=name)
    body = model.worldbody.add('body', name='link')
    joint = body.add('joint', name='hinge')
    body.add('geom', name='g', size=[0.1])
    model.actuator.add('motor', name='m', joint=joint)
    model.actuator.add('position', name='p', joint=joint)
    model.sensor.add('jointpos', name='s', joint=joint)
    model.default.add('default', dclass='cls')
    return model

root = mjcf.RootElement(model='root')
base = root.worldbody.add('body', name='base')
root_joint = base.add('joint', name='rj')
base.add('geom', name='rg', size=[0.1])
root.actuator.add('motor', name='rm', joint=root_joint)
root.default.add('default', dclass='rootcls')
first = arm('a')
root.attach(first)
site = base.add('site', name='s')
second = arm('b')
site.attach(second)
nested = arm('c')
first.attach(nested)

def names(view):
    return [element.full_identifier if hasattr(element, 'full_identifier') else element.dclass
            for element in view]

for label, view in [('motor', root.actuator.motor), ('position', root.actuator.position),
                    ('bodies', root.worldbody.body), ('base_bodies', base.body),
                    ('jointpos', root.sensor.jointpos), ('defaults', root.default.default),
                    ('first_motor', first.actuator.motor), ('joints', base.joint)]:
    record(label + '/names', names(view))
    record(label + '/len', len(view))
    record(label + '/tag', view.tag)

motors = root.actuator.motor
for key in ('rm', 'a/m', 'b/m', 'a/c/m', 0, -1, -2, 1, 5, 'zz', 'a/zz', 'q/m'):
    check(f'get/{key}', lambda key=key: motors[key].full_identifier)
record('slice', names(motors[0:3]))
record('slice_tail', names(motors[1:]))
record('in', [root.find('actuator', 'a/m') in motors, root_joint in base.joint])
record('parent_tag', motors.parent.tag)
record('default_get', root.default.default['rootcls'].dclass)
record('default_scoped', root.default.default['a/cls'].dclass)
check('default_missing', lambda: root.default.default['nope'])
del root.actuator.motor[0]
record('after_del', names(root.actuator.motor))
root.actuator.position.clear()
record('after_clear', [names(root.actuator.position), len(first.actuator.position),
                       len(second.actuator.position)])
physics = mjcf.Physics.from_mjcf_model(root)
record('nu', physics.model.nu)
"""


@pytest.mark.dm_control_api("mjcf.Element", "mjcf.RootElement")
def test_repeated_children_views_match_dm_control(differential):
    differential.assert_same(PROGRAM, "mjcf_element_list")
