"""PositionDetector as dm_control's: detection of poses set in a task's callback
assigned to the task instance, empty regions, and Primitive observables read by call."""

import numpy as np

from composer_tasks import composer
from composer_tasks.props import position_detector, primitive


def _scene(size):
    arena = composer.Arena()
    ball = primitive.Primitive(geom_type="sphere", size=(0.1,))
    arena.add_free_entity(ball)
    detector = position_detector.PositionDetector(pos=(0.3, 0.2, 0.1), size=size)
    detector.register_entities(ball)
    arena.attach(detector)
    task = composer.NullTask(arena)
    return task, ball, detector


def test_a_pose_set_by_a_callback_assigned_to_the_task_is_detected_at_reset():
    task, ball, detector = _scene(size=(0.1, 0.2, 0.3))
    env = composer.Environment(task)
    env.reset()
    assert detector.detected_entities == []

    def initialize_episode(physics, random_state):
        del random_state
        ball.set_pose(physics, np.array([0.3, 0.2, 0.1]))

    # Assigned after the Environment was made, as dm_control's own tests do.
    task.initialize_episode = initialize_episode
    env.reset()
    assert detector.detected_entities == [ball]
    np.testing.assert_allclose(ball.observables.position(env.physics), [0.3, 0.2, 0.1])
    del task.initialize_episode  # and removing it stops it
    env.reset()
    assert detector.detected_entities == []


def test_a_non_positive_size_is_an_empty_region():
    task, ball, detector = _scene(size=(0.1, -0.2, 0.3))
    env = composer.Environment(task)
    task.initialize_episode = lambda physics, _: ball.set_pose(physics, [0.3, 0.2, 0.1])
    env.reset()
    assert detector.detected_entities == []  # nothing is inside an empty region
