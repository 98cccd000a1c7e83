"""Swimmer domain: published layout and model facts, hand-computed quantities and
rewards, initial states and targets, the procedural number of links."""

import os

import numpy as np
import pytest

from conformance import conformance
from mjcf_models import swimmer as swimmer_model
from suites import suite
from suites import swimmer

_TASKS = [("swimmer6", 6), ("swimmer15", 15)]
_ROOTX, _ROOTY, _ROOTZ = 0, 1, 2
# Nose position in the head frame (m) and the target centre's height (m).
_NOSE_Y = -0.06
_TARGET_HEIGHT = 0.05
# The root hinge turns the head about this point of the head frame (m).
_HINGE_Y = -0.05


def _reference(task):
    path = os.path.join(conformance.REFERENCE_DIR, f"swimmer-{task}.npz")
    if not os.path.exists(path):
        pytest.skip(f"no reference data at {path}")
    return conformance.load_reference(path)


def _pose(env, target_xy, x=0.0, y=0.0, heading=0.0, qvel=None):
    """A straight swimmer with its head frame moved by (x, y) m and turned by
    `heading` rad, the target centre at world `target_xy`."""
    physics = env.physics
    physics.reset()
    physics.set_target_position(*target_xy)
    physics.data.qpos[[_ROOTX, _ROOTY, _ROOTZ]] = x, y, heading
    if qvel is not None:
        physics.data.qvel[:] = qvel
    physics.forward()
    return physics


@pytest.mark.parametrize("task, links", _TASKS)
def test_published_dimensions_and_layout(task, links):
    # dm_control paper §6.2: a k-link swimmer has state 2k + 4, action k - 1,
    # observation 4k + 1.
    env = suite.load("swimmer", task, task_kwargs={"random": 0})
    model = env.physics.model
    assert model.nq + model.nv == 2 * links + 4
    assert env.action_spec().shape == (links - 1,)
    observation_spec = env.observation_spec()
    assert list(observation_spec) == ["joints", "to_target", "body_velocities"]
    assert [spec.shape for spec in observation_spec.values()] == [(links - 1,), (2,), (3 * links,)]
    assert sum(spec.shape[0] for spec in observation_spec.values()) == 4 * links + 1
    assert [model.joint(i).name for i in range(model.njnt)] == (
        ["rootx", "rooty", "rootz"] + [f"joint_{i}" for i in range(links - 1)]
    )
    assert [model.actuator(i).name for i in range(model.nu)] == [
        f"motor_{i}" for i in range(links - 1)
    ]


@pytest.mark.parametrize("task, links", _TASKS)
def test_timing(task, links):
    env = suite.load("swimmer", task, task_kwargs={"random": 0})
    assert env.physics.model.opt.timestep == 0.002
    assert env.task.control_timestep == pytest.approx(0.03)
    assert env.task.physics_steps_per_control_step == 15


def test_any_number_of_links_from_three():
    for links in (3, 4, 9):
        env = swimmer.swimmer(links, random=0)
        assert env.action_spec().shape == (links - 1,)
        assert env.observation_spec()["body_velocities"].shape == (3 * links,)
        # Joints may bend a full turn spread over the chain.
        np.testing.assert_allclose(
            env.physics.model.jnt_range[3:], np.radians([[-360 / links, 360 / links]] * (links - 1))
        )
    for bad in (2, 0, 6.0, True, "6"):
        with pytest.raises(ValueError, match="n_links must be an integer >= 3"):
            swimmer_model.make_spec(bad)


def test_tracking_cameras_move_back_with_the_swimmer_length():
    six = swimmer_model.make_spec(6).compile()
    fifteen = swimmer_model.make_spec(15).compile()
    for camera in ("tracking1", "tracking2"):
        np.testing.assert_allclose(fifteen.camera(camera).pos, 2.5 * six.camera(camera).pos)
    np.testing.assert_allclose(fifteen.camera("eyes").pos, six.camera("eyes").pos)


def test_nose_to_target_by_hand():
    env = suite.load("swimmer", "swimmer6", task_kwargs={"random": 0})
    # Head frame aligned with the world, moved by (0.2, -0.3).
    physics = _pose(env, target_xy=(1.0, 0.5), x=0.2, y=-0.3)
    np.testing.assert_allclose(
        physics.nose_to_target(), [1.0 - 0.2, 0.5 + 0.3 - _NOSE_Y], atol=1e-12
    )
    # Turned half a circle about the hinge: the nose swings to the hinge's other side
    # (world y = 2 * hinge - nose), and the head's x and y axes flip.
    physics = _pose(env, target_xy=(1.0, 0.5), heading=np.pi)
    nose_world_y = 2 * _HINGE_Y - _NOSE_Y
    np.testing.assert_allclose(physics.nose_to_target(), [-1.0, -(0.5 - nose_world_y)], atol=1e-12)
    assert physics.nose_to_target_dist() == pytest.approx(np.hypot(1.0, 0.5 - nose_world_y))


@pytest.mark.parametrize(
    "distance, expected",
    [
        # Inside the 0.1 m target: 1.
        (0.0, 1.0),
        (0.1, 1.0),
        # The long tail 1 / (1 + (3 d)^2) of the distance d beyond the target in
        # margins (0.5 m), which is 0.1 at one margin.
        (0.35, 1 / (1 + (3 * 0.5) ** 2)),
        (0.6, 0.1),
        (1.1, 1 / (1 + (3 * 2) ** 2)),
    ],
)
def test_reward_by_hand(distance, expected):
    env = suite.load("swimmer", "swimmer6", task_kwargs={"random": 0})
    physics = _pose(env, target_xy=(distance, _NOSE_Y))
    assert physics.nose_to_target_dist() == pytest.approx(distance, abs=1e-12)
    assert env.task.get_reward(physics) == pytest.approx(expected, abs=1e-12)


def test_body_velocities_are_planar_and_in_each_body_frame():
    env = suite.load("swimmer", "swimmer6", task_kwargs={"random": 0})
    physics = env.physics
    # The root slides move the straight swimmer in world x and y; with the head
    # aligned with the world every body sees that velocity in its own frame.
    qvel = np.zeros(physics.model.nv)
    qvel[_ROOTX], qvel[_ROOTY] = 0.3, -0.2
    physics = _pose(env, target_xy=(1, 1), qvel=qvel)
    np.testing.assert_allclose(physics.body_velocities(), np.tile([0.3, -0.2, 0.0], 6), atol=1e-12)
    physics = _pose(env, target_xy=(1, 1), heading=np.pi / 2, qvel=qvel)
    # A quarter turn: world x is the body's -y, world y its +x.
    np.testing.assert_allclose(physics.body_velocities(), np.tile([-0.2, -0.3, 0.0], 6), atol=1e-12)
    qvel[:] = 0.0
    qvel[_ROOTZ] = 0.7
    physics = _pose(env, target_xy=(1, 1), qvel=qvel)
    np.testing.assert_allclose(physics.body_velocities()[2::3], np.full(6, 0.7), atol=1e-12)


def test_observations_at_reset():
    env = suite.load("swimmer", "swimmer6", task_kwargs={"random": 0})
    observation = env.reset().observation
    physics = env.physics
    np.testing.assert_array_equal(observation["joints"], physics.data.qpos[3:])
    np.testing.assert_array_equal(observation["to_target"], physics.nose_to_target())
    np.testing.assert_array_equal(observation["body_velocities"], np.zeros(18))


def test_targets_are_drawn_near_or_far_and_carry_their_light():
    env = suite.load("swimmer", "swimmer6", task_kwargs={"random": 0})
    physics = env.physics
    model = physics.model
    target, light = model.geom("target").id, model.light("target_light").id
    close = 0
    random_state = np.random.RandomState(0)
    for _ in range(200):
        with physics.reset_context():
            env.task.initialize_episode(physics, random_state)
        position = model.geom_pos[target]
        assert np.all(np.abs(position[:2]) <= 2.0) and position[2] == _TARGET_HEIGHT
        np.testing.assert_array_equal(model.light_pos[light][:2], position[:2])
        close += np.all(np.abs(position[:2]) <= 0.3)
    # One target in five is drawn within 0.3 m (and a few far ones land there too).
    assert 0.12 < close / 200 < 0.32


@pytest.mark.parametrize("task, links", _TASKS)
def test_seeded_initial_states_and_targets_equal_the_published_ones(task, links):
    # Joints, then the near-or-far coin, then the target, drawn as published, so the
    # seed the reference was recorded with gives its initial states and targets.
    reference = _reference(task)
    env = suite.load(
        "swimmer", task, task_kwargs={"random": reference.meta["initial_state_task_seed"]}
    )
    physics = env.physics
    target = physics.model.geom("target").id
    env.reset()
    for qpos, qvel, target_pos in zip(
        reference.initial["qpos"], reference.initial["qvel"], reference.initial["geom_pos"]
    ):
        np.testing.assert_array_equal(physics.data.qpos, qpos)
        np.testing.assert_array_equal(physics.data.qvel, qvel)
        np.testing.assert_array_equal(physics.model.geom_pos[target], target_pos[0])
        # The next episode start, drawn from the generator env.reset() uses (without
        # the Environment's per-reset bookkeeping, to keep the test fast).
        with physics.reset_context():
            env.task.initialize_episode(physics, env.random_state)


def test_physics_class_is_the_domain_one():
    env = suite.load("swimmer", "swimmer6", task_kwargs={"random": 0})
    assert isinstance(env.physics, swimmer.Physics)
