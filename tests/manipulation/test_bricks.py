"""Duplo bricks snap from geometry and friction, and separate under the published forces."""

import numpy as np
import pytest

from composer_tasks import composer
from composer_tasks.mjcf import Physics
from composer_tasks.props import bricks, duplo_utils
from tests.manipulation import reference

# Real Duplo bricks separate under 6 N to 18 N with a lower quartile of 10 N (the
# figures dm_control's stud sizes are tuned to; see composer_tasks/props/bricks.py).
# dm_control's own tests (duplo_test.py, run by tests/differential/dm_control_tests.py)
# measure every configuration; these check the default one fast.
_DEFAULT_FORCE_N = 10.0
_MIN_FORCE_N, _MAX_FORCE_N = 6.0, 18.0
_TOLERANCE_N = 0.5


def _pair(radius=bricks.STUD_RADIUS_M, variation=0.0):
    top = bricks.Duplo(name="top", variation=variation)
    bottom = bricks.Duplo(name="bottom", variation=variation)
    top.set_stud_radius(radius)
    bottom.set_stud_radius(radius)
    return top, bottom


def test_default_brick_separates_at_about_10_newtons():
    force = duplo_utils.measure_separation_force(*_pair())
    assert force == pytest.approx(_DEFAULT_FORCE_N, abs=_TOLERANCE_N)


@pytest.mark.slow
def test_variation_spans_6_to_18_newtons():
    low, high = bricks.Duplo(variation=1.0).stud_radius_range
    assert duplo_utils.measure_separation_force(*_pair(low)) == pytest.approx(
        _MIN_FORCE_N, abs=_TOLERANCE_N
    )
    assert duplo_utils.measure_separation_force(*_pair(high)) == pytest.approx(
        _MAX_FORCE_N, abs=_TOLERANCE_N
    )


def test_variation_draws_radii_within_the_range_and_zero_variation_is_fixed():
    brick = bricks.Duplo(variation=1.0)
    low, high = brick.stud_radius_range
    assert (low, high) == (bricks.STUD_RADIUS_MIN_M, bricks.STUD_RADIUS_MAX_M)
    random_state = np.random.RandomState(0)
    radii = []
    for _ in range(20):
        brick.initialize_episode_mjcf(random_state)
        radii.append(brick.stud_radius)
        assert all(stud.size[0] == brick.stud_radius for stud in brick.stud_geoms)
    assert low <= min(radii) < max(radii) <= high
    fixed = bricks.Duplo(variation=0.0)
    fixed.initialize_episode_mjcf(random_state := np.random.RandomState(5))
    assert fixed.stud_radius_range == (bricks.STUD_RADIUS_M, bricks.STUD_RADIUS_M)
    assert fixed.stud_radius == bricks.STUD_RADIUS_M
    # One draw even from a single value, as dm_control's brick (the stream stays aligned).
    expected = np.random.RandomState(5)
    expected.uniform()
    assert random_state.uniform() == expected.uniform()


def test_snap_holds_under_gravity_without_any_equality_constraint():
    top, bottom = _pair()
    root, _ = duplo_utils.stack_bricks(top, bottom)
    physics = Physics.from_spec(root.spec)
    assert physics.model.neq == 0
    # Hang the pair upside down: only stud friction holds the free brick.
    physics.model.opt.gravity[:] = (0.0, 0.0, 9.81)
    start = physics.bind(top.attachment_body).xpos.copy()
    physics.step(500)
    np.testing.assert_allclose(physics.bind(top.attachment_body).xpos, start, atol=5e-4)


def test_unstacked_studs_do_not_hold():
    # A brick resting on another with its studs not inside the cavities lifts
    # off under a small force: the hold comes from the snapped geometry.
    top, bottom = _pair()
    root, _ = duplo_utils.stack_bricks(top, bottom)
    top.attachment_body.pos = [0.0, 0.0, bricks.STACKED_OFFSET_M + 0.0047]
    physics = Physics.from_spec(root.spec)
    physics.model.opt.gravity[:] = 0.0
    body = physics.bind(top.attachment_body)
    body.xfrc_applied[2] = 0.5
    start = body.xpos[2]
    physics.step(100)
    assert body.xpos[2] - start > 1e-3


def test_brick_mass_matches_the_reference():
    top, bottom = _pair()
    physics = Physics.from_spec(duplo_utils.stack_bricks(top, bottom)[0].spec)
    mass = physics.model.body_subtreemass[physics.bind(top.attachment_body).id]
    assert mass == pytest.approx(
        reference.facts()["duplo"]["subtree_masses"]["duplo2x4/"], rel=0.02
    )


def test_observables_read_the_bounding_box_pose():
    brick = bricks.Duplo()
    root = composer.Arena()
    root.add_free_entity(brick)
    physics = Physics.from_spec(root.spec)
    brick.set_pose(physics, position=(0.1, 0.2, 0.3))
    physics.forward()
    position = brick.observables.position._raw_reader(physics)()
    np.testing.assert_allclose(position, (0.1, 0.2, 0.3 + 0.0119), atol=1e-12)
    assert brick.observables.orientation._raw_reader(physics)().shape == (4,)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(variation=float("nan")), "variation"),
        (dict(variation=1000.0), "variation"),
        (dict(color=(1.0, 2.0, 0.0)), "color"),
        (dict(color=(1.0, 0.0)), "color"),
    ],
)
def test_bad_arguments_raise(kwargs, message):
    with pytest.raises(ValueError, match=message):
        bricks.Duplo(**kwargs)


def test_bad_stud_radius_raises():
    with pytest.raises(ValueError, match="stud radius"):
        bricks.Duplo().set_stud_radius(0.0)


def test_variation_recompiles_between_episodes():
    class _Task(composer.Task):
        def __init__(self):
            self._root = composer.Arena()
            self.brick = bricks.Duplo(variation=1.0)
            self._root.add_free_entity(self.brick)

        @property
        def root_entity(self):
            return self._root

        def get_reward(self, physics):
            return 0.0

    task = _Task()
    env = composer.Environment(task, random_state=0)
    radii = set()
    for _ in range(3):
        env.reset()
        stud = task.brick.stud_geoms[0]
        radii.add(float(env.physics.bind(stud).size[0]))
        assert env.physics.bind(stud).size[0] == pytest.approx(task.brick.stud_radius)
    assert len(radii) == 3


def test_duplo_studs_and_holes_are_dm_controls_site_grids():
    brick = bricks.Duplo()
    assert brick.studs.shape == (2, 4) and brick.holes.shape == (2, 4)
    assert brick.studs[0, 0].name == "stud_00" and brick.holes[1, 3].name == "hole_13"
    assert brick.studs[0, 0].spec_element is brick.stud_sites[0, 0]
    assert len(brick.stud_geoms) == 8
