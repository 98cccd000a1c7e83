"""Writing a model's MJCF text when it cannot compile, and dm_control's wrapper helpers."""

import mujoco
import pytest

from composer_tasks import mjcf
from composer_tasks.mujoco import wrapper as mujoco_wrapper
from composer_tasks.mujoco import wrapper_util as util


def _massless_model() -> tuple[mjcf.RootElement, mjcf.Element]:
    model = mjcf.RootElement(model="massless")
    body = model.worldbody.add("body", name="b")
    body.add("joint", name="j", type="hinge")
    return model, body


def test_a_model_that_cannot_compile_is_written_as_pymjcf_writes_it():
    # PyMJCF writes its tree without compiling; compiling the text names what is wrong.
    model, body = _massless_model()
    text = model.to_xml_string()
    assert '<body name="b">' in text and '<joint name="j" class="/" type="hinge"/>' in text
    with pytest.raises(ValueError, match="mass and inertia"):
        mujoco.MjModel.from_xml_string(text)
    assert body.all_children()[0].name == "j"
    body.add("geom", size=[0.1])
    assert mujoco.MjModel.from_xml_string(model.to_xml_string()).ngeom == 1


def test_a_model_with_mjspec_made_parts_that_cannot_compile_names_why_it_cannot_be_written():
    # A model with parts made with MjSpec directly has no record of what was set:
    # MuJoCo's writer writes it, which compiles it first.
    spec = mujoco.MjSpec()
    spec.modelname = "raw"
    spec.worldbody.add_body(name="b").add_joint(name="j")
    model = mjcf.RootElement._for_spec(spec)
    with pytest.raises(ValueError, match="compiles the model first.*mass and inertia") as raised:
        model.to_xml_string()
    assert "'raw'" in str(raised.value)
    # MuJoCo's bindings raise a failed compile's error from a spec's empty child lists
    # until a compile succeeds; the write compiled a copy, so the handles still read.
    body = model.find("body", "b")
    assert body.all_children()[0].name == "j"
    body.add("geom", size=[0.1])
    assert '<body name="b">' in model.to_xml_string()


def test_wrapper_model_loads_and_serialises_as_mujocos():
    xml = "<mujoco><worldbody><geom size='0.1'/></worldbody></mujoco>"
    model = mujoco_wrapper.MjModel.from_xml_string(xml)
    assert isinstance(model.ptr, mujoco.MjModel) and model.ngeom == 1
    again = mujoco_wrapper.MjModel.from_byte_string(model.to_bytes())
    assert again.to_bytes() == model.to_bytes()
    copied = model.copy()
    copied.geom_size[0, 0] = 0.5
    assert model.geom_size[0, 0] == pytest.approx(0.1)
    with pytest.raises(TypeError, match="mujoco.MjModel"):
        mujoco_wrapper.MjModel("not a model")  # type: ignore[arg-type]


def test_wrapper_string_helpers():
    assert util.to_binary_string("é") == "é".encode()
    assert util.to_binary_string(b"x") == b"x"
    assert util.to_native_string(b"\xc3\xa9") == "é"
    assert util.to_native_string(None) is None  # as dm_control's: anything else unchanged
    with pytest.raises(TypeError, match="str or bytes"):
        util.to_binary_string(3)  # type: ignore[arg-type]
