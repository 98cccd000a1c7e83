"""mjcf name scopes, find, attach, and reading and writing MJCF."""

import hashlib
import warnings

import mujoco
import numpy as np
import pytest

from composer_tasks import mjcf
from composer_tasks.mjcf import namescope


def _leg(name):
    model = mjcf.RootElement(model=name)
    thigh = model.worldbody.add("body", name="thigh")
    thigh.add("geom", name="thigh", type="capsule", fromto=[0, 0, 0, 0.2, 0, 0], size=[0.04])
    hip = thigh.add("joint", name="hip", axis=[0, 0, 1])
    model.actuator.add("motor", name="hip", joint=hip)
    model.sensor.add("jointpos", name="hip_angle", joint=hip)
    return model


def _creature():
    creature = mjcf.RootElement(model="creature")
    torso = creature.worldbody.add("body", name="torso")
    torso.add("geom", name="torso", type="sphere", size=[0.1])
    legs = []
    for index in range(2):
        site = torso.add(
            "site", name=f"hip{index}", pos=[0.1 * (-1) ** index, 0, 0], euler=[0, 0, 180 * index]
        )
        leg = _leg(f"leg{index}")
        site.attach(leg)
        legs.append(leg)
    return creature, torso, legs


def test_names_prefixes_and_find():
    creature, torso, legs = _creature()
    arena = mjcf.RootElement(model="arena")
    frame = arena.attach(creature)
    frame.add("freejoint")
    hip = legs[1].find("joint", "hip")
    assert hip.name == "hip" and hip.full_identifier == "creature/leg1/hip"
    assert hip.root is legs[1] and hip.namescope.name == "leg1"
    assert hip.namescope.full_prefix == "creature/leg1/"
    assert creature.find("joint", "leg1/hip") == hip
    assert arena.find("joint", "creature/leg1/hip") == hip
    assert arena.find("joint", "creature/leg1/nope") is None
    assert torso.find("joint", "leg0/hip") == legs[0].find("joint", "hip")
    assert frame.full_identifier == "creature/" and frame.tag == "body"
    assert legs[0].parent_model is creature and legs[0].root_model is arena
    assert arena.enter_scope("creature/leg0") is legs[0]
    assert mjcf.get_attachment_frame(creature) == frame
    assert mjcf.get_frame_freejoint(creature).full_identifier == "creature/"
    with pytest.raises(ValueError, match="not a valid namespace"):
        arena.find("joints", "x")


def test_find_all_in_model_order_and_by_scope():
    creature, _, legs = _creature()
    arena = mjcf.RootElement(model="arena")
    arena.attach(creature).add("freejoint")
    joints = [joint.full_identifier for joint in arena.find_all("joint")]
    assert joints == ["creature/", "creature/leg0/hip", "creature/leg1/hip"]
    assert [j.full_identifier for j in creature.find_all("joint")] == joints[1:]
    assert creature.find_all("joint", exclude_attachments=True) == []
    assert [a.full_identifier for a in arena.find_all("actuator")] == [
        "creature/leg0/hip",
        "creature/leg1/hip",
    ]
    assert [s.name for s in legs[0].find_all("sensor")] == ["hip_angle"]
    assert [a.full_identifier for a in legs[1].actuator.all_children()] == ["creature/leg1/hip"]


def test_adding_to_an_attached_model_lands_in_the_root():
    creature, _, legs = _creature()
    arena = mjcf.RootElement(model="arena")
    arena.attach(creature)
    # PyMJCF would list it before the next legs' actuators; MuJoCo compiles it last.
    with pytest.warns(namescope.SectionOrderWarning, match="'creature/leg0/extra'.* 'leg1'"):
        legs[0].actuator.add("motor", name="extra", joint="hip")
    legs[0].find("body", "thigh").add("site", name="tip")
    physics = mjcf.Physics.from_mjcf_model(arena)
    assert (
        physics.model.actuator("creature/leg0/extra").trnid[0]
        == physics.model.joint("creature/leg0/hip").id
    )
    assert physics.model.site("creature/leg0/tip").id >= 0


def test_attach_errors():
    creature, _, _ = _creature()
    arena = mjcf.RootElement(model="arena")
    arena.attach(creature)
    with pytest.raises(ValueError, match="already attached"):
        arena.attach(creature)
    with pytest.raises(TypeError, match="expected a mjcf.RootElement"):
        arena.attach(creature.worldbody)
    with pytest.raises(ValueError, match="to itself"):
        arena.attach(arena)
    again = _leg("leg0")  # a second leg0 is renamed, as PyMJCF does
    creature.attach(again)
    assert again.model == "leg0_1" and again.find("joint", "hip").full_identifier == (
        "creature/leg0_1/hip"
    )
    # As in PyMJCF, an attached model's settings are the root's.
    creature.option.timestep = 0.01
    assert arena.option.timestep == 0.01 and creature.option.timestep == 0.01
    arena.compiler.angle = "degree"
    radian_child = mjcf.RootElement(model="r")
    radian_child.compiler.angle = "radian"
    with pytest.raises(ValueError, match="compiler angle='radian'.*has 'degree'"):
        arena.attach(radian_child)
    assert arena.find("body", "r/") is None and radian_child.parent_model is None


def test_compiler_settings_follow_the_root_as_in_pymjcf():
    """A child in degrees (MuJoCo's default) attached to a radian root reads its
    angles in radians, as PyMJCF's one <compiler> does."""
    arena = mjcf.RootElement(model="arena")
    arena.compiler.angle = "radian"
    creature, _, legs = _creature()
    legs[0].find("joint", "hip").range = [-0.5, 0.5]
    arena.attach(creature)
    physics = mjcf.Physics.from_mjcf_model(arena)
    np.testing.assert_allclose(physics.named.model.jnt_range["creature/leg0/hip"], [-0.5, 0.5])


def test_detach():
    creature, _, legs = _creature()
    legs[1].detach()
    physics = mjcf.Physics.from_mjcf_model(creature)
    assert physics.model.nu == 1 and legs[1].parent_model is None
    with pytest.raises(RuntimeError, match="not attached"):
        legs[1].detach()


def test_prefixes_and_root_follow_attaching_and_detaching():
    creature, _, legs = _creature()
    assert legs[0].namescope.full_prefix == "leg0/" and legs[0].root_model is creature
    arena = mjcf.RootElement(model="arena")
    arena.attach(creature)
    # Models attached before their parent was attached follow it.
    assert legs[0].namescope.full_prefix == "creature/leg0/" and legs[0].root_model is arena
    legs[0].find("body", "thigh").add("site", name="toe")
    assert arena.find("site", "creature/leg0/toe") is not None
    creature.detach()
    assert creature.namescope.full_prefix == "" and creature.root_model is creature
    assert legs[1].namescope.full_prefix == "leg1/" and legs[1].root_model is creature


XML = """
<mujoco model="pendulum">
  <compiler angle="radian"/>
  <default><default class="arm"><geom type="capsule" rgba="1 0 0 1"/></default></default>
  <worldbody>
    <body name="pole" pos="0 0 1">
      <joint name="swing" axis="0 1 0" range="-1 1"/>
      <geom name="pole" class="arm" fromto="0 0 0 0 0 -0.5" size="0.02"/>
    </body>
  </worldbody>
  <actuator><motor name="torque" joint="swing" ctrlrange="-1 1"/></actuator>
</mujoco>
"""


def test_parse_find_edit_and_write(tmp_path):
    model = mjcf.from_xml_string(XML)
    assert model.model == "pendulum"
    pole = model.find("geom", "pole")
    # Read as written in the text: what the class gives reads None, as in PyMJCF.
    # A parsed class reference reads back as the default class element, as in PyMJCF.
    assert pole.type is None and pole.dclass.dclass == "arm" and pole.rgba is None
    assert pole.size.tolist() == [0.02] and pole.fromto.tolist() == [0, 0, 0, 0, 0, -0.5]
    assert pole.spec_element.rgba.tolist() == [1, 0, 0, 1]
    assert model.default.geom.type is None
    assert model.find("default", "arm").geom.type == "capsule"
    assert model.find("actuator", "torque").joint == model.find("joint", "swing")
    model.find("joint", "swing").damping = 0.3
    text = model.to_xml_string()
    # 17 significant digits, as PyMJCF writes them.
    assert 'damping="0.29999999999999999"' in text and "pendulum" in text
    path = tmp_path / "pendulum.xml"
    path.write_text(text)
    # As PyMJCF's own text, it names the top class "/", which PyMJCF's parser refuses;
    # MuJoCo loads it.
    with pytest.raises(ValueError, match="cannot contain a '/'.*got '/'"):
        mjcf.from_path(str(path))
    assert mjcf.Physics.from_xml_path(str(path)).named.model.dof_damping["swing"] == 0.3
    (tmp_path / "plain.xml").write_text(XML)
    with open(tmp_path / "plain.xml") as handle:
        assert mjcf.from_file(handle).find("geom", "pole") is not None
    with pytest.raises(FileNotFoundError):
        mjcf.from_path(str(tmp_path / "missing.xml"))
    assert 'damping="0.3"' in model.to_xml_string(precision=5)


def test_get_assets(tmp_path):
    mesh = tmp_path / "cube.obj"
    mesh.write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 3\nf 1 2 4\nf 1 3 4\nf 2 3 4\n")
    path = tmp_path / "model.xml"
    path.write_text(
        '<mujoco><asset><mesh name="cube" file="cube.obj"/></asset><worldbody>'
        '<geom type="mesh" mesh="cube"/></worldbody></mujoco>'
    )
    model = mjcf.from_path(str(path))
    assets = model.get_assets()
    # Named as PyMJCF names asset files: the file's name, "-", the SHA-1 of its bytes.
    digest = hashlib.sha1(mesh.read_bytes()).hexdigest()
    assert assets == {f"cube-{digest}.obj": mesh.read_bytes()}
    assert model.find("mesh", "cube").file == "cube.obj"


def test_section_elements_out_of_pymjcf_order_are_reported():
    def leg(name):
        model = mjcf.RootElement(model=name)
        body = model.worldbody.add("body", name="b")
        body.add("joint", name="j")
        body.add("geom", size=[0.1])
        model.actuator.add("motor", name="m", joint="j")
        return model

    root = mjcf.RootElement(model="root")
    body = root.worldbody.add("body", name="base")
    body.add("joint", name="slide", type="slide")
    body.add("geom", size=[0.2])
    root.actuator.add("motor", name="before", joint="slide")
    first, second = leg("first"), leg("second")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        root.attach(first)
        root.attach(second)
        root.sensor.add("jointpos", name="no_sensor_attached", joint="slide")
    with pytest.warns(namescope.SectionOrderWarning, match="'after' of model 'root'.*'first/m'"):
        root.actuator.add("motor", name="after", joint="slide")
    # An attached model's new model after a later sibling's actuators.
    with pytest.warns(namescope.SectionOrderWarning, match="'first/third/m'.*'second/m'"):
        first.attach(leg("third"))
    physics = mjcf.Physics.from_mjcf_model(root)
    compiled = [physics.model.actuator(i).name for i in range(physics.model.nu)]
    assert compiled == ["before", "first/m", "second/m", "after", "first/third/m"]
    # find_all lists them in PyMJCF's order.
    assert [a.full_identifier for a in root.find_all("actuator")] == [
        "before",
        "after",
        "first/m",
        "first/third/m",
        "second/m",
    ]


def test_written_text_compiles_back_exactly_through_physics():
    # PyMJCF's 17 significant digits: any loader reads the model's own numbers.
    model = mjcf.RootElement(model="exact")
    body = model.worldbody.add("body", name="b", pos=[0, 0, 1 / 3])
    body.add("joint", name="j", type="hinge", range=[-np.pi / 7, 1 / 3], limited=True)
    body.add("geom", type="capsule", fromto=[0, 0, 0, 1 / 3, 0, 0], size=[1 / 7])
    text = model.to_xml_string()
    direct = mjcf.Physics.from_mjcf_model(model)
    again = mjcf.Physics.from_xml_string(text, assets=model.get_assets())
    for field in ("body_pos", "jnt_range", "body_mass", "geom_size", "body_inertia"):
        np.testing.assert_array_equal(getattr(again.model, field), getattr(direct.model, field))
    assert again.named.data.xpos["b"][2] == 1 / 3
    parsed = mujoco.MjModel.from_xml_string(text)  # MuJoCo's own loader
    assert parsed.body_pos[1, 2] == 1 / 3
    np.testing.assert_array_equal(parsed.jnt_range, direct.model.jnt_range)
    edited = text.replace('name="b"', 'name="c"')
    assert mjcf.Physics.from_xml_string(edited).named.data.xpos["c"][2] == pytest.approx(1 / 3)
