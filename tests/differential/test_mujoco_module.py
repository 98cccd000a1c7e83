"""`from dm_control import mujoco` as programs use it beyond `Physics`: MuJoCo's own
functions, enums and structs through the same module (dm_control re-exports them),
its submodules, and the contact list a program reads after a step. A wrong key into
the contact list raises here as there (MuJoCo 4.0's bindings crashed the
interpreter on it)."""

import pytest

MUJOCO_MODULE = """
import numpy as np
from dm_control import mujoco, suite

env = suite.load('walker', 'walk', task_kwargs={'random': 0})
env.reset()
for _ in range(60):
    env.step(np.zeros(6))
physics = env.physics
contacts = physics.data.contact
record('ncon', physics.data.ncon)
record('pairs', [[int(c.geom1), int(c.geom2)] for c in contacts])
record('fields', [contacts.geom1, contacts.geom2, contacts.dist, contacts.pos])
record('first', [contacts[0].geom1, contacts[0].dist, contacts[0].frame])
record('names', [(physics.model.id2name(int(c.geom1), 'geom'),
                  physics.model.id2name(int(c.geom2), 'geom')) for c in contacts])
force = np.zeros(6)
mujoco.mj_contactForce(physics.model.ptr, physics.data.ptr, 0, force)
record('force', force)
record('name2id', mujoco.mj_name2id(physics.model.ptr, mujoco.mjtObj.mjOBJ_GEOM, 'left_foot'))
jacp = np.zeros((3, physics.model.nv))
mujoco.mj_jacBody(physics.model.ptr, physics.data.ptr, jacp, None,
                  physics.model.name2id('torso', 'body'))
record('jacp', jacp)
record('option_type', type(mujoco.MjvOption()).__name__)
record('constants', [int(mujoco.mjtGeom.mjGEOM_PLANE), int(mujoco.mjtObj.mjOBJ_BODY)])
for key in ('geom1', 1.5, None, [0], (0,)):
    check(f'bad_key_{key!r}', lambda key=key: contacts[key])
check('out_of_range', lambda: contacts[100])
# dm_control's tutorial: a scene option from the wrapper's core, MuJoCo's functions
# and enums through mjbindings.
from dm_control.mujoco.wrapper.mjbindings import enums, mjlib
scene_option = mujoco.wrapper.core.MjvOption()
scene_option.flags[enums.mjtVisFlag.mjVIS_JOINT] = True
record('tutorial_render', physics.render(height=24, width=32, scene_option=scene_option).shape)
rotated = np.zeros(3)
mjlib.mju_rotVecQuat(rotated, np.array([1.0, 0, 0]), physics.named.data.xquat['torso'])
record('tutorial_mjlib', rotated)
record('index_module', hasattr(mujoco.index, 'struct_indexer'))
record('engine_physics', mujoco.engine.Physics is mujoco.Physics)
"""


@pytest.mark.dm_control_api("mujoco.Physics")
def test_mujoco_module_reexports_and_contacts_match_dm_control(differential):
    differential.assert_same(MUJOCO_MODULE, "mujoco_module", rtol=1e-6, atol=1e-8)


PACKAGE_MODULES = """
from dm_control import suite
from dm_control.entities import props
from dm_control.locomotion import arenas

floor = arenas.floors.Floor(size=(3, 3))
record('floor', [type(floor).__name__, floor.size])
record('duplo', type(props.duplo.Duplo()).__name__)
record('suite_common', sorted(suite.common.ASSETS)[:3])
"""


@pytest.mark.dm_control_api("locomotion.arenas.floors.Floor", "suite.common.ASSETS")
def test_package_level_submodules_are_reachable_as_in_dm_control(differential):
    # `arenas.floors`, `props.duplo`, `suite.common`: submodules a dm_control package
    # imports, reached as its attributes by code ported by changing imports.
    differential.assert_same(PACKAGE_MODULES, "package_modules")
