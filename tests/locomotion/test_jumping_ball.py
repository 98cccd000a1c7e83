"""JumpingBallWithHead and RollingBallWithHead: model facts, actions, observables,
a rollout in a corridor, and determinism."""

import numpy as np
import pytest

from composer_tasks import composer, mjcf
from composer_tasks.arenas import corridors as corridor_arenas
from composer_tasks.tasks import corridors as corridor_tasks
from composer_tasks.walkers import jumping_ball


def _environment(walker, seed=0):
    task = corridor_tasks.RunThroughCorridor(
        walker=walker,
        arena=corridor_arenas.EmptyCorridor(),
        walker_spawn_position=(5, 0, 0),
        walker_spawn_rotation=0,
        physics_timestep=0.005,
        control_timestep=0.02,
    )
    return composer.Environment(
        time_limit=30, task=task, random_state=seed, strip_singleton_obs_buffer_dim=True
    )


@pytest.mark.parametrize(
    "walker_class, camera_control, names",
    [
        (jumping_ball.JumpingBallWithHead, False, ["roll", "steer", "kick"]),
        (
            jumping_ball.JumpingBallWithHead,
            True,
            ["roll", "steer", "kick", "camera_height", "camera_tilt"],
        ),
        (jumping_ball.RollingBallWithHead, False, ["roll", "steer"]),
    ],
)
def test_actions_and_masses(walker_class, camera_control, names):
    walker = walker_class(camera_control=camera_control)
    spec = walker.action_spec
    assert spec.name.split("\t") == names
    assert spec.shape == (len(names),)
    np.testing.assert_array_equal(spec.minimum, -1.0)
    np.testing.assert_array_equal(spec.maximum, 1.0)
    physics = mjcf.Physics.from_mjcf_model(walker.mjcf_model)
    # 20 kg head, 1 kg camera body, 1 kg shell (dm_control's published masses).
    assert physics.bind(walker.root_body).subtreemass == pytest.approx(22.0)
    gears = physics.bind(walker.actuators).gear[:, 0]
    np.testing.assert_array_equal(gears[:2], [-50.0, 30.0])


def test_observables_and_kick_rollout():
    walker = jumping_ball.JumpingBallWithHead()
    assert [joint.name for joint in walker.observable_joints] == ["kick"]
    assert not jumping_ball.RollingBallWithHead().observable_joints
    environment = _environment(walker)
    observation = environment.reset().observation
    assert observation["walker/joints_pos"].shape == (1,)
    assert observation["walker/sensors_velocimeter"].shape == (3,)
    np.testing.assert_allclose(observation["walker/world_zaxis"], [0.0, 0.0, 1.0], atol=1e-9)
    # Full kick: the 1000 N slide pushes the ball down from the head, to its 0.4 m
    # stop (a soft limit, which 1000 N presses a few centimetres past).
    action = np.array([0.0, 0.0, 1.0])
    for _ in range(10):
        timestep = environment.step(action)
    assert 0.35 < timestep.observation["walker/joints_pos"][0] < 0.45


def test_prev_action_is_recorded_and_zeroed_each_episode():
    walker = jumping_ball.JumpingBallWithHead()
    environment = _environment(walker)
    environment.reset()
    action = np.array([0.5, -0.25, 1.0])
    walker.apply_action(environment.physics, action, None)
    np.testing.assert_array_equal(walker.prev_action, action)
    environment.reset()
    np.testing.assert_array_equal(walker.prev_action, np.zeros(3))


def test_roll_moves_along_the_corridor():
    walker = jumping_ball.RollingBallWithHead()
    environment = _environment(walker)
    environment.reset()
    start = float(environment.physics.bind(walker.root_body).xpos[0])
    # The roll gear is negative (-50 N m): a negative control rolls it along +x.
    for _ in range(50):
        environment.step(np.array([-1.0, 0.0]))
    assert float(environment.physics.bind(walker.root_body).xpos[0]) > start + 0.5


def test_same_seed_same_trajectory():
    def trajectory():
        environment = _environment(jumping_ball.JumpingBallWithHead(), seed=3)
        environment.reset()
        actions = np.random.RandomState(1).uniform(-1.0, 1.0, (20, 3))
        return np.stack(
            [
                np.concatenate([environment.step(a).observation["walker/sensors_velocimeter"]])
                for a in actions
            ]
        )

    np.testing.assert_array_equal(trajectory(), trajectory())


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match="camera_height"):
        jumping_ball.JumpingBallWithHead(camera_height=float("nan"))
    with pytest.raises(TypeError, match="add_ears"):
        jumping_ball.JumpingBallWithHead(add_ears="yes")
