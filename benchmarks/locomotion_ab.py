"""CPU cost of a locomotion environment's resets and steps, for A/B runs across commits.

Run it from two checkouts alternately, in one session, and compare the printed
figures (rates are per second of this process's CPU time, so other load on the
machine moves them less than wall-clock rates):

    cd CHECKOUT_A && python benchmarks/locomotion_ab.py --env cmu_humanoid_run_walls
    cd CHECKOUT_B && python benchmarks/locomotion_ab.py --env cmu_humanoid_run_walls

The current directory comes first on `sys.path`, so each run imports its own
checkout's `composer_tasks` and `suites`.
"""

import time

from absl import app, flags
import numpy as np

from suites import locomotion

_ENV = flags.DEFINE_string("env", "cmu_humanoid_run_walls", "locomotion environment name")
_RESETS = flags.DEFINE_integer("resets", 200, "timed resets (after 10 untimed)")
_STEPS = flags.DEFINE_integer("steps", 1500, "timed random-action steps, resets included")
_SEED = flags.DEFINE_integer("seed", 0, "environment and action seed")


def measure(name: str, resets: int, steps: int, seed: int) -> dict:
    """Returns the mean reset CPU time (ms), steps per CPU second and episode count."""
    if resets < 1 or steps < 1:
        raise ValueError(f"resets and steps must be positive, got {resets} and {steps}")
    env = locomotion.load(name, seed=seed)
    spec = env.action_spec()
    for _ in range(10):
        env.reset()
    start = time.process_time()
    for _ in range(resets):
        env.reset()
    reset_ms = (time.process_time() - start) * 1000.0 / resets
    rng = np.random.default_rng(seed)
    episodes = 0
    env.reset()
    start = time.process_time()
    for _ in range(steps):
        if env.step(rng.uniform(spec.minimum, spec.maximum)).last():
            episodes += 1
            env.reset()
    rate = steps / (time.process_time() - start)
    return {"reset_ms": reset_ms, "steps_per_cpu_s": rate, "episodes": episodes}


def main(argv):
    del argv
    result = measure(_ENV.value, _RESETS.value, _STEPS.value, _SEED.value)
    print(
        f"{_ENV.value}: reset_ms={result['reset_ms']:.2f} "
        f"steps_per_cpu_s={result['steps_per_cpu_s']:.0f} episodes={result['episodes']}"
    )


if __name__ == "__main__":
    app.run(main)
