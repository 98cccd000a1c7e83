"""Checkpoints written before the Config fields of issue 19 existed still resume.

A checkpoint stores its Config as a dict; one from before `d4pg.Config.updates_per_call`
or `ppo.Config.value_hidden_sizes` / `reward_normalization` / `reward_scale` lacks
those keys, and must resume with their defaults, which behave as the code did then.
"""

import os

import pytest

from agents import checkpoint, experiment

NEW_FIELDS = {
    "d4pg": ("updates_per_call",),
    "ppo": ("value_hidden_sizes", "reward_normalization", "reward_scale"),
}
TINY = {
    "d4pg": dict(
        actor_hidden_sizes=(32, 32),
        critic_hidden_sizes=(32, 32),
        batch_size=32,
        min_replay_size=64,
        replay_capacity=5000,
        target_update_period=10,
    ),
    "ppo": dict(hidden_sizes=(16, 16), rollout_steps=64, num_minibatches=4, update_epochs=2),
}


@pytest.mark.parametrize("agent", ["d4pg", "ppo"])
def test_a_checkpoint_without_the_new_fields_resumes(agent, double_integrator, tmp_path):
    make_env = lambda seed: double_integrator(seed)
    settings = dict(seed=1, num_envs=1, eval_every=100, eval_episodes=1, progress=False)
    out = str(tmp_path / "run")
    experiment.train(agent, make_env, 150, out_dir=out, config_overrides=TINY[agent], **settings)
    path = os.path.join(out, experiment.CHECKPOINT_FILE)
    payload = checkpoint.load(path)
    for name in NEW_FIELDS[agent]:
        del payload["config"][name]
    checkpoint.save(path, payload)
    resumed = experiment.train(agent, make_env, 200, out_dir=out, resume=True, **settings)
    assert resumed.env_steps == 200
    assert resumed.agent.config == experiment.make_config(agent, TINY[agent])
