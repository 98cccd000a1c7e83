r"""D4PG learner throughput: updates per second with K updates per jitted call.

  python benchmarks/d4pg_learner_speed.py [--calls_k 1,8,32] [--updates 256] [--repeats 3]

For each K, `--updates` updates of `d4pg.D4PG`'s learner on batches sampled from a
replay of random cartpole-sized transitions (5 observations, 1 action), with the
default Config (256 x 256 networks, batch 256): K = 1 calls `Learner.step` once per
update, as the agent did before `updates_per_call`; K > 1 calls `Learner.step_many`
once per K updates. Sampling from replay is included, as in the agent. The K values
are interleaved over `--repeats` rounds so that a shared machine's load affects each
alike; the median rate of each K and its ratio to K = 1 are printed and written to
benchmarks/results/d4pg_learner_speed.csv.
"""

import argparse
import csv
import os
import statistics
import sys
import time

import jax
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from agents import d4pg, replay  # noqa: E402

OBSERVATION_SIZE, ACTION_SIZE = 5, 1  # cartpole: position, cos/sin angle, 2 velocities


def _replay(size: int, rng: np.random.Generator) -> replay.ReplayBuffer:
    buffer = replay.ReplayBuffer(size, OBSERVATION_SIZE, ACTION_SIZE)
    buffer.add(
        replay.Transitions(
            observation=rng.normal(size=(size, OBSERVATION_SIZE)).astype(np.float32),
            action=rng.uniform(-1, 1, size=(size, ACTION_SIZE)).astype(np.float32),
            reward=rng.uniform(size=size).astype(np.float32),
            discount=np.full(size, 0.99**5, np.float32),
            next_observation=rng.normal(size=(size, OBSERVATION_SIZE)).astype(np.float32),
        )
    )
    return buffer


def updates_per_second(
    learner: d4pg.Learner,
    buffer,
    k: int,
    num_updates: int,
    rng: np.random.Generator,
    batch_size: int,
) -> float:
    started = time.perf_counter()
    for _ in range(num_updates // k):
        samples = [buffer.sample(batch_size, rng) for _ in range(k)]
        if k == 1:
            batch, _, weights = samples[0]
            learner.step(batch, weights)
        else:
            batches = replay.Transitions(
                *(np.stack(field) for field in zip(*(batch for batch, _, _ in samples)))
            )
            learner.step_many(batches, np.stack([w for _, _, w in samples]))
    jax.block_until_ready(learner.state)
    return (num_updates // k) * k / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls_k", default="1,8,32")
    parser.add_argument("--updates", type=int, default=256)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--out", default=os.path.join("benchmarks", "results", "d4pg_learner_speed.csv")
    )
    args = parser.parse_args()
    ks = [int(k) for k in args.calls_k.split(",")]
    if any(k < 1 or args.updates % k for k in ks):
        raise ValueError(
            f"--calls_k {ks}: each K must be >= 1 and divide --updates {args.updates}."
        )
    config = d4pg.Config()
    rng = np.random.default_rng(0)
    buffer = _replay(100_000, rng)
    learner = d4pg.Learner(config, OBSERVATION_SIZE, ACTION_SIZE, np.random.default_rng(0))
    for k in ks:  # compile each K before timing
        updates_per_second(learner, buffer, k, k, rng, config.batch_size)
    rates = {k: [] for k in ks}
    for _ in range(args.repeats):
        for k in ks:
            rates[k].append(
                updates_per_second(learner, buffer, k, args.updates, rng, config.batch_size)
            )
    base = statistics.median(rates[ks[0]])
    rows = []
    load = os.getloadavg()[0]
    print(f"load average {load:.1f} on {os.cpu_count()} cpus")
    for k in ks:
        median = statistics.median(rates[k])
        rows.append(
            {
                "k": k,
                "median_updates_per_s": round(median, 1),
                "ratio_to_first": round(median / base, 2),
                "all_updates_per_s": " ".join(f"{r:.1f}" for r in rates[k]),
                "load_average": round(load, 2),
            }
        )
        print(f"K = {k:3d}: {median:8.1f} updates/s  (x{median / base:.2f})")
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w", newline="") as file:
        writer = csv.DictWriter(file, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


if __name__ == "__main__":
    main()
