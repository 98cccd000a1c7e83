"""Locomotion tasks: rewards, terminations and observations, exactly.

A two-legged test walker (built here, 4 hinges, foot geoms named) keeps the task
logic tests independent of the real walkers; the last tests run every real
walker in every arena.
"""

import mujoco
import numpy as np
import pytest

from composer_tasks import composer
from composer_tasks import walkers
from composer_tasks.arenas import Floor
from composer_tasks.arenas import corridors as corridor_arenas
from composer_tasks.arenas import mazes
from composer_tasks.arenas import parkour as parkour_arenas
from composer_tasks.composer.observation import observable
from composer_tasks.physics import Physics
from composer_tasks.tasks import corridors
from composer_tasks.tasks import escape
from composer_tasks.tasks import exteroception
from composer_tasks.tasks import go_to_target
from composer_tasks.tasks import parkour
from composer_tasks.tasks import random_goal_maze
from composer_tasks.tasks import walker_state

_LEG_LENGTH_M = 0.2
_STANDING_HEIGHT_M = 2 * _LEG_LENGTH_M + 0.03


class TinyWalker(composer.Entity):
    """A 0.1 m torso sphere on two legs of two hinges each, feet named."""

    def _build(self, name="tiny"):
        spec = mujoco.MjSpec()
        spec.modelname = name
        torso = spec.worldbody.add_body(name="torso", pos=[0, 0, _STANDING_HEIGHT_M])
        torso.add_geom(name="torso_geom", type=mujoco.mjtGeom.mjGEOM_SPHERE, size=[0.1, 0, 0])
        self._head = torso.add_body(name="head", pos=[0, 0, 0.15])
        self._head.add_geom(type=mujoco.mjtGeom.mjGEOM_SPHERE, size=[0.05, 0, 0])
        self._camera = torso.add_camera(name="egocentric", xyaxes=[0, -1, 0, 0, 0, 1])
        joints, feet, foot_geoms = [], [], []
        for side, y in (("left", 0.08), ("right", -0.08)):
            thigh = torso.add_body(name=f"{side}_thigh", pos=[0, y, 0])
            joints.append(thigh.add_joint(name=f"{side}_hip", axis=[0, 1, 0], range=[-1, 1]))
            thigh.add_geom(
                type=mujoco.mjtGeom.mjGEOM_CAPSULE,
                size=[0.03, 0, 0],
                fromto=[0, 0, 0, 0, 0, -_LEG_LENGTH_M],
            )
            foot = thigh.add_body(name=f"{side}_foot", pos=[0, 0, -_LEG_LENGTH_M])
            joints.append(foot.add_joint(name=f"{side}_knee", axis=[0, 1, 0], range=[-1.5, 0]))
            foot_geoms.append(
                foot.add_geom(
                    name=f"{side}_foot_geom",
                    type=mujoco.mjtGeom.mjGEOM_CAPSULE,
                    size=[0.03, 0, 0],
                    fromto=[0, 0, 0, 0, 0, -_LEG_LENGTH_M],
                )
            )
            feet.append(foot)
        for joint in joints:
            spec.add_actuator(
                name=joint.name,
                target=joint.name,
                trntype=mujoco.mjtTrn.mjTRN_JOINT,
                gear=[20, 0, 0, 0, 0, 0],
                ctrlrange=[-1, 1],
                ctrllimited=True,
            )
        self._joints, self._feet, self._foot_geoms = tuple(joints), tuple(feet), tuple(foot_geoms)
        self._root = torso
        self._spec = spec

    def _build_observables(self):
        return _TinyObservables(self)

    root_body = property(lambda self: self._root)
    head = property(lambda self: self._head)
    observable_joints = property(lambda self: self._joints)
    end_effectors = property(lambda self: self._feet)
    ground_contact_geoms = property(lambda self: self._foot_geoms)
    egocentric_camera = property(lambda self: self._camera)

    def transform_vec_to_egocentric_frame(self, physics, vec_in_world_frame):
        rotation = np.array(physics.bind(self._root).xmat).reshape(3, 3)
        return np.asarray(vec_in_world_frame) @ rotation


class _TinyObservables(composer.Observables):
    @composer.observable
    def joints_pos(self):
        return observable.MJCFFeature("qpos", list(self._entity.observable_joints))


class SlopedFloor(Floor):
    """A Floor whose reported terrain rises 0.1 m per metre along x, with one
    platform (bottom 1 m, top 1.2 m) hovering over 3 <= x <= 4."""

    # Tasks observe platforms of arenas whose pool of `platforms` is not empty.
    platforms = ("platform",)

    def terrain_height(self, physics, xy_points):
        return 0.1 * np.asarray(xy_points)[:, 0]

    def platform_height(self, physics, xy_points, surface="top"):
        x = np.asarray(xy_points)[:, 0]
        height = 1.2 if surface == "top" else 1.0
        return np.where((x >= 3.0) & (x <= 4.0), height, np.nan)


def _corridor_task(**kwargs):
    kwargs.setdefault("walker_spawn_position", (0.5, 0.0, 0.0))
    kwargs.setdefault("enable_egocentric_camera", False)
    return corridors.RunThroughCorridor(TinyWalker(), Floor(), target_velocity=2.0, **kwargs)


def _set_walker_velocity(env, walker, velocity):
    """Gives every body of the free walker the same linear velocity (world, m/s)."""
    walker.set_velocity(env.physics, velocity=velocity)
    env.physics.forward()


# RunThroughCorridor.


@pytest.mark.parametrize(
    "velocity, expected", [(2.0, 1.0), (1.0, 0.5), (0.0, 0.0), (3.0, 0.5), (-1.0, 0.0), (5.0, 0.0)]
)
def test_corridor_reward_is_linear_in_forward_velocity(velocity, expected):
    task = _corridor_task()
    env = composer.Environment(task, random_state=0)
    env.reset()
    _set_walker_velocity(env, task.walker, [velocity, 0.3, 0.0])
    assert task.get_reward(env.physics) == pytest.approx(expected, abs=1e-9)


def test_corridor_spawns_at_the_given_position_and_yaw():
    task = _corridor_task(walker_spawn_position=(1.5, -0.5, 0.0), walker_spawn_rotation=np.pi / 2)
    env = composer.Environment(task, random_state=0)
    env.reset()
    root = env.physics.bind(task.walker.root_body)
    np.testing.assert_allclose(root.xpos, [1.5, -0.5, _STANDING_HEIGHT_M], atol=1e-12)
    np.testing.assert_allclose(np.reshape(root.xmat, (3, 3))[:, 0], [0, 1, 0], atol=1e-12)


def test_corridor_terminates_with_discount_zero_when_the_torso_touches_ground():
    task = _corridor_task()
    env = composer.Environment(task, random_state=0)
    env.reset()
    # Lying on its side: the torso sphere rests on the floor.
    task.walker.set_pose(
        env.physics, position=[0.5, 0.0, 0.1 - _STANDING_HEIGHT_M], quaternion=[1.0, 0.0, 0.0, 0.0]
    )
    timestep = env.step(np.zeros(4))
    assert timestep.last() and timestep.discount == 0.0


def test_corridor_standing_on_feet_does_not_terminate():
    env = composer.Environment(_corridor_task(), random_state=0)
    env.reset()
    for _ in range(3):
        timestep = env.step(np.zeros(4))
        assert not timestep.last()


def test_corridor_terminates_when_an_end_effector_falls_below_the_height():
    task = _corridor_task(contact_termination=False, terminate_at_height=-0.5)
    env = composer.Environment(task, random_state=0)
    env.reset()
    task.walker.set_pose(env.physics, position=[0.5, 0.0, -2.0])
    assert env.step(np.zeros(4)).last()


def test_corridor_min_root_height_is_optional():
    for min_root_height, ends in ((None, False), (_STANDING_HEIGHT_M + 0.5, True)):
        task = _corridor_task(min_root_height=min_root_height)
        env = composer.Environment(task, random_state=0)
        env.reset()
        assert env.step(np.zeros(4)).last() == ends


def test_corridor_rejects_a_non_positive_target_velocity():
    with pytest.raises(ValueError, match="target_velocity"):
        corridors.RunThroughCorridor(
            TinyWalker(), Floor(), target_velocity=0.0, enable_egocentric_camera=False
        )


# Parkour rewards.


def _parkour_env(reward, arena=None, **kwargs):
    task = parkour.ForwardProgress(TinyWalker(), arena or SlopedFloor(), reward, **kwargs)
    env = composer.Environment(task, random_state=0)
    env.reset()
    return task, env


@pytest.mark.parametrize("track_offset_cost", [0.0, 0.05, 0.2])
def test_quadruped_reward_is_velocity_upright_control_and_track_offset(track_offset_cost):
    reward = parkour.QuadrupedReward(track_offset_cost=track_offset_cost)
    task, env = _parkour_env(reward)
    task.walker.set_pose(
        env.physics, position=[0.0, -0.4, 0.0], quaternion=[np.cos(0.3), np.sin(0.3), 0.0, 0.0]
    )
    env.physics.data.ctrl[:] = [0.5, -0.5, 0.2, 0.0]
    _set_walker_velocity(env, task.walker, [1.5, 0.2, 0.0])
    upright = np.cos(0.6)  # Rolled 0.6 rad about x.
    # The roll swings the torso sideways about the walker's frame origin.
    offset = env.physics.bind(task.walker.root_body).xpos[1]
    assert offset < -0.4
    terms = reward.terms(env.physics, task.walker, task.lateral_offset(env.physics))
    assert terms["velocity"] == pytest.approx(1.5, abs=1e-9)
    assert terms["upright"] == pytest.approx(0.05 * upright, abs=1e-12)
    assert terms["control"] == pytest.approx(-0.01 * 0.54, abs=1e-12)
    assert terms["track_offset"] == pytest.approx(-track_offset_cost * offset**2, abs=1e-12)
    expected = 1.5 + 0.05 * upright - 0.01 * (0.25 + 0.25 + 0.04) - track_offset_cost * offset**2
    assert task.get_reward(env.physics) == pytest.approx(expected, abs=1e-9)


def test_quadruped_reward_coefficients_are_arguments():
    reward = parkour.QuadrupedReward(velocity_weight=2.0, upright_weight=1.0, control_cost=0.5)
    task, env = _parkour_env(reward)
    env.physics.data.ctrl[:] = [1.0, 0.0, 0.0, 0.0]
    _set_walker_velocity(env, task.walker, [0.5, 0.0, 0.0])
    assert task.get_reward(env.physics) == pytest.approx(2.0 * 0.5 + 1.0 - 0.5, abs=1e-9)


@pytest.mark.parametrize(
    "velocity_x, expected_velocity_term", [(2.0, 2.0), (6.0, 4.0), (-1.0, -1.0)]
)
def test_humanoid_reward_matches_the_published_formula(velocity_x, expected_velocity_term):
    reward = parkour.HumanoidReward()
    task, env = _parkour_env(reward)
    task.walker.set_pose(env.physics, position=[0.0, 0.4, 0.0])
    env.physics.data.ctrl[:] = [1.0, 0.0, 0.0, -0.5]
    _set_walker_velocity(env, task.walker, [velocity_x, 0.5, 0.0])
    terms = reward.terms(env.physics, task.walker, task.lateral_offset(env.physics))
    assert terms["velocity"] == pytest.approx(expected_velocity_term, abs=1e-9)
    assert terms["speed"] == pytest.approx(-0.005 * (velocity_x**2 + 0.25), abs=1e-9)
    assert terms["track_offset"] == pytest.approx(-0.05 * 0.16, abs=1e-12)
    assert terms["control"] == pytest.approx(-0.02 * 1.25, abs=1e-12)
    assert terms["alive"] == 0.02
    expected = (
        expected_velocity_term - 0.005 * (velocity_x**2 + 0.25) - 0.05 * 0.16 - 0.02 * 1.25 + 0.02
    )
    assert task.get_reward(env.physics) == pytest.approx(expected, abs=1e-9)


def test_humanoid_reward_coefficients_are_arguments():
    reward = parkour.HumanoidReward(
        max_velocity=1.0,
        velocity_cost=0.0,
        track_offset_cost=1.0,
        control_cost=0.0,
        alive_bonus=0.5,
    )
    task, env = _parkour_env(reward)
    task.walker.set_pose(env.physics, position=[0.0, 0.2, 0.0])
    _set_walker_velocity(env, task.walker, [3.0, 0.0, 0.0])
    assert task.get_reward(env.physics) == pytest.approx(1.0 - 0.04 + 0.5, abs=1e-9)


@pytest.mark.parametrize(
    "make, match",
    [
        (lambda: parkour.HumanoidReward(max_velocity=0.0), "max_velocity"),
        (lambda: parkour.HumanoidReward(alive_bonus=float("nan")), "alive_bonus"),
        (lambda: parkour.QuadrupedReward(control_cost=-1.0), "control_cost"),
        (lambda: parkour.QuadrupedReward(upright_weight=float("inf")), "upright_weight"),
    ],
)
def test_published_rewards_reject_bad_coefficients(make, match):
    with pytest.raises(ValueError, match=match):
        make()


@pytest.mark.parametrize(
    "velocity, expected", [(-1.0, 0.0), (0.0, 0.0), (1.5, 0.5), (3.0, 1.0), (7.0, 1.0)]
)
def test_unit_reward_is_clipped_velocity_over_target(velocity, expected):
    task, env = _parkour_env(parkour.UnitForwardVelocityReward(target_velocity=3.0))
    env.physics.data.ctrl[:] = 1.0
    _set_walker_velocity(env, task.walker, [velocity, 0.0, 0.0])
    assert task.get_reward(env.physics) == pytest.approx(expected, abs=1e-9)
    assert task.reward_is_unit_interval


def test_head_termination_reads_head_to_feet_distance_and_head_height():
    walker = TinyWalker()
    arena = SlopedFloor()
    task = parkour.ForwardProgress(walker, arena, parkour.QuadrupedReward())
    env = composer.Environment(task, random_state=0)
    env.reset()
    physics = env.physics
    head = physics.bind(walker.head).xpos
    to_feet = min(np.linalg.norm(physics.bind(g).xpos - head) for g in walker.ground_contact_geoms)
    # Head 0.45 m above the foot capsules' centres, which sit 0.08 m to each side.
    assert to_feet == pytest.approx(np.hypot(0.45, 0.08), abs=1e-9)
    above_ground = head[2] - 0.1 * head[0]
    for to_feet_limit, ground_limit, fallen in (
        (to_feet - 0.01, None, False),
        (to_feet + 0.01, None, True),
        (None, above_ground - 0.01, False),
        (None, above_ground + 0.01, True),
        (to_feet - 0.01, above_ground + 0.01, True),
    ):
        check = parkour.HeadHeightTermination(
            walker,
            arena,
            walker.head,
            min_head_to_feet_m=to_feet_limit,
            min_head_above_ground_m=ground_limit,
        )
        assert check.has_fallen(physics) == fallen


def test_head_to_feet_of_a_termination_without_the_feet_test_names_the_missing_threshold():
    walker = TinyWalker()
    arena = SlopedFloor()
    task = parkour.ForwardProgress(walker, arena, parkour.QuadrupedReward())
    env = composer.Environment(task, random_state=0)
    env.reset()
    check = parkour.HeadHeightTermination(
        walker, arena, walker.head, min_head_to_feet_m=None, min_head_above_ground_m=1.0
    )
    with pytest.raises(ValueError, match="min_head_to_feet_m"):
        check.head_to_feet(env.physics)


# Exteroception.


def test_planar_samples_cover_2m_behind_to_8m_ahead():
    offsets = exteroception.PLANAR_OFFSETS_M
    assert offsets.shape == (50,)
    assert offsets[0] == -2.0 and offsets[-1] == 8.0
    np.testing.assert_allclose(np.diff(offsets), 10.0 / 49)


def test_grid_spans_1_2m_behind_to_5_6m_ahead_and_4m_each_side():
    forward, lateral = exteroception.GRID_FORWARD_OFFSETS_M, exteroception.GRID_LATERAL_OFFSETS_M
    assert forward[0] == pytest.approx(-1.2) and forward[-1] == pytest.approx(5.6)
    assert lateral[0] == pytest.approx(-4.0) and lateral[-1] == pytest.approx(4.0)
    assert (forward.size, lateral.size) == (26, 19)
    np.testing.assert_allclose(lateral, -lateral[::-1], atol=1e-12)
    assert 0.0 in forward and 0.0 in lateral


@pytest.mark.parametrize(
    "offsets", [exteroception.GRID_FORWARD_OFFSETS_M, exteroception.GRID_LATERAL_OFFSETS_M]
)
def test_grid_density_falls_with_distance_from_the_body(offsets):
    # Each gap between neighbouring samples is at least as wide as every gap
    # nearer the body, and the farthest gap is wider than the nearest.
    gaps = np.diff(offsets)
    distance = np.abs(offsets[:-1] + offsets[1:]) / 2
    order = np.argsort(distance, kind="stable")
    assert np.all(np.diff(gaps[order]) >= -1e-12)
    assert gaps[order][-1] > gaps[order][0] + 0.1
    # Samples per metre within 1 m of the body, and between 2 m and 4 m.
    near = np.sum(np.abs(offsets) <= 1.0 + 1e-9) / 2.0
    far = np.sum((np.abs(offsets) > 2.0 + 1e-9) & (np.abs(offsets) <= 4.0 + 1e-9)) / 4.0
    assert near > 2 * far


def _sampler_env(sampler_args, arena=None, **sampler_kwargs):
    walker = TinyWalker()
    arena = arena or SlopedFloor()
    sampler = exteroception.TerrainSampler(arena, walker, *sampler_args, **sampler_kwargs)
    task = parkour.ForwardProgress(walker, arena, parkour.QuadrupedReward())
    env = composer.Environment(task, random_state=0)
    env.reset()
    return walker, sampler, env


def _place(env, walker, xy, yaw=None):
    walker_state.place_walker(env.physics, walker, [xy[0], xy[1], 0.0], yaw=yaw)
    env.physics.forward()


def test_grid_points_are_the_offsets_around_the_nearest_lattice_point():
    forward, lateral = exteroception.GRID_FORWARD_OFFSETS_M, exteroception.GRID_LATERAL_OFFSETS_M
    walker, sampler, env = _sampler_env((forward, lateral))
    _place(env, walker, (1.13, 0.27), yaw=0.7)
    physics = env.physics
    root = physics.bind(walker.root_body).xpos
    # 0.2 m lattice: the nearest point to (1.13, 0.27) is (1.2, 0.2).
    np.testing.assert_allclose(sampler.grid_center(physics), [1.2, 0.2], atol=1e-12)
    np.testing.assert_allclose(
        sampler.sample_grid_offset(physics), root[:2] - [1.2, 0.2], atol=1e-12
    )
    points, root_z = sampler.sample_points(physics)
    assert root_z == root[2]
    # World-aligned (the walker's yaw of 0.7 rad does not turn the grid), point by point.
    for i, dx in enumerate(forward):
        for j, dy in enumerate(lateral):
            np.testing.assert_allclose(
                points[i * lateral.size + j], [1.2 + dx, 0.2 + dy], atol=1e-12
            )
    expected = 0.1 * (1.2 + forward[:, np.newaxis]) + 0.0 * lateral - root_z
    np.testing.assert_allclose(sampler.terrain_heights(physics), expected, atol=1e-12)
    assert sampler.height_above_ground(physics) == pytest.approx([root[2] - 0.1 * root[0]])


def test_samples_read_fixed_ground_until_the_body_moves_a_lattice_step():
    forward, lateral = exteroception.GRID_FORWARD_OFFSETS_M, exteroception.GRID_LATERAL_OFFSETS_M
    walker, sampler, env = _sampler_env((forward, lateral))
    _place(env, walker, (1.11, 0.0))
    first = sampler.sample_points(env.physics)[0]
    _place(env, walker, (1.29, 0.0))
    np.testing.assert_array_equal(sampler.sample_points(env.physics)[0], first)
    assert sampler.sample_grid_offset(env.physics)[0] == pytest.approx(0.09)
    _place(env, walker, (1.31, 0.0))
    np.testing.assert_allclose(
        sampler.sample_points(env.physics)[0], first + [0.2, 0.0], atol=1e-12
    )
    assert sampler.sample_grid_offset(env.physics)[0] == pytest.approx(-0.09)


def test_planar_points_are_50_samples_on_the_lattice_of_their_spacing():
    walker, sampler, env = _sampler_env((exteroception.PLANAR_OFFSETS_M,))
    step = 10.0 / 49
    np.testing.assert_allclose(sampler.lattice_step_m, [step, 0.0], atol=1e-12)
    _place(env, walker, (3.0, 0.4))
    points, root_z = sampler.sample_points(env.physics)
    center = np.round(3.0 / step) * step
    np.testing.assert_allclose(points[:, 0], center + np.linspace(-2.0, 8.0, 50), atol=1e-12)
    np.testing.assert_allclose(points[:, 1], 0.4, atol=1e-12)
    assert sampler.sample_grid_offset(env.physics) == pytest.approx([3.0 - center])
    assert abs(3.0 - center) <= step / 2


def test_grid_turns_with_the_heading_when_asked():
    forward, lateral = exteroception.GRID_FORWARD_OFFSETS_M, exteroception.GRID_LATERAL_OFFSETS_M
    walker, sampler, env = _sampler_env((forward, lateral), follow_heading=True, lattice_step_m=0.0)
    _place(env, walker, (1.0, 0.0), yaw=np.pi / 2)
    root_z = env.physics.bind(walker.root_body).xpos[2]
    # Facing +y: forward samples lie along +y, lateral (left) ones along -x.
    expected = np.broadcast_to(0.1 * (1.0 - lateral[np.newaxis, :]), sampler.shape) - root_z
    np.testing.assert_allclose(sampler.terrain_heights(env.physics), expected, atol=1e-12)
    np.testing.assert_allclose(sampler.sample_grid_offset(env.physics), [0.0, 0.0], atol=1e-12)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(forward_offsets_m=[0.0, 0.0, 1.0]), "strictly increasing"),
        (dict(forward_offsets_m=[[0.0, 1.0]]), "1-D"),
        (dict(forward_offsets_m=[0.0, 1.0], lattice_step_m=-0.1), "lattice_step_m"),
    ],
)
def test_sampler_rejects_bad_offsets_and_steps(kwargs, match):
    with pytest.raises(ValueError, match=match):
        exteroception.TerrainSampler(SlopedFloor(), TinyWalker(), **kwargs)


def test_task_observes_published_layouts_and_track_offset():
    task, env = _parkour_env(parkour.QuadrupedReward())
    walker_state.place_walker(env.physics, task.walker, [0.0, 0.25, 0.0])
    env.physics.forward()
    observation = env.step(np.zeros(4)).observation
    grid = (len(exteroception.GRID_FORWARD_OFFSETS_M), len(exteroception.GRID_LATERAL_OFFSETS_M))
    # A leading buffer axis of 1 (the Environment keeps singleton buffers by default).
    assert observation["terrain_heights"].shape == (1,) + grid
    assert observation["platform_heights"].shape == (1,) + grid + (2,)
    assert observation["track_offset"][0, 0] == pytest.approx(
        env.physics.bind(task.walker.root_body).xpos[1]
    )
    root = env.physics.bind(task.walker.root_body).xpos
    assert observation["height_above_ground"][0] == pytest.approx([root[2] - 0.1 * root[0]])
    assert observation["sample_grid_offset"].shape == (1, 2)


def test_planar_platform_heights_are_bottom_and_top_with_a_fill_where_none():
    walker = walkers.PlanarWalker()
    task = parkour.ForwardProgress(walker, SlopedFloor(), parkour.PlanarWalkerReward())
    env = composer.Environment(task, random_state=0)
    observation = env.reset().observation
    root_z = env.physics.bind(walker.root_body).xpos[2]
    heights = observation["platform_heights"][0]
    assert heights.shape == (50, 2)
    x = exteroception.PLANAR_OFFSETS_M
    under = (x >= 3.0) & (x <= 4.0)
    np.testing.assert_allclose(
        heights[under], np.broadcast_to([1.0 - root_z, 1.2 - root_z], (under.sum(), 2)), atol=1e-12
    )
    assert np.all(heights[~under] == exteroception.NO_PLATFORM_HEIGHT_M)
    np.testing.assert_allclose(observation["terrain_heights"][0], 0.1 * x - root_z, atol=1e-12)


def test_terrain_observations_need_terrain_heights():
    class NoHeights(Floor):
        terrain_height = None

    with pytest.raises(TypeError, match="terrain_height"):
        parkour.ForwardProgress(TinyWalker(), NoHeights(), parkour.QuadrupedReward())


# GoToTarget.


def test_go_to_target_rewards_within_tolerance_and_observes_it_egocentrically():
    task = go_to_target.GoToTarget(
        TinyWalker(),
        Floor(),
        distance_tolerance=1.0,
        walker_spawn_position=(0.0, 0.0),
        target_spawn_position=(2.0, 0.0),
        walker_spawn_rotation=np.pi / 2,
    )
    env = composer.Environment(task, random_state=0)
    observation = env.reset().observation
    root_z = env.physics.bind(task.walker.root_body).xpos[2]
    # Facing +y, a target 2 m along +x is 2 m to the walker's right (-y).
    np.testing.assert_allclose(
        observation[f"{task.walker.name}/target"][0], [0.0, -2.0, -root_z], atol=1e-9
    )
    assert task.get_reward(env.physics) == 0.0
    walker_state.place_walker(env.physics, task.walker, [1.5, 0.0, 0.0])
    env.physics.forward()
    assert task.get_reward(env.physics) == 1.0


def test_go_to_target_moves_the_target_after_enough_rewarded_steps():
    task = go_to_target.GoToTarget(
        TinyWalker(),
        Floor(),
        moving_target=True,
        steps_before_moving_target=2,
        distance_tolerance=50.0,
    )
    env = composer.Environment(task, random_state=0)
    env.reset()
    first = task.target_position(env.physics)
    for _ in range(2):
        assert env.step(np.zeros(4)).reward == 1.0
        np.testing.assert_array_equal(task.target_position(env.physics), first)
    env.step(np.zeros(4))
    assert not np.array_equal(task.target_position(env.physics), first)


def test_go_to_target_resumes_its_count_of_rewarded_steps_from_a_snapshot():
    def make(seed):
        task = go_to_target.GoToTarget(
            TinyWalker(),
            Floor(),
            moving_target=True,
            steps_before_moving_target=4,
            distance_tolerance=50.0,
        )
        return task, composer.Environment(task, random_state=seed)

    task, env = make(0)
    env.reset()
    for _ in range(3):
        env.step(np.zeros(4))
    snapshot = env.snapshot()
    fresh_task, fresh = make(1)
    fresh.restore(snapshot)
    for _ in range(6):
        env.step(np.zeros(4))
        fresh.step(np.zeros(4))
        np.testing.assert_array_equal(
            fresh_task.target_position(fresh.physics), task.target_position(env.physics)
        )


# Escape.


def _touches_after_lowering(task, physics, drop_m):
    physics.forward()
    clear = physics.data.ncon == 0
    task.walker.shift_pose(physics, position=[0.0, 0.0, -drop_m])
    physics.forward()
    return clear, physics.data.ncon > 0


def test_escape_searches_the_spawn_height_on_a_flat_heightfield_as_dm_control():
    # dm_control: the task's callback finds the height on the heightfield of the
    # model its reset compiled anew (flat: the terrain is drawn at run time), then
    # the arena's callback draws the episode's terrain; the walker may start
    # inside it.
    task = escape.Escape(TinyWalker(), escape.Bowl())
    env = composer.Environment(task, random_state=0)
    terrains = []
    for _ in range(3):
        env.reset()
        physics = env.physics
        terrains.append(physics.model.hfield_data.copy())
        physics.model.hfield_data[:] = 0.0
        clear, touches = _touches_after_lowering(task, physics, 0.01)
        assert clear and touches
    assert not np.array_equal(terrains[0], terrains[1])
    # Bumps in [0.5, 1] zoomed by a cubic spline (dm_control's), which overshoots a little.
    assert 0.0 <= terrains[0].min() and terrains[0].max() <= 1.1


def test_escape_spawn_on_new_terrain_starts_just_clear_of_the_episode_terrain():
    task = escape.Escape(TinyWalker(), escape.Bowl(), spawn_on_new_terrain=True)
    env = composer.Environment(task, random_state=0)
    terrains = []
    for _ in range(2):
        env.reset()
        terrains.append(env.physics.model.hfield_data.copy())
        clear, touches = _touches_after_lowering(task, env.physics, 0.01)
        assert clear and touches
    assert not np.array_equal(terrains[0], terrains[1])


def test_bowl_keeps_its_terrain_until_regenerate_is_called_as_dm_control():
    arena = escape.Bowl()
    physics = Physics.from_spec(arena.spec)
    random_state = np.random.RandomState(0)
    arena.initialize_episode(physics, random_state)
    first = physics.model.hfield_data.copy()
    arena.initialize_episode(physics, random_state)
    np.testing.assert_array_equal(physics.model.hfield_data, first)
    arena.regenerate(random_state)
    arena.initialize_episode(physics, random_state)
    assert not np.array_equal(physics.model.hfield_data, first)


def test_escape_spawn_on_new_terrain_needs_an_arena_that_can_draw_it():
    class FlatArena(composer.Arena):
        pass

    with pytest.raises(TypeError, match="draw_terrain"):
        escape.Escape(TinyWalker(), FlatArena(), spawn_on_new_terrain=True)


def test_escape_reward_is_distance_ramp_times_uprightness():
    task = escape.Escape(TinyWalker(), escape.Bowl())
    env = composer.Environment(task, random_state=0)
    env.reset()
    physics = env.physics
    task.walker.set_pose(physics, position=[3.0, 0.0, 0.0], quaternion=[1.0, 0.0, 0.0, 0.0])
    physics.forward()
    distance = np.linalg.norm(physics.bind(task.walker.root_body).xpos)
    assert task.get_reward(physics) == pytest.approx(1.0 - (6.0 - distance) / 6.0)
    task.walker.set_pose(physics, position=[7.0, 0.0, 0.0], quaternion=[0.0, 1.0, 0.0, 0.0])
    physics.forward()
    assert task.get_reward(physics) == 0.0


# Maze foraging.


def test_maze_forage_rewards_each_collected_target_once():
    arena = mazes.RandomMazeWithTargets(
        x_cells=7,
        y_cells=7,
        max_rooms=1,
        room_min_size=3,
        room_max_size=3,
        spawns_per_room=1,
        targets_per_room=2,
        pooled=True,
    )
    task = random_goal_maze.ManyGoalsMaze(
        walkers.Quadruped(), arena, target_reward_scale=10.0, observe_targets=True
    )
    env = composer.Environment(task, random_state=0)
    observation = env.reset().observation
    targets = arena.target_positions
    assert observation["targets_remaining"].sum() == len(targets) == 2
    walker_state.place_walker(env.physics, task.walker, [targets[0][0], targets[0][1], 0.0])
    env.physics.forward()
    timestep = env.step(np.zeros(8))
    assert timestep.reward == 10.0
    assert env.step(np.zeros(8)).reward == 0.0
    walker_state.place_walker(env.physics, task.walker, [targets[1][0], targets[1][1], 0.0])
    env.physics.forward()
    timestep = env.step(np.zeros(8))
    assert timestep.reward == 10.0 and timestep.last() and timestep.discount == 1.0


# Every walker in every arena.

_WALKERS = {
    "planar_walker": walkers.PlanarWalker,
    "quadruped": walkers.Quadruped,
    "humanoid": walkers.Humanoid,
}
if hasattr(walkers, "CMUHumanoid"):
    _WALKERS["cmu_humanoid"] = walkers.CMUHumanoidPositionControlledV2020

_ARENAS = {
    "floor": lambda: Floor(),
    "empty_corridor": lambda: corridor_arenas.EmptyCorridor(),
    "walls_corridor": lambda: corridor_arenas.WallsCorridor(),
    "gaps_corridor": lambda: corridor_arenas.GapsCorridor(),
    "maze": lambda: mazes.RandomMazeWithTargets(
        x_cells=7,
        y_cells=7,
        max_rooms=1,
        room_min_size=3,
        room_max_size=3,
        spawns_per_room=1,
        targets_per_room=1,
    ),
    "parkour": lambda: parkour_arenas.ParkourCourse(
        segments=[
            parkour_arenas.Hurdles(),
            parkour_arenas.Gaps(),
            parkour_arenas.Terrain(),
            parkour_arenas.JumpPlatforms(),
        ],
        course_length=20.0,
    ),
    "bowl": lambda: escape.Bowl(),
}


@pytest.mark.parametrize("arena_name", sorted(_ARENAS))
@pytest.mark.parametrize("walker_name", sorted(_WALKERS))
def test_every_walker_runs_in_every_arena(walker_name, arena_name):
    walker = _WALKERS[walker_name]()
    arena = _ARENAS[arena_name]()
    if callable(getattr(arena, "terrain_height", None)):
        task = parkour.ForwardProgress(walker, arena, parkour.UnitForwardVelocityReward())
    else:
        task = corridors.RunThroughCorridor(walker, arena, enable_egocentric_camera=False)
    env = composer.Environment(task, time_limit=1.0, random_state=0)
    spec = env.action_spec()
    actions = np.random.RandomState(0).uniform(spec.minimum, spec.maximum, (10,) + spec.shape)
    timestep = env.reset()
    assert all(np.all(np.isfinite(value)) for value in timestep.observation.values())
    for action in actions:
        timestep = env.step(action)
        assert 0.0 <= timestep.reward <= 1.0
        if timestep.last():
            timestep = env.reset()


def test_go_to_target_spawns_in_dm_controls_region_unless_whole_floor_is_asked():
    size = np.asarray(Floor().size, dtype=float)
    for whole_floor, half in ((False, size / 2), (True, size - 0.5)):
        task = go_to_target.GoToTarget(TinyWalker(), Floor(), spawn_over_whole_floor=whole_floor)
        env = composer.Environment(task, random_state=0)
        targets = []
        for _ in range(40):
            env.reset()
            targets.append(task.target_position(env.physics)[:2])
        targets = np.abs(np.array(targets))
        assert np.all(targets <= half) and np.any(targets > 0.8 * half)
    with pytest.raises(TypeError, match="spawn_over_whole_floor must be a bool"):
        go_to_target.GoToTarget(TinyWalker(), Floor(), spawn_over_whole_floor=1)


# dm_control's positional parameters, in its order; this project's extras keyword-only.


def test_corridor_binds_dm_controls_positional_timesteps():
    # dm_control's order: walker_spawn_position, walker_spawn_rotation, target_velocity,
    # contact_termination, terminate_at_height, physics_timestep, control_timestep.
    task = corridors.RunThroughCorridor(
        TinyWalker(),
        Floor(),
        (0.0, 0.0, 0.0),
        None,
        2.0,
        True,
        -0.5,
        0.004,
        0.02,
        enable_egocentric_camera=False,
    )
    assert (task.physics_timestep, task.control_timestep) == (0.004, 0.02)


@pytest.mark.parametrize(
    "make",
    [
        # One positional argument past dm_control's last one.
        lambda: corridors.RunThroughCorridor(
            TinyWalker(), Floor(), (0, 0, 0), None, 2.0, True, -0.5, 0.005, 0.025, None
        ),
        lambda: go_to_target.GoToTarget(
            TinyWalker(), Floor(), False, False, 1.5, 10, 1.0, None, None, None, 0.005, 0.025, True
        ),
        lambda: mazes.RandomMazeWithTargets(
            11, 11, 2.0, 2.0, 4, 3, 5, 1, 1, 10, True, None, None, None, "default", "m", 0.1
        ),
    ],
    ids=["corridor", "go_to_target", "random_maze"],
)
def test_this_projects_extras_are_keyword_only(make):
    with pytest.raises(TypeError, match="positional argument"):
        make()


def test_go_to_target_relative_target_lands_near_the_walker():
    task = go_to_target.GoToTarget(
        TinyWalker(),
        Floor(),
        moving_target=True,
        target_relative=True,
        target_relative_dist=0.25,
        steps_before_moving_target=1,
        distance_tolerance=50.0,
        walker_spawn_position=(3.0, -2.0),
    )
    env = composer.Environment(task, random_state=0)
    env.reset()
    env.step(np.zeros(4))  # Rewarded once: the target moves at the next step.
    first = task.target_position(env.physics)
    for _ in range(3):
        env.step(np.zeros(4))
        root = env.physics.bind(task.walker.root_body).xpos
        offset = task.target_position(env.physics)[:2] - root[:2]
        assert np.all(np.abs(offset) <= 0.25)
    assert not np.array_equal(task.target_position(env.physics), first)
    with pytest.raises(ValueError, match="target_relative_dist"):
        go_to_target.GoToTarget(TinyWalker(), Floor(), target_relative_dist=-1.0)


def test_escape_keeps_its_spawn_arguments_and_starts_at_the_centre():
    # As dm_control, which stores walker_spawn_position/rotation and never reads them.
    roots = []
    for spawn in (((0, 0, 0), None), ((3.0, 2.0, 0.0), 1.0)):
        task = escape.Escape(TinyWalker(), escape.Bowl(), *spawn, 0.004, 0.02)
        assert (task.physics_timestep, task.control_timestep) == (0.004, 0.02)
        env = composer.Environment(task, random_state=0)
        env.reset()
        roots.append(np.array(env.physics.bind(task.walker.root_body).xpos))
    np.testing.assert_array_equal(roots[0], roots[1])


def test_maze_tasks_and_two_touch_observe_the_egocentric_camera_by_default():
    # dm_control's maze tasks and TwoTouch enable the walker's 64 x 64 camera;
    # enable_egocentric_camera=False is this project's opt-out.
    from composer_tasks.tasks import reach
    from composer_tasks.props import target_sphere

    for enabled in (None, False):
        options = {} if enabled is None else {"enable_egocentric_camera": enabled}
        walker = walkers.JumpingBallWithHead()
        random_goal_maze.RepeatSingleGoalMaze(walker, _ARENAS["maze"](), **options)
        camera = walker.observables.egocentric_camera
        assert camera.enabled is (enabled is None)
        assert (camera.height, camera.width) == (64, 64)
        walker = walkers.Rat()
        reach.TwoTouch(walker, Floor(), [target_sphere.TargetSphereTwoTouch], [1.0], **options)
        assert walker.observables.egocentric_camera.enabled is (enabled is None)
