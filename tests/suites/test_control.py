"""suites.control: dm_control's physics-task control loop (`Environment(physics, task)`)."""

import collections

import dm_env
import numpy as np
import pytest
from dm_env import specs

from composer_tasks import composer, physics as physics_lib
from suites import control

_SLIDER = """
<mujoco>
  <option timestep="0.01"/>
  <worldbody>
    <body name="cart">
      <joint name="slide" type="slide" axis="1 0 0"/>
      <geom type="box" size="0.1 0.1 0.1" mass="1"/>
    </body>
  </worldbody>
  <actuator><motor joint="slide"/></actuator>
</mujoco>
"""


class _Push(control.Task):
    """Pushes a cart; ends (discount 0) once it passes x = `end_x`."""

    def __init__(self, end_x=float("inf")):
        self.end_x = end_x
        self.calls = []

    def initialize_episode(self, physics):
        self.calls.append("initialize_episode")
        physics.data.qpos[:] = 0.0

    def before_step(self, action, physics):
        self.calls.append("before_step")
        physics.set_control(action)

    def after_step(self, physics):
        self.calls.append("after_step")

    def action_spec(self, physics):
        return specs.BoundedArray((1,), float, -1.0, 1.0)

    def get_observation(self, physics):
        return collections.OrderedDict(
            x=physics.data.qpos.copy(), v=physics.data.qvel.copy(), flag=np.zeros(2, bool)
        )

    def get_reward(self, physics):
        return float(physics.data.qpos[0])

    def get_termination(self, physics):
        return 0.0 if physics.data.qpos[0] > self.end_x else None


def test_the_control_loop_runs_the_task_in_dm_controls_order_and_time_limit():
    physics = physics_lib.Physics.from_xml_string(_SLIDER)
    task = _Push()
    env = control.Environment(physics, task, time_limit=0.1, control_timestep=0.02)
    assert isinstance(env, control.Environment) and env.control_timestep() == pytest.approx(0.02)
    assert isinstance(physics, control.Physics)  # MuJoCo's Physics is a control.Physics
    assert env.physics is physics and env.task is task
    first = env.reset()
    assert first.first() and first.reward is None and task.calls == ["initialize_episode"]
    steps = [env.step([1.0]) for _ in range(5)]
    assert [s.step_type for s in steps] == [dm_env.StepType.MID] * 4 + [dm_env.StepType.LAST]
    assert steps[-1].discount == 1.0 and physics.data.time == pytest.approx(0.1)
    assert task.calls[1:4] == ["before_step", "after_step", "before_step"]
    assert env.step([1.0]).first()  # the step after the last one resets
    spec = env.observation_spec()
    assert list(spec) == ["x", "v", "flag"] and spec["flag"].dtype == bool


def test_termination_and_flat_observations():
    physics = physics_lib.Physics.from_xml_string(_SLIDER)
    env = control.Environment(physics=physics, task=_Push(end_x=5e-5), flat_observation=True)
    env.reset()
    last = env.step([1.0])
    assert last.last() and last.discount == 0.0
    assert list(last.observation) == [control.FLAT_OBSERVATION_KEY]
    assert last.observation[control.FLAT_OBSERVATION_KEY].shape == (4,)


def test_bad_arguments_are_named():
    physics = physics_lib.Physics.from_xml_string(_SLIDER)
    with pytest.raises(ValueError, match="control_timestep or n_sub_steps, not both"):
        control.Environment(physics, _Push(), control_timestep=0.02, n_sub_steps=2)
    with pytest.raises(ValueError, match="integer multiple"):
        control.Environment(physics, _Push(), control_timestep=0.015)
    with pytest.raises(ValueError, match="n_sub_steps must be a positive integer"):
        control.Environment(physics, _Push(), n_sub_steps=0)
    with pytest.raises(TypeError, match=r"has no \['initialize_episode'"):
        control.Environment(physics, object())
    with pytest.raises(TypeError, match="a composer task runs in"):
        control.Environment(physics, composer.NullTask(composer.Arena()))
    assert control.compute_n_steps(0.03, 0.005) == 6
