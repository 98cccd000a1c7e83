"""Pixel observations: add a rendered camera image to (or in place of) the observation.

    from suites import suite
    from suites.wrappers import pixels

    env = pixels.Wrapper(suite.load("cartpole", "swingup"),
                         render_kwargs={"height": 84, "width": 84, "camera_id": 0})
    env.reset().observation["pixels"]  # (84, 84, 3) uint8

The image is rendered with `env.physics.render(**render_kwargs)` after every reset
and step, so it shows the state at the end of the control step. Rendering works
headless with `MUJOCO_GL=egl` or `MUJOCO_GL=osmesa` (docs/rendering.md).
"""

import collections
from collections import abc

import dm_env
from dm_env import specs


_AGENT_CAMERA = {"shadows": False, "reflections": False, "antialias": False}


class Wrapper(dm_env.Environment):
    """A `dm_env.Environment` whose observations carry a camera image.

    Args:
      env: the wrapped environment; it must have a `physics` with a
        `render(**render_kwargs)` method (every `composer.Environment` has).
      pixels_only: if True the observation is `{observation_key: image}` alone;
        otherwise the image is added to the wrapped environment's observation,
        which must then be a mapping.
      render_kwargs: keyword arguments of `physics.render` (height, width,
        camera_id, depth, segmentation, scene_option, shadows, reflections,
        antialias, level_of_detail); None renders with its defaults (240x320 RGB
        from the free camera, round shapes tessellated no finer than the image
        size needs: `level_of_detail="auto"`) except that shadows, reflections and
        antialiasing are off, as for an agent's camera, unless asked for.
      observation_key: the name of the image in the observation.

    Raises:
      TypeError: `render_kwargs` is not a mapping, `observation_key` not a string,
        or (with `pixels_only=False`) the wrapped observation spec is not a mapping.
      ValueError: with `pixels_only=False`, the wrapped observation already has
        `observation_key`.

    Other attributes (`physics`, `task`, ...) are those of the wrapped environment.
    """

    def __init__(self, env, pixels_only=True, render_kwargs=None, observation_key="pixels"):
        if render_kwargs is None:
            render_kwargs = {}
        elif not isinstance(render_kwargs, abc.Mapping):
            raise TypeError(
                f"render_kwargs must be a mapping of physics.render keyword arguments or None, "
                f"got {type(render_kwargs).__name__}"
            )
        if not isinstance(observation_key, str):
            raise TypeError(f"observation_key must be a string, got {observation_key!r}")
        if not hasattr(env, "physics"):
            raise TypeError(
                f"env must have a `physics` that renders (a composer.Environment), "
                f"got {type(env).__name__}"
            )
        wrapped_spec = env.observation_spec()
        if pixels_only:
            observation_spec = collections.OrderedDict()
        else:
            if not isinstance(wrapped_spec, abc.Mapping):
                raise TypeError(
                    f"pixels_only=False adds the image to the wrapped observation, which must be "
                    f"a mapping, but its spec is a {type(wrapped_spec).__name__}"
                )
            if observation_key in wrapped_spec:
                raise ValueError(
                    f"the wrapped observation already has a key {observation_key!r}; pass another "
                    f"observation_key (its keys: {list(wrapped_spec)})"
                )
            observation_spec = collections.OrderedDict(wrapped_spec)
        self._env = env
        self._pixels_only = pixels_only
        # An agent's camera: no shadows, reflections or multisampling unless asked.
        self._render_kwargs = dict(_AGENT_CAMERA, **render_kwargs)
        self._observation_key = observation_key
        image = self._render()
        observation_spec[observation_key] = specs.Array(
            shape=image.shape, dtype=image.dtype, name=observation_key
        )
        self._observation_spec = observation_spec

    def _render(self):
        return self._env.physics.render(**self._render_kwargs)

    def _add_pixels(self, timestep):
        if self._pixels_only:
            observation = collections.OrderedDict()
        else:
            observation = collections.OrderedDict(timestep.observation)
        observation[self._observation_key] = self._render()
        return timestep._replace(observation=observation)

    def reset(self):
        return self._add_pixels(self._env.reset())

    def step(self, action):
        return self._add_pixels(self._env.step(action))

    def observation_spec(self):
        return collections.OrderedDict(self._observation_spec)

    def action_spec(self):
        return self._env.action_spec()

    def reward_spec(self):
        return self._env.reward_spec()

    def discount_spec(self):
        return self._env.discount_spec()

    def close(self):
        self._env.close()

    def __getattr__(self, name):
        # Only reached for names this wrapper lacks; private names are not forwarded
        # so that a half-built wrapper cannot recurse into itself.
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._env, name)
