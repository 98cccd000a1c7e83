"""PyMJCF attributes against dm_control's: values read back as written (None where
only a default class sets them), `get_attributes`, `set_attributes`, clearing,
defaults inheritance, `dclass`, value types and the errors of bad values."""

import pytest

# Reading what a default class gives, vectors as long as written, references as
# given (a name stays a name), the top class and settings structs, names of
# unnamed models, same-name attachment and the attachment frame's API.
BASICS = """
import numpy as np
from dm_control import mjcf

m = mjcf.RootElement(model="arena")
m.default.geom.type = "capsule"
m.default.motor.gear = [30]
b = m.worldbody.add("body", name="torso", pos=[0, 0, 1])
g = b.add("geom", name="g", size=[0.05], fromto=[0, 0, 0, 0, 0, 0.2])
j = b.add("joint", name="hip", type="hinge", damping=2, axis="0 0 1")
a = m.actuator.add("motor", name="m", joint=j)
a2 = m.actuator.add("motor", name="m2", joint="hip", gear=[30])
record("geom_attrs", sorted(g.get_attributes()))
record("geom_size", g.size)
record("geom_type", g.type)
record("joint_damping", j.damping)
record("joint_attrs", sorted(j.get_attributes()))
record("motor_attrs", sorted(a.get_attributes()))
record("motor_gear", a.gear)
record("motor2_gear", a2.gear)
record("motor2_joint", a2.joint)
record("motor_joint_name", a.joint.name)
record("body_pos", b.pos)
record("body_quat", b.quat)
record("default_geom_type", m.default.geom.type)
record("default_geom_size", m.default.geom.size)
record("default_motor_gear", m.default.motor.gear)
record("geom_rgba", g.rgba)
record("limited", b.add("joint", name="j2", limited=True).limited)
record("contype", b.add("geom", name="g3", contype=1, size=[1]).contype)
record("mass", b.add("geom", name="g4", mass=1, size=[1]).mass)

p1 = mjcf.RootElement(model="prop")
p1.worldbody.add("geom", name="x", size=[1])
p2 = mjcf.RootElement(model="prop")
p2.worldbody.add("geom", name="x", size=[1])
f1 = m.attach(p1)
check("attach_same_name", lambda: m.attach(p2).name)
record("p2_model", p2.model)
check("p2_full_identifier", lambda: p2.find("geom", "x").full_identifier)
check("freejoint_of_model", lambda: mjcf.get_frame_freejoint(p1))
f1.add("freejoint")
check("freejoint_of_model2", lambda: mjcf.get_frame_freejoint(p1).full_identifier)
check("freejoint_of_frame", lambda: mjcf.get_frame_freejoint(f1))
check("attachment_frame_name", lambda: mjcf.get_attachment_frame(p1).name)
check("frame_full_identifier", lambda: mjcf.get_attachment_frame(p1).full_identifier)
check("unnamed_parse_prefix", lambda: mjcf.from_xml_string("<mujoco><worldbody><geom name='a' size='1'/></worldbody></mujoco>").model)
r = mjcf.from_xml_string("<mujoco><worldbody><geom name='a' size='1'/></worldbody></mujoco>")
m.attach(r)
check("unnamed_parse_attached", lambda: r.find("geom", "a").full_identifier)
rad = mjcf.RootElement(model="rad"); rad.compiler.angle = "radian"
rad.worldbody.add("body", name="rb", euler=[0, 0, 1.0]).add("geom", size=[1])
par = mjcf.RootElement(model="par")
par.attach(rad)
check("radian_attach", lambda: mjcf.Physics.from_mjcf_model(par).model.body_quat[2].tolist())
record("par_angle", par.compiler.angle)
record("rad_angle", rad.compiler.angle)
record("model_compiler_default", m.compiler.angle)
"""

# Every kind of element this API adds, its `get_attributes` key by key, types,
# default classes (nested, childclass), settings structs, set/clear, and errors.
ELEMENTS = """
import numpy as np
from dm_control import mjcf

m = mjcf.RootElement(model="robot")
m.default.geom.set_attributes(type="capsule", rgba=[0.5, 0.4, 0.3, 1])
m.default.joint.damping = 0.5
arm = m.default.add("default", dclass="arm")
arm.geom.size = [0.02]
arm.joint.set_attributes(range=[-1, 1], limited="true")
b = m.worldbody.add("body", name="b", pos="0 0 1", childclass="arm")
g = b.add("geom", name="g", fromto="0 0 0 0 0 0.3")
g2 = b.add("geom", name="g2", dclass="arm", size=[0.1, 0.2], mass=2, contype=1)
j = b.add("joint", name="j", axis=[0, 1, 0], stiffness=3)
free = m.worldbody.add("body", name="free")
fj = free.add("freejoint", name="fj")
free.add("geom", name="fg", type="sphere", size=[0.1])
s = b.add("site", name="s", size=[0.01], rgba="1 0 0 1", type="sphere")
cam = b.add("camera", name="c", mode="trackcom", fovy=60, pos=[0, -1, 0], xyaxes=[1, 0, 0, 0, 0, 1])
light = m.worldbody.add("light", name="l", directional="true", pos=[0, 0, 3])
mat = m.asset.add("material", name="mat", rgba=[1, 1, 1, 1], specular=0.3)
tex = m.asset.add("texture", name="tex", type="2d", builtin="checker", width=64, height=64, rgb1=[1, 1, 1], rgb2=[0, 0, 0])
mat.texture = tex
pos = m.actuator.add("position", name="p", joint=j, kp=20, ctrlrange="-1 1")
vel = m.actuator.add("velocity", name="v", joint="j", kv=3)
gen = m.actuator.add("general", name="gen", joint=j, gainprm=[5], biastype="affine", biasprm=[0, -5, -1])
sen = m.sensor.add("framepos", name="fp", objtype="site", objname=s)
exc = m.contact.add("exclude", name="ex", body1=b, body2="free")
key = m.keyframe.add("key", name="home", qpos=np.zeros(8), time=1.0)
inert = m.worldbody.add("body", name="ib").add("inertial", pos=[0, 0, 0], mass=1, diaginertia=[1, 1, 1])

for name, el in [("g", g), ("g2", g2), ("j", j), ("fj", fj), ("s", s), ("cam", cam), ("mat", mat),
                 ("tex", tex), ("pos", pos), ("vel", vel), ("gen", gen), ("sen", sen), ("exc", exc),
                 ("key", key), ("b", b), ("inert", inert)]:
    attrs = el.get_attributes()
    record(f"{name}/keys", sorted(attrs))
    for k, v in sorted(attrs.items()):
        if hasattr(v, "full_identifier"):
            record(f"{name}/{k}", "element:" + v.full_identifier)
        else:
            record(f"{name}/{k}", v)
record("g/dclass", g.dclass)
record("g2/dclass", g2.dclass)
record("g/type", g.type)
record("g/size", g.size)
record("g2/mass_type", type(g2.mass).__name__)
record("g2/contype_type", type(g2.contype).__name__)
record("g2/size_dtype", str(g2.size.dtype))
record("j/damping", j.damping)
record("b/childclass", b.childclass)
record("arm/geom/size", arm.geom.size)
record("arm/joint/limited", arm.joint.limited)
record("main/geom/type", m.default.geom.type)
record("main/geom/rgba", m.default.geom.rgba)
record("main/joint/damping", m.default.joint.damping)
record("main/geom/size", m.default.geom.size)
record("compiler/angle", m.compiler.angle)
record("option/timestep", m.option.timestep)
m.option.timestep = 0.005
record("option/timestep2", m.option.timestep)
g2.set_attributes(mass=3, rgba=[0, 1, 0, 1])
record("g2/after_set", sorted(g2.get_attributes()))
record("g2/rgba", g2.rgba)
g2.rgba = None
record("g2/rgba_cleared", g2.rgba)
record("g2/after_clear", sorted(g2.get_attributes()))
check("bad_attr", lambda: g2.set_attributes(mass=1, nope=2))
check("bad_value", lambda: setattr(g2, "mass", "heavy"))
check("too_long", lambda: setattr(g2, "size", [1, 2, 3, 4]))
check("bad_keyword", lambda: setattr(g2, "type", "blob"))
check("bad_add_attr", lambda: b.add("geom", sizee=[1]))
check("bad_child", lambda: b.add("wheel"))
check("ref_wrong_kind", lambda: m.actuator.add("motor", joint=g))
physics = mjcf.Physics.from_mjcf_model(m)
record("geom_size", physics.named.model.geom_size["g"])
record("geom_type", physics.named.model.geom_type["g"])
record("jnt_range", physics.named.model.jnt_range["j"])
record("dof_damping", physics.named.model.dof_damping["j"])
record("gear", physics.named.model.actuator_gainprm["p"][:3])
"""

# A parsed model, attached: what its text sets reads back as written, what its classes
# give reads None, and references read as elements (PyMJCF resolves them).
PARSED = """
from dm_control import mjcf
XML = '''<mujoco model="p"><default><geom rgba="1 0 0 1"/><default class="arm"><geom type="capsule" size="0.1"/></default></default>
<worldbody><body name="b" pos="0 0 1"><joint name="j" axis="0 1 0"/><geom name="g" class="arm" fromto="0 0 0 0 0 1"/></body></worldbody>
<actuator><motor name="m" joint="j" gear="2"/></actuator></mujoco>'''
p = mjcf.from_xml_string(XML)
arena = mjcf.RootElement(model="arena")
arena.attach(p)
g = p.find("geom", "g")
record("g_attrs", sorted(g.get_attributes()))
record("g_size", g.size)
record("g_type", g.type)
record("arm_type", p.find("default", "arm").geom.type)
record("arm_size", p.find("default", "arm").geom.size)
record("main_rgba", p.default.geom.rgba)
record("motor_gear", p.find("actuator", "m").gear)
record("motor_joint", p.find("actuator", "m").joint.full_identifier)
record("body_pos", p.find("body", "b").pos)
record("body_quat", p.find("body", "b").quat)
"""

# 40 generated models (seeded, the same on both sides): bodies, geoms with and without
# classes, joints, sites, actuators by handle or name, nested default classes and
# childclass; every element's attributes, every class's geom defaults and the
# compiled arrays.
GENERATED = """
import random
import numpy as np
from dm_control import mjcf

GEOM_TYPES = ["sphere", "capsule", "box", "cylinder", "ellipsoid"]


def numbers(rng, count):
    return [round(rng.uniform(0.05, 0.5), 3) for _ in range(count)]


def geom_attributes(rng):
    values = {}
    if rng.random() < 0.5:
        values["type"] = rng.choice(GEOM_TYPES)
    if rng.random() < 0.7:
        values["size"] = numbers(rng, rng.choice([1, 2, 3]))
    if rng.random() < 0.3:
        values["rgba"] = numbers(rng, 3) + [1]
    if rng.random() < 0.3:
        values["mass"] = rng.uniform(0.1, 2)
    if rng.random() < 0.3:
        values["friction"] = numbers(rng, rng.choice([1, 2, 3]))
    if rng.random() < 0.2:
        values["contype"] = rng.randrange(3)
    if rng.random() < 0.3:
        values["pos"] = numbers(rng, 3)
    if rng.random() < 0.2:
        values["euler"] = [rng.randrange(90), 0, 0]
    return values


def joint_attributes(rng):
    values = {"axis": rng.choice([[1, 0, 0], [0, 1, 0], "0 0 1"])}
    if rng.random() < 0.4:
        values["range"] = [-rng.uniform(0.1, 1), rng.uniform(0.1, 1)]
    if rng.random() < 0.3:
        values["damping"] = rng.uniform(0, 2)
    if rng.random() < 0.3:
        values["limited"] = rng.choice(["true", "false", True])
    if rng.random() < 0.2:
        values["armature"] = rng.uniform(0, 0.1)
    return values


for seed in range(40):
    rng = random.Random(seed)
    model = mjcf.RootElement(model=f"m{seed}")
    classes = [None]
    # (Defaults set before the classes made from them: docs/mjcf.md.)
    if rng.random() < 0.5:
        model.default.geom.set_attributes(**{k: v for k, v in geom_attributes(rng).items() if k not in ("pos", "euler")})
    for index in range(rng.randrange(3)):
        parent = model.default if rng.random() < 0.7 or len(classes) == 1 else model.find("default", classes[-1])
        cls = parent.add("default", dclass=f"c{index}")
        cls.geom.set_attributes(**{k: v for k, v in geom_attributes(rng).items() if k not in ("pos", "euler")})
        if rng.random() < 0.5:
            cls.joint.set_attributes(**{k: v for k, v in joint_attributes(rng).items()})
        classes.append(f"c{index}")
    bodies = [model.worldbody]
    joints = []
    for index in range(rng.randrange(2, 7)):
        parent = rng.choice(bodies)
        extra = {}
        if rng.random() < 0.3:
            extra["childclass"] = rng.choice(classes[1:] or [None])
        body = parent.add("body", name=f"b{index}", pos=numbers(rng, 3), **{k: v for k, v in extra.items() if v})
        bodies.append(body)
        for geom_index in range(rng.randrange(1, 3)):
            values = geom_attributes(rng)
            values.setdefault("size", [0.1, 0.1, 0.1])
            if rng.random() < 0.3:
                values["dclass"] = rng.choice(classes[1:] or ["__none__"])
                if values["dclass"] == "__none__":
                    del values["dclass"]
            body.add("geom", name=f"g{index}_{geom_index}", **values)
        if rng.random() < 0.7:
            joints.append(body.add("joint", name=f"j{index}", **joint_attributes(rng)))
        if rng.random() < 0.3:
            body.add("site", name=f"s{index}", size=numbers(rng, 1))
    for index, joint in enumerate(joints):
        kind = rng.choice(["motor", "position", "velocity"])
        values = {"joint": joint if rng.random() < 0.5 else joint.name}
        if rng.random() < 0.5:
            values["ctrlrange"] = [-1, 1]
        if kind == "motor" and rng.random() < 0.5:
            values["gear"] = [rng.uniform(1, 50)]
        if kind == "position" and rng.random() < 0.5:
            values["kp"] = rng.uniform(1, 20)
        model.actuator.add(kind, name=f"a{index}", **values)
    for namespace in ("body", "geom", "joint", "site", "actuator"):
        for element in model.find_all(namespace):
            attributes = element.get_attributes()
            shown = {}
            for key, value in attributes.items():
                shown[key] = value.full_identifier if hasattr(value, "full_identifier") else value
            record(f"{seed}/{namespace}/{element.full_identifier}", sorted(shown.items()))
    for index, cls in enumerate(classes[1:]):
        default = model.find("default", cls)
        record(f"{seed}/default/{cls}/geom", {k: getattr(default.geom, k) for k in ("type", "size", "rgba", "mass", "friction", "contype")})
    def compiled(model=model):
        physics = mjcf.Physics.from_mjcf_model(model)
        m = physics.model
        return {
            "sizes": [m.nbody, m.ngeom, m.njnt, m.nu],
            "geom_size": m.geom_size.round(9).tolist(),
            "geom_rgba": m.geom_rgba.round(6).tolist(),
            "body_mass": m.body_mass.round(9).tolist(),
            "jnt_range": m.jnt_range.round(9).tolist(),
            "dof_damping": m.dof_damping.round(9).tolist(),
            "actuator_gainprm": m.actuator_gainprm[:, :3].round(9).tolist(),
        }

    check(f"{seed}/compiled", compiled)
"""


@pytest.mark.dm_control_api(
    "mjcf.RootElement",
    "mjcf.Element.get_attributes",
    "mjcf.Element.set_attributes",
    "mjcf.Element.add",
    "mjcf.from_xml_string",
    "mjcf.get_frame_freejoint",
    "mjcf.get_attachment_frame",
)
def test_attributes_read_back_as_written(differential):
    differential.assert_same(BASICS, "mjcf_attributes_basics", rtol=1e-12, atol=1e-12)


@pytest.mark.dm_control_api(
    "mjcf.Element.get_attributes",
    "mjcf.Element.set_attributes",
    "mjcf.Element.add",
    "mjcf.Physics.from_mjcf_model",
    "mjcf.Physics.named",
)
def test_every_element_kind_and_its_errors(differential):
    # MjSpec keeps colours and material values in float32: they read back rounded.
    differential.assert_same(ELEMENTS, "mjcf_attributes_elements", rtol=1e-7, atol=1e-12)


@pytest.mark.dm_control_api("mjcf.from_xml_string", "mjcf.Element.get_attributes")
def test_a_parsed_model_reads_back_its_text(differential):
    differential.assert_same(PARSED, "mjcf_attributes_parsed", rtol=1e-12, atol=1e-12)


@pytest.mark.dm_control_api(
    "mjcf.Element.get_attributes",
    "mjcf.Element.add",
    "mjcf.Element.find_all",
    "mjcf.Physics.from_mjcf_model",
)
def test_generated_models_read_back_as_in_dm_control(differential):
    # Colours are float32 in MjSpec (rounded to 6 digits in the compiled arrays here).
    differential.assert_same(GENERATED, "mjcf_attributes_generated", rtol=1e-7, atol=1e-9)
