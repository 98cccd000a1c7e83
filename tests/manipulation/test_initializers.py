"""PropPlacer places props without interpenetration; the tool-centre-point
initializer reaches sampled poses by inverse kinematics."""

import numpy as np
import pytest

from composer_tasks.arenas.table import Table
from composer_tasks.composer import initializers
from composer_tasks.composer.variation import distributions
from composer_tasks.mjcf import Physics
from composer_tasks.props.bricks import Duplo
from composer_tasks.props.primitive import Primitive
from composer_tasks.robots import JacoArm
from composer_tasks.robots import JacoHand


def _boxes(count, half_size=0.05):
    arena = Table()
    boxes = [Primitive("box", [half_size] * 3, name=f"box{i}") for i in range(count)]
    for box in boxes:
        arena.add_free_entity(box)
    return Physics.from_spec(arena.spec), boxes


def test_prop_placer_rejects_overlapping_poses():
    physics, boxes = _boxes(4)
    placer = initializers.PropPlacer(
        boxes, position=distributions.Uniform((-0.2, -0.2, 0.051), (0.2, 0.2, 0.051))
    )
    random_state = np.random.RandomState(0)
    for _ in range(5):
        placer(physics, random_state)
        physics.forward()
        positions = np.array([box.get_pose(physics)[0] for box in boxes])
        gaps = np.abs(positions[:, None, :2] - positions[None, :, :2]).max(-1)
        np.fill_diagonal(gaps, np.inf)
        assert gaps.min() >= 0.1 - 1e-9  # Cubes of 0.1 m side do not overlap.
        assert not np.any(physics.data.contact.dist[: physics.data.ncon] < 0)


def test_prop_placer_ignore_collisions_accepts_overlaps():
    physics, boxes = _boxes(2)
    placer = initializers.PropPlacer(
        boxes, position=np.array([0.0, 0.0, 0.051]), ignore_collisions=True
    )
    placer(physics, np.random.RandomState(0))
    np.testing.assert_allclose(boxes[0].get_pose(physics)[0], boxes[1].get_pose(physics)[0])


def test_prop_placer_raises_when_no_free_pose_exists():
    physics, boxes = _boxes(2)
    placer = initializers.PropPlacer(
        boxes, position=np.array([0.0, 0.0, 0.051]), max_attempts_per_prop=3
    )
    with pytest.raises(initializers.EpisodeInitializationError, match="box1"):
        placer(physics, np.random.RandomState(0))


def test_prop_placer_settles_props_and_holds_other_joints():
    arena, arm, hand = Table(), JacoArm(), JacoHand()
    arm.attach(hand)
    arena.attach_offset(arm, (0.0, 0.4, 0.0))
    brick = Duplo()
    arena.add_free_entity(brick)
    physics = Physics.from_spec(arena.spec)
    physics.data.qpos[:6] = arm.home_qpos
    physics.forward()
    arm_qpos = physics.data.qpos[:9].copy()
    placer = initializers.PropPlacer(
        [brick], position=np.array([0.0, 0.0, 0.02]), settle_physics=True
    )
    placer(physics, np.random.RandomState(0))
    np.testing.assert_array_equal(physics.data.qpos[:9], arm_qpos)
    assert physics.time() == 0.0
    # The brick fell 2 cm onto the table and came to rest there.
    assert brick.get_pose(physics)[0][2] == pytest.approx(0.0, abs=2e-4)
    assert np.abs(physics.bind(brick.free_joint).qvel).max() < 1e-2


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(max_attempts_per_prop=0), "max_attempts_per_prop"),
        (dict(max_settle_physics_attempts=0), "max_settle_physics_attempts"),
        (dict(min_settle_physics_time=3.0), "settling times"),
    ],
)
def test_prop_placer_rejects_bad_settings(kwargs, message):
    _, boxes = _boxes(1)
    with pytest.raises(ValueError, match=message):
        initializers.PropPlacer(boxes, position=np.zeros(3), **kwargs)
    with pytest.raises(TypeError, match="props"):
        initializers.PropPlacer([], position=np.zeros(3))


def _robot():
    arena, arm, hand = Table(), JacoArm(), JacoHand()
    arm.attach(hand)
    arena.attach_offset(arm, (0.0, 0.4, 0.0))
    return Physics.from_spec(arena.spec), arm, hand


def test_tool_centre_point_initializer_reaches_sampled_poses():
    physics, arm, hand = _robot()
    low, high = (-0.1, -0.1, 0.2), (0.1, 0.1, 0.4)
    initializer = initializers.ToolCenterPointInitializer(
        hand, arm, position=distributions.Uniform(low, high)
    )
    random_state = np.random.RandomState(0)
    down = np.array([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, -1.0]])
    for _ in range(5):
        initializer(physics, random_state)
        # dm_control's default tool centre point: the grip site.
        pinch = physics.bind(hand.tool_center_point)
        assert np.all(pinch.xpos >= np.array(low) - 1e-9) and np.all(pinch.xpos <= high)
        np.testing.assert_allclose(pinch.xmat.reshape(3, 3), down, atol=1e-6)
        lower, upper = arm.joint_sampling_bounds(physics)
        angles = physics.data.qpos[:6]
        assert np.all(angles >= lower) and np.all(angles < upper)


def test_tool_centre_point_initializer_raises_for_unreachable_poses():
    physics, arm, hand = _robot()
    initializer = initializers.ToolCenterPointInitializer(
        hand, arm, position=np.array([0.0, 0.0, 2.0]), max_ik_attempts=2, max_rejection_samples=2
    )
    with pytest.raises(initializers.EpisodeInitializationError, match="inverse-kinematics"):
        initializer(physics, np.random.RandomState(0))


def test_qpos_from_site_pose_checks_shapes_and_converges():
    physics, arm, hand = _robot()
    physics.data.qpos[:6] = arm.home_qpos
    target = np.array([0.05, -0.05, 0.25])
    assert initializers.qpos_from_site_pose(
        physics, hand.pinch_site, target, initializers.DOWN_QUATERNION, dofs=np.arange(6)
    )
    np.testing.assert_allclose(physics.bind(hand.pinch_site).xpos, target, atol=1e-9)
    with pytest.raises(ValueError, match="target_pos"):
        initializers.qpos_from_site_pose(physics, hand.pinch_site, np.zeros(2))
    with pytest.raises(ValueError, match="target_quat"):
        initializers.qpos_from_site_pose(physics, hand.pinch_site, target, np.zeros(3))
