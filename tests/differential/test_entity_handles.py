"""The elements entities hand out (`arena.ground_geoms`, `target.geom`, ...) are
PyMJCF elements as in dm_control: their tag, names, MJCF type and bindings agree.
Before: raw `mujoco.MjsGeom`s here (no `tag` or `full_identifier`, `type` an enum)."""

import pytest

HANDLES = """
import numpy as np
from dm_control import composer, mjcf
from dm_control.locomotion.arenas import floors, bowl
from dm_control.locomotion.props import target_sphere
from dm_control.locomotion.walkers import ant

def describe(element):
    return [element.tag, element.name, element.full_identifier,
            getattr(element, 'type', None) if element.tag == 'geom' else None]

floor = floors.Floor(size=(4, 5))
record('floor_ground', [describe(g) for g in floor.ground_geoms])
record('floor_camera', describe(floor.mjcf_model.find('camera', 'top_camera')))
record('floor_ground_size', floor.ground_geoms[0].size)
record('bowl_ground', [describe(g) for g in bowl.Bowl().ground_geoms])
target = target_sphere.TargetSphere(radius=0.4)
record('target', [describe(target.geom), target.material.tag, target.material.name])
walker = ant.Ant()
floor.add_free_entity(walker)
floor.attach(target)
record('walker', [describe(walker.root_body), describe(walker.egocentric_camera)])
record('target_attached', describe(target.geom))
physics = mjcf.Physics.from_mjcf_model(floor.mjcf_model)
record('ids', [physics.bind(floor.ground_geoms).element_id, physics.bind(target.geom).element_id,
               physics.bind(floor.mjcf_model.find('camera', 'top_camera')).element_id])
record('bound', [physics.bind(target.geom).size, physics.bind(floor.ground_geoms[0]).size])
record('found', floor.mjcf_model.find('geom', 'groundplane') == floor.ground_geoms[0])
"""


@pytest.mark.dm_control_api(
    "locomotion.arenas.floors.Floor",
    "locomotion.arenas.bowl.Bowl",
    "locomotion.props.target_sphere.TargetSphere",
)
def test_entities_hand_out_pymjcf_elements_as_in_dm_control(differential):
    differential.assert_same(HANDLES, "entity_handles", rtol=1e-12, atol=1e-12)
