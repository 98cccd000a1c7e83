"""A physics compiled from `to_xml_string()` finds unnamed elements by their
`full_identifier` (`//unnamed_geom_0`), as in dm_control, whose text names them:
`bind`, `named` and `model.name2id`, in the root model and in an attached one; the
model's own elements stay unnamed."""

import pytest

UNNAMED = """import numpy as np
from dm_control import mjcf

model = mjcf.RootElement(model="arm")
normal = model.worldbody.add("body", pos=[1, 2, 3])
normal.add("geom", type="sphere", size=[0.1])
hinge = normal.add("joint", type="hinge")
mocap = model.worldbody.add("body", pos=[1, 2, 3], quat=[1, 0, 0, 0], mocap="true")
site = normal.add("site", name="tip", pos=[0, 0, 0.2])
model.actuator.add("motor", name="named_motor", joint=hinge)
unnamed_motor = model.actuator.add("motor", joint=hinge)
unnamed_sensor = model.sensor.add("jointpos", joint=hinge)
model.sensor.add("framepos", name="tip_pos", objtype="site", objname=site)
child = mjcf.RootElement(model="hand")
finger = child.worldbody.add("body")
finger.add("geom", type="capsule", size=[0.02, 0.05])
finger_joint = finger.add("joint", type="hinge")
frame = model.attach(child)
text = model.to_xml_string()
record("names_after_writing", [normal.name, mocap.name, unnamed_motor.name, finger.name])
physics = mjcf.Physics.from_xml_string(text)
record("identifiers", [
    normal.full_identifier, mocap.full_identifier, unnamed_motor.full_identifier,
    unnamed_sensor.full_identifier, finger.full_identifier, finger_joint.full_identifier,
])
record("mocap_pos", np.array(physics.bind(mocap).mocap_pos))
physics.bind(mocap).mocap_pos = [4, 5, 6]
record("named_mocap_pos", physics.named.data.mocap_pos[mocap.full_identifier])
record("name2id_actuator", physics.model.name2id(unnamed_motor.full_identifier, "actuator"))
record("bind_actuator_id", physics.bind(unnamed_motor).element_id)
record("bind_actuators_ids", physics.bind(model.find_all("actuator")).element_id)
physics.bind(hinge).qpos = 0.3
record("sensor", np.array(physics.bind(unnamed_sensor).sensordata))
record("named_sensor", physics.named.data.sensordata[unnamed_sensor.full_identifier])
record("finger_joint_id", physics.model.name2id(finger_joint.full_identifier, "joint"))
record("body_names", list(physics.named.data.xpos.axes.row.names))
record("geom_names", list(physics.named.model.geom_size.axes.row.names))
record("actuator_names", list(physics.named.data.ctrl.axes.row.names))
record("sensor_names", list(physics.named.data.sensordata.axes.row.names))
"""


@pytest.mark.dm_control_api(
    "mjcf.RootElement.to_xml_string", "mjcf.Physics.from_xml_string", "mjcf.Physics.bind"
)
def test_unnamed_elements_of_written_text_bind_and_index_by_identifier(differential):
    differential.assert_same(UNNAMED, "physics_unnamed", rtol=1e-9, atol=1e-9)


ATTACHED_UNNAMED = """
from dm_control import mjcf

child = mjcf.RootElement(model="box")
body = child.worldbody.add("body", name="b")
geom = body.add("geom", type="box", size=[0.1, 0.1, 0.1])
child.sensor.add("framepos", name="at", objtype="geom", objname=geom)
inner = mjcf.RootElement(model="inner")
inner_geom = inner.worldbody.add("geom", type="sphere", size=[0.05])
inner.sensor.add("framepos", name="inner_at", objtype="geom", objname=inner_geom)
body.add("site", name="inner_site").attach(inner)
parent = mjcf.RootElement(model="root")
own = parent.worldbody.add("geom", type="sphere", size=[0.1])
parent.sensor.add("framepos", name="own_at", objtype="geom", objname=own)
parent.worldbody.add("site", name="att", pos=[1, 0, 0]).attach(child)
physics = mjcf.Physics.from_mjcf_model(parent)
model = physics.model
names = [model.id2name(i, "geom") for i in range(model.ngeom)]
record("id2name", names)
record("name2id", [model.name2id(name, "geom") for name in names])
record("axis_names", list(physics.named.data.geom_xpos.axes.row.names))
for name in names:
    record("xpos/" + name, physics.named.data.geom_xpos[name])
record("identifiers", [geom.full_identifier, inner_geom.full_identifier, own.full_identifier])
record("bound", physics.bind([geom, inner_geom, own]).xpos)
record("sensors", physics.named.data.sensordata)
"""


@pytest.mark.dm_control_api("mjcf.Physics.from_mjcf_model", "mjcf.Element.full_identifier")
def test_unnamed_elements_of_attached_models_have_dm_controls_names(differential):
    # An attached model's unnamed element that a sensor refers to is
    # "box//unnamed_geom_0" in dm_control (MjSpec's attach prefix would make it
    # "box///unnamed_geom_0"): id2name, name2id and named indexing give dm_control's.
    differential.assert_same(ATTACHED_UNNAMED, "physics_unnamed_attached", rtol=1e-9, atol=1e-9)


COMPILED_UNNAMED = """
import numpy as np
from dm_control import composer, mjcf

root = mjcf.RootElement(model="m")
root.worldbody.add("geom", type="plane", size=[1, 1, 1])
body = root.worldbody.add("body", pos=[0, 0, 1])
hinge = body.add("joint", type="hinge")
body.add("geom", type="sphere", size=[0.1])
body.add("site")
root.worldbody.add("light", pos=[0, 0, 3])
root.worldbody.add("camera", pos=[0, 0, 3])
root.worldbody.add("geom", name="named", type="box", size=[0.1, 0.1, 0.1], pos=[2, 0, 0])
root.actuator.add("motor", joint=hinge)
root.sensor.add("jointpos", joint=hinge)
child = mjcf.RootElement(model="c")
child.worldbody.add("geom", type="box", size=[0.1, 0.1, 0.1])
child.worldbody.add("body").add("geom", type="sphere", size=[0.1])
root.attach(child)
physics = mjcf.Physics.from_mjcf_model(root)
model = physics.model
for kind, count in [("geom", model.ngeom), ("body", model.nbody), ("joint", model.njnt),
                    ("site", model.nsite), ("light", model.nlight), ("camera", model.ncam),
                    ("actuator", model.nu), ("sensor", model.nsensor)]:
    record("names/" + kind, [model.id2name(i, kind) for i in range(count)])
record("named_geoms", list(physics.named.data.geom_xpos.axes.row.names))
record("by_name", physics.named.data.geom_xpos["c//unnamed_geom_1"])
record("element_ids", physics.bind(root.find_all("geom")).element_id)
record("spec_stays_unnamed", [g.name for g in root.find_all("geom")])
# The same through a composer Environment (which compiles the arena's model).
arena = composer.Arena()
arena.mjcf_model.worldbody.add("geom", type="plane", size=[2, 2, 0.1])
arena.mjcf_model.worldbody.add("body").add("geom", type="sphere", size=[0.2], pos=[0, 0, 1])


class Empty(composer.Task):
    root_entity = property(lambda self: arena)

    def get_reward(self, physics):
        return 0.0


env = composer.Environment(Empty(), random_state=0)
env.reset()
record("composer_geoms", [env.physics.model.id2name(i, "geom")
                          for i in range(env.physics.model.ngeom)])
record("composer_bodies", [env.physics.model.id2name(i, "body")
                           for i in range(env.physics.model.nbody)])
"""


@pytest.mark.dm_control_api("mjcf.Physics.from_mjcf_model", "mjcf.Physics.named")
def test_every_unnamed_element_of_a_compiled_model_has_pymjcfs_name(differential):
    # dm_control compiles PyMJCF's text, which names every unnamed body, geom,
    # site, joint, camera, light, actuator and sensor by its identifier, whether or
    # not anything refers to it; the compiled model has those names.
    differential.assert_same(COMPILED_UNNAMED, "physics_compiled_unnamed")


ASSETS_UNNAMED = """
from dm_control import mjcf
from dm_control.manipulation.shared import arenas

root = mjcf.RootElement(model="m")
root.asset.add("texture", type="skybox", builtin="gradient", rgb1=[1, 1, 1], rgb2=[0, 0, 0],
               width=10, height=10)
root.asset.add("texture", type="2d", builtin="checker", rgb1=[1, 1, 1], rgb2=[0, 0, 0],
               width=10, height=10)
root.asset.add("material", rgba=[1, 0, 0, 1])
root.asset.add("hfield", nrow=3, ncol=3, size=[1, 1, 1, 1])
root.asset.add("mesh", vertex=[0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1])
first = root.worldbody.add("body", name="a")
first_geom = first.add("geom", name="ga", type="sphere", size=[0.1])
second = root.worldbody.add("body", name="b")
second_geom = second.add("geom", name="gb", type="sphere", size=[0.1])
root.contact.add("pair", geom1=first_geom, geom2=second_geom)
root.contact.add("exclude", body1=first, body2=second)
root.keyframe.add("key", time=0)
physics = mjcf.Physics.from_mjcf_model(root)
model = physics.model
for kind, count in (("texture", model.ntex), ("material", model.nmat),
                    ("hfield", model.nhfield), ("mesh", model.nmesh), ("pair", model.npair),
                    ("exclude", model.nexclude), ("key", model.nkey)):
    record("names/" + kind, [model.id2name(i, kind) for i in range(count)])
# A heightfield given rows and columns only is flat.
record("hfield_data", model.hfield_data)
arena = arenas.Standard()
model = mjcf.Physics.from_mjcf_model(arena.mjcf_model).model
record("standard/textures", [model.id2name(i, "texture") for i in range(model.ntex)])
record("standard/lights", [model.id2name(i, "light") for i in range(model.nlight)])
"""


@pytest.mark.dm_control_api("mjcf.Physics.from_mjcf_model", "manipulation.shared.arenas.Standard")
def test_unnamed_assets_contacts_and_keys_have_pymjcfs_names(differential):
    # PyMJCF names every namespace's unnamed elements: textures, materials,
    # heightfields, meshes, contact pairs and excludes (one "contact" count), keys.
    differential.assert_same(ASSETS_UNNAMED, "physics_unnamed_assets")
