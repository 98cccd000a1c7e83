"""The PyMJCF element API's behaviour where this package must decide for itself
(dm_control's own is compared in tests/differential/test_surface_mjcf_api.py):
what MjSpec cannot represent is refused with a message naming why."""

import struct
import zipfile

import mujoco
import pytest

from composer_tasks import mjcf


def _arm():
    model = mjcf.RootElement(model="arm")
    body = model.worldbody.add("body", name="upper")
    body.add("joint", name="shoulder", type="hinge")
    body.add("geom", name="bone", size=[0.1])
    body.add("site", name="tip")
    return model, body


def test_insert_refuses_a_place_before_an_element_of_the_same_kind():
    model, body = _arm()
    with pytest.raises(ValueError, match=r"<geom> at position 0 .* same kind"):
        body.insert("geom", 0, name="first", size=[0.1])
    assert [geom.name for geom in body.geom] == ["bone"]  # nothing was added
    # After the geoms (before the site) is a geom's place in MjSpec's order.
    body.insert("geom", 2, name="second", size=[0.1])
    assert [geom.name for geom in body.geom] == ["bone", "second"]
    with pytest.raises(TypeError, match="position must be an integer"):
        body.insert("geom", "end", size=[0.1])


def test_all_children_follows_the_order_added():
    model, body = _arm()
    body.add("geom", name="late", size=[0.1])
    inner = body.add("body", name="lower")
    body.add("joint", name="twist", type="hinge")
    assert [(child.tag, child.name) for child in body.all_children()] == [
        ("joint", "shoulder"),
        ("geom", "bone"),
        ("site", "tip"),
        ("geom", "late"),
        ("body", "lower"),
        ("joint", "twist"),
    ]
    assert inner.all_children() == []
    # An inserted element is listed where it was inserted.
    body.insert("camera", 1, name="eye")
    model.contact.add("exclude", name="x", body1="upper", body2="lower")
    model.contact.insert("pair", -1, name="p", geom1="bone", geom2="late")
    assert [child.name for child in body.all_children()][:3] == ["shoulder", "eye", "bone"]
    assert [child.name for child in model.contact.all_children()] == ["p", "x"]


def test_all_children_of_a_model_built_with_mjspec_goes_kind_by_kind():
    spec = mujoco.MjSpec()
    body = spec.worldbody.add_body(name="b")
    body.add_geom(name="g", size=[0.1, 0, 0])
    body.add_joint(name="j")
    model = mjcf.RootElement._for_spec(spec)
    # No record says which came first: MjSpec's order, kind by kind.
    handle = model.find("body", "b")
    assert isinstance(handle, mjcf.Element)
    assert [child.name for child in handle.all_children()] == ["j", "g"]


def test_to_xml_string_refuses_a_debug_context():
    _, body = _arm()
    with pytest.raises(ValueError, match="debug mode"):
        body.to_xml_string(debug_context=object())


def test_resolve_references_makes_a_name_read_as_its_element():
    model = mjcf.RootElement(model="m")
    motor = model.actuator.add("motor", name="drive", joint="later")
    assert motor.joint == "later"
    body = model.worldbody.add("body", name="b")
    joint = body.add("joint", name="later")
    assert motor.joint == "later"  # as PyMJCF: a name given before its element
    model.resolve_references()
    assert motor.joint == joint
    assert motor.get_attribute_xml_string("joint") == "later"


def test_include_copy_refuses_what_it_would_lose():
    parent, _ = _arm()
    parent.attach(mjcf.RootElement(model="hand"))
    with pytest.raises(NotImplementedError, match="attachments"):
        mjcf.RootElement().include_copy(parent)
    with_tendon = mjcf.from_xml_string(
        """<mujoco><worldbody><body><joint name="j"/><geom size="1"/></body></worldbody>
        <tendon><fixed name="t"><joint joint="j" coef="1"/></fixed></tendon></mujoco>"""
    )
    # A tendon made by a raw MjSpec call: MjSpec does not list its path, copying would
    # lose it. (A parsed tendon's path is the text's, and is copied.)
    with_tendon.spec.add_tendon(name="raw")
    destination = mjcf.RootElement(model="d")
    with pytest.raises(ValueError, match="tendon 'raw' whose path is not known"):
        destination.include_copy(with_tendon)
    assert destination.worldbody.all_children() == []  # refused before anything was copied
    with pytest.raises(TypeError, match="RootElement"):
        destination.include_copy(with_tendon.worldbody)


def test_root_remove_detaches_attached_models():
    parent, _ = _arm()
    hand = mjcf.RootElement(model="hand")
    hand.worldbody.add("geom", name="palm", size=[0.1])
    parent.attach(hand)
    with pytest.raises(ValueError, match="affect_attachments=True"):
        parent.remove()
    assert parent.find("geom", "hand/palm") is not None  # a refused remove removes nothing
    parent.remove(affect_attachments=True)
    assert parent.worldbody.all_children() == []
    assert hand.is_removed
    with pytest.raises(mjcf.RemovedElementError):
        hand.worldbody  # noqa: B018
    assert mjcf.Physics.from_mjcf_model(parent).model.nbody == 1


def _tetrahedron_stl() -> bytes:
    corners = [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)]
    faces = [(0, 2, 1), (0, 1, 3), (0, 3, 2), (1, 2, 3)]
    data = b"\0" * 80 + struct.pack("<I", len(faces))
    for face in faces:
        data += struct.pack("<3f", 0, 0, 0)
        for index in face:
            data += struct.pack("<3f", *corners[index])
        data += b"\0\0"
    return data


def test_asset_contents_compile_under_their_vfs_name():
    model = mjcf.RootElement(model="m")
    asset = mjcf.Asset(_tetrahedron_stl(), ".stl", prefix="x" * 2000)
    name = asset.get_vfs_filename()
    assert len(name) == 998 and name.endswith(".stl")  # trimmed as PyMJCF trims
    model.asset.add("mesh", name="tet", file=asset)
    model.worldbody.add("geom", type="mesh", mesh="tet")
    assert list(model.get_assets()) == [name]
    assert mjcf.Physics.from_mjcf_model(model).model.nmeshvert == 4
    with pytest.raises(TypeError, match="contents must be bytes"):
        mjcf.Asset(3, ".stl")


def test_from_zip_reads_assets_relative_to_the_model_file(tmp_path):
    path = tmp_path / "nested.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(
            "model/scene.xml",
            '<mujoco><asset><mesh name="tet" file="parts/tet.stl"/></asset>'
            '<worldbody><geom type="mesh" mesh="tet"/></worldbody></mujoco>',
        )
        archive.writestr("model/parts/tet.stl", _tetrahedron_stl())
    model = mjcf.from_zip(path)
    physics = mjcf.Physics.from_mjcf_model(model)
    assert physics.model.nmesh == 1
    assert physics.model.geom_type[0] == mujoco.mjtGeom.mjGEOM_MESH
