"""Run a Control Suite task with a simple policy and report returns and speed.

    python -m suites cartpole swingup --policy random --episodes 3 --seed 0
"""

import sys
import time

from absl import app
from absl import flags
import numpy as np

from suites import suite

_POLICY = flags.DEFINE_enum("policy", "random", ["random", "zero"], "Action policy.")
_EPISODES = flags.DEFINE_integer("episodes", 1, "Episodes to run.", lower_bound=1)
_SEED = flags.DEFINE_integer("seed", 0, "Seed of the task and of the random policy.")


def run(domain_name, task_name, policy, episodes, seed, out=sys.stdout):
    """Runs `episodes` episodes; returns the list of episode returns."""
    env = suite.load(domain_name, task_name, task_kwargs={"random": seed})
    spec = env.action_spec()
    policy_random = np.random.RandomState(seed)
    returns = []
    for episode in range(episodes):
        timestep = env.reset()
        episode_return, steps = 0.0, 0
        start = time.perf_counter()
        while not timestep.last():
            if policy == "zero":
                action = np.zeros(spec.shape)
            else:
                action = policy_random.uniform(spec.minimum, spec.maximum)
            timestep = env.step(action)
            episode_return += timestep.reward
            steps += 1
        elapsed = time.perf_counter() - start
        returns.append(episode_return)
        print(f"{domain_name} {task_name} episode {episode}: return {episode_return:.2f} "
              f"over {steps} steps, {steps / elapsed:.0f} steps/s", file=out)
    return returns


def main(argv):
    if len(argv) != 3:
        raise app.UsageError(
            f"usage: python -m suites DOMAIN TASK [--policy random|zero] [--episodes N] [--seed S]; "
            f"tasks: {', '.join(f'{d}:{t}' for d, t in suite.ALL_TASKS)}")
    run(argv[1], argv[2], _POLICY.value, _EPISODES.value, _SEED.value)


if __name__ == "__main__":
    app.run(main)
