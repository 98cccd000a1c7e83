"""Learning benchmark: trains the reference agents on tasks x seeds; writes a CSV and a plot.

Each (agent, task, seed) is an ordinary run directory of agents/experiment.py under
--out, so an interrupted benchmark continues where it stopped when run again
(finished runs are read, not retrained). Then:

  results.csv    one row per run: final and best evaluation return, environment
                 steps, wall-clock seconds and seconds per environment step.
  summary.csv    per agent and task: mean and std over seeds of the final return,
                 and mean seconds per environment step.
  curves.png     evaluation return against steps, mean +- std over seeds, a panel per task.
  run_info.json  the command, the date, the machine and the versions.

    python benchmarks/learning/run.py --agents d4pg --seeds 0,1,2 --steps 100000 \
        --out benchmarks/learning/results/easy

`--agents d4pg,sac` also trains stable-baselines3's SAC as the baseline: each SAC run is
benchmarks/learning/sac_worker.py in a subprocess, in the PyTorch venv that
benchmarks/reference_envs/make_sb3_venv.sh makes (`--sb3-python`), with the same
steps, seeds and evaluation, and a run directory that is read the same way.
"""

import csv
import datetime
import json
import os
import platform
import subprocess
import sys
import time

from absl import app, flags
import jax
import mujoco
import numpy as np

from agents import checkpoint, csv_log, environments, experiment, plotting

# The easy set of issue 7: tasks an agent should solve within 100k-500k steps.
EASY_TASKS = [
    "cartpole:balance",
    "cartpole:swingup",
    "pendulum:swingup",
    "point_mass:easy",
    "reacher:easy",
    "walker:stand",
    "cheetah:run",
]
SAC = "sac"
_HERE = os.path.dirname(os.path.abspath(__file__))
SAC_WORKER = os.path.join(_HERE, "sac_worker.py")
SAC_STATE_FILE = "state.json"

_AGENTS = flags.DEFINE_list("agents", ["d4pg"], "Agents to train (d4pg, ppo, sac).")
_TASKS = flags.DEFINE_list("tasks", EASY_TASKS, "Tasks as domain:task.")
_SEEDS = flags.DEFINE_list("seeds", ["0", "1", "2"], "Seeds.")
_STEPS = flags.DEFINE_integer("steps", 100_000, "Environment steps per run.", lower_bound=1)
_NUM_ENVS = flags.DEFINE_integer("num-envs", 1, "Environment copies per run.", lower_bound=1)
_EVAL_EVERY = flags.DEFINE_integer(
    "eval-every", 10_000, "Steps between evaluations.", lower_bound=1
)
_EVAL_EPISODES = flags.DEFINE_integer(
    "eval-episodes", 10, "Episodes per evaluation.", lower_bound=1
)
_SET = flags.DEFINE_multi_string("set", [], "Config override agent.name=value, repeatable.")
_OUT = flags.DEFINE_string("out", "benchmarks/learning/results/latest", "Output directory.")
_PROGRESS = flags.DEFINE_bool("progress", True, "Show a progress bar per run.")
_SB3_PYTHON = flags.DEFINE_string(
    "sb3-python",
    os.path.join(os.path.dirname(os.path.dirname(_HERE)), ".venvs", "sb3", "bin", "python"),
    "Interpreter of the stable-baselines3 venv, for --agents sac.",
)


def overrides_for(agent_name: str, items: list[str]) -> dict[str, str]:
    """The --set items addressed to `agent_name` ('d4pg.sigma=0.2' -> {'sigma': '0.2'})."""
    overrides = {}
    for item in items:
        target, separator, value = item.partition("=")
        agent, dot, name = target.strip().partition(".")
        if not separator or not dot or not name:
            raise ValueError(f"--set {item!r} is not of the form agent.name=value.")
        if agent not in experiment.AGENTS:
            raise ValueError(
                f"--set {item!r} names agent {agent!r}; expected one of "
                f"{sorted(experiment.AGENTS)}."
            )
        if agent == agent_name:
            overrides[name] = value.strip()
    return overrides


def run_directory(agent: str, task: str, seed: int) -> str:
    return os.path.join(_OUT.value, agent, task.replace(":", "-"), f"seed{seed}")


def train_sac(task: str, seed: int, out_dir: str) -> None:
    """Trains (or resumes, or just reads) one SAC run in the stable-baselines3 venv."""
    done_steps = 0
    state_path = os.path.join(out_dir, SAC_STATE_FILE)
    if os.path.exists(state_path):
        with open(state_path) as file:
            done_steps = json.load(file)["env_steps"]
    if done_steps >= _STEPS.value:
        return
    print(f"sac on {task}, seed {seed}: training from step {done_steps}", flush=True)
    subprocess.run(
        [
            _SB3_PYTHON.value,
            SAC_WORKER,
            f"--task={task}",
            f"--seed={seed}",
            f"--steps={_STEPS.value}",
            f"--eval-every={_EVAL_EVERY.value}",
            f"--eval-episodes={_EVAL_EPISODES.value}",
            f"--out={out_dir}",
        ],
        check=True,
    )


def train_or_read(agent: str, task: str, seed: int) -> dict:
    """Trains (or resumes, or just reads) one run and returns its results row."""
    out_dir = run_directory(agent, task, seed)
    checkpoint_path = os.path.join(out_dir, experiment.CHECKPOINT_FILE)
    done_steps = 0
    if agent == SAC:
        train_sac(task, seed, out_dir)
        done_steps = _STEPS.value
    elif os.path.exists(checkpoint_path):
        done_steps = checkpoint.load(checkpoint_path)["loop_state"].env_steps
    if done_steps < _STEPS.value:
        print(f"{agent} on {task}, seed {seed}: training from step {done_steps}", flush=True)
        experiment.train(
            agent,
            environments.factory(task),
            _STEPS.value,
            seed,
            out_dir,
            env_name=task,
            num_envs=_NUM_ENVS.value,
            config_overrides=overrides_for(agent, _SET.value),
            eval_every=_EVAL_EVERY.value,
            eval_episodes=_EVAL_EPISODES.value,
            resume=done_steps > 0,
            overwrite=done_steps == 0,
            progress=_PROGRESS.value,
            make_batch=environments.batch_factory(task) if _NUM_ENVS.value > 1 else None,
        )
    rows = csv_log.read_rows(os.path.join(out_dir, experiment.METRICS_FILE))
    returns = [float(row["eval_return"]) for row in rows]
    steps = int(rows[-1]["step"])
    wall_time_s = float(rows[-1]["wall_time_s"])
    return {
        "agent": agent,
        "task": task,
        "seed": seed,
        "steps": steps,
        "final_return": returns[-1],
        "best_return": max(returns),
        "wall_time_s": wall_time_s,
        "wall_s_per_step": wall_time_s / max(steps, 1),
        "curve": ([int(row["step"]) for row in rows], returns),
    }


def mean_curve(curves: list[tuple]) -> tuple:
    """Mean and std over seeds at the evaluation steps all seeds share."""
    shared = sorted(set.intersection(*(set(steps) for steps, _ in curves)))
    values = np.array(
        [[dict(zip(steps, returns))[step] for step in shared] for steps, returns in curves]
    )
    return shared, values.mean(axis=0), values.std(axis=0)


def write_csv(path: str, rows: list[dict]) -> None:
    with open(path, "w", newline="") as file:
        writer = csv.DictWriter(file, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def main(argv):
    if len(argv) > 1:
        raise app.UsageError(f"unexpected arguments: {argv[1:]}")
    known = sorted(experiment.AGENTS) + [SAC]
    for item in _SET.value:
        if item.strip().startswith(SAC + "."):
            raise app.UsageError(
                f"--set {item!r}: the SAC baseline runs with "
                "stable-baselines3's defaults and takes no overrides."
            )
    for agent in _AGENTS.value:
        if agent not in known:
            raise app.UsageError(f"--agents: {agent!r} is not one of {known}")
        if agent != SAC:
            overrides_for(agent, _SET.value)
    if SAC in _AGENTS.value:
        if _NUM_ENVS.value != 1:
            raise app.UsageError(
                f"--num-envs {_NUM_ENVS.value} with sac: the SAC worker "
                "steps one environment; expected --num-envs 1."
            )
        if not os.access(_SB3_PYTHON.value, os.X_OK):
            raise app.UsageError(
                f"--sb3-python {_SB3_PYTHON.value!r} is not an executable; make the venv with "
                "benchmarks/reference_envs/make_sb3_venv.sh."
            )
    for task in _TASKS.value:
        environments.parse(task)
    seeds = [int(seed) for seed in _SEEDS.value]
    os.makedirs(_OUT.value, exist_ok=True)
    started = time.time()
    results = [
        train_or_read(agent, task, seed)
        for task in _TASKS.value
        for agent in _AGENTS.value
        for seed in seeds
    ]

    write_csv(
        os.path.join(_OUT.value, "results.csv"),
        [{key: value for key, value in row.items() if key != "curve"} for row in results],
    )
    summary, panels = [], {}
    for task in _TASKS.value:
        panels[task] = {}
        for agent in _AGENTS.value:
            runs = [row for row in results if row["agent"] == agent and row["task"] == task]
            finals = [row["final_return"] for row in runs]
            summary.append(
                {
                    "agent": agent,
                    "task": task,
                    "seeds": len(runs),
                    "steps": _STEPS.value,
                    "final_return_mean": float(np.mean(finals)),
                    "final_return_std": float(np.std(finals)),
                    "wall_s_per_step_mean": float(
                        np.mean([row["wall_s_per_step"] for row in runs])
                    ),
                }
            )
            panels[task][agent] = mean_curve([row["curve"] for row in runs])
    write_csv(os.path.join(_OUT.value, "summary.csv"), summary)
    plotting.plot_learning_curves(panels, os.path.join(_OUT.value, "curves.png"))
    versions = {"jax": jax.__version__, "mujoco": mujoco.__version__, "numpy": np.__version__}
    sac_runs = [row for row in results if row["agent"] == SAC]
    if sac_runs:
        config_path = os.path.join(
            run_directory(SAC, sac_runs[0]["task"], sac_runs[0]["seed"]), "config.json"
        )
        with open(config_path) as file:
            versions["sac"] = json.load(file)["implementation"]
    with open(os.path.join(_OUT.value, "run_info.json"), "w") as file:
        json.dump(
            {
                "command": " ".join([os.path.relpath(sys.argv[0])] + sys.argv[1:]),
                "date": datetime.datetime.now().isoformat(timespec="seconds"),
                "wall_time_s_this_invocation": round(time.time() - started, 1),
                "machine": {
                    "platform": platform.platform(),
                    "processor": platform.processor(),
                    "cpu_count": os.cpu_count(),
                    "python": platform.python_version(),
                },
                "versions": versions,
            },
            file,
            indent=2,
        )

    print(f"{'agent':6s} {'task':20s} {'final return (mean +- std)':>28s} {'ms/step':>8s}")
    for row in summary:
        print(
            f"{row['agent']:6s} {row['task']:20s} "
            f"{row['final_return_mean']:17.1f} +- {row['final_return_std']:6.1f} "
            f"{1e3 * row['wall_s_per_step_mean']:8.2f}"
        )
    print(f"wrote {_OUT.value}/results.csv, summary.csv, curves.png, run_info.json")


if __name__ == "__main__":
    app.run(main)
