"""Scripted inverse-kinematics controllers solving manipulation tasks; prints the rewards.

    python examples/manipulation_scripted.py --task lift_brick_features --seeds 5

Tasks: reach_site_features (move the pinch site onto the target), lift_brick_features
(grasp the brick and lift it 0.3 m), stack_2_bricks_features (carry a brick onto
the fixed one and press it down until it snaps). The controllers are in
composer_tasks/tasks/manipulation/scripted.py. Each seed is one 10 s episode;
the script prints the reward of the last step and the best reward, and counts
an episode solved when its last reward is at least 0.99.
"""

import time

from absl import app
from absl import flags

from composer_tasks.tasks.manipulation import scripted
from suites import manipulation

_TASKS = ("reach_site_features", "lift_brick_features", "stack_2_bricks_features")
_TASK = flags.DEFINE_enum("task", "lift_brick_features", _TASKS, "Environment to solve.")
_SEEDS = flags.DEFINE_integer("seeds", 3, "Episodes to run (seeds 0, 1, ...).", lower_bound=1)
_SOLVED_REWARD = 0.99


def run_episode(name: str, seed: int):
    """Runs the scripted controller for one episode; returns (last reward, best reward)."""
    env = manipulation.load(name, seed=seed)
    timestep = env.reset()
    controller = scripted.CartesianController(env)
    task = env.task
    if name == "reach_site_features":
        waypoints = scripted.reach_site_waypoints(controller, task)
    elif name == "lift_brick_features":
        waypoints = scripted.lift_waypoints(
            controller, task, task.prop, lift_to_m=task.target_height + 0.05
        )
    else:
        waypoints = scripted.stack_waypoints(
            controller, task, top=task.bricks[1], bottom=task.bricks[0]
        )
    timestep, rewards = controller.run(waypoints, timestep)
    return rewards[-1], max(rewards)


def main(argv):
    del argv
    solved = 0
    for seed in range(_SEEDS.value):
        start = time.perf_counter()
        last, best = run_episode(_TASK.value, seed)
        solved += last >= _SOLVED_REWARD
        print(
            f"{_TASK.value} seed {seed}: last reward {last:.3f}, best {best:.3f} "
            f"({time.perf_counter() - start:.1f} s)"
        )
    print(f"solved {solved} of {_SEEDS.value} episodes (last reward >= {_SOLVED_REWARD})")
    return 0


if __name__ == "__main__":
    app.run(main)
