"""Distributed D4PG throughput: K = 1 and 2 Ray actors against the single-process agent.

  PYTHONPATH=. python benchmarks/distributed_throughput.py [--steps 3000]
  PYTHONPATH=. python benchmarks/distributed_throughput.py --part race \
      [--race_env cartpole:swingup --race_target 800 --race_cap_s 1500]

Runs, in one process and one after another on the same machine (so that the
ratios are comparable even on a noisy machine):

  * the single-process D4PG (`agents.experiment.train`, one environment copy),
  * distributed D4PG with K = 1 and K = 2 actors (`agents.distributed_d4pg.train`,
    one copy per actor) on one local Ray instance started once,

each for --steps environment steps on cartpole:balance with D4PG's default
networks, and records environment steps per second and learner updates per second
(over the whole run after the step-0 evaluation; evaluations are one episode at
the start and the end). It also records Ray's overhead per parameter broadcast
(`ray.put` of the actor parameters and an actor fetching them, minus an empty
call) and per replay insert (one `ReplayServer.add` call of a 200-transition
chunk, against `ReplayBuffer.add` in process). Writes
benchmarks/results/distributed_throughput.csv.

`--part race` measures the wall-clock to reach an evaluation return of
--race_target on --race_env, single process against 2 actors, one run after the
other: each is the command `python -m agents.train --agent d4pg ...` (with
`--actors 2` for the distributed one) in a subprocess, evaluated every
--race_eval_every steps; the race stops a run with SIGINT (a clean stop with a
checkpoint) once a row of its metrics.csv reaches the target, or once
--race_cap_s seconds have passed. The time is the `wall_time_s` of the first row
at or above the target (training and evaluations up to it). Writes
benchmarks/results/distributed_race.csv.
"""

import os
import signal
import subprocess
import sys
import tempfile
import time

import _timing
import jax
import numpy as np
from absl import app, flags

from agents import (
    cluster,
    csv_log,
    d4pg,
    distributed_d4pg,
    environments,
    experiment,
    replay,
)

_STEPS = flags.DEFINE_integer("steps", 3000, "Environment steps per run.")
_ENV = flags.DEFINE_string("env", "cartpole:balance", "Environment name.")
_OUT = flags.DEFINE_string(
    "out",
    os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "results", "distributed_throughput.csv"
    ),
    "Results CSV.",
)
_PART = flags.DEFINE_enum(
    "part",
    "throughput",
    ["throughput", "race"],
    "throughput: steps/s and Ray overheads; race: time to a return.",
)
_RACE_ENV = flags.DEFINE_string("race_env", "cartpole:swingup", "Environment of the race.")
_RACE_TARGET = flags.DEFINE_float("race_target", 800.0, "Evaluation return to reach.")
_RACE_CAP_S = flags.DEFINE_float("race_cap_s", 1500.0, "Wall-clock cap per run, seconds.")
_RACE_STEPS = flags.DEFINE_integer("race_steps", 200_000, "Step budget per run.")
_RACE_EVAL_EVERY = flags.DEFINE_integer("race_eval_every", 10_000, "Steps between evaluations.")
_RACE_OUT = flags.DEFINE_string(
    "race_out",
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "results", "distributed_race.csv"),
    "Race results CSV.",
)
# Seconds between looks at a racing run's metrics.csv.
RACE_POLL_S = 5.0
# Seconds a stopped run may take to write its checkpoint and shut Ray down.
RACE_STOP_GRACE_S = 120.0
# Learning starts early so that most of a short run has the learner busy.
OVERRIDES = {"min_replay_size": 500}
CHUNK = 200


def _rates(metrics_path: str, num_steps: int, num_updates: int) -> tuple[float, float]:
    """(env steps/s, updates/s) between the step-0 row and the last row's wall time."""
    rows = csv_log.read_rows(metrics_path)
    seconds = float(rows[-1]["wall_time_s"]) - float(rows[0]["wall_time_s"])
    return num_steps / seconds, num_updates / seconds


class _Echo:
    """A Ray actor that receives an argument and returns nothing (call overhead)."""

    def take(self, value) -> None:
        del value


def ray_overheads(ray, boundary_sizes: tuple[int, int]) -> list[tuple[str, float]]:
    """Microseconds per parameter broadcast and per replay insert through Ray."""
    observation_size, action_size = boundary_sizes
    config = d4pg.Config()
    learner = d4pg.Learner(config, observation_size, action_size, np.random.default_rng(0))
    params = learner.state_dict().actor
    echo = ray.remote(num_cpus=0)(_Echo).remote()
    ray.get(echo.take.remote(None))

    def timed(call, repeats=50) -> float:
        call()
        started = time.perf_counter()
        for _ in range(repeats):
            call()
        return (time.perf_counter() - started) / repeats * 1e6

    empty_call = timed(lambda: ray.get(echo.take.remote(None)))
    broadcast = timed(lambda: ray.get(echo.take.remote(ray.put(params))))
    rng = np.random.default_rng(0)
    chunk = replay.Transitions(
        observation=rng.normal(size=(CHUNK, observation_size)).astype(np.float32),
        action=rng.uniform(-1, 1, size=(CHUNK, action_size)).astype(np.float32),
        reward=rng.uniform(size=CHUNK).astype(np.float32),
        discount=np.full(CHUNK, 0.95, np.float32),
        next_observation=rng.normal(size=(CHUNK, observation_size)).astype(np.float32),
    )
    server = ray.remote(num_cpus=0)(distributed_d4pg.ReplayServer).remote(
        config, observation_size, action_size, 0
    )
    remote_insert = timed(lambda: ray.get(server.add.remote(chunk)))
    local = d4pg.make_replay(config, observation_size, action_size)
    local_insert = timed(lambda: local.add(chunk))
    ray.kill(echo)
    ray.kill(server)
    parameter_bytes = sum(leaf.nbytes for leaf in jax.tree.leaves(params))
    return [
        ("ray_empty_call_us", round(empty_call, 1)),
        ("ray_parameter_broadcast_us", round(broadcast - empty_call, 1)),
        ("actor_parameter_bytes", parameter_bytes),
        (f"ray_replay_insert_{CHUNK}_us", round(remote_insert, 1)),
        (f"local_replay_insert_{CHUNK}_us", round(local_insert, 1)),
    ]


def race_command(out_dir: str, num_actors: int | None) -> list[str]:
    """The training command of one race run (2 actors on Ray, or one process)."""
    command = [
        sys.executable,
        "-m",
        "agents.train",
        "--agent",
        "d4pg",
        "--env",
        _RACE_ENV.value,
        "--steps",
        str(_RACE_STEPS.value),
        "--seed",
        "0",
        "--out",
        out_dir,
        "--eval-every",
        str(_RACE_EVAL_EVERY.value),
        "--eval-episodes",
        "5",
        "--noprogress",
    ]
    return command + (["--actors", str(num_actors)] if num_actors else [])


def race(out_dir: str, num_actors: int | None) -> tuple[float | None, int | None, float]:
    """Runs one race; (seconds to the target or None, its step or None, best return)."""
    metrics = os.path.join(out_dir, experiment.METRICS_FILE)
    process = subprocess.Popen(race_command(out_dir, num_actors), stdout=subprocess.DEVNULL)
    started = time.monotonic()
    reached, best = None, float("-inf")
    try:
        while process.poll() is None:
            time.sleep(RACE_POLL_S)
            rows = csv_log.read_rows(metrics) if os.path.exists(metrics) else []
            for row in rows:
                best = max(best, float(row["eval_return"]))
                if reached is None and float(row["eval_return"]) >= _RACE_TARGET.value:
                    reached = (float(row["wall_time_s"]), int(row["step"]))
            if reached is not None or time.monotonic() - started > _RACE_CAP_S.value:
                process.send_signal(signal.SIGINT)
                process.wait(timeout=RACE_STOP_GRACE_S)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    for row in csv_log.read_rows(metrics) if os.path.exists(metrics) else []:
        best = max(best, float(row["eval_return"]))
        if reached is None and float(row["eval_return"]) >= _RACE_TARGET.value:
            reached = (float(row["wall_time_s"]), int(row["step"]))
    return (*(reached or (None, None)), best)


def main_race() -> None:
    rows = [
        ("env", _RACE_ENV.value),
        ("target_return", _RACE_TARGET.value),
        ("cap_s_per_run", _RACE_CAP_S.value),
        ("eval_every", _RACE_EVAL_EVERY.value),
        ("date_utc", time.strftime("%Y-%m-%d %H:%M", time.gmtime())),
        ("load_average_1min_at_start", round(os.getloadavg()[0], 2)),
    ]
    with tempfile.TemporaryDirectory() as scratch:
        for name, num_actors in (("single_process", None), ("ray_k2", 2)):
            seconds, step, best = race(os.path.join(scratch, name), num_actors)
            rows += [
                (f"{name}_seconds_to_target", "not reached" if seconds is None else seconds),
                (f"{name}_step_at_target", "not reached" if step is None else step),
                (f"{name}_best_eval_return", round(best, 1)),
            ]
            print(rows[-3:], flush=True)
    rows.append(("load_average_1min_at_end", round(os.getloadavg()[0], 2)))
    _timing.write_measures(_RACE_OUT.value, rows)
    for name, value in rows:
        print(f"{name}: {value}")


def main(argv):
    del argv
    if _PART.value == "race":
        main_race()
        return
    steps, env_name = _STEPS.value, _ENV.value
    rows = [
        ("steps_per_run", steps),
        ("env", env_name),
        ("date_utc", time.strftime("%Y-%m-%d %H:%M", time.gmtime())),
        ("load_average_1min_at_start", round(os.getloadavg()[0], 2)),
    ]
    settings = dict(config_overrides=OVERRIDES, eval_every=steps, eval_episodes=1, progress=False)
    with tempfile.TemporaryDirectory() as scratch:
        single = experiment.train(
            "d4pg",
            environments.factory(env_name),
            steps,
            0,
            os.path.join(scratch, "single"),
            env_name=env_name,
            **settings,
        )
        env_rate, update_rate = _rates(single.metrics_path, steps, single.agent.num_updates)
        rows += [
            ("single_process_env_steps_per_s", round(env_rate, 1)),
            ("single_process_updates_per_s", round(update_rate, 1)),
        ]
        cluster.connect(None, num_cpus=2)
        import ray  # pylint: disable=import-outside-toplevel

        for num_actors in (1, 2):
            result = distributed_d4pg.train(
                env_name,
                steps,
                0,
                os.path.join(scratch, f"k{num_actors}"),
                num_actors=num_actors,
                chunk_steps=CHUNK,
                **settings,
            )
            env_rate, update_rate = _rates(result.metrics_path, steps, result.agent.num_updates)
            rows += [
                (f"ray_k{num_actors}_env_steps_per_s", round(env_rate, 1)),
                (f"ray_k{num_actors}_updates_per_s", round(update_rate, 1)),
            ]
        probe = environments.load(env_name, 0)
        sizes = (
            experiment.specs.observation_layout(probe.observation_spec()).size,
            experiment.specs.action_bounds(probe.action_spec()).size,
        )
        rows += ray_overheads(ray, sizes)
        rows.append(("load_average_1min_at_end", round(os.getloadavg()[0], 2)))
        ray.shutdown()
    _timing.write_measures(_OUT.value, rows)
    for name, value in rows:
        print(f"{name}: {value}")


if __name__ == "__main__":
    app.run(main)
