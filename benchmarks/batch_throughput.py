"""Batch throughput: total environment steps/s of `suite.load_batch` against baselines.

For each task and N, in the same run: this project's BatchEnvironment; the raw
`mujoco.batch` physics of the same model and substeps, doing the physics work the
BatchEnvironment does (a persistent batch, kinematics and velocities brought to
the new state after each control step as `mj_step1` does, MuJoCo's profiling clock
paused) with no Python beyond writing the controls (the ceiling), once on one shared
model and once with a model per simulation as the BatchEnvironment has; a Python loop
over N single environments; gymnasium's AsyncVectorEnv over the single-environment
adapter (N <= --max_async_envs, one process per copy); dm-control 1.0.50 and
envpool 1.2.5 in their own virtual environments (subprocesses; made by
benchmarks/reference_envs/make_*_venv.sh, skipped with a note when absent).
All use fixed random-action sequences and count auto-resets' steps. The CSV
records, per task, which path the BatchEnvironment took: `vectorised` (no Python
loop over copies) or `looped` (each copy's callbacks in turn, physics batched).

    python benchmarks/batch_throughput.py --threads 2 --seconds 2
    python benchmarks/batch_throughput.py --tasks extra --num_envs 16,64 \
        --methods ours_batch,raw_mujoco_batch,raw_batch_own_models,python_loop \
        --threads 1 --clock cpu --seconds 1.5    # the 16 tasks of dm_control's EXTRA set
    python benchmarks/batch_throughput.py --tasks extra --num_envs 64 --methods ours_batch \
        --threads 1 --clock cpu --seconds 0.2 --physics_share

Breakdown (`--breakdown`): for each task and N, in a fresh process each, where
building a copy's CPU time goes (cProfile shares of the batch's build: compiling the
copy's MjSpec, building its task and spec, its observables, the rest of its
`composer.Environment` (for copies 0 and 1 only where copies are cloned), cloning
copies 2 to N-1 from copy 0, the batch's own bookkeeping) and what a copy keeps resident
(Python heap by tracemalloc, its MjSpec measured as N copies of one, the batch's
simulation of it as raw `mujoco.batch` per simulation, and the rest):

    python benchmarks/batch_throughput.py --breakdown --tasks cartpole:swingup,humanoid:run,dog:run \
        --num_envs 256

Scale (`--scale`): for each task and N, in a fresh process each, this project's
batch (`suite.load_batch`) and raw `mujoco.batch` on one model: build time, resident
memory per copy (the growth of the process's RSS from before building to after
the first step, free C-heap pages returned first on both sides; build time as wall
and CPU seconds of the process; `--noclone_copies` builds every copy by its factory
instead of cloning copies 2 to N-1), the batch's memory estimate against that growth
(`est/KiB`), and steps/s of the two interleaved in the same process (`--repeats`
rounds, medians) with the batch's fixed cost per step beyond raw's (`fixed us`, N /
ours - N / raw) and, on the vectorised path, what the task's reward, termination and
discount cost of it, warm (`outcome us`, `batch_episode_outcome` called in a loop),
written to `--scale_csv`:

    python benchmarks/batch_throughput.py --scale --tasks cartpole:swingup,humanoid:run,dog:run \
        --num_envs 64,256,1024,4096 --extra_cartpole_envs 16384 --threads 1 --clock cpu \
        --seconds 1
"""

import copy
import cProfile
import csv
import datetime
import gc
import json
import os
import pstats
import subprocess
import sys
import time
import tracemalloc

from absl import app
from absl import flags
import gymnasium
import mujoco
import mujoco.batch
import numpy as np

from composer_tasks import batch_memory
from composer_tasks.batch import batch_physics
from composer_tasks.composer.environment import batch_episode_outcome
from composer_tasks.physics import paused_profiling_clock
from composer_tasks.wrappers.gymnasium import GymnasiumEnv
from suites import suite

import _timing  # benchmarks/_timing.py, beside this script

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The 16 tasks of dm_control 1.0.50's EXTRA set that the first 35 lacked (issue 16).
EXTRA_TASKS = (
    "dog:stand",
    "dog:walk",
    "dog:trot",
    "dog:run",
    "dog:fetch",
    "quadruped:walk",
    "quadruped:run",
    "quadruped:escape",
    "quadruped:fetch",
    "humanoid_CMU:stand",
    "humanoid_CMU:walk",
    "humanoid_CMU:run",
    "lqr:lqr_2_1",
    "lqr:lqr_6_2",
    "stacker:stack_2",
    "stacker:stack_4",
)
_TASKS = flags.DEFINE_list(
    "tasks",
    ["cartpole:swingup", "cheetah:run", "walker:walk", "humanoid:run"],
    "domain:task names; `extra` stands for the 16 tasks of EXTRA_TASKS.",
)
_NUM_ENVS = flags.DEFINE_list("num_envs", ["1", "16", "64", "256"], "Batch sizes N.")
_THREADS = flags.DEFINE_integer("threads", 2, "Threads for the batched implementations.")
_SECONDS = flags.DEFINE_float("seconds", 2.0, "Timed seconds per measurement.")
_MAX_LOOP_ENVS = flags.DEFINE_integer(
    "max_loop_envs", 64, "Largest N for the Python loop and dm_control."
)
_MAX_ASYNC_ENVS = flags.DEFINE_integer("max_async_envs", 16, "Largest N for AsyncVectorEnv.")
_DM_CONTROL_PYTHON = flags.DEFINE_string(
    "dm_control_python",
    os.path.join(_ROOT, ".venvs/dm_control/bin/python"),
    "dm-control venv python.",
)
_ENVPOOL_PYTHON = flags.DEFINE_string(
    "envpool_python", os.path.join(_ROOT, ".venvs/envpool/bin/python"), "envpool venv python."
)
_CLOCK = flags.DEFINE_enum(
    "clock",
    "wall",
    ["wall", "cpu"],
    "wall: steps per second of elapsed time; cpu: per CPU second of this process "
    "(time.process_time), for a machine shared with other load; meaningful with --threads 1, "
    "and only for the in-process methods (ours, raw, loop).",
)
_METHODS = flags.DEFINE_list(
    "methods",
    None,
    "Measure only these methods (default: all): ours_batch, raw_mujoco_batch, "
    "raw_batch_own_models, python_loop, gymnasium_async, dm_control_1.0.50, envpool_1.2.5.",
)
_PHYSICS_SHARE = flags.DEFINE_bool(
    "physics_share",
    False,
    "Also record `ours_physics_share`: the share of the BatchEnvironment's step time spent "
    "in mujoco.batch's step (cProfile over 30 steps; cProfile's own cost makes it a lower "
    "bound). A ratio within one process, so the machine's other load barely moves it.",
)
_SCALE = flags.DEFINE_bool(
    "scale",
    False,
    "Measure build time, resident memory per copy and steps/s against raw mujoco.batch on "
    "one model (each task and N in a fresh process) instead of the methods table.",
)
_EXTRA_CARTPOLE_ENVS = flags.DEFINE_list(
    "extra_cartpole_envs", [], "With --scale: further N for cartpole tasks only."
)
_REPEATS = flags.DEFINE_integer(
    "repeats", 3, "With --scale: interleaved timing rounds (medians).", lower_bound=1
)
_WORKER = flags.DEFINE_string(
    "worker", None, "Internal: domain:task:N measured by a --scale worker process."
)
_BREAKDOWN_WORKER = flags.DEFINE_string(
    "breakdown_worker", None, "Internal: domain:task:N measured by a --breakdown worker process."
)
_SCALE_CSV = flags.DEFINE_string(
    "scale_csv",
    os.path.join(_ROOT, "benchmarks/results/batch_scale.csv"),
    "Output CSV of --scale.",
)
_BREAKDOWN = flags.DEFINE_bool(
    "breakdown",
    False,
    "Where a copy's build time and resident memory go, for each task at each --num_envs "
    "(each in a fresh process): build CPU ms per copy and its shares (cProfile), resident "
    "KiB per copy split into Python heap (tracemalloc), one MjSpec and the rest, beside raw "
    "mujoco.batch's KiB per simulation.",
)
_CLONE_COPIES = flags.DEFINE_bool(
    "clone_copies",
    True,
    "With --scale and --breakdown: BatchEnvironment's clone_copies (copies 2 to N-1 cloned "
    "from copy 0 where that is safe); --noclone_copies builds every copy by its factory.",
)
_CSV = flags.DEFINE_string(
    "csv", os.path.join(_ROOT, "benchmarks/results/batch_throughput.csv"), "Output CSV."
)


# Action bounds beyond this magnitude stand for "unbounded" (lqr's motors declare
# +-1e10, dm_control's own spec); actions there are drawn from [-1, 1], since uniform
# draws of size 1e10 make the simulation diverge within a few steps.
_UNBOUNDED = 1e6


def _actions(spec, num_envs, count=500, seed=0):
    minimum = np.where(np.abs(spec.minimum) > _UNBOUNDED, -1.0, spec.minimum)
    maximum = np.where(np.abs(spec.maximum) > _UNBOUNDED, 1.0, spec.maximum)
    return np.random.RandomState(seed).uniform(
        minimum, maximum, size=(count, num_envs) + spec.shape
    )


def _clock():
    return time.process_time if _CLOCK.value == "cpu" else time.perf_counter


def ours(domain, task, num_envs, threads, seconds):
    batch = suite.load_batch(domain, task, num_envs, num_threads=threads, seed=0)
    actions = _actions(batch.action_spec(), num_envs)
    batch.reset()
    counter = [0]

    def step():
        batch.step(actions[counter[0] % len(actions)])
        counter[0] += 1

    return _timing.rate(step, seconds, num_envs, clock=_clock())


def _reset_model(domain, task):
    """A single environment after its first reset: a task may write its model there
    (quadruped escape draws its heightfield terrain), which the raw baselines must
    simulate too to do the same physics work."""
    env = suite.load(domain, task)
    env.reset()
    return env


def _start_at_reset_state(physics_batch, env):
    """Starts every simulation of a raw batch from `env`'s initial state rather than
    the model's qpos0: a body resting on the ground has the contacts it has in the
    BatchEnvironment (from qpos0 a quadruped or a dog falls through the air for
    the first steps, which then cost less than the task's)."""
    for name in ("qpos", "qvel", "act", "mocap_pos", "mocap_quat"):
        value = getattr(env.physics.data, name)
        if value.size:
            physics_batch.bind(name)[:] = value


def physics_share(domain, task, num_envs, threads, steps=30):
    """The share of `BatchEnvironment.step`'s time spent in `mujoco.batch`'s step."""
    batch = suite.load_batch(domain, task, num_envs, num_threads=threads, seed=0)
    actions = _actions(batch.action_spec(), num_envs, count=steps)
    batch.reset()
    batch.step(actions[0])
    profile = cProfile.Profile()
    profile.enable()
    for row in actions:
        batch.step(row)
    profile.disable()
    stats = pstats.Stats(profile)
    physics = sum(
        entry[2]
        for function, entry in stats.stats.items()
        if function[2] == "<built-in method mujoco._batch.step>"
    )
    return physics / stats.total_tt


def raw_physics(domain, task, num_envs, threads, seconds):
    env = _reset_model(domain, task)
    nstep = env.task.physics_steps_per_control_step
    physics_batch = mujoco.batch.Batch(
        env.physics.model, nsim=num_envs, nthread=threads, persistent=True
    )
    _start_at_reset_state(physics_batch, env)
    ctrl = physics_batch.bind("ctrl")
    actions = _actions(env.action_spec(), num_envs)
    counter = [0]

    def step():
        ctrl[:] = actions[counter[0] % len(actions)]
        physics_batch.step(nstep=nstep, stage=mujoco.mjtStage.mjSTAGE_VEL)
        counter[0] += 1

    with paused_profiling_clock():
        return _timing.rate(step, seconds, num_envs, clock=_clock())


def raw_physics_own_models(domain, task, num_envs, threads, seconds):
    """As `raw_physics`, with each simulation on a model of its own (`set_models`), as
    the BatchEnvironment runs its copies (their models may differ): the same physics
    work, memory layout included."""
    env = _reset_model(domain, task)
    nstep = env.task.physics_steps_per_control_step
    physics_batch = mujoco.batch.Batch(
        env.physics.model, nsim=num_envs, nthread=threads, persistent=True
    )
    physics_batch.set_models([copy.copy(env.physics.model) for _ in range(num_envs)])
    _start_at_reset_state(physics_batch, env)
    ctrl = physics_batch.bind("ctrl")
    actions = _actions(env.action_spec(), num_envs)
    counter = [0]

    def step():
        ctrl[:] = actions[counter[0] % len(actions)]
        physics_batch.step(nstep=nstep, stage=mujoco.mjtStage.mjSTAGE_VEL)
        counter[0] += 1

    with paused_profiling_clock():
        return _timing.rate(step, seconds, num_envs, clock=_clock())


def python_loop(domain, task, num_envs, threads, seconds):
    envs = [suite.load(domain, task, task_kwargs={"random": i}) for i in range(num_envs)]
    actions = _actions(envs[0].action_spec(), num_envs)
    for env in envs:
        env.reset()
    counter = [0]

    def step():
        row = actions[counter[0] % len(actions)]
        for env, action in zip(envs, row):
            env.step(action)
        counter[0] += 1

    return _timing.rate(step, seconds, num_envs, clock=_clock())


def _make_gym(domain, task, seed):
    return lambda: GymnasiumEnv(
        suite.load(domain, task, task_kwargs={"random": seed}), flatten_observations=True
    )


def gym_async(domain, task, num_envs, threads, seconds):
    vector = gymnasium.vector.AsyncVectorEnv([_make_gym(domain, task, i) for i in range(num_envs)])
    try:
        actions = _actions(suite.load(domain, task).action_spec(), num_envs)
        vector.reset(seed=0)
        counter = [0]

        def step():
            vector.step(actions[counter[0] % len(actions)])
            counter[0] += 1

        return _timing.rate(step, seconds, num_envs, clock=_clock())
    finally:
        vector.close()


def _reference(python, implementation):
    def measure(domain, task, num_envs, threads, seconds):
        if not os.path.exists(python):
            return None
        output = subprocess.run(
            [
                python,
                os.path.join(_ROOT, "benchmarks/reference_envs/speed_worker.py"),
                implementation,
                domain,
                task,
                str(num_envs),
                str(seconds),
                str(threads),
            ],
            capture_output=True,
            text=True,
            check=True,
            env=dict(os.environ, MUJOCO_GL="disable"),
        )
        return json.loads(output.stdout.strip().splitlines()[-1])["steps_per_second"]

    return measure


def _resident_after_release():
    # Copies hold reference cycles: a batch dropped earlier is freed only by the
    # collector, which would otherwise run (and shrink the process) mid-measurement.
    gc.collect()
    batch_memory.release_free_memory()
    return batch_memory.resident_bytes()


def _load_batch(domain, task, num_envs, threads, clone_copies, **environment_kwargs):
    """`suite.load_batch(domain, task, num_envs, seed=0)` with `clone_copies`."""
    from composer_tasks.batch import BatchEnvironment

    return BatchEnvironment.from_environments(
        lambda seed: suite.load(
            domain,
            task,
            task_kwargs={"random": seed},
            environment_kwargs={"textures": False, **environment_kwargs},
        ),
        num_envs,
        num_threads=threads,
        seed=0,
        clone_copies=clone_copies,
    )


def scale_worker(domain, task, num_envs, threads, seconds, repeats):
    """One --scale measurement (this process measures nothing else): a dict."""
    clock = _clock()
    clone_copies = _CLONE_COPIES.value
    _load_batch(domain, task, 3, threads, clone_copies).reset()  # imports, one-time caches
    before = _resident_after_release()
    start, start_cpu = time.perf_counter(), time.process_time()
    # A copy that random actions make diverge ends its episode rather than the run.
    batch = _load_batch(
        domain, task, num_envs, threads, clone_copies, raise_exception_on_physics_error=False
    )
    build_s, build_cpu_s = time.perf_counter() - start, time.process_time() - start_cpu
    actions = _actions(batch.action_spec(), num_envs, count=50)
    batch.reset()
    batch.step(actions[0])
    ours_bytes = _resident_after_release() - before
    # Without textures, as the batch's copies: the raw batch copies the model.
    env = suite.load(domain, task, environment_kwargs={"textures": False})
    env.reset()
    nstep = env.task.physics_steps_per_control_step
    before_raw = _resident_after_release()
    physics_batch = mujoco.batch.Batch(
        env.physics.model, nsim=num_envs, nthread=threads, persistent=True
    )
    _start_at_reset_state(physics_batch, env)
    ctrl = physics_batch.bind("ctrl")
    ctrl[:] = actions[0]
    physics_batch.step(nstep=nstep, stage=mujoco.mjtStage.mjSTAGE_VEL)
    raw_bytes = _resident_after_release() - before_raw
    counter = [0]

    def ours_step():
        batch.step(actions[counter[0] % len(actions)])
        counter[0] += 1

    def raw_step():
        ctrl[:] = actions[counter[0] % len(actions)]
        physics_batch.step(nstep=nstep, stage=mujoco.mjtStage.mjSTAGE_VEL)
        counter[0] += 1

    ours_rates, raw_rates = [], []
    for _ in range(repeats):
        ours_rates.append(_timing.rate(ours_step, seconds, num_envs, clock=clock))
        with paused_profiling_clock():
            raw_rates.append(_timing.rate(raw_step, seconds, num_envs, clock=clock))
    ours_rate, raw_rate = float(np.median(ours_rates)), float(np.median(raw_rates))
    outcome_us = _outcome_us(batch, seconds, repeats, clock)
    return dict(
        task=f"{domain}:{task}",
        num_envs=num_envs,
        build_s=build_s,
        build_cpu_s=build_cpu_s,
        ours_kib_per_copy=ours_bytes / num_envs / 1024,
        raw_kib_per_copy=raw_bytes / num_envs / 1024,
        memory_ratio=ours_bytes / raw_bytes,
        estimate_kib_per_copy=(batch.bytes_per_copy or 0) / 1024,
        ours_steps_per_s=ours_rate,
        raw_steps_per_s=raw_rate,
        speed_ratio=ours_rate / raw_rate,
        # What a batch step costs beyond raw's step of the same copies (both from
        # the medians): the batch's fixed cost per step at this N.
        fixed_us_per_step=(num_envs / ours_rate - num_envs / raw_rate) * 1e6,
        estimate_ratio=(batch.bytes_per_copy or 0) / (ours_bytes / num_envs),
        outcome_us_per_step=outcome_us,
        own_models=batch.batch.models is not None,
        copies_cloned=batch.copies_cloned,
    )


def _outcome_us(batch, seconds, repeats, clock):
    """Microseconds per call of the vectorised step's outcome (the task's reward,
    termination and discount, `batch_episode_outcome`) on the batch's state after
    the timed steps, called over and over (warm caches; in a step it runs after the
    physics, cold): the median of `repeats` rounds of `seconds` / 4. NaN for a batch
    that loops over its copies' callbacks."""
    if not batch.vectorized:
        return float("nan")
    copies = batch.envs
    physics = batch_physics(copies[0].physics, batch.batch, [env.physics.model for env in copies])
    task, num_envs = copies[0].task, batch.num_envs

    def hundred_outcomes():
        # A hundred calls between clock reads: the CPU clock costs about a microsecond.
        for _ in range(100):
            batch_episode_outcome(task, physics, None, num_envs)

    rates = [_timing.rate(hundred_outcomes, seconds / 4, 100, clock=clock) for _ in range(repeats)]
    return 1e6 / float(np.median(rates))


def _cumulative(stats, filename_end, function):
    """cProfile's cumulative seconds of `function` defined in a file ending `filename_end`."""
    return sum(
        entry[3]
        for (filename, _, name), entry in stats.stats.items()
        if name == function and filename.endswith(filename_end)
    )


def breakdown_worker(domain, task, num_envs):
    """One --breakdown measurement (a dict): build CPU time per copy and its shares,
    resident memory per copy and its parts."""
    clone_copies = _CLONE_COPIES.value
    _load_batch(domain, task, 3, 1, clone_copies).reset()  # imports and one-time caches
    start = time.process_time()
    _load_batch(domain, task, num_envs, 1, clone_copies)
    build_ms = (time.process_time() - start) * 1e3 / num_envs
    profile = cProfile.Profile()
    profile.enable()
    _load_batch(domain, task, num_envs, 1, clone_copies)
    profile.disable()
    stats = pstats.Stats(profile)
    setup = _cumulative(stats, "composer_tasks/batch.py", "_setup")
    copies = _cumulative(stats, "composer_tasks/batch.py", "_make_copy")
    clones = _cumulative(stats, "composer_tasks/batch_clone.py", "clone")
    environment = _cumulative(stats, "composer/environment.py", "__init__")
    compile_s = sum(
        entry[2]
        for (_, _, name), entry in stats.stats.items()
        if name == "<built-in method mujoco._specs.compile>"
    )
    observables = _cumulative(stats, "composer/entity.py", "_build_observables")
    shares = dict(
        compile_share=compile_s / setup,
        task_and_spec_share=(copies - environment - observables) / setup,
        observables_share=observables / setup,
        environment_share=(environment - compile_s) / setup,
        clone_share=clones / setup,
        batch_share=(setup - copies - clones) / setup,
    )
    env = suite.load(domain, task, environment_kwargs={"textures": False})
    spec = env.task.root_entity.spec
    spare = 32
    before = _resident_after_release()
    spec_copies = [spec.copy() for _ in range(spare)]
    spec_kib = (_resident_after_release() - before) / spare / 1024
    del spec_copies
    tracemalloc.start()
    heap_before = tracemalloc.get_traced_memory()[0]
    # tracemalloc's own records are resident too: subtracted below.
    tracing_before = tracemalloc.get_tracemalloc_memory()
    before = _resident_after_release()
    batch = _load_batch(
        domain, task, num_envs, 1, clone_copies, raise_exception_on_physics_error=False
    )
    batch.reset()
    batch.step(_actions(batch.action_spec(), num_envs, count=1)[0])
    tracing = tracemalloc.get_tracemalloc_memory() - tracing_before
    resident_kib = (_resident_after_release() - before - tracing) / num_envs / 1024
    heap_kib = (tracemalloc.get_traced_memory()[0] - heap_before) / num_envs / 1024
    tracemalloc.stop()
    env.reset()
    before = _resident_after_release()
    physics_batch = mujoco.batch.Batch(env.physics.model, nsim=num_envs, nthread=1, persistent=True)
    _start_at_reset_state(physics_batch, env)
    physics_batch.step(nstep=1, stage=mujoco.mjtStage.mjSTAGE_VEL)
    raw_kib = (_resident_after_release() - before) / num_envs / 1024
    return dict(
        task=f"{domain}:{task}",
        num_envs=num_envs,
        build_cpu_ms_per_copy=build_ms,
        **shares,
        resident_kib_per_copy=resident_kib,
        python_heap_kib=heap_kib,
        spec_kib=spec_kib,
        raw_kib_per_simulation=raw_kib,
        # A clone shares copy 0's spec: only copies built by the factory hold one.
        copies_cloned=batch.copies_cloned,
        rest_kib=resident_kib - heap_kib - raw_kib - (0.0 if batch.copies_cloned else spec_kib),
    )


def breakdown():
    print(
        f"{'task':<18}{'N':>6}{'ms/copy':>9}{'compile':>9}{'task+spec':>10}{'observ.':>9}"
        f"{'env':>6}{'clone':>7}{'batch':>7}{'KiB/copy':>10}{'python':>8}{'spec':>7}{'raw':>6}"
        f"{'rest':>6}"
    )
    for name in _TASKS.value:
        for num_envs in (int(n) for n in _NUM_ENVS.value):
            worker = subprocess.run(
                [
                    sys.executable,
                    os.path.abspath(__file__),
                    f"--breakdown_worker={name}:{num_envs}",
                    f"--clone_copies={_CLONE_COPIES.value}",
                ],
                capture_output=True,
                text=True,
                env=dict(os.environ, MUJOCO_GL="disable"),
            )
            if worker.returncode:
                print(f"{name} N={num_envs} failed:\n{worker.stderr[-2000:]}", flush=True)
                continue
            row = json.loads(worker.stdout.strip().splitlines()[-1])
            print(
                f"{row['task']:<18}{num_envs:>6}{row['build_cpu_ms_per_copy']:>9.2f}"
                f"{row['compile_share']:>9.0%}{row['task_and_spec_share']:>10.0%}"
                f"{row['observables_share']:>9.0%}{row['environment_share']:>6.0%}"
                f"{row['clone_share']:>7.0%}{row['batch_share']:>7.0%}{row['resident_kib_per_copy']:>10.0f}"
                f"{row['python_heap_kib']:>8.0f}{row['spec_kib']:>7.0f}"
                f"{row['raw_kib_per_simulation']:>6.0f}{row['rest_kib']:>6.0f}",
                flush=True,
            )


def scale(threads, seconds):
    rows = []
    header = (
        f"{'task':<18}{'N':>7}{'build s':>9}{'cpu s':>8}{'KiB/copy':>10}{'raw':>8}{'x raw':>7}"
        f"{'estimate':>10}{'est/KiB':>8}{'steps/s':>11}{'raw':>11}{'ratio':>7}"
        f"{'fixed us':>10}{'outcome us':>12}  load"
    )
    print(header)
    for name in _TASKS.value:
        sizes = [int(n) for n in _NUM_ENVS.value]
        if name.startswith("cartpole:"):
            sizes += [int(n) for n in _EXTRA_CARTPOLE_ENVS.value]
        for num_envs in sizes:
            worker = subprocess.run(
                [
                    sys.executable,
                    os.path.abspath(__file__),
                    f"--worker={name}:{num_envs}",
                    f"--threads={threads}",
                    f"--seconds={seconds}",
                    f"--repeats={_REPEATS.value}",
                    f"--clock={_CLOCK.value}",
                    f"--clone_copies={_CLONE_COPIES.value}",
                ],
                capture_output=True,
                text=True,
                env=dict(os.environ, MUJOCO_GL="disable"),
            )
            if worker.returncode:
                print(f"{name} N={num_envs} failed:\n{worker.stderr[-2000:]}", flush=True)
                continue
            row = json.loads(worker.stdout.strip().splitlines()[-1])
            row["load_1min"] = os.getloadavg()[0]
            rows.append(row)
            print(
                f"{row['task']:<18}{num_envs:>7}{row['build_s']:>9.2f}{row['build_cpu_s']:>8.2f}"
                f"{row['ours_kib_per_copy']:>10.0f}{row['raw_kib_per_copy']:>8.0f}"
                f"{row['memory_ratio']:>7.2f}{row['estimate_kib_per_copy']:>10.0f}"
                f"{row['estimate_ratio']:>8.2f}"
                f"{row['ours_steps_per_s']:>11.0f}{row['raw_steps_per_s']:>11.0f}"
                f"{row['speed_ratio']:>7.2f}{row['fixed_us_per_step']:>10.0f}"
                f"{row['outcome_us_per_step']:>12.1f}  {row['load_1min']:.1f}",
                flush=True,
            )
            _write_scale_csv(rows, threads)


def _write_scale_csv(rows, threads):
    """(Re)writes the --scale CSV, after every measurement so that none is lost."""
    os.makedirs(os.path.dirname(_SCALE_CSV.value), exist_ok=True)
    with open(_SCALE_CSV.value, "w", newline="") as handle:
        writer = csv.DictWriter(
            handle, fieldnames=list(rows[0]) + ["threads", "clock", "date", "cpus"]
        )
        writer.writeheader()
        for row in rows:
            writer.writerow(
                dict(
                    row,
                    threads=threads,
                    clock=_CLOCK.value,
                    date=datetime.date.today().isoformat(),
                    cpus=os.cpu_count(),
                )
            )
    print(f"wrote {_SCALE_CSV.value}", file=sys.stderr)


def main(argv):
    del argv
    threads, seconds = _THREADS.value, _SECONDS.value
    if _BREAKDOWN_WORKER.value is not None:
        domain, task, num_envs = _BREAKDOWN_WORKER.value.split(":")
        print(json.dumps(breakdown_worker(domain, task, int(num_envs))))
        return
    if _BREAKDOWN.value:
        breakdown()
        return
    if _WORKER.value is not None:
        domain, task, num_envs = _WORKER.value.split(":")
        print(
            json.dumps(scale_worker(domain, task, int(num_envs), threads, seconds, _REPEATS.value))
        )
        return
    if _SCALE.value:
        scale(threads, seconds)
        return
    methods = [
        ("ours_batch", ours, None),
        ("raw_mujoco_batch", raw_physics, None),
        ("raw_batch_own_models", raw_physics_own_models, None),
        ("python_loop", python_loop, _MAX_LOOP_ENVS.value),
        ("gymnasium_async", gym_async, _MAX_ASYNC_ENVS.value),
        (
            "dm_control_1.0.50",
            _reference(_DM_CONTROL_PYTHON.value, "dm_control"),
            _MAX_LOOP_ENVS.value,
        ),
        ("envpool_1.2.5", _reference(_ENVPOOL_PYTHON.value, "envpool"), None),
    ]
    if _METHODS.value is not None:
        known = [name for name, _, _ in methods]
        unknown = sorted(set(_METHODS.value) - set(known))
        if unknown:
            raise app.UsageError(f"unknown --methods {unknown}; known: {known}")
        methods = [method for method in methods if method[0] in _METHODS.value]
    tasks = []
    for name in _TASKS.value:
        tasks.extend(EXTRA_TASKS if name == "extra" else [name])
    rows = []
    print(f"{'task':<20}{'N':>5}  " + "".join(f"{name:>22}" for name, _, _ in methods) + "  path")
    for name in tasks:
        domain, task = name.split(":")
        path = "vectorised" if suite.load_batch(domain, task, 1, seed=0).vectorized else "looped"
        for num_envs in (int(n) for n in _NUM_ENVS.value):
            rates = {}
            for method, measure, max_envs in methods:
                if max_envs is not None and num_envs > max_envs:
                    rates[method] = None
                    continue
                rates[method] = measure(domain, task, num_envs, threads, seconds)
            share = {}
            if _PHYSICS_SHARE.value:
                share["ours_physics_share"] = physics_share(domain, task, num_envs, threads)
            print(
                f"{name:<20}{num_envs:>5}  "
                + "".join(
                    f"{'-' if rates[m] is None else f'{rates[m]:.0f}':>22}" for m, _, _ in methods
                )
                + f"  {path}"
                + "".join(f"  physics share {v:.3f}" for v in share.values()),
                flush=True,
            )
            rows.append(
                dict(
                    task=name,
                    num_envs=num_envs,
                    path=path,
                    **{m: rates[m] for m, _, _ in methods},
                    **share,
                )
            )
    os.makedirs(os.path.dirname(_CSV.value), exist_ok=True)
    with open(_CSV.value, "w", newline="") as handle:
        writer = csv.DictWriter(
            handle, fieldnames=list(rows[0]) + ["threads", "clock", "date", "cpus"]
        )
        writer.writeheader()
        for row in rows:
            writer.writerow(
                dict(
                    row,
                    threads=threads,
                    clock=_CLOCK.value,
                    date=datetime.date.today().isoformat(),
                    cpus=os.cpu_count(),
                )
            )
    print(f"wrote {_CSV.value}", file=sys.stderr)


if __name__ == "__main__":
    app.run(main)
