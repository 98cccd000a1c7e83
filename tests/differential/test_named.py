"""`physics.named` against dm_control's named indexing: axes and their names,
column names, keys of names, lists, columns and NumPy indices, errors, writes
and the printed table."""

import pytest

NAMED = """import numpy as np
from dm_control import mjcf

XML = '''
<mujoco model="named">
  <worldbody>
    <body name="cart" pos="0 0 1">
      <joint name="slider" type="slide" axis="1 0 0"/>
      <geom name="cart" type="box" size="0.2 0.1 0.05" mass="1"/>
      <body name="pole">
        <joint name="hinge" axis="0 1 0"/>
        <geom name="pole" type="capsule" fromto="0 0 0 0 0 0.6" size="0.04" mass="0.1"/>
        <site name="tip" pos="0 0 0.6"/>
      </body>
    </body>
    <body name="ball" pos="1 0 0.5"><freejoint name="free"/><geom name="ball" size="0.1"/></body>
    <body name="target" mocap="true" pos="0 1 1"><geom size="0.05" contype="0" conaffinity="0"/></body>
  </worldbody>
  <actuator><motor name="slide" joint="slider"/><motor name="turn" joint="hinge"/></actuator>
  <sensor><jointpos name="hinge_pos" joint="hinge"/><framepos name="tip_pos" objtype="site" objname="tip"/></sensor>
</mujoco>
'''
physics = mjcf.Physics.from_xml_string(XML)
n = physics.named
for field in ("qpos", "qvel", "xpos", "xquat", "xmat", "ctrl", "sensordata", "geom_xpos", "site_xpos", "mocap_pos", "qfrc_applied", "xfrc_applied", "act"):
    indexer = getattr(n.data, field)
    record(f"data/{field}/row_names", list(indexer.axes.row.names) if indexer.axes.row.names is not None else None)
    col = indexer.axes.col
    record(f"data/{field}/col_names", list(col.names) if getattr(col, "names", None) is not None else None)
    record(f"data/{field}/shape", np.asarray(indexer).shape)
for field in ("body_mass", "geom_size", "jnt_range", "dof_damping", "actuator_gear", "qpos0", "body_pos", "geom_rgba", "sensor_adr", "site_pos", "jnt_axis", "body_quat"):
    indexer = getattr(n.model, field)
    record(f"model/{field}/row_names", list(indexer.axes.row.names) if indexer.axes.row.names is not None else None)
    col = indexer.axes.col
    record(f"model/{field}/col_names", list(col.names) if getattr(col, "names", None) is not None else None)
record("qpos[free]", n.data.qpos["free"])
record("qpos[hinge]", n.data.qpos["hinge"])
record("qpos[[slider,hinge]]", n.data.qpos[["slider", "hinge"]])
record("xpos[pole,z]", n.data.xpos["pole", "z"])
record("xpos[[cart,pole],[x,z]]", n.data.xpos[["cart", "pole"], ["x", "z"]])
record("xpos[:, z]", n.data.xpos[:, "z"])
record("xquat[ball]", n.data.xquat["ball"])
record("xquat[ball,qw]", n.data.xquat["ball", "qw"])
record("xmat[pole,zz]", n.data.xmat["pole", "zz"])
record("sensordata[tip_pos]", n.data.sensordata["tip_pos"])
record("mocap_pos[target]", n.data.mocap_pos["target"])
record("body_mass[1:3]", n.model.body_mass[1:3])
record("geom_size[ball]", n.model.geom_size["ball"])
record("jnt_range[hinge]", n.model.jnt_range["hinge"])
record("dof_damping[free]", n.model.dof_damping["free"])
check("missing", lambda: n.data.qpos["nope"])
check("bad_col", lambda: n.data.xpos["pole", "w"])
n.data.qpos["hinge"] = 0.3
record("write", physics.data.qpos.copy())
def write_unnamed_column():
    n.data.xfrc_applied["ball", "z"] = 1.0
check("write_unnamed_column", write_unnamed_column)
n.data.xfrc_applied["ball", 2] = 1.0
record("write_col", physics.data.xfrc_applied.copy())
n.data.xpos["pole", ["x", "y"]] = 0.5
record("write_named_cols", physics.data.xpos.copy())
check("len", len, n.data.xpos)
for field in ("qpos", "xpos", "act", "sensordata", "ctrl", "xfrc_applied"):
    record(f"repr/{field}", repr(getattr(n.data, field)))
for field in ("geom_rgba", "body_mass", "jnt_range"):
    record(f"repr/{field}", repr(getattr(n.model, field)))
check("ellipsis", lambda: n.data.qpos[...])
check("none", lambda: n.data.qpos[None])
check("empty", lambda: n.data.qpos[""])
check("too_many", lambda: n.data.qpos[0, 1])
record("array_attr", n.data.xpos.shape)
record("asdict_has_qpos", "qpos" in n.data._asdict())
record("ctrl_slice", n.data.ctrl["turn"])
"""


@pytest.mark.dm_control_api("mjcf.Physics.named", "mujoco.Physics.named")
def test_named_indexing_matches(differential):
    differential.assert_same(NAMED, "named", rtol=1e-12, atol=1e-12)
