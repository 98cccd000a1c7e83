"""The rat's collision geoms without the reference venv: dm_control's 100
primitives (rodent.xml), the paws' 16 gripping geoms and the tail's 30 among the
46 ground contact geoms, the bodies' masses from the geoms' densities."""

import mujoco
import numpy as np
import pytest

from composer_tasks import walkers
from composer_tasks.arenas import floor


def _compiled_rat():
    rat = walkers.Rat()
    arena = floor.Floor()
    arena.add_free_entity(rat)
    return rat, arena.spec.compile()


def test_rat_has_dm_controls_collision_geoms_and_ground_contacts():
    rat, model = _compiled_rat()
    names = [model.geom(i).name for i in range(model.ngeom) if model.geom_bodyid[i] != 0]
    assert len(names) == 100
    contacts = [geom.name for geom in rat.ground_contact_geoms]
    assert len(contacts) == 46
    # The file's order: each paw's sole or palm, then its digits; the tail from its tip.
    assert contacts[:4] == [
        "foot_L_collision",
        "toe_L0_collision",
        "toe_L1_collision",
        "toe_L2_collision",
    ]
    assert contacts[16] == "vertebra_C30_collision" and contacts[-1] == "vertebra_C1_collision"
    paws = [name for name in contacts if not name.startswith("vertebra")]
    assert len(paws) == 16
    for name in paws:
        geom = model.geom("walker/" + name)
        assert geom.condim[0] == 3 and geom.priority[0] == 1
        np.testing.assert_array_equal(geom.friction, [1.5, 0.005, 0.0001])
    # The eyes and incisors are drawn in the cosmetic group but still collide.
    eye = model.geom("walker/eye_L_collision")
    assert eye.group[0] == 1 and eye.contype[0] == 1
    # The torso touches the world, not the rat's other geoms.
    torso = model.geom("walker/collision_torso")
    assert (torso.contype[0], torso.conaffinity[0]) == (1, 0)


def test_rat_body_masses_come_from_the_geoms_densities():
    rat, model = _compiled_rat()
    # dm_control's compiled total of the rat's 65 bodies (MuJoCo 3.17 on rodent.xml).
    masses = [model.body("walker/" + body.name).mass[0] for body in rat.bodies]
    assert sum(masses) == pytest.approx(0.33778241973641304, rel=1e-12)
    # The toe: three capsules of density 500 kg/m^3, two of half-length 0.007253... m.
    toe = model.body("walker/toe_L")
    radius, half_lengths = 0.002383208424149982, (0.007253243030021683, 0.007771331817880374)
    capsule = [np.pi * radius**2 * (2 * h + 4 / 3 * radius) * 500.0 for h in half_lengths]
    assert toe.mass[0] == pytest.approx(2 * capsule[0] + capsule[1], rel=1e-12)
    assert model.geom("walker/toe_L0_collision").type[0] == mujoco.mjtGeom.mjGEOM_CAPSULE
