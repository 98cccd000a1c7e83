"""A default class changed after elements use it: dm_control resolves defaults at
compile, so the elements that did not set the attribute take the new value, and
those that did keep theirs. `dclass` also takes a class handle, as there."""

import pytest

PROGRAM = """
from dm_control import mjcf

model = mjcf.RootElement(model="m")
link = model.default.add("default", dclass="link")
body = model.worldbody.add("body", name="b")
body.add("joint", name="j", type="hinge")
g1 = body.add("geom", name="g1", dclass=link, type="capsule", fromto=[0, 0, 0, 0.3, 0, 0])
g2 = body.add("geom", name="g2", dclass="link", type="capsule", fromto=[0, 0, 0, 0.2, 0, 0],
              size=[0.01])
link.geom.size = [0.04]
link.geom.rgba = [1, 0, 0, 1]
model.default.joint.damping = 0.3
record("g1_attributes", sorted(g1.get_attributes()))
record("g1_size", g1.size)
record("g2_size", g2.size)
physics = mjcf.Physics.from_mjcf_model(model)
record("geom_size", physics.named.model.geom_size[:, 0])
record("geom_rgba", physics.named.model.geom_rgba[:, 0])
record("dof_damping", physics.model.dof_damping)
"""


@pytest.mark.dm_control_api("mjcf.Element.add", "mjcf.Element.get_attributes")
def test_defaults_changed_after_elements_reach_them_as_in_dm_control(differential):
    differential.assert_same(PROGRAM, "late_defaults")
