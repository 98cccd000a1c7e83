"""Locomotion tasks hand each action to their walker (`walker.apply_action`), as
dm_control's do, so a walker that keeps its previous action observes it."""

import numpy as np

from composer_tasks import composer
from composer_tasks.arenas import corridors as corridor_arenas
from composer_tasks.arenas import Floor
from composer_tasks.tasks import corridors, go_to_target
from composer_tasks.walkers import jumping_ball


def _check_prev_action(task):
    task.walker.observables.prev_action.enabled = True
    env = composer.Environment(task, random_state=0)
    env.reset()
    spec = env.action_spec()
    action = np.random.RandomState(1).uniform(spec.minimum, spec.maximum).astype(spec.dtype)
    timestep = env.step(action)
    key = f"{task.walker.name}/prev_action"
    np.testing.assert_allclose(timestep.observation[key].ravel(), action)
    np.testing.assert_allclose(env.physics.data.ctrl, action)


def test_corridor_hands_the_action_to_the_walker():
    walker = jumping_ball.RollingBallWithHead()
    _check_prev_action(corridors.RunThroughCorridor(walker, corridor_arenas.EmptyCorridor()))


def test_go_to_target_hands_the_action_to_the_walker():
    walker = jumping_ball.RollingBallWithHead()
    _check_prev_action(go_to_target.GoToTarget(walker, Floor()))
