"""The floor of the PyMJCF creature build: the same model made with MjSpec calls alone.

`mjcf_build_program.build_creature` run through `composer_tasks.mjcf` ends in
these MuJoCo calls (one `MjSpec` per model, `add_*` and field writes, an
attachment body and frame per attached model, `MjSpec.attach`, compile, the
first forward), in the forms the layer uses (default classes and `attach`'s
arguments by position, which the bindings take faster than keywords); this
file makes them directly, with no PyMJCF layer, so that
the time (or instruction count) of `build_creature` here is what MuJoCo's own
calls cost, and the difference to the PyMJCF build is what the layer adds.

    PYTHONPATH=. python benchmarks/reference_envs/mjcf_build_floor.py [REPEATS]

prints the least CPU time of one build here and through `composer_tasks.mjcf`.
"""

import os
import sys
import time

import mujoco
import numpy as np

from composer_tasks import physics as physics_module

NUM_LEGS = 20


def _leg(index: int) -> mujoco.MjSpec:
    spec = mujoco.MjSpec()
    spec.modelname = f"leg{index}"
    joint, geom = spec.default.joint, spec.default.geom
    joint.type = mujoco.mjtJoint.mjJNT_HINGE
    joint.damping = np.array([1.0, 0.0, 0.0])
    joint.limited = mujoco.mjtLimited.mjLIMITED_TRUE
    joint.range = np.array([-1.0, 1.0])
    geom.type = mujoco.mjtGeom.mjGEOM_CAPSULE
    geom.rgba = np.array([0.5, 0.4, 0.3, 1.0])
    thigh = spec.worldbody.add_body()
    thigh.name = "thigh"
    hip = thigh.add_joint()
    hip.name, hip.axis = "hip", np.array([0.0, 0.0, 1.0])
    thigh_geom = thigh.add_geom()
    thigh_geom.name = "thigh"
    thigh_geom.fromto = np.array([0.0, 0.0, 0.0, 0.2, 0.0, 0.0])
    thigh_geom.size = np.array([0.03, 0.0, 0.0])
    shin = thigh.add_body()
    shin.name, shin.pos = "shin", np.array([0.2, 0.0, 0.0])
    knee = shin.add_joint()
    knee.name, knee.axis = "knee", np.array([0.0, 1.0, 0.0])
    shin_geom = shin.add_geom()
    shin_geom.name = "shin"
    shin_geom.fromto = np.array([0.0, 0.0, 0.0, 0.0, 0.0, -0.2])
    shin_geom.size = np.array([0.025, 0.0, 0.0])
    foot = shin.add_site()
    foot.name, foot.pos, foot.size = "foot", np.array([0.0, 0.0, -0.2]), np.array([0.03, 0, 0])
    for name in ("hip", "knee"):
        actuator = spec.add_actuator(spec.default)
        actuator.name, actuator.target = name, name
        actuator.trntype = mujoco.mjtTrn.mjTRN_JOINT
        actuator.gaintype = mujoco.mjtGain.mjGAIN_FIXED
        actuator.biastype = mujoco.mjtBias.mjBIAS_AFFINE
        actuator.gainprm = np.array([10.0] + [0.0] * 9)
        actuator.biasprm = np.array([0.0, -10.0] + [0.0] * 8)
        actuator.ctrlrange = np.array([-1.0, 1.0])
    for sensor_type, name, target, target_type in (
        (mujoco.mjtSensor.mjSENS_TOUCH, "foot_touch", "foot", mujoco.mjtObj.mjOBJ_SITE),
        (mujoco.mjtSensor.mjSENS_JOINTPOS, "hip_angle", "hip", mujoco.mjtObj.mjOBJ_JOINT),
        (mujoco.mjtSensor.mjSENS_JOINTVEL, "knee_speed", "knee", mujoco.mjtObj.mjOBJ_JOINT),
    ):
        sensor = spec.add_sensor()
        sensor.type, sensor.name = sensor_type, name
        sensor.objname, sensor.objtype = target, target_type
    return spec


def build_creature() -> physics_module.Physics:
    """The 20-legged creature on an arena, compiled (nq 47, nu 40, 62 sensors)."""
    arena = mujoco.MjSpec()
    arena.modelname = "arena"
    arena.compiler.degree = False
    arena.option.cone = mujoco.mjtCone.mjCONE_ELLIPTIC
    floor = arena.worldbody.add_geom()
    floor.name, floor.type = "floor", mujoco.mjtGeom.mjGEOM_PLANE
    floor.size = np.array([10.0, 10.0, 0.1])
    light = arena.worldbody.add_light()
    light.name, light.pos, light.dir = "light", np.array([0.0, 0, 5]), np.array([0.0, 0, -1])
    creature = mujoco.MjSpec()
    creature.modelname = "creature"
    torso = creature.worldbody.add_body()
    torso.name = "torso"
    torso_geom = torso.add_geom()
    torso_geom.name, torso_geom.type = "torso", mujoco.mjtGeom.mjGEOM_SPHERE
    torso_geom.size = np.array([0.3, 0.0, 0.0])
    imu = torso.add_site()
    imu.name = "imu"
    for sensor_type, name in (
        (mujoco.mjtSensor.mjSENS_ACCELEROMETER, "accelerometer"),
        (mujoco.mjtSensor.mjSENS_GYRO, "gyro"),
    ):
        sensor = creature.add_sensor()
        sensor.type, sensor.name = sensor_type, name
        sensor.objname, sensor.objtype = "imu", mujoco.mjtObj.mjOBJ_SITE
    for index in range(NUM_LEGS):
        theta = 2 * np.pi * index / NUM_LEGS
        site = torso.add_site()
        site.name = f"hip{index}"
        site.pos = np.array([0.3 * np.cos(theta), 0.3 * np.sin(theta), 0.0])
        site.alt.type = mujoco.mjtOrientation.mjORIENTATION_EULER
        site.alt.euler = np.array([0.0, 0.0, theta])
        body = torso.add_body()
        body.name, body.pos = f"leg{index}/", site.pos
        body.alt.type = site.alt.type
        body.alt.euler = site.alt.euler
        creature.attach(_leg(index), f"leg{index}/", None, None, body.add_frame())
    body = arena.worldbody.add_body()
    body.name = "creature/"
    body.add_freejoint()
    arena.attach(creature, "creature/", None, None, body.add_frame())
    return physics_module.Physics.from_spec(arena)


def _least_cpu_seconds(function, repeats: int) -> float:
    function()
    times = []
    for _ in range(repeats):
        start = time.process_time()
        function()
        times.append(time.process_time() - start)
    return min(times)


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import mjcf_build_worker

    program = mjcf_build_worker.load_program("composer_tasks")
    floor, ours = build_creature().model, program.build_creature().model
    if (floor.nq, floor.nu, floor.nsensor) != (ours.nq, ours.nu, ours.nsensor):
        raise RuntimeError("the MjSpec-only creature differs from the PyMJCF one")
    print(f"MjSpec calls alone:   {_least_cpu_seconds(build_creature, repeats) * 1e3:.1f} ms")
    print(
        f"composer_tasks.mjcf:  {_least_cpu_seconds(program.build_creature, repeats) * 1e3:.1f} ms"
    )


if __name__ == "__main__":
    main()
