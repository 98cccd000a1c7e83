"""The parkour task against the main text of Heess et al. 2017 (arXiv:1707.02286),
on the real walkers: the humanoids' head terminations, the planar walker's
published reward (Appendix B.2) and fall termination, their input checks, and
the registry wiring."""

import numpy as np
import pytest

from composer_tasks import composer
from composer_tasks import walkers
from composer_tasks.arenas import Floor
from composer_tasks.tasks import parkour
from suites import locomotion

_HUMANOIDS = {
    "humanoid": walkers.Humanoid,
    "cmu_humanoid": walkers.CMUHumanoidPositionControlledV2020,
}


def _step_without_torques_until_last(env, task, seconds):
    """Steps zero actions for up to `seconds` of simulated time; the last TimeStep."""
    action = np.zeros(env.action_spec().shape)
    for _ in range(int(round(seconds / task.control_timestep))):
        timestep = env.step(action)
        if timestep.last():
            break
    return timestep


def _env(walker, reward=None, pose_termination=None, arena=None):
    arena = arena or Floor()
    task = parkour.ForwardProgress(
        walker,
        arena,
        reward or parkour.UnitForwardVelocityReward(),
        pose_termination=pose_termination(walker, arena) if pose_termination else None,
    )
    env = composer.Environment(task, random_state=0)
    env.reset()
    return task, env


def _pitch_quaternion(angle):
    """Rotation by `angle` radians about world +y (leans +z toward +x)."""
    return np.array([np.cos(angle / 2), 0.0, np.sin(angle / 2), 0.0])


def _scaled_thresholds(walker_name):
    """(head-to-feet, head-above-ground) thresholds for `walker_name`: the
    published 0.9 m and 1.1 m scaled as the registry scales the first."""
    scale = locomotion.head_to_feet_threshold_m(walker_name) / 0.9
    return 0.9 * scale, 1.1 * scale


# Humanoids: HeadHeightTermination.


def test_registry_scales_the_threshold_by_the_measured_standing_distances():
    standing = {}
    for name, walker_class in _HUMANOIDS.items():
        walker = walker_class()
        check = parkour.HeadHeightTermination(walker, Floor(), walker.head)
        _, env = _env(walker)
        standing[name] = check.head_to_feet(env.physics)
    assert standing["humanoid"] == pytest.approx(1.4503, abs=1e-3)
    assert locomotion.head_to_feet_threshold_m("humanoid") == 0.9
    assert locomotion.head_to_feet_threshold_m("cmu_humanoid") == pytest.approx(
        0.9 * standing["cmu_humanoid"] / standing["humanoid"], abs=1e-3
    )
    with pytest.raises(ValueError, match="quadruped"):
        locomotion.head_to_feet_threshold_m("quadruped")


@pytest.mark.parametrize("name", sorted(_HUMANOIDS))
def test_standing_humanoid_does_not_terminate(name):
    to_feet, above_ground = _scaled_thresholds(name)
    walker = _HUMANOIDS[name]()
    _, env = _env(walker)
    for feet_limit, ground_limit in (
        (to_feet, None),
        (None, above_ground),
        (to_feet, above_ground),
    ):
        check = parkour.HeadHeightTermination(
            walker,
            Floor(),
            walker.head,
            min_head_to_feet_m=feet_limit,
            min_head_above_ground_m=ground_limit,
        )
        assert not check.has_fallen(env.physics)
    # The margins are wide: the head stands well clear of both thresholds.
    assert check.head_to_feet(env.physics) > 1.5 * to_feet
    assert check.head_above_ground(env.physics) > 1.3 * above_ground


@pytest.mark.parametrize("name", sorted(_HUMANOIDS))
def test_humanoid_lying_on_the_ground_ends_the_ground_test_but_not_the_feet_test(name):
    to_feet, above_ground = _scaled_thresholds(name)
    walker = _HUMANOIDS[name]()
    arena = Floor()
    _, env = _env(walker, arena=arena)
    # On its back, stretched out, the walker's frame origin 0.2 m above the floor.
    walker.set_pose(env.physics, position=[0.0, 0.0, 0.2], quaternion=_pitch_quaternion(-np.pi / 2))
    env.physics.forward()
    ground = parkour.HeadHeightTermination(
        walker, arena, walker.head, min_head_to_feet_m=None, min_head_above_ground_m=above_ground
    )
    feet = parkour.HeadHeightTermination(walker, arena, walker.head, min_head_to_feet_m=to_feet)
    assert ground.head_above_ground(env.physics) < 0.4
    assert ground.has_fallen(env.physics)
    # (a) measures the head's distance to the feet, which lying stretched out keeps.
    assert not feet.has_fallen(env.physics)


@pytest.mark.parametrize("name", sorted(_HUMANOIDS))
def test_humanoid_collapsing_without_control_ends_the_episode_with_discount_zero(name):
    to_feet, _ = _scaled_thresholds(name)
    walker = _HUMANOIDS[name]()
    task, env = _env(
        walker,
        reward=parkour.UnitForwardVelocityReward(),
        pose_termination=lambda w, a: parkour.HeadHeightTermination(
            w, a, w.head, min_head_to_feet_m=to_feet
        ),
    )
    standing_head = env.physics.bind(walker.head).xpos[2]
    timestep = _step_without_torques_until_last(env, task, seconds=2.0)
    assert timestep.last() and timestep.discount == 0.0
    assert task.pose_termination.head_to_feet(env.physics) < to_feet
    assert env.physics.bind(walker.head).xpos[2] < 0.8 * standing_head


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        (dict(min_head_to_feet_m=-0.9), ValueError, "min_head_to_feet_m"),
        (dict(min_head_to_feet_m=0.0), ValueError, "min_head_to_feet_m"),
        (dict(min_head_to_feet_m=float("nan")), ValueError, "min_head_to_feet_m"),
        (dict(min_head_to_feet_m="0.9"), TypeError, "min_head_to_feet_m"),
        (dict(min_head_above_ground_m=float("inf")), ValueError, "min_head_above_ground_m"),
        (dict(min_head_above_ground_m=True), TypeError, "min_head_above_ground_m"),
        (dict(min_head_to_feet_m=None, min_head_above_ground_m=None), ValueError, "both are None"),
    ],
)
def test_head_termination_rejects_bad_thresholds(kwargs, error, match):
    walker = walkers.Humanoid()
    with pytest.raises(error, match=match):
        parkour.HeadHeightTermination(walker, Floor(), walker.head, **kwargs)


def test_head_termination_rejects_missing_parts():
    walker = walkers.Humanoid()
    with pytest.raises(ValueError, match="head_body"):
        parkour.HeadHeightTermination(walker, Floor(), None)
    with pytest.raises(TypeError, match="terrain_height"):
        parkour.HeadHeightTermination(walker, object(), walker.head, min_head_above_ground_m=1.1)

    class Footless:
        ground_contact_geoms = ()

    with pytest.raises(ValueError, match="ground_contact_geoms"):
        parkour.HeadHeightTermination(Footless(), Floor(), walker.head)


# Planar walker: TorsoPose, PlanarWalkerReward, TorsoPoseTermination.


def _planar(reward=None, pose_termination=None):
    walker = walkers.PlanarWalker()
    task, env = _env(walker, reward=reward, pose_termination=pose_termination)
    env.physics.data.qvel[:] = 0.0
    env.physics.data.ctrl[:] = 0.0
    env.physics.forward()
    return walker, task, env


def _pose(env, walker, pitch=0.0, hip=0.0, knee=0.0):
    """Stands the walker's frame at the origin pitched by `pitch` (rad), both hips
    and knees at the given angles (rad), at rest."""
    walker.set_pose(env.physics, position=[0.0, 0.0, 0.0], quaternion=_pitch_quaternion(pitch))
    # Leg joints: right hip, knee, ankle, then the left ones.
    joints = walker.observable_joints
    for first in (0, 3):
        env.physics.bind(joints[first]).qpos = hip
        env.physics.bind(joints[first + 1]).qpos = knee
    env.physics.data.qvel[:] = 0.0
    env.physics.forward()


def test_torso_pose_of_the_standing_walker():
    walker, _, env = _planar()
    pose = parkour.TorsoPose(walker)
    # Torso 1.3 m up, foot capsule centres 0.05 m up.
    assert pose.height(env.physics) == pytest.approx(1.25, abs=1e-9)
    assert pose.pitch(env.physics) == pytest.approx(0.0, abs=1e-12)
    _pose(env, walker, pitch=0.3)
    assert pose.pitch(env.physics) == pytest.approx(0.3, abs=1e-12)
    torso = env.physics.bind(walker.root_body).xpos
    assert torso[0] > 0.0
    _pose(env, walker, pitch=-2.0)
    assert pose.pitch(env.physics) == pytest.approx(-2.0, abs=1e-12)


def _planar_reward_quantities(env, walker):
    """(v_x, n_z, dh, |u|^2) read from the data without the reward's code: the
    walker moves rigidly in the tests, so every body has the frame's x velocity."""
    physics = env.physics
    torso = physics.bind(walker.root_body)
    feet_z = [physics.bind(geom).xpos[2] for geom in walker.ground_contact_geoms]
    velocity_x = walker.get_velocity(physics)[0][0]
    return (
        velocity_x,
        torso.xmat[8],
        torso.xpos[2] - min(feet_z),
        float(np.sum(physics.data.ctrl**2)),
    )


@pytest.mark.parametrize(
    "pitch, hip, knee", [(0.0, 0.0, 0.0), (0.4, 0.0, 0.0), (-0.3, 1.0, -2.0), (1.4, 0.0, 0.0)]
)
def test_planar_walker_reward_terms_are_appendix_b2s(pitch, hip, knee):
    reward = parkour.PlanarWalkerReward()
    walker, task, env = _planar(reward=reward)
    _pose(env, walker, pitch=pitch, hip=hip, knee=knee)
    walker.set_velocity(env.physics, velocity=[1.3, 0.0, 0.0])
    env.physics.data.ctrl[:] = [0.5, 0.0, -1.0, 0.0, 0.2, 0.3]
    env.physics.forward()
    velocity_x, upright, height, control = _planar_reward_quantities(env, walker)
    assert velocity_x == pytest.approx(1.3, abs=1e-9)
    assert upright == pytest.approx(np.cos(pitch), abs=1e-9)
    terms = reward.terms(env.physics, walker, 0.0)
    assert terms["velocity"] == pytest.approx(10.0 * velocity_x, abs=1e-9)
    assert terms["upright"] == pytest.approx(0.5 * upright, abs=1e-12)
    assert terms["torso_height"] == pytest.approx(-abs(height - 1.2), abs=1e-12)
    assert terms["low_torso"] == (-10.0 if height < 0.3 else 0.0)
    assert terms["control"] == pytest.approx(-0.1 * control, abs=1e-12)
    expected = (
        10.0 * velocity_x
        + 0.5 * upright
        - abs(height - 1.2)
        - 10.0 * (height < 0.3)
        - 0.1 * control
    )
    assert task.get_reward(env.physics) == pytest.approx(expected, abs=1e-9)


def test_planar_walker_low_torso_indicator_fires_below_0_3m():
    walker, task, env = _planar(reward=parkour.PlanarWalkerReward())
    reward = task._reward
    _pose(env, walker, pitch=1.4)
    height = reward.torso_height(env.physics, walker)
    assert height < 0.3
    assert reward.terms(env.physics, walker, 0.0)["low_torso"] == -10.0
    _pose(env, walker, pitch=1.2)
    assert reward.torso_height(env.physics, walker) > 0.3
    assert reward.terms(env.physics, walker, 0.0)["low_torso"] == 0.0


def test_planar_walker_reward_coefficients_are_arguments():
    reward = parkour.PlanarWalkerReward(
        velocity_weight=2.0,
        upright_weight=0.0,
        target_torso_height_m=1.0,
        height_cost_per_m=3.0,
        min_torso_height_m=1.3,
        low_torso_cost=1.0,
        control_cost=0.0,
    )
    walker, task, env = _planar(reward=reward)
    walker.set_velocity(env.physics, velocity=[0.5, 0.0, 0.0])
    env.physics.forward()
    # Standing straight: dh = 1.25 m, below the 1.3 m threshold given here.
    assert task.get_reward(env.physics) == pytest.approx(2.0 * 0.5 - 3.0 * 0.25 - 1.0, abs=1e-9)


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        (dict(control_cost=-0.1), ValueError, "control_cost"),
        (dict(min_torso_height_m=float("nan")), ValueError, "min_torso_height_m"),
        (dict(target_torso_height_m=None), TypeError, "target_torso_height_m"),
        (dict(velocity_weight="10"), TypeError, "velocity_weight"),
        (dict(height_cost_per_m=float("inf")), ValueError, "height_cost_per_m"),
        (dict(low_torso_cost=-1.0), ValueError, "low_torso_cost"),
    ],
)
def test_planar_walker_reward_rejects_bad_arguments(kwargs, error, match):
    with pytest.raises(error, match=match):
        parkour.PlanarWalkerReward(**kwargs)


def test_standing_walker_does_not_fall_and_a_pose_past_a_threshold_does():
    walker, _, env = _planar()
    default = parkour.TorsoPoseTermination(walker)
    pitch_only = parkour.TorsoPoseTermination(walker, min_torso_height_m=None)
    height_only = parkour.TorsoPoseTermination(walker, max_torso_pitch_rad=None)
    assert not default.has_fallen(env.physics)
    _pose(env, walker, pitch=1.1)
    assert not pitch_only.has_fallen(env.physics)
    _pose(env, walker, pitch=-1.3)
    assert pitch_only.has_fallen(env.physics)
    # Sitting, legs straight out in front: the torso 0.3 m above the feet.
    _pose(env, walker, hip=np.pi / 2)
    assert parkour.TorsoPose(walker).height(env.physics) == pytest.approx(0.3, abs=0.07)
    assert height_only.has_fallen(env.physics)
    assert not pitch_only.has_fallen(env.physics)


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        (dict(min_torso_height_m=None, max_torso_pitch_rad=None), ValueError, "both are None"),
        (dict(min_torso_height_m=float("inf")), ValueError, "min_torso_height_m"),
        (dict(max_torso_pitch_rad=-1.2), ValueError, "max_torso_pitch_rad"),
    ],
)
def test_torso_termination_rejects_bad_thresholds(kwargs, error, match):
    with pytest.raises(error, match=match):
        parkour.TorsoPoseTermination(walkers.PlanarWalker(), **kwargs)


def test_fallen_walker_ends_the_episode_with_discount_zero():
    walker, task, env = _planar(
        reward=parkour.PlanarWalkerReward(),
        pose_termination=lambda w, a: parkour.TorsoPoseTermination(w),
    )
    # Lying on its back on the floor.
    walker.set_pose(env.physics, position=[0.0, 0.0, 0.1], quaternion=_pitch_quaternion(-np.pi / 2))
    timestep = env.step(np.zeros(env.action_spec().shape))
    assert timestep.last() and timestep.discount == 0.0

    # Without torques the legs fold and the walker falls within 2 s.
    env.reset()
    timestep = _step_without_torques_until_last(env, task, seconds=2.0)
    assert timestep.last() and timestep.discount == 0.0


def test_forward_progress_rejects_a_termination_without_has_fallen():
    with pytest.raises(TypeError, match="has_fallen"):
        parkour.ForwardProgress(
            walkers.PlanarWalker(), Floor(), parkour.PlanarWalkerReward(), pose_termination=object()
        )


# Registry wiring.


@pytest.mark.parametrize(
    "name, termination",
    [
        ("walker_parkour_hurdles", parkour.TorsoPoseTermination),
        ("walker_parkour_gaps_unit", parkour.TorsoPoseTermination),
        ("humanoid_parkour_gaps", parkour.HeadHeightTermination),
        ("humanoid_parkour_gaps_unit", parkour.HeadHeightTermination),
        ("cmu_humanoid_parkour_mixed", parkour.HeadHeightTermination),
        ("quadruped_parkour_hurdles", type(None)),
    ],
)
def test_registry_wires_the_terminations(name, termination):
    env = locomotion.load(name, seed=0)
    assert isinstance(env.task.pose_termination, termination)
    env.reset()
    assert not env.step(np.zeros(env.action_spec().shape)).last()


def test_registry_walker_rewards_are_published_and_unit():
    env = locomotion.load("walker_parkour_hurdles", seed=0)
    unit = locomotion.load("walker_parkour_hurdles_unit", seed=0)
    pitch = 0.8
    for environment in (env, unit):
        environment.reset()
        walker = environment.task.walker
        position = walker.get_pose(environment.physics)[0]
        walker.set_pose(environment.physics, position=position, quaternion=_pitch_quaternion(pitch))
        environment.physics.data.qvel[:] = 0.0
        environment.physics.data.ctrl[:] = 0.0
        environment.physics.forward()
    height = parkour.TorsoPose(env.task.walker).height(env.physics)
    assert env.task.get_reward(env.physics) == pytest.approx(
        0.5 * np.cos(pitch) - abs(height - 1.2), abs=1e-9
    )
    assert unit.task.get_reward(unit.physics) == 0.0
