"""PyMJCF's element and physics surface, case by case: an element's tag, parent,
root and removal, the root's identity and scopes, the model sections (size,
statistic, visual, asset, contact, equality, keyframe) as read and as compiled,
loading from a file, and mujoco.engine.Physics's constructors and methods; each
run on both sides and compared.
"""

import pytest

from tests.differential.surface_cases import PRELUDE, assert_case

_MARK = pytest.mark

PROGRAM = (
    PRELUDE
    + r"""
import os
import tempfile
import numpy as np
from dm_control import mjcf
from dm_control.mujoco import engine

XML = '''
<mujoco model="m">
  <compiler angle="radian"/>
  <option timestep="0.004"/>
  <size nkey="2"/>
  <statistic meansize="0.2"/>
  <visual><headlight ambient="0.3 0.3 0.3"/></visual>
  <asset><material name="red" rgba="1 0 0 1"/></asset>
  <worldbody>
    <body name="a" pos="0 0 1">
      <freejoint name="free"/>
      <geom name="ga" size="0.1" material="red"/>
      <body name="b" pos="0.3 0 0">
        <joint name="hinge" type="hinge" axis="0 1 0"/>
        <geom name="gb" type="capsule" fromto="0 0 0 0.2 0 0" size="0.03"/>
      </body>
    </body>
    <body name="c" pos="1 0 1">
      <joint name="slide" type="slide"/>
      <geom name="gc" size="0.1"/>
    </body>
  </worldbody>
  <contact><exclude body1="a" body2="b"/></contact>
  <equality><weld body1="c"/></equality>
  <keyframe><key name="k" qpos="0 0 1 1 0 0 0 0.5 0.2"/></keyframe>
</mujoco>
'''


@case("element_properties")
def _(put):
    root = mjcf.from_xml_string(XML)
    b = root.find("body", "b")
    put("tag", [root.tag, b.tag, root.worldbody.tag])
    put("parent", [b.parent.name, root.worldbody.parent is root])
    put("root", [b.root is root, root.root is root])
    put("isinstance", [isinstance(b, mjcf.Element), isinstance(root, mjcf.RootElement)])
    put("model", root.model)
    put("full_identifier", [root.full_identifier, b.full_identifier])
    put("namescope", root.namescope.name)
    geom = b.find("geom", "gb")
    put("is_removed_before", geom.is_removed)
    geom.remove()
    put("is_removed_after", geom.is_removed)
    put("get_freejoint", mjcf.get_freejoint(root.find("body", "a")).name)
    put("get_freejoint_none", mjcf.get_freejoint(root.find("body", "c")))
    put("PREFIX_SEPARATOR", mjcf.PREFIX_SEPARATOR)


@case("sections")
def _(put):
    root = mjcf.from_xml_string(XML)
    put("tags", [root.size.tag, root.statistic.tag, root.asset.tag, root.contact.tag,
                 root.equality.tag, root.keyframe.tag])
    put("size_nkey", root.size.nkey)
    put("statistic_meansize", root.statistic.meansize)
    put("visual_ambient", root.visual.headlight.ambient)
    put("asset_material", root.asset.material[0].name)
    put("contact_exclude", [isinstance(root.contact.exclude[0].body1, mjcf.Element),
                            root.contact.exclude[0].body1.name, root.contact.exclude[0].body2.name])
    put("keyframe_key", root.keyframe.key[0].name)
    root.contact.add("pair", geom1="ga", geom2="gc")
    root.equality.add("joint", joint1="hinge")
    root.keyframe.add("key", name="k2", time=0.5)
    root.asset.add("texture", name="grid", type="2d", builtin="checker", width=8, height=8)
    root.size.njmax = 100
    root.statistic.extent = 3.0
    root.visual.map.znear = 0.02
    physics = mjcf.Physics.from_mjcf_model(root)
    model = physics.model
    put("model_counts", [model.npair, model.neq, model.nkey, model.ntex, model.nexclude])
    put("statistic_extent", model.stat.extent)
    put("znear", model.vis.map.znear)
    put("key_time", model.key_time)
    put("key_qpos", model.key_qpos)


@case("enter_scope")
def _(put):
    parent = mjcf.RootElement(model="parent")
    child = mjcf.RootElement(model="child")
    child.worldbody.add("body", name="inner").add("geom", name="g", size=[0.1])
    parent.attach(child)
    scope = parent.enter_scope("child")
    put("scope", [scope.model, scope is child])
    put("find_in_scope", scope.find("geom", "g").full_identifier)
    put("missing_scope", parent.enter_scope("nope"))


@case("files")
def _(put):
    directory = tempfile.mkdtemp()
    path = os.path.join(directory, "m.xml")
    with open(path, "w") as handle:
        handle.write(XML)
    with open(path) as handle:
        root = mjcf.from_file(handle)
    put("from_file", [root.model, root.find("geom", "gb").size])
    physics = engine.Physics.from_xml_path(path)
    put("from_xml_path", [physics.model.nq, physics.model.nbody])
    binary = os.path.join(directory, "m.mjb")
    import mujoco
    mujoco.mj_saveModel(physics.model.ptr if hasattr(physics.model, "ptr") else physics.model._model, binary)
    put("from_binary_path", engine.Physics.from_binary_path(binary).model.nq)
    other = engine.Physics.from_xml_string("<mujoco><worldbody><geom size='1'/></worldbody></mujoco>")
    other.reload_from_xml_path(path)
    put("reload_from_xml_path", other.model.nq)
    put("isinstance", isinstance(other, engine.Physics))
    put("mjcf_physics", issubclass(mjcf.Physics, engine.Physics))


@case("physics_methods")
def _(put):
    physics = engine.Physics.from_xml_string(XML)
    physics.data.qvel[:] = 0.3
    physics.forward()
    put("forward_xpos", physics.data.xpos)
    put("forward_qacc", physics.data.qacc)
    physics.enable_profiling()
    physics.step()
    put("profiled_time", physics.data.time)
    put("profiled_step", bool(physics.data.timer[0].duration > 0))
    put("free", physics.free())


@case("section_tags")
def _(put):
    root = mjcf.from_xml_string(XML)
    put("tag", root.visual.tag)
"""
)

CASES = [
    pytest.param(
        "element_properties",
        marks=_MARK.dm_control_api(
            "mjcf.Element",
            "mjcf.Element.tag",
            "mjcf.Element.parent",
            "mjcf.Element.root",
            "mjcf.Element.is_removed",
            "mjcf.RootElement.tag",
            "mjcf.RootElement.root",
            "mjcf.RootElement.model",
            "mjcf.RootElement.full_identifier",
            "mjcf.RootElement.namescope",
            "mjcf.get_freejoint",
            "mjcf.PREFIX_SEPARATOR",
        ),
        id="element_properties",
    ),
    pytest.param(
        "sections",
        marks=_MARK.dm_control_api(
            "mjcf.RootElement.size",
            "mjcf.RootElement.statistic",
            "mjcf.RootElement.visual",
            "mjcf.RootElement.asset",
            "mjcf.RootElement.contact",
            "mjcf.RootElement.equality",
            "mjcf.RootElement.keyframe",
            "mjcf.Physics",
        ),
        id="sections",
    ),
    pytest.param(
        "section_tags",
        marks=_MARK.dm_control_api("mjcf.RootElement.visual"),
        id="section_tags",
    ),
    pytest.param(
        "enter_scope", marks=_MARK.dm_control_api("mjcf.RootElement.enter_scope"), id="enter_scope"
    ),
    pytest.param(
        "files",
        marks=_MARK.dm_control_api(
            "mjcf.from_file",
            "mujoco.engine.Physics",
            "mujoco.engine.Physics.from_xml_path",
            "mujoco.engine.Physics.from_binary_path",
            "mujoco.engine.Physics.reload_from_xml_path",
        ),
        id="files",
    ),
    pytest.param(
        "physics_methods",
        marks=_MARK.dm_control_api(
            "mujoco.engine.Physics.forward",
            "mujoco.engine.Physics.enable_profiling",
            "mujoco.engine.Physics.free",
        ),
        id="physics_methods",
    ),
]


@pytest.fixture(scope="module")
def mjcf_run(differential):
    # <visual> attributes are float32 in MjSpec (and in the compiled model on both sides).
    return differential.compare(
        PROGRAM, "surface_mjcf", rtol=1e-9, atol=1e-12, tolerances=[("visual_ambient", 1e-6, 0.0)]
    )


@pytest.mark.parametrize("case", CASES)
def test_mjcf_surface_matches_dm_control(mjcf_run, case):
    assert_case(mjcf_run, case)
