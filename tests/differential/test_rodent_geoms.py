"""The rat's collision geoms, compiled in an arena, against dm-control 1.0.50:
the geoms' names in model order, their types, sizes, poses and contact
parameters, the bodies' orientations, masses and inertias that their densities give, and the
walker's ground contact geoms (the geoms whose contacts with the floor do not
end an episode), and the contact and constraint room of the compiled model."""

import pytest

PROGRAM = """
import numpy as np
from dm_control import mjcf
from dm_control.locomotion.arenas import floors
from dm_control.locomotion.walkers import rodent

arena = floors.Floor()
walker = rodent.Rat()
arena.add_free_entity(walker)
model = mjcf.Physics.from_mjcf_model(arena.mjcf_model).model
# The walker's own geoms: those of its bodies (the floor's geom is the world's).
rat = [i for i in range(model.ngeom) if model.geom_bodyid[i] != 0]
record('geom_names', [model.id2name(i, 'geom') for i in rat])
for field in ('geom_type', 'geom_size', 'geom_pos', 'geom_friction', 'geom_condim',
              'geom_priority', 'geom_contype', 'geom_conaffinity', 'geom_group',
              'geom_rgba', 'geom_solref', 'geom_solimp'):
    record(field, getattr(model, field)[rat])
# A quaternion and its negative are one rotation: the first nonzero entry positive.
quat = model.geom_quat[rat].copy()
for row in quat:
    if row[np.flatnonzero(np.abs(row) > 1e-12)[0]] < 0:
        row *= -1
record('geom_quat', quat)
record('body_names', [model.id2name(i, 'body') for i in range(1, model.nbody)])
record('body_quat', model.body_quat[1:])
record('body_mass', model.body_mass[1:])
record('body_ipos', model.body_ipos[1:])
record('body_inertia', model.body_inertia[1:])
# rodent.xml's <size> njmax and nconmax, kept through the attachment, size the arena.
record('sizes', [model.nconmax, model.njmax, model.narena])
record('ground_contact_count', len(walker.ground_contact_geoms))
record('ground_contact_names', [geom.name for geom in walker.ground_contact_geoms])
"""


@pytest.mark.dm_control_api("locomotion.walkers.Rat.ground_contact_geoms")
def test_rat_collision_geoms_match_dm_control(differential):
    differential.assert_same(PROGRAM, "rodent_geoms", rtol=1e-12, atol=1e-15)
