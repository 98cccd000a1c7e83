"""Control Suite tasks of `suites` against the recorded dm-control 1.0.50 data.

One set of tests per reference file; every benchmarking task, and every extra
task that has a reference file, must be offered.
"""

import functools
import os

import numpy as np
import pytest

from suites import suite

from . import conformance

_REFERENCES = {os.path.basename(p)[: -len(".npz")]: p for p in conformance.reference_paths()}

# The 28 benchmarking tasks of the published suite (dm_control 1.0.50,
# suite.BENCHMARKING).
_BENCHMARKING = (
    "acrobot-swingup",
    "acrobot-swingup_sparse",
    "ball_in_cup-catch",
    "cartpole-balance",
    "cartpole-balance_sparse",
    "cartpole-swingup",
    "cartpole-swingup_sparse",
    "cheetah-run",
    "finger-spin",
    "finger-turn_easy",
    "finger-turn_hard",
    "fish-upright",
    "fish-swim",
    "hopper-stand",
    "hopper-hop",
    "humanoid-stand",
    "humanoid-walk",
    "humanoid-run",
    "manipulator-bring_ball",
    "pendulum-swingup",
    "point_mass-easy",
    "reacher-easy",
    "reacher-hard",
    "swimmer-swimmer6",
    "swimmer-swimmer15",
    "walker-stand",
    "walker-walk",
    "walker-run",
)
# The 23 extra tasks of the published suite (dm_control 1.0.50, suite.EXTRA).
_EXTRA = (
    "cartpole-three_poles",
    "cartpole-two_poles",
    "dog-fetch",
    "dog-run",
    "dog-stand",
    "dog-trot",
    "dog-walk",
    "humanoid-run_pure_state",
    "humanoid_CMU-run",
    "humanoid_CMU-stand",
    "humanoid_CMU-walk",
    "lqr-lqr_2_1",
    "lqr-lqr_6_2",
    "manipulator-bring_peg",
    "manipulator-insert_ball",
    "manipulator-insert_peg",
    "point_mass-hard",
    "quadruped-escape",
    "quadruped-fetch",
    "quadruped-run",
    "quadruped-walk",
    "stacker-stack_2",
    "stacker-stack_4",
)


def _require_offered(name):
    domain, task = name.split("-")
    if (domain, task) not in suite.ALL_TASKS:
        pytest.fail(f"{name}: a published task with reference data missing from suites")


# Identical models agree to about 1e-12 here (see docs/control_suite.md), far inside
# the 1e-4 the issue asks for; these tighter bounds catch small regressions.
_STRICT = conformance.Tolerances(
    reward=1e-9, observation=1e-9, next_qpos=1e-9, next_qvel=1e-8, next_act=1e-9
)

# Quadruped escape: at states where the legs touch the heightfield terrain, MuJoCo
# 4's heightfield contacts differ slightly from MuJoCo 3.17's (the states on flat
# ground and in the air agree to 1e-9). The acceleration-stage observations (imu's
# accelerometer, m/s^2, and the toes' arcsinh force/torque) then differ by up to
# 0.03 and one control step lands up to 1e-5 (qpos) and 4e-4 (qvel) apart; the
# reward, a function of positions only, stays exact (docs/control_suite.md).
_PER_TASK_TOLERANCES = {
    "quadruped-escape": conformance.Tolerances(
        reward=1e-9, observation=0.1, next_qpos=1e-4, next_qvel=1e-3, next_act=1e-9
    ),
}
# Dog: at the few recorded states where the torso's ellipsoid touches a capsule or
# box, one control step lands up to 2.4e-5 (qpos) and 4.4e-4 (qvel) apart, and at
# one fetch state with ten contacts the contact-force sensors (touch, force,
# accelerometer) differ by up to 8e-3 N; every other state agrees to 1e-9
# (docs/control_suite.md, "humanoid_CMU and dog").
_PER_TASK_TOLERANCES.update(
    {
        f"dog-{task}": conformance.Tolerances(
            reward=1e-9, observation=1e-2, next_qpos=1e-4, next_qvel=1e-3, next_act=1e-9
        )
        for task in ("stand", "walk", "trot", "run", "fetch")
    }
)

# Model facts that differ from the published model on purpose (docs/control_suite.md):
# finger and ball_in_cup gain a tracking camera after their two published ones.
_DELIBERATE_MODEL_DIFFERENCES = {
    "finger": {"ncam"},
    "ball_in_cup": {"ncam"},
    # The dog is built without its 162 bone meshes (visual only in the published
    # model, which gives their bodies the masses and inertias set here explicitly):
    # the geom count differs, and the geom fields differ only by the missing rows.
    "dog": {
        "ngeom",
        "body_geomnum",
        "geom_type",
        "geom_bodyid",
        "geom_size",
        "geom_pos",
        "geom_quat",
        "geom_friction",
        "geom_contype",
        "geom_conaffinity",
        "geom_condim",
        "geom_priority",
        "geom_solmix",
        "geom_solref",
        "geom_solimp",
        "geom_margin",
        "geom_gap",
        "geom_fluid",
    },
}


# The published LQR reward is 1 minus a quadratic cost: at most 1, unbounded below.
_UNBOUNDED_REWARD_DOMAINS = ("lqr",)

# The whole check of quadruped escape (a 1000-step episode and 100 episode starts,
# each casting 20 rangefinder rays on the heightfield per physics step) takes about
# a minute: it runs with -m slow; the default run checks escape's specs and states
# with test_escape_specs_and_states_match.
_SLOW_CHECKS = {"quadruped-escape"}
_CHECKED_NAMES = [
    pytest.param(name, marks=[pytest.mark.slow] if name in _SLOW_CHECKS else [])
    for name in sorted(_REFERENCES)
]


@functools.lru_cache(maxsize=None)
def _result(name):
    domain, task = name.split("-")
    return conformance.check_suite_task(
        lambda seed: suite.load(domain, task, task_kwargs={"random": seed}),
        _REFERENCES[name],
        tolerances=_PER_TASK_TOLERANCES.get(name, _STRICT),
    )


def _checked(name):
    _require_offered(name)
    return _result(name)


def test_reference_files_cover_the_benchmark():
    assert set(_BENCHMARKING) <= set(_REFERENCES)


def test_reference_files_are_published_tasks():
    assert set(_REFERENCES) <= set(_BENCHMARKING) | set(_EXTRA)


@pytest.mark.parametrize("name", sorted(_REFERENCES))
def test_reference_file_is_consistent(name):
    reference = conformance.load_reference(_REFERENCES[name])
    model, states = reference.model, reference.states
    nq, nv = int(model["model/count/nq"]), int(model["model/count/nv"])
    assert reference.name == name
    assert reference.num_states >= 20
    assert states["qpos"].shape == states["next_qpos"].shape == (reference.num_states, nq)
    assert states["qvel"].shape == states["next_qvel"].shape == (reference.num_states, nv)
    assert states["action"].shape[1:] == tuple(reference.spec["action_shape"])
    for key, shape in zip(reference.spec["observation_keys"], reference.spec["observation_shapes"]):
        assert reference.observations[key].shape == (reference.num_states, *shape)
    if reference.domain in _UNBOUNDED_REWARD_DOMAINS:
        assert np.all(states["reward"] <= 1)
    else:
        assert np.all((states["reward"] >= 0) & (states["reward"] <= 1))
    assert reference.initial["qpos"].shape[1] == nq
    assert reference.meta["dm_control_version"] == "1.0.50"


@pytest.mark.parametrize("name", _CHECKED_NAMES)
def test_specs_match(name):
    result = _checked(name)
    assert result.spec_mismatches == []


@pytest.mark.parametrize("name", _CHECKED_NAMES)
def test_episode_length_and_discount_match(name):
    result = _checked(name)
    assert result.episode_mismatches == []


@pytest.mark.parametrize("name", _CHECKED_NAMES)
def test_joint_and_actuator_layout_match(name):
    result = _checked(name)
    assert result.structure_mismatches == []


@pytest.mark.parametrize("name", _CHECKED_NAMES)
def test_reward_matches_at_recorded_states(name):
    result = _checked(name)
    assert result.states.setup_errors == []
    assert result.reward_holds(), result.failures()


@pytest.mark.parametrize("name", _CHECKED_NAMES)
def test_observations_match_at_recorded_states(name):
    result = _checked(name)
    assert result.states.setup_errors == []
    assert result.observations_hold(), result.failures()


@pytest.mark.parametrize("name", _CHECKED_NAMES)
def test_one_control_step_lands_on_reference_next_state(name):
    result = _checked(name)
    assert result.states.setup_errors == []
    assert result.next_state_holds(), result.failures()


@pytest.mark.parametrize("name", _CHECKED_NAMES)
def test_initial_state_distribution_matches(name):
    result = _checked(name)
    initial = result.initial_states
    assert initial.setup_errors == []
    assert initial.mismatches == []


@pytest.mark.parametrize("name", _CHECKED_NAMES)
def test_model_facts_match(name):
    result = _checked(name)
    domain = name.split("-")[0]
    differing = {field.split("/")[-1] for field, _, _ in result.differing_model_fields()}
    assert differing <= _DELIBERATE_MODEL_DIFFERENCES.get(domain, set()), differing


# A few ulps of the values of initial states (angles up to pi, positions of a few m).
_ROUNDING = 8 * np.finfo(np.float64).eps


@pytest.mark.parametrize("name", sorted(_REFERENCES))
def test_seeded_initial_states_are_the_published_ones(name):
    _require_offered(name)
    domain, task = name.split("-")
    worst = conformance.check_seeded_initial_states(
        lambda seed: suite.load(domain, task, task_kwargs={"random": seed}), _REFERENCES[name]
    )
    # The same draws in the same order, so equal up to the last bits of the quaternions
    # and vectors normalised by np.linalg.norm, whose BLAS dot product rounds
    # differently on different CPUs (AVX-512 against AVX2 kernels: 1.1e-16 to 4.4e-16
    # on an AVX-512 Xeon against the recording); a different draw, or a redraw after a
    # contact, would differ by far more. Cheetah then settles for 2 s, over which
    # MuJoCo 3 and 4 round differently (2e-14 seen).
    assert worst <= _ROUNDING or (domain == "cheetah" and worst < 1e-9), worst


@pytest.mark.parametrize("name", sorted(_SLOW_CHECKS & set(_REFERENCES)))
def test_escape_specs_and_states_match(name):
    _require_offered(name)
    domain, task = name.split("-")
    env = suite.load(domain, task, task_kwargs={"random": 0})
    reference = conformance.load_reference(_REFERENCES[name])
    assert conformance.check_specs(env, reference) == []
    states = conformance.check_states(env, reference)
    assert states.setup_errors == []
    tolerances = _PER_TASK_TOLERANCES[name]
    assert states.max_reward_error() <= tolerances.reward
    assert max(states.max_observation_errors().values()) <= tolerances.observation
    next_errors = states.max_next_errors()
    assert next_errors["qpos"] <= tolerances.next_qpos
    assert next_errors["qvel"] <= tolerances.next_qvel
