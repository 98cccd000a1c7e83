"""A multi-legged creature and a button, written as dm_control's Composer tutorial does.

A dm_control program: it imports dm_control's `composer` and `mjcf`. The test runs
this same file with only those imports pointed at `composer_tasks`. The creature
is assembled from leg models attached at sites of its torso; the task moves the
button by editing the model in `initialize_episode_mjcf`, so every episode
recompiles.
"""

import numpy as np
from dm_control import composer, mjcf
from dm_control.composer.observation import observable

NUM_LEGS = 4
BODY_RADIUS = 0.1
BODY_SIZE = (BODY_RADIUS, BODY_RADIUS, BODY_RADIUS / 2)
CONTROL_TIMESTEP = 0.04
PHYSICS_TIMESTEP = 0.005


class Leg:
    """A two-segment leg: a thigh turning about z at the hip, a shin about y at the knee."""

    def __init__(self, name, length, rgba):
        self.model = mjcf.RootElement(model=name)
        self.model.default.joint.damping = 2
        self.model.default.joint.type = "hinge"
        self.model.default.geom.type = "capsule"
        self.model.default.geom.rgba = rgba
        self.thigh = self.model.worldbody.add("body", name="thigh")
        self.hip = self.thigh.add("joint", name="hip", axis=[0, 0, 1])
        self.thigh.add("geom", name="thigh", fromto=[0, 0, 0, length, 0, 0], size=[length / 4])
        self.shin = self.thigh.add("body", name="shin", pos=[length, 0, 0])
        self.knee = self.shin.add("joint", name="knee", axis=[0, 1, 0])
        self.shin.add("geom", name="shin", fromto=[0, 0, 0, 0, 0, -length], size=[length / 5])
        self.model.actuator.add("position", name="hip", joint=self.hip, kp=10, ctrlrange=[-1, 1])
        self.model.actuator.add("position", name="knee", joint=self.knee, kp=10, ctrlrange=[-1, 1])


class CreatureObservables(composer.Observables):
    @composer.observable
    def joint_positions(self):
        return observable.MJCFFeature("qpos", self._entity.joints)

    @composer.observable
    def joint_velocities(self):
        return observable.MJCFFeature("qvel", self._entity.joints)

    @composer.observable
    def velocimeter(self):
        return observable.MJCFFeature("sensordata", self._entity.velocimeter)


class Creature(composer.Entity):
    """A torso with `num_legs` legs spread evenly around it."""

    def _build(self, num_legs=NUM_LEGS, name="creature"):
        self._model = mjcf.RootElement(model=name)
        rgba = [0.7, 0.5, 0.3, 1.0]
        self._torso = self._model.worldbody.add(
            "geom", name="torso", type="ellipsoid", size=BODY_SIZE, rgba=rgba
        )
        imu = self._model.worldbody.add("site", name="imu", size=[0.01])
        self._velocimeter = self._model.sensor.add("velocimeter", name="velocimeter", site=imu)
        self._legs = []
        for index in range(num_legs):
            theta = 2 * index * np.pi / num_legs
            hip_position = BODY_RADIUS * np.array([np.cos(theta), np.sin(theta), 0])
            hip_site = self._model.worldbody.add(
                "site", name=f"hip_site{index}", pos=hip_position, euler=[0, 0, theta]
            )
            leg = Leg(name=f"leg{index}", length=BODY_RADIUS, rgba=rgba)
            hip_site.attach(leg.model)
            self._legs.append(leg)

    def _build_observables(self):
        return CreatureObservables(self)

    @property
    def mjcf_model(self):
        return self._model

    @property
    def torso(self):
        return self._torso

    @property
    def velocimeter(self):
        return self._velocimeter

    @property
    def joints(self):
        return tuple(self._model.find_all("joint"))


class Button(composer.Entity):
    """A flat cylinder whose touch sensor counts substeps pressed within a force range."""

    def _build(self, target_force_range=(5, 10)):
        self._min_force, self._max_force = target_force_range
        self._model = mjcf.RootElement(model="button")
        self._geom = self._model.worldbody.add(
            "geom", name="geom", type="cylinder", size=[0.25, 0.02], rgba=[1, 0, 0, 1]
        )
        self._site = self._model.worldbody.add(
            "site", name="site", type="cylinder", size=self._geom.size * 1.01, rgba=[1, 0, 0, 0]
        )
        self._sensor = self._model.sensor.add("touch", name="touch", site=self._site)
        self._num_activated_steps = 0

    def _build_observables(self):
        return ButtonObservables(self)

    @property
    def mjcf_model(self):
        return self._model

    @property
    def geom(self):
        return self._geom

    @property
    def touch_sensor(self):
        return self._sensor

    @property
    def num_activated_steps(self):
        return self._num_activated_steps

    def initialize_episode(self, physics, random_state):
        self._num_activated_steps = 0
        physics.bind(self._geom).rgba = [1, 0, 0, 1]

    def after_substep(self, physics, random_state):
        force = physics.bind(self._sensor).sensordata[0]
        if self._min_force <= force <= self._max_force:
            self._num_activated_steps += 1
            physics.bind(self._geom).rgba = [0, 1, 0, 1]


class ButtonObservables(composer.Observables):
    @composer.observable
    def touch_force(self):
        return observable.MJCFFeature("sensordata", self._entity.touch_sensor)


class Floor(composer.Arena):
    def _build(self, name="floor"):
        super()._build(name=name)
        self._ground = self.mjcf_model.worldbody.add(
            "geom", name="ground", type="plane", size=[2, 2, 0.1], rgba=[0.2, 0.3, 0.4, 1]
        )
        self.mjcf_model.worldbody.add("light", name="light", pos=[0, 0, 4], dir=[0, 0, -1])


class PressWithSpecificForce(composer.Task):
    def __init__(self, creature):
        self._creature = creature
        self._arena = Floor()
        self._arena.add_free_entity(self._creature)
        self._button = Button()
        self._button_frame = self._arena.attach(self._button)
        self._creature.observables.enable_all()
        self._button.observables.touch_force.enabled = True
        button_geom = self._button.geom
        torso = self._creature.torso
        self._task_observables = {
            "button_position": observable.Generic(
                lambda physics: np.array(physics.bind(button_geom).xpos)
            ),
            "torso_position": observable.MJCFFeature("xpos", torso),
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
        # An edit of the model: the button moves only if the model recompiles.
        x, y = random_state.uniform(-0.6, 0.6, size=2)
        self._button_frame.pos = [x, y, 0]

    def initialize_episode(self, physics, random_state):
        yaw = random_state.uniform(0, 2 * np.pi)
        self._creature.set_pose(
            physics, position=[0, 0, 0.15], quaternion=[np.cos(yaw / 2), 0, 0, np.sin(yaw / 2)]
        )

    def get_reward(self, physics):
        button_xy = physics.bind(self._button.geom).xpos[:2]
        torso_xy = physics.bind(self._creature.torso).xpos[:2]
        distance = float(np.linalg.norm(button_xy - torso_xy))
        return float(np.exp(-distance)) + self._button.num_activated_steps / 8


def make_environment(seed):
    """(environment, root model) of the program."""
    task = PressWithSpecificForce(Creature())
    environment = composer.Environment(task, random_state=seed, strip_singleton_obs_buffer_dim=True)
    return environment, task.root_entity.mjcf_model
