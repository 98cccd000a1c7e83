"""The tasks of Liang et al. 2018 (§4.1, Appendices B and C): reward terms on
constructed states, the flagrun target's rules, the fall allowance, the push
schedule, the complex terrain and its height map; and that every such
registry task is deterministic and batches bit-identically."""

import mujoco
import numpy as np
import pytest

from composer_tasks import composer
from composer_tasks import walkers
from composer_tasks.arenas import Floor
from composer_tasks.arenas import obstacles
from composer_tasks.batch import copy_seed
from composer_tasks.tasks import flagrun
from suites import locomotion

_GPU_TASKS = (
    "ant_run",
    "humanoid_run",
    "humanoid_flagrun_harder",
    "humanoid_flagrun_harder_terrain",
)


def _task_env(walker=None, arena=None, **kwargs):
    kwargs.setdefault("push_interval_frames", None)
    kwargs.setdefault("initial_noise", 0.0)
    walker = walker or walkers.Humanoid()
    task = flagrun.TargetRun(
        walker,
        arena or Floor(size=(50.0, 50.0)),
        flagrun.LiangReward(alive_bonus=2.0),
        fall_height_m=0.78,
        **kwargs,
    )
    env = composer.Environment(task, random_state=0)
    env.reset()
    return task, env


def _stand(env, task, position=(0.0, 0.0, 0.0), yaw=0.0, velocity=(0.0, 0.0, 0.0)):
    """The walker in its initial pose at `position` turned by `yaw`, moving
    rigidly with `velocity`, zero controls."""
    physics = env.physics
    task.walker.reinitialize_pose(physics, np.random.RandomState(0))
    task.walker.set_pose(
        physics,
        position=np.asarray(position, dtype=np.float64),
        quaternion=[np.cos(yaw / 2), 0.0, 0.0, np.sin(yaw / 2)],
    )
    task.walker.set_velocity(
        physics, velocity=np.asarray(velocity, dtype=np.float64), angular_velocity=np.zeros(3)
    )
    physics.data.ctrl[:] = 0.0
    physics.forward()


# Reward (Appendix C).


@pytest.mark.parametrize("yaw", [0.0, 0.5, 1.2, np.pi])
def test_speed_and_heading_terms(yaw):
    task, env = _task_env()
    _stand(env, task, position=(0.0, 0.0, 0.3), yaw=yaw, velocity=(1.5, 0.5, 0.0))
    com = task.center_of_mass(env.physics)
    task.set_target(env.physics, com[:2] + [10.0, 0.0])
    terms = task._reward.terms(env.physics, task)
    # Rigid motion: the centre of mass moves at the set velocity; the target is along +x.
    assert terms["speed"] == pytest.approx(1.5, abs=1e-9)
    cosine = np.cos(yaw)
    assert task.heading_cosine(env.physics) == pytest.approx(cosine, abs=1e-9)
    expected_heading = 1.0 if cosine > 0.8 else cosine / 0.8
    assert terms["heading"] == pytest.approx(0.5 * expected_heading, abs=1e-9)
    np.testing.assert_allclose(
        task.target_heading(env.physics), [np.sin(-yaw), np.cos(yaw)], atol=1e-9
    )


def test_alive_standing_control_and_torque_terms():
    task, env = _task_env()
    _stand(env, task, position=(0.0, 0.0, 0.3))
    physics = env.physics
    controls = np.linspace(-1.0, 1.0, physics.model.nu)
    physics.data.ctrl[:] = controls
    physics.forward()
    terms = task._reward.terms(physics, task)
    gears = physics.model.actuator_gear[:, 0]
    assert terms["alive"] == 2.0
    assert terms["standing"] == 0.05
    assert terms["control"] == pytest.approx(-0.5 * np.sum(controls**2), abs=1e-12)
    assert terms["torque"] == pytest.approx(
        -4.0 * np.sum(np.abs(gears * controls)) / np.max(gears), abs=1e-9
    )
    assert task._reward(physics, task) == pytest.approx(sum(terms.values()), abs=1e-12)

    # Tilted 0.5 rad (cos 0.878 < 0.93): not standing; lowered below 0.78 m: no alive bonus.
    task.walker.set_pose(physics, quaternion=[np.cos(0.25), np.sin(0.25), 0.0, 0.0])
    physics.forward()
    assert task._reward.terms(physics, task)["standing"] == 0.0
    task.walker.set_pose(physics, position=[0.0, 0.0, -0.6], quaternion=[1.0, 0.0, 0.0, 0.0])
    physics.forward()
    assert task.root_height(physics)[0] < 0.78
    assert task._reward.terms(physics, task)["alive"] == 0.0


def test_joints_at_limit_and_feet_contact_terms():
    task, env = _task_env()
    physics = env.physics
    _stand(env, task, position=(0.0, 0.0, 0.5))
    assert task.joints_at_limit(physics) == 0
    np.testing.assert_array_equal(task.feet_contact(physics), [0.0, 0.0])
    joints = task.walker.observable_joints
    for count, joint in enumerate(joints[:3], start=1):
        bound = physics.bind(joint)
        bound.qpos = physics.model.jnt_range[bound.element_id][1]
        physics.forward()
        assert task.joints_at_limit(physics) == count
        assert task._reward.terms(physics, task)["joints_at_limit"] == pytest.approx(-0.2 * count)
    _stand(env, task, position=(0.0, 0.0, -0.005))
    np.testing.assert_array_equal(task.feet_contact(physics), [1.0, 1.0])
    assert task._reward.terms(physics, task)["feet_contact"] == -2.0


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        (dict(alive_bonus="2"), TypeError, "alive_bonus"),
        (dict(alive_bonus=2.0, torque_cost=-1.0), ValueError, "torque_cost"),
        (dict(alive_bonus=2.0, heading_cosine_threshold=1.5), ValueError, "heading_cosine"),
    ],
)
def test_reward_rejects_bad_coefficients(kwargs, error, match):
    with pytest.raises(error, match=match):
        flagrun.LiangReward(**kwargs)


# Target.


def test_run_target_is_far_ahead_and_never_moves():
    task, env = _task_env()
    start = task.target
    assert start[0] == pytest.approx(flagrun.FORWARD_TARGET_DISTANCE_M, abs=0.5)
    for _ in range(5):
        env.step(np.zeros(env.action_spec().shape))
    np.testing.assert_array_equal(task.target, start)


def test_flagrun_target_moves_when_reached():
    task, env = _task_env(moving_target=True)
    physics = env.physics
    _stand(env, task, position=(0.0, 0.0, 0.3))
    com = task.center_of_mass(physics)[:2]
    task.set_target(physics, com + [0.6, 0.0])
    task.after_step(physics, np.random.RandomState(1))
    distance = np.hypot(*(task.target - com))
    assert 1.0 < distance <= 100.0
    np.testing.assert_allclose(physics.bind(task._flag).pos[:2], task.target)
    # Farther than the reach distance: it stays.
    far = com + [1.5, 0.0]
    task.set_target(physics, far)
    task.after_step(physics, np.random.RandomState(1))
    np.testing.assert_array_equal(task.target, far)


def test_flagrun_target_moves_every_200_frames():
    task, env = _task_env(moving_target=True, fall_allowance_frames=1000)
    task.set_target(env.physics, [60.0, 60.0])
    action = np.zeros(env.action_spec().shape)
    for frame in range(1, 201):
        env.step(action)
        if frame < 200:
            np.testing.assert_array_equal(task.target, [60.0, 60.0])
    assert not np.array_equal(task.target, [60.0, 60.0])
    # The timer restarts with the new target.
    moved = task.target
    for _ in range(199):
        env.step(action)
    np.testing.assert_array_equal(task.target, moved)
    env.step(action)
    assert not np.array_equal(task.target, moved)


def test_flagrun_targets_are_uniform_in_the_annulus():
    task, env = _task_env(moving_target=True)
    random_state = np.random.RandomState(0)
    offsets = []
    for _ in range(2000):
        task._resample_target(env.physics, np.zeros(2), random_state)
        offsets.append(task.target)
    radii = np.hypot(*np.array(offsets).T)
    assert np.all((radii > 1.0) & (radii <= 100.0))
    # Uniform over the area: half the targets lie beyond r = sqrt((1 + 100^2) / 2).
    assert np.mean(radii > np.sqrt((1.0 + 100.0**2) / 2)) == pytest.approx(0.5, abs=0.04)


# Falls.


@pytest.mark.parametrize("allowance", [0, 5])
def test_fall_allowance_ends_the_episode_after_that_many_fallen_frames(allowance):
    task, env = _task_env(fall_allowance_frames=allowance)
    action = np.zeros(env.action_spec().shape)
    fallen = []
    for _ in range(300):
        timestep = env.step(action)
        fallen.append(task.fallen_frames)
        if timestep.last():
            break
    assert timestep.last() and timestep.discount == 0.0
    assert fallen[-1] == allowance + 1
    assert max(fallen[:-1]) <= allowance
    # Consecutive fallen frames: 1, 2, ..., allowance + 1 at the end.
    np.testing.assert_array_equal(fallen[-(allowance + 1) :], np.arange(1, allowance + 2))


def test_getting_up_restarts_the_fall_count():
    task, env = _task_env(fall_allowance_frames=160)
    physics = env.physics
    random_state = np.random.RandomState(0)
    _stand(env, task, position=(0.0, 0.0, -0.8))
    for count in range(1, 4):
        task.after_step(physics, random_state)
        assert task.fallen_frames == count and not task.should_terminate_episode(physics)
    _stand(env, task)
    task.after_step(physics, random_state)
    assert task.fallen_frames == 0


# Pushes.


def test_pushes_follow_their_schedule_and_reach_the_torso():
    task, env = _task_env(
        push_interval_frames=(3, 5),
        push_force_n=(2.0, 4.0),
        push_duration_frames=2,
        fall_allowance_frames=1000,
    )
    physics = env.physics
    root_id = physics.bind(task.walker.root_body).element_id
    action = np.zeros(env.action_spec().shape)
    first = task.next_push_frame
    assert 3 <= first <= 5
    starts, forces = [], []
    for frame in range(1, 61):
        scheduled = task.next_push_frame
        env.step(action)
        force = task.push_force
        forces.append(force)
        np.testing.assert_array_equal(physics.data.xfrc_applied[root_id], np.r_[force, 0, 0, 0])
        if frame == scheduled:
            starts.append(frame)
            assert 2.0 <= np.linalg.norm(force) <= 4.0 and force[2] == 0.0
            assert 3 <= task.next_push_frame - frame <= 5
    assert starts[0] == first and len(starts) >= 10
    pushed = [frame for frame, force in enumerate(forces, start=1) if force.any()]
    assert pushed == sorted({start + k for start in starts for k in (0, 1) if start + k <= 60})
    for start in starts:
        if start + 1 <= 60:
            np.testing.assert_array_equal(forces[start - 1], forces[start])


def test_no_pushes_when_disabled():
    task, env = _task_env()
    for _ in range(10):
        env.step(np.zeros(env.action_spec().shape))
        assert not task.push_force.any() and task.next_push_frame is None


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(push_interval_frames=(5, 3)), "push_interval_frames"),
        (dict(push_interval_frames=(200, 300), push_force_n=(4.0, 2.0)), "push_force_n"),
        (dict(fall_allowance_frames=-1), "fall_allowance_frames"),
        (dict(target_max_distance_m=0.5), "target_max_distance_m"),
    ],
)
def test_task_rejects_bad_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        _task_env(**kwargs)


def test_initial_state_is_perturbed_slightly():
    task, env = _task_env(initial_noise=0.1)
    physics = env.physics
    walker = task.walker
    joints = physics.bind(list(walker.pose_joints))
    angles = np.array(joints.qpos)
    assert 0.0 < np.max(np.abs(angles - walker.initial_qpos)) <= 0.1 + 1e-12
    assert 0.0 < np.max(np.abs(joints.qvel)) <= 0.1
    env.reset()
    assert not np.array_equal(np.array(physics.bind(list(walker.pose_joints)).qpos), angles)


# Complex terrain.


def test_obstacle_field_heights_follow_its_turned_boxes():
    task, env = _task_env(arena=obstacles.ObstacleField(num_obstacles=30), height_map=True)
    physics = env.physics
    arena = task.arena
    centers, half_sizes, yaws = arena.layout
    assert np.all(np.hypot(centers[:, 0], centers[:, 1]) > arena.clear_radius_m)
    for center, half, yaw in zip(centers[:5], half_sizes[:5], yaws[:5]):
        along = np.array([np.cos(yaw), np.sin(yaw)])
        across = np.array([-np.sin(yaw), np.cos(yaw)])
        inside = center[:2] + 0.9 * half[0] * along + 0.9 * half[1] * across
        outside = center[:2] + 1.1 * half[0] * along
        top = arena.terrain_height(physics, np.array([inside, outside]))
        assert top[0] >= center[2] + half[2] - 1e-12
        # A ray straight down hits the same top (the physics sees the layout).
        geom = np.zeros(1, dtype=np.int32)
        distance = mujoco.mj_ray(
            physics.model, physics.data, np.r_[inside, 5.0], [0, 0, -1.0], None, 1, -1, geom
        )
        assert 5.0 - distance == pytest.approx(top[0], abs=1e-9)


def test_height_map_is_15_by_11_around_the_centre_of_mass_and_denser_near_it():
    forward, lateral = flagrun.HEIGHT_MAP_FORWARD_OFFSETS_M, flagrun.HEIGHT_MAP_LATERAL_OFFSETS_M
    assert (forward.size, lateral.size) == (15, 11)
    for offsets in (forward, lateral):
        # On each side of the body, the gaps between samples widen outwards.
        for side in (offsets[offsets >= 0], -offsets[offsets <= 0][::-1]):
            gaps = np.diff(side)
            assert np.all(np.diff(gaps) >= -1e-12) and gaps[-1] > gaps[0]
    task, env = _task_env(arena=obstacles.ObstacleField(num_obstacles=30), height_map=True)
    physics = env.physics
    _stand(env, task, position=(3.0, -2.0, 0.0), yaw=0.4)
    com = task.center_of_mass(physics)
    points, anchor_z = task._height_map.sample_points(physics)
    assert anchor_z == com[2]
    rotation = np.array([[np.cos(0.4), -np.sin(0.4)], [np.sin(0.4), np.cos(0.4)]])
    for i, dx in enumerate(forward):
        for j, dy in enumerate(lateral):
            np.testing.assert_allclose(
                points[i * lateral.size + j], com[:2] + rotation @ [dx, dy], atol=1e-9
            )
    heights = env.step(np.zeros(env.action_spec().shape)).observation["height_map"][0]
    assert heights.shape == (15, 11)


# Registry: steps, determinism, batches.


@pytest.mark.parametrize("name", _GPU_TASKS)
def test_registry_task_is_deterministic_and_batches_bit_identically(name):
    steps = 40
    batch = locomotion.load_batch(name, 2, seed=4, num_threads=1)
    singles = [locomotion.load(name, seed=copy_seed(4, index)) for index in range(2)]
    spec = batch.action_spec()
    actions = np.random.RandomState(0).uniform(
        spec.minimum, spec.maximum, size=(steps, 2) + spec.shape
    )
    batched = batch.reset()
    alone = [env.reset() for env in singles]
    for step in range(steps + 1):
        for index, timestep in enumerate(alone):
            assert batched.step_type[index] == timestep.step_type
            assert batched.reward[index] == (0.0 if timestep.reward is None else timestep.reward)
            for key, value in timestep.observation.items():
                np.testing.assert_array_equal(batched.observation[key][index], value, err_msg=key)
        if step == steps:
            break
        batched = batch.step(actions[step])
        alone = [env.step(actions[step, index]) for index, env in enumerate(singles)]
    batch.close()


def test_load_batch_rejects_an_unknown_name():
    with pytest.raises(ValueError, match="valid names"):
        locomotion.load_batch("humanoid_flagrun_easier", 2)


def test_thresholds_and_episode_length_are_the_published_ones():
    assert flagrun.REWARD_THRESHOLDS["humanoid_run"] == {"walking": 3000.0, "running": 5000.0}
    env = locomotion.load("humanoid_flagrun_harder", seed=0)
    assert env._step_limit == 1000
    humanoid = locomotion.load("humanoid_run", seed=0)
    # 28 DoF (7 free-joint coordinates + 21 hinges) and 21 actuators.
    assert humanoid.physics.model.nq == 28 and humanoid.physics.model.nu == 21
    assert sum(v.size for v in humanoid.reset().observation.values()) == 76


# Snapshots.


def test_a_restore_carries_the_target_the_counters_and_the_push_schedule():
    import pickle

    options = dict(
        push_interval_frames=(3, 5),
        push_force_n=(2.0, 4.0),
        push_duration_frames=2,
        moving_target=True,
        target_interval_frames=6,
        fall_allowance_frames=1000,
    )
    task, env = _task_env(**options)
    actions = np.random.RandomState(0).uniform(-0.3, 0.3, size=(40,) + env.action_spec().shape)
    for action in actions[:7]:
        env.step(action)
    snapshot = pickle.loads(pickle.dumps(env.snapshot()))
    fresh_task, fresh = _task_env(**options)
    fresh.step(actions[0])  # another state, to be replaced
    fresh.restore(snapshot)
    assert fresh_task.frame == task.frame == 7
    assert fresh_task.next_push_frame == task.next_push_frame
    np.testing.assert_array_equal(fresh_task.target, task.target)
    np.testing.assert_array_equal(fresh_task.push_force, task.push_force)
    for action in actions[7:]:
        want, got = env.step(action), fresh.step(action)
        assert got.reward == want.reward
        np.testing.assert_array_equal(fresh_task.push_force, task.push_force)
        np.testing.assert_array_equal(fresh_task.target, task.target)
        for key, value in want.observation.items():
            np.testing.assert_array_equal(got.observation[key], value)


def test_a_snapshot_with_pushes_does_not_restore_into_a_task_without():
    _, env = _task_env(push_interval_frames=(3, 5))
    _, other = _task_env()
    with pytest.raises(ValueError, match="the snapshot's task has pushes, this one has none"):
        other.restore(env.snapshot())


def test_the_obstacle_field_follows_a_restore_into_the_same_environment():
    """The heights are cached per layout; a restore brings back an earlier layout,
    which the cache must not hide."""
    task, env = _task_env(arena=obstacles.ObstacleField(num_obstacles=30), height_map=True)
    arena = task.arena
    points = np.random.RandomState(0).uniform(-8, 8, size=(400, 2))
    snapshot = env.snapshot()
    layout, heights = arena.layout, arena.terrain_height(env.physics, points)
    env.reset()
    assert not np.array_equal(arena.terrain_height(env.physics, points), heights)
    env.restore(snapshot)
    for restored, original in zip(arena.layout, layout):
        np.testing.assert_array_equal(restored, original)
    np.testing.assert_array_equal(arena.terrain_height(env.physics, points), heights)
