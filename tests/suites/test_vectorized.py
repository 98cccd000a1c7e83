"""Suite tasks that declare vectorised callbacks: batches take the loop-free path and
give exactly the numbers of single environments."""

import numpy as np
import pytest

from composer_tasks.batch import copy_seed
from suites import suite

_VECTORIZED = [
    pytest.param(domain, task, id=f"{domain}-{task}")
    for domain, task in suite.ALL_TASKS
    if suite.load(domain, task).task.vectorized_callbacks
]


def test_most_benchmarking_tasks_are_vectorised():
    vectorized = {(p.values[0], p.values[1]) for p in _VECTORIZED}
    assert ("cartpole", "swingup") in vectorized
    assert len(vectorized & set(suite.BENCHMARKING)) >= 3


@pytest.mark.parametrize("domain, task", _VECTORIZED)
def test_vectorised_batch_equals_single_environments(domain, task):
    control_timestep = suite.load(domain, task).task.control_timestep
    # 5.5 control steps: 6-step episodes, clear of the float quotient's rounding
    # (dm_control counts 6 * 0.025 s of 0.025 s steps as 7).
    kwargs = {"time_limit": 5.5 * control_timestep}
    batch = suite.load_batch(domain, task, 3, task_kwargs=dict(kwargs, random=2), num_threads=2)
    assert batch.vectorized
    singles = [
        suite.load(domain, task, task_kwargs=dict(kwargs, random=copy_seed(2, i))) for i in range(3)
    ]
    spec = batch.action_spec()
    actions = np.random.RandomState(1).uniform(
        spec.minimum, spec.maximum, size=(15, 3) + spec.shape
    )
    batched = batch.reset()
    alone = [env.reset() for env in singles]
    auto_resets = 0
    for step in range(16):
        auto_resets += int(np.sum(batched.first())) if step else 0
        for index, timestep in enumerate(alone):
            assert batched.step_type[index] == timestep.step_type
            assert batched.reward[index] == (timestep.reward or 0.0)
            assert batched.discount[index] == (
                1.0 if timestep.discount is None else timestep.discount
            )
            for name, value in timestep.observation.items():
                np.testing.assert_array_equal(batched.observation[name][index], value, err_msg=name)
        if step == 15:
            break
        batched = batch.step(actions[step])
        alone = [env.step(actions[step, i]) for i, env in enumerate(singles)]
    assert auto_resets == 6  # Every copy restarted after steps 6 and 13.


def test_visualize_reward_turns_the_vectorised_path_off():
    env = suite.load("cartpole", "swingup", visualize_reward=True)
    assert not env.task.vectorized
