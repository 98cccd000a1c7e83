"""The locomotion registry: every environment builds, runs, is deterministic under
its seed, draws a new layout every episode, and names are checked."""

import numpy as np
import pytest

from suites import locomotion

_STEPS = 200
# Tasks on a plain floor (Liang et al. 2018's run tasks): no layout to redraw.
_FLAT_GROUND = ("ant_run", "humanoid_run")
# Heess et al. 2017's open plane: no layout and no initial-state noise, every episode
# starts the same (the paper gives none; its walker stands at the origin).
_SAME_EVERY_EPISODE = ("walker_open_plane",)


def _rollout(env, actions):
    """(rewards, discounts, step types, flattened observations) of running
    `actions`, resetting after every last step."""
    rewards, discounts, kinds, observations = [], [], [], []
    timestep = env.reset()
    for action in actions:
        timestep = env.step(action)
        rewards.append(timestep.reward)
        discounts.append(timestep.discount)
        kinds.append(int(timestep.step_type))
        observations.append(
            np.concatenate(
                [np.ravel(value).astype(np.float64) for value in timestep.observation.values()]
            )
        )
        if timestep.last():
            env.reset()
    return np.array(rewards), np.array(discounts), np.array(kinds), np.array(observations)


def _layout_fingerprint(physics):
    """Model fields that arenas and tasks rewrite to lay out an episode."""
    model = physics.model
    return np.concatenate(
        [
            model.body_pos.ravel(),
            model.geom_size.ravel(),
            model.site_pos.ravel(),
            model.hfield_data.ravel(),
        ]
    )


@pytest.mark.parametrize("name", locomotion.ALL)
def test_environment_runs_deterministically_and_changes_layout(name):
    env = locomotion.load(name, seed=3)
    spec = env.action_spec()
    actions = np.random.RandomState(0).uniform(spec.minimum, spec.maximum, (_STEPS,) + spec.shape)
    rewards, discounts, kinds, observations = _rollout(env, actions)
    assert np.all(np.isfinite(rewards)) and np.all(np.isfinite(observations))
    assert np.all((discounts == 0.0) | (discounts == 1.0))
    if name in locomotion.BENCHMARKING:
        assert np.all((rewards >= 0.0) & (rewards <= 1.0))

    again = _rollout(locomotion.load(name, seed=3), actions)
    for first, second in zip((rewards, discounts, kinds, observations), again):
        np.testing.assert_array_equal(first, second)

    env.reset()
    first_layout = _layout_fingerprint(env.physics)
    first_state = env.physics.data.qpos.copy()
    env.reset()
    if name in _SAME_EVERY_EPISODE:
        np.testing.assert_array_equal(first_layout, _layout_fingerprint(env.physics))
        np.testing.assert_array_equal(first_state, env.physics.data.qpos)
    elif name in _FLAT_GROUND:
        # Nothing to lay out; the initial state is perturbed every episode instead.
        assert not np.array_equal(first_state, env.physics.data.qpos)
    else:
        assert not np.array_equal(first_layout, _layout_fingerprint(env.physics))


def test_seeds_give_different_layouts():
    layouts = []
    for seed in (1, 2):
        env = locomotion.load("humanoid_parkour_mixed", seed=seed)
        env.reset()
        layouts.append(_layout_fingerprint(env.physics))
    assert not np.array_equal(*layouts)


def test_names_cover_walkers_and_courses():
    for name in (
        "cmu_humanoid_run_walls",
        "cmu_humanoid_run_gaps",
        "walker_parkour_hurdles",
        "quadruped_parkour_mixed",
        "humanoid_parkour_curriculum",
        "humanoid_maze_forage",
        "humanoid_parkour_mixed_unit",
        "quadruped_go_to_target",
        "humanoid_escape_bowl",
        "walker_open_plane",
    ):
        assert name in locomotion.ALL
    assert len(set(locomotion.ALL)) == len(locomotion.ALL)
    assert set(locomotion.BENCHMARKING) < set(locomotion.ALL)
    assert "humanoid_parkour_mixed" not in locomotion.BENCHMARKING
    assert "walker_parkour_slalom" not in locomotion.ALL


def test_unknown_name_lists_the_valid_ones():
    with pytest.raises(ValueError, match="cmu_humanoid_run_walls") as error:
        locomotion.load("humanoid_run_backwards")
    assert "humanoid_run_backwards" in str(error.value)


def test_parkour_observations_follow_the_published_layouts():
    planar = locomotion.load("walker_parkour_platforms", seed=0).reset().observation
    assert planar["terrain_heights"].shape == (50,)
    assert planar["platform_heights"].shape == (50, 2)
    assert planar["height_above_ground"].shape == (1,)
    assert planar["sample_grid_offset"].shape == (1,)
    humanoid = locomotion.load("humanoid_parkour_hurdles", seed=0).reset().observation
    assert humanoid["terrain_heights"].shape == (26, 19)
    assert humanoid["height_above_ground"].shape == (1,)
    assert humanoid["sample_grid_offset"].shape == (2,)
    assert humanoid["track_offset"].shape == (1,)
    # Proprioception (§3.1): velocimeter, accelerometer, gyro, contacts at feet
    # and legs, lower-limb torques.
    for name, shape in (
        ("walker/sensors_velocimeter", (3,)),
        ("walker/sensors_gyro", (3,)),
        ("walker/sensors_accelerometer", (3,)),
        ("walker/sensors_touch", (8,)),
        ("walker/sensors_torque", (18,)),
    ):  # dm_control concatenates sensors
        assert humanoid[name].shape == shape, name
    quadruped = locomotion.load("quadruped_parkour_gaps", seed=0).reset().observation
    assert quadruped["walker/sensors_touch"].shape == (8,)
