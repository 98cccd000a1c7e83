"""D4PG: the categorical projection by hand, target updates, and training smoke tests."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from agents import d4pg, experiment

SUPPORT = jnp.array([0.0, 1.0, 2.0, 3.0, 4.0])

# One tiny configuration for every smoke test, so that `update` compiles once per
# observation size.
TINY = dict(
    actor_hidden_sizes=(32, 32),
    critic_hidden_sizes=(32, 32),
    batch_size=32,
    min_replay_size=64,
    replay_capacity=5000,
    target_update_period=10,
)


_projection = jax.jit(d4pg.categorical_projection)


def _project(atoms, probabilities, support=SUPPORT):
    return np.asarray(
        _projection(
            jnp.asarray([atoms], jnp.float32), jnp.asarray([probabilities], jnp.float32), support
        )
    )[0]


@pytest.mark.parametrize(
    "atoms, probabilities, expected",
    [
        # Shifted by one atom: the mass moves along; what falls beyond v_max stays at v_max.
        ([1, 2, 3, 4, 5], [0.1, 0.2, 0.3, 0.4, 0.0], [0.0, 0.1, 0.2, 0.3, 0.4]),
        ([1, 2, 3, 4, 5], [0.1, 0.2, 0.3, 0.2, 0.2], [0.0, 0.1, 0.2, 0.3, 0.4]),
        # Half-way between two atoms: split evenly; a quarter of the way: 3/4 and 1/4.
        ([0.5, 0.5, 0.5, 0.5, 0.5], [1.0, 0.0, 0.0, 0.0, 0.0], [0.5, 0.5, 0.0, 0.0, 0.0]),
        ([2.25, 0, 0, 0, 0], [1.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.75, 0.25, 0.0]),
        # Below v_min: clipped onto the first atom.
        ([-3, -2, -1, 0, 1], [0.2, 0.2, 0.2, 0.2, 0.2], [0.8, 0.2, 0.0, 0.0, 0.0]),
        # A terminal step (discount 0) collapses everything onto the reward, 1.5.
        ([1.5, 1.5, 1.5, 1.5, 1.5], [0.2, 0.2, 0.2, 0.2, 0.2], [0.0, 0.5, 0.5, 0.0, 0.0]),
    ],
)
def test_projection_by_hand(atoms, probabilities, expected):
    np.testing.assert_allclose(_project(atoms, probabilities), expected, atol=1e-6)


def test_projection_of_a_contracted_distribution():
    # Support [-2, 2]; reward 0 and gamma 0.5 move the atoms to [-1, -0.5, 0, 0.5, 1].
    support = jnp.array([-2.0, -1.0, 0.0, 1.0, 2.0])
    atoms = 0.0 + 0.5 * np.asarray(support)
    np.testing.assert_allclose(
        _project(atoms, [0.2] * 5, support), [0.0, 0.3, 0.4, 0.3, 0.0], atol=1e-6
    )


def test_projection_keeps_mass_and_mean_inside_the_support():
    rng = np.random.default_rng(0)
    probabilities = rng.dirichlet(np.ones(5), size=16).astype(np.float32)
    atoms = rng.uniform(0.0, 4.0, size=(16, 5)).astype(np.float32)
    projected = np.asarray(_projection(atoms, probabilities, SUPPORT))
    np.testing.assert_allclose(projected.sum(axis=1), 1.0, rtol=1e-5)
    # Linear interpolation between neighbours preserves the mean exactly.
    np.testing.assert_allclose(
        projected @ np.asarray(SUPPORT), np.sum(atoms * probabilities, axis=1), rtol=1e-5
    )


def test_target_updates_periodic_and_soft():
    target = {"w": jnp.zeros(3)}
    online = {"w": jnp.ones(3)}
    periodic = d4pg.Config(target_update="periodic", target_update_period=4)
    assert float(d4pg.update_target(target, online, jnp.array(3), periodic)["w"][0]) == 0.0
    assert float(d4pg.update_target(target, online, jnp.array(8), periodic)["w"][0]) == 1.0
    soft = d4pg.Config(target_update="soft", target_update_rate=0.25)
    np.testing.assert_allclose(d4pg.update_target(target, online, jnp.array(1), soft)["w"], 0.25)


def test_config_rejects_bad_values():
    with pytest.raises(ValueError, match="v_min"):
        d4pg.Config(v_min=1.0, v_max=0.0)
    with pytest.raises(ValueError, match="target_update"):
        d4pg.Config(target_update="sometimes")
    with pytest.raises(ValueError, match="batch_size"):
        d4pg.Config(batch_size=0)
    assert d4pg.Config(num_atoms=101).support.shape == (101,)


def test_learner_copies_targets_every_period(double_integrator):
    env = double_integrator(0)
    config = d4pg.learner_config(d4pg.Config(**TINY))
    agent = d4pg.D4PG(config, env.observation_spec(), env.action_spec(), num_envs=1, seed=0)
    learner = agent.learner.state
    rng = np.random.default_rng(0)
    batch = d4pg.replay.Transitions(
        observation=rng.normal(size=(32, 2)).astype(np.float32),
        action=rng.uniform(-1, 1, size=(32, 1)).astype(np.float32),
        reward=rng.uniform(size=32).astype(np.float32),
        discount=np.full(32, 0.99**5, np.float32),
        next_observation=rng.normal(size=(32, 2)).astype(np.float32),
    )
    weights = np.ones(32, np.float32)
    for _ in range(9):
        learner, metrics, priorities = d4pg.update(learner, batch, weights, config=config)
    same = jax.tree.map(
        lambda a, b: bool(jnp.all(a == b)), learner.target_critic, agent.learner.state.critic
    )
    assert all(jax.tree.leaves(same)), "targets must not move before the period ends"
    learner, metrics, priorities = d4pg.update(learner, batch, weights, config=config)
    copied = jax.tree.map(lambda a, b: bool(jnp.all(a == b)), learner.target_critic, learner.critic)
    assert all(jax.tree.leaves(copied))
    assert priorities.shape == (32,) and np.all(np.asarray(priorities) > 0)
    assert np.isfinite(float(metrics["critic_loss"]))


@pytest.mark.parametrize("num_envs, prioritized", [(1, False), (3, True)])
def test_d4pg_trains_single_and_batched(make_env, check_run, tmp_path, num_envs, prioritized):
    result = experiment.train(
        "d4pg",
        make_env,
        num_steps=300,
        seed=0,
        out_dir=str(tmp_path),
        num_envs=num_envs,
        config_overrides={**TINY, "prioritized_replay": prioritized},
        eval_every=1000,
        eval_episodes=1,
        progress=False,
    )
    assert result.env_steps >= 300
    assert result.agent.num_updates >= 300 - 64 - 5 * num_envs
    check_run(result, d4pg.D4PG.metric_names)


def test_d4pg_resume_repeats_the_uninterrupted_run(double_integrator, assert_same_run, tmp_path):
    make_env = lambda seed: double_integrator(seed)
    settings = dict(
        seed=3,
        num_envs=2,
        config_overrides=TINY,
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
