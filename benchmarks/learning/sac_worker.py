"""Trains stable-baselines3 SAC on one suite task; the baseline of the learning benchmark.

Runs in the venv of benchmarks/reference_envs/make_sb3_venv.sh (PyTorch, CPU), not in
the project's environment; benchmarks/learning/run.py launches it as a subprocess for
`--agents ...,sac`. The task is reached through this project's Gymnasium adapter
(`suites.gym_registration`, flattened observations), and the run directory is laid out
like one of agents/experiment.py, so run.py reads both alike:

  metrics.csv   a row per evaluation: step, wall_time_s, eval_return, eval_return_std,
                train_return, train_episodes (the columns of agents/experiment.py).
  config.json   the SAC hyperparameters and the run settings.
  model.zip, replay.pkl, state.json   the checkpoint, written at every evaluation;
                a second invocation continues from it.

Matched to the D4PG runs of agents/experiment.py:
  * training environment seeded derived_seed(seed, 0, 0, 0); the evaluation at step n
    plays episode j on a new environment seeded derived_seed(seed, 1, n, j), so both
    agents are evaluated on the same initial states;
  * evaluation of the deterministic policy (SAC's mean action through tanh) on
    --eval-episodes episodes, the copies stepped together with one batched policy call,
    at step 0, every --eval-every steps and at the end;
  * wall_time_s counts training and the earlier evaluations, not the one being logged.

SAC hyperparameters are stable-baselines3's defaults (Haarnoja et al. 2018, "Soft
Actor-Critic Algorithms and Applications"): Adam 3e-4, batch 256, replay 1e6, 100
random steps before learning, one gradient step per environment step, tau 0.005,
discount 0.99, automatic entropy tuning with target entropy -|A|, (256, 256) ReLU MLPs.
PyTorch runs on the CPU with --torch-threads intra-op threads (1 by default).

    python benchmarks/learning/sac_worker.py --task cartpole:swingup --seed 0 \
        --steps 100000 --out runs/sac_swingup
"""

import json
import os
import tempfile
import time

from absl import app, flags
import gymnasium
import numpy as np
import stable_baselines3
import torch

import suites.gym_registration

_TASK = flags.DEFINE_string("task", None, "Task as domain:task.", required=True)
_SEED = flags.DEFINE_integer("seed", 0, "Seed.")
_STEPS = flags.DEFINE_integer("steps", 100_000, "Environment steps.", lower_bound=1)
_EVAL_EVERY = flags.DEFINE_integer(
    "eval-every", 10_000, "Steps between evaluations.", lower_bound=1
)
_EVAL_EPISODES = flags.DEFINE_integer(
    "eval-episodes", 10, "Episodes per evaluation.", lower_bound=1
)
_OUT = flags.DEFINE_string("out", None, "Run directory.", required=True)
_TORCH_THREADS = flags.DEFINE_integer(
    "torch-threads",
    1,
    "PyTorch intra-op threads. 1 by default: on 2 shared cores, 2 threads "
    "made SAC's updates about 4x slower (19 vs 73 ms per step, measured here).",
    lower_bound=1,
)

COLUMNS = (
    "step",
    "wall_time_s",
    "eval_return",
    "eval_return_std",
    "train_return",
    "train_episodes",
)
TRAIN_STREAM, EVAL_STREAM = 0, 1


def derived_seed(seed: int, *path: int) -> int:
    """agents.experiment.derived_seed, repeated here because that module needs JAX."""
    return int(np.random.SeedSequence([int(seed), *map(int, path)]).generate_state(1)[0])


def gymnasium_id(task: str) -> str:
    domain, separator, name = task.partition(":")
    if not separator or not domain or not name:
        raise ValueError(f"--task {task!r} is not of the form 'domain:task'.")
    return suites.gym_registration.gymnasium_id(domain, name)


def make_env(task: str, env_seed: int) -> gymnasium.Env:
    return gymnasium.make(
        gymnasium_id(task), task_kwargs={"random": int(env_seed)}, flatten_observations=True
    )


def evaluate(model, task: str, seeds: list[int]) -> np.ndarray:
    """Undiscounted returns of the deterministic policy, one episode per seed."""
    envs = [make_env(task, seed) for seed in seeds]
    observations = np.stack([env.reset()[0] for env in envs])
    returns = np.zeros(len(envs))
    running = np.ones(len(envs), bool)
    while running.any():
        actions, _ = model.predict(observations, deterministic=True)
        for index in np.flatnonzero(running):
            observation, reward, terminated, truncated, _ = envs[index].step(actions[index])
            observations[index] = observation
            returns[index] += reward
            running[index] = not (terminated or truncated)
    for env in envs:
        env.close()
    return returns


def write_json_atomically(path: str, payload: dict) -> None:
    handle, temporary = tempfile.mkstemp(dir=os.path.dirname(path), suffix=".tmp")
    with os.fdopen(handle, "w") as file:
        json.dump(payload, file, indent=2)
        file.flush()
        os.fsync(file.fileno())
    os.replace(temporary, path)


def main(argv):
    if len(argv) > 1:
        raise app.UsageError(f"unexpected arguments: {argv[1:]}")
    task, seed, num_steps = _TASK.value, _SEED.value, _STEPS.value
    torch.set_num_threads(_TORCH_THREADS.value)
    out_dir = _OUT.value
    os.makedirs(out_dir, exist_ok=True)
    paths = {
        name: os.path.join(out_dir, name)
        for name in ("metrics.csv", "config.json", "model.zip", "replay.pkl", "state.json")
    }

    env = make_env(task, derived_seed(seed, TRAIN_STREAM, 0, 0))
    state = {"env_steps": 0, "elapsed_s": 0.0, "episodes": 0, "rows": []}
    if os.path.exists(paths["state.json"]):
        with open(paths["state.json"]) as file:
            state = json.load(file)
        model = stable_baselines3.SAC.load(paths["model.zip"], env=env, device="cpu")
        model.load_replay_buffer(paths["replay.pkl"])
        # The episode in progress at the checkpoint is lost: the resumed run starts a
        # new one, on an environment seeded from the resume point.
        model.env.seed(derived_seed(seed, 2, state["env_steps"]))
        state["episodes"] = model._episode_num
        print(f"sac on {task}, seed {seed}: resuming from step {state['env_steps']}", flush=True)
    else:
        model = stable_baselines3.SAC("MlpPolicy", env, seed=seed, device="cpu", verbose=0)
        model.env.seed(derived_seed(seed, TRAIN_STREAM, 0, 0))
    write_json_atomically(
        paths["config.json"],
        {
            "agent": "sac",
            "env": task,
            "seed": seed,
            "num_steps": num_steps,
            "eval_every": _EVAL_EVERY.value,
            "eval_episodes": _EVAL_EPISODES.value,
            "implementation": f"stable-baselines3 {stable_baselines3.__version__}, "
            f"torch {torch.__version__}, {torch.get_num_threads()} threads",
            "config": {
                "learning_rate": model.learning_rate,
                "batch_size": model.batch_size,
                "buffer_size": model.buffer_size,
                "learning_starts": model.learning_starts,
                "tau": model.tau,
                "gamma": model.gamma,
                "train_freq": str(model.train_freq),
                "gradient_steps": model.gradient_steps,
                "ent_coef": "auto",
                "target_entropy": float(model.target_entropy),
                "net_arch": str(model.policy.net_arch),
            },
        },
    )

    def write_metrics():
        with open(paths["metrics.csv"], "w") as file:
            file.write(",".join(COLUMNS) + "\n")
            for row in state["rows"]:
                file.write(
                    ",".join("" if row[name] is None else repr(row[name]) for name in COLUMNS)
                    + "\n"
                )

    def evaluate_and_log():
        step = state["env_steps"]
        seeds = [
            derived_seed(seed, EVAL_STREAM, step, episode)
            for episode in range(_EVAL_EPISODES.value)
        ]
        returns = evaluate(model, task, seeds)
        new_episodes = model._episode_num - state["episodes"]
        recent = (
            [info["r"] for info in list(model.ep_info_buffer)[-new_episodes:]]
            if new_episodes > 0
            else []
        )
        state["episodes"] = model._episode_num
        state["rows"].append(
            {
                "step": step,
                "wall_time_s": round(state["elapsed_s"], 3),
                "eval_return": float(np.mean(returns)),
                "eval_return_std": float(np.std(returns)),
                "train_return": float(np.mean(recent)) if recent else None,
                "train_episodes": new_episodes,
            }
        )
        write_metrics()
        print(
            f"step {step}: eval return {np.mean(returns):.1f}, {state['elapsed_s']:.0f} s",
            flush=True,
        )

    def save_checkpoint():
        model.save(paths["model.zip"])
        model.save_replay_buffer(paths["replay.pkl"])
        state["episodes"] = model._episode_num
        write_json_atomically(paths["state.json"], state)

    started = time.perf_counter()
    elapsed_before = state["elapsed_s"]
    if not state["rows"]:
        evaluate_and_log()
    while state["env_steps"] < num_steps:
        chunk = min(
            _EVAL_EVERY.value - state["env_steps"] % _EVAL_EVERY.value,
            num_steps - state["env_steps"],
        )
        # Only a fresh run starts its counters at 0; a loaded model keeps its step count
        # and, having no last observation, starts a new episode.
        model.learn(
            total_timesteps=chunk, reset_num_timesteps=state["env_steps"] == 0, progress_bar=False
        )
        state["env_steps"] = int(model.num_timesteps)
        state["elapsed_s"] = elapsed_before + time.perf_counter() - started
        evaluate_and_log()
        state["elapsed_s"] = elapsed_before + time.perf_counter() - started
        save_checkpoint()


if __name__ == "__main__":
    app.run(main)
