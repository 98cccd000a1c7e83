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


# The row and column names of every array field that dm-control 1.0.50's size
# table names (MuJoCo 4's new fields are not in it) for a model with every kind of
# element the names depend on.
AXES = """import numpy as np
from dm_control import mjcf

XML = '''
<mujoco model="rich">
  <worldbody>
    <body name="cart" pos="0 0 1">
      <joint name="slider" type="slide" axis="1 0 0"/>
      <geom name="cart" type="box" size="0.2 0.1 0.05" mass="1"/>
      <site name="s0"/>
      <body name="pole">
        <joint name="hinge" axis="0 1 0"/>
        <geom name="pole" type="capsule" fromto="0 0 0 0 0 0.6" size="0.04" mass="0.1"/>
        <site name="tip" pos="0 0 0.6"/>
        <camera name="cam" pos="0 -1 0"/>
      </body>
    </body>
    <body name="ball" pos="1 0 0.5"><freejoint name="free"/><geom name="ball" size="0.1"/></body>
    <light name="lamp" pos="0 0 3"/>
  </worldbody>
  <tendon><spatial name="rope"><site site="s0"/><site site="tip"/></spatial></tendon>
  <actuator><motor name="slide" joint="slider"/><general name="act" joint="hinge" dyntype="filter"/></actuator>
  <sensor><jointpos name="hinge_pos" joint="hinge"/><framepos name="tip_pos" objtype="site" objname="tip"/></sensor>
</mujoco>
'''
FIELDS = {'data': ['M', 'act', 'act_dot', 'actuator_force', 'actuator_length', 'actuator_moment',
          'actuator_velocity', 'body_awake', 'body_awake_ind', 'bvh_active', 'cacc',
          'cam_xmat', 'cam_xpos', 'cdof', 'cdof_dot', 'cfrc_ext', 'cfrc_int', 'cinert',
          'crb', 'ctrl', 'cvel', 'dof_awake_ind', 'geom_xmat', 'geom_xpos',
          'light_xdir', 'light_xpos', 'moment_colind', 'moment_rowadr', 'moment_rownnz',
          'parent_awake_ind', 'qDeriv', 'qH', 'qHDiagInv', 'qLD', 'qLDiagInv', 'qLU',
          'qacc', 'qacc_smooth', 'qacc_warmstart', 'qfrc_actuator', 'qfrc_adhesion',
          'qfrc_applied', 'qfrc_bias', 'qfrc_constraint', 'qfrc_damper', 'qfrc_fluid',
          'qfrc_gravcomp', 'qfrc_inverse', 'qfrc_passive', 'qfrc_smooth', 'qfrc_spring',
          'qpos', 'qvel', 'sensordata', 'site_xmat', 'site_xpos', 'subtree_angmom',
          'subtree_com', 'subtree_linvel', 'ten_J', 'ten_length', 'ten_velocity',
          'ten_wrapadr', 'ten_wrapnum', 'tree_asleep', 'tree_awake', 'wrap_obj',
          'wrap_xpos', 'xanchor', 'xaxis', 'xfrc_applied', 'ximat', 'xipos', 'xmat',
          'xpos', 'xquat'],
 'model': ['B_colind', 'B_rowadr', 'B_rownnz', 'D_colind', 'D_diag', 'D_rowadr',
           'D_rownnz', 'M_colind', 'M_rowadr', 'M_rownnz', 'actuator_acc0',
           'actuator_actadr', 'actuator_actearly', 'actuator_actlimited',
           'actuator_actnum', 'actuator_actrange', 'actuator_armature',
           'actuator_biasprm', 'actuator_biastype', 'actuator_cranklength',
           'actuator_ctrladr', 'actuator_ctrllimited', 'actuator_ctrlnum',
           'actuator_ctrlrange', 'actuator_ctrlspec', 'actuator_damping',
           'actuator_dampingpoly', 'actuator_delay', 'actuator_dynprm',
           'actuator_dyntype', 'actuator_forcelimited', 'actuator_forcerange',
           'actuator_gainprm', 'actuator_gaintype', 'actuator_gear', 'actuator_group',
           'actuator_history', 'actuator_historyadr', 'actuator_length0',
           'actuator_lengthrange', 'actuator_outadr', 'actuator_outnum',
           'actuator_plugin', 'actuator_trnid', 'actuator_trntype', 'body_bvhadr',
           'body_bvhnum', 'body_conaffinity', 'body_contype', 'body_dofadr',
           'body_dofnum', 'body_geomadr', 'body_geomnum', 'body_gravcomp',
           'body_inertia', 'body_invweight0', 'body_ipos', 'body_iquat', 'body_jntadr',
           'body_jntnum', 'body_margin', 'body_mass', 'body_mocapid', 'body_parentid',
           'body_plugin', 'body_pos', 'body_quat', 'body_rootid', 'body_sameframe',
           'body_simple', 'body_subtreemass', 'body_treeid', 'body_weldid', 'bvh_aabb',
           'bvh_child', 'bvh_depth', 'bvh_nodeid', 'cam_bodyid', 'cam_fovy',
           'cam_intrinsic', 'cam_ipd', 'cam_mat0', 'cam_mode', 'cam_output', 'cam_pos',
           'cam_pos0', 'cam_poscom0', 'cam_projection', 'cam_quat', 'cam_resolution',
           'cam_sensorsize', 'cam_targetbodyid', 'dof_M0', 'dof_Madr', 'dof_armature',
           'dof_bodyid', 'dof_damping', 'dof_dampingpoly', 'dof_frictionloss',
           'dof_invweight0', 'dof_jntid', 'dof_length', 'dof_parentid', 'dof_simplenum',
           'dof_solimp', 'dof_solref', 'dof_treeid', 'geom_aabb', 'geom_adhesion',
           'geom_bodyid', 'geom_conaffinity', 'geom_condim', 'geom_contype',
           'geom_dataid', 'geom_fluid', 'geom_friction', 'geom_gap', 'geom_group',
           'geom_margin', 'geom_matid', 'geom_plugin', 'geom_pos', 'geom_priority',
           'geom_quat', 'geom_rbound', 'geom_rgba', 'geom_sameframe', 'geom_size',
           'geom_solimp', 'geom_solmix', 'geom_solref', 'geom_surfacevel', 'geom_type',
           'jnt_actfrclimited', 'jnt_actfrcrange', 'jnt_actgravcomp', 'jnt_actuatorid',
           'jnt_axis', 'jnt_bodyid', 'jnt_dofadr', 'jnt_group', 'jnt_limited',
           'jnt_margin', 'jnt_pos', 'jnt_qposadr', 'jnt_range', 'jnt_solimp',
           'jnt_solref', 'jnt_stiffness', 'jnt_stiffnesspoly', 'jnt_type',
           'light_active', 'light_ambient', 'light_attenuation', 'light_bodyid',
           'light_bulbradius', 'light_castshadow', 'light_cutoff', 'light_diffuse',
           'light_dir', 'light_dir0', 'light_exponent', 'light_intensity', 'light_mode',
           'light_pos', 'light_pos0', 'light_poscom0', 'light_range', 'light_softness',
           'light_specular', 'light_targetbodyid', 'light_texid', 'light_type',
           'mapD2M', 'mapM2D', 'mapM2M', 'name_actuatoradr', 'name_bodyadr',
           'name_camadr', 'name_geomadr', 'name_jntadr', 'name_lightadr',
           'name_sensoradr', 'name_siteadr', 'name_tendonadr', 'names_map', 'qpos0',
           'qpos_spring', 'sensor_adr', 'sensor_cutoff', 'sensor_datatype',
           'sensor_delay', 'sensor_dim', 'sensor_history', 'sensor_historyadr',
           'sensor_interval', 'sensor_intprm', 'sensor_needstage', 'sensor_noise',
           'sensor_objid', 'sensor_objtype', 'sensor_plugin', 'sensor_refid',
           'sensor_reftype', 'sensor_type', 'site_bodyid', 'site_dataid', 'site_group',
           'site_matid', 'site_pos', 'site_quat', 'site_rgba', 'site_sameframe',
           'site_size', 'site_type', 'ten_J_colind', 'ten_J_rowadr', 'ten_J_rownnz',
           'tendon_actfrclimited', 'tendon_actfrcrange', 'tendon_actuatorid',
           'tendon_adr', 'tendon_armature', 'tendon_damping', 'tendon_dampingpoly',
           'tendon_frictionloss', 'tendon_group', 'tendon_invweight0', 'tendon_length0',
           'tendon_lengthspring', 'tendon_limited', 'tendon_margin', 'tendon_matid',
           'tendon_num', 'tendon_range', 'tendon_rgba', 'tendon_solimp_fri',
           'tendon_solimp_lim', 'tendon_solref_fri', 'tendon_solref_lim',
           'tendon_stiffness', 'tendon_stiffnesspoly', 'tendon_treeid',
           'tendon_treenum', 'tendon_width', 'tree_bodyadr', 'tree_bodynum',
           'tree_dofadr', 'tree_dofnum', 'tree_sleep_policy', 'wrap_objid', 'wrap_prm',
           'wrap_type']}
physics = mjcf.Physics.from_xml_string(XML)
for struct_name, names in FIELDS.items():
    struct = getattr(physics.named, struct_name)
    for field in names:
        indexer = getattr(struct, field)
        row = getattr(indexer.axes.row, "names", None)
        col = getattr(indexer.axes.col, "names", None) if indexer.axes.col is not None else None
        record(f"{struct_name}.{field}", [row, col])
"""


@pytest.mark.dm_control_api("mjcf.Physics.named", "mujoco.Physics.named")
def test_named_indexing_matches(differential):
    differential.assert_same(NAMED, "named", rtol=1e-12, atol=1e-12)


@pytest.mark.dm_control_api("mjcf.Physics.named", "mujoco.Physics.named")
def test_axis_names_of_every_field_match(differential):
    differential.assert_same(AXES, "named_axes")
