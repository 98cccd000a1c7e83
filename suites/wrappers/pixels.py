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

from suites.wrappers import base
from dm_env import specs


# Wrapping a bare-array observation with pixels_only=False puts it under this key
# (dm_control's STATE_KEY).
STATE_KEY = "state"

# agent_camera=True: no shadows, reflections or multisampling unless asked.
_AGENT_CAMERA = {"shadows": False, "reflections": False, "antialias": False}


class Wrapper(base.EnvironmentWrapper):
    """A `dm_env.Environment` whose observations carry a camera image.

    Args:
      env: the wrapped environment; it must have a `physics` with a
        `render(**render_kwargs)` method (every `composer.Environment` has).
      pixels_only: if True the observation is `{observation_key: image}` alone;
        otherwise the image is added to the wrapped environment's observation (a
        bare-array observation goes under the key "state", `STATE_KEY`).
      render_kwargs: keyword arguments of `physics.render` (height, width,
        camera_id, depth, segmentation, scene_option, shadows, reflections,
        antialias, level_of_detail); None renders with its defaults, as
        dm_control's wrapper does (240x320 RGB from the free camera).
      observation_key: the name of the image in the observation.
      agent_camera: opt-in (dm_control has no such option): True turns shadows,
        reflections and antialiasing off unless `render_kwargs` asks for them, as
        suits an agent's camera; Mesa's CPU renderer is then several times faster.

    Raises:
      TypeError: `render_kwargs` is not a mapping, `observation_key` not a string,
        or `env` has no `physics`.
      ValueError: the wrapped observation spec is neither an array nor a mapping,
        or (with `pixels_only=False`) it already has `observation_key` (or the key
        is "state" for an array observation).

    Other attributes (`physics`, `task`, ...) are those of the wrapped environment.
    """

    def __init__(
        self,
        env,
        pixels_only=True,
        render_kwargs=None,
        observation_key="pixels",
        agent_camera=False,
    ):
        if render_kwargs is None:
            render_kwargs = {}
        elif not isinstance(render_kwargs, abc.Mapping):
            raise TypeError(
                f"render_kwargs must be a mapping of physics.render keyword arguments or None, "
                f"got {type(render_kwargs).__name__}"
            )
        if not isinstance(observation_key, str):
            raise TypeError(f"observation_key must be a string, got {observation_key!r}")
        if not isinstance(agent_camera, bool):
            raise TypeError(f"agent_camera must be a bool, got {agent_camera!r}")
        if not hasattr(env, "physics"):
            raise TypeError(
                f"env must have a `physics` that renders (a composer.Environment), "
                f"got {type(env).__name__}"
            )
        wrapped_spec = env.observation_spec()
        if isinstance(wrapped_spec, specs.Array):
            self._observation_is_dict = False
            reserved = {STATE_KEY}
        elif isinstance(wrapped_spec, abc.Mapping):
            self._observation_is_dict = True
            reserved = set(wrapped_spec)
        else:
            raise ValueError(
                f"the wrapped observation spec must be an array spec or a mapping of them, "
                f"got a {type(wrapped_spec).__name__}"
            )
        if not pixels_only and observation_key in reserved:
            raise ValueError(
                f"the wrapped observation already has a key {observation_key!r}; pass another "
                f"observation_key (its keys: {sorted(reserved)})"
            )
        if pixels_only:
            observation_spec = collections.OrderedDict()
        elif self._observation_is_dict:
            observation_spec = collections.OrderedDict(wrapped_spec)
        else:
            observation_spec = collections.OrderedDict([(STATE_KEY, wrapped_spec)])
        self._env = env
        self._pixels_only = pixels_only
        self._render_kwargs = dict(_AGENT_CAMERA if agent_camera else {}, **render_kwargs)
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
        elif self._observation_is_dict:
            observation = collections.OrderedDict(timestep.observation)
        else:
            observation = collections.OrderedDict([(STATE_KEY, timestep.observation)])
        observation[self._observation_key] = self._render()
        return timestep._replace(observation=observation)

    def reset(self):
        return self._add_pixels(self._env.reset())

    def step(self, action):
        return self._add_pixels(self._env.step(action))

    def observation_spec(self):
        return collections.OrderedDict(self._observation_spec)
