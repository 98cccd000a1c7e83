"""`spec_fingerprint` sees every value the compiler reads, so that the Environment
finds spec edits nobody announced; `describe_spec_difference` names them."""

import enum

import mujoco
import numpy as np
import pytest

from composer_tasks.composer import spec_edits


def _spec_with_every_element():
    spec = mujoco.MjSpec()
    spec.modelname = "every_element"
    body = spec.worldbody.add_body(name="body", pos=[0, 0, 1])
    body.add_frame(name="frame")
    body.add_geom(name="geom", size=[0.1, 0, 0])
    body.add_joint(name="joint", type=mujoco.mjtJoint.mjJNT_HINGE)
    body.add_site(name="site")
    body.add_camera(name="camera")
    body.add_light(name="light")
    spec.worldbody.add_geom(name="floor", type=mujoco.mjtGeom.mjGEOM_PLANE, size=[1, 1, 0.1])
    spec.add_actuator(name="actuator", target="joint", trntype=mujoco.mjtTrn.mjTRN_JOINT)
    spec.add_sensor(
        name="sensor",
        type=mujoco.mjtSensor.mjSENS_JOINTPOS,
        objname="joint",
        objtype=mujoco.mjtObj.mjOBJ_JOINT,
    )
    tendon = spec.add_tendon(name="tendon")
    tendon.wrap_joint("joint", 1.0)
    spec.add_equality(name="equality")
    spec.add_exclude(name="exclude", bodyname1="world", bodyname2="body")
    spec.add_pair(name="pair", geomname1="geom", geomname2="floor")
    spec.add_key(name="key", qpos=[0.0])
    spec.add_numeric(name="numeric", data=[1.0])
    spec.add_text(name="text", data="hello")
    spec.add_tuple(name="tuple")
    spec.add_mesh(name="mesh", uservert=[0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1])
    spec.add_hfield(
        name="hfield", size=[1, 1, 0.1, 0.1], nrow=2, ncol=2, userdata=[0.0, 0.5, 0.5, 1.0]
    )
    spec.add_texture(
        name="texture",
        type=mujoco.mjtTexture.mjTEXTURE_2D,
        builtin=mujoco.mjtBuiltin.mjBUILTIN_CHECKER,
        width=4,
        height=4,
    )
    spec.add_material(name="material")
    return spec


def _mutate(element, name):
    """Changes `element.name` to another value of its type; False if it has no other."""
    value = getattr(element, name)
    if isinstance(value, np.ndarray):
        if value.size == 0:
            return False
        first = value.flat[0]
        value.flat[0] = 0.5 if first != first else first + 1  # in place: no setter runs
        return True
    if isinstance(value, bool):
        setattr(element, name, not value)
    elif isinstance(value, float):
        setattr(element, name, 0.5 if value != value else value + 0.5)
    elif (
        isinstance(value, int)
        and not isinstance(value, enum.Enum)
        and not type(value).__name__.startswith("mjt")
    ):
        setattr(element, name, value + 1)
    elif isinstance(value, str):
        setattr(element, name, value + "x")
    elif type(value).__name__.startswith("mjt"):
        members = [member for member in type(value).__members__.values() if member != value]
        if not members:
            return False
        setattr(element, name, members[0])
    elif type(value).__name__ == "MjsOrientation":
        value.euler[0] += 1.0
    elif type(value).__name__.endswith("Vec"):
        if type(value).__name__ in ("MjStringVec", "MjCharVec"):
            items = list(value) or [""]
            setattr(element, name, [items[0] + "x" if len(items[0]) != 1 else "x"] + items[1:])
        elif type(value).__name__ == "MjIntVec":
            setattr(element, name, list(value) + [1])
        else:
            setattr(element, name, list(value) + [1.0])
    else:
        return False
    return True


def _cases():
    spec = _spec_with_every_element()
    for list_name in spec_edits._ELEMENT_LISTS:
        for index, element in enumerate(getattr(spec, list_name)):
            for name in spec_edits._settable_attributes(type(element)):
                yield pytest.param(list_name, index, name, id=f"{list_name}[{index}].{name}")


# Attributes an edit of which this test cannot make (no other value of their type).
_UNMUTABLE = {"plugin"}


@pytest.mark.parametrize("list_name, index, name", list(_cases()))
def test_every_settable_attribute_of_every_element_is_seen(list_name, index, name):
    if name in _UNMUTABLE:
        pytest.skip(f"{name} has no other value to set here")
    spec = _spec_with_every_element()
    before = spec_edits.spec_fingerprint(spec)
    element = getattr(spec, list_name)[index]
    try:
        changed = _mutate(element, name)
    except (TypeError, ValueError) as error:  # e.g. a field that only takes one shape
        pytest.skip(f"cannot set {name}: {error}")
    if not changed:
        pytest.skip(f"{name}'s value has no other of its kind")
    assert spec_edits.spec_fingerprint(spec) != before
    assert f"{list_name}[{index}]" in spec_edits.describe_spec_difference(spec, before)
    assert f".{name}" in spec_edits.describe_spec_difference(spec, before)


def test_the_model_wide_settings_and_structure_are_seen():
    spec = _spec_with_every_element()
    before = spec_edits.spec_fingerprint(spec)
    assert spec_edits.spec_fingerprint(spec) == before  # stable, NaN defaults included
    spec.option.timestep = 0.001
    assert spec_edits.describe_spec_difference(spec, before) == "spec.option.timestep"
    spec = _spec_with_every_element()
    spec.visual.quality.shadowsize = 1024
    assert spec_edits.describe_spec_difference(spec, before) == "spec.visual.quality.shadowsize"
    spec = _spec_with_every_element()
    spec.compiler.boundmass = 1e-3
    assert spec_edits.describe_spec_difference(spec, before) == "spec.compiler.boundmass"
    spec = _spec_with_every_element()
    spec.worldbody.add_body(name="another")
    assert spec_edits.describe_spec_difference(spec, before) == "the number of bodies"


def test_the_fingerprint_is_a_copy_and_compiling_does_not_change_it():
    spec = mujoco.MjSpec()
    body = spec.worldbody.add_body(name="body", pos=[0, 0, 1])
    body.add_freejoint()
    body.add_geom(size=[0.1, 0, 0])
    before = spec_edits.spec_fingerprint(spec)
    spec.compile()
    assert spec_edits.spec_fingerprint(spec) == before
    spec.body("body").pos[2] = 2.0
    assert spec_edits.describe_spec_difference(spec, before) == "bodies[1] 'body'.pos"
    assert spec_edits.describe_spec_difference(spec, spec_edits.spec_fingerprint(spec)) == ""
