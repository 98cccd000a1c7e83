"""Handles that cannot corrupt a model: removed and detached elements raise on every use,
and a failed `add` or attribute set leaves the model exactly as it was."""

import hashlib
import os

import mujoco
import numpy as np
import pytest

from composer_tasks import mjcf


def _model():
    model = mjcf.RootElement(model="robot")
    body = model.worldbody.add("body", name="body", pos=[0, 0, 1])
    joint = body.add("joint", name="hinge", axis=[0, 1, 0])
    geom = body.add("geom", name="box", type="box", size=[0.1, 0.1, 0.1])
    site = body.add("site", name="tip", pos=[0, 0, 0.1])
    motor = model.actuator.add("motor", name="motor", joint=joint)
    return model, body, joint, geom, site, motor


def _counts(model):
    spec = model.spec
    return {
        kind: len(getattr(spec, kind))
        for kind in ("bodies", "geoms", "joints", "sites", "actuators", "sensors", "materials")
    }


def _uses(handle):
    """Every use of a handle, as a function of nothing."""
    return {
        "read": lambda: handle.pos,
        "write": lambda: setattr(handle, "pos", [0, 0, 0]),
        "get_attributes": handle.get_attributes,
        "set_attributes": lambda: handle.set_attributes(pos=[0, 0, 0]),
        "name": lambda: handle.name,
        "full_identifier": lambda: handle.full_identifier,
        "parent": lambda: handle.parent,
        "spec_element": lambda: handle.spec_element,
        "remove": handle.remove,
    }


def test_a_removed_body_raises_on_every_use_and_takes_its_children():
    model, body, joint, geom, site, motor = _model()
    body.remove()
    assert body.is_removed and geom.is_removed and joint.is_removed
    for use_name, use in {
        **_uses(body),
        "add": lambda: body.add("geom", name="lost", size=[0.1]),
        "find": lambda: body.find("geom", "box"),
        "find_all": lambda: body.find_all("geom"),
        "attach": lambda: body.attach(mjcf.RootElement(model="x")),
        "children": lambda: body.geom,
    }.items():
        with pytest.raises(mjcf.RemovedElementError, match="removed from the model"):
            use()
        assert model.find("geom", "lost") is None, use_name
    for child in (joint, geom, site):
        for use in _uses(child).values():
            with pytest.raises(mjcf.RemovedElementError):
                use()
    assert "removed" in repr(body)
    assert model.find("body", "body") is None
    # The motor stays (MuJoCo would silently delete it with its joint): compiling names
    # the joint it lost, as PyMJCF's compile does.
    assert not motor.is_removed and motor.joint == "hinge"
    with pytest.raises(ValueError, match="hinge"):
        mjcf.Physics.from_mjcf_model(model)
    motor.remove()
    assert mjcf.Physics.from_mjcf_model(model).model.nu == 0


def test_binding_a_removed_element_raises():
    model, body, _, _, site, _ = _model()
    model.worldbody.add("body", name="other").add("geom", size=[0.1])
    physics = mjcf.Physics.from_mjcf_model(model)
    model.actuator.motor[0].remove()
    site.remove()
    physics = mjcf.Physics.from_mjcf_model(model)
    with pytest.raises(mjcf.RemovedElementError):
        physics.bind(site)
    assert physics.bind(body).xpos.shape == (3,)


def test_a_removed_section_element_raises():
    model, _, _, _, _, motor = _model()
    motor.remove()
    for use in _uses(motor).values():
        with pytest.raises(mjcf.RemovedElementError):
            use()
    assert model.find("actuator", "motor") is None
    assert mjcf.Physics.from_mjcf_model(model).model.nu == 0


def test_a_detached_model_and_its_handles_raise():
    arena = mjcf.RootElement(model="arena")
    model, body, _, geom, _, _ = _model()
    arena.attach(model)
    model.detach()
    for use in (
        lambda: model.worldbody.add("geom", size=[0.1]),
        lambda: model.find("geom", "box"),
        lambda: model.find_all("geom"),
        lambda: model.actuator.add("motor", joint="hinge"),
        lambda: model.default,
        lambda: arena.attach(model),
        lambda: mjcf.Physics.from_mjcf_model(model),
        lambda: model.compiler.angle,
        lambda: setattr(model.option, "timestep", 0.01),
        lambda: mjcf.get_attachment_frame(model),
        lambda: body.add("geom", size=[0.1]),
        lambda: geom.size,
    ):
        with pytest.raises(mjcf.RemovedElementError):
            use()
    with pytest.raises(RuntimeError, match="not attached"):
        model.detach()
    physics = mjcf.Physics.from_mjcf_model(arena)
    assert physics.model.nbody == 1 and physics.model.nu == 0


def test_removing_a_body_detaches_the_models_attached_below_it():
    arena = mjcf.RootElement(model="arena")
    holder = arena.worldbody.add("body", name="holder")
    site = holder.add("site", name="mount")
    model, _, _, geom, _, _ = _model()
    site.attach(model)
    # As in PyMJCF, only with affect_attachments=True.
    with pytest.raises(ValueError, match="affect_attachments=True"):
        holder.remove()
    assert not geom.is_removed
    holder.remove(affect_attachments=True)
    assert model.parent_model is None and geom.is_removed
    with pytest.raises(mjcf.RemovedElementError):
        model.find("geom", "box")
    assert mjcf.Physics.from_mjcf_model(arena).model.nbody == 1


def test_a_removed_frame_detaches_its_model():
    arena = mjcf.RootElement(model="arena")
    model, *_ = _model()
    frame = arena.attach(model)
    with pytest.raises(ValueError, match="affect_attachments=True"):
        frame.remove()
    frame.remove(affect_attachments=True)
    with pytest.raises(mjcf.RemovedElementError):
        model.worldbody.add("geom", size=[0.1])
    assert arena.find_all("body") == []


class _RaisingFloat:
    def __float__(self):
        raise RuntimeError("no float here")


class _RaisingArray:
    def __array__(self, dtype=None, copy=None):
        raise ZeroDivisionError("no array here")


# (attribute values of a geom, the error expected): every kind of failure.
_BAD_GEOM_VALUES = [
    ({"size": [10**400]}, ValueError),  # overflows a float
    ({"mass": 10**400}, ValueError),
    ({"size": [_RaisingFloat()]}, ValueError),  # a value whose __float__ raises
    ({"mass": _RaisingFloat()}, ValueError),
    ({"pos": _RaisingArray()}, ValueError),
    ({"size": "0.1 abc"}, ValueError),
    ({"size": [0.1, 0.2, 0.3, 0.4]}, ValueError),
    ({"size": [[0.1, 0.2]]}, ValueError),
    ({"rgba": [1, 0, 0]}, ValueError),
    ({"type": "blob"}, ValueError),
    ({"type": 5}, ValueError),
    ({"contype": 1.5}, ValueError),
    ({"contype": 2**40}, ValueError),
    ({"mass": "heavy"}, ValueError),
    ({"mass": [1, 2]}, ValueError),
    ({"name": 3}, TypeError),
    ({"name": "a/b"}, ValueError),
    ({"material": 3}, TypeError),
    ({"material": "mat", "mesh": 4}, TypeError),  # fails on a later attribute
    ({"dclass": "nope"}, ValueError),
    ({"dclass": 3}, TypeError),
    ({"sizee": [0.1]}, AttributeError),
]


@pytest.mark.parametrize(("values", "error"), _BAD_GEOM_VALUES)
def test_a_failed_add_leaves_the_model_as_it_was(values, error):
    model, body, *_ = _model()
    before = _counts(model)
    xml_before = model.to_xml_string()
    with pytest.raises(error):
        body.add("geom", **{"name": "g", "size": [0.1], **values})
    assert _counts(model) == before
    assert model.find("geom", "g") is None and model.to_xml_string() == xml_before
    body.add("geom", name="g", size=[0.1])  # the name is free: nothing was left behind
    assert mjcf.Physics.from_mjcf_model(model).model.ngeom == 2


def test_failed_adds_of_bad_references_leave_nothing():
    model, body, joint, geom, site, _ = _model()
    other = mjcf.RootElement(model="other")
    other_joint = other.worldbody.add("body").add("joint", name="j")
    before = _counts(model)
    for add, error in [
        (lambda: model.actuator.add("motor", name="a", joint=geom), ValueError),  # wrong kind
        (lambda: model.actuator.add("motor", name="a", joint=other_joint), ValueError),
        (lambda: model.actuator.add("motor", name="a", joint=3), TypeError),
        (lambda: model.sensor.add("touch", name="a", site=joint), ValueError),
        (lambda: model.sensor.add("framepos", name="a", objtype="blob"), ValueError),
        (lambda: model.sensor.add("framepos", name="a", objname=joint), ValueError),
        (lambda: model.contact.add("exclude", name="a", body1=site), ValueError),
        (lambda: model.actuator.add("position", name="a", joint="hinge", kp=10**400), ValueError),
        (lambda: body.add("site", name="a", euler=[1, 2]), ValueError),
        (lambda: body.add("body", name="a", childclass="nope"), ValueError),
    ]:
        with pytest.raises(error):
            add()
        assert _counts(model) == before
        assert model.find("actuator", "a") is None and model.find("sensor", "a") is None


def test_a_reference_to_an_unnamed_element_names_it_as_dm_control_writes_it():
    model, body, *_ = _model()
    unnamed = body.add("joint", axis=[1, 0, 0])
    motor = model.actuator.add("motor", joint=unnamed)
    # The identifier dm_control gives an unnamed element: its place among the model's
    # joints (after "hinge"); the element's own name stays None.
    assert unnamed.full_identifier == "//unnamed_joint_1" and motor.joint == unnamed
    assert unnamed.name is None and "name" not in unnamed.get_attributes()
    second = body.add("joint", axis=[0, 1, 0])
    model.actuator.add("motor", joint=second)
    assert second.full_identifier == "//unnamed_joint_2"
    # The compiled model names a referred one so too.
    assert unnamed.spec_element.name == "//unnamed_joint_1"
    physics = mjcf.Physics.from_mjcf_model(model)
    assert physics.bind(second).qposadr == physics.model.jnt_qposadr[-1]


def test_a_failed_set_leaves_the_element_as_it_was():
    model, body, joint, geom, _, motor = _model()
    geom.set_attributes(mass=2, rgba=[1, 0, 0, 1])
    before = (geom.get_attributes(), np.array(geom.spec_element.size), geom.spec_element.mass)
    for name, value in [
        ("size", [10**400]),
        ("size", [_RaisingFloat()]),
        ("mass", _RaisingFloat()),
        ("type", "blob"),
        ("name", 7),
        ("material", 2),
        ("euler", [1, 2]),
    ]:
        with pytest.raises((ValueError, TypeError)):
            setattr(geom, name, value)
    with pytest.raises(ValueError, match="'size'"):
        geom.set_attributes(mass=5, euler=[0, 0, 1], pos=[1, 2, 3], size="bad")
    with pytest.raises(AttributeError):
        geom.set_attributes(mass=5, nope=1)
    after = (geom.get_attributes(), np.array(geom.spec_element.size), geom.spec_element.mass)
    assert after[0].keys() == before[0].keys()
    for key, value in before[0].items():
        assert np.all(after[0][key] == value), key
    np.testing.assert_array_equal(after[1], before[1])
    assert after[2] == before[2] and geom.euler is None
    assert geom.spec_element.alt.type == mujoco.mjtOrientation.mjORIENTATION_QUAT
    with pytest.raises(ValueError):
        motor.set_attributes(ctrlrange=[-1, 1], joint=geom)
    assert motor.ctrlrange is None and motor.joint == joint


def test_a_failed_set_of_defaults_and_settings_leaves_them_as_they_were():
    model = mjcf.RootElement(model="m")
    model.default.geom.set_attributes(rgba=[1, 0, 0, 1])
    with pytest.raises(ValueError):
        model.default.geom.set_attributes(size=[0.2], rgba=[2, 2], type="box")
    assert model.default.geom.size is None and model.default.geom.rgba.tolist() == [1, 0, 0, 1]
    assert model.spec.default.geom.size[0] == 0
    with pytest.raises(ValueError):
        model.option.set_attributes(timestep=0.01, gravity=[1, 2])
    assert model.option.timestep is None and model.spec.option.timestep == 0.002
    with pytest.raises(ValueError):
        model.default.geom.mass = 10**400


def test_clearing_an_attribute_restores_the_class_value():
    model = mjcf.RootElement(model="m")
    model.default.geom.rgba = [1, 0, 0, 1]
    with pytest.raises(ValueError, match="cannot be cleared"):
        model.default.geom.rgba = None
    body = model.worldbody.add("body", name="b", pos=[0, 0, 1], euler=[0, 0, 1])
    geom = body.add("geom", name="g", size=[0.1], rgba=[0, 1, 0, 1])
    geom.rgba = None
    body.pos = None
    body.euler = None
    assert geom.rgba is None and geom.spec_element.rgba.tolist() == [1, 0, 0, 1]
    assert body.pos is None and body.spec_element.pos.tolist() == [0, 0, 0]
    assert body.spec_element.alt.type == mujoco.mjtOrientation.mjORIENTATION_QUAT
    assert set(geom.get_attributes()) == {"name", "size"}
    with pytest.raises(ValueError, match="cannot be cleared"):
        body.childclass = None


def test_a_nul_character_is_refused():
    with pytest.raises(ValueError, match="NUL character at offset 22"):
        mjcf.from_xml_string("<mujoco model='a'><!--\x00--></mujoco>")


def test_an_unnamed_model_is_unnamed_model():
    assert mjcf.from_xml_string("<mujoco/>").model == "unnamed_model"
    assert mjcf.RootElement().model == "unnamed_model"
    assert mjcf.from_xml_string('<mujoco model="MuJoCo Model"/>').model == "MuJoCo Model"
    arena = mjcf.RootElement(model="arena")
    parsed = mjcf.from_xml_string(
        "<mujoco><worldbody><geom name='a' size='1'/></worldbody></mujoco>"
    )
    arena.attach(parsed)
    assert parsed.find("geom", "a").full_identifier == "unnamed_model/a"


def _write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as handle:
        handle.write(text)


def test_includes_outside_the_model_folder_are_refused(tmp_path):
    outside = tmp_path / "outside.xml"
    _write(str(outside), "<mujoco><worldbody><geom name='o' size='1'/></worldbody></mujoco>")
    inside = tmp_path / "model" / "part.xml"
    _write(str(inside), "<mujoco><worldbody><geom name='p' size='1'/></worldbody></mujoco>")
    main = tmp_path / "model" / "main.xml"
    _write(str(main), "<mujoco><include file='part.xml'/></mujoco>")
    assert mjcf.from_path(main).find("geom", "p") is not None
    for name in ("../outside.xml", str(outside)):
        _write(str(main), f"<mujoco><include file='{name}'/></mujoco>")
        with pytest.raises(ValueError, match="outside the model's folder"):
            mjcf.from_path(main)
        model = mjcf.from_path(main, allow_paths_outside_model_dir=True)
        assert model.find("geom", "o") is not None
    # An include of an include is checked too.
    _write(str(inside), f"<mujoco><include file='{outside}'/></mujoco>")
    _write(str(main), "<mujoco><include file='part.xml'/></mujoco>")
    with pytest.raises(ValueError, match="outside the model's folder"):
        mjcf.from_path(main)
    text = f"<mujoco><include file='{outside}'/></mujoco>"
    with pytest.raises(ValueError, match="outside the model's folder"):
        mjcf.from_xml_string(text, model_dir=str(tmp_path / "model"))


def test_asset_files_outside_the_model_folder_are_refused(tmp_path):
    secret = tmp_path / "secret.png"
    secret.write_bytes(b"not for sharing")
    folder = tmp_path / "model"
    folder.mkdir()
    text = "<mujoco><asset><texture name='t' type='2d' file='../secret.png'/></asset></mujoco>"
    with pytest.raises(ValueError, match="asset file '../secret.png' is outside"):
        mjcf.from_xml_string(text, model_dir=str(folder))
    allowed = mjcf.from_xml_string(text, model_dir=str(folder), allow_paths_outside_model_dir=True)
    # Named as PyMJCF names asset files: the file's name, "-", the SHA-1 of its bytes.
    secret_name = f"secret-{hashlib.sha1(b'not for sharing').hexdigest()}.png"
    assert allowed.get_assets() == {secret_name: b"not for sharing"}
    built = mjcf.RootElement(model="m", model_dir=str(folder))
    built.asset.add("texture", name="t", type="2d", file=str(secret))
    with pytest.raises(ValueError, match="outside the model's folder"):
        built.get_assets()
    trusting = mjcf.RootElement(
        model="m", model_dir=str(folder), allow_paths_outside_model_dir=True
    )
    trusting.asset.add("texture", name="t", type="2d", file=str(secret))
    assert trusting.get_assets() == {secret_name: b"not for sharing"}


def test_export_with_assets_writes_loadable_files(tmp_path):
    texture = np.zeros((4, 4, 3), np.uint8)
    texture[::2] = 255
    folder = tmp_path / "assets"
    folder.mkdir()
    model = mjcf.RootElement(model="m", model_dir=str(folder), assets={"grid.png": _png(texture)})
    model.asset.add("texture", name="grid", type="2d", file="grid.png")
    model.asset.add("material", name="grid", texture="grid")
    model.worldbody.add("geom", type="plane", size=[1, 1, 0.1], material="grid")
    mjcf.export_with_assets(model, tmp_path / "out")
    grid_name = f"grid-{hashlib.sha1(_png(texture)).hexdigest()}.png"
    assert sorted(os.listdir(tmp_path / "out")) == [grid_name, "m.xml"]
    loaded = mujoco.MjModel.from_xml_path(str(tmp_path / "out" / "m.xml"))
    assert loaded.ntex == 1 and loaded.nmat == 1
    with pytest.raises(ValueError, match="must end with '.xml'"):
        mjcf.export_with_assets(model, tmp_path / "out", "m.txt")
    # A file named through ".." is written beside the text, under its VFS name.
    beside = mjcf.RootElement(model="beside", assets={"../escape.png": _png(texture)})
    beside.asset.add("texture", name="t", type="2d", file="../escape.png")
    mjcf.export_with_assets(beside, tmp_path / "out2")
    escape_name = f"escape-{hashlib.sha1(_png(texture)).hexdigest()}.png"
    assert sorted(os.listdir(tmp_path / "out2")) == ["beside.xml", escape_name]


def _png(pixels):
    """A PNG file of an RGB image (uncompressed deflate blocks: no codec needed)."""
    import struct
    import zlib

    height, width, _ = pixels.shape
    raw = b"".join(b"\x00" + pixels[row].tobytes() for row in range(height))

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


def test_removed_elements_are_remembered_only_while_a_handle_holds_them():
    # A model that adds and removes elements every episode does not grow.
    model, body, *_ = _model()
    for _ in range(100):
        body.add("geom", size=[0.1]).remove()
    assert len(model._removed) == 0
    held = body.add("geom", size=[0.1])
    held.remove()
    assert len(model._removed) == 1 and held.is_removed
