"""The PyMJCF program `benchmarks/mjcf_build.py` times: build a large model and compile it.

Written against dm_control's PyMJCF; `mjcf_build_worker.py` runs it as it is in
the dm_control venv, and with its `dm_control` imports pointed at `composer_tasks`
in this project's. Two cases:

* `creature`: a torso with 20 legs, each leg a model of its own (two hinges, two
  position actuators, a touch site and sensor, two joint sensors) attached at a
  site of the torso, the creature attached to an arena with a free joint;
* `humanoid_file`: an MJCF file of the CMU humanoid's size (written by
  `write_humanoid_sized_file`) loaded with `from_path`, attached to an arena at a
  site, with a free joint.
"""

import numpy as np
from dm_control import mjcf

NUM_LEGS = 20
# The CMU humanoid of dm_control (V2020): 56 hinges and actuators, 33 bodies, 19 sensors.
HUMANOID_LIMBS = 28
HINGES_PER_LIMB = 2


def _arena():
    arena = mjcf.RootElement(model="arena")
    arena.compiler.angle = "radian"
    arena.option.cone = "elliptic"
    arena.worldbody.add("geom", name="floor", type="plane", size=[10, 10, 0.1])
    arena.worldbody.add("light", name="light", pos=[0, 0, 5], dir=[0, 0, -1])
    return arena


def _leg(index):
    leg = mjcf.RootElement(model=f"leg{index}")
    leg.default.joint.set_attributes(type="hinge", damping=1, limited=True, range=[-1, 1])
    leg.default.geom.set_attributes(type="capsule", rgba=[0.5, 0.4, 0.3, 1])
    thigh = leg.worldbody.add("body", name="thigh")
    hip = thigh.add("joint", name="hip", axis=[0, 0, 1])
    thigh.add("geom", name="thigh", fromto=[0, 0, 0, 0.2, 0, 0], size=[0.03])
    shin = thigh.add("body", name="shin", pos=[0.2, 0, 0])
    knee = shin.add("joint", name="knee", axis=[0, 1, 0])
    shin.add("geom", name="shin", fromto=[0, 0, 0, 0, 0, -0.2], size=[0.025])
    foot = shin.add("site", name="foot", pos=[0, 0, -0.2], size=[0.03])
    leg.actuator.add("position", name="hip", joint=hip, kp=10, ctrlrange=[-1, 1])
    leg.actuator.add("position", name="knee", joint=knee, kp=10, ctrlrange=[-1, 1])
    leg.sensor.add("touch", name="foot_touch", site=foot)
    leg.sensor.add("jointpos", name="hip_angle", joint=hip)
    leg.sensor.add("jointvel", name="knee_speed", joint=knee)
    return leg


def build_creature():
    """Builds the 20-legged creature on an arena and compiles it; returns the physics."""
    arena = _arena()
    creature = mjcf.RootElement(model="creature")
    torso = creature.worldbody.add("body", name="torso")
    torso.add("geom", name="torso", type="sphere", size=[0.3])
    imu = torso.add("site", name="imu")
    creature.sensor.add("accelerometer", name="accelerometer", site=imu)
    creature.sensor.add("gyro", name="gyro", site=imu)
    for index in range(NUM_LEGS):
        theta = 2 * np.pi * index / NUM_LEGS
        site = torso.add(
            "site",
            name=f"hip{index}",
            pos=[0.3 * np.cos(theta), 0.3 * np.sin(theta), 0],
            euler=[0, 0, theta],
        )
        site.attach(_leg(index))
    arena.attach(creature).add("freejoint")
    return mjcf.Physics.from_mjcf_model(arena)


def build_from_file(path):
    """Loads the MJCF file at `path`, attaches it to an arena with a free joint, compiles."""
    arena = _arena()
    spawn = arena.worldbody.add("site", name="spawn", pos=[0, 0, 1])
    model = mjcf.from_path(path)
    spawn.attach(model).add("freejoint")
    return mjcf.Physics.from_mjcf_model(arena)


def write_humanoid_sized_file(path):
    """Writes an MJCF humanoid-like tree of the CMU humanoid's size to `path`.

    28 limb bodies of 2 hinges each (56 hinges, 56 position actuators), capsule
    geoms, default classes, an IMU and 17 more sensors.
    """
    lines = [
        '<mujoco model="humanoid">',
        '  <compiler angle="radian"/>',
        "  <default>",
        (
            '    <default class="body"><joint damping="1" armature="0.01" limited="true" '
            'range="-1 1"/><geom type="capsule" rgba="0.6 0.5 0.4 1"/>'
        ),
        '      <position kp="20" ctrlrange="-1 1" ctrllimited="true"/>',
        '      <default class="foot"><geom rgba="0.3 0.3 0.3 1"/></default>',
        "    </default>",
        "  </default>",
        "  <worldbody>",
        '    <body name="root" childclass="body">',
        '      <geom name="root" type="sphere" size="0.1"/>',
        '      <site name="imu" size="0.01"/>',
    ]
    actuators, sensors = [], []
    depth = 0
    for limb in range(HUMANOID_LIMBS):
        branch_start = limb % 4 == 0
        if branch_start and depth:
            lines.extend(["      " + "  " * d + "</body>" for d in reversed(range(depth))])
            depth = 0
        angle = 2 * np.pi * (limb // 4) / (HUMANOID_LIMBS // 4)
        pos = (
            f"{0.1 * np.cos(angle):.4f} {0.1 * np.sin(angle):.4f} 0"
            if branch_start
            else "0 0 -0.15"
        )
        indent = "      " + "  " * depth
        foot = ' class="foot"' if limb % 4 == 3 else ""
        lines.append(f'{indent}<body name="limb{limb}" pos="{pos}">')
        for hinge in range(HINGES_PER_LIMB):
            axis = "1 0 0" if hinge == 0 else "0 1 0"
            name = f"limb{limb}_j{hinge}"
            lines.append(f'{indent}  <joint name="{name}" axis="{axis}"/>')
            actuators.append(f'    <position name="{name}" joint="{name}" class="body"/>')
        lines.append(
            f'{indent}  <geom name="limb{limb}"{foot} fromto="0 0 0 0 0 -0.15" size="0.04"/>'
        )
        if limb % 4 == 3:
            lines.append(f'{indent}  <site name="touch{limb}" pos="0 0 -0.15" size="0.05"/>')
            sensors.append(f'    <touch name="touch{limb}" site="touch{limb}"/>')
        depth += 1
    lines.extend(["      " + "  " * d + "</body>" for d in reversed(range(depth))])
    lines.extend(
        [
            "    </body>",
            "  </worldbody>",
            "  <actuator>",
            *actuators,
            "  </actuator>",
            "  <sensor>",
            '    <accelerometer name="accelerometer" site="imu"/>',
            '    <gyro name="gyro" site="imu"/>',
            '    <velocimeter name="velocimeter" site="imu"/>',
            *sensors,
            *[f'    <jointpos name="pos{i}" joint="limb{i}_j0"/>' for i in range(7)],
            "  </sensor>",
            "</mujoco>",
        ]
    )
    with open(path, "w") as handle:
        handle.write("\n".join(lines) + "\n")
