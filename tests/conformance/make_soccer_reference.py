"""Records the published multi-agent soccer's specs and goal outcomes (dm-control 1.0.50).

Run with the reference virtual environment's interpreter, never the project's:

    MUJOCO_GL=disable .venvs/dm_control/bin/python tests/conformance/make_soccer_reference.py

It imports nothing of this project. It writes `reference/soccer.json`:

* "specs": for each walker type (BOXHEAD, ANT) and team size (1, 2), keyed
  "<WALKER>-<team_size>": the number of agents; per agent, the observation spec
  as [name, shape, dtype] in observation order, the action spec (name, shape,
  dtype, minimum, maximum); the reward specs; the discount spec; the physics and
  control timesteps (seconds).
* "goals": for BoxHead teams of 1 and 2, with and without termination on goals,
  keyed "<team_size>-<terminate_on_goal>-<goal>" where <goal> is the goal the
  ball is placed in ("home_goal" or "away_goal"): after a reset (seed 0) the ball
  is put at the centre of that goal's detection box at rest, then one control
  step with zero actions runs; recorded are the step type, the per-agent rewards,
  the discount and each agent's `stats_home_score` and `stats_away_score`.
* "states": for BoxHead and Ant teams of 1 and 2, keyed "<WALKER>-<team_size>":
  after a reset (seed 0) and STATE_STEPS control steps of uniformly random actions
  (seed ACTION_SEED), the pitch size (half-length, half-width, m), qpos, qvel, the
  last per-agent actions, and every agent's observation values evaluated at that
  state after `physics.forward()` (each enabled observable's
  `observation_callable(physics)()`, no buffer axis), as lists.
"""

import argparse
import importlib.metadata
import json
import os

import numpy as np
from dm_control.locomotion import soccer

WALKERS = ("BOXHEAD", "ANT")
TEAM_SIZES = (1, 2)
GOAL_SEED = 0
STATE_STEPS = 30
ACTION_SEED = 7


def _array_spec(spec):
    return {"name": spec.name, "shape": list(spec.shape), "dtype": np.dtype(spec.dtype).name}


def _bounded_spec(spec):
    record = _array_spec(spec)
    record["minimum"] = np.broadcast_to(spec.minimum, spec.shape).tolist()
    record["maximum"] = np.broadcast_to(spec.maximum, spec.shape).tolist()
    return record


def record_specs(walker, team_size):
    env = soccer.load(team_size=team_size, walker_type=soccer.WalkerType[walker], random_state=0)
    observation_spec = env.observation_spec()
    return {
        "num_agents": len(observation_spec),
        "observations": [
            [[name, list(spec.shape), np.dtype(spec.dtype).name] for name, spec in agent.items()]
            for agent in observation_spec
        ],
        "actions": [_bounded_spec(spec) for spec in env.action_spec()],
        "rewards": [_array_spec(spec) for spec in env.reward_spec()],
        "discount": _array_spec(env.discount_spec()),
        "physics_timestep": env.task.physics_timestep,
        "control_timestep": env.task.control_timestep,
    }


def record_goal(team_size, terminate_on_goal, goal_name):
    env = soccer.load(
        team_size=team_size, terminate_on_goal=terminate_on_goal, random_state=GOAL_SEED
    )
    env.reset()
    goal = getattr(env.task.arena, goal_name)
    centre = (goal.upper + goal.lower) / 2.0
    env.task.ball.set_pose(env.physics, centre)
    env.task.ball.set_velocity(env.physics, velocity=np.zeros(3), angular_velocity=np.zeros(3))
    timestep = env.step([np.zeros(spec.shape) for spec in env.action_spec()])
    return {
        "step_type": int(timestep.step_type),
        "rewards": [float(reward) for reward in timestep.reward],
        "discount": float(timestep.discount),
        "stats_home_score": [
            float(np.ravel(o["stats_home_score"])[0]) for o in timestep.observation
        ],
        "stats_away_score": [
            float(np.ravel(o["stats_away_score"])[0]) for o in timestep.observation
        ],
    }


def record_state(walker, team_size):
    env = soccer.load(team_size=team_size, walker_type=soccer.WalkerType[walker], random_state=0)
    env.reset()
    random_state = np.random.RandomState(ACTION_SEED)
    for _ in range(STATE_STEPS):
        actions = [random_state.uniform(spec.minimum, spec.maximum) for spec in env.action_spec()]
        env.step(actions)
    physics = env.physics
    physics.forward()
    observations = [
        {
            name: np.asarray(item.observation_callable(physics)()).tolist()
            for name, item in agent.items()
            if item.enabled
        }
        for agent in env.task.observables
    ]
    return {
        "size": [float(value) for value in env.task.arena.size],
        "qpos": physics.data.qpos.tolist(),
        "qvel": physics.data.qvel.tolist(),
        "actions": [action.tolist() for action in actions],
        "observations": observations,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--output",
        default=os.path.join(
            os.path.dirname(os.path.abspath(__file__)), "reference", "soccer.json"
        ),
    )
    args = parser.parse_args()
    reference = {
        "dm_control_version": importlib.metadata.version("dm-control"),
        "mujoco_version": importlib.metadata.version("mujoco"),
        "specs": {
            f"{walker}-{team_size}": record_specs(walker, team_size)
            for walker in WALKERS
            for team_size in TEAM_SIZES
        },
        "goals": {
            f"{team_size}-{terminate}-{goal}": record_goal(team_size, terminate, goal)
            for team_size in TEAM_SIZES
            for terminate in (True, False)
            for goal in ("home_goal", "away_goal")
        },
        "states": {
            f"{walker}-{team_size}": record_state(walker, team_size)
            for walker in WALKERS
            for team_size in TEAM_SIZES
        },
    }
    with open(args.output, "w") as file:
        json.dump(reference, file, indent=1)
        file.write("\n")
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
