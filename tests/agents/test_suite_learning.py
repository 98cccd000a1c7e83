"""Learning checks (slow): a short cell of benchmarks/suite_results.py on cheetah run, for
each agent, improves on its first evaluation.

Cheetah run is the easy set's hardest dense task (a 6-actuator planar body; its
initial policy scores near 0, a solved one above 500), so a learner that stops
learning shows here within minutes. Each check runs the driver's own cell (the same
presets, chunks and resumes as the full table) at a budget in steps, so it also
guards the driver's training path.

Budgets and what they gave (seed 0, 2026-11-27, load average 12-14 on 2 cores):
PPO, 4 evaluation periods of its preset (245,760 steps, 8 updates of 30,720); the
smoke run's cheetah run cell (benchmarks/results/suite_results_smoke, 5 evaluation
episodes) evaluated 0.2, 23.0, 45.2, 116.9 and 42.8 at those periods, and this test
passed in 203 s. D4PG, 20,000 steps (20 episodes) of the 'batched' preset (8
copies); at the 11-45 steps/s D4PG makes on the loaded machine
(benchmarks/RESULTS.md) that is 8-30 minutes: this test passed in 625 s.
"""

import importlib.util
import os

import pytest

_SCRIPT = os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks", "suite_results.py")
_spec = importlib.util.spec_from_file_location("suite_results", _SCRIPT)
assert _spec is not None and _spec.loader is not None, _SCRIPT
suite_results = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(suite_results)

TASK = "cheetah:run"
# Return above the first evaluation that counts as learning: the deterministic
# policy's evaluation varies by a few units between evaluations of a policy that
# does not change, and a learning cheetah gains hundreds.
MIN_GAIN = 50.0
BUDGET_STEPS = {"ppo": 4 * suite_results.EVAL_EVERY["ppo"], "d4pg": 20_000}


@pytest.mark.slow
@pytest.mark.parametrize("agent", ["ppo", "d4pg"])
def test_a_short_cheetah_run_cell_improves_on_its_first_evaluation(agent, tmp_path):
    pytest.importorskip("suites.suite")
    settings = suite_results.Settings(
        tasks=(TASK,),
        agents=(agent,),
        seeds=(0,),
        max_steps=BUDGET_STEPS[agent],
        max_minutes=60.0,
        out=str(tmp_path),
        eval_episodes=2,
    )
    cell = suite_results.run_cell(settings, agent, TASK, 0)
    assert cell["stopped_by"] == "max_steps"
    first = cell["curve"][0][2]
    later = [point[2] for point in cell["curve"][1:]]
    assert max(later) >= first + MIN_GAIN, cell["curve"]
