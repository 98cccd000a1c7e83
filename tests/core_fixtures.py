"""Small entities and tasks built with MjSpec for the core tests."""

import mujoco
import numpy as np

from composer_tasks import composer
from composer_tasks.composer.observation import observable


class Leg(composer.Entity):
    """A capsule on a hinge with a torque motor limited to [-1, 1]."""

    def _build(self, name="leg"):
        spec = mujoco.MjSpec()
        spec.modelname = name
        thigh = spec.worldbody.add_body(name="thigh")
        self.hip = thigh.add_joint(name="hip", axis=[0.0, 1.0, 0.0])
        self.geom = thigh.add_geom(
            name="thigh",
            type=mujoco.mjtGeom.mjGEOM_CAPSULE,
            fromto=[0.0, 0.0, 0.0, 0.2, 0.0, 0.0],
            size=[0.03, 0.0, 0.0],
        )
        self.motor = spec.add_actuator(
            name="hip",
            target="hip",
            trntype=mujoco.mjtTrn.mjTRN_JOINT,
            ctrllimited=1,
            ctrlrange=[-1.0, 1.0],
        )
        self.site = thigh.add_site(name="foot", pos=[0.2, 0.0, 0.0])
        self._spec = spec


class Torso(composer.Entity):
    """A sphere with `num_legs` legs attached at sites."""

    def _build(self, name="creature", num_legs=2):
        spec = mujoco.MjSpec()
        spec.modelname = name
        body = spec.worldbody.add_body(name="torso")
        self.torso_geom = body.add_geom(name="torso", size=[0.1, 0.0, 0.0])
        self._spec = spec
        self.legs = []
        for index in range(num_legs):
            site = body.add_site(name=f"hip{index}", pos=[0.1 * (-1) ** index, 0.0, 0.0])
            leg = Leg(name=f"leg{index}")
            self.attach(leg, site)
            self.legs.append(leg)


class Plane(composer.Arena):
    def _build(self, name="arena"):
        spec = mujoco.MjSpec()
        spec.modelname = name
        self.ground = spec.worldbody.add_geom(
            name="ground", type=mujoco.mjtGeom.mjGEOM_PLANE, size=[2.0, 2.0, 0.1]
        )
        self._spec = spec


class RandomHeightTask(composer.Task):
    """A free creature dropped from a random height; reward = height in [0, 1]."""

    def __init__(self, control_timestep=0.01, physics_timestep=0.002):
        self.arena = Plane()
        self.creature = Torso()
        self.arena.add_free_entity(self.creature)
        self.set_timesteps(control_timestep, physics_timestep)
        self._observables = {
            "height": observable.Generic(
                lambda physics: self.creature.get_pose(physics)[0][2:], enabled=True
            ),
            "hips": observable.MJCFFeature(
                "qpos", [leg.hip for leg in self.creature.legs], enabled=True
            ),
        }

    @property
    def root_entity(self):
        return self.arena

    @property
    def task_observables(self):
        return self._observables

    def initialize_episode(self, physics, random_state):
        self.creature.set_pose(physics, position=[0.0, 0.0, random_state.uniform(0.3, 0.6)])
        for leg in self.creature.legs:
            physics.bind(leg.hip).qpos = random_state.uniform(-0.5, 0.5)

    def get_reward(self, physics):
        return float(np.clip(self.creature.get_pose(physics)[0][2], 0.0, 1.0))
