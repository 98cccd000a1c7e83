"""`mujoco.wrapper.mjbindings` against dm_control's: `mjlib` functions called on
`physics.model.ptr` / `physics.data.ptr`, the enums and the header constants.

The program is dm_control code as its own tests write it (`mjlib = mjbindings.mjlib`,
`mjlib.mj_fwdPosition(physics.model.ptr, physics.data.ptr)`); the enums and
constants are compared as tables, where MuJoCo 4.x may only add to 3.17's.
"""

from typing import Any

import mujoco
import numpy as np
import pytest

from composer_tasks import mjbindings, porting

_PROGRAM = """
import numpy as np
from dm_control import mjcf
from dm_control.mujoco.wrapper import mjbindings
from dm_control.mujoco.wrapper.mjbindings import constants, enums

mjlib = mjbindings.mjlib

model = mjcf.RootElement(model="bindings")
model.worldbody.add("geom", name="floor", type="plane", size=[2, 2, 0.1])
arm = model.worldbody.add("body", name="upper", pos=[0, 0, 1])
shoulder = arm.add("joint", name="shoulder", type="hinge", axis=[0, 1, 0])
arm.add("geom", name="upper_geom", type="capsule", fromto=[0, 0, 0, 0.4, 0, 0], size=[0.04])
fore = arm.add("body", name="fore", pos=[0.4, 0, 0])
elbow = fore.add("joint", name="elbow", type="hinge", axis=[0, 1, 0])
fore.add("geom", type="capsule", fromto=[0, 0, 0, 0.3, 0, 0], size=[0.03])
tip = fore.add("site", name="tip", pos=[0.3, 0, 0])
box = model.worldbody.add("body", name="box", pos=[1, 0, 0.049])
box.add("freejoint", name="box_free")
box.add("geom", name="box_geom", type="box", size=[0.05, 0.05, 0.05], mass=0.7)
physics = mjcf.Physics.from_mjcf_model(model)

record("ptr_types", [type(physics.model.ptr).__name__, type(physics.data.ptr).__name__])
record("mjlib_is_mujoco", mjlib.__name__)

# Positions written through `named`, the kinematics recomputed by hand through mjlib.
physics.named.data.qpos["shoulder"] = 0.3
physics.named.data.qpos["elbow"] = -0.8
mjlib.mj_fwdPosition(physics.model.ptr, physics.data.ptr)
record("tip_xpos", physics.named.data.site_xpos["tip"].copy())
record("fore_xquat", physics.named.data.xquat["fore"].copy())

# Quaternion and matrix helpers, writing into the first argument.
xmat = np.zeros(9)
mjlib.mju_quat2Mat(xmat, physics.named.data.xquat["fore"])
record("quat2mat", xmat)
quat = np.zeros(4)
mjlib.mju_mat2Quat(quat, physics.named.data.site_xmat["tip"])
record("mat2quat", quat)
product = np.zeros(4)
mjlib.mju_mulQuat(product, np.array([0.5, 0.5, 0.5, 0.5]), np.array([0.0, 0.6, 0.0, 0.8]))
record("mul_quat", product)
rotated = np.zeros(3)
mjlib.mju_rotVecQuat(rotated, np.array([1.0, 2.0, 3.0]), np.array([0.0, 0.6, 0.0, 0.8]))
record("rot_vec_quat", rotated)
velocity = np.zeros(3)
mjlib.mju_quat2Vel(velocity, np.array([np.cos(0.1), 0.0, np.sin(0.1), 0.0]), 0.02)
record("quat2vel", velocity)

# A site Jacobian and the names and ids of elements by enum type.
jacp, jacr = np.zeros((3, physics.model.nv)), np.zeros((3, physics.model.nv))
site_id = mjlib.mj_name2id(physics.model.ptr, enums.mjtObj.mjOBJ_SITE, "tip")
mjlib.mj_jacSite(physics.model.ptr, physics.data.ptr, jacp, jacr, site_id)
record("jac_site", [jacp, jacr])
record("name2id", [
    mjlib.mj_name2id(physics.model.ptr, enums.mjtObj.mjOBJ_BODY, "fore"),
    mjlib.mj_name2id(physics.model.ptr, enums.mjtObj.mjOBJ_JOINT, "elbow"),
    mjlib.mj_name2id(physics.model.ptr, enums.mjtObj.mjOBJ_GEOM, "nope"),
])
record("id2name", mjlib.mj_id2name(physics.model.ptr, enums.mjtObj.mjOBJ_GEOM, 1))
record("joint_types", [int(t) == enums.mjtJoint.mjJNT_FREE for t in physics.model.jnt_type])

# The box resting on the floor: its contact's force through mjlib.
physics.forward()
record("ncon", physics.data.ncon)
force = np.zeros(6)
mjlib.mj_contactForce(physics.model.ptr, physics.data.ptr, 0, force)
record("contact_force", force)

# Gravity disabled through the enum's bit, a step, the box stays put.
physics.model.opt.disableflags |= enums.mjtDisableBit.mjDSBL_GRAVITY
mjlib.mj_step(physics.model.ptr, physics.data.ptr)
record("disableflags", int(physics.model.opt.disableflags))
record("box_after_step", physics.named.data.qpos["box_free"][:3].copy())

record("mjDISABLESTRING", list(mjbindings.functions.mjDISABLESTRING[:5]))
record("constants", {name: getattr(constants, name) for name in dir(constants)
                     if name.startswith("mj")})
record("enums", {name: getattr(enums, name)._asdict() for name in dir(enums)
                 if name.startswith(("mjt", "mjr"))})
"""

# What MuJoCo 4.0 adds to 3.17's enums: one member each, so their counts grow by one.
_ENUM_ADDITIONS = {
    "mjtEnableBit": {"mjENBL_SPECULATIVE"},
    "mjtRndFlag": {"mjRND_POST_PROCESSING"},
}


def test_mjlib_on_physics_pointers_matches_dm_control(differential):
    ours, theirs = differential.run(_PROGRAM, "mjbindings")
    assert theirs.error is None, theirs.error
    assert ours.error is None, ours.error
    our_values, their_values = ours.as_dict(), theirs.as_dict()
    tables = ("constants", "enums")
    # The contact solver of MuJoCo 4.x and 3.17 agree to the solver's tolerance.
    loose = {"contact_force": 1e-6, "box_after_step": 1e-9}
    for key, expected in their_values.items():
        got = our_values[key]
        if key in tables or got == expected:
            continue
        np.testing.assert_allclose(
            _numbers(got), _numbers(expected), rtol=1e-12, atol=loose.get(key, 1e-12), err_msg=key
        )
    assert set(our_values) == set(their_values)

    # Constants: every one of dm_control's that MuJoCo's Python bindings export is
    # here with its value (the header version excepted); what is missing is the C UI
    # and include-guard constants the bindings do not export.
    our_constants = dict(our_values["constants"]["__dict__"])
    their_constants = dict(their_values["constants"]["__dict__"])
    missing = sorted(set(their_constants) - set(our_constants))
    assert missing and all(
        name.startswith(("mjKEY_", "mjMAXUI", "MUJOCO_", "mjSEPCLOSED", "mjPRESERVE"))
        or name in ("mjNAUX", "mjMAXTEXTURE", "mjMAXMATERIAL")
        for name in missing
    ), missing
    for name in set(their_constants) & set(our_constants):
        if name != "mjVERSION_HEADER":
            assert our_constants[name] == their_constants[name], name
    assert our_constants["mjVERSION_HEADER"] >= 4000000 > their_constants["mjVERSION_HEADER"]

    # Enums: each of dm_control's is here with the same members and values in the
    # same order, bar MuJoCo 4.0's additions (and their grown counts).
    our_enums = {k: dict(v["__dict__"]) for k, v in our_values["enums"]["__dict__"]}
    their_enums = {k: dict(v["__dict__"]) for k, v in their_values["enums"]["__dict__"]}
    assert set(their_enums) <= set(our_enums)
    for name, members in their_enums.items():
        added = _ENUM_ADDITIONS.get(name, set())
        ours_kept = {k: v for k, v in our_enums[name].items() if k not in added}
        if added:
            count = next(k for k in members if k.startswith("mjN"))
            assert ours_kept.pop(count) == members.pop(count) + len(added), name
        assert list(ours_kept.items()) == list(members.items()), name


def _numbers(value: Any) -> list[float]:
    """The floats of an encoded record (arrays, lists and dicts flattened)."""
    if isinstance(value, dict) and "__array__" in value:
        return [float(x) for x in value["__array__"]]
    if isinstance(value, dict) and "__dict__" in value:
        return [x for _, item in value["__dict__"] for x in _numbers(item)]
    if isinstance(value, list):
        return [x for item in value for x in _numbers(item)]
    if isinstance(value, (bool, int, float)):
        return [float(value)]
    raise TypeError(f"not an encoded number, array, list or dict: {value!r}")


# --- the import mapping, without the reference venv --------------------------------


def test_mjbindings_and_wrapper_helpers_port_and_the_wrappers_structs_do_not():
    source = (
        "from dm_control.mujoco.wrapper import mjbindings\n"
        "from dm_control.mujoco.wrapper.mjbindings import enums, constants\n"
        "from dm_control.mujoco.wrapper.mjbindings.enums import mjtObj\n"
    )
    assert porting.rewrite_imports(source) == (
        "import composer_tasks.mjbindings as mjbindings\n"
        "import composer_tasks.mjbindings.enums as enums; "
        "import composer_tasks.mjbindings.constants as constants\n"
        "from composer_tasks.mjbindings.enums import mjtObj\n"
    )
    # The wrapper's visualisation structs, MjModel and util port (composer_tasks.mujoco).
    assert porting.rewrite_imports(
        "from dm_control.mujoco import wrapper\nfrom dm_control.mujoco.wrapper import util\n"
    ) == (
        "import composer_tasks.mujoco.wrapper as wrapper\n"
        "import composer_tasks.mujoco.wrapper_util as util\n"
    )
    for statement, reason in (
        ("from dm_control.mujoco.wrapper import core", "dm_control.mujoco.wrapper.core"),
        ("from dm_control.mujoco.wrapper.core import MjData", "dm_control.mujoco.wrapper.core"),
        (
            "from dm_control.mujoco.wrapper.mjbindings import sizes",
            "dm_control.mujoco.wrapper.mjbindings.sizes",
        ),
    ):
        with pytest.raises(porting.PortingError) as raised:
            porting.rewrite_imports(statement + "\n")
        assert porting.NO_COUNTERPART[reason] in str(raised.value)


def test_enums_are_plain_ints_in_mujocos_order():
    assert mjbindings.mjlib is mujoco
    assert mjbindings.enums.mjtObj.mjOBJ_BODY == 1
    assert type(mjbindings.enums.mjtObj.mjOBJ_BODY) is int
    assert mjbindings.enums.mjtWarning._fields == tuple(mujoco.mjtWarning.__members__)
    assert mjbindings.constants.mjMAXVAL == mujoco.mjMAXVAL
