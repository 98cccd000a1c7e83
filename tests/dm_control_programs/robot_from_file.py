"""A robot loaded from an MJCF file and attached to an arena with a free joint.

A dm_control program; the test runs this same file with only its imports pointed
at `composer_tasks`. The rover (assets/rover.xml: default classes, child classes,
Euler angles, motors, joint and frame sensors) is read with `mjcf.from_path`,
wrapped as an entity, attached at a site of the arena, and given a free joint
on its attachment frame. The dock site moves by a model edit every episode.
"""

import os

import numpy as np
from dm_control import composer, mjcf
from dm_control.composer.observation import observable

ROVER_XML = os.path.join(os.path.dirname(os.path.abspath(__file__)), "assets", "rover.xml")
CONTROL_TIMESTEP = 0.04
PHYSICS_TIMESTEP = 0.004


class Arena(composer.Arena):
    def _build(self, name="arena"):
        super()._build(name=name)
        self.mjcf_model.worldbody.add("geom", name="ground", type="plane", size=[3, 3, 0.1])
        self._dock = self.mjcf_model.worldbody.add(
            "site", name="dock", pos=[0.2, -0.1, 0.0], euler=[0, 0, 0.3]
        )

    @property
    def dock(self):
        return self._dock


class Drive(composer.Task):
    def __init__(self):
        self._arena = Arena()
        model = mjcf.from_path(ROVER_XML)
        self._rover = composer.ModelWrapperEntity(model)
        frame = self._arena.attach(self._rover, attach_site=self._arena.dock)
        frame.add("freejoint")
        self._chassis = model.find("body", "chassis")
        wheels = [model.find("joint", "left"), model.find("joint", "right")]
        sensors = model.find_all("sensor")
        chassis = self._chassis
        self._task_observables = {
            "wheel_speeds": observable.MujocoFeature("qvel", ["rover/left", "rover/right"]),
            "wheel_angles": observable.MJCFFeature("qpos", wheels),
            "sensors": observable.MJCFFeature("sensordata", sensors),
            "chassis_height": observable.MJCFFeature("xpos", chassis)[2],
            "chassis_xy": observable.Generic(
                lambda physics: np.array(physics.named.data.xpos["rover/chassis", ["x", "y"]])
            ),
        }
        for item in self._task_observables.values():
            item.enabled = True
        self.set_timesteps(control_timestep=CONTROL_TIMESTEP, physics_timestep=PHYSICS_TIMESTEP)

    @property
    def root_entity(self):
        return self._arena

    @property
    def task_observables(self):
        return self._task_observables

    def initialize_episode_mjcf(self, random_state):
        self._arena.dock.pos = [random_state.uniform(-0.3, 0.3), random_state.uniform(-0.3, 0.3), 0]

    def initialize_episode(self, physics, random_state):
        physics.named.model.geom_rgba["rover/chassis"] = [random_state.uniform(), 0.5, 0.5, 1.0]
        speed = random_state.uniform(-2, 2)
        physics.bind(self._rover.mjcf_model.find("joint", "left")).qvel = speed

    def get_reward(self, physics):
        forward = physics.bind(self._chassis).xmat[[0, 3]]
        velocity = physics.named.data.sensordata[["rover/left_speed", "rover/right_speed"]]
        return float(np.mean(velocity) * 0.06 * forward[0])


def make_environment(seed):
    """(environment, root model) of the program."""
    task = Drive()
    environment = composer.Environment(task, random_state=seed, strip_singleton_obs_buffer_dim=True)
    return environment, task.root_entity.mjcf_model
