"""A scripted controller that catches the falling cylinder of `hand.load("catch")`.

From the first step the hand forms a cup (`CUP_TARGETS`): fingers half curled,
the thumb raised, the wrist extended so that the palm slopes down towards the
fingers and a falling object rolls into them rather than off the wrist's side.
Once the object has fallen to within `CLOSE_HEIGHT_M` of the palm, the four
fingers close towards `GRASP_TARGETS`. Targets move as fast as the action
bounds allow.
It shows that the task is solvable (docs/hand.md): run

    python examples/hand_catch_scripted.py --episodes 10

to print, per seed, whether the object was caught (it never touched the table in
the episode's 500 steps) and the episode's return.
"""

import argparse

import numpy as np

from suites import hand

# The object's centre this high (m) above the palm's face starts the grasp.
CLOSE_HEIGHT_M = 0.07
# Position targets (rad) of the cup, by actuator name; the others stay as they are.
CUP_TARGETS = {
    "wrist_flexion": -0.4,
    "index_knuckle": 0.9,
    "middle_knuckle": 0.9,
    "ring_knuckle": 0.9,
    "little_knuckle": 0.9,
    "thumb_abduction": 1.0,
    "thumb_rotation": 0.5,
}
# Position targets (rad) of the grasp, on top of the cup's: the four fingers close
# over the object while the thumb stays raised as the cup's wall on its side (a
# closing thumb pushed the object off the hand's open, little-finger side).
GRASP_TARGETS = {
    "index_knuckle": 1.3,
    "middle_knuckle": 1.3,
    "ring_knuckle": 1.3,
    "little_knuckle": 1.3,
}


def policy(env, timestep):
    """The next action: target increments towards the cup, then the grasp once the
    object is close."""
    spec = env.action_spec()
    task, physics = env.task, env.physics
    palm_height = physics.bind(task.hand.palm_site).xpos[2]
    object_height = physics.bind(task.object.body).xpos[2]
    goals = dict(CUP_TARGETS)
    if object_height - palm_height <= CLOSE_HEIGHT_M:
        goals.update(GRASP_TARGETS)
    targets = np.array(physics.bind(list(task.hand.actuators)).ctrl)
    goal = np.array([goals.get(a.name, t) for a, t in zip(task.hand.actuators, targets)])
    return np.clip(goal - targets, spec.minimum, spec.maximum)


def run_episode(seed):
    """(caught, return) of one episode of catch under the scripted policy."""
    env = hand.load("catch", seed=seed)
    timestep = env.reset()
    total, steps = 0.0, 0
    while not timestep.last():
        timestep = env.step(policy(env, timestep))
        total += timestep.reward
        steps += 1
    caught = steps == hand.hand_tasks.CATCH_STEPS and timestep.discount == 1.0
    return caught, total


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0, help="the first episode's seed")
    args = parser.parse_args()
    caught = 0
    for seed in range(args.seed, args.seed + args.episodes):
        success, total = run_episode(seed)
        caught += success
        print(f"seed {seed}: {'caught' if success else 'dropped'}, return {total:.1f}")
    print(f"caught {caught} of {args.episodes}")


if __name__ == "__main__":
    main()
