"""Learning check (slow): D4PG balances the cart-pole.

Budget: 20,000 environment steps (20 episodes of 1000 steps) with D4PG's default
configuration on one environment, evaluated on 10 episodes at the end. In a run of
this configuration (seed 0, on 2 shared cores, about 8 ms per step), the evaluation
return was 791 after 5,000 steps and 998 after 10,000.
"""

import pytest

from agents import environments, experiment

STEP_BUDGET = 20_000


@pytest.mark.slow
def test_d4pg_reaches_700_on_cartpole_balance(tmp_path):
    pytest.importorskip("suites.suite")
    result = experiment.train(
        "d4pg",
        environments.factory("cartpole:balance"),
        STEP_BUDGET,
        seed=0,
        out_dir=str(tmp_path),
        env_name="cartpole:balance",
        eval_every=5_000,
        eval_episodes=10,
        progress=False,
    )
    assert result.env_steps == STEP_BUDGET
    assert result.final_eval_return >= 700, f"final evaluation return {result.final_eval_return}"
