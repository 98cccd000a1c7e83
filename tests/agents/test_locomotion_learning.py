"""Learning check (slow): a short PPO run of benchmarks/locomotion_learning.py on the
planar walker's open plane (Heess et al. 2017, Figure 1) improves on its first
evaluation.

The untrained walker falls within about a second (evaluation return near 1: the
published reward's pose terms, no forward progress); a learner that works first
learns to stay up, worth hundreds over an episode of up to 1,200 steps. Budget and
what it gave (seed 0, preset walker_open_plane, 2026-11-27, load average 5-8 on 2
cores): the driver's run evaluated 0.96 at step 0 and 143.5 after 61,440 steps
(benchmarks/results/locomotion_learning/open_plane.csv). This test, which also
resumes the run for one more period, passed in 614 s at load average 12-15 and in
185 s at load average 6-7.
"""

import importlib.util
import os

import pytest

_SCRIPT = os.path.join(
    os.path.dirname(__file__), "..", "..", "benchmarks", "locomotion_learning.py"
)
_spec = importlib.util.spec_from_file_location("locomotion_learning", _SCRIPT)
assert _spec is not None and _spec.loader is not None, _SCRIPT
locomotion_learning = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(locomotion_learning)

# Return above the first evaluation that counts as learning: the untrained policy's
# evaluation returns lie within a few units of 1, a walker that learned to stay up
# for a few seconds gains over 100.
MIN_GAIN = 50.0
BUDGET_STEPS = 61_440
EVAL_EVERY = 30_720


@pytest.mark.slow
def test_a_short_ppo_run_on_the_open_plane_improves_on_its_first_evaluation(tmp_path):
    pytest.importorskip("suites.locomotion")
    rows = locomotion_learning.train(
        "walker_open_plane",
        BUDGET_STEPS,
        str(tmp_path),
        "walker_open_plane",
        seed=0,
        eval_every=EVAL_EVERY,
        eval_episodes=2,
    )
    assert int(rows[-1]["step"]) >= BUDGET_STEPS
    first = float(rows[0]["eval_return"])
    later = [float(row["eval_return"]) for row in rows[1:]]
    assert max(later) >= first + MIN_GAIN, rows
    # The run resumes from its checkpoint: one more period continues the curve.
    resumed = locomotion_learning.train(
        "walker_open_plane",
        BUDGET_STEPS + EVAL_EVERY,
        str(tmp_path),
        "walker_open_plane",
        seed=0,
        eval_every=EVAL_EVERY,
        eval_episodes=2,
    )
    assert [row["step"] for row in resumed[: len(rows)]] == [str(row["step"]) for row in rows]
    assert int(resumed[-1]["step"]) >= BUDGET_STEPS + EVAL_EVERY
