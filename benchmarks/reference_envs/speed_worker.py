"""Steps/s of a reference implementation, run inside its own virtual environment.

Imports nothing of this project. Prints one JSON line: {"steps_per_second": ...}.

    .venvs/dm_control/bin/python benchmarks/reference_envs/speed_worker.py dm_control cartpole swingup 16 2.0 2
    .venvs/envpool/bin/python benchmarks/reference_envs/speed_worker.py envpool cartpole swingup 64 2.0 2
"""

import json
import sys
import time

import numpy as np


def _envpool_id(domain, task):
    camel = lambda name: "".join(part.capitalize() for part in name.split("_"))  # noqa: E731
    return f"{camel(domain)}{camel(task)}-v1"


def _time_loop(step, seconds, steps_per_call):
    step()  # Warm up (and compile, where something compiles).
    calls, start = 0, time.perf_counter()
    while True:
        step()
        calls += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return calls * steps_per_call / elapsed


def dm_control_rate(domain, task, num_envs, seconds):
    from dm_control import suite

    envs = [suite.load(domain, task, task_kwargs={"random": i}) for i in range(num_envs)]
    spec = envs[0].action_spec()
    # Unlimited controls (lqr's, bounded by +-1e10 in the spec) are drawn in [-1, 1].
    low = np.where(spec.minimum <= -1e10, -1.0, spec.minimum)
    high = np.where(spec.maximum >= 1e10, 1.0, spec.maximum)
    actions = np.random.RandomState(0).uniform(low, high, size=(1000, num_envs) + spec.shape)
    for env in envs:
        env.reset()
    counter = [0]

    def step():
        row = actions[counter[0] % len(actions)]
        for env, action in zip(envs, row):
            if env.step(action).last():
                env.reset()
        counter[0] += 1

    return _time_loop(step, seconds, num_envs)


def envpool_rate(domain, task, num_envs, seconds, num_threads):
    import envpool

    env = envpool.make_dm(_envpool_id(domain, task), num_envs=num_envs, num_threads=num_threads)
    spec = env.action_spec()
    actions = (
        np.random.RandomState(0)
        .uniform(spec.minimum, spec.maximum, size=(1000, num_envs) + spec.shape)
        .astype(spec.dtype)
    )
    env.reset()
    counter = [0]

    def step():
        env.step(actions[counter[0] % len(actions)])
        counter[0] += 1

    return _time_loop(step, seconds, num_envs)


def main(argv):
    implementation, domain, task, num_envs, seconds, num_threads = argv[1:7]
    num_envs, seconds, num_threads = int(num_envs), float(seconds), int(num_threads)
    if implementation == "dm_control":
        rate = dm_control_rate(domain, task, num_envs, seconds)
    elif implementation == "envpool":
        rate = envpool_rate(domain, task, num_envs, seconds, num_threads)
    else:
        raise SystemExit(f"unknown implementation {implementation!r}: dm_control or envpool")
    print(json.dumps({"steps_per_second": rate}))


if __name__ == "__main__":
    main(sys.argv)
