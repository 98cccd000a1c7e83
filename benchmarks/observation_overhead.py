"""Observation overhead: 20 enabled MJCFFeature observables against numpy by hand.

Per control step the Environment asks the observation Updater which substeps need
evaluating (`prepare_for_next_control_step`), updates after them and reads the
observation. With update_interval 1, buffer_size 1 and delay 0 that is one update
after the last substep. This script times that cycle for 20 MJCFFeature
observables (joint positions and velocities, body positions and orientations, a
sensor, the controls) against the same 20 arrays computed by hand with numpy:
copies of slices of `data.qpos`, `data.xpos`, ... at addresses resolved once. Both
run in the same process, alternating, the best of several runs each; the physics
is stepped between control steps but not timed. An end-to-end line compares
`Environment.step` with the bare `mj_step` plus the numpy dict.

    python benchmarks/observation_overhead.py [--steps 20000] [--repeats 7] \
        [--csv benchmarks/results/observation_overhead.csv]
"""

import time

from absl import app
from absl import flags
import mujoco
import numpy as np

from composer_tasks import composer
from composer_tasks.composer.observation import observable
from composer_tasks.composer.observation import updater as updater_module

import _timing  # benchmarks/_timing.py, beside this script

_STEPS = flags.DEFINE_integer("steps", 20000, "Control steps per timed run.")
_REPEATS = flags.DEFINE_integer("repeats", 7, "Timed runs of each loop; the best is kept.")
_SUBSTEPS = flags.DEFINE_integer("substeps", 5, "Physics steps per control step.")
_CSV = flags.DEFINE_string(
    "csv", "benchmarks/results/observation_overhead.csv", "Where to write the table."
)

_ARM_LINKS = 8


class _Robot(composer.Entity):
    """A free-floating torso carrying an 8-link hinged arm, with motors and an IMU."""

    def _build(self):
        spec = mujoco.MjSpec()
        spec.modelname = "robot"
        spec.option.timestep = 0.002
        spec.worldbody.add_geom(type=mujoco.mjtGeom.mjGEOM_PLANE, size=[5, 5, 0.1])
        self.torso = spec.worldbody.add_body(name="torso", pos=[0, 0, 1])
        self.root = self.torso.add_freejoint(name="root")
        self.torso.add_geom(type=mujoco.mjtGeom.mjGEOM_BOX, size=[0.2, 0.1, 0.05])
        self.torso.add_site(name="imu")
        self.hinges, self.links = [], []
        parent = self.torso
        for index in range(_ARM_LINKS):
            link = parent.add_body(name=f"link{index}", pos=[0.2 if index == 0 else 0.15, 0, 0])
            self.hinges.append(link.add_joint(name=f"hinge{index}", axis=[0, 1, 0], damping=0.1))
            link.add_geom(
                type=mujoco.mjtGeom.mjGEOM_CAPSULE, fromto=[0, 0, 0, 0.15, 0, 0], size=[0.02, 0, 0]
            )
            self.links.append(link)
            parent = link
        self.motors = [
            spec.add_actuator(
                name=f"motor{index}",
                target=f"hinge{index}",
                trntype=mujoco.mjtTrn.mjTRN_JOINT,
                ctrlrange=[-1, 1],
            )
            for index in range(_ARM_LINKS)
        ]
        self.imu = spec.add_sensor(
            name="accelerometer",
            type=mujoco.mjtSensor.mjSENS_ACCELEROMETER,
            objtype=mujoco.mjtObj.mjOBJ_SITE,
            objname="imu",
        )
        self._spec = spec


def _observables(robot):
    """20 observables, name -> MJCFFeature, all enabled."""
    features = {}
    for index, hinge in enumerate(robot.hinges):
        features[f"hinge{index}_angle"] = observable.MJCFFeature("qpos", hinge)
    for index, hinge in enumerate(robot.hinges[:4]):
        features[f"hinge{index}_velocity"] = observable.MJCFFeature("qvel", hinge)
    features["root_qpos"] = observable.MJCFFeature("qpos", robot.root)
    features["root_qvel"] = observable.MJCFFeature("qvel", robot.root)
    for index in (0, 3, 7):
        features[f"link{index}_position"] = observable.MJCFFeature("xpos", robot.links[index])
    features["torso_orientation"] = observable.MJCFFeature("xquat", robot.torso)
    features["accelerometer"] = observable.MJCFFeature("sensordata", robot.imu)
    features["controls"] = observable.MJCFFeature("ctrl", robot.motors)
    for feature in features.values():
        feature.enabled = True
    return features


def _addresses(robot, physics):
    """Indices of the 20 quantities in MjData, resolved once as a user would."""
    model = physics.model
    return dict(
        q=[int(model.jnt_qposadr[physics.bind(hinge).id]) for hinge in robot.hinges],
        v=[int(model.jnt_dofadr[physics.bind(hinge).id]) for hinge in robot.hinges],
        root_q=int(model.jnt_qposadr[physics.bind(robot.root).id]),
        root_v=int(model.jnt_dofadr[physics.bind(robot.root).id]),
        link=[physics.bind(robot.links[index]).id for index in (0, 3, 7)],
        torso=physics.bind(robot.torso).id,
        imu=int(model.sensor_adr[physics.bind(robot.imu).id]),
        motor=physics.bind(robot.motors[0]).id,
    )


def _numpy_by_hand(robot, physics):
    """The same 20 arrays as a plain function: slices copied out of MjData."""
    data = physics.data
    a = _addresses(robot, physics)
    q, v, link = a["q"], a["v"], a["link"]
    root_q, root_v, torso, imu, motor = a["root_q"], a["root_v"], a["torso"], a["imu"], a["motor"]

    def observe():
        return {
            "hinge0_angle": data.qpos[q[0] : q[0] + 1].copy(),
            "hinge1_angle": data.qpos[q[1] : q[1] + 1].copy(),
            "hinge2_angle": data.qpos[q[2] : q[2] + 1].copy(),
            "hinge3_angle": data.qpos[q[3] : q[3] + 1].copy(),
            "hinge4_angle": data.qpos[q[4] : q[4] + 1].copy(),
            "hinge5_angle": data.qpos[q[5] : q[5] + 1].copy(),
            "hinge6_angle": data.qpos[q[6] : q[6] + 1].copy(),
            "hinge7_angle": data.qpos[q[7] : q[7] + 1].copy(),
            "hinge0_velocity": data.qvel[v[0] : v[0] + 1].copy(),
            "hinge1_velocity": data.qvel[v[1] : v[1] + 1].copy(),
            "hinge2_velocity": data.qvel[v[2] : v[2] + 1].copy(),
            "hinge3_velocity": data.qvel[v[3] : v[3] + 1].copy(),
            "root_qpos": data.qpos[root_q : root_q + 7].copy(),
            "root_qvel": data.qvel[root_v : root_v + 6].copy(),
            "link0_position": data.xpos[link[0]].copy(),
            "link3_position": data.xpos[link[1]].copy(),
            "link7_position": data.xpos[link[2]].copy(),
            "torso_orientation": data.xquat[torso].copy(),
            "accelerometer": data.sensordata[imu : imu + 3].copy(),
            "controls": data.ctrl[motor : motor + _ARM_LINKS].copy(),
        }

    return observe


def _numpy_views(robot, physics):
    """The floor: the same arrays as copies of views into MjData taken once."""
    data = physics.data
    a = _addresses(robot, physics)
    views = {}
    for index in range(_ARM_LINKS):
        views[f"hinge{index}_angle"] = data.qpos[a["q"][index] : a["q"][index] + 1]
    for index in range(4):
        views[f"hinge{index}_velocity"] = data.qvel[a["v"][index] : a["v"][index] + 1]
    views["root_qpos"] = data.qpos[a["root_q"] : a["root_q"] + 7]
    views["root_qvel"] = data.qvel[a["root_v"] : a["root_v"] + 6]
    for name, body in zip(("link0_position", "link3_position", "link7_position"), a["link"]):
        views[name] = data.xpos[body]
    views["torso_orientation"] = data.xquat[a["torso"]]
    views["accelerometer"] = data.sensordata[a["imu"] : a["imu"] + 3]
    views["controls"] = data.ctrl[a["motor"] : a["motor"] + _ARM_LINKS]
    copies = [(name, view.copy) for name, view in views.items()]

    def observe_views():
        return {name: copy() for name, copy in copies}

    return observe_views


def _time_updater(updater, physics, steps, substeps):
    elapsed = 0.0
    clock = time.perf_counter
    for _ in range(steps):
        physics.step(substeps)
        start = clock()
        for substep in updater.prepare_for_next_control_step():
            updater.update(substep)
        updater.get_observation()
        elapsed += clock() - start
    return elapsed


def _time_numpy(observe, physics, steps, substeps):
    elapsed = 0.0
    clock = time.perf_counter
    for _ in range(steps):
        physics.step(substeps)
        start = clock()
        observe()
        elapsed += clock() - start
    return elapsed


def _time_clock_only(physics, steps, substeps):
    """The cost of the two clock reads themselves, subtracted from both loops."""
    elapsed = 0.0
    clock = time.perf_counter
    for _ in range(steps):
        physics.step(substeps)
        start = clock()
        elapsed += clock() - start
    return elapsed


class _Task(composer.Task):
    def __init__(self, robot, substeps):
        self._robot = robot
        self.set_timesteps(substeps * robot.spec.option.timestep, robot.spec.option.timestep)

    @property
    def root_entity(self):
        return self._robot

    def get_reward(self, physics):
        return 0.0


def _time_env(env, actions):
    env.reset()
    start = time.perf_counter()
    for action in actions:
        env.step(action)
    return time.perf_counter() - start


def _time_bare(physics, observe, actions, substeps):
    model, data = physics.model, physics.data
    start = time.perf_counter()
    for action in actions:
        data.ctrl[:] = action
        mujoco.mj_step(model, data, substeps)
        observe()
    return time.perf_counter() - start


def main(argv):
    del argv
    steps, substeps = _STEPS.value, _SUBSTEPS.value
    robot = _Robot()
    features = _observables(robot)
    env = composer.Environment(
        _Task(robot, substeps), random_state=0, strip_singleton_obs_buffer_dim=True
    )
    for name, feature in features.items():
        robot.observables.add_observable(name, feature)
    env.reset()
    physics = env.physics
    observe = _numpy_by_hand(robot, physics)
    observe_views = _numpy_views(robot, physics)
    enabled = [(name, feature) for name, feature in features.items()]
    stripped = updater_module.Updater(enabled, substeps, strip_singleton_buffer_dim=True)
    stripped.reset(physics, env.random_state)
    leading = updater_module.Updater(enabled, substeps, strip_singleton_buffer_dim=False)
    leading.reset(physics, env.random_state)
    physics.step(substeps)
    for updater in (stripped, leading):
        for substep in updater.prepare_for_next_control_step():
            updater.update(substep)
    ours, by_hand, by_views = stripped.get_observation(), observe(), observe_views()
    assert list(ours) == list(by_hand) == list(by_views)
    for name in ours:
        np.testing.assert_array_equal(ours[name], by_hand[name], err_msg=name)
        np.testing.assert_array_equal(by_views[name], by_hand[name], err_msg=name)
        np.testing.assert_array_equal(
            leading.get_observation()[name][0], by_hand[name], err_msg=name
        )

    times = {
        "updater_strip": [],
        "updater_leading_axis": [],
        "numpy_by_hand": [],
        "numpy_views": [],
        "clock": [],
    }
    for _ in range(_REPEATS.value):
        times["updater_strip"].append(_time_updater(stripped, physics, steps, substeps))
        times["numpy_by_hand"].append(_time_numpy(observe, physics, steps, substeps))
        times["numpy_views"].append(_time_numpy(observe_views, physics, steps, substeps))
        times["updater_leading_axis"].append(_time_updater(leading, physics, steps, substeps))
        times["clock"].append(_time_clock_only(physics, steps, substeps))
    clock = min(times["clock"])
    per_step_us = {
        name: (min(values) - clock) / steps * 1e6
        for name, values in times.items()
        if name != "clock"
    }

    actions = np.random.RandomState(0).uniform(-1, 1, size=(steps // 4, _ARM_LINKS))
    env_times, bare_times = [], []
    bare_physics = physics.copy()
    for _ in range(_REPEATS.value):
        env_times.append(_time_env(env, actions))
        bare_physics.reset()
        bare_times.append(_time_bare(bare_physics, observe, actions, substeps))
    env_us = min(env_times) / len(actions) * 1e6
    bare_us = min(bare_times) / len(actions) * 1e6

    numpy_us = per_step_us["numpy_by_hand"]
    views_us = per_step_us["numpy_views"]
    rows = [
        ("numpy_by_hand_us_per_step", f"{numpy_us:.2f}"),
        ("numpy_views_us_per_step", f"{views_us:.2f}"),
        ("updater_strip_us_per_step", f"{per_step_us['updater_strip']:.2f}"),
        ("updater_leading_axis_us_per_step", f"{per_step_us['updater_leading_axis']:.2f}"),
        ("ratio_updater_strip_over_numpy", f"{per_step_us['updater_strip'] / numpy_us:.3f}"),
        (
            "ratio_updater_leading_axis_over_numpy",
            f"{per_step_us['updater_leading_axis'] / numpy_us:.3f}",
        ),
        ("ratio_updater_strip_over_numpy_views", f"{per_step_us['updater_strip'] / views_us:.3f}"),
        ("environment_step_us", f"{env_us:.2f}"),
        ("bare_mj_step_plus_numpy_us", f"{bare_us:.2f}"),
        ("ratio_environment_over_bare", f"{env_us / bare_us:.3f}"),
    ]
    print(
        f"20 MJCFFeature observables, {substeps} substeps per control step, "
        f"{steps} control steps per run, best of {_REPEATS.value}"
    )
    print(f"{'measure':<40}{'value':>12}")
    for name, value in rows:
        print(f"{name:<40}{value:>12}")
    _timing.write_measures(_CSV.value, rows)


if __name__ == "__main__":
    app.run(main)
