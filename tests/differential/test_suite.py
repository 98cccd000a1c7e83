"""The Control Suite's module-level API against dm_control's: the task lists and
tags, every task's specs and observations, `flat_observation`, the action wrappers,
`task.random`, `task.get_observation` and the pixels wrapper's defaults."""

import pytest

TASKS_PROGRAM = """
import numpy as np
from dm_control import suite

for name in ("ALL_TASKS", "BENCHMARKING", "EASY", "HARD", "EXTRA", "NO_REWARD_VIZ",
             "REWARD_VIZ", "TASKS_BY_DOMAIN"):
    check(name, lambda n=name: getattr(suite, n))
for name in ("load", "build_environment", "base", "control", *sorted(suite.TASKS_BY_DOMAIN)):
    record(f"has/{name}", hasattr(suite, name))
for domain, task in suite.ALL_TASKS:
    env = suite.load(domain, task, task_kwargs={"random": 0})
    key = f"{domain}/{task}"
    record(key + "/observation_spec", env.observation_spec())
    record(key + "/action_spec", env.action_spec())
    record(key + "/reward_spec", env.reward_spec())
    record(key + "/discount_spec", env.discount_spec())
    record(key + "/random", type(env.task.random).__name__)
    timestep = env.reset()
    observation = env.task.get_observation(env.physics)
    record(key + "/get_observation", {k: np.asarray(v).shape for k, v in observation.items()})
    record(key + "/dtypes", {k: np.asarray(v).dtype.str for k, v in timestep.observation.items()})
check("unknown_domain", suite.load, "nope", "swingup")
check("unknown_task", suite.load, "cartpole", "nope")
check("build_environment", lambda: suite.build_environment("cartpole", "balance").action_spec())
"""

WRAPPERS_PROGRAM = """
import numpy as np
from dm_control import suite
from dm_control.suite.wrappers import action_noise, action_scale, pixels

env = suite.load("walker", "walk", task_kwargs={"random": 3},
                 environment_kwargs={"flat_observation": True})
record("flat/spec", env.observation_spec())
record("flat/reset", env.reset().observation)
record("flat/step", env.step(np.full(6, 0.3)).observation)

env = action_scale.Wrapper(suite.load("cartpole", "swingup", task_kwargs={"random": 1}),
                           minimum=0.0, maximum=2.0)
record("scale/spec", env.action_spec())
env.reset()
for i in range(5):
    record(f"scale/obs{i}", env.step(np.array([0.2 * i])).observation)
check("scale/infinite", action_scale.Wrapper, env, minimum=np.inf, maximum=1.0)
check("scale/shape", action_scale.Wrapper, env, minimum=np.zeros(3), maximum=1.0)
record("scale/forwarded", type(env.physics).__name__ == type(env._env.physics).__name__)

env = action_noise.Wrapper(suite.load("cartpole", "swingup", task_kwargs={"random": 2}),
                           scale=0.1)
env.reset()
for i in range(5):
    record(f"noise/obs{i}", env.step(np.array([0.5])).observation)
record("noise/random_next", env.task.random.uniform())

env = suite.load("cartpole", "balance", task_kwargs={"random": 5})
env.reset()
record("random/after_reset", env.task.random.uniform(size=3))
record("get_observation", env.task.get_observation(env.physics))
record("pixels/spec", pixels.Wrapper(env).observation_spec())
wrapped = pixels.Wrapper(env, pixels_only=False, render_kwargs={"height": 32, "width": 48})
record("pixels/spec_state", wrapped.observation_spec())
record("pixels/reset_keys", list(wrapped.reset().observation))
check("pixels/duplicate", pixels.Wrapper, env, pixels_only=False, observation_key="position")
"""


@pytest.mark.dm_control_api(
    "suite.ALL_TASKS",
    "suite.BENCHMARKING",
    "suite.EASY",
    "suite.HARD",
    "suite.EXTRA",
    "suite.NO_REWARD_VIZ",
    "suite.REWARD_VIZ",
    "suite.TASKS_BY_DOMAIN",
    "suite.load",
    "suite.build_environment",
)
def test_every_suite_task_has_dm_control_specs(differential):
    differential.assert_same(TASKS_PROGRAM, "suite_tasks", timeout_s=600)


@pytest.mark.dm_control_api(
    "suite.wrappers.action_scale.Wrapper.step",
    "suite.wrappers.action_noise.Wrapper.step",
    "suite.wrappers.action_scale.Wrapper",
    "suite.wrappers.action_noise.Wrapper",
    "suite.wrappers.pixels.Wrapper",
)
def test_suite_wrappers_and_flat_observation_match_dm_control(differential):
    differential.assert_same(WRAPPERS_PROGRAM, "suite_wrappers", rtol=1e-6, atol=1e-8)


ARGUMENTS = """
import numpy as np
from dm_control import suite
from dm_control.suite import manipulator, reacher, stacker

env = suite.load('manipulator', 'bring_ball', task_kwargs={'random': 0})
env.reset()
physics = env.physics
record('pose', physics.body_2d_pose('hand'))
record('poses', physics.body_2d_pose(['hand', 'ball']))
record('position', physics.body_2d_pose('hand', orientation=False))
record('positions', physics.body_2d_pose(['hand', 'ball'], False))
import inspect
record('reacher_args', list(inspect.signature(reacher.Reacher.__init__).parameters)[:2])
record('stacker_args', list(inspect.signature(stacker.Stack.__init__).parameters)[:3])
"""


@pytest.mark.dm_control_api("suite.load")
def test_suite_helpers_take_dm_control_arguments(differential):
    differential.assert_same(ARGUMENTS, "suite_arguments", rtol=1e-12, atol=1e-12)


ERRORS_PROGRAM = """
import numpy as np
from dm_control import suite
from dm_control.suite import quadruped

check("visualize_reward/str", suite.load, "cartpole", "balance", visualize_reward="yes")
check("visualize_reward/int", suite.load, "cartpole", "balance", visualize_reward=1)
check("visualize_reward/true", lambda: suite.load("cartpole", "balance",
                                                  visualize_reward=True).task.visualize_reward)
env = quadruped.walk(random=0)
env.reset()
check("rangefinder/walk", env.physics.rangefinder)
env = quadruped.escape(random=0)
env.reset()
record("rangefinder/escape", env.physics.rangefinder())
"""


@pytest.mark.dm_control_api("suite.load")
def test_suite_errors_are_dm_control_s(differential):
    """A non-bool `visualize_reward` raises ValueError; the quadruped's `rangefinder()`
    raises IndexError on a model without rangefinders and reads them on escape's."""
    differential.assert_same(ERRORS_PROGRAM, "suite_errors", rtol=1e-6, atol=1e-8)
