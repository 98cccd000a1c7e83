"""Steps per second of BatchEnvironment's MuJoCo Warp backend against raw MuJoCo Warp.

For each domain and number of copies N, in one process:

  * warp batch: `suite.load_batch(domain, task, N, backend="warp", device=...)`'s
    step loop (controls written, the task's substeps, observations, reward and
    episode outcome of all copies, TimeSteps as NumPy), with uniform random actions;
  * raw warp: `mujoco_warp.step` on `put_model`/`put_data` of the same model, the
    same substeps per control step as the batch (`step2`, `step` x (n - 1),
    `step1`, as `Physics.step`), captured once as a CUDA graph and replayed, the
    same buffer sizes, no controls written and nothing read back;
  * cpu batch: the CPU batch (`mujoco.batch` threads) at the sizes up to
    `--cpu-max-size`;
  * ppo on device: PPO training on the Warp batch without leaving the device
    (`agents.ppo.DevicePPO` on `WarpOptions(array_module="jax", return_jax=True)`):
    environment steps per second over one whole rollout and its update (acting,
    stepping, GAE and the gradient steps), timed after a first rollout and update
    that compile. Settings: the scaled mujoco_playground preset of the task
    (`agents.presets.playground_ppo_overrides`: 16 epochs of 32 minibatches) with
    `--ppo-steps-per-copy` control steps per copy per rollout (the preset's 480 by
    default), so that a rollout holds N x those steps. Needs jax and optax besides
    the packages below; without them the column says why it is empty.

Figures are control steps of all copies per second (N x control steps / s); one
control step is the task's physics substeps. Episodes do not end inside the timed
window (the tasks' time limit is lifted), so the step loop is timed alone; the
cost of resetting copies (their Composer lifecycle on the CPU, then an upload) is
timed separately as seconds per copy by `BatchEnvironment.reset()`, and the
"with resets" column charges one reset per copy every `--episode-steps` steps.

Building a batch of N copies builds N Composer environments on the CPU (tens of
milliseconds each); sizes whose estimated building and timing would overrun this
domain's share of `--budget-seconds` (the run's wall clock) are skipped and
recorded as skipped, never extrapolated. Only Warp on a CUDA device gives GPU
figures: with `--device cpu` the table is labelled as Warp's CPU device, a
correctness run and not a performance figure.

Needs only numpy, mujoco, mujoco-warp, warp-lang, dm-env, absl-py and etils
(besides this project's code), and jax and optax for the PPO column:

    python benchmarks/gpu_throughput.py --device cuda:0 --out gpu_throughput.json
    python benchmarks/gpu_throughput.py --device cpu --sizes 4 16 --domains cartpole --seconds 1

`--agreement cartpole:swingup cheetah:run ...` instead measures how far the Warp
batch's steps are from the CPU batch's (correctness, on any device).
"""

import argparse
import json
import os
import platform
import sys
import time
from typing import Any, Optional

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

_TASKS = {"cartpole": "swingup", "cheetah": "run", "humanoid": "run"}
_DEFAULT_SIZES = (64, 256, 1024, 4096, 8192)


def _parse(argv: Optional[list[str]]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--device", default="cuda:0", help="Warp device: cuda:0, cpu, ...")
    parser.add_argument("--sizes", type=int, nargs="+", default=list(_DEFAULT_SIZES))
    parser.add_argument("--domains", nargs="+", default=list(_TASKS), choices=sorted(_TASKS))
    parser.add_argument("--seconds", type=float, default=3.0, help="timed seconds per figure")
    parser.add_argument("--cpu-max-size", type=int, default=1024, help="largest N of the CPU batch")
    parser.add_argument(
        "--episode-steps", type=int, default=1000, help="for the with-resets column"
    )
    parser.add_argument(
        "--budget-seconds",
        type=float,
        default=300.0,
        help="wall-clock budget of the whole run; sizes that would overrun it are skipped",
    )
    parser.add_argument(
        "--ppo-steps-per-copy",
        type=int,
        default=None,
        help="control steps per copy in each PPO rollout (default: the preset's, 480)",
    )
    parser.add_argument(
        "--no-ppo", action="store_true", help="leave out the PPO-on-device training rate"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="gpu_throughput.json", help="JSON result file")
    parser.add_argument(
        "--agreement",
        nargs="+",
        metavar="DOMAIN:TASK",
        help="instead of timing: how far the Warp batch's steps are from the CPU batch's "
        "(max |difference| of qpos, observations and reward) for these suite tasks",
    )
    parser.add_argument("--agreement-copies", type=int, default=8)
    parser.add_argument("--agreement-steps", type=int, default=100)
    args = parser.parse_args(argv)
    if any(size < 1 for size in args.sizes):
        parser.error(f"--sizes must be >= 1, got {args.sizes}")
    if args.seconds <= 0:
        parser.error(f"--seconds must be > 0, got {args.seconds}")
    if args.ppo_steps_per_copy is not None and args.ppo_steps_per_copy < 1:
        parser.error(f"--ppo-steps-per-copy must be >= 1, got {args.ppo_steps_per_copy}")
    return args


def _timed(step, seconds: float, synchronize=None, block: int = 1) -> tuple[int, float]:
    """Runs `step()` in blocks of `block` calls, each followed by `synchronize()`, after
    one untimed block, until `seconds` pass; returns (calls, elapsed seconds)."""

    def run_block():
        for _ in range(block):
            step()
        if synchronize is not None:
            synchronize()

    run_block()
    calls, start = 0, time.perf_counter()
    while True:
        run_block()
        calls += block
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return calls, elapsed


def _raw_warp(model, data, num_envs: int, nstep: int, nconmax: int, njmax: int, device, seconds):
    """Control steps per second of bare MuJoCo Warp on `model` from `data`'s state."""
    import mujoco
    import mujoco_warp
    import warp

    with warp.ScopedDevice(device):
        warp_model = mujoco_warp.put_model(model)
        warp_model.opt.warn_overflow = 0
        warp_data = mujoco_warp.put_data(model, data, nworld=num_envs, nconmax=nconmax, njmax=njmax)
        rk4 = model.opt.integrator == mujoco.mjtIntegrator.mjINT_RK4

        def substeps():
            if rk4:
                for _ in range(nstep):
                    mujoco_warp.step(warp_model, warp_data)
            else:
                mujoco_warp.step2(warp_model, warp_data)
                for _ in range(nstep - 1):
                    mujoco_warp.step(warp_model, warp_data)
            mujoco_warp.step1(warp_model, warp_data)

        if device.is_cuda:
            substeps()  # compiles (capture cannot)
            with warp.ScopedCapture() as capture:
                substeps()
            graph = capture.graph

            def step():
                warp.capture_launch(graph)
        else:
            step = substeps

        # A GPU's queue is kept full: synchronised once per block of 20 control steps.
        calls, elapsed = _timed(
            step, seconds, lambda: warp.synchronize_device(device), 20 if device.is_cuda else 1
        )
        overflow = int(np.bitwise_or.reduce(warp_data.overflow.numpy()))
    return num_envs * calls / elapsed, overflow


def _batch_steps(batch, seconds: float, seed: int) -> float:
    spec = batch.action_spec()
    actions = (
        np.random.default_rng(seed)
        .uniform(spec.minimum, spec.maximum, size=(16, batch.num_envs) + spec.shape)
        .astype(spec.dtype)
    )
    counter = [0]

    def step():
        batch.step(actions[counter[0] % len(actions)])
        counter[0] += 1

    calls, elapsed = _timed(step, seconds)
    return batch.num_envs * calls / elapsed


def _ppo_on_device(
    domain: str, num_envs: int, args: argparse.Namespace, estimate_s: Any, left_s: float
) -> dict:
    """{"ppo_on_device": environment steps per second of PPO training on the device,
    "ppo_first_update_s": the first rollout and update, compiles included}, or
    {"ppo_skipped": why} (jax or optax missing, settings that do not fit N, or
    `estimate_s(control steps)` over `left_s`, the domain's share of the time left)."""
    try:
        import jax

        from agents import ppo, presets
    except ImportError as error:
        return {"ppo_skipped": f"PPO on the device needs jax and optax ({error})"}
    from composer_tasks import batch_warp

    overrides = dict(presets.playground_ppo_overrides(f"{domain}:{_TASKS[domain]}"))
    steps_per_copy = args.ppo_steps_per_copy
    if steps_per_copy is None:
        steps_per_copy = presets.PPO_ROLLOUT_STEPS // presets.PPO_NUM_ENVS
    overrides["rollout_steps"] = num_envs * steps_per_copy
    try:
        config = ppo.Config(**overrides)
        ppo.check_sizes(config, num_envs)
    except ValueError as error:
        return {"ppo_skipped": str(error)}
    estimate = estimate_s(2 * steps_per_copy)
    if estimate > left_s:
        return {
            "ppo_skipped": f"two rollouts of {steps_per_copy} steps take about {estimate:.0f} s "
            f"(building and stepping, updates not counted); this domain's share of what is "
            f"left of --budget-seconds is {left_s:.0f} s"
        }
    options = batch_warp.WarpOptions(device=args.device, array_module="jax", return_jax=True)
    batch = _load(domain, num_envs, args.seed, backend=options)
    agent = ppo.DevicePPO(
        config, batch.observation_spec(), batch.action_spec(), num_envs, args.seed
    )
    timestep = batch.reset()

    def rollout_and_update() -> float:
        nonlocal timestep
        start = time.perf_counter()
        for _ in range(steps_per_copy):
            actions = agent.act(timestep.observation)
            next_timestep = batch.step(actions)
            # The last call updates and reads the metrics back: the update is done.
            agent.observe(timestep, actions, next_timestep)
            timestep = next_timestep
        jax.block_until_ready(agent.learner.params)
        return time.perf_counter() - start

    first_s = rollout_and_update()
    elapsed = rollout_and_update()
    batch.close()
    return {
        "ppo_on_device": num_envs * steps_per_copy / elapsed,
        "ppo_first_update_s": first_s,
        "ppo_steps_per_copy": steps_per_copy,
    }


def _load(domain: str, num_envs: int, seed: int, **backend: Any):
    from suites import suite

    # The time limit is lifted so that no episode ends inside the timed window.
    return suite.load_batch(
        domain,
        _TASKS[domain],
        num_envs,
        seed=seed,
        task_kwargs={"time_limit": float("inf")},
        **backend,
    )


def _difference(got: Any, expected: Any) -> float:
    """max |got - expected| / max(1, |expected|): absolute below 1, relative above
    (lqr's actions reach 1e10 and its rewards 1e18)."""
    expected = np.asarray(expected, dtype=np.float64)
    error = np.abs(np.asarray(got, dtype=np.float64) - expected) / np.maximum(1.0, np.abs(expected))
    return float(np.max(error, initial=0.0))


def agreement(args: argparse.Namespace) -> dict:
    """How far the Warp batch is from the CPU batch (`_difference`) in qpos,
    observations and reward after 1, 10 and `--agreement-steps` steps from the same
    reset states (compared exactly) under the same uniform random actions."""
    import warp

    from suites import suite

    warp.config.quiet = True
    device = warp.get_device(args.device)
    results = {
        "device": args.device,
        "device_label": f"Warp device {device.name} ({args.device})",
        "date_utc": time.strftime("%Y-%m-%d %H:%M", time.gmtime()),
        "copies": args.agreement_copies,
        "steps": args.agreement_steps,
        "rows": [],
    }
    for name in args.agreement:
        domain, _, task = name.partition(":")
        batches = [
            suite.load_batch(domain, task, args.agreement_copies, seed=args.seed, **backend)
            for backend in ({}, {"backend": "warp", "device": args.device})
        ]
        cpu, gpu = batches
        first_cpu, first_gpu = cpu.reset(), gpu.reset()
        row: dict[str, Any] = {
            "task": name,
            "reset_equal": all(
                np.array_equal(first_cpu.observation[key], first_gpu.observation[key])
                for key in first_cpu.observation
            )
            and np.array_equal(
                np.asarray(gpu.warp.field("qpos")), cpu.batch.bind("qpos").astype(np.float32)
            ),
        }
        spec = cpu.action_spec()
        actions = np.random.default_rng(args.seed).uniform(
            spec.minimum, spec.maximum, size=(args.agreement_steps, cpu.num_envs) + spec.shape
        )
        for step, row_actions in enumerate(actions, start=1):
            step_cpu, step_gpu = cpu.step(row_actions), gpu.step(row_actions)
            if step not in (1, 10, args.agreement_steps):
                continue
            row[f"step{step}"] = {
                "qpos": _difference(gpu.warp.field("qpos"), cpu.batch.bind("qpos")),
                "observation": max(
                    _difference(step_gpu.observation[key], value)
                    for key, value in step_cpu.observation.items()
                ),
                "reward": _difference(step_gpu.reward, step_cpu.reward),
                "same_step_types": bool(np.array_equal(step_gpu.step_type, step_cpu.step_type)),
            }
        results["rows"].append(row)
        print(json.dumps(row), flush=True)
    return results


def run(args: argparse.Namespace) -> dict:
    import warp

    warp.config.quiet = True
    device = warp.get_device(args.device)
    on_gpu = bool(device.is_cuda)
    label = (
        f"GPU ({device.name}, {args.device})"
        if on_gpu
        else "Warp CPU device: correctness run, NOT a performance figure"
    )
    results = {
        "device": args.device,
        "device_label": label,
        "gpu": on_gpu,
        "date_utc": time.strftime("%Y-%m-%d %H:%M", time.gmtime()),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
        "seconds": args.seconds,
        "episode_steps": args.episode_steps,
        "rows": [],
    }
    budget_end = time.perf_counter() + args.budget_seconds
    for domain_index, domain in enumerate(args.domains):
        # Kernels compile on a model's first build and step (tens of seconds): done
        # here on two copies, timed apart, so that the per-copy build time that
        # decides which sizes fit the budget is not charged with them.
        start = time.perf_counter()
        warm = _load(domain, 2, args.seed, backend="warp", device=args.device)
        warm.reset()
        _batch_steps(warm, 0.0, args.seed)
        warm.close()
        del warm
        results.setdefault("compile_s", {})[domain] = time.perf_counter() - start
        print(
            f"{domain}: first build and step (kernel compiles) {time.perf_counter() - start:.1f} s",
            flush=True,
        )
        seconds_per_copy = None
        for num_envs in sorted(args.sizes):
            row: dict[str, Any] = {"domain": domain, "task": _TASKS[domain], "num_envs": num_envs}
            results["rows"].append(row)
            left = budget_end - time.perf_counter()
            share = left / (len(args.domains) - domain_index)
            figures = 3 if num_envs <= args.cpu_max_size else 2
            # PPO's own batch is estimated apart (`_ppo_on_device`): the step figures
            # come first.
            estimate = (
                None
                if seconds_per_copy is None
                else seconds_per_copy * num_envs + figures * (args.seconds + 1.0)
            )
            if estimate is not None and estimate > share:
                row["skipped"] = (
                    f"building, resetting and timing {num_envs} copies takes about "
                    f"{estimate:.0f} s (measured {1e3 * seconds_per_copy:.1f} ms per copy); over "
                    f"this domain's share {share:.0f} s of what is left of --budget-seconds"
                )
                print(f"{domain} N={num_envs}: skipped ({row['skipped']})", flush=True)
                continue
            start = time.perf_counter()
            batch = _load(domain, num_envs, args.seed, backend="warp", device=args.device)
            row["build_s"] = time.perf_counter() - start
            start = time.perf_counter()
            batch.reset()
            row["reset_s_per_copy"] = (time.perf_counter() - start) / num_envs
            seconds_per_copy = (row["build_s"] + row["reset_s_per_copy"] * num_envs) / num_envs
            simulation = batch.warp
            row["nstep"] = int(batch._nstep)
            row["nconmax"], row["njmax"] = simulation.nconmax, simulation.njmax
            row["warp_batch"] = _batch_steps(batch, args.seconds, args.seed)
            episode_s = args.episode_steps * num_envs / row["warp_batch"]
            row["warp_batch_with_resets"] = (
                args.episode_steps * num_envs / (episode_s + row["reset_s_per_copy"] * num_envs)
            )
            with batch.copy_physics(0) as physics:
                model, data = physics.model, physics.data
                row["raw_warp"], row["raw_overflow"] = _raw_warp(
                    model,
                    data,
                    num_envs,
                    row["nstep"],
                    simulation.nconmax,
                    simulation.njmax,
                    device,
                    args.seconds,
                )
            row["batch_over_raw"] = row["warp_batch"] / row["raw_warp"]
            batch.close()
            del batch
            if num_envs <= args.cpu_max_size:
                cpu = _load(domain, num_envs, args.seed)
                cpu.reset()
                row["cpu_batch"] = _batch_steps(cpu, args.seconds, args.seed)
                cpu.close()
            if not args.no_ppo:
                rate = row["warp_batch"]
                row.update(
                    _ppo_on_device(
                        domain,
                        num_envs,
                        args,
                        lambda steps, n=num_envs, r=rate: seconds_per_copy * n + steps * n / r,
                        # This domain's share of what is left, as for the sizes.
                        (budget_end - time.perf_counter()) / (len(args.domains) - domain_index),
                    )
                )
                if "ppo_skipped" in row:
                    print(f"{domain} N={num_envs}: {row['ppo_skipped']}", flush=True)
            print(_format_row(row), flush=True)
    return results


_COLUMNS = (
    ("domain", "{}"),
    ("num_envs", "{}"),
    ("warp_batch", "{:.0f}"),
    ("raw_warp", "{:.0f}"),
    ("batch_over_raw", "{:.2f}"),
    ("warp_batch_with_resets", "{:.0f}"),
    ("reset_s_per_copy", "{:.4f}"),
    ("cpu_batch", "{:.0f}"),
    ("ppo_on_device", "{:.0f}"),
    ("build_s", "{:.1f}"),
)


def _format_row(row: dict) -> str:
    cells = []
    for name, form in _COLUMNS:
        value = row.get(name)
        cells.append("-" if value is None else form.format(value))
    if "skipped" in row:
        cells.append("skipped")
    return "| " + " | ".join(cells) + " |"


def table(results: dict) -> str:
    lines = [
        f"Device: {results['device_label']}; control steps of all copies per second; "
        f"{results['machine']}; {results['date_utc']} UTC",
        "| " + " | ".join(name for name, _ in _COLUMNS) + " |",
        "|" + "---|" * len(_COLUMNS),
    ]
    lines.extend(_format_row(row) for row in results["rows"])
    return "\n".join(lines)


def main(argv: Optional[list[str]] = None) -> None:
    args = _parse(argv)
    if args.agreement:
        results = agreement(args)
        with open(args.out, "w") as stream:
            json.dump(results, stream, indent=1)
        print(f"wrote {args.out}")
        return
    results = run(args)
    with open(args.out, "w") as stream:
        json.dump(results, stream, indent=1)
    print(table(results))
    if not results["gpu"]:
        print("Warp ran on its CPU device: these are not GPU figures (a correctness run only).")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
