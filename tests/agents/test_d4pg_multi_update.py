"""D4PG's K-update scan: the same state as K single updates, and the agent's schedule."""

import jax
import numpy as np
import pytest

from agents import d4pg, experiment, replay

# tests/agents/test_d4pg.py's configuration, so that a test session compiles
# `update` once; every scan here has NUM_UPDATES steps, so `update_many` compiles once.
TINY = dict(
    actor_hidden_sizes=(32, 32),
    critic_hidden_sizes=(32, 32),
    batch_size=32,
    min_replay_size=64,
    replay_capacity=5000,
    target_update_period=10,
)
NUM_UPDATES = 12


def _batches(rng: np.random.Generator, count: int) -> replay.Transitions:
    return replay.Transitions(
        observation=rng.normal(size=(count, 32, 2)).astype(np.float32),
        action=rng.uniform(-1, 1, size=(count, 32, 1)).astype(np.float32),
        reward=rng.uniform(size=(count, 32)).astype(np.float32),
        discount=np.full((count, 32), 0.99**5, np.float32),
        next_observation=rng.normal(size=(count, 32, 2)).astype(np.float32),
    )


def test_scan_of_k_updates_equals_k_single_updates():
    # A periodic target copy (every 10 updates) falls inside the 12, so the scan must
    # carry the update counter too.
    config = d4pg.learner_config(d4pg.Config(**TINY))
    start = d4pg.init_learner(np.random.default_rng(0), config, 2, 1)
    rng = np.random.default_rng(1)
    batches = _batches(rng, NUM_UPDATES)
    weights = rng.uniform(0.5, 1.0, size=(NUM_UPDATES, 32)).astype(np.float32)

    single, single_metrics, single_priorities = start, [], []
    for k in range(NUM_UPDATES):
        single, metrics, priorities = d4pg.update(
            single, jax.tree.map(lambda field: field[k], batches), weights[k], config=config
        )
        single_metrics.append(metrics)
        single_priorities.append(priorities)
    scanned, scanned_metrics, scanned_priorities = d4pg.update_many(
        start, batches, weights, config=config
    )
    assert int(scanned.num_updates) == NUM_UPDATES
    # Bit for bit: the scan's body is the same jitted `update`, and XLA on CPU
    # compiles it to the same arithmetic inside the loop.
    for one, many in zip(jax.tree.leaves(single), jax.tree.leaves(scanned)):
        np.testing.assert_array_equal(np.asarray(many), np.asarray(one))
    np.testing.assert_array_equal(np.asarray(scanned_priorities), np.stack(single_priorities))
    for name in scanned_metrics:
        np.testing.assert_array_equal(
            np.asarray(scanned_metrics[name]), np.array([m[name] for m in single_metrics])
        )


def test_scan_differs_from_the_same_updates_in_another_order():
    # The equality above is not vacuous: reordering the batches changes the result.
    config = d4pg.learner_config(d4pg.Config(**TINY))
    start = d4pg.init_learner(np.random.default_rng(0), config, 2, 1)
    batches = _batches(np.random.default_rng(1), NUM_UPDATES)
    weights = np.ones((NUM_UPDATES, 32), np.float32)
    forward, _, _ = d4pg.update_many(start, batches, weights, config=config)
    backward, _, _ = d4pg.update_many(
        start, jax.tree.map(lambda f: f[::-1], batches), weights, config=config
    )
    assert not np.allclose(
        np.asarray(jax.tree.leaves(forward.critic)[0]),
        np.asarray(jax.tree.leaves(backward.critic)[0]),
        atol=1e-7,
    )


def test_samples_per_insert_and_updates_per_call_settings():
    config = d4pg.Config(batch_size=64, updates_per_transition=0.5)
    assert config.samples_per_insert == 32.0
    with pytest.raises(ValueError, match="updates_per_call"):
        d4pg.Config(updates_per_call=0)
    # Schedule settings must not change the compiled learner.
    assert d4pg.learner_config(d4pg.Config(updates_per_call=8)) == d4pg.learner_config(
        d4pg.Config()
    )


@pytest.mark.parametrize("prioritized", [False, True])
def test_agent_makes_the_owed_updates_k_at_a_time(double_integrator, tmp_path, prioritized):
    make_env = lambda seed: double_integrator(seed)
    overrides = {
        **TINY,
        "updates_per_call": NUM_UPDATES,
        "updates_per_transition": 0.5,
        "prioritized_replay": prioritized,
    }
    result = experiment.train(
        "d4pg",
        make_env,
        num_steps=300,
        seed=0,
        out_dir=str(tmp_path),
        num_envs=2,
        config_overrides=overrides,
        eval_every=1000,
        eval_episodes=1,
        progress=False,
    )
    updates = result.agent.num_updates
    assert updates > 0 and updates % NUM_UPDATES == 0
    # Updates owed: 0.5 per transition inserted once replay holds 64 (the first
    # 64 + n_step x copies steps owe none); fewer than NUM_UPDATES wait.
    owed = 0.5 * (result.env_steps - 64 - 5 * 2)
    assert owed - NUM_UPDATES < updates <= 0.5 * result.env_steps


def test_k_updates_per_call_resume_exactly(double_integrator, assert_same_run, tmp_path):
    make_env = lambda seed: double_integrator(seed)
    settings = dict(
        seed=3,
        num_envs=2,
        config_overrides={**TINY, "updates_per_call": NUM_UPDATES},
        eval_every=100,
        eval_episodes=1,
        checkpoint_every=200,
        progress=False,
    )
    whole = experiment.train("d4pg", make_env, 400, out_dir=str(tmp_path / "whole"), **settings)
    experiment.train("d4pg", make_env, 200, out_dir=str(tmp_path / "split"), **settings)
    resumed = experiment.train(
        "d4pg", make_env, 400, out_dir=str(tmp_path / "split"), resume=True, **settings
    )
    assert_same_run(whole, resumed)
