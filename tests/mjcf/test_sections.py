"""The limits of the <tendon>, <custom>, <deformable> and <extension> sections over
MjSpec: each refusal names what was refused and why (their dm_control behaviour is
covered by tests/differential/test_mjcf_sections.py)."""

import pytest

from composer_tasks import mjcf


def _model_with_a_tendon():
    model = mjcf.RootElement(model="m")
    body = model.worldbody.add("body", name="b")
    hinge = body.add("joint", name="hinge", type="hinge")
    body.add("geom", size=[0.1])
    tendon = model.tendon.add("fixed", name="t")
    entry = tendon.add("joint", joint=hinge, coef=2.0)
    return model, tendon, entry


def test_a_tendon_path_element_is_fixed_once_added():
    model, tendon, entry = _model_with_a_tendon()
    with pytest.raises(ValueError, match="'coef' of a tendon's path element is fixed"):
        entry.coef = 3.0
    with pytest.raises(ValueError, match="cannot be removed from its tendon"):
        entry.remove()
    with pytest.raises(ValueError, match=r"needs joint when it is added"):
        tendon.add("joint", coef=1.0)
    with pytest.raises(ValueError, match=r"needs coef when it is added"):
        tendon.add("joint", joint="hinge")
    assert entry.coef == 2.0 and [e.coef for e in tendon.joint] == [2.0]
    tendon.remove()
    assert model.find_all("tendon") == []


def test_a_flex_refuses_what_it_does_not_build_by_name():
    model = mjcf.RootElement(model="m")
    flex = model.deformable.add("flex", name="cloth", body="world", element=[0])
    for name in ("node", "nodecoord", "dof"):
        with pytest.raises(ValueError, match=f"a flex's '{name}' is not built"):
            setattr(flex, name, "full")
    with pytest.raises(ValueError, match="A <contact> child already exists"):
        flex.add("contact")
    with pytest.raises(ValueError, match="cannot be removed"):
        flex.contact.remove()
    flex.contact.condim = 1
    assert flex.contact.get_attributes() == {"condim": 1}
    assert flex.edge.get_attributes() == {}


def test_a_model_with_plugin_instances_cannot_be_attached():
    child = mjcf.RootElement(model="child")
    child.extension.add("plugin", plugin="mujoco.pid").add("instance", name="gains")
    parent = mjcf.RootElement(model="parent")
    with pytest.raises(NotImplementedError, match=r"plugin instances \(\['gains'\]\)"):
        parent.attach(child)
    assert parent.find_all("body") == []


def test_entries_of_tuples_and_bones_cannot_be_removed_alone():
    model = mjcf.RootElement(model="m")
    body = model.worldbody.add("body", name="b")
    body.add("geom", size=[0.1])
    entry = model.custom.add("tuple", name="pairs").add("element", objtype="body", objname=body)
    with pytest.raises(ValueError, match="cannot be removed from its tuple"):
        entry.remove()
    skin = model.deformable.add("skin", vertex=[0, 0, 0, 1, 0, 0, 0, 1, 0], face=[0, 1, 2])
    bone = skin.add("bone", body=body, vertid=[0], vertweight=[1.0])
    with pytest.raises(ValueError, match="cannot be removed from its skin"):
        bone.remove()
    with pytest.raises(ValueError, match="expected a MuJoCo object type"):
        entry.objtype = "nothing"
