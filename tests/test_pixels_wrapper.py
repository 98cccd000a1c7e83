"""suites.wrappers.pixels.Wrapper: rendered camera images as observations."""

import collections

import dm_env
from dm_env import specs
import numpy as np
import pytest

from suites import suite
from suites.wrappers import pixels

_SMALL = {"height": 48, "width": 64, "camera_id": 0}


@pytest.fixture
def env():
    return suite.load("cartpole", "swingup", task_kwargs={"random": 0})


def test_pixels_only_observation_and_spec(env):
    wrapped = pixels.Wrapper(env, render_kwargs=_SMALL)
    spec = wrapped.observation_spec()
    assert list(spec) == ["pixels"]
    assert spec["pixels"] == specs.Array((48, 64, 3), np.uint8, name="pixels")
    timestep = wrapped.reset()
    assert timestep.first()
    assert list(timestep.observation) == ["pixels"]
    image = timestep.observation["pixels"]
    spec["pixels"].validate(image)
    assert image.std() > 0
    timestep = wrapped.step(np.zeros(1))
    assert timestep.mid()
    spec["pixels"].validate(timestep.observation["pixels"])


def test_the_image_is_the_state_at_the_end_of_the_step(env):
    wrapped = pixels.Wrapper(env, render_kwargs=_SMALL)
    wrapped.reset()
    timestep = wrapped.step(np.ones(1))
    # dm_control's default: physics.render's own options.
    np.testing.assert_array_equal(timestep.observation["pixels"], env.physics.render(**_SMALL))
    # Each observation owns its image.
    assert not np.shares_memory(
        timestep.observation["pixels"], wrapped.step(np.ones(1)).observation["pixels"]
    )


def test_pixels_are_added_to_the_state_observation(env):
    wrapped = pixels.Wrapper(env, pixels_only=False, render_kwargs=_SMALL, observation_key="image")
    spec = wrapped.observation_spec()
    assert list(spec) == ["position", "velocity", "image"]
    assert spec["position"] == env.observation_spec()["position"]
    timestep = wrapped.reset()
    assert list(timestep.observation) == ["position", "velocity", "image"]
    for name, array_spec in spec.items():
        array_spec.validate(timestep.observation[name])


def test_default_render_kwargs_give_240_by_320(env):
    wrapped = pixels.Wrapper(env)
    assert wrapped.observation_spec()["pixels"].shape == (240, 320, 3)


def test_depth_images_get_a_float_spec(env):
    wrapped = pixels.Wrapper(env, render_kwargs=dict(_SMALL, depth=True))
    spec = wrapped.observation_spec()["pixels"]
    assert spec.shape == (48, 64) and spec.dtype == np.float32
    depth = wrapped.reset().observation["pixels"]
    assert np.all(depth > 0)


def test_other_methods_and_attributes_pass_through(env):
    wrapped = pixels.Wrapper(env, render_kwargs=_SMALL)
    assert isinstance(wrapped, dm_env.Environment)
    assert wrapped.action_spec() == env.action_spec()
    assert wrapped.reward_spec() == env.reward_spec()
    assert wrapped.discount_spec() == env.discount_spec()
    assert wrapped.physics is env.physics
    assert wrapped.task is env.task
    with pytest.raises(AttributeError):
        wrapped.no_such_attribute


def test_episodes_end_and_restart_like_the_wrapped_environment():
    env = suite.load("cartpole", "balance", task_kwargs={"random": 0, "time_limit": 0.03})
    wrapped = pixels.Wrapper(env, render_kwargs=_SMALL)
    wrapped.reset()
    step_types = [wrapped.step(np.zeros(1)).step_type for _ in range(4)]
    assert step_types == [
        dm_env.StepType.MID,
        dm_env.StepType.MID,
        dm_env.StepType.LAST,
        dm_env.StepType.FIRST,
    ]


def test_bad_arguments(env):
    with pytest.raises(TypeError, match="render_kwargs must be a mapping"):
        pixels.Wrapper(env, render_kwargs=[("height", 8)])
    with pytest.raises(TypeError, match="observation_key must be a string"):
        pixels.Wrapper(env, observation_key=3)
    with pytest.raises(ValueError, match="already has a key 'position'"):
        pixels.Wrapper(env, pixels_only=False, observation_key="position")
    with pytest.raises(TypeError, match="must have a `physics`"):
        pixels.Wrapper(object())
    with pytest.raises(ValueError, match="camera_id 7 out of range"):
        pixels.Wrapper(env, render_kwargs={"camera_id": 7})


class _ArrayObservationEnv(dm_env.Environment):
    """A dm_env with a bare array observation, to check pixels_only=False refuses it."""

    def __init__(self, physics):
        self.physics = physics

    def reset(self):
        return dm_env.restart(np.zeros(2))

    def step(self, action):
        return dm_env.transition(0.0, np.zeros(2))

    def observation_spec(self):
        return specs.Array((2,), np.float64)

    def action_spec(self):
        return specs.Array((1,), np.float64)


def test_an_array_observation_goes_under_state(env):
    wrapped = pixels.Wrapper(
        _ArrayObservationEnv(env.physics), pixels_only=False, render_kwargs=_SMALL
    )
    assert list(wrapped.observation_spec()) == [pixels.STATE_KEY, "pixels"]
    observation = wrapped.reset().observation
    assert list(observation) == ["state", "pixels"]
    np.testing.assert_array_equal(observation["state"], np.zeros(2))
    with pytest.raises(ValueError, match="already has a key 'state'"):
        pixels.Wrapper(
            _ArrayObservationEnv(env.physics), pixels_only=False, observation_key="state"
        )
    wrapped = pixels.Wrapper(_ArrayObservationEnv(env.physics), render_kwargs=_SMALL)
    assert isinstance(wrapped.reset().observation, collections.OrderedDict)


def test_an_unsupported_observation_spec_is_refused(env):
    environment = _ArrayObservationEnv(env.physics)
    environment.observation_spec = lambda: [specs.Array((2,), np.float64)]
    with pytest.raises(ValueError, match="must be an array spec or a mapping"):
        pixels.Wrapper(environment)


def test_agent_camera_turns_the_flags_off_unless_asked(env):
    wrapped = pixels.Wrapper(env, render_kwargs=_SMALL, agent_camera=True)
    agent_camera = dict(_SMALL, shadows=False, reflections=False, antialias=False)
    np.testing.assert_array_equal(
        wrapped.reset().observation["pixels"], env.physics.render(**agent_camera)
    )
    with_shadows = dict(_SMALL, shadows=True, reflections=True, antialias=True)
    wrapped = pixels.Wrapper(env, render_kwargs=with_shadows, agent_camera=True)
    np.testing.assert_array_equal(
        wrapped.reset().observation["pixels"], env.physics.render(**with_shadows)
    )
    with pytest.raises(TypeError, match="agent_camera must be a bool"):
        pixels.Wrapper(env, agent_camera="yes")
