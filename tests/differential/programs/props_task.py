"""A manipulation-style Composer task: props placed by initializers on a table."""
# `record` and `check` are given to the program by tests/differential/worker.py.
# ruff: noqa: F821

import numpy as np
from dm_control import composer, mjcf
from dm_control.composer import initializers, variation
from dm_control.composer.observation import observable
from dm_control.composer.variation import distributions, noises, rotations
from dm_control.utils import rewards


class Table(composer.Arena):
    def _build(self, name="table"):
        super()._build(name=name)
        self.mjcf_model.worldbody.add(
            "geom",
            name="top",
            type="box",
            size=[0.6, 0.6, 0.02],
            pos=[0, 0, -0.02],
            rgba=[0.6, 0.5, 0.4, 1],
        )
        self.mjcf_model.worldbody.add("light", pos=[0, 0, 2])
        self._goal = self.mjcf_model.worldbody.add(
            "site", name="goal", pos=[0.3, 0.2, 0.05], size=[0.02], rgba=[0, 1, 0, 0.5]
        )

    @property
    def goal(self):
        return self._goal


class Block(composer.Entity):
    def _build(self, name, size, mass):
        self._model = mjcf.RootElement(model=name)
        body = self._model.worldbody.add("body", name="body")
        self._geom = body.add(
            "geom", name="geom", type="box", size=[size] * 3, mass=mass, friction=[1.0, 0.01, 0.001]
        )
        self._site = body.add("site", name="centre", size=[0.005])
        self._body = body

    def _build_observables(self):
        return BlockObservables(self)

    @property
    def mjcf_model(self):
        return self._model

    @property
    def geom(self):
        return self._geom

    @property
    def body(self):
        return self._body

    @property
    def site(self):
        return self._site


class BlockObservables(composer.Observables):
    @composer.observable
    def position(self):
        return observable.MJCFFeature("xpos", self._entity.site)

    @composer.observable
    def orientation(self):
        return observable.MJCFFeature("xmat", self._entity.site)

    @composer.observable
    def height(self):
        return observable.Generic(lambda physics: physics.bind(self._entity.site).xpos[2:])


class Gather(composer.Task):
    def __init__(self):
        self._arena = Table()
        self._blocks = [Block(name=f"block{i}", size=0.02 + 0.01 * i, mass=0.1) for i in range(3)]
        for block in self._blocks:
            self._arena.add_free_entity(block)
            block.observables.position.enabled = True
            block.observables.orientation.enabled = True
            block.observables.height.enabled = True
            block.observables.position.corruptor = noises.Additive(distributions.Normal(0, 0.01))
            block.observables.height.buffer_size = 3
        self._placer = initializers.PropPlacer(
            props=self._blocks,
            position=distributions.Uniform([-0.4, -0.4, 0.05], [0.4, 0.4, 0.1]),
            quaternion=rotations.UniformQuaternion(),
            ignore_collisions=False,
            settle_physics=True,
        )
        self._mass_variator = variation.MJCFVariator()
        self._mass_variator.bind_attributes(
            self._blocks[0].geom, mass=distributions.LogNormal(np.log(0.1), 0.2)
        )
        self._physics_variator = variation.PhysicsVariator()
        self._physics_variator.bind_attributes(
            self._blocks[1].geom,
            friction=distributions.Uniform([0.5, 0.005, 0.0005], [1.5, 0.02, 0.002]),
        )
        goal = self._arena.goal
        self._task_observables = {
            "goal": observable.MJCFFeature("xpos", goal),
            "time": observable.Generic(lambda physics: np.array([physics.data.time])),
        }
        for item in self._task_observables.values():
            item.enabled = True
        self.set_timesteps(control_timestep=0.05, physics_timestep=0.005)

    @property
    def root_entity(self):
        return self._arena

    @property
    def task_observables(self):
        return self._task_observables

    def initialize_episode_mjcf(self, random_state):
        self._mass_variator.apply_variations(random_state)

    def initialize_episode(self, physics, random_state):
        self._physics_variator.apply_variations(physics, random_state)
        self._placer(physics, random_state)

    def get_reward(self, physics):
        goal = physics.bind(self._arena.goal).xpos
        distances = [np.linalg.norm(physics.bind(b.site).xpos - goal) for b in self._blocks]
        return float(
            np.mean([rewards.tolerance(d, bounds=(0, 0.05), margin=0.5) for d in distances])
        )

    def action_spec(self, physics):
        from dm_env import specs

        return specs.BoundedArray((0,), np.float64, [], [], name="none")


task = Gather()
env = composer.Environment(task, time_limit=1.0, random_state=3)
record("observation_names", list(env.observation_spec()))
for key, spec in env.observation_spec().items():
    record(f"spec/{key}", spec)
record("nbody", env.physics.model.nbody)
for episode in range(2):
    timestep = env.reset()
    for key, value in timestep.observation.items():
        record(f"ep{episode}/obs0/{key}", value)
    record(f"ep{episode}/mass0", env.physics.bind(task._blocks[0].body).mass)
    record(f"ep{episode}/friction1", env.physics.bind(task._blocks[1].geom).friction)
    for step in range(5):
        timestep = env.step(np.zeros(0))
        record(f"ep{episode}/step{step}/reward", timestep.reward)
        for key, value in timestep.observation.items():
            record(f"ep{episode}/step{step}/{key}", value)
    steps = 5
    while not timestep.last():
        timestep = env.step(np.zeros(0))
        steps += 1
    record(f"ep{episode}/length", steps)
    for key, value in timestep.observation.items():
        record(f"ep{episode}/last/{key}", value)
