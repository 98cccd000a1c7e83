"""PyMJCF's generic element API, case by case: children (`get_children`,
`all_children`, `insert`), comparison (`is_same_as`), names (`prefixed_identifier`,
`get_attribute_xml_string`, `enter_scope`), references, the root element's own
methods, `mjcf.Asset`, `mjcf.from_zip` and `mjcf.get_frame_joints`; each run on
both sides and compared.
"""

import pytest

from tests.differential.surface_cases import PRELUDE, assert_case

_MARK = pytest.mark

PROGRAM = (
    PRELUDE
    + r"""
import io
import os
import struct
import tempfile
import zipfile
import numpy as np
from dm_control import mjcf

XML = '''
<mujoco model="m">
  <default>
    <default class="thin"><geom size="0.02"/></default>
  </default>
  <worldbody>
    <body name="a" pos="0 0 1">
      <joint name="hinge" type="hinge" axis="0 1 0" range="-1 1"/>
      <geom name="ga" size="0.1" pos="0 0 0.000001"/>
      <geom name="gb" class="thin" type="sphere"/>
      <site name="s" pos="0.1 0.2 0.3"/>
      <body name="b" pos="0.3 0 0">
        <joint name="slide" type="slide"/>
        <geom name="gc" size="0.1"/>
      </body>
    </body>
  </worldbody>
  <actuator><motor name="m1" joint="hinge" gear="2.5"/></actuator>
</mujoco>
'''


COPIED_XML = '''
<mujoco model="copied">
  <compiler angle="radian"/>
  <option timestep="0.004" iterations="20"><flag gravity="disable"/></option>
  <default>
    <geom rgba="1 0 0 1"/>
    <default class="thin"><geom size="0.02"/><joint damping="0.5"/></default>
  </default>
  <asset><material name="red" rgba="1 0 0 1"/></asset>
  <worldbody>
    <body name="a" pos="0 0 1">
      <joint name="hinge" type="hinge" axis="0 1 0" range="-1 1"/>
      <geom name="ga" size="0.1" material="red"/>
      <geom name="gb" class="thin" type="sphere"/>
      <site name="s" pos="0.1 0.2 0.3"/>
      <body name="b" childclass="thin" pos="0.3 0 0">
        <joint name="slide" type="slide"/>
        <geom name="gc" size="0.1"/>
      </body>
    </body>
  </worldbody>
  <contact><exclude body1="a" body2="b"/></contact>
  <actuator><motor name="m1" joint="hinge" gear="2.5"/></actuator>
  <sensor><jointpos joint="slide"/></sensor>
  <keyframe><key name="k" qpos="0.1 0.2"/></keyframe>
</mujoco>
'''


def tetrahedron_stl():
    corners = [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)]
    faces = [(0, 2, 1), (0, 1, 3), (0, 3, 2), (1, 2, 3)]
    data = b"\0" * 80 + struct.pack("<I", len(faces))
    for face in faces:
        data += struct.pack("<3f", 0, 0, 0)
        for index in face:
            data += struct.pack("<3f", *corners[index])
        data += b"\0\0"
    return data


def child_model():
    child = mjcf.RootElement(model="child")
    arm = child.worldbody.add("body", name="arm")
    arm.add("joint", name="elbow", type="hinge")
    arm.add("geom", name="g", size=[0.1])
    child.worldbody.add("site", name="tip")
    return child


@case("children")
def _(put):
    root = mjcf.from_xml_string(XML)
    a = root.find("body", "a")
    put("geoms", [geom.name for geom in a.get_children("geom")])
    put("bodies", [body.name for body in a.get_children("body")])
    put("inertial", a.get_children("inertial"))
    put("all_children", [(child.tag, child.name) for child in a.all_children()])
    put("worldbody_children", [(child.tag, child.name) for child in root.worldbody.all_children()])
    put("geom_children", root.find("geom", "ga").all_children())
    try:
        a.get_children("motor")
    except AttributeError:
        put("invalid_child", "AttributeError")
    a.add("inertial", mass=2.0, pos=[0, 0, 0.1])
    put("inertial_added", a.get_children("inertial").mass)


@case("insert")
def _(put):
    root = mjcf.from_xml_string(XML)
    b = root.find("body", "b")
    b.insert("geom", None, name="last", size=[0.05])
    b.insert("site", 0, name="first_site")
    b.insert("camera", 2, name="cam")
    root.actuator.insert("position", None, name="m2", joint="slide", kp=3)
    root.asset.insert("material", 0, name="inserted")
    put("section_children", [[a.name for a in root.actuator.get_children("motor")],
                             [a.name for a in root.actuator.get_children("position")]])
    physics = mjcf.Physics.from_mjcf_model(root)
    put("actuators", [physics.model.actuator(i).name for i in range(physics.model.nu)])
    put("materials", physics.model.nmat)
    put("geoms", [physics.model.geom(i).name for i in range(physics.model.ngeom)])
    put("sites", [physics.model.site(i).name for i in range(physics.model.nsite)])
    put("ncam", physics.model.ncam)
    try:
        root.insert("worldbody", 0)
    except ValueError as error:
        put("root_insert", str(error))


@case("parsed_class_reference")
def _(put):
    model = mjcf.from_xml_string(XML)
    gb = model.find("geom", "gb")
    put("type", type(gb.dclass).__name__ != "str")
    put("class_name", gb.dclass.dclass)
    put("unset", model.find("geom", "ga").dclass)
    written = model.worldbody.add("geom", name="gd", dclass="thin", size=[0.1])
    put("written_as_name", written.dclass)
    put("xml_text", gb.get_attribute_xml_string("class"))
    put("same_parse", mjcf.from_xml_string(XML).is_same_as(mjcf.from_xml_string(XML)))


@case("remove_attachments")
def _(put):
    arena = mjcf.from_xml_string(XML)
    holder = arena.worldbody.add("body", name="holder")
    child = child_model()
    holder.add("site", name="mount").attach(child)
    try:
        holder.remove()
        put("holder_removed_without_flag", True)
    except ValueError as error:
        put("holder_error", str(error))
    put("holder_still_there", arena.find("body", "holder") is not None)
    holder.remove(affect_attachments=True)
    put("holder_gone", arena.find("body", "holder") is None)
    put("bodies_after", mjcf.Physics.from_mjcf_model(arena).model.nbody)
    other = child_model()
    frame = arena.attach(other)
    try:
        frame.remove()
        put("frame_removed_without_flag", True)
    except ValueError as error:
        put("frame_error", str(error))
    frame.remove(affect_attachments=True)
    put("frame_bodies_after", mjcf.Physics.from_mjcf_model(arena).model.nbody)


@case("is_same_as")
def _(put):
    first, second = mjcf.from_xml_string(XML), mjcf.from_xml_string(XML)
    put("root_same", first.is_same_as(second))
    put("body_same", first.find("body", "a").is_same_as(second.find("body", "a")))
    put("different_bodies", first.find("body", "a").is_same_as(second.find("body", "b")))
    put("none", first.find("geom", "ga").is_same_as(None))
    put("tag_differs", first.find("geom", "ga").is_same_as(second.find("site", "s")))
    put("motor_same", first.find("actuator", "m1").is_same_as(second.find("actuator", "m1")))
    second.find("geom", "gc").size = [0.2]
    put("after_size_change", first.is_same_as(second))
    put("body_after_change", first.find("body", "a").is_same_as(second.find("body", "a")))
    put("sibling_unchanged", first.find("geom", "ga").is_same_as(second.find("geom", "ga")))
    third = mjcf.from_xml_string(XML)
    third.find("body", "b").add("site", name="extra")
    put("after_add", first.is_same_as(third))
    fourth = mjcf.from_xml_string(XML)
    fourth.find("actuator", "m1").gear = [3.0]
    put("after_actuator_change", first.is_same_as(fourth))


@case("prefixed_identifier")
def _(put):
    parent = mjcf.from_xml_string(XML)
    child = child_model()
    frame = parent.find("site", "s").attach(child)
    elbow = child.find("joint", "elbow")
    put("own", elbow.prefixed_identifier(None))
    put("from_parent", elbow.prefixed_identifier(parent.namescope))
    put("from_child", elbow.prefixed_identifier(child.namescope))
    put("parent_element", parent.find("geom", "ga").prefixed_identifier(parent.namescope))
    put("worldbody", [parent.worldbody.prefixed_identifier(None),
                      child.worldbody.prefixed_identifier(parent.namescope),
                      child.worldbody.prefixed_identifier(None)])
    put("frame", frame.prefixed_identifier(parent.namescope))
    put("root", parent.prefixed_identifier(None))
    grandchild = mjcf.RootElement(model="grand")
    grandchild.worldbody.add("geom", name="gg", size=[0.1])
    child.find("site", "tip").attach(grandchild)
    gg = grandchild.find("geom", "gg")
    put("two_levels", [gg.prefixed_identifier(parent.namescope),
                       gg.prefixed_identifier(child.namescope),
                       gg.prefixed_identifier(grandchild.namescope)])


@case("attribute_xml_string")
def _(put):
    parent = mjcf.from_xml_string(XML)
    child = child_model()
    parent.attach(child)
    ga = parent.find("geom", "ga")
    put("size", ga.get_attribute_xml_string("size"))
    put("pos", ga.get_attribute_xml_string("pos"))
    put("pos_precision", ga.get_attribute_xml_string("pos", precision=3))
    put("pos_zero_threshold", ga.get_attribute_xml_string("pos", zero_threshold=1e-5))
    put("unset", ga.get_attribute_xml_string("rgba"))
    put("name", ga.get_attribute_xml_string("name"))
    put("range", parent.find("joint", "hinge").get_attribute_xml_string("range"))
    put("keyword", parent.find("geom", "gb").get_attribute_xml_string("type"))
    put("class", parent.find("geom", "gb").get_attribute_xml_string("class"))
    motor = parent.find("actuator", "m1")
    put("gear", motor.get_attribute_xml_string("gear"))
    put("reference", motor.get_attribute_xml_string("joint"))
    put("reference_from_root", motor.get_attribute_xml_string("joint", parent.namescope))
    motor2 = child.actuator.add("motor", name="m2", joint="elbow")
    put("child_reference", [motor2.get_attribute_xml_string("joint"),
                            motor2.get_attribute_xml_string("joint", parent.namescope),
                            motor2.get_attribute_xml_string("name", parent.namescope)])
    put("root_model", parent.get_attribute_xml_string("model"))
    try:
        ga.get_attribute_xml_string("nope")
    except AttributeError:
        put("invalid", "AttributeError")


@case("to_xml_string")
def _(put):
    import xml.etree.ElementTree as ElementTree

    def parsed(text):
        # XML attributes are unordered: compare each element's as a sorted list.
        def walk(node):
            return [node.tag, sorted(node.attrib.items()), (node.text or "").strip(),
                    [walk(child) for child in node]]
        return walk(ElementTree.fromstring(text))

    root = mjcf.from_xml_string(XML)
    root.find("body", "b").childclass = "thin"
    child = child_model()
    # (all_children lists a body's children kind by kind: no site after the arm here)
    child.find("site", "tip").remove()
    frame = root.attach(child)
    frame.add("freejoint")
    a = root.find("body", "a")
    put("body", parsed(a.to_xml_string()))
    put("body_self_only", parsed(a.to_xml_string(self_only=True)))
    put("worldbody", parsed(root.worldbody.to_xml_string()))
    put("precision", parsed(a.to_xml_string(precision=3, zero_threshold=1e-5)))
    put("motor", parsed(root.find("actuator", "m1").to_xml_string()))
    put("child_geom", [parsed(child.find("geom", "g").to_xml_string()),
                       parsed(child.find("geom", "g").to_xml_string(prefix_root=root.namescope))])
    put("pretty", [a.to_xml_string().endswith("\n"), "\n" in a.to_xml_string(pretty_print=False)])
    put("class_unset", [root.find("geom", "ga").get_attribute_xml_string("class"),
                        root.find("geom", "gc").get_attribute_xml_string("class"),
                        child.find("geom", "g").get_attribute_xml_string("class"),
                        child.find("geom", "g").get_attribute_xml_string("class", root.namescope)])


@case("include_copy")
def _(put):
    source = mjcf.from_xml_string(COPIED_XML)
    destination = mjcf.RootElement(model="destination")
    destination.worldbody.add("geom", name="floor", type="plane", size=[1, 1, 0.1])
    destination.include_copy(source)
    put("model", destination.model)
    motor = destination.find("actuator", "m1")
    put("reference", [isinstance(motor.joint, mjcf.Element), motor.joint.full_identifier,
                      motor.joint.root is destination])
    put("material", destination.find("geom", "ga").material.name)
    put("classes", [cls.dclass for cls in destination.default.default])
    physics = mjcf.Physics.from_mjcf_model(destination)
    model = physics.model
    put("counts", [model.nbody, model.ngeom, model.njnt, model.nmat, model.nkey, model.nsensor,
                   model.nexclude, model.nu])
    put("settings", [model.opt.timestep, model.opt.disableflags])
    put("geoms", [model.geom_rgba, model.geom_size, model.body_mass, model.actuator_gear[:, 0]])
    put("source_unchanged", len(source.find_all("geom")))
    try:
        destination.include_copy(source)
    except ValueError:
        put("copied_twice", "ValueError")
    empty = mjcf.RootElement(model="empty")
    empty.include_copy(source)
    put("same_as_source", [empty.is_same_as(source), destination.is_same_as(source)])
    merged = mjcf.RootElement(model="merged")
    merged.option.timestep = 0.01
    merged.option.iterations = 500
    merged.include_copy(source)
    put("merged", [merged.option.timestep, merged.option.iterations])
    conflicting = mjcf.RootElement(model="conflicting")
    conflicting.compiler.angle = "degree"
    try:
        conflicting.include_copy(source)
    except ValueError:
        put("conflict", "ValueError")
    overridden = mjcf.RootElement(model="overridden")
    overridden.compiler.angle = "degree"
    overridden.include_copy(source, override_attributes=True)
    put("override_angle", overridden.compiler.angle)
    again = mjcf.from_xml_string(COPIED_XML)
    source.find("geom", "ga").size = [0.5]
    again.include_copy(source, override_attributes=True)
    put("override_elements", [again.find("geom", "ga").size, len(again.find_all("geom"))])
    parent = mjcf.RootElement(model="parent")
    parent.attach(child_model())
    try:
        mjcf.RootElement().include_copy(parent)
    except NotImplementedError as error:
        put("attachments", str(error))


@case("root_remove")
def _(put):
    root = mjcf.from_xml_string(COPIED_XML)
    root.default.add("default", dclass="wide").geom.size = [0.5]
    root.visual.map.znear = 0.5
    root.size.njmax = 300
    hinge = root.find("joint", "hinge")
    child = child_model()
    root.attach(child)
    try:
        root.remove()
    except ValueError as error:
        put("with_attachments", str(error))
    root.remove(affect_attachments=True)
    put("removed", [root.is_removed, hinge.is_removed])
    put("settings", [root.option.timestep, root.option.iterations, root.compiler.angle,
                     root.visual.map.znear, root.size.njmax, root.default.geom.rgba,
                     list(root.default.default)])
    put("children", [root.worldbody.all_children(), root.actuator.all_children(),
                     root.asset.all_children(), root.keyframe.all_children()])
    physics = mjcf.Physics.from_mjcf_model(root)
    model = physics.model
    put("compiled", [model.nbody, model.ngeom, model.njnt, model.nu, model.nmat, model.nkey,
                     model.opt.timestep, model.opt.iterations, model.vis.map.znear])
    root.worldbody.add("body", name="again").add("geom", size=[0.2])
    root.default.add("default", dclass="thin")
    put("rebuilt", mjcf.Physics.from_mjcf_model(root).model.ngeom)


@case("resolve_references")
def _(put):
    root = mjcf.RootElement(model="r")
    motor = root.actuator.add("motor", name="m", joint="later")
    body = root.worldbody.add("body", name="b")
    body.add("geom", size=[0.1])
    body.add("joint", name="later")
    root.resolve_references()
    put("resolved", [isinstance(motor.joint, mjcf.Element), motor.joint.name])
    motor.resolve_references()
    put("again", motor.joint.name)


@case("enter_scope")
def _(put):
    parent = mjcf.from_xml_string(XML)
    child = child_model()
    grandchild = mjcf.RootElement(model="grand")
    child.find("site", "tip").attach(grandchild)
    parent.find("site", "s").attach(child)
    a = parent.find("body", "a")
    put("from_body", a.enter_scope("child") is child)
    put("nested", a.enter_scope("child/grand") is grandchild)
    put("from_child_element", child.find("joint", "elbow").enter_scope("grand") is grandchild)
    put("missing", a.enter_scope("nope"))


@case("root_element")
def _(put):
    root = mjcf.from_xml_string(XML)
    put("parent", root.parent)
    put("is_removed", root.is_removed)
    put("get_attributes", root.get_attributes())
    root.set_attributes(model="renamed")
    put("get_attributes_after_set", root.get_attributes())
    for tag in ("worldbody", "asset", "tendon"):
        try:
            root.add(tag)
        except ValueError as error:
            put(f"add_{tag}", str(error))
    try:
        root.add("body")
    except AttributeError:
        put("add_body", "AttributeError")
    put("get_children", [root.get_children("worldbody").tag, root.get_children("asset").tag,
                         root.get_children("actuator").tag])
    try:
        root.set_attributes(nope=1)
    except AttributeError:
        put("set_invalid", "AttributeError")
    child = child_model()
    root.attach(child)
    put("attached_parent", child.parent)
    put("attached_is_removed", child.is_removed)


@case("root_all_children")
def _(put):
    root = mjcf.from_xml_string(XML)
    put("tags", [child.tag for child in root.all_children()])


@case("asset")
def _(put):
    root = mjcf.RootElement(model="r")
    data = tetrahedron_stl()
    asset = mjcf.Asset(data, ".stl", prefix="tet")
    put("contents", asset.contents == data)
    put("vfs_filename", [asset.get_vfs_filename(), asset.get_vfs_filename(False),
                         mjcf.Asset(data, ".stl").get_vfs_filename()])
    put("equal", asset == mjcf.Asset(data, ".stl", prefix="tet"))
    mesh = root.asset.add("mesh", name="tet", file=asset)
    put("file_reads_asset", [isinstance(mesh.file, mjcf.Asset), mesh.file.contents == data])
    root.worldbody.add("geom", type="mesh", mesh="tet")
    put("assets", sorted(root.get_assets()))
    physics = mjcf.Physics.from_mjcf_model(root)
    put("compiled", [physics.model.nmesh, physics.model.nmeshvert])


def _zip_without_xml(directory):
    path = os.path.join(directory, "empty.zip")
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("readme.txt", "nothing")
    return path


def _not_a_zip(directory):
    path = os.path.join(directory, "plain.txt")
    with open(path, "w") as handle:
        handle.write("not a zip")
    return path


@case("from_zip")
def _(put):
    directory = tempfile.mkdtemp()
    xml = '''<mujoco model="zipped">
      <asset><mesh name="tet" file="meshes/tet.stl"/></asset>
      <worldbody><geom type="mesh" mesh="tet"/><geom name="ball" size="0.1"/></worldbody>
    </mujoco>'''
    path = os.path.join(directory, "model.zip")
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("model.xml", xml)
        archive.writestr("meshes/tet.stl", tetrahedron_stl())
    root = mjcf.from_zip(path)
    put("model", root.model)
    put("ball", root.find("geom", "ball").size)
    physics = mjcf.Physics.from_mjcf_model(root)
    put("compiled", [physics.model.nmesh, physics.model.nmeshvert, physics.model.ngeom])
    two = os.path.join(directory, "two.zip")
    with zipfile.ZipFile(two, "w") as archive:
        archive.writestr("other.xml", "<mujoco/>")
        archive.writestr("main.xml", xml.replace("zipped", "main"))
        archive.writestr("meshes/tet.stl", tetrahedron_stl())
    put("model_file", mjcf.from_zip(two, model_file="main.xml").model)
    for name, make in (("none_named", lambda: mjcf.from_zip(two)),
                       ("no_xml", lambda: mjcf.from_zip(_zip_without_xml(directory))),
                       ("not_zip", lambda: mjcf.from_zip(_not_a_zip(directory)))):
        try:
            make()
        except ValueError as error:
            put(name, str(error).replace(directory, "DIR"))


@case("frame_joints")
def _(put):
    parent = mjcf.from_xml_string(XML)
    child = child_model()
    frame = parent.attach(child)
    put("none_yet", mjcf.get_frame_joints(child))
    frame.add("joint", name="x", type="slide", axis=[1, 0, 0])
    frame.add("joint", name="y", type="slide", axis=[0, 1, 0])
    put("joints", [joint.full_identifier for joint in mjcf.get_frame_joints(child)])
    other = child_model()
    other.model = "other"
    parent.attach(other).add("freejoint")
    put("free", [joint.tag for joint in mjcf.get_frame_joints(other)])
    try:
        mjcf.get_frame_joints(parent)
    except AttributeError:
        put("unattached", "AttributeError")
"""
)

CASES = [
    pytest.param(
        "children",
        marks=_MARK.dm_control_api("mjcf.Element.get_children", "mjcf.Element.all_children"),
        id="children",
    ),
    pytest.param(
        "insert",
        marks=_MARK.dm_control_api("mjcf.Element.insert", "mjcf.RootElement.insert"),
        id="insert",
    ),
    pytest.param(
        "is_same_as",
        marks=_MARK.dm_control_api("mjcf.Element.is_same_as", "mjcf.RootElement.is_same_as"),
        id="is_same_as",
    ),
    pytest.param(
        "prefixed_identifier",
        marks=_MARK.dm_control_api(
            "mjcf.Element.prefixed_identifier", "mjcf.RootElement.prefixed_identifier"
        ),
        id="prefixed_identifier",
    ),
    pytest.param(
        "attribute_xml_string",
        marks=_MARK.dm_control_api(
            "mjcf.Element.get_attribute_xml_string", "mjcf.RootElement.get_attribute_xml_string"
        ),
        id="attribute_xml_string",
    ),
    pytest.param(
        "to_xml_string",
        marks=_MARK.dm_control_api("mjcf.Element.to_xml_string"),
        id="to_xml_string",
    ),
    pytest.param(
        "include_copy",
        marks=_MARK.dm_control_api("mjcf.RootElement.include_copy"),
        id="include_copy",
    ),
    pytest.param(
        "root_remove",
        marks=_MARK.dm_control_api("mjcf.RootElement.remove"),
        id="root_remove",
    ),
    pytest.param(
        "resolve_references",
        marks=_MARK.dm_control_api(
            "mjcf.Element.resolve_references", "mjcf.RootElement.resolve_references"
        ),
        id="resolve_references",
    ),
    pytest.param(
        "enter_scope", marks=_MARK.dm_control_api("mjcf.Element.enter_scope"), id="enter_scope"
    ),
    pytest.param(
        "root_element",
        marks=_MARK.dm_control_api(
            "mjcf.RootElement.parent",
            "mjcf.RootElement.is_removed",
            "mjcf.RootElement.get_attributes",
            "mjcf.RootElement.set_attributes",
            "mjcf.RootElement.add",
            "mjcf.RootElement.get_children",
        ),
        id="root_element",
    ),
    pytest.param(
        "root_all_children",
        marks=_MARK.dm_control_api("mjcf.RootElement.all_children"),
        id="root_all_children",
    ),
    pytest.param(
        "asset", marks=_MARK.dm_control_api("mjcf.Asset", "mjcf.Asset.contents"), id="asset"
    ),
    pytest.param("from_zip", marks=_MARK.dm_control_api("mjcf.from_zip"), id="from_zip"),
    pytest.param(
        "parsed_class_reference",
        marks=_MARK.dm_control_api("mjcf.from_xml_string", "mjcf.Element.is_same_as"),
        id="parsed_class_reference",
    ),
    pytest.param(
        "remove_attachments",
        marks=_MARK.dm_control_api("mjcf.Element.remove"),
        id="remove_attachments",
    ),
    pytest.param(
        "frame_joints", marks=_MARK.dm_control_api("mjcf.get_frame_joints"), id="frame_joints"
    ),
]


@pytest.fixture(scope="module")
def mjcf_api_run(differential):
    return differential.compare(PROGRAM, "surface_mjcf_api", rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("case", CASES)
def test_mjcf_api_matches_dm_control(mjcf_api_run, case):
    assert_case(mjcf_api_run, case)
