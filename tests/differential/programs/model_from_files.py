"""A model read from MJCF files with assets (an included file, a mesh, a height
field), edited through `find`, compiled and stepped."""
# `record` and `check` are given to the program by tests/differential/worker.py.
# ruff: noqa: F821

import os
import struct
import tempfile

import numpy as np
from dm_control import mjcf

directory = tempfile.mkdtemp()
os.makedirs(os.path.join(directory, "parts"))
# A binary STL tetrahedron.
triangles = [
    ((0, 0, 0), (0.1, 0, 0), (0, 0.1, 0)),
    ((0, 0, 0), (0, 0.1, 0), (0, 0, 0.1)),
    ((0, 0, 0), (0, 0, 0.1), (0.1, 0, 0)),
    ((0.1, 0, 0), (0, 0.1, 0), (0, 0, 0.1)),
]
with open(os.path.join(directory, "parts", "tetra.stl"), "wb") as handle:
    handle.write(b"\0" * 80 + struct.pack("<I", len(triangles)))
    for triangle in triangles:
        handle.write(struct.pack("<3f", 0, 0, 0))
        for vertex in triangle:
            handle.write(struct.pack("<3f", *vertex))
        handle.write(b"\0\0")
with open(os.path.join(directory, "arm.xml"), "w") as handle:
    handle.write("""
<mujoco model="arm">
  <compiler angle="degree" meshdir="parts"/>
  <asset>
    <mesh name="tetra" file="tetra.stl"/>
    <texture name="grid" type="2d" builtin="checker" width="32" height="32" rgb1=".1 .2 .3" rgb2=".2 .3 .4"/>
    <material name="grid" texture="grid" texrepeat="2 2"/>
  </asset>
  <default>
    <joint damping="0.2" armature="0.01"/>
    <default class="link">
      <geom type="capsule" size="0.03" rgba="0.7 0.7 0.2 1"/>
    </default>
    <motor ctrlrange="-1 1" ctrllimited="true"/>
  </default>
  <worldbody>
    <geom name="floor" type="plane" size="2 2 0.1" material="grid"/>
    <body name="upper" pos="0 0 0.5">
      <joint name="shoulder" type="hinge" axis="0 1 0" range="-90 90"/>
      <geom name="upper_geom" class="link" fromto="0 0 0 0.3 0 0"/>
      <body name="lower" pos="0.3 0 0">
        <joint name="elbow" type="hinge" axis="0 1 0" range="-120 120"/>
        <geom name="lower_geom" class="link" fromto="0 0 0 0.25 0 0"/>
        <site name="tip" pos="0.25 0 0" size="0.01"/>
        <geom name="tetra" type="mesh" mesh="tetra" pos="0.25 0 0"/>
      </body>
    </body>
  </worldbody>
  <include file="actuation.xml"/>
</mujoco>
""")
with open(os.path.join(directory, "actuation.xml"), "w") as handle:
    handle.write("""
<mujoco>
  <actuator>
    <motor name="shoulder" joint="shoulder" gear="20"/>
    <motor name="elbow" joint="elbow" gear="10"/>
  </actuator>
  <sensor>
    <jointpos name="shoulder_pos" joint="shoulder"/>
    <framepos name="tip_pos" objtype="site" objname="tip"/>
    <actuatorfrc name="elbow_force" actuator="elbow"/>
  </sensor>
</mujoco>
""")

model = mjcf.from_path(os.path.join(directory, "arm.xml"))
record("model_name", model.model)
record("asset_names", sorted(model.get_assets()))
for namespace in ("body", "joint", "geom", "site", "actuator", "sensor", "mesh", "material"):
    record(f"names/{namespace}", [e.name for e in model.find_all(namespace)])
shoulder = model.find("joint", "shoulder")
record("shoulder/range", shoulder.range)
record("shoulder/damping", shoulder.damping)
record("shoulder/dclass", None if shoulder.dclass is None else shoulder.dclass.dclass)
upper_geom = model.find("geom", "upper_geom")
record("upper_geom/size", upper_geom.size)
record("upper_geom/attributes", sorted(upper_geom.get_attributes()))
record("motor/gear", model.find("actuator", "elbow").gear)

# Edits through find.
upper_geom.rgba = [1, 0, 0, 1]
model.find("joint", "elbow").range = [-60, 60]
model.find("actuator", "shoulder").gear = [35]
lower = model.find("body", "lower")
extra = lower.add("site", name="mid", pos=[0.12, 0, 0], size=[0.02])
model.find("geom", "tetra").remove()
model.find("default", "link").geom.size = [0.04]
record("after_edit/names/site", [e.name for e in model.find_all("site")])
record("after_edit/names/geom", [e.name for e in model.find_all("geom")])

physics = mjcf.Physics.from_mjcf_model(model)
record("nq", physics.model.nq)
record("ngeom", physics.model.ngeom)
record("geom_size", np.asarray(physics.named.model.geom_size))
record("jnt_range", np.asarray(physics.named.model.jnt_range))
record("actuator_gear", physics.named.model.actuator_gear[:, 0])
record("bind/mid", physics.bind(extra).xpos)
physics.bind([model.find("joint", "shoulder"), model.find("joint", "elbow")]).qpos = [0.3, -0.4]
record("bind/tip_after_write", physics.bind(model.find("site", "tip")).xpos)
record("sensors_after_write", np.asarray(physics.named.data.sensordata))
for step in range(50):
    physics.set_control([np.sin(0.1 * step), np.cos(0.1 * step)])
    physics.step()
    if step % 10 == 9:
        record(f"t{step}/qpos", physics.data.qpos)
        record(f"t{step}/sensordata", physics.data.sensordata)
        record(f"t{step}/tip", physics.named.data.site_xpos["tip"])
