"""`to_xml_string` names unnamed elements by their `full_identifier` (PyMJCF's text),
so that a physics compiled from the text finds them; the model stays unnamed."""

import re

from composer_tasks import mjcf


def _model() -> mjcf.RootElement:
    model = mjcf.RootElement(model="arm")
    for index in range(3):
        body = model.worldbody.add("body", pos=[index, 0, 0])
        body.add("geom", type="sphere", size=[0.1])
        body.add("joint", type="hinge", name=f"hinge{index}" if index == 1 else None)
        body.add("site")
    hand = mjcf.RootElement(model="hand")
    finger = hand.worldbody.add("body")
    finger.add("geom", type="capsule", size=[0.02, 0.05])
    finger.add("joint")
    model.attach(hand)
    model.actuator.add("motor", joint=model.find("joint", "hinge1"))
    model.sensor.add("jointpos", joint=model.find("joint", "hinge1"))
    return model


def test_text_names_each_unnamed_element_by_its_identifier():
    model = _model()
    text = model.to_xml_string()
    written = set(re.findall(r'name="([^"]*unnamed_[^"]*)"', text))
    expected = {
        handle.full_identifier
        for namespace in ("body", "geom", "site", "joint", "actuator", "sensor")
        for handle in model.find_all(namespace)
        if not handle.spec_element.name  # (an attachment frame is named "hand/")
    }
    assert written == expected
    assert "hand//unnamed_geom_0" in written and "//unnamed_site_2" in written
    # The model's own elements keep no name.
    assert all(handle.name is None for handle in model.find_all("geom"))
    assert model.to_xml_string() == text


def test_physics_from_the_text_binds_unnamed_elements():
    model = _model()
    physics = mjcf.Physics.from_xml_string(model.to_xml_string())
    sites = model.find_all("site")
    assert physics.bind(sites).element_id.tolist() == [0, 1, 2]
    joint = model.find_all("joint")[-1]
    assert joint.full_identifier == "hand//unnamed_joint_0"
    physics.bind(joint).qpos = 0.5
    assert physics.named.data.qpos["hand//unnamed_joint_0"] == 0.5
