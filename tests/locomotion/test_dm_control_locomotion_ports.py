"""dm_control's locomotion pieces ported here: reference-pose rewards, the wall
covering, target spheres, the floor, labmaze textures, padded rooms, and the
goal-maze tasks (observables, shapes, a seeded rollout, determinism)."""

import functools

import labmaze
import numpy as np
import pytest

from composer_tasks import composer
from composer_tasks import walkers
from composer_tasks.arenas import covering
from composer_tasks.arenas import floor
from composer_tasks.arenas import labmaze_textures
from composer_tasks.arenas import mazes
from composer_tasks.arenas import padded_room
from composer_tasks.props import primitive
from composer_tasks.props import target_sphere
from composer_tasks.tasks import random_goal_maze
from composer_tasks.tasks.reference_pose import rewards

# Reference-pose rewards.


def test_bounded_quat_dist_is_zero_for_a_quaternion_and_its_negative():
    q = np.array([0.5, 0.5, -0.5, 0.5])
    np.testing.assert_allclose(rewards.bounded_quat_dist(q, -q), [0.0], atol=1e-7)
    # Orthogonal quaternions: the bound, pi/2.
    np.testing.assert_allclose(
        rewards.bounded_quat_dist([1.0, 0, 0, 0], [0, 0, 0, 1.0]), [np.pi / 2]
    )


def test_bounded_quat_dist_leaves_its_inputs_alone_and_keeps_batch_shape():
    source = np.array([[2.0, 0, 0, 0], [0, 3.0, 0, 0]])
    before = source.copy()
    distances = rewards.bounded_quat_dist(source, np.array([[1.0, 0, 0, 0]] * 2))
    assert distances.shape == (2, 1)
    np.testing.assert_array_equal(source, before)
    with pytest.raises(ValueError, match="last axis of 4"):
        rewards.bounded_quat_dist([1.0, 0, 0], [1.0, 0, 0])


def _pose_features(offset=0.0):
    return {
        "center_of_mass": np.array([0.0, 0.0, 1.0 + offset]),
        "joints_velocity": np.zeros(3),
        "appendages": np.zeros(6),
        "body_quaternions": np.array([[1.0, 0, 0, 0], [1.0, 0, 0, 0]]),
    }


def test_multi_term_pose_reward_is_the_weight_sum_on_a_perfect_match():
    output = rewards.multi_term_pose_reward_fn(_pose_features(), _pose_features())
    assert output.reward == pytest.approx(0.1 + 1.0 + 0.15 + 0.65)
    assert list(output.reward_terms) == sorted(
        rewards.get_reward_channels("multi_term_pose_reward")
    )
    shifted = rewards.multi_term_pose_reward_fn(_pose_features(0.1), _pose_features())
    assert shifted.reward_terms["center_of_mass"] == pytest.approx(0.1 * np.exp(-10 * 0.01))


def test_comic_reward_halves_both_rewards():
    output = rewards.get_reward("comic")(
        termination_error=0.1,
        termination_error_threshold=0.4,
        walker_features=_pose_features(),
        reference_features=_pose_features(),
        unused=1,
    )
    assert output.reward == pytest.approx(0.5 * 0.75 + 0.5 * 1.9)
    assert output.reward_terms["termination"] == pytest.approx(0.375)
    assert set(output.reward_terms) == set(rewards.get_reward_channels("comic"))
    with pytest.raises(ValueError, match="not a valid option"):
        rewards.get_reward("nope")


# Covering.


def test_covering_of_a_small_grid_is_exact():
    grid = labmaze.TextGrid("**.\n**.\n***\n")
    walls = covering.make_walls(grid)
    assert [(tuple(w.start), tuple(w.end)) for w in walls] == [((0, 0), (3, 2)), ((2, 2), (3, 3))]
    odd = covering.make_walls(grid, make_odd_sized_walls=True)
    for wall in odd:
        assert (wall.end.y - wall.start.y) % 2 == 1 and (wall.end.x - wall.start.x) % 2 == 1
    covered = np.zeros((3, 3), dtype=int)
    for wall in odd:
        covered[wall.start.y : wall.end.y, wall.start.x : wall.end.x] += 1
    np.testing.assert_array_equal(covered, np.asarray(grid) == "*")
    with pytest.raises(ValueError, match="one character"):
        covering.make_walls(grid, wall_char="**")


# Target spheres.


class _DropBallTask(composer.NullTask):
    """Starts each episode with the ball 2.5 m above the floor, over the target."""

    def __init__(self, arena, ball):
        super().__init__(arena)
        self._ball = ball

    def initialize_episode(self, physics, random_state):
        self._ball.set_pose(physics, [0.0, 0.0, 2.5])


def _dropping_ball_env(target):
    arena = floor.Floor()
    ball = primitive.Primitive(geom_type="sphere", size=[0.1])
    arena.attach(target)
    arena.add_free_entity(ball)
    return composer.Environment(_DropBallTask(arena, ball)), ball


def test_target_sphere_activates_on_touch_and_resets_each_episode():
    target = target_sphere.TargetSphere(radius=0.5, height_above_ground=1.0)
    env, ball = _dropping_ball_env(target)
    env.reset()
    states = []
    while env.physics.bind(ball.geom).xpos[2] > 0.2:
        states.append((env.physics.bind(ball.geom).xpos[2], target.activated))
        env.step([])
    assert not states[0][1] and states[-1][1]
    # The ball falls through without bouncing off: the sphere exerts no force.
    assert env.physics.bind(ball.geom).xpos[2] <= 0.2
    assert env.physics.bind(target.material).rgba[-1] == 0
    env.reset()
    assert not target.activated and env.physics.bind(target.material).rgba[-1] == 1


def test_target_sphere_ignores_geoms_outside_its_filter():
    target = target_sphere.TargetSphere(specific_collision_geom_ids=[10_000])
    env, ball = _dropping_ball_env(target)
    env.reset()
    for _ in range(60):
        env.step([])
    assert not target.activated
    with pytest.raises(ValueError, match="radius"):
        target_sphere.TargetSphere(radius=0.0)


def test_two_touch_target_needs_a_second_touch_after_the_debounce():
    target = target_sphere.TargetSphereTwoTouch(radius=0.5, touch_debounce=0.05)
    env, _ = _dropping_ball_env(target)
    env.reset()
    seen = set()
    for _ in range(400):  # 0.8 s: the ball falls through the whole sphere
        env.step([])
        seen.add(target.activated)
    assert (True, False) in seen and (True, True) in seen
    env.reset()
    assert target.activated == (False, False)


# Floor.


def test_floor_top_camera_sees_the_floor_and_its_aesthetics():
    arena = floor.Floor(size=(3.0, 5.0))
    camera = arena.top_camera
    expected = np.rad2deg(2 * np.arctan2(1.1 * 5.0, 100.0))
    assert camera.fovy == pytest.approx(expected)
    assert arena.ground_geoms[0].name == "groundplane"
    with pytest.raises(ValueError, match="aesthetic"):
        floor.Floor(aesthetic="indoor_unnatural")
    outdoor = floor.Floor(aesthetic="outdoor_natural")
    model = outdoor.spec.compile()
    names = [model.texture(i).name for i in range(model.ntex)]
    assert names == ["aesthetic_texture", "aesthetic_skybox"]
    assert model.material(int(model.geom_matid[0])).name == "aesthetic_material"


# Labmaze textures and mazes.


def _textured_maze(**kwargs):
    kwargs.setdefault("pooled", True)
    return mazes.RandomMazeWithTargets(
        x_cells=9,
        y_cells=9,
        xy_scale=2.0,
        max_rooms=2,
        room_min_size=3,
        room_max_size=4,
        spawns_per_room=1,
        targets_per_room=2,
        skybox_texture=labmaze_textures.SkyBox(style="sky_03"),
        wall_textures=labmaze_textures.WallTextures(style="style_01"),
        floor_textures=labmaze_textures.FloorTextures(style="style_01"),
        **kwargs,
    )


def test_textured_maze_uses_the_labmaze_images():
    arena = _textured_maze()
    env = composer.Environment(composer.NullTask(arena), random_state=4)
    env.reset()
    model = env.physics.model
    names = [model.texture(i).name for i in range(model.ntex)]
    assert "labmaze_sky_03/texture" in names
    assert sum(name.startswith("labmaze_style_01/") for name in names) == 8
    assert sum(name.startswith("labmaze_style_01_1/") for name in names) == 6
    floor_material = model.material(
        int(model.geom_matid[env.physics.bind(arena.ground_geoms[0]).element_id])
    )
    assert floor_material.name.startswith("floor_")
    with pytest.raises(ValueError, match="textures"):
        mazes.MazeWithTargets(padded_room.PaddedRoom(3), wall_textures=object())


def test_padded_room_keeps_tokens_inside_its_border():
    room = padded_room.PaddedRoom(room_size=4, num_objects=3, random_state=np.random.RandomState(2))
    room.regenerate()
    layer = np.asarray(room.entity_layer)
    assert layer.shape == (8, 8)
    assert np.all(layer[0] == "*") and np.all(layer[:, -1] == "*")
    tokens = np.argwhere(np.isin(layer, ["P", "G"]))
    assert len(tokens) == 4 and tokens.min() >= 2 and tokens.max() <= 5
    assert (layer == "P").sum() == 1
    arena = mazes.MazeWithTargets(maze=room, xy_scale=1.5, pooled=True)
    env = composer.Environment(composer.NullTask(arena), random_state=0)
    env.reset()
    assert arena.spawn_positions.shape == (1, 3) and arena.target_positions.shape == (3, 3)
    rows_cols = arena.target_grid_positions
    np.testing.assert_allclose(
        np.array(arena.grid_to_world_positions(rows_cols))[:, :2], arena.target_positions[:, :2]
    )
    np.testing.assert_allclose(
        arena.world_to_grid_positions(arena.grid_to_world_positions(rows_cols)), rows_cols
    )
    with pytest.raises(ValueError, match="room_size"):
        padded_room.PaddedRoom(room_size=0)


def test_target_type_counts_follow_dm_control_rounding():
    arena = _textured_maze()
    task = random_goal_maze.ManyHeterogeneousGoalsMaze(
        walkers.Quadruped(),
        arena,
        target_builders=[target_sphere.TargetSphere] * 3,
        target_type_rewards=[1.0, 2.0, 3.0],
        target_type_proportions=[1, 1, 1],
    )
    assert task._target_counts(7).tolist() == [2, 2, 3]
    assert task._target_counts(0).tolist() == [0, 0, 0]
    with pytest.raises(ValueError, match="one entry per target builder"):
        random_goal_maze.ManyHeterogeneousGoalsMaze(
            walkers.Quadruped(),
            _textured_maze(),
            target_builders=[target_sphere.TargetSphere],
            target_type_rewards=[1.0, 2.0],
            target_type_proportions=[1],
        )


def _forage_env(seed):
    arena = _textured_maze()
    task = random_goal_maze.ManyGoalsMaze(
        walkers.Quadruped(),
        arena,
        target_builder=functools.partial(target_sphere.TargetSphere, radius=0.4),
        target_reward_scale=5.0,
        observe_targets=True,
        physics_timestep=0.005,
        control_timestep=0.025,
    )
    return composer.Environment(task, random_state=seed), task, arena


def test_many_goals_maze_observations_and_seeded_rollout_are_deterministic():
    runs = []
    for _ in range(2):
        env, task, arena = _forage_env(seed=11)
        timestep = env.reset()
        capacity = arena.max_targets
        # dm_control's observation buffers keep a leading axis of 1.
        assert timestep.observation["target_positions"].shape == (1, capacity, 3)
        remaining = timestep.observation["targets_remaining"]
        assert remaining.sum() == len(arena.target_positions)
        action_rng = np.random.RandomState(0)
        spec = env.action_spec()
        trajectory = [timestep.observation["walker/joints_pos"].copy()]
        for _ in range(10):
            action = action_rng.uniform(spec.minimum, spec.maximum)
            timestep = env.step(action)
            trajectory.append(timestep.observation["walker/joints_pos"].copy())
        runs.append((np.array(trajectory), arena.target_positions, arena.spawn_positions))
    np.testing.assert_array_equal(runs[0][0], runs[1][0])
    np.testing.assert_array_equal(runs[0][1], runs[1][1])


def test_many_goals_maze_pays_each_target_once_and_ends_when_all_are_reached():
    env, task, arena = _forage_env(seed=3)
    env.reset()
    targets = [t for t, _ in task._placements]
    assert len(targets) == len(arena.target_positions) > 0
    # The targets sit at the target cells' centres on the floor.
    placed = np.array([env.physics.bind(t.attachment_body).xpos for t in targets])
    np.testing.assert_allclose(
        np.sort(placed[:, :2], axis=0), np.sort(arena.target_positions[:, :2], axis=0)
    )
    for target in targets[:-1]:
        target._activated = True
    assert task.get_reward(env.physics) == 5.0 * (len(targets) - 1)
    assert task.get_reward(env.physics) == 0.0
    assert not task.should_terminate_episode(env.physics)
    targets[-1]._activated = True
    assert task.get_reward(env.physics) == 5.0
    assert task.should_terminate_episode(env.physics)
    assert task.get_discount(env.physics) == 1.0


# The rat.


def test_rat_has_dm_control_names_counts_and_mass():
    rat = walkers.Rat()
    arena = floor.Floor()
    arena.add_free_entity(rat)
    model = arena.spec.compile()
    assert len(rat.bodies) == 65 and len(rat.actuators) == 38
    assert len(rat.mocap_joints) == 67 and len(rat.observable_joints) == 30
    assert len(rat.observable_tendons) == 8
    assert model.nu == 38 and model.ntendon == 8
    assert sum(float(model.body_mass[i]) for i in range(model.nbody)) == pytest.approx(
        0.33779, abs=1e-4
    )
    assert [a.name for a in rat.actuators[:3]] == ["lumbar_extend", "lumbar_bend", "lumbar_twist"]
    assert rat.head.name == "skull" and rat.pelvis_body.name == "pelvis"
    # A control of 0 targets the middle of each joint's range.
    hip = model.actuator("walker/hip_L_extend")
    low, high = model.jnt_range[model.joint("walker/hip_L_extend").id]
    assert hip.gainprm[0] == pytest.approx(0.6 * (high - low) / 2)
    assert hip.biasprm[0] == pytest.approx(0.6 * (high + low) / 2)
    with pytest.raises(ValueError, match="mocap order"):
        rat.pose_to_actuation(np.zeros(3))
    np.testing.assert_allclose(rat.pose_to_actuation(np.zeros(67))[:8], 0.0)


def test_rat_observables_have_their_shapes_and_a_seeded_run_repeats():
    from composer_tasks.arenas import corridors as corridor_arenas
    from composer_tasks.tasks import corridors as corridor_tasks

    runs = []
    for _ in range(2):
        rat = walkers.Rat()
        task = corridor_tasks.RunThroughCorridor(
            rat,
            corridor_arenas.EmptyCorridor(),
            walker_spawn_position=(5, 0, 0),
            physics_timestep=0.001,
            control_timestep=0.02,
            enable_egocentric_camera=False,
        )
        env = composer.Environment(task, random_state=5, strip_singleton_obs_buffer_dim=True)
        observation = env.reset().observation
        assert observation["walker/tendons_pos"].shape == (8,)
        assert observation["walker/actuator_activation"].shape == (38,)
        assert observation["walker/appendages_pos"].shape == (15,)
        assert observation["walker/joints_pos"].shape == (30,)
        rng = np.random.RandomState(1)
        heights = []
        for _ in range(5):
            env.step(rng.uniform(-1, 1, 38))
            heights.append(env.physics.bind(rat.head).xpos.copy())
        runs.append(np.array(heights))
    np.testing.assert_array_equal(runs[0], runs[1])


# Two-touch reaching.


def _two_touch(seed=0, **options):
    from composer_tasks.tasks import reach

    rat = walkers.Rat()
    task = reach.TwoTouch(
        rat,
        floor.Floor(size=(10.0, 10.0), aesthetic="outdoor_natural"),
        target_builders=[functools.partial(target_sphere.TargetSphereTwoTouch, radius=0.025)],
        target_type_rewards=[25.0],
        target_area=(1.5, 1.5),
        physics_timestep=0.001,
        control_timestep=0.02,
        **options,
    )
    return composer.Environment(task, random_state=seed), task, reach


def test_two_touch_pays_a_touch_pair_at_the_right_interval():
    env, task, reach = _two_touch()
    env.reset()
    target_xy = env.physics.bind(task.target.geom).xpos[:2]
    assert np.all(np.abs(target_xy) <= 1.5)
    assert env.physics.bind(task.target.geom).xpos[2] == pytest.approx(0.14)
    task.target._touched_once = True
    reward = task.get_reward(env.physics)
    assert reward >= 25.0 and task.state == reach.TwoTouchState.TOUCHED_ONCE
    env.physics.data.time += 0.8
    task.target._touched_twice = True
    assert task.get_reward(env.physics) >= 25.0
    assert task.state == reach.TwoTouchState.TOUCHED_TWICE


def test_two_touch_times_out_a_second_touch_too_soon_and_repeats_under_a_seed():
    env, task, reach = _two_touch(seed=4)
    env.reset()
    task.target._touched_once = True
    task.get_reward(env.physics)
    env.physics.data.time += 0.1
    task.target._touched_twice = True
    assert task.get_reward(env.physics) < 1.0
    assert task.state == reach.TwoTouchState.TOUCHED_TOO_SOON
    # As dm_control, the target's place comes from numpy's global generator: the
    # same global seed repeats it; with draw_from_random_state, the Environment's seed does.
    np.random.seed(3)
    env, task, _ = _two_touch(seed=4)
    env.reset()
    place = env.physics.bind(task.target.geom).xpos.copy()
    np.random.seed(3)
    again, again_task, _ = _two_touch(seed=4)
    again.reset()
    np.testing.assert_array_equal(again.physics.bind(again_task.target.geom).xpos, place)
    seeded = [_two_touch(seed=4, draw_from_random_state=True) for _ in range(2)]
    places = []
    for environment, seeded_task, _ in seeded:
        np.random.seed(len(places))  # a different global state each time
        environment.reset()
        places.append(environment.physics.bind(seeded_task.target.geom).xpos.copy())
    np.testing.assert_array_equal(places[0], places[1])
    with pytest.raises(ValueError, match="Rat or a CMUHumanoid"):
        reach.TwoTouch(
            walkers.Quadruped(), floor.Floor(), [target_sphere.TargetSphereTwoTouch], [1.0]
        )


def test_two_touch_refuses_a_draw_option_that_is_not_a_bool():
    with pytest.raises(ValueError, match="draw_from_random_state must be a bool"):
        _two_touch(draw_from_random_state="yes")
