"""Tests of the locomotion arenas: corridors, mazes and parkour courses."""

import mujoco
import numpy as np
import pytest

from composer_tasks import arenas
from composer_tasks import composer
from composer_tasks.arenas import parkour
from composer_tasks.composer.variation import distributions
from composer_tasks.physics import Physics

_BALL_RADIUS_M = 0.05
_RAY_START_Z_M = 20.0


class Ball(composer.Entity):
    """A small free sphere, the simplest thing that can stand on an arena."""

    def _build(self, name="ball"):
        spec = mujoco.MjSpec()
        spec.modelname = name
        body = spec.worldbody.add_body(name="body")
        # Group 4 keeps the ball out of the raycasts that check the arena's geometry.
        body.add_geom(name="sphere", size=[_BALL_RADIUS_M, 0.0, 0.0], mass=0.2, group=4)
        self._spec = spec


class Dumbbell(composer.Entity):
    """Two spheres on one body: contacts with it go through MuJoCo's midphase, which
    reads the bounding volumes the pools rewrite."""

    def _build(self, name="dumbbell"):
        spec = mujoco.MjSpec()
        spec.modelname = name
        body = spec.worldbody.add_body(name="body")
        for side in (-1, 1):
            body.add_geom(
                name=f"sphere_{side}",
                size=[_BALL_RADIUS_M, 0.0, 0.0],
                pos=[0.0, 0.1 * side, 0.0],
                mass=0.1,
                group=4,
            )
        self._spec = spec


class BallTask(composer.Task):
    """Drops the ball at the arena's spawn position every episode."""

    def __init__(self, arena):
        self.arena = arena
        self.ball = Ball()
        arena.add_free_entity(self.ball)
        self.set_timesteps(0.01, 0.005)

    @property
    def root_entity(self):
        return self.arena

    def initialize_episode(self, physics, random_state):
        # The layout must be known before placing the ball (a maze's spawn cells).
        self.arena.regenerate(random_state)
        spawn = self.arena.spawn_position(random_state)
        self.ball.set_pose(physics, position=spawn + [0.0, 0.0, 0.5])

    def get_reward(self, physics):
        return 0.0


def _physics_with_ball(arena, noslip_iterations=0):
    ball = Ball()
    arena.add_free_entity(ball)
    # Arenas use dm_control's 5 no-slip iterations; with them a ball resting in a
    # gap, touching the heightfield's edge prisms, sinks 7 cm into the pit floor
    # (MuJoCo 4.0). These tests check the arenas' geometry, so they drop the ball
    # without the no-slip pass unless asked.
    arena.spec.option.noslip_iterations = noslip_iterations
    return Physics.from_spec(arena.spec), ball


def _new_episode(arena, physics, seed):
    if not getattr(arena, "pooled", True):
        # dm_control's corridor: the layout is rebuilt in the model, then compiled.
        arena.regenerate(np.random.RandomState(seed))
        physics.recompile()
    with physics.reset_context():
        arena.initialize_episode(physics, np.random.RandomState(seed))


def _drop(physics, ball, x, y, z=3.0, seconds=1.5):
    """Drops the ball from rest at (x, y, z); returns where it comes to rest."""
    physics.reset()
    ball.set_pose(physics, position=[x, y, z])
    physics.forward()
    physics.step(int(seconds / physics.timestep()))
    return ball.get_pose(physics)[0]


def _ray_down(physics, xy_points, group):
    """Heights (n,) where a downward ray from high above first meets geoms of `group`."""
    geomgroup = np.zeros(6, dtype=np.uint8)
    geomgroup[group] = 1
    geomid = np.zeros(1, dtype=np.int32)
    heights = []
    for x, y in np.asarray(xy_points).reshape(-1, 2):
        distance = mujoco.mj_ray(
            physics.model,
            physics.data,
            np.array([x, y, _RAY_START_Z_M]),
            np.array([0.0, 0.0, -1.0]),
            geomgroup,
            1,
            -1,
            geomid,
        )
        heights.append(np.nan if distance < 0 else _RAY_START_Z_M - distance)
    return np.asarray(heights)


# Corridors.


def _dm_control_gaps_corridor(pooled=False):
    # The cmu_humanoid_run_gaps parameters of the dm_control paper (§7.1).
    return arenas.GapsCorridor(
        platform_length=distributions.Uniform(0.3, 2.5),
        gap_length=distributions.Uniform(0.5, 1.25),
        corridor_width=10,
        corridor_length=100,
        pooled=pooled,
    )


def _dm_control_walls_corridor(pooled=False):
    return arenas.WallsCorridor(
        wall_gap=4.0,
        wall_width=distributions.Uniform(1, 7),
        wall_height=3.0,
        corridor_width=10,
        corridor_length=100,
        pooled=pooled,
    )


# Each corridor test runs on dm_control's corridor (rebuilt and recompiled per
# episode) and on the pooled one (laid out in one compiled model).
_POOLED = pytest.mark.parametrize("pooled", [False, True], ids=["rebuilt", "pooled"])


@_POOLED
def test_empty_corridor_ball_lands_on_the_floor(pooled):
    arena = arenas.EmptyCorridor(
        corridor_width=distributions.Uniform(3.0, 5.0), corridor_length=30.0, pooled=pooled
    )
    physics, ball = _physics_with_ball(arena)
    _new_episode(arena, physics, 0)
    assert 3.0 <= arena.corridor_width <= 5.0
    assert arena.corridor_length == 30.0
    position = _drop(physics, ball, 10.0, 0.5)
    np.testing.assert_allclose(position, [10.0, 0.5, _BALL_RADIUS_M], atol=2e-3)


@_POOLED
def test_gaps_corridor_platforms_follow_the_distributions_and_ball_falls_into_gaps(pooled):
    arena = _dm_control_gaps_corridor(pooled)
    physics, ball = _physics_with_ball(arena)
    for seed in range(20):
        layout = arena.regenerate(np.random.RandomState(seed))
        lengths = layout["platform_ends"] - layout["platform_starts"]
        gaps = layout["platform_starts"][1:] - layout["platform_ends"][:-1]
        assert lengths[0] == 6.0
        assert np.all((lengths[1:] >= 0.3) & (lengths[1:] <= 2.5))
        # As dm_control: the first drawn platform starts where the first ends.
        assert gaps[0] == 0.0
        assert np.all((gaps[1:] >= 0.5) & (gaps[1:] <= 1.25))
        assert layout["platform_starts"][-1] < 100.0 <= layout["platform_ends"][-1] + gaps.max()
    _new_episode(arena, physics, 3)
    layout = arena.layout
    platform_x = (layout["platform_starts"][3] + layout["platform_ends"][3]) / 2
    gap_x = (layout["platform_ends"][3] + layout["platform_starts"][4]) / 2
    on_platform = _drop(physics, ball, platform_x, 0.0)
    in_gap = _drop(physics, ball, gap_x, 0.0, seconds=2.5)
    np.testing.assert_allclose(on_platform[2], _BALL_RADIUS_M, atol=2e-3)
    np.testing.assert_allclose(in_gap[2], -arena.pit_depth + _BALL_RADIUS_M, atol=2e-3)
    np.testing.assert_allclose(
        arena.terrain_height(physics, [[platform_x, 0], [gap_x, 0]]), [0.0, -arena.pit_depth]
    )


@_POOLED
def test_walls_corridor_walls_alternate_and_match_the_geometry(pooled):
    arena = _dm_control_walls_corridor(pooled)
    physics, ball = _physics_with_ball(arena)
    _new_episode(arena, physics, 7)
    layout = arena.layout
    assert np.allclose(np.diff(layout["wall_x"]), 4.0)
    assert layout["wall_x"][0] == 6.0
    assert np.all(layout["wall_side"][1:] == -layout["wall_side"][:-1])
    assert np.all((layout["wall_width"] >= 1.0) & (layout["wall_width"] <= 7.0))
    # A ray cast from above meets each wall top where terrain_height says.
    y = layout["wall_side"] * (10.0 - layout["wall_width"]) / 2
    points = np.column_stack([layout["wall_x"], y])
    np.testing.assert_allclose(_ray_down(physics, points, 0), 3.0, atol=1e-9)
    np.testing.assert_allclose(arena.terrain_height(physics, points), 3.0)
    # The ball lands on the free side of the first wall, and on its top.
    free_y = -layout["wall_side"][0] * 4.9
    np.testing.assert_allclose(
        _drop(physics, ball, layout["wall_x"][0], free_y)[2], _BALL_RADIUS_M, atol=2e-3
    )
    np.testing.assert_allclose(
        _drop(physics, ball, *points[0], z=4.0)[2], 3.0 + _BALL_RADIUS_M, atol=2e-3
    )


@_POOLED
@pytest.mark.parametrize(
    "make_arena",
    [
        lambda pooled: arenas.EmptyCorridor(
            corridor_length=distributions.Uniform(20.0, 60.0), pooled=pooled
        ),
        _dm_control_gaps_corridor,
        _dm_control_walls_corridor,
    ],
    ids=["empty", "gaps", "walls"],
)
def test_multi_geom_body_lands_on_moved_planes_and_boxes(make_arena, pooled):
    arena = make_arena(pooled)
    dumbbell = Dumbbell()
    arena.add_free_entity(dumbbell)
    physics = Physics.from_spec(arena.spec)
    _new_episode(arena, physics, 1)
    x = arena.corridor_length - 1.0
    expected = arena.terrain_height(physics, [[x, 2.0]])[0] + _BALL_RADIUS_M
    position = _drop(physics, dumbbell, x, 2.0, z=4.0, seconds=3.0)
    np.testing.assert_allclose(position[2], expected, atol=2e-3)


def test_corridors_reject_bad_lengths():
    with pytest.raises(ValueError, match="gap_length"):
        arenas.GapsCorridor(gap_length=-1.0)
    with pytest.raises(ValueError, match="corridor_width"):
        arenas.EmptyCorridor(corridor_width="wide")
    arena = arenas.WallsCorridor(wall_height=distributions.Uniform(-2.0, -1.0))
    with pytest.raises(ValueError, match="wall_height"):
        arena.regenerate(np.random.RandomState(0))


@_POOLED
def test_gaps_corridor_draws_platform_colours_from_a_function_of_the_random_state(pooled):
    low, high = np.array([0.1, 0.2, 0.3, 1.0]), np.array([0.4, 0.5, 0.6, 1.0])
    # dm_control calls ground_rgba with the random state as its first argument.
    arena = arenas.GapsCorridor(
        ground_rgba=lambda random_state: random_state.uniform(low, high),
        corridor_length=20.0,
        pooled=pooled,
    )
    physics, _ = _physics_with_ball(arena)
    _new_episode(arena, physics, 0)
    colours = arena.layout["platform_rgba"]
    assert np.all((colours >= low) & (colours <= high))
    assert len(np.unique(colours[:, 0])) == len(colours)
    platforms = [getattr(g, "spec_element", g) for g in arena.platforms[: len(colours)]]
    geom_ids = physics.bind(platforms).id
    # The model stores colours in float32.
    np.testing.assert_allclose(physics.model.geom_rgba[geom_ids], colours, rtol=1e-6)


def test_corridor_of_drawn_length_needs_a_layout_before_the_target_check():
    arena = arenas.EmptyCorridor(corridor_length=distributions.Uniform(20.0, 60.0))
    with pytest.raises(ValueError, match="regenerate"):
        arena.is_at_target_position(np.zeros(3))
    layout = arena.regenerate(np.random.RandomState(0))
    length = layout["corridor_length"]
    assert arena.is_at_target_position([length - 0.5, 0.0, 0.0], tolerance=1.0)
    assert not arena.is_at_target_position([length - 1.5, 0.0, 0.0], tolerance=1.0)


def test_gaps_corridor_colour_variation_takes_the_random_state_as_dm_controls():
    # dm_control evaluates ground_rgba as `variation.evaluate(ground_rgba,
    # random_state)`: a Variation takes the random state as its initial value and
    # draws from NumPy's global stream, and a Uniform of 4-vectors fails there.
    grey = distributions.UniformChoice([0.3, 0.6])
    arena = arenas.GapsCorridor(
        ground_rgba=[grey, grey, grey, 1.0], corridor_length=20.0, pooled=True
    )
    np.random.seed(5)
    layout = arena.regenerate(np.random.RandomState(0))
    np.random.seed(5)
    again = arena.regenerate(np.random.RandomState(1))
    np.testing.assert_array_equal(layout["platform_rgba"], again["platform_rgba"])
    uniform = arenas.GapsCorridor(
        ground_rgba=distributions.Uniform([0, 0, 0, 1], [1, 1, 1, 1]), corridor_length=20.0
    )
    with pytest.raises(ValueError, match="not compatible with broadcast"):
        uniform.regenerate(np.random.RandomState(0))


def test_corridor_variations_of_unknown_bounds_need_an_explicit_pool_size():
    with pytest.raises(ValueError, match="max_platforms"):
        arenas.GapsCorridor(platform_length=distributions.Normal(1.0, 0.1), pooled=True)
    arena = arenas.GapsCorridor(
        platform_length=distributions.Normal(1.0, 0.1), max_platforms=60, pooled=True
    )
    assert len(arena.platforms) == 60
    # A corridor that is not pooled builds what it draws: no pool, no size to give.
    assert len(arenas.GapsCorridor(platform_length=distributions.Normal(1.0, 0.1)).platforms) == 0
    with pytest.raises(ValueError, match="pooled=True"):
        arenas.GapsCorridor(max_platforms=60)
    with pytest.raises(ValueError, match="pooled=True"):
        arenas.WallsCorridor(max_walls=10)
    with pytest.raises(ValueError, match="pooled must be a bool"):
        arenas.EmptyCorridor(pooled="yes")


# Mazes.


def test_maze_walls_spawns_and_targets_match_the_labmaze_layout():
    arena = arenas.RandomMazeWithTargets(
        x_cells=11,
        y_cells=11,
        xy_scale=2.0,
        z_height=1.5,
        spawns_per_room=1,
        targets_per_room=1,
        pooled=True,
    )
    physics, ball = _physics_with_ball(arena)
    _new_episode(arena, physics, 5)
    layer = np.asarray(arena.maze.entity_layer)
    rows, cols = np.indices(layer.shape)
    centres = arena.grid_to_world(rows.ravel(), cols.ravel())
    expected = np.where(layer.ravel() == "*", 1.5, 0.0)
    np.testing.assert_allclose(arena.terrain_height(physics, centres), expected)
    np.testing.assert_allclose(_ray_down(physics, centres, 0), expected, atol=1e-9)
    spawn_rows, spawn_cols = arena.world_to_grid(arena.spawn_positions[:, :2])
    assert np.all(layer[spawn_rows, spawn_cols] == "P")
    target_rows, target_cols = arena.world_to_grid(arena.target_positions[:, :2])
    assert np.all(layer[target_rows, target_cols] == "G")
    spawn = arena.spawn_positions[0]
    np.testing.assert_allclose(
        _drop(physics, ball, spawn[0], spawn[1]), [spawn[0], spawn[1], _BALL_RADIUS_M], atol=2e-3
    )
    wall = centres[np.flatnonzero(layer.ravel() == "*")[0]]
    np.testing.assert_allclose(_drop(physics, ball, *wall)[2], 1.5 + _BALL_RADIUS_M, atol=2e-3)


def test_maze_targets_are_collected_once():
    arena = arenas.RandomMazeWithTargets(spawns_per_room=1, targets_per_room=1, pooled=True)
    physics = Physics.from_spec(arena.spec)
    _new_episode(arena, physics, 2)
    targets = arena.target_positions
    assert len(targets) >= 1
    assert arena.collect_targets(physics, targets[0]) == 1
    assert arena.collect_targets(physics, targets[0]) == 0
    assert arena.targets_collected[0] and not arena.targets_collected[1:].any()
    geom_id = physics.bind(arena.target_geoms[0]).element_id
    assert physics.model.geom_rgba[geom_id, 3] == 0.0


def test_pooled_maze_changes_every_episode_and_repeats_under_the_seed():
    arena = arenas.RandomMazeWithTargets(pooled=True)
    layers = [str(arena.regenerate(np.random.RandomState(seed)).entity_layer) for seed in (1, 1, 2)]
    assert layers[0] == layers[1] != layers[2]


# Parkour.


_ALL_SEGMENTS = (
    parkour.Hurdles(height=(0.2, 0.6), width=(0.1, 0.3), spacing=(1.5, 3.0)),
    parkour.Gaps(gap=(0.4, 1.0), platform=(1.0, 2.0)),
    parkour.Terrain(height=(0.1, 0.4)),
    parkour.SlalomWalls(opening=(1.0, 2.5)),
    parkour.JumpPlatforms(height=(0.4, 0.8)),
    parkour.CrouchPlatforms(clearance=(1.0, 1.3)),
)

# Obstacle kind -> {parameter: (low, high)} of the segments above.
_EXPECTED_RANGES = {
    "hurdle": {"height": (0.2, 0.6), "width": (0.1, 0.3)},
    "gap": {"length": (0.4, 1.0)},
    "terrain": {"height": (0.1, 0.4)},
    "slalom_wall": {"opening": (1.0, 2.5), "height": (1.5, 2.5)},
    "platform": {"height": (0.4, 0.8), "platform_length": (1.5, 3.0)},
    "crouch_platform": {"clearance": (1.0, 1.3), "platform_length": (1.0, 2.5)},
}


@pytest.mark.parametrize("segment", _ALL_SEGMENTS, ids=lambda s: s.kind)
def test_single_type_course_statistics_stay_within_the_ranges(segment):
    course = arenas.ParkourCourse(segments=[segment], course_length=50.0)
    random_state = np.random.RandomState(0)
    values = {}
    for _ in range(100):
        layout = course.regenerate(random_state)
        assert {s.kind for s in layout.segments} == {segment.kind}
        assert layout.segments[0].x_start == course.obstacles_start
        assert layout.segments[-1].x_end == course.course_length
        for first, second in zip(layout.segments, layout.segments[1:]):
            assert first.x_end == second.x_start
            assert segment.length[0] - 1e-9 <= first.x_end - first.x_start <= segment.length[1]
        segment_ends = np.array([s.x_end for s in layout.segments])
        assert layout.obstacles
        for obstacle in layout.obstacles:
            index = np.searchsorted(segment_ends, obstacle.x_start, side="right")
            assert layout.segments[index].x_start <= obstacle.x_start
            assert obstacle.x_end <= layout.segments[index].x_end + 1e-9
            assert 0.0 <= obstacle.difficulty <= 1.0
            for name, value in obstacle.parameters.items():
                values.setdefault((obstacle.kind, name), []).append(value)
    for kind, ranges in _EXPECTED_RANGES.items():
        for name, (low, high) in ranges.items():
            drawn = np.asarray(values.get((kind, name), []))
            if not len(drawn):
                continue
            assert drawn.min() >= low - 1e-9 and drawn.max() <= high + 1e-9, (kind, name)
            # The draws spread over the range, not just a corner of it.
            assert drawn.max() - drawn.min() >= 0.8 * (high - low), (kind, name)
    assert any(kind == _obstacle_kind(segment) for kind, _ in values)


def _obstacle_kind(segment):
    return {
        "hurdles": "hurdle",
        "gaps": "gap",
        "terrain": "terrain",
        "slalom_walls": "slalom_wall",
        "jump_platforms": "platform",
        "crouch_platforms": "crouch_platform",
    }[segment.kind]


def test_hurdles_leave_the_drawn_spacing_between_them():
    segment = parkour.Hurdles(spacing=(1.5, 3.0))
    course = arenas.ParkourCourse(segments=[segment], course_length=50.0)
    random_state = np.random.RandomState(1)
    for _ in range(20):
        hurdles = course.regenerate(random_state).of_kind("hurdle")
        gaps = np.array([b.x_start - a.x_end for a, b in zip(hurdles, hurdles[1:])])
        # Between segments the free stretch may be longer, never shorter.
        assert np.all(gaps >= 1.5 - 1e-9)


def _difficulty_slope(course, kind, parameter, episodes=100):
    random_state = np.random.RandomState(3)
    xs, values = [], []
    for _ in range(episodes):
        for obstacle in course.regenerate(random_state).of_kind(kind):
            xs.append(obstacle.x_start)
            values.append(obstacle.parameters[parameter])
    xs, values = np.asarray(xs), np.asarray(values)
    third = (course.course_length - course.obstacles_start) / 3
    early = values[xs < course.obstacles_start + third].mean()
    late = values[xs > course.course_length - third].mean()
    return np.corrcoef(xs, values)[0, 1], early, late


def test_curriculum_difficulty_grows_along_the_track():
    hurdles = parkour.Hurdles(height=(0.1, 0.7))
    curriculum = arenas.ParkourCourse(segments=[hurdles], curriculum=True)
    correlation, early, late = _difficulty_slope(curriculum, "hurdle", "height")
    assert correlation > 0.8
    # The thirds of the track are 2/3 of it apart: 0.5 of the range with the 0.25 band.
    assert late - early > 0.25
    flat = arenas.ParkourCourse(segments=[hurdles], curriculum=False)
    correlation, early, late = _difficulty_slope(flat, "hurdle", "height")
    assert abs(correlation) < 0.1
    # Lower is harder for crouching: the clearance shrinks along the track.
    crouch = arenas.ParkourCourse(
        segments=[parkour.CrouchPlatforms(clearance=(0.8, 1.4))], curriculum=True
    )
    correlation, early, late = _difficulty_slope(crouch, "crouch_platform", "clearance")
    assert correlation < -0.8 and early - late > 0.2


def test_mixed_and_per_episode_modes():
    segments = (parkour.Hurdles(), parkour.Gaps(), parkour.Terrain())
    mixed = arenas.ParkourCourse(segments=segments, mode="mixed", course_length=80.0)
    per_episode = arenas.ParkourCourse(segments=segments, mode="per_episode", course_length=80.0)
    random_state = np.random.RandomState(4)
    mixed_kinds = [{s.kind for s in mixed.regenerate(random_state).segments} for _ in range(20)]
    episode_kinds = [
        {s.kind for s in per_episode.regenerate(random_state).segments} for _ in range(20)
    ]
    assert np.mean([len(kinds) > 1 for kinds in mixed_kinds]) > 0.8
    assert all(len(kinds) == 1 for kinds in episode_kinds)
    assert set().union(*episode_kinds) == {"hurdles", "gaps", "terrain"}
    weighted = arenas.ParkourCourse(
        segments=segments, mode="per_episode", segment_weights=[0.0, 1.0, 0.0]
    )
    assert {s.kind for s in weighted.regenerate(random_state).segments} == {"gaps"}


def _mixed_course(**kwargs):
    return arenas.ParkourCourse(segments=_ALL_SEGMENTS, course_length=60.0, **kwargs)


def test_spawn_region_is_free_of_obstacles():
    course = _mixed_course(curriculum=True)
    physics = Physics.from_spec(course.spec)
    (x0, x1), (y0, y1) = course.spawn_region
    spawn = course.spawn_position()
    assert x0 < spawn[0] < x1 and y0 < spawn[1] < y1
    grid = course.heightfield
    columns = (grid.x_coords >= x0) & (grid.x_coords <= x1)
    for seed in range(30):
        _new_episode(course, physics, seed)
        for geoms in (course.obstacle_geoms, course.platforms):
            if not geoms:
                continue
            model = physics.model
            body_ids = physics.bind(list(geoms)).bodyid.astype(int)
            geom_ids = physics.bind(list(geoms)).id.astype(int)
            low = model.body_pos[body_ids] - model.geom_size[geom_ids]
            high = model.body_pos[body_ids] + model.geom_size[geom_ids]
            overlaps = (
                (low[:, 0] < x1)
                & (high[:, 0] > x0)
                & (low[:, 1] < y1)
                & (high[:, 1] > y0)
                & (high[:, 2] > -1.0)
            )
            assert not overlaps.any(), seed
        np.testing.assert_allclose(grid.heights(physics)[:, columns], 0.0, atol=1e-6)


def test_height_samples_match_raycasts_against_the_geometry():
    course = _mixed_course()
    physics = Physics.from_spec(course.spec)
    random_state = np.random.RandomState(5)
    for seed in range(5):
        _new_episode(course, physics, seed)
        points = np.column_stack(
            [
                random_state.uniform(-1.5, course.course_length + 3.0, 400),
                random_state.uniform(-3.9, 3.9, 400),
            ]
        )
        # Points at every obstacle's middle hit each kind for sure. They stay off
        # the heightfield's grid lines, where mj_ray can slip between two triangles.
        middles = [(o.x_start + o.x_end) / 2 + 0.0123 for o in course.course.obstacles]
        points = np.concatenate([points, np.column_stack([middles, np.full(len(middles), 0.0123)])])
        np.testing.assert_allclose(
            course.terrain_height(physics, points),
            _ray_down(physics, points, parkour.GROUND_GEOM_GROUP),
            atol=1e-6,
        )
        np.testing.assert_allclose(
            course.platform_height(physics, points),
            _ray_down(physics, points, parkour.PLATFORM_GEOM_GROUP),
            atol=1e-6,
        )
    kinds = {o.kind for o in course.course.obstacles}
    assert {"gap", "platform"} <= kinds or len(kinds) >= 3


def test_platform_bottoms_and_known_terrain():
    course = arenas.ParkourCourse(
        segments=[parkour.CrouchPlatforms(clearance=1.1, thickness=0.3)], course_length=30.0
    )
    physics = Physics.from_spec(course.spec)
    _new_episode(course, physics, 0)
    platform = course.course.obstacles[0]
    middle = [[(platform.x_start + platform.x_end) / 2, 0.0]]
    np.testing.assert_allclose(course.platform_height(physics, middle, surface="bottom"), 1.1)
    np.testing.assert_allclose(course.platform_height(physics, middle), 1.4)
    np.testing.assert_allclose(course.terrain_height(physics, middle), 0.0, atol=1e-6)
    assert np.isnan(course.platform_height(physics, [[1.0, 0.0]]))[0]
    # Known terrain: a heightfield profile written by hand reads back exactly,
    # between samples along MuJoCo's triangulation.
    grid = course.heightfield
    heights = np.zeros(grid.shape)
    heights[:, 30] = 0.08
    grid.write(physics, heights)
    x = grid.x_coords[30]
    dx = grid.spacing[0]
    np.testing.assert_allclose(
        course.terrain_height(physics, [[x, 0.0], [x - dx / 2, 0.0], [x + dx / 4, 0.0]]),
        [0.08, 0.04, 0.06],
        atol=1e-6,
    )
    with pytest.raises(ValueError, match="surface"):
        course.platform_height(physics, middle, surface="middle")


def test_same_seed_same_course_different_seeds_different_courses():
    course = _mixed_course()
    physics = Physics.from_spec(course.spec)
    snapshots = []
    for seed in (11, 11, 12):
        _new_episode(course, physics, seed)
        model = physics.model
        snapshots.append(
            (course.course, model.hfield_data.copy(), model.body_pos.copy(), model.geom_size.copy())
        )
    (course_a, *arrays_a), (course_b, *arrays_b), (course_c, *arrays_c) = snapshots
    assert course_a == course_b
    for array_a, array_b in zip(arrays_a, arrays_b):
        np.testing.assert_array_equal(array_a, array_b)
    assert course_a != course_c
    assert not np.array_equal(arrays_a[1], arrays_c[1])


def test_ball_lands_on_hurdles_platforms_terrain_and_in_gaps():
    course = _mixed_course()
    physics, ball = _physics_with_ball(course)
    landed = set()
    for seed in range(10):
        _new_episode(course, physics, seed)
        for obstacle in course.course.obstacles:
            kind = obstacle.kind
            if kind in landed or kind == "crouch_platform":
                continue
            x = (obstacle.x_start + obstacle.x_end) / 2
            # On a slalom wall's top, not beside it (it stands against side `side`).
            y = 3.5 * obstacle.parameters["side"] if kind == "slalom_wall" else 0.0
            position = _drop(physics, ball, x, y, z=3.0, seconds=2.0)
            # On terrain the ball may roll; wherever it rests it rests on the surface.
            heights = course.platform_height if kind == "platform" else course.terrain_height
            surface = heights(physics, [position[:2]])[0]
            np.testing.assert_allclose(
                position[2] - _BALL_RADIUS_M, surface, atol=5e-3, err_msg=f"{kind} at x={x:.2f}"
            )
            if kind != "terrain":
                np.testing.assert_allclose(position[:2], [x, y], atol=1e-3)
            landed.add(kind)
    assert landed == {"hurdle", "gap", "terrain", "slalom_wall", "platform"}


def test_multi_geom_bodies_collide_with_resized_obstacles():
    # Hurdles far larger than the boxes the pool compiled with: a stale bounding
    # volume would let the dumbbell fall through them.
    course = arenas.ParkourCourse(
        segments=[parkour.Hurdles(height=(1.0, 1.2), width=(0.6, 0.8))], course_length=30.0
    )
    dumbbell = Dumbbell()
    course.add_free_entity(dumbbell)
    physics = Physics.from_spec(course.spec)
    _new_episode(course, physics, 0)
    for hurdle in course.course.of_kind("hurdle")[:3]:
        x = (hurdle.x_start + hurdle.x_end) / 2
        position = _drop(physics, dumbbell, x, 1.0, z=2.0, seconds=1.0)
        np.testing.assert_allclose(
            position[2], hurdle.parameters["height"] + _BALL_RADIUS_M, atol=2e-3
        )


def test_parkour_rejects_bad_parameters():
    with pytest.raises(ValueError, match="Hurdles.height"):
        parkour.Hurdles(height=(0.5, 0.2))
    with pytest.raises(ValueError, match="Terrain.kinds"):
        parkour.Terrain(kinds=("lava",))
    with pytest.raises(ValueError, match="JumpPlatforms.height"):
        parkour.JumpPlatforms(height=(0.1, 0.5), thickness=0.2)
    with pytest.raises(ValueError, match="Gaps.gap"):
        arenas.ParkourCourse(segments=[parkour.Gaps(gap=(0.1, 0.15))], resolution=0.1)
    with pytest.raises(ValueError, match="SlalomWalls.opening"):
        arenas.ParkourCourse(segments=[parkour.SlalomWalls(opening=(1.0, 9.0))], track_width=8.0)
    with pytest.raises(ValueError, match="mode"):
        arenas.ParkourCourse(mode="random")
    with pytest.raises(TypeError, match="Segment"):
        arenas.ParkourCourse(segments=["hurdles"])


# Through the Environment.


@pytest.mark.parametrize(
    "make_arena",
    [
        lambda: _dm_control_gaps_corridor(pooled=True),
        lambda: _dm_control_walls_corridor(pooled=True),
        lambda: arenas.RandomMazeWithTargets(spawns_per_room=1, targets_per_room=1, pooled=True),
        lambda: _mixed_course(curriculum=True),
    ],
    ids=["gaps", "walls", "maze", "parkour"],
)
def test_environment_resets_lay_out_a_new_course_without_recompiling(make_arena):
    arena = make_arena()
    task = BallTask(arena)
    environment = composer.Environment(task, time_limit=1.0, random_state=0)
    model = environment.physics.model
    layouts = []
    for _ in range(3):
        environment.reset()
        assert environment.physics.model is model
        layouts.append((model.body_pos.copy(), model.hfield_data.copy()))
        for _ in range(60):
            environment.step(np.zeros(0))
        position = task.ball.get_pose(environment.physics)[0]
        assert position[2] == pytest.approx(_BALL_RADIUS_M, abs=5e-3)
    assert not np.array_equal(layouts[0][0], layouts[1][0])
    replay = composer.Environment(BallTask(make_arena()), time_limit=1.0, random_state=0)
    replay.reset()
    np.testing.assert_array_equal(
        replay.physics.model.body_pos[: len(layouts[0][0])], layouts[0][0]
    )


@pytest.mark.parametrize(
    "make_arena", [_dm_control_gaps_corridor, _dm_control_walls_corridor], ids=["gaps", "walls"]
)
def test_rebuilt_and_pooled_corridors_lay_out_the_same_course_for_a_seed(make_arena):
    from composer_tasks.tasks import corridors as corridor_tasks
    from composer_tasks.walkers import Ant

    def environment(pooled):
        task = corridor_tasks.RunThroughCorridor(
            Ant(),
            make_arena(pooled),
            walker_spawn_position=(0.5, 0, 0),
            walker_spawn_rotation=distributions.Uniform(-0.5, 0.5),
            enable_egocentric_camera=False,
        )
        return task, composer.Environment(task, random_state=4)

    rebuilt_task, rebuilt = environment(False)
    pooled_task, pooled = environment(True)
    rebuilt_models = []
    for _ in range(3):
        first, second = rebuilt.reset(), pooled.reset()
        rebuilt_models.append(rebuilt.physics.model)
        layout, pooled_layout = rebuilt_task._arena.layout, pooled_task._arena.layout
        assert sorted(layout) == sorted(pooled_layout)
        for key, value in layout.items():
            np.testing.assert_array_equal(value, pooled_layout[key], err_msg=key)
        # The same walker spawn (drawn after the layout in both) and observations.
        for key, value in first.observation.items():
            np.testing.assert_allclose(value, second.observation[key], atol=1e-12, err_msg=key)
        # The geoms in use are where the pool put its boxes.
        names = [rebuilt.physics.model.geom(i).name for i in range(rebuilt.physics.model.ngeom)]
        built = [g for g in names if g.startswith(("floor_", "wall_", "start_floor"))]
        boxes = rebuilt.physics.named.model.geom_size[built]
        pool = pooled_task._arena._pools()[0]
        pool_sizes = pooled.physics.model.geom_size[pooled.physics.bind(list(pool.geoms)).id]
        np.testing.assert_allclose(boxes, pool_sizes[: len(built)], rtol=1e-12)
    # dm_control's corridor compiles a model per episode; the pooled one keeps one.
    assert len({id(model) for model in rebuilt_models}) == 3
    # Its five planes are unnamed, named as PyMJCF names them in the compiled model.
    planes = [rebuilt.physics.model.geom(i).name for i in range(5)]
    assert all(name.startswith("//unnamed_geom_") for name in planes), planes


def test_a_batch_refuses_a_corridor_rebuilt_per_episode_and_runs_a_pooled_one():
    from composer_tasks import batch
    from composer_tasks.tasks import corridors as corridor_tasks
    from composer_tasks.walkers import Ant

    def factory(pooled):
        return lambda: corridor_tasks.RunThroughCorridor(
            Ant(),
            _dm_control_gaps_corridor(pooled),
            walker_spawn_position=(0.5, 0, 0),
            enable_egocentric_camera=False,
        )

    pooled = batch.BatchEnvironment(factory(True), num_envs=2, seed=0)
    assert pooled.reset().observation["walker/joints_pos"].shape[0] == 2
    rebuilt = batch.BatchEnvironment(factory(False), num_envs=2, seed=0)
    # The episode's model has the drawn platforms, the batch's model has none.
    with pytest.raises(ValueError, match="ngeom.*pooled=True"):
        rebuilt.reset()


def test_regenerate_where_dm_control_has_it():
    # dm_control's arenas with `regenerate(random_state)`: corridors, mazes, the
    # bowl and the floor (a no-op there); here also parkour courses and the
    # obstacle field.
    from composer_tasks.arenas import Floor
    from composer_tasks.arenas import obstacles
    from composer_tasks.tasks import escape

    for arena in (
        arenas.EmptyCorridor(),
        arenas.GapsCorridor(),
        arenas.WallsCorridor(),
        arenas.RandomMazeWithTargets(),
        escape.Bowl(),
        Floor(),
        parkour.ParkourCourse(),
        obstacles.ObstacleField(),
    ):
        assert callable(getattr(arena, "regenerate", None)), type(arena).__name__
    floor = Floor()
    state = np.random.RandomState(0)
    floor.regenerate(state)
    # Nothing to draw: the random state is untouched.
    assert state.uniform() == np.random.RandomState(0).uniform()


def test_random_maze_defaults_are_dm_controls_no_spawns_and_no_targets():
    arena = arenas.RandomMazeWithTargets()
    physics = Physics.from_spec(arena.spec)
    _new_episode(arena, physics, 3)
    assert len(arena.spawn_positions) == 0 and len(arena.target_positions) == 0
    with pytest.raises(ValueError, match="spawns_per_room >= 1"):
        arena.spawn_position(np.random.RandomState(0))
    with pytest.raises(ValueError, match="spawns_per_room must be an int >= 0"):
        arenas.RandomMazeWithTargets(spawns_per_room=-1)


def test_locomotion_arenas_package_has_dm_controls_names():
    from composer_tasks.arenas import bowl, labmaze_textures
    from composer_tasks.tasks import escape

    assert arenas.Bowl is bowl.Bowl is escape.Bowl
    assert arenas.SkyBox is labmaze_textures.SkyBox
    assert arenas.WallTextures is labmaze_textures.WallTextures
    assert arenas.FloorTextures is labmaze_textures.FloorTextures


def test_rebuilt_maze_options_that_need_a_pooled_maze_are_refused():
    from composer_tasks.arenas import padded_room
    from composer_tasks.tasks import random_goal_maze
    from composer_tasks.walkers import Ant

    with pytest.raises(ValueError, match="pooled must be a bool"):
        arenas.RandomMazeWithTargets(pooled="yes")
    with pytest.raises(ValueError, match="target_spheres.*pooled=True"):
        arenas.MazeWithTargets(padded_room.PaddedRoom(3), target_spheres=2)
    with pytest.raises(ValueError, match="observe_targets.*pooled=True"):
        random_goal_maze.ManyGoalsMaze(
            Ant(), arenas.RandomMazeWithTargets(spawns_per_room=1), observe_targets=True
        )
