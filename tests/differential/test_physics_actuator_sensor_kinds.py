"""`mjcf.Physics.bind` on the element kinds dm_control's own mjcf/physics_test uses
and this package once refused: a `<cylinder>` actuator (a stateful, filtered one),
`act`/`act_dot` of mixed stateful and stateless actuators, `<distance>` sensors
between geoms and between bodies (MuJoCo 4's geomdist), built with PyMJCF and read
through `find_all`, `bind` and `named`; the `sdf_iterations`/`sdf_initpoints`
options; and SDF geoms and meshes with a <plugin> child naming a plugin instance."""

import pytest

KINDS = """import numpy as np
from dm_control import mjcf

root = mjcf.RootElement(model="kinds")
body = root.worldbody.add("body", name="slider_body")
ball = body.add("geom", name="ball", type="sphere", size=[0.1])
slider = body.add("joint", type="slide", name="slide_joint", axis=[1, 0, 0])
other = root.worldbody.add("body", name="other", pos=[0.5, 0, 0])
box = other.add("geom", name="box", type="box", size=[0.1, 0.1, 0.1])
general = root.actuator.add(
    "general", dyntype="integrator", biastype="affine", dynprm=[1, 0, 0], joint=slider,
    name="general_act",
)
cylinder = root.actuator.add("cylinder", joint=slider, name="cylinder_act")
wide = root.actuator.add(
    "cylinder", joint=slider, name="wide", timeconst=0.5, diameter=0.2, bias=[1, -2, 0.5]
)
velocity = root.actuator.add("velocity", joint=slider, name="velocity_act", kv=3)
root.sensor.add("distance", name="gap", geom1=ball, geom2=box, cutoff=2)
root.sensor.add("distance", name="bodies", body1="slider_body", body2=other, cutoff=2)
root.sensor.add("jointpos", name="pos", joint=slider)
root.option.sdf_iterations = 12
root.option.sdf_initpoints = 30
record("option/sdf", [root.option.sdf_iterations, root.option.sdf_initpoints])
record("tags", [a.tag for a in root.find_all("actuator")])
record("sensor_tags", [s.tag for s in root.find_all("sensor")])
record("cylinder/timeconst", wide.timeconst)
record("cylinder/diameter", wide.diameter)
record("cylinder/bias", np.array(wide.bias))
record("cylinder/default_timeconst", cylinder.timeconst)
record("distance/geom1", root.find("sensor", "gap").geom1.name)
record("distance/body2", root.find("sensor", "bodies").body2.name)
record("distance/cutoff", root.find("sensor", "gap").cutoff)
physics = mjcf.Physics.from_mjcf_model(root)
actuators = root.find_all("actuator")
binding = physics.bind(actuators)
record("model/dyntype", physics.model.actuator_dyntype.copy())
record("model/dynprm", physics.model.actuator_dynprm[:, :3].copy())
record("model/gainprm", physics.model.actuator_gainprm[:, :3].copy())
record("model/biasprm", physics.model.actuator_biasprm[:, :3].copy())
record("model/biastype", physics.model.actuator_biastype.copy())
record("na", physics.model.na)
record("model/sdf", [physics.model.opt.sdf_iterations, physics.model.opt.sdf_initpoints])
record("act_shape", np.array(binding.act).shape)
binding.act = [0.1, 0.2, 0.3]
record("act_named", physics.named.data.act[["general_act", "cylinder_act", "wide"]])
physics.bind(actuators).ctrl = [1.0, 2.0, -1.0, 0.5]
physics.forward()
record("act_dot", np.array(physics.bind(actuators).act_dot))
record("act_dot_one", physics.bind(wide).act_dot)
record("act_dot_named", physics.named.data.act_dot["wide"])
record("force", physics.data.actuator_force.copy())
for _ in range(5):
    physics.step()
record("act_after", physics.data.act.copy())
sensors = root.find_all("sensor")
record("sensordata", np.array(physics.bind(sensors).sensordata))
record("gap", physics.bind(root.find("sensor", "gap")).sensordata)
record("gap_named", physics.named.data.sensordata["gap"])
record("stateless_act_shape", physics.bind([velocity]).act.shape)
"""


SDF = """import numpy as np
from dm_control import mjcf

root = mjcf.RootElement(model="sdf")
root.option.sdf_iterations = 10
root.option.sdf_initpoints = 40
extension = root.extension.add("plugin", plugin="mujoco.sdf.torus")
instance = extension.add("instance", name="torus")
instance.add("config", key="radius1", value="0.35")
instance.add("config", key="radius2", value="0.15")
mesh = root.asset.add("mesh", name="torus")
mesh_plugin = mesh.add("plugin", instance="torus")
ground = root.worldbody.add("geom", type="sdf", mesh="torus", rgba=[0.2, 0.2, 0.8, 1])
ground.add("plugin", instance="torus")
body = root.worldbody.add("body", name="falling", pos=[-0.2, 0, 0.8])
body.add("freejoint")
falling = body.add("geom", type="sdf", mesh="torus", rgba=[0.2, 0.2, 0.8, 1])
falling.add("plugin", instance="torus")
record("mesh_plugin/tag", mesh_plugin.tag)
record("mesh_plugin/instance", mesh_plugin.instance)
record("mesh_plugin/attributes", mesh_plugin.get_attributes())
record("geom_plugins", len(ground.plugin))
physics = mjcf.Physics.from_mjcf_model(root)
record("nplugin", physics.model.nplugin)
record("geom_plugin", physics.model.geom_plugin.copy())
record("mesh_plugin", physics.model.mesh_plugin.copy() if hasattr(physics.model, "mesh_plugin") else None)
for _ in range(30):
    physics.step()
record("falling_z_below_start", bool(physics.bind(body).xpos[2] < 0.8))
"""


@pytest.mark.dm_control_api("mjcf.Physics.from_mjcf_model", "mjcf.Element.add")
def test_sdf_geoms_with_plugin_children_compile_and_step(differential):
    differential.assert_same(SDF, "physics_sdf_plugins", rtol=1e-9, atol=1e-9)


@pytest.mark.dm_control_api("mjcf.Physics.bind", "mjcf.Element.add", "mjcf.RootElement.find_all")
def test_cylinder_actuators_act_dot_and_distance_sensors_match(differential):
    differential.assert_same(KINDS, "physics_kinds_cylinder", rtol=1e-9, atol=1e-9)
