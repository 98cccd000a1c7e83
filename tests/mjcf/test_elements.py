"""mjcf elements: adding, attributes, defaults, and every error path."""

import mujoco
import numpy as np
import pytest

from composer_tasks import composer, mjcf


def _leg_model():
    model = mjcf.RootElement(model="leg")
    model.default.geom.type = "capsule"
    model.default.joint.damping = 2
    thigh = model.worldbody.add("body", name="thigh", pos=[0, 0, 1])
    hip = thigh.add("joint", name="hip", type="hinge", axis=[0, 0, 1], range="-1 1")
    thigh.add("geom", name="thigh", fromto=[0, 0, 0, 0.2, 0, 0], size=[0.05])
    model.actuator.add("motor", name="hip", joint=hip, ctrlrange=[-1, 1], gear=[3])
    return model, thigh, hip


def test_attributes_take_mjcf_names_and_values():
    model, thigh, hip = _leg_model()
    geom = model.find("geom", "thigh")
    # As in PyMJCF: attributes read back as written; what a class gives reads None.
    assert geom.type is None and geom.size.tolist() == [0.05]
    assert geom.spec_element.type == mujoco.mjtGeom.mjGEOM_CAPSULE  # the class's value
    assert hip.type == "hinge" and hip.range.tolist() == [-1.0, 1.0]
    assert hip.damping is None and hip.spec_element.damping[0] == 2  # from the default class
    assert hip.spec_element.type == mujoco.mjtJoint.mjJNT_HINGE
    motor = model.find("actuator", "hip")
    assert motor.tag == "motor" and motor.joint == hip and motor.gear.tolist() == [3]
    thigh.euler = [0, 0, 0.5]
    assert thigh.euler.tolist() == [0, 0, 0.5] and thigh.quat is None  # not set
    assert set(geom.get_attributes()) == {"name", "size", "fromto"}
    hip.set_attributes(limited="true", armature=0.1)
    assert hip.limited == "true" and hip.armature == pytest.approx(0.1)


def test_position_and_velocity_shortcuts_match_mujoco_xml():
    model, _, hip = _leg_model()
    model.actuator.add("position", name="servo", joint=hip, kp=10, kv=2)
    model.actuator.add("velocity", name="speed", joint=hip, kv=4)
    built = mjcf.Physics.from_mjcf_model(model).model
    xml = mujoco.MjModel.from_xml_string("""
      <mujoco><worldbody><body pos="0 0 1"><joint name="hip" axis="0 0 1"/>
      <geom type="capsule" fromto="0 0 0 .2 0 0" size=".05"/></body></worldbody>
      <actuator><motor joint="hip"/><position joint="hip" kp="10" kv="2"/>
      <velocity joint="hip" kv="4"/></actuator></mujoco>""")
    for field in ("actuator_gainprm", "actuator_biasprm", "actuator_gaintype", "actuator_biastype"):
        np.testing.assert_array_equal(getattr(built, field)[1:], getattr(xml, field)[1:], field)


def test_position_and_velocity_shortcuts_of_default_classes_match_mujoco_xml():
    # kp and kv write into the class's gainprm and biasprm in place.
    model = mjcf.RootElement(model="m")
    servo = model.default.add("default", dclass="servo")
    servo.position.set_attributes(kp=10, kv=2)
    speed = model.default.add("default", dclass="speed")
    speed.velocity.kv = 4
    assert (servo.position.kp, servo.position.kv, speed.velocity.kv) == (10, 2, 4)
    body = model.worldbody.add("body", name="b")
    hip = body.add("joint", name="hip", axis=[0, 0, 1])
    body.add("geom", size=[0.05])
    model.actuator.add("position", joint=hip, dclass="servo")
    model.actuator.add("position", joint=hip, dclass="servo", kp=5)
    model.actuator.add("velocity", joint=hip, dclass="speed")
    built = mjcf.Physics.from_mjcf_model(model).model
    xml = mujoco.MjModel.from_xml_string("""
      <mujoco><default><default class="servo"><position kp="10" kv="2"/></default>
      <default class="speed"><velocity kv="4"/></default></default>
      <worldbody><body name="b"><joint name="hip" axis="0 0 1"/><geom size=".05"/></body>
      </worldbody><actuator><position joint="hip" class="servo"/>
      <position joint="hip" class="servo" kp="5"/><velocity joint="hip" class="speed"/>
      </actuator></mujoco>""")
    for field in ("actuator_gainprm", "actuator_biasprm", "actuator_gaintype", "actuator_biastype"):
        np.testing.assert_array_equal(getattr(built, field), getattr(xml, field), field)


def test_nested_default_classes_and_childclass():
    model = mjcf.RootElement(model="m")
    model.default.geom.rgba = [1, 0, 0, 1]
    limb = model.default.add("default", dclass="limb")
    limb.geom.rgba = [0, 1, 0, 1]
    finger = limb.add("default", dclass="finger")
    finger.geom.size = [0.01]
    body = model.worldbody.add("body", name="b", childclass="limb")
    assert body.childclass == "limb"
    plain = model.worldbody.add("geom", name="plain", size=[0.1])
    inherited = body.add("geom", name="inherited", size=[0.1])
    explicit = body.add("geom", name="explicit", dclass="finger")
    assert plain.rgba is None and inherited.rgba is None  # set by classes, not on them
    assert plain.spec_element.rgba.tolist() == [1, 0, 0, 1]
    # The body's childclass gives the class; dclass reads None, as in PyMJCF.
    assert inherited.spec_element.rgba.tolist() == [0, 1, 0, 1] and inherited.dclass is None
    assert inherited.spec_element.classname.name == "limb"
    assert explicit.spec_element.rgba.tolist() == [0, 1, 0, 1]
    assert explicit.spec_element.size[0] == 0.01 and explicit.dclass == "finger"
    assert finger.geom.size.tolist() == [0.01] and finger.geom.rgba is None
    assert model.find("default", "finger").dclass == "finger"


def test_unknown_tag_raises_with_the_element_path():
    model, thigh, _ = _leg_model()
    with pytest.raises(
        AttributeError, match=r"<wheel> is not a valid child of <body>.*'thigh'.*'leg'"
    ):
        thigh.add("wheel")
    with pytest.raises(AttributeError, match=r"<geom> is not a valid child of <actuator>"):
        model.actuator.add("geom")
    with pytest.raises(AttributeError, match=r"<gear> is not a valid child of <default>"):
        _ = model.default.gear


def test_unknown_attribute_raises_with_the_element_path():
    model, thigh, hip = _leg_model()
    with pytest.raises(
        AttributeError, match=r"'sizee' is not a valid attribute for <geom>.*'thigh'"
    ):
        thigh.add("geom", sizee=[0.1])
    with pytest.raises(
        AttributeError, match=r"'colour' is not a valid attribute for <joint>.*'hip'"
    ):
        hip.colour = "red"
    with pytest.raises(AttributeError, match=r"'colour' is not a valid attribute for <joint>"):
        _ = hip.colour
    with pytest.raises(AttributeError, match=r"'kp' is not a valid attribute for <motor>"):
        model.actuator.add("motor", joint=hip, kp=3)
    with pytest.raises(AttributeError, match=r"'wobble' is not a valid attribute for <option>"):
        model.option.wobble = 1
    with pytest.raises(
        AttributeError, match=r"'nope' is not a valid attribute for <geom> of default"
    ):
        model.default.geom.nope = 1
    # A failed add leaves nothing behind.
    assert [g.name for g in thigh.find_all("geom")] == ["thigh"]


def test_bad_values_raise_naming_the_attribute():
    _, thigh, hip = _leg_model()
    with pytest.raises(ValueError, match=r"attribute 'type' of <geom>.*expected one of"):
        thigh.add("geom", type="blob", size=[0.1])
    with pytest.raises(ValueError, match=r"attribute 'pos'.*expected 3 numbers"):
        thigh.pos = [1, 2]
    with pytest.raises(ValueError, match=r"attribute 'damping'.*expected 1 to 3 numbers"):
        hip.damping = [1, 2, 3, 4]
    with pytest.raises(ValueError, match=r"already has a <geom> named 'thigh'"):
        thigh.add("geom", name="other", size=[0.1]).name = "thigh"
    with pytest.raises(ValueError, match=r"attribute 'name' of <joint>.*repeated name 'hip'"):
        thigh.add("joint", name="hip")
    with pytest.raises(ValueError, match=r"no default class 'nope'"):
        thigh.add("geom", dclass="nope", size=[0.1])
    with pytest.raises(ValueError, match=r"fixed when it is added"):
        hip.dclass = "main"
    with pytest.raises(ValueError, match="read-only"):
        thigh.pos[0] = 3.0
    mesh = thigh.root.asset.add("mesh", name="rock")
    with pytest.raises(
        TypeError, match=r"attribute 'file' of <mesh name='rock'>.*expected a string, got int"
    ):
        mesh.file = 3
    with pytest.raises(ValueError, match=r"attribute 'size' of <geom>.*expected numbers"):
        thigh.add("geom", size=1 + 2j)


def test_bad_references_raise():
    model, thigh, _ = _leg_model()
    _, _, other_hip = _leg_model()
    with pytest.raises(ValueError, match=r"belongs to model 'leg'.*attach its model first"):
        model.actuator.add("motor", joint=other_hip)
    with pytest.raises(ValueError, match=r"expected a <joint> element"):
        model.actuator.add("motor", joint=thigh)
    with pytest.raises(TypeError, match=r"expected a <site> element or its name"):
        model.sensor.add("touch", site=3)
    model.actuator.add("motor", name="ghost", joint="no_such_joint")
    with pytest.raises(ValueError, match="no_such_joint"):
        mjcf.Physics.from_mjcf_model(model)


def test_default_set_after_elements_reaches_those_that_did_not_set_it():
    # As dm_control, which resolves defaults at compile: an element (or a class made
    # from this one) that did not set the attribute takes the class's new value.
    model, thigh, _ = _leg_model()
    thigh.add("geom", name="other", fromto=[0, 0, 0, 0.1, 0, 0], size=[0.02], rgba=[0, 1, 0, 1])
    child = model.default.add("default", dclass="child")
    child.geom.size = [0.03]
    late = thigh.add("geom", name="late", dclass=child, fromto=[0, 0, 0, 0, 0.1, 0])
    model.default.geom.rgba = [0, 0, 1, 1]
    model.default.geom.size = [0.2]
    physics = mjcf.Physics.from_mjcf_model(model)
    rgba = physics.named.model.geom_rgba
    assert rgba["thigh"].tolist() == [0, 0, 1, 1]
    assert rgba["other"].tolist() == [0, 1, 0, 1]  # set on the element: kept
    assert rgba["late"].tolist() == [0, 0, 1, 1]  # through the class made from main
    sizes = physics.named.model.geom_size[:, 0]
    assert sizes.tolist() == [0.05, 0.02, 0.03]  # each set its own, or its class did
    assert model.find("geom", "thigh").rgba is None and late.rgba is None
    # Where that cannot be done, it still refuses: an actuator shortcut of a class
    # whose actuators (the motor) and derived classes exist.
    with pytest.raises(ValueError, match=r"1 <actuator> element\(s\) and the classes"):
        model.default.position.kp = 5


def test_edits_announce_themselves_to_the_environment():
    model, thigh, hip = _leg_model()
    before = composer.spec_edits.spec_edit_count()
    hip.range = [-2, 2]
    thigh.add("site", name="tip")
    model.option.timestep = 0.004
    assert composer.spec_edits.spec_edit_count() == before + 3


def test_global_settings():
    model = mjcf.RootElement(model="m")
    model.compiler.angle = "radian"
    model.option.integrator = "RK4"
    model.option.flag.gravity = "disable"
    model.visual.headlight.ambient = [0.1, 0.2, 0.3]
    getattr(model.visual, "global").offwidth = 800
    model.size.memory = "1M"
    assert model.compiler.angle == "radian" and model.option.integrator == "RK4"
    assert model.option.flag.gravity == "disable" and model.option.flag.contact == "enable"
    assert model.spec.visual.global_.offwidth == 800 and model.spec.memory == 2**20
    with pytest.raises(ValueError, match="coordinate='local'"):
        model.compiler.coordinate = "global"


def test_root_element_is_reached_through_the_element_module_as_in_dm_control():
    from composer_tasks.mjcf import element

    assert element.RootElement is mjcf.RootElement
    with pytest.raises(AttributeError, match="no attribute 'Missing'"):
        element.Missing  # noqa: B018


def test_commit_defaults_and_class_handles_read_back_as_written():
    model = mjcf.RootElement()
    model.default.geom.type = "box"
    model.default.geom.pos = [0, 1, 0]
    top = model.default.add("default", dclass="top")
    top.geom.size = [0.5]
    sub = top.add("default", dclass="sub")
    sub.geom.rgba = [1, 0, 0, 1]
    body = model.worldbody.add("body", childclass=sub)
    assert body.childclass == sub and body.get_attributes() == {"childclass": sub}
    by_name = model.worldbody.add("geom", dclass="top", pos=[1, 1, 1])
    assert by_name.dclass == "top"
    mjcf.commit_defaults(by_name)
    assert sorted(by_name.get_attributes()) == ["dclass", "pos", "size", "type"]
    assert by_name.pos.tolist() == [1, 1, 1] and by_name.type == "box"  # its own value wins
    inherited = body.add("geom")  # the class of its body's childclass, and those above it
    mjcf.commit_defaults(inherited, attributes=["rgba", "size"])
    assert sorted(inherited.get_attributes()) == ["rgba", "size"]
    assert inherited.rgba.tolist() == [1, 0, 0, 1] and inherited.size.tolist() == [0.5]
    with pytest.raises(TypeError, match="needs a PyMJCF element"):
        mjcf.commit_defaults(top)


def test_flag_set_attributes_sets_all_or_none():
    model = mjcf.RootElement(model="m")
    model.option.flag.set_attributes(gravity="disable", energy="enable")
    assert model.option.flag.gravity == "disable" and model.option.flag.energy == "enable"
    assert list(model.option.flag.get_attributes()) == ["gravity", "energy"]
    with pytest.raises(ValueError, match="'contact' must be 'enable' or 'disable'"):
        model.option.flag.set_attributes(warmstart="disable", contact="off")
    with pytest.raises(AttributeError, match="not a valid attribute for <flag>"):
        model.option.flag.set_attributes(warmstart="disable", nonsense="enable")
    assert model.option.flag.warmstart == "enable"  # neither call set anything
