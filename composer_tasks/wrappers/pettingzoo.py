"""PettingZoo adapter: a multi-agent `composer.Environment` as a `pettingzoo.ParallelEnv`.

PettingZoo's Parallel API is the multi-agent convention Gymnasium's users know: every
agent acts at each step, and observations, rewards, terminations, truncations and
infos are dicts keyed by agent name.

Episode ends map as in the Gymnasium adapter: a LAST step with discount 0 (soccer:
a goal with `terminate_on_goal`) terminates every agent; a LAST step with a positive
discount (the time limit) truncates every agent. After either, `agents` is empty
and the next call must be `reset`.
"""

from collections.abc import Mapping
from typing import Any, Dict, List, Optional, Sequence, Tuple, cast

import dm_env
import numpy as np
import pettingzoo
from dm_env import specs
from gymnasium import spaces
from numpy.typing import ArrayLike

from composer_tasks import seeding
from composer_tasks.composer import environment as environment_module
from composer_tasks.wrappers import gymnasium as gymnasium_wrappers


class ParallelEnv(pettingzoo.ParallelEnv):
    """A multi-agent `composer.Environment` as a `pettingzoo.ParallelEnv`.

    Args:
      env: a `composer.Environment` of a multi-agent task (a `MultiAgentEnvironment`).
      agent_names: one unique name per agent, in the task's agent order. None takes
        the task's `agent_names` attribute if it has one (soccer: "home0", "away0",
        ...), else "agent_0", "agent_1", ...
      flatten_observations: each agent's observation as one float64 vector in
        observation-spec order instead of a Dict space.
      render_mode: None or "rgb_array" (renders camera `render_camera`).
      render_camera: camera index (-1 the free camera) or name.
      render_size: (height, width) of rendered images in pixels.

    `step` takes a dict of every live agent's action (no cast: the environment
    rejects what it rejects); `infos` carry each step's `discount`.
    """

    metadata = {"render_modes": ["rgb_array"], "name": "composer_tasks", "is_parallelizable": True}

    def __init__(
        self,
        env: environment_module.MultiAgentEnvironment,
        agent_names: Optional[Sequence[str]] = None,
        flatten_observations: bool = False,
        render_mode: Optional[str] = None,
        render_camera: Any = -1,
        render_size: Tuple[int, int] = (240, 320),
    ) -> None:
        if not isinstance(env, environment_module.MultiAgentEnvironment):
            raise TypeError(
                f"env must be a composer.Environment of a multi-agent task (composer.Task.num_agents), "
                f"got {type(env).__name__}"
                + (
                    " (use GymnasiumEnv for a single agent)"
                    if isinstance(env, dm_env.Environment)
                    else ""
                )
            )
        if agent_names is None:
            agent_names = getattr(env.task, "agent_names", None)
        if agent_names is None:
            agent_names = [f"agent_{index}" for index in range(env.num_agents)]
        agent_names = list(agent_names)
        if (
            len(agent_names) != env.num_agents
            or len(set(agent_names)) != len(agent_names)
            or not all(isinstance(name, str) for name in agent_names)
        ):
            raise ValueError(
                f"agent_names must be {env.num_agents} unique strings, one per agent, got {agent_names!r}"
            )
        if render_mode not in (None, "rgb_array"):
            raise ValueError(f"render_mode must be None or 'rgb_array', got {render_mode!r}")
        self._env = env
        self._flatten = gymnasium_wrappers._check_bool(flatten_observations, "flatten_observations")
        self.render_mode = render_mode
        self.metadata = gymnasium_wrappers._render_metadata(type(self).metadata, env)
        self._render_camera = render_camera
        self._render_size = tuple(render_size)
        self.possible_agents = agent_names
        self.agents: List[str] = []
        # A multi-agent environment's specs are lists, one per agent, where
        # `composer.Environment` declares a single agent's.
        observation_specs = cast(Sequence[Mapping[str, specs.Array]], env.observation_spec())
        action_specs = cast(Sequence[specs.BoundedArray], env.action_spec())
        self._observation_spaces = {
            name: gymnasium_wrappers._observation_space(spec, self._flatten)
            for name, spec in zip(agent_names, observation_specs)
        }
        self._action_spaces = {
            name: gymnasium_wrappers._box(spec) for name, spec in zip(agent_names, action_specs)
        }

    @property
    def dm_env(self) -> environment_module.MultiAgentEnvironment:
        return self._env

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_spaces[agent]

    def _observations(self, observations: Sequence[Mapping[str, ArrayLike]]) -> Dict[str, Any]:
        if self._flatten:
            return {
                name: gymnasium_wrappers._flatten(observation)
                for name, observation in zip(self.possible_agents, observations)
            }
        result = {}
        for name, observation in zip(self.possible_agents, observations):
            space = self._observation_spaces[name]
            assert isinstance(space, spaces.Dict)  # A Dict space unless flattened.
            result[name] = {
                key: np.asarray(value, dtype=space[key].dtype) for key, value in observation.items()
            }
        return result

    def reset(
        self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[Dict[str, Any], Dict[str, Dict]]:
        """Starts an episode; `seed` (an int) re-seeds the environment's random state."""
        if seed is not None:
            self._env.random_state.seed(seeding.check_seed(seed, "seed"))
        timestep = self._env.reset()
        self.agents = list(self.possible_agents)
        return self._observations(timestep.observation), {name: {} for name in self.agents}

    def step(
        self, actions: Dict[str, Any]
    ) -> Tuple[Dict[str, Any], Dict[str, float], Dict[str, bool], Dict[str, bool], Dict[str, Dict]]:
        """One control step with every live agent's action.

        Raises:
          RuntimeError: no episode is running (call `reset`).
          ValueError: `actions` misses a live agent or names an unknown one.
        """
        if not self.agents:
            raise RuntimeError(
                "no episode is running: call reset() first (and after an episode ends)"
            )
        if not isinstance(actions, dict) or set(actions) != set(self.agents):
            names = sorted(actions) if isinstance(actions, dict) else type(actions).__name__
            raise ValueError(
                f"actions must be a dict of every agent's action {self.agents}, got {names}"
            )
        timestep = self._env.step([actions[name] for name in self.possible_agents])
        terminated = bool(timestep.last() and timestep.discount == 0.0)
        truncated = bool(timestep.last() and not terminated)
        discount = float(timestep.discount)
        names = self.possible_agents
        observations = self._observations(timestep.observation)
        rewards = {name: float(reward) for name, reward in zip(names, timestep.reward)}
        terminations = {name: terminated for name in names}
        truncations = {name: truncated for name in names}
        infos = {name: {"discount": discount} for name in names}
        if timestep.last():
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> Optional[np.ndarray]:
        if self.render_mode != "rgb_array":
            return None
        height, width = self._render_size
        return self._env.physics.render(height=height, width=width, camera_id=self._render_camera)

    def close(self) -> None:
        self._env.close()
