"""PyMJCF behaviours of dm_control kept here, one by one (the differential tests in
tests/differential/test_mjcf_*.py compare the same against dm_control itself)."""

import os
import zipfile

import mujoco
import pytest

from composer_tasks import mjcf


def test_booleans_read_back_as_keywords_and_lights_take_directional():
    model = mjcf.RootElement(model="m")
    body = model.worldbody.add("body", name="mocap", mocap=True)
    light = model.worldbody.add("light", name="sun", directional="true")
    assert body.mocap == "true" and light.directional == "true" and light.type is None
    assert light.spec_element.type == mujoco.mjtLightType.mjLIGHT_DIRECTIONAL
    light.directional = False
    assert light.directional == "false"
    assert light.spec_element.type == mujoco.mjtLightType.mjLIGHT_SPOT
    with pytest.raises(ValueError, match="expected true or false"):
        light.directional = "sometimes"


def test_a_parsed_text_that_cannot_be_matched_reads_the_specs_values(tmp_path):
    part = tmp_path / "part.xml"
    part.write_text("<mujoco><default><geom rgba='1 0 0 1'/></default></mujoco>")
    main = tmp_path / "main.xml"
    main.write_text(
        "<mujoco><include file='part.xml'/>"
        "<worldbody><geom name='g' size='0.1'/></worldbody></mujoco>"
    )
    geom = mjcf.from_path(main).find("geom", "g")
    # An <include>d file's elements are matched in their places, as MuJoCo splices them.
    assert geom.rgba is None and geom.size.tolist() == [0.1]
    posed = tmp_path / "posed.xml"
    posed.write_text(
        "<mujoco><default><geom rgba='1 0 0 1'/></default><worldbody>"
        "<frame pos='0 0 1'><geom name='g' size='0.1'/></frame></worldbody></mujoco>"
    )
    geom = mjcf.from_path(posed).find("geom", "g")
    # A frame with a pose is not the model element by element: values of the spec.
    assert geom.rgba.tolist() == [1, 0, 0, 1] and geom.size.tolist() == [0.1, 0, 0]
    text = (
        "<mujoco><default><geom rgba='1 0 0 1'/></default>"
        "<worldbody><body name='b'><frame><geom name='g' size='0.1'/></frame></body>"
        "</worldbody><worldbody><site name='s'/></worldbody></mujoco>"
    )
    model = mjcf.from_xml_string(text)
    # Frames without a pose and repeated sections match: values as written.
    assert model.find("geom", "g").rgba is None
    assert model.find("geom", "g").size.tolist() == [0.1]
    assert model.find("site", "s").get_attributes() == {"name": "s"}


def test_attachment_frames_and_free_joints():
    arena = mjcf.RootElement(model="arena")
    model = mjcf.RootElement(model="prop")
    model.worldbody.add("geom", size=[0.1])
    with pytest.raises(AttributeError, match="'prop' is not attached"):
        mjcf.get_attachment_frame(model)
    frame = arena.attach(model)
    assert mjcf.get_frame_freejoint(model) is None
    with pytest.raises(AttributeError, match="no name attribute"):
        frame.name
    frame.add("joint", type="slide", axis=[1, 0, 0])
    with pytest.raises(ValueError, match="already has a joint named 'prop/'"):
        frame.add("joint", type="hinge")
    frame.add("freejoint", name="free")
    # PyMJCF names a frame's named joint "<frame>name/" (dm-control 1.0.50 gives "prop/free/").
    free = mjcf.get_frame_freejoint(model)
    assert (free.name, free.full_identifier) == ("free", "prop/free/")
    assert mjcf.get_freejoint(arena.worldbody) is None
    assert mjcf.get_freejoint(model.worldbody.geom[0]) is None
    with pytest.raises(AttributeError, match="takes the attached model"):
        mjcf.get_frame_freejoint(frame)


def test_bodies_cannot_be_named_world():
    model = mjcf.RootElement(model="m")
    with pytest.raises(ValueError, match="cannot be named 'world'"):
        model.worldbody.add("body", name="world")
    assert model.find_all("body") == []
    model.worldbody.add("site", name="world")  # other kinds may


def test_references_to_kinds_without_handles_read_as_names():
    model = mjcf.RootElement(model="m")
    sensor = model.sensor.add("tendonpos", name="length", tendon="cable")
    assert sensor.tendon == "cable"


def test_export_with_assets_as_zip_and_its_errors(tmp_path):
    model = mjcf.RootElement(model="m", assets={"m.xml": b"clash"})
    model.worldbody.add("geom", size=[0.1])
    with pytest.raises(ValueError, match="model_name must be a non-empty string"):
        mjcf.export_with_assets_as_zip(model, tmp_path, model_name="")
    # Asset files are written under their VFS names (`name-<sha1>.ext`), so only a
    # text named like one of them clashes.
    clash = mjcf.Asset(b"clash", ".xml")
    model.asset.add("texture", name="t", type="2d", file=clash)
    with pytest.raises(ValueError, match=f"an asset is named '{clash.get_vfs_filename()}'"):
        mjcf.export_with_assets(model, tmp_path, out_file_name=clash.get_vfs_filename())
    plain = mjcf.RootElement(model="plain")
    plain.worldbody.add("geom", size=[0.1])
    path = mjcf.export_with_assets_as_zip(plain, tmp_path / "zips")
    assert os.path.basename(path) == "plain.zip"
    with zipfile.ZipFile(path) as archive:
        assert archive.namelist() == ["plain/plain.xml"]


def test_default_classes_read_back_after_their_model_is_attached():
    # Attaching gives a model's classes new MjsDefaults (under its prefix): the record of
    # what was set goes by the class's name.
    model = mjcf.RootElement(model="child")
    model.default.geom.rgba = [1, 0, 0, 1]
    model.default.add("default", dclass="arm").geom.size = [0.1]
    mjcf.RootElement(model="parent").attach(model)
    assert model.default.geom.rgba.tolist() == [1, 0, 0, 1]
    assert model.default.geom.size is None
    assert model.find("default", "arm").geom.size.tolist() == [0.1]
