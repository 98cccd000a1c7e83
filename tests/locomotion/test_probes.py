"""Probe courses (Heess et al. 2017, §4): statistics unlike training (higher
hurdles, wider gaps), see-saws and random pushes on the torso, registered as
evaluation-only environments."""

import numpy as np
import pytest

from composer_tasks import composer
from composer_tasks import walkers
from composer_tasks.arenas import parkour as courses
from composer_tasks.tasks import parkour
from composer_tasks.tasks import perturbations
from suites import locomotion


def test_probes_are_registered_as_evaluation_only():
    expected = {
        f"{walker}_probe_{probe}"
        for walker in ("walker", "quadruped", "humanoid")
        for probe in ("high_hurdles", "wide_gaps", "seesaws", "pushes")
    }
    assert set(locomotion.EVALUATION_ONLY) == expected
    assert expected <= set(locomotion.ALL)
    assert not expected & set(locomotion.BENCHMARKING)


def _course(name, episodes=3):
    env = locomotion.load(name, seed=0)
    courses_seen = []
    for _ in range(episodes):
        env.reset()
        courses_seen.append(env.task.arena.course)
    return env, courses_seen


def test_high_hurdles_are_higher_than_any_training_hurdle():
    training_max = courses.Hurdles().height[1]
    _, seen = _course("humanoid_probe_high_hurdles")
    heights = [o.parameters["height"] for course in seen for o in course.of_kind("hurdle")]
    assert len(heights) > 20
    assert min(heights) >= training_max and max(heights) <= 0.7


def test_wide_gaps_are_wider_than_any_training_gap():
    training_max = courses.Gaps().gap[1]
    _, seen = _course("quadruped_probe_wide_gaps")
    lengths = [o.parameters["length"] for course in seen for o in course.of_kind("gap")]
    assert len(lengths) > 10
    assert min(lengths) >= training_max - 1e-9 and max(lengths) <= 1.8 + 1e-9


def _seesaw_env(**kwargs):
    arena = courses.ParkourCourse(segments=[courses.SeeSaws(**kwargs)], course_length=20.0)
    task = parkour.ForwardProgress(walkers.Quadruped(), arena, parkour.QuadrupedReward())
    env = composer.Environment(task, random_state=0)
    env.reset()
    return arena, env


def test_seesaw_rests_on_its_near_end_and_tips_when_pressed_beyond_the_pivot():
    arena, env = _seesaw_env()
    physics = env.physics
    seesaws = arena.course.of_kind("seesaw")
    assert seesaws
    first = seesaws[0]
    pivot = first.parameters["pivot_x"]
    along = np.linspace(first.x_start + 0.2, first.x_end - 0.2, 9)
    points = np.column_stack([along, np.zeros_like(along)])
    heights = arena.terrain_height(physics, points)
    # The near end lies on the ground, the plank rises steadily toward the far end.
    assert heights[0] < 0.2 and np.all(np.diff(heights) > 0)
    # A plank at rest stays so.
    for _ in range(10):
        env.step(np.zeros(env.action_spec().shape))
    np.testing.assert_allclose(arena.terrain_height(physics, points), heights, atol=2e-3)
    # Pressing down beyond the pivot tips it: the far end drops, the near end rises.
    plank = physics.model.body("seesaw_0_plank").id
    for _ in range(20):
        physics.data.xfrc_applied[plank] = [0.0, 0.0, 0.0, 0.0, 300.0, 0.0]
        env.step(np.zeros(env.action_spec().shape))
    tipped = arena.terrain_height(physics, points)
    assert tipped[0] > heights[0] + 0.3 and tipped[-1] < heights[-1] - 0.3
    assert np.all(np.diff(tipped) < 0)
    # The hinge lies 5 % of the plank's length beyond its centre.
    assert pivot == pytest.approx((first.x_start + first.x_end) / 2 + 0.05 * 3.0)


def test_seesaws_move_between_episodes_and_unused_ones_are_parked():
    arena, env = _seesaw_env()
    first = [o.x_start for o in arena.course.of_kind("seesaw")]
    env.reset()
    second = [o.x_start for o in arena.course.of_kind("seesaw")]
    assert first != second
    model = env.physics.model
    placed = len(second)
    z = [model.body(f"seesaw_{i}").pos[2] for i in range(arena._seesaws.capacity)]
    assert all(value == 0.0 for value in z[:placed])
    assert all(value < -50.0 for value in z[placed:])


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(pivot_height=2.0), "pivot_height"),
        (dict(plank_length=-1.0), "plank_length"),
        (dict(plank_mass=True), "plank_mass"),
    ],
)
def test_seesaws_reject_bad_planks(kwargs, match):
    with pytest.raises(ValueError, match=match):
        courses.SeeSaws(**kwargs)


def test_a_course_needs_one_plank_for_all_its_seesaws():
    with pytest.raises(ValueError, match="same plank"):
        courses.ParkourCourse(segments=[courses.SeeSaws(), courses.SeeSaws(plank_length=4.0)])


def test_probe_pushes_hit_the_torso_on_schedule():
    env = locomotion.load("humanoid_probe_pushes", seed=0)
    env.reset()
    pushes = env.task.pushes
    first = pushes.next_push_step
    assert 40 <= first <= 120
    root = env.physics.bind(env.task.walker.root_body).element_id
    action = np.zeros(env.action_spec().shape)
    for step in range(1, first + 4):
        timestep = env.step(action)
        force = pushes.force
        np.testing.assert_array_equal(env.physics.data.xfrc_applied[root, :3], force)
        if step < first:
            assert not force.any()
        else:
            assert 100.0 <= np.linalg.norm(force) <= 200.0 and force[2] == 0.0
        if timestep.last():
            env.reset()
            break


def test_planar_walker_is_pushed_along_its_plane():
    walker = walkers.PlanarWalker()
    arena = courses.ParkourCourse(segments=[courses.Hurdles()], course_length=20.0)
    task = parkour.ForwardProgress(
        walker,
        arena,
        parkour.PlanarWalkerReward(),
        push_interval_steps=(1, 2),
        push_force_n=(50.0, 60.0),
        push_duration_steps=1,
    )
    env = composer.Environment(task, random_state=0)
    env.reset()
    forces = []
    for _ in range(12):
        env.step(np.zeros(env.action_spec().shape))
        forces.append(task.pushes.force)
    pushed = [force for force in forces if force.any()]
    assert len(pushed) >= 4
    for force in pushed:
        assert force[1] == 0.0 and force[2] == 0.0 and 50.0 <= abs(force[0]) <= 60.0


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(interval_steps=(0, 3), force_n=(1.0, 2.0)), "interval_steps"),
        (dict(interval_steps=(5, 3), force_n=(1.0, 2.0)), "interval_steps"),
        (dict(interval_steps=(3, 5), force_n=(2.0, 1.0)), "force_n"),
        (dict(interval_steps=(3, 5), force_n=(-1.0, 1.0)), "force_n"),
        (dict(interval_steps=(3, 5), force_n=(1.0, 2.0), duration_steps=0), "duration_steps"),
    ],
)
def test_pushes_reject_bad_schedules(kwargs, match):
    with pytest.raises(ValueError, match=match):
        perturbations.RandomPushes(walkers.Quadruped(), **kwargs)
