"""dm_control's utility modules that users import by path, against dm-control 1.0.50:
`mujoco.math`, `mujoco.index` (the axes and field indexers behind `physics.named`),
`suite.lqr_solver`, `utils.containers`, `utils.xml_tools`, the motion-capture
`loader`, `trajectory` and `props`, and `viewer.launch` as far as it runs headless.
"""

from __future__ import annotations

import os

import pytest

from tests.differential import dm_control_tests, harness

_MATH_PROGRAM = """
import numpy as np
from dm_control.mujoco import math as mjmath

rng = np.random.RandomState(11)
quats = rng.normal(size=(6, 4))
quats /= np.linalg.norm(quats, axis=1, keepdims=True)
quats = list(quats) + [np.array([1.0, 0, 0, 0]), np.array([0.0, 1, 0, 0]),
                       np.array([-1.0, 0, 0, 0]), np.array([np.cos(1e-7), 0, np.sin(1e-7), 0])]
for i, q in enumerate(quats):
    check(f"neg/{i}", mjmath.mj_quatneg, q)
    check(f"quat2vel/{i}", mjmath.mj_quat2vel, q, 0.02)
    for j, r in enumerate(quats[:5]):
        check(f"prod/{i}/{j}", mjmath.mj_quatprod, q, r)
        check(f"diff/{i}/{j}", mjmath.mj_quatdiff, q, r)
for i, angles in enumerate(rng.uniform(-180.0, 180.0, size=(6, 3))):
    check(f"euler/{i}", mjmath.euler2quat, *angles)
check("euler/zero", mjmath.euler2quat, 0, 0, 0)
check("euler/quarter_turns", mjmath.euler2quat, 90, -90, 180)
check("prod/lists", mjmath.mj_quatprod, [1, 0, 0, 0], [0.0, 0.6, 0.8, 0])
check("diff/lists", mjmath.mj_quatdiff, [0.0, 1, 0, 0], [0.0, 0, 1, 0])
check("neg/list", mjmath.mj_quatneg, [0.5, 0.5, 0.5, 0.5])
check("quat2vel/list", mjmath.mj_quat2vel, [0.0, 0, 0, 1], 0.5)
check("quat2vel/unnormalised", mjmath.mj_quat2vel, np.array([2.0, 0.2, -0.4, 0.1]), 0.1)
"""

_LQR_PROGRAM = """
from dm_control import suite
from dm_control.suite import lqr_solver

for task in ("lqr_2_1", "lqr_6_2"):
    env = suite.load("lqr", task, task_kwargs={"random": 0})
    p, k, beta = lqr_solver.solve(env)
    record(f"{task}/value", p)
    record(f"{task}/gain", k)
    record(f"{task}/beta", beta)
"""

_CONTAINERS_PROGRAM = """
from dm_control.utils import containers

tasks = containers.TaggedTasks()
record("allow_overriding_keys", tasks.allow_overriding_keys)

@tasks.add("easy", "benchmarking")
def first(scale=1):
    return 1 * scale

@tasks.add("hard", "benchmarking")
def second():
    return 2

@tasks.add()
def third():
    return 3

record("keys", list(tasks))
record("len", len(tasks))
record("tags", sorted(tasks.tags()))
record("tagged/easy", list(tasks.tagged("easy")))
record("tagged/benchmarking", list(tasks.tagged("benchmarking")))
record("tagged/both", list(tasks.tagged("easy", "benchmarking")))
record("tagged/none", list(tasks.tagged()))
record("tagged/unknown", list(tasks.tagged("no_such_tag")))
record("call", [tasks["first"](scale=5), tasks["second"](), tasks["third"]()])
record("decorator_returns_factory", first() == 1)
record("contains", ["first" in tasks, "fourth" in tasks])
check("missing", lambda: tasks["fourth"])
check("taken", lambda: tasks.add("easy")(first))
record("after_refusal", list(tasks))
overriding = containers.TaggedTasks(allow_overriding_keys=True)
overriding.add("old")(first)

def first():  # noqa: F811
    return "new"

overriding.add("new")(first)
record("overridden", [overriding["first"](), list(overriding.tagged("new")),
                      list(overriding.tagged("old")), sorted(overriding.tags())])
"""

_XML_TOOLS_PROGRAM = """
import io
import os
import tempfile
from lxml import etree
from dm_control.utils import xml_tools

XML = b'''<mujoco model="m">
  <worldbody>
    <body name="a">
      <geom name="g" type="sphere" size="1"/>
    </body>
    <body name="b">   <body name="c"><geom name="a" size=".1"/></body>
    </body>
  </worldbody>
</mujoco>
'''
tree = xml_tools.parse(io.BytesIO(XML))
record("type", type(tree).__name__)
record("text", etree.tostring(tree).decode())
record("pretty", etree.tostring(tree, pretty_print=True).decode())
record("found", etree.tostring(xml_tools.find_element(tree, "body", "c")).decode())
record("found_from_root", xml_tools.find_element(tree.getroot(), "geom", "g").get("size"))
record("found_by_tag", xml_tools.find_element(tree, "geom", "a").get("size"))
check("missing", xml_tools.find_element, tree, "body", "nope")
check("wrong_tag", xml_tools.find_element, tree, "site", "a")
link = etree.Element("body", name="link")
etree.SubElement(link, "geom", size="0.1")
nested = xml_tools.nested_element(link, 3)
record("nested", etree.tostring(nested).decode())
record("nested_in_place", nested is link)
record("nested_zero", etree.tostring(xml_tools.nested_element(etree.Element("site"), 0)).decode())
check("bad_xml", xml_tools.parse, io.BytesIO(b"<mujoco><worldbody></mujoco>"))
with tempfile.TemporaryDirectory() as directory:
    path = os.path.join(directory, "model.xml")
    with open(path, "wb") as handle:
        handle.write(XML)
    record("from_path", etree.tostring(xml_tools.parse(path)).decode())
    with open(path, "rb") as handle:
        record("from_file", etree.tostring(xml_tools.parse(handle).getroot()).decode())
"""

_INDEX_PROGRAM = """
import numpy as np
from dm_control import mujoco
from dm_control.mujoco import index

XML = '''<mujoco>
  <worldbody>
    <body name="a"><freejoint name="f"/><geom name="g" size=".1"/>
      <body name="b" pos="0 0 .3"><joint name="h" type="hinge"/><geom size=".1"/><site name="s"/>
        <body pos=".3 0 0"><joint type="ball"/><geom type="box" size=".1 .2 .3"/></body></body>
    </body>
    <body name="m" mocap="true"/>
  </worldbody>
  <actuator><motor name="m1" joint="h"/><general name="m2" joint="h" dyntype="filter"/></actuator>
  <sensor><accelerometer name="acc" site="s"/><jointpos joint="h"/></sensor>
  <custom><numeric name="num" data="1 2 3"/><numeric name="one" data="4"/></custom>
</mujoco>'''
physics = mujoco.Physics.from_xml_string(XML)
physics.data.qpos[:] = np.arange(physics.model.nq) / 10.0
physics.data.act[:] = 0.5
physics.forward()
axes = index.make_axis_indexers(physics.model)
keys = sorted(key for key in list(axes) if isinstance(key, str))
record("axis_keys", keys)
for key in keys:
    axis = axes[key]
    record(f"axis/{key}", [type(axis).__name__, type(axis.names).__name__, list(axis.names)])
record("axis/unknown", type(axes["nM"]).__name__)
record("axis/is_axis", all(isinstance(axes[key], index.Axis) for key in keys))
check("axis/abstract", index.Axis)

def converted(axis, size, key):
    # The positions a key selects along an axis of `size` entries.
    return np.arange(size)[axis.convert_key_item(key)]

qpos_row = physics.named.data.qpos.axes.row
for key in ("f", "h", ["f", "h"], ["h", "f"], 3, -1, slice(1, 4), [0, 2], np.array([1, 2])):
    check(f"qpos/{key!r}", converted, qpos_row, physics.model.nq, key)
for key in ("nope", "", None, Ellipsis, ["f", "nope"], [""]):
    check(f"qpos/error/{key!r}", qpos_row.convert_key_item, key)
act_row = physics.named.data.act.axes.row
check("act/m2", act_row.convert_key_item, "m2")
check("act/m1", converted, act_row, physics.model.na, "m1")
record("act/named", physics.named.data.act["m2"])
xpos = physics.named.data.xpos
for key in ("b", ["a", "m"], np.array([["a"], ["b"]]), 2, [0, 3], slice(None, 2)):
    check(f"xpos/{key!r}", lambda key=key: xpos[key])
for key in ("z", ["x", "z"], 1):
    check(f"xpos/col/{key!r}", lambda key=key: xpos["b", key])
check("xpos/unknown_body", lambda: xpos["nope"])
check("xpos/unknown_column", lambda: xpos["b", "w"])
check("xpos/too_many", lambda: xpos["b", "x", 0])
check("xpos/ellipsis", lambda: xpos[..., 0])
unnamed = physics.named.data.actuator_moment.axes.row
check("actuator_moment/row_type", lambda: type(unnamed).__name__)
check("unnamed/int", unnamed.convert_key_item, 3)
check("unnamed/none", unnamed.convert_key_item, None)
check("unnamed/empty", unnamed.convert_key_item, "")
for field in ("qpos", "qvel", "act", "ctrl", "sensordata", "xpos", "xquat", "xmat",
              "mocap_pos", "site_xpos", "cam_xpos", "cdof"):
    indexer = getattr(physics.named.data, field)
    record(f"data/{field}/axes", [type(axis).__name__ for axis in indexer.axes])
    record(f"data/{field}/names", [list(getattr(axis, "names", [])) for axis in indexer.axes
                                   if axis is not None])
for field in ("body_mass", "geom_rgba", "numeric_data", "numeric_size", "name_bodyadr",
              "actuator_gear", "jnt_range", "dof_damping", "qpos0"):
    indexer = getattr(physics.named.model, field)
    record(f"model/{field}/axes", [type(axis).__name__ for axis in indexer.axes])
record("numeric/num", physics.named.model.numeric_data["num"])
record("numeric/one", physics.named.model.numeric_data[["one", "num"]])
record("sensordata/acc", physics.named.data.sensordata["acc"])

regular = index.RegularNamedAxis(["p", "", "q"])
record("regular/names", regular.names)
check("regular/q", regular.convert_key_item, "q")
check("regular/list", regular.convert_key_item, ["q", "p"])
check("regular/unnamed", regular.convert_key_item, "")
check("regular/missing", regular.convert_key_item, "r")
ragged = index.RaggedNamedAxis(["p", "", "q"], [2, 1, 3])
record("ragged/names", ragged.names)
check("ragged/q", converted, ragged, 6, "q")
check("ragged/list", ragged.convert_key_item, ["q", "p"])
check("ragged/missing", ragged.convert_key_item, "r")
singleton = index.RaggedNamedAxis(["p", "q"], [1, 2], singleton=True)
check("singleton/p", singleton.convert_key_item, "p")
check("singleton/q", converted, singleton, 3, "q")
pair = index.Axes(regular)
record("axes/default_col", pair.col is None)
record("axes/fields", index.Axes._fields)
record("axes/row", index.Axes(1, 2).row)

fields = index.FieldIndexer(physics.data, "xpos", [axes["nbody"], axes["xyz"]])
record("field/get", fields["b", "z"])
record("field/shape", fields.shape)
record("field/axes", [type(axis).__name__ for axis in fields.axes])
record("field/repr", repr(fields))
record("field/repr_qpos", repr(physics.named.data.qpos))
record("field/repr_act", repr(physics.named.data.act))
record("field/repr_geom_size", repr(physics.named.model.geom_size))
fields["m"] = [1.0, 2.0, 3.0]
record("field/set", physics.data.xpos[3])
fields["m", "y"] = -1.0
record("field/set_column", physics.data.xpos[3])
qpos = index.FieldIndexer(physics.data, "qpos", [axes["nq"]])
record("field/qpos_h", qpos["h"])
record("field/qpos_axes", [type(qpos.axes.row).__name__, qpos.axes.col])

named_data = index.struct_indexer(physics.data, "mjdata", axes)
record("struct/type", type(named_data).__name__)
record("struct/xpos", named_data.xpos["b"])
record("struct/qpos", named_data.qpos[["h", "f"]])
record("struct/sensordata", named_data.sensordata["acc"])
record("struct/has", [name in named_data._asdict() for name in ("xpos", "qpos", "sensordata")])
named_model = index.struct_indexer(physics.model, "MjModel", axes)
record("struct/body_mass", named_model.body_mass[["b", "a"]])
record("struct/geom_size", named_model.geom_size["g", "x"])
check("struct/bad_name", index.struct_indexer, physics.data, "mjfoo", axes)
check("struct/readonly", setattr, named_data, "xpos", None)
made = index.make_struct_indexer({"xpos": fields, "qpos": qpos})
record("made/same", [made.xpos is fields, made.qpos is qpos])
record("made/asdict", sorted(made._asdict()))
record("made/copy", made._asdict() is not made._asdict())
check("made/readonly", setattr, made, "xpos", None)
check("made/missing", getattr, made, "xquat")
"""

_MOCAP_PROGRAM = """
import numpy as np
from dm_control import mjcf
from dm_control.locomotion import arenas, walkers
from dm_control.locomotion.mocap import loader, props, trajectory

PATH = {path!r}
record("tolerance", trajectory.STEP_TIME_TOLERANCE)
check("abstract_loader", loader.TrajectoryLoader)
reader = loader.HDF5TrajectoryLoader(PATH)
record("keys", list(reader.keys()))
record("is_loader", isinstance(reader, loader.TrajectoryLoader))
clip = reader.get_trajectory("cmuv2019_001", start_step=1, end_step=6, zero_out_velocities=False)
record("is_trajectory", isinstance(clip, trajectory.Trajectory))
record("clip", [clip.identifier, clip.dt, clip.start_time, clip.end_time, clip.duration,
                clip.num_steps, clip.start_step, clip.end_step, clip.clip_end_time])
for key, value in clip.as_dict().items():
    record(f"feature/{{key}}", value)
data = clip.get_timestep_data(clip.start_time + 2 * clip.dt)
walker_pose = data.walkers[0]
record("timestep/walker", [np.asarray(getattr(walker_pose, field)) for field in
                           ("position", "quaternion", "joints", "velocity", "angular_velocity",
                            "joints_velocity", "appendages", "body_positions")])
record("timestep/props", [[np.asarray(p.position), np.asarray(p.quaternion)] for p in data.props])
check("timestep/off_grid", clip.get_timestep_data, clip.start_time + 0.3 * clip.dt)
check("both_starts", reader.get_trajectory, "cmuv2019_001", start_time=0.1, start_step=2)
by_time = reader.get_trajectory("cmuv2019_002", start_time=0.05, end_time=0.2)
record("by_time", [by_time.start_step, by_time.end_step, by_time.num_steps])
zero = reader.get_trajectory("cmuv2019_002")
record("zero_velocity", zero.as_dict()["walker/velocity"][-1])

for name, modifier in (("z", loader.ZOffsetter(0.25)), ("appendages", loader.AppendageFixer()),
                       ("mass", loader.PropMassLimiter(0.5)),
                       ("resize", loader.PropResizer(size_factor=1.5, mass=2.0)),
                       ("delta", loader.PropResizer(size_delta=0.1, mass=0.5))):
    modified = reader.get_trajectory("cmuv2019_001").get_modified_trajectory(modifier)
    features = modified.as_dict()
    record(f"modified/{{name}}", [features["walker/position"], features["walker/appendages"],
                                [[list(p.geom.size), float(p.geom.mass)]
                                 for p in modified.create_props()]])
chained = loader.HDF5TrajectoryLoader(PATH, proto_modifier=[loader.ZOffsetter(0.1),
                                                            loader.PropMassLimiter(0.25)])
record("chained", [[list(p.geom.size), float(p.geom.mass)]
                   for p in chained.get_trajectory("cmuv2019_001").create_props()])
check("resizer_no_mass", clip.get_modified_trajectory, loader.PropResizer(size_delta=0.1))
check("resizer_both", loader.PropResizer, size_factor=2.0, size_delta=0.1)

made = clip.create_props(priority_friction=True)
record("props", [[p.mjcf_model.model, list(p.geom.size), float(p.geom.mass), list(p.geom.rgba),
                  p.geom.priority, p.geom.type] for p in made])
factory = clip.create_props(prop_factory=props.Prop)
record("factory", [type(p).__name__ for p in factory])
prop = made[0]
record("prop/type", isinstance(prop, props.Prop))
record("prop/observables", type(prop.observables).__name__)
walker = walkers.CMUHumanoidPositionControlled()
np.random.seed(3)
clip.configure_walkers([walker])
arena = arenas.Floor()
arena.add_free_entity(walker)
for p in made:
    arena.add_free_entity(p)
physics = mjcf.Physics.from_mjcf_model(arena.mjcf_model)
prop.after_compile(physics, np.random.RandomState(0))
record("body_geoms", list(prop.body_geom_ids) == [physics.bind(prop.geom).element_id])
with physics.reset_context():
    clip.set_walker_poses(physics, [walker])
    clip.set_prop_poses(physics, made)
record("walker_root", physics.bind(walker.root_body).xpos)
record("prop_pose", list(prop.get_pose(physics)))
record("prop/position", prop.observables.position(physics))
record("prop/orientation", prop.observables.orientation(physics))
record("prop/position_element", prop.position.tag if hasattr(prop.position, "tag") else None)
other = chained.get_trajectory("cmuv2019_001").create_props()[0]
prop.update_with_new_prop(other)
record("updated", [list(prop.geom.size), float(prop.geom.mass), list(prop.geom.rgba)])
"""

_VIEWER_SIGNATURE_PROGRAM = """
import inspect
from dm_control import viewer

record("parameters", [[p.name, p.kind.name,
                       None if p.default is inspect.Parameter.empty else p.default]
                      for p in inspect.signature(viewer.launch).parameters.values()])
"""

_VIEWER_HEADLESS_PROGRAM = """
import os
from dm_control import viewer

def raising_loader():
    raise ZeroDivisionError("the loader ran")

check("no_display/none", viewer.launch, None)
check("no_display/raising_loader", viewer.launch, raising_loader)
check("no_display/settings", viewer.launch, raising_loader, title="t", width=10, height=10)
"""


@pytest.fixture(scope="module")
def clip_file() -> str:
    reference = harness.reference_python()
    if reference is None:
        pytest.skip("no dm-control 1.0.50 reference venv")
    path = os.path.join(
        dm_control_tests.dm_control_root(reference), "locomotion", "mocap", "test_trajectories.h5"
    )
    if not os.path.exists(path):
        pytest.skip(f"dm_control's clip file is missing: {path}")
    return path


@pytest.mark.dm_control_api(
    "mujoco.math.euler2quat",
    "mujoco.math.mj_quat2vel",
    "mujoco.math.mj_quatdiff",
    "mujoco.math.mj_quatneg",
    "mujoco.math.mj_quatprod",
)
def test_mujoco_math_matches_dm_control(differential):
    differential.assert_same(_MATH_PROGRAM, "mujoco_math", rtol=1e-12, atol=1e-12)


@pytest.mark.dm_control_api("suite.lqr_solver.solve")
def test_lqr_solver_matches_dm_control(differential):
    # The solver iterates to a tolerance on models compiled by two MuJoCo versions.
    differential.assert_same(_LQR_PROGRAM, "lqr_solver", rtol=1e-6, atol=1e-8)


@pytest.mark.dm_control_api(
    "utils.containers.TaggedTasks",
    "utils.containers.TaggedTasks.add",
    "utils.containers.TaggedTasks.tagged",
    "utils.containers.TaggedTasks.tags",
)
def test_tagged_tasks_match_dm_control(differential):
    differential.assert_same(_CONTAINERS_PROGRAM, "containers")


@pytest.mark.dm_control_api(
    "utils.xml_tools.find_element",
    "utils.xml_tools.nested_element",
    "utils.xml_tools.parse",
)
def test_xml_tools_match_dm_control(differential):
    differential.assert_same(_XML_TOOLS_PROGRAM, "xml_tools")


@pytest.mark.dm_control_api(
    "mujoco.index.Axes",
    "mujoco.index.Axes.col",
    "mujoco.index.Axes.row",
    "mujoco.index.Axis",
    "mujoco.index.Axis.convert_key_item",
    "mujoco.index.FieldIndexer",
    "mujoco.index.FieldIndexer.axes",
    "mujoco.index.RaggedNamedAxis",
    "mujoco.index.RaggedNamedAxis.convert_key_item",
    "mujoco.index.RaggedNamedAxis.names",
    "mujoco.index.RegularNamedAxis",
    "mujoco.index.RegularNamedAxis.convert_key_item",
    "mujoco.index.RegularNamedAxis.names",
    "mujoco.index.UnnamedAxis",
    "mujoco.index.UnnamedAxis.convert_key_item",
    "mujoco.index.make_axis_indexers",
    "mujoco.index.make_struct_indexer",
    "mujoco.index.struct_indexer",
)
def test_named_indexing_machinery_matches_dm_control(differential):
    differential.assert_same(_INDEX_PROGRAM, "mujoco_index", rtol=1e-9, atol=1e-9)


@pytest.mark.dm_control_api(
    "locomotion.mocap.loader.AppendageFixer",
    "locomotion.mocap.loader.HDF5TrajectoryLoader",
    "locomotion.mocap.loader.HDF5TrajectoryLoader.keys",
    "locomotion.mocap.loader.PropMassLimiter",
    "locomotion.mocap.loader.PropResizer",
    "locomotion.mocap.loader.TrajectoryLoader",
    "locomotion.mocap.loader.TrajectoryLoader.get_trajectory",
    "locomotion.mocap.loader.TrajectoryLoader.keys",
    "locomotion.mocap.loader.ZOffsetter",
    "locomotion.mocap.props.Observables",
    "locomotion.mocap.props.Observables.orientation",
    "locomotion.mocap.props.Observables.position",
    "locomotion.mocap.props.Prop",
    "locomotion.mocap.props.Prop.after_compile",
    "locomotion.mocap.props.Prop.body_geom_ids",
    "locomotion.mocap.props.Prop.geom",
    "locomotion.mocap.props.Prop.mjcf_model",
    "locomotion.mocap.props.Prop.orientation",
    "locomotion.mocap.props.Prop.position",
    "locomotion.mocap.props.Prop.update_with_new_prop",
    "locomotion.mocap.trajectory.STEP_TIME_TOLERANCE",
    "locomotion.mocap.trajectory.Trajectory",
    "locomotion.mocap.trajectory.Trajectory.as_dict",
    "locomotion.mocap.trajectory.Trajectory.clip_end_time",
    "locomotion.mocap.trajectory.Trajectory.configure_walkers",
    "locomotion.mocap.trajectory.Trajectory.create_props",
    "locomotion.mocap.trajectory.Trajectory.dt",
    "locomotion.mocap.trajectory.Trajectory.duration",
    "locomotion.mocap.trajectory.Trajectory.end_step",
    "locomotion.mocap.trajectory.Trajectory.end_time",
    "locomotion.mocap.trajectory.Trajectory.get_modified_trajectory",
    "locomotion.mocap.trajectory.Trajectory.get_timestep_data",
    "locomotion.mocap.trajectory.Trajectory.identifier",
    "locomotion.mocap.trajectory.Trajectory.num_steps",
    "locomotion.mocap.trajectory.Trajectory.set_prop_poses",
    "locomotion.mocap.trajectory.Trajectory.set_walker_poses",
    "locomotion.mocap.trajectory.Trajectory.start_step",
    "locomotion.mocap.trajectory.Trajectory.start_time",
)
def test_mocap_loader_trajectory_and_props_match_dm_control(differential, clip_file):
    differential.assert_same(
        _MOCAP_PROGRAM.format(path=clip_file),
        "mocap_modules",
        rtol=1e-9,
        atol=1e-9,
        # A geom's rgba is MjSpec's float32 here (0.77 reads back as 0.7699999809).
        tolerances=[("^(props|updated)$", 1e-7, 1e-7)],
    )


@pytest.mark.dm_control_api("viewer.launch")
def test_viewer_launch_matches_dm_control_headless(differential):
    differential.assert_same(_VIEWER_SIGNATURE_PROGRAM, "viewer_signature")
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        # With a display dm_control's viewer opens its window and waits for it to close.
        return
    differential.assert_same(_VIEWER_HEADLESS_PROGRAM, "viewer_headless")
