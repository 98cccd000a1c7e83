"""dm_control's manipulation props against dm_control's: Primitive (positional mass,
the touch site and sensor, `name`), Sphere, Box, BoxWithSites, Ellipsoid, Cylinder
and Capsule with their defaults; compiled names, sizes, masses and sensor layout;
every observable, touch included, while a prop rests on and is pressed into the
floor."""

import pytest

PROPS = """
import numpy as np
from dm_control import composer, mjcf
from dm_control.manipulation import props
from dm_control.manipulation.props import primitive

def describe(label, prop):
    arena = composer.Arena()
    arena.add_free_entity(prop)
    physics = mjcf.Physics.from_mjcf_model(arena.mjcf_model)
    model = physics.model
    # A prop built without a name: `name` is None in dm_control, "unnamed_model" here
    # (the entity's prefix); documented in composer_tasks/props/manipulation.py.
    if not label.startswith(('primitive_unnamed', 'primitive_matrix')):
        record(label + '/name', prop.name)
    record(label + '/model', prop.mjcf_model.model)
    record(label + '/geom_name', prop.geom.name)
    record(label + '/geom_type', prop.geom.type)
    record(label + '/geom_size', physics.bind(prop.geom).size)
    record(label + '/touch_tag', prop.touch.tag)
    record(label + '/touch_site', physics.bind(prop.touch).objid)
    sites = [model.id2name(i, 'site') for i in range(model.nsite)]
    record(label + '/sites', sites)
    record(label + '/site_size', model.site_size)
    record(label + '/site_rgba', model.site_rgba)
    record(label + '/site_group', model.site_group)
    record(label + '/site_type', model.site_type)
    # The touch sensor (first) is unnamed: dm_control compiles it as
    # "<prop>//unnamed_sensor_0", this project with no name (docs/mjcf.md).
    record(label + '/sensors', [model.id2name(i, 'sensor') for i in range(1, model.nsensor)])
    record(label + '/nsensor', model.nsensor)
    record(label + '/sensor_type', model.sensor_type)
    record(label + '/sensor_dim', model.sensor_dim)
    record(label + '/body_mass', model.body_mass)
    record(label + '/observables', sorted(prop.observables.as_dict()))
    record(label + '/mixin', isinstance(prop.observables, composer.FreePropObservableMixin))
    return physics

def observe(label, prop, press):
    arena = composer.Arena()
    arena.mjcf_model.worldbody.add('geom', type='plane', size=[2, 2, 0.1])
    arena.add_free_entity(prop)
    physics = mjcf.Physics.from_mjcf_model(arena.mjcf_model)
    prop.set_pose(physics, position=[0.1, -0.2, 0.3], quaternion=[np.cos(0.2), 0.0, np.sin(0.2), 0.0])
    prop.set_velocity(physics, velocity=[0.3, 0.0, -0.5], angular_velocity=[0.0, 1.0, 0.5])
    for step in range(150):
        if step >= 100:
            physics.data.xfrc_applied[1] = [0, 0, -press, 0, 0, 0]  # the prop's body
        physics.step()
        if step % 30 == 29:
            for name in ('position', 'orientation', 'linear_velocity', 'angular_velocity', 'touch'):
                item = getattr(prop.observables, name)
                record(f'{label}/{step}/{name}', item.observation_callable(physics)())

describe('primitive', props.Primitive('box', [0.05, 0.04, 0.03], 0.7, 'positional'))
describe('primitive_unnamed', props.Primitive(geom_type='sphere', size=0.05))
describe('primitive_matrix', props.Primitive(geom_type='ellipsoid', size=np.array([[0.02], [0.03], [0.01]])))
describe('sphere', props.Sphere())
describe('sphere_args', props.Sphere(radius=0.02, mass=0.1, name='ball'))
describe('box', props.Box())
describe('box_args', props.Box(half_lengths=[0.01, 0.02, 0.03], mass=0.5, name='brick'))
describe('box_empty', props.Box(half_lengths=[]))
describe('box_with_sites', props.BoxWithSites(half_lengths=[0.02, 0.03, 0.04], mass=0.3))
describe('ellipsoid', props.Ellipsoid())
describe('ellipsoid_args', props.Ellipsoid(radii=[0.03, 0.02, 0.01], name='egg'))
describe('cylinder', props.Cylinder())
describe('cylinder_args', props.Cylinder(radius=0.02, half_length=0.05, mass=0.2, name='can'))
describe('capsule', props.Capsule())
describe('capsule_args', props.Capsule(0.03, 0.08, 0.4, 'pill'))
record('classes', [issubclass(c, props.Primitive) for c in
                   (props.Sphere, props.Box, props.BoxWithSites, props.Ellipsoid, props.Cylinder, props.Capsule)])
record('observables_class', type(props.Sphere().observables).__name__)
record('observables_module', primitive.PrimitiveObservables is type(props.Sphere().observables))
observe('sphere', props.Sphere(radius=0.05, mass=0.3), 5.0)
observe('box', props.Box(half_lengths=[0.04, 0.05, 0.03], mass=0.4), 8.0)
observe('capsule', props.Capsule(radius=0.03, half_length=0.05), 2.0)
observe('cylinder', props.Cylinder(radius=0.04, half_length=0.04), 3.0)
observe('ellipsoid', props.Ellipsoid(radii=[0.05, 0.04, 0.03]), 4.0)
"""


@pytest.mark.dm_control_api(
    "manipulation.props.Primitive",
    "manipulation.props.Primitive.touch",
    "manipulation.props.Primitive.geom",
    "manipulation.props.Primitive.name",
    "manipulation.props.Primitive.mjcf_model",
    "manipulation.props.Primitive.position",
    "manipulation.props.Primitive.orientation",
    "manipulation.props.Primitive.linear_velocity",
    "manipulation.props.Primitive.angular_velocity",
    "manipulation.props.primitive.PrimitiveObservables",
    "manipulation.props.primitive.PrimitiveObservables.position",
    "manipulation.props.primitive.PrimitiveObservables.orientation",
    "manipulation.props.primitive.PrimitiveObservables.linear_velocity",
    "manipulation.props.primitive.PrimitiveObservables.angular_velocity",
    "manipulation.props.primitive.PrimitiveObservables.touch",
    "manipulation.props.Sphere",
    "manipulation.props.Box",
    "manipulation.props.BoxWithSites",
    "manipulation.props.BoxWithSites.corner_sites",
    "manipulation.props.Ellipsoid",
    "manipulation.props.Cylinder",
    "manipulation.props.Capsule",
)
def test_manipulation_props_match_dm_control(differential):
    # MuJoCo 3.17 and 4.0 settle contacts alike to a few 1e-9 over 150 steps.
    differential.assert_same(PROPS, "manipulation_props", rtol=1e-6, atol=1e-6)
