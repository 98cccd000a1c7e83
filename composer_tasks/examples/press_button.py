"""PressWithSpecificForce: the dm_control paper's Composer tutorial task (§5.4).

A four-legged creature on a floor must press a button with a force inside a target
range. Run it with a random policy:

    python -m composer_tasks.examples.press_button --episodes 3 --seed 0
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from absl import app
from absl import flags
import numpy as np

from composer_tasks import composer
from composer_tasks.arenas import Floor
from composer_tasks.examples.creature import Creature
from composer_tasks.composer import variation
from composer_tasks.composer.observation import observable
from composer_tasks.composer.variation import distributions
from composer_tasks.composer.variation import noises
from composer_tasks.physics import Physics
from composer_tasks.props import Button

# 25 physics substeps of 5 ms per control step, as in the paper's tutorial.
NUM_SUBSTEPS = 25
_PHYSICS_TIMESTEP_S = 0.005
_TARGET_FORCE_RANGE_N = (5.0, 10.0)
_CREATURE_START_POSITION_M = (0.0, 0.0, 0.15)
_BUTTON_DISTANCE_RANGE_M = (0.5, 0.75)
# Sensor noise of the paper's tutorial: additive N(0, 0.01) on joint angles,
# multiplicative LogNormal(0, 0.01) on joint velocities.
_JOINT_POSITION_NOISE_RAD = 0.01
_JOINT_VELOCITY_NOISE_SIGMA = 0.01


class UniformCircle(variation.Variation):
    """A point at a uniformly random angle on a circle of random radius, at z = 0.

    Args:
      distance: the radius in metres, a number or a variation.
    """

    def __init__(self, distance: float | variation.Variation) -> None:
        self._distance = distance
        self._heading = distributions.Uniform(0.0, 2 * np.pi)

    def __call__(
        self,
        initial_value: Any = None,
        current_value: Any = None,
        random_state: np.random.RandomState | None = None,
    ) -> np.ndarray:
        distance, heading = variation.evaluate(
            (self._distance, self._heading), random_state=random_state
        )
        return np.array([distance * np.cos(heading), distance * np.sin(heading), 0.0])


class PressWithSpecificForce(composer.Task):
    """Reward: the fraction of the control step's substeps during which the button
    felt a force inside the target range.

    Observations, as in the paper: noisy joint angles and velocities, the button's
    touch force at every substep averaged over the control step, and the button's
    position in the creature's frame.
    """

    def __init__(self, creature: Creature, button: Button | None = None) -> None:
        self._creature = creature
        self._arena = Floor()
        self._arena.add_free_entity(creature)
        self._button = button or Button(target_force_range=_TARGET_FORCE_RANGE_N)
        self._arena.attach(self._button)

        self._creature_initial_position = _CREATURE_START_POSITION_M
        self._button_initial_position = UniformCircle(
            distributions.Uniform(*_BUTTON_DISTANCE_RANGE_M)
        )
        # Variators for the task's own domain randomisation: bind attributes to
        # variations (e.g. self.physics_variator.bind_attributes(geom, friction=...)).
        self.mjcf_variator = variation.MJCFVariator()
        self.physics_variator = variation.PhysicsVariator()

        creature.observables.joint_positions.configure(
            enabled=True,
            corruptor=noises.Additive(distributions.Normal(scale=_JOINT_POSITION_NOISE_RAD)),
        )
        creature.observables.joint_velocities.configure(
            enabled=True,
            corruptor=noises.Multiplicative(
                distributions.LogNormal(mean=0.0, sigma=_JOINT_VELOCITY_NOISE_SIGMA)
            ),
        )
        self._button.observables.touch_force.configure(
            enabled=True, update_interval=1, buffer_size=NUM_SUBSTEPS, aggregator="mean"
        )
        self._task_observables: dict[str, observable.Observable] = {
            "button_position": observable.Generic(self._button_in_creature_frame, enabled=True),
        }
        self.set_timesteps(NUM_SUBSTEPS * _PHYSICS_TIMESTEP_S, _PHYSICS_TIMESTEP_S)

    @property
    def root_entity(self) -> Floor:
        return self._arena

    @property
    def task_observables(self) -> dict[str, observable.Observable]:
        return self._task_observables

    def _button_in_creature_frame(self, physics: Physics) -> np.ndarray:
        """The button's position relative to the creature, in the creature's frame (m)."""
        button_position, _ = self._button.get_pose(physics)
        creature_position, _ = self._creature.get_pose(physics)
        return self._creature.global_vector_to_local_frame(
            physics, button_position - creature_position
        )

    def initialize_episode_mjcf(self, random_state: np.random.RandomState) -> None:
        self.mjcf_variator.apply_variations(random_state)

    def initialize_episode(self, physics: Physics, random_state: np.random.RandomState) -> None:
        self.physics_variator.apply_variations(physics, random_state)
        creature_position, button_position = variation.evaluate(
            (self._creature_initial_position, self._button_initial_position),
            random_state=random_state,
        )
        self._creature.set_pose(physics, position=creature_position)
        self._button.set_pose(physics, position=button_position)

    def get_reward(self, physics: Physics) -> float:
        return self._button.num_activated_steps / NUM_SUBSTEPS


def make_environment(
    seed: int | None = None, num_legs: int = 4, time_limit: float = 10.0
) -> composer.Environment:
    """The tutorial environment: a `num_legs` creature, episodes of `time_limit` s."""
    creature = Creature(num_legs=num_legs, random_state=np.random.RandomState(0))
    return composer.Environment(
        PressWithSpecificForce(creature), time_limit=time_limit, random_state=seed
    )


def main(argv: Sequence[str]) -> None:
    """Runs --episodes episodes with a uniform random policy, printing each return."""
    del argv
    seed = flags.FLAGS.seed
    env = make_environment(seed=seed)
    spec = env.action_spec()
    policy_random = np.random.RandomState(seed)
    for episode in range(flags.FLAGS.episodes):
        timestep = env.reset()
        episode_return, steps = 0.0, 0
        start = time.perf_counter()
        while not timestep.last():
            action = policy_random.uniform(spec.minimum, spec.maximum)
            timestep = env.step(action)
            episode_return += timestep.reward
            steps += 1
        elapsed = time.perf_counter() - start
        print(
            f"episode {episode}: return {episode_return:.3f} over {steps} steps, "
            f"{steps / elapsed:.0f} steps/s"
        )


if __name__ == "__main__":
    # Defined only when run as a program, so that importing this module (for its
    # task) never clashes with another program's flags of the same names.
    flags.DEFINE_integer("episodes", 3, "Episodes to run.", lower_bound=1)
    flags.DEFINE_integer("seed", 0, "Seed of the environment and the random policy.")
    app.run(main)
