"""Go to a target: a four-legged walker built with PyMJCF walks towards a target on a floor.

A dm_control program in the style of dm_control's locomotion `GoToTarget` task; the
test runs this same file with only its imports pointed at `composer_tasks`. The
walker is an entity whose model is built with PyMJCF (default classes, bodies
oriented with Euler angles, motors and site sensors); the target is a site of
the arena moved by a model edit at every episode.
"""

import numpy as np
from dm_control import composer, mjcf
from dm_control.composer.observation import observable

CONTROL_TIMESTEP = 0.03
PHYSICS_TIMESTEP = 0.005
# Leg yaws around the torso (radians: dm_control's arenas read angles in radians).
LEG_YAWS = (0.25 * np.pi, 0.75 * np.pi, 1.25 * np.pi, 1.75 * np.pi)
TARGET_RADIUS = 1.5


class AntWalker(composer.Entity):
    """A sphere torso with four legs, each a hip hinge about z and an ankle about y."""

    def _build(self, name="walker"):
        model = mjcf.RootElement(model=name)
        model.default.joint.set_attributes(type="hinge", damping=1, armature=0.01, limited=True)
        model.default.geom.set_attributes(type="capsule", friction=[1.5, 0.1, 0.1], density=300)
        model.default.motor.set_attributes(ctrlrange=[-1, 1], ctrllimited=True, gear=[20])
        self._root_body = model.worldbody.add("body", name="torso")
        self._root_body.add("geom", name="torso", type="sphere", size=[0.2])
        imu = self._root_body.add("site", name="imu", size=[0.02])
        self._root_body.add(
            "camera", name="egocentric", pos=[0.25, 0, 0.1], xyaxes=[0, -1, 0, 0, 0, 1]
        )
        for index, yaw in enumerate(LEG_YAWS):
            leg = self._root_body.add("body", name=f"leg{index}", euler=[0, 0, yaw])
            hip = leg.add("joint", name=f"hip{index}", axis=[0, 0, 1], range=[-0.5, 0.5])
            leg.add("geom", name=f"thigh{index}", fromto=[0, 0, 0, 0.3, 0, 0], size=[0.06])
            foot = leg.add("body", name=f"foot{index}", pos=[0.3, 0, 0])
            ankle = foot.add("joint", name=f"ankle{index}", axis=[0, 1, 0], range=[0.3, 1.2])
            foot.add("geom", name=f"foot{index}", fromto=[0, 0, 0, 0.3, 0, -0.3], size=[0.06])
            model.actuator.add("motor", name=f"hip{index}", joint=hip)
            model.actuator.add("motor", name=f"ankle{index}", joint=ankle)
        self._velocimeter = model.sensor.add("velocimeter", name="velocimeter", site=imu)
        self._gyro = model.sensor.add("gyro", name="gyro", site=imu)
        self._model = model

    def _build_observables(self):
        return AntObservables(self)

    @property
    def mjcf_model(self):
        return self._model

    @property
    def root_body(self):
        return self._root_body

    @property
    def observable_joints(self):
        return self._model.find_all("joint")

    @property
    def sensors(self):
        return [self._velocimeter, self._gyro]


class AntObservables(composer.Observables):
    @composer.observable
    def joints_pos(self):
        return observable.MJCFFeature("qpos", self._entity.observable_joints)

    @composer.observable
    def joints_vel(self):
        return observable.MJCFFeature("qvel", self._entity.observable_joints)

    @composer.observable
    def sensors(self):
        return observable.MJCFFeature("sensordata", self._entity.sensors)

    @composer.observable
    def world_zaxis(self):
        return observable.MJCFFeature("xmat", self._entity.root_body)[6:9]


class Floor(composer.Arena):
    def _build(self, name="floor"):
        super()._build(name=name)
        self.mjcf_model.worldbody.add("geom", name="ground", type="plane", size=[5, 5, 0.1])
        self._target = self.mjcf_model.worldbody.add(
            "site", name="target", type="sphere", size=[0.1], rgba=[0, 0.8, 0, 1], pos=[1, 0, 0.1]
        )

    @property
    def target(self):
        return self._target


class GoToTarget(composer.Task):
    def __init__(self, walker):
        self._walker = walker
        self._arena = Floor()
        self._arena.add_free_entity(walker)
        walker.observables.enable_all()
        target = self._arena.target
        root = walker.root_body

        def target_egocentric(physics):
            delta = physics.bind(target).xpos - physics.bind(root).xpos
            return physics.bind(root).xmat.reshape(3, 3).T @ delta

        self._task_observables = {
            "target_egocentric": observable.Generic(target_egocentric),
            "target": observable.MJCFFeature("xpos", target),
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
        angle = random_state.uniform(0, 2 * np.pi)
        self._arena.target.pos = [TARGET_RADIUS * np.cos(angle), TARGET_RADIUS * np.sin(angle), 0.1]

    def initialize_episode(self, physics, random_state):
        yaw = random_state.uniform(-np.pi, np.pi)
        self._walker.set_pose(
            physics, position=[0, 0, 0.45], quaternion=[np.cos(yaw / 2), 0, 0, np.sin(yaw / 2)]
        )

    def get_reward(self, physics):
        walker_xy = physics.bind(self._walker.root_body).xpos[:2]
        target_xy = physics.bind(self._arena.target).xpos[:2]
        return float(np.exp(-np.linalg.norm(target_xy - walker_xy)))


def make_environment(seed):
    """(environment, root model) of the program."""
    task = GoToTarget(AntWalker())
    environment = composer.Environment(task, random_state=seed, strip_singleton_obs_buffer_dim=True)
    return environment, task.root_entity.mjcf_model
