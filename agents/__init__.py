"""Reference agents for dm_env environments, written in JAX and optax.

Each algorithm reads top to bottom in its own file:

  d4pg.py        D4PG (Barth-Maron et al. 2018): deterministic actor, categorical
                 distributional critic, N-step returns, optional prioritised replay.
  ppo.py         PPO (Schulman et al. 2017) with GAE and running normalisation, and
                 DPPO-style synchronous gradient averaging over workers (Heess et al. 2017).
  distributed_d4pg.py   D4PG with K Ray actors, one replay actor and a learner.
  dppo.py        DPPO on Ray (Heess et al. 2017, Appendix A): W workers, a chief that
                 averages gradients once W - D are in, KL penalty and its adaptation.

The pieces they share:

  specs.py       flattening dict observations and scaling actions, from dm_env specs only.
  networks.py    multilayer perceptrons as plain parameter pytrees.
  replay.py      numpy ring buffer, sum tree, prioritised replay and the N-step writer.
  normalizer.py  running mean and variance with a parallel (Chan et al.) update.
  vector.py      the batched-environment convention and `LoopedBatch`.
  loop.py        the actor-environment loop for single and batched environments.
  evaluation.py  deterministic-policy evaluation over N episodes.
  checkpoint.py  checkpoint files: data only (.npz + JSON manifest), atomic, checksummed.
  csv_log.py     the metrics CSV.  plotting.py: learning curves.
  cluster.py     starting or joining Ray, with clear errors for bad addresses.
  experiment.py  a training run in a directory: metrics, checkpoints, plot, resume.
  train.py / evaluate.py   command-line entry points.

Agents see environments only through dm_env specs; the single place that loads
tasks of this project by name is `environments.py`.
"""
