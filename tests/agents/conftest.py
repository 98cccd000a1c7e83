"""Test environments for the agents.

`DoubleIntegrator` is a small dm_env task that needs nothing of this project:
a unit point mass on a line pushed by a force, rewarded for staying near the
origin. The smoke tests also run on the suite's cartpole balance when
`suites.suite` can be imported.
"""

import os

import dm_env
import jax
import numpy as np
import pytest
from dm_env import specs

from agents import csv_log


class DoubleIntegrator(dm_env.Environment):
    """x'' = u on a line, u in [-1, 1] newtons on a 1 kg mass, control step 0.1 s.

    Observations: 'position' (1,) in metres and 'velocity' (1,) in m/s, world frame.
    Reward in [0, 1]: 1 / (1 + (x / 0.25 m)^2). Episodes last `time_limit` steps
    (LAST with discount 1) or end when |x| > 3 m (LAST with discount 0). Initial
    x ~ U(-1, 1) m and v ~ U(-0.5, 0.5) m/s from the seeded RandomState.
    """

    CONTROL_TIMESTEP_S = 0.1
    BOUNDARY_M = 3.0

    def __init__(self, seed: int, time_limit: int = 50):
        self._random = np.random.RandomState(seed)
        self._time_limit = time_limit
        self._position = 0.0
        self._velocity = 0.0
        self._steps = 0

    def _observation(self):
        return {"position": np.array([self._position]), "velocity": np.array([self._velocity])}

    def reset(self):
        self._position = self._random.uniform(-1.0, 1.0)
        self._velocity = self._random.uniform(-0.5, 0.5)
        self._steps = 0
        return dm_env.restart(self._observation())

    def step(self, action):
        force = float(np.clip(np.asarray(action).reshape(-1)[0], -1.0, 1.0))
        self._velocity += force * self.CONTROL_TIMESTEP_S
        self._position += self._velocity * self.CONTROL_TIMESTEP_S
        self._steps += 1
        reward = 1.0 / (1.0 + (self._position / 0.25) ** 2)
        if abs(self._position) > self.BOUNDARY_M:
            return dm_env.termination(reward, self._observation())
        if self._steps >= self._time_limit:
            return dm_env.truncation(reward, self._observation())
        return dm_env.transition(reward, self._observation())

    def observation_spec(self):
        return {
            "position": specs.Array((1,), np.float64, "position"),
            "velocity": specs.Array((1,), np.float64, "velocity"),
        }

    def action_spec(self):
        return specs.BoundedArray((1,), np.float64, -1.0, 1.0, "force")


def make_double_integrator(seed: int) -> DoubleIntegrator:
    return DoubleIntegrator(seed)


def make_cartpole_balance(seed: int) -> dm_env.Environment:
    from suites import suite  # pylint: disable=import-outside-toplevel

    return suite.load("cartpole", "balance", task_kwargs={"random": seed})


@pytest.fixture
def double_integrator():
    """The DoubleIntegrator class, to build with (seed, time_limit)."""
    return DoubleIntegrator


@pytest.fixture(params=["double_integrator", "cartpole_balance"])
def make_env(request):
    """`make_env(seed)` for each test environment; the suite one only where it exists."""
    if request.param == "cartpole_balance":
        pytest.importorskip("suites.suite")
        return make_cartpole_balance
    return make_double_integrator


@pytest.fixture
def check_run():
    """Checks a finished `experiment.train` run: rows, finite metrics, files written."""

    def check(result, metric_names):
        rows = csv_log.read_rows(result.metrics_path)
        assert rows[0]["step"] == "0" and int(rows[-1]["step"]) == result.env_steps
        learned = [row for row in rows if row[metric_names[0]]]
        assert learned, "no learning metrics were logged"
        for row in learned:
            for name in metric_names:
                assert np.isfinite(float(row[name])), (name, row)
        assert np.isfinite(result.final_eval_return)
        for path in (result.checkpoint_path, result.plot_path):
            assert os.path.getsize(path) > 0

    return check


@pytest.fixture
def assert_same_run():
    """Asserts two runs ended bit-identical: every leaf of the agent state and the
    metrics CSV but for its wall-clock column."""

    def compare(run, other_run):
        leaves, structure = jax.tree.flatten(run.agent.state_dict())
        other_leaves, other_structure = jax.tree.flatten(other_run.agent.state_dict())
        assert structure == other_structure
        for leaf, other_leaf in zip(leaves, other_leaves):
            np.testing.assert_array_equal(np.asarray(leaf), np.asarray(other_leaf))
        rows, other_rows = (
            [
                {key: value for key, value in row.items() if key != "wall_time_s"}
                for row in csv_log.read_rows(path)
            ]
            for path in (run.metrics_path, other_run.metrics_path)
        )
        assert rows == other_rows

    return compare
