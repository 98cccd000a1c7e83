"""`EnvironmentWrapper`: a `dm_env.Environment` that forwards everything to another.

The suite's wrappers (`pixels`, `action_scale`, `action_noise`) subclass it and
override what they change; every other method, and any attribute the wrapper lacks
(`physics`, `task`, `control_timestep`, ...), reaches the wrapped environment.
"""

import dm_env


class EnvironmentWrapper(dm_env.Environment):
    """Forwards every `dm_env.Environment` method and unknown attribute to `self._env`."""

    def __init__(self, env):
        self._env = env

    def reset(self):
        return self._env.reset()

    def step(self, action):
        return self._env.step(action)

    def observation_spec(self):
        return self._env.observation_spec()

    def action_spec(self):
        return self._env.action_spec()

    def reward_spec(self):
        return self._env.reward_spec()

    def discount_spec(self):
        return self._env.discount_spec()

    def close(self):
        self._env.close()

    def __getattr__(self, name):
        # Only reached for names the wrapper lacks; private names are not forwarded so
        # that a half-built wrapper cannot recurse into itself.
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._env, name)
