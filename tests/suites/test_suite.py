"""Every Control Suite task: loads, steps, rewards in [0, 1] (lqr: at most 1),
determinism, fresh observations."""

import math

import numpy as np
import pytest

from suites import suite

_PUBLISHED_BENCHMARKING = {
    ("acrobot", "swingup"),
    ("acrobot", "swingup_sparse"),
    ("ball_in_cup", "catch"),
    ("cartpole", "balance"),
    ("cartpole", "balance_sparse"),
    ("cartpole", "swingup"),
    ("cartpole", "swingup_sparse"),
    ("cheetah", "run"),
    ("finger", "spin"),
    ("finger", "turn_easy"),
    ("finger", "turn_hard"),
    ("fish", "upright"),
    ("fish", "swim"),
    ("hopper", "stand"),
    ("hopper", "hop"),
    ("humanoid", "stand"),
    ("humanoid", "walk"),
    ("humanoid", "run"),
    ("manipulator", "bring_ball"),
    ("pendulum", "swingup"),
    ("point_mass", "easy"),
    ("reacher", "easy"),
    ("reacher", "hard"),
    ("swimmer", "swimmer6"),
    ("swimmer", "swimmer15"),
    ("walker", "stand"),
    ("walker", "walk"),
    ("walker", "run"),
}

_TASKS = [pytest.param(domain, task, id=f"{domain}-{task}") for domain, task in suite.ALL_TASKS]


# Published exceptions to controls in [-1, 1]: quadruped's lift and extend ranges,
# lqr's unlimited motors (bounded by mjMAXVAL in the spec).
_ACTION_BOUNDS = {
    "quadruped": ([-1, -1, -0.8] * 4, [1, 1.1, 0.8] * 4),
    "lqr": (-1e10, 1e10),
}
# LQR has no time limit and a reward of 1 minus a quadratic cost (unbounded below).
_NO_TIME_LIMIT = {"lqr"}
_REWARD_UNBOUNDED_BELOW = {"lqr"}


def _random_actions(spec, count, seed):
    """Uniform within the bounds, +-1 where a control is unlimited (+-1e10)."""
    low = np.where(spec.minimum <= -1e10, -1.0, spec.minimum)
    high = np.where(spec.maximum >= 1e10, 1.0, spec.maximum)
    return np.random.RandomState(seed).uniform(low, high, size=(count,) + spec.shape)


def test_benchmarking_tasks_are_the_published_ones():
    assert set(suite.BENCHMARKING) <= _PUBLISHED_BENCHMARKING
    assert set(suite.BENCHMARKING) | set(suite.EXTRA) == set(suite.ALL_TASKS)
    for domain, tasks in suite.TASKS_BY_DOMAIN.items():
        assert all((domain, task) in suite.ALL_TASKS for task in tasks)


def test_unknown_names_list_the_valid_ones():
    with pytest.raises(ValueError, match=r"unknown domain 'nope'; valid domains: \["):
        suite.load("nope", "swingup")
    domain = next(iter(suite.TASKS_BY_DOMAIN))
    with pytest.raises(ValueError, match=rf"unknown task 'nope' of domain '{domain}'; valid tasks"):
        suite.load(domain, "nope")


# Touch sensors read zero until something is touched, which random actions may
# never do in an episode (dm_control's suite test makes the same exception).
_MAY_STAY_CONSTANT = {("manipulator", "touch"), ("finger", "touch"), ("stacker", "touch")}
# A 1000-step escape episode casts 20 rangefinder rays on the heightfield per
# physics step: about 30 s on a shared 2-core machine.
_SLOW_EPISODES = {("quadruped", "escape")}
_EPISODE_TASKS = [
    pytest.param(
        domain,
        task,
        id=f"{domain}-{task}",
        marks=[pytest.mark.slow] if (domain, task) in _SLOW_EPISODES else [],
    )
    for domain, task in suite.ALL_TASKS
]


@pytest.mark.parametrize("domain, task", _EPISODE_TASKS)
def test_episode_of_random_actions(domain, task):
    env = suite.load(domain, task, task_kwargs={"random": 0})
    spec = env.action_spec()
    minimum, maximum = _ACTION_BOUNDS.get(domain, (-1.0, 1.0))
    np.testing.assert_array_equal(spec.minimum, np.broadcast_to(minimum, spec.shape))
    np.testing.assert_array_equal(spec.maximum, np.broadcast_to(maximum, spec.shape))
    observation_spec = env.observation_spec()
    timestep = env.reset()
    observations = [timestep.observation]
    rewards = []
    for action in _random_actions(spec, 1000, seed=1):
        timestep = env.step(action)
        rewards.append(timestep.reward)
        observations.append(timestep.observation)
        if timestep.last():
            break
    if domain in _NO_TIME_LIMIT:
        assert not timestep.last() and len(rewards) == 1000
    else:
        assert timestep.last() and len(rewards) == 1000, "suite episodes are 1000 control steps"
    assert timestep.discount == 1.0
    rewards = np.array(rewards)
    assert np.all(np.isfinite(rewards))
    if domain in _REWARD_UNBOUNDED_BELOW:
        assert np.all(rewards <= 1.0)
    else:
        assert np.all((rewards >= 0.0) & (rewards <= 1.0))
    # A second, shorter episode: targets and other per-episode constants change.
    timestep = env.reset()
    observations.append(timestep.observation)
    for action in _random_actions(spec, 50, seed=2):
        observations.append(env.step(action).observation)
    for name, spec_entry in observation_spec.items():
        values = np.array([observation[name] for observation in observations])
        assert values.shape[1:] == spec_entry.shape, name
        assert values.dtype == spec_entry.dtype, name
        assert np.all(np.isfinite(values)), name
        if (domain, name) in _MAY_STAY_CONSTANT:
            continue
        flat = values.reshape(len(values), -1)
        constant = np.all(flat == flat[0], axis=0)
        assert not np.any(constant), f"{name} has constant elements at {np.flatnonzero(constant)}"


@pytest.mark.parametrize("domain, task", _TASKS)
def test_deterministic_under_seed_and_seed_matters(domain, task):
    def rollout(seed):
        env = suite.load(domain, task, task_kwargs={"random": seed})
        actions = _random_actions(env.action_spec(), 20, seed=3)
        records = []
        for _ in range(2):
            timestep = env.reset()
            records.append(np.concatenate([np.ravel(v) for v in timestep.observation.values()]))
            for action in actions:
                timestep = env.step(action)
                records.append(
                    np.concatenate(
                        [[timestep.reward]] + [np.ravel(v) for v in timestep.observation.values()]
                    )
                )
        return records

    first, second, other = rollout(5), rollout(5), rollout(6)
    assert all(np.array_equal(a, b) for a, b in zip(first, second))
    assert not all(np.array_equal(a, b) for a, b in zip(first, other))


@pytest.mark.parametrize("domain, task", _TASKS)
def test_initial_states_are_randomised(domain, task):
    env = suite.load(domain, task, task_kwargs={"random": 0})
    states = []
    for _ in range(3):
        env.reset()
        states.append(
            np.concatenate(
                [
                    env.physics.get_state(),
                    np.ravel(env.physics.model.geom_pos),
                    np.ravel(env.physics.model.site_pos),
                ]
            )
        )
    assert not np.array_equal(states[0], states[1])
    assert not np.array_equal(states[1], states[2])


@pytest.mark.parametrize("domain, task", _TASKS)
def test_observations_share_no_memory_with_physics_or_each_other(domain, task):
    env = suite.load(domain, task, task_kwargs={"random": 0})
    observation = env.reset().observation
    arrays = [np.asarray(value) for value in observation.values()]
    physics_arrays = [
        env.physics.data.qpos,
        env.physics.data.qvel,
        env.physics.data.xpos,
        env.physics.data.xmat,
        env.physics.data.sensordata,
        env.physics.data.site_xpos,
        env.physics.data.geom_xpos,
        env.physics.model.geom_pos,
    ]
    for name, array in zip(observation, arrays):
        for other in physics_arrays:
            assert not np.shares_memory(array, other), name
    for i, a in enumerate(arrays):
        for b in arrays[i + 1 :]:
            assert not np.shares_memory(a, b)


@pytest.mark.parametrize("domain, task", _TASKS)
def test_time_limit_kwarg_is_honoured(domain, task):
    env = suite.load(domain, task, task_kwargs={"random": 0})
    control_timestep = env.task.control_timestep
    time_limit = 3 * control_timestep
    short = suite.load(domain, task, task_kwargs={"random": 0, "time_limit": time_limit})
    timestep = short.reset()
    steps = 0
    while not timestep.last():
        timestep = short.step(np.zeros(short.action_spec().shape))
        steps += 1
    # dm_control's count: the first step count >= time_limit / (timestep * substeps),
    # the float quotient as it comes (3 * 0.025 s over 0.025 s is 3.0000000000000004:
    # 4 steps, as in dm_control).
    physics_timestep = short.physics.timestep()
    substeps = round(control_timestep / physics_timestep)
    assert steps == math.ceil(time_limit / (physics_timestep * substeps))
    assert steps in (3, 4)


def test_environment_kwargs_are_passed():
    domain, task = suite.ALL_TASKS[0]
    env = suite.load(domain, task, environment_kwargs={"strip_singleton_obs_buffer_dim": False})
    for spec in env.observation_spec().values():
        assert spec.shape[0] == 1


def test_suite_look_and_joint_bounds_reject_bad_input():
    import mujoco

    from mjcf_models import common
    from suites import base

    with pytest.raises(TypeError):
        common.add_suite_look(mujoco.MjSpec(), "self")
    with pytest.raises(ValueError, match="no_such_material"):
        common.add_suite_look(mujoco.MjSpec(), ["no_such_material"])
    spec = mujoco.MjSpec()
    spec.worldbody.add_body(name="ball").add_freejoint()
    spec.body("ball").add_geom(size=[0.1, 0, 0])
    with pytest.raises(ValueError):
        base.random_joint_bounds(spec.compile())


@pytest.mark.parametrize("domain, task", [("hopper", "hop"), ("walker", "walk")])
def test_planar_bodies_start_from_a_random_pose(domain, task):
    # base.RandomPosePhysics.randomize_joints: the torso stays at the origin, its
    # pitch is uniform in [-pi, pi), every leg joint within its range, at rest.
    env = suite.load(domain, task, task_kwargs={"random": 0})
    physics = env.physics
    model = physics.model
    rootx, rootz, rooty = (model.joint(name).qposadr[0] for name in ("rootx", "rootz", "rooty"))
    random_state = np.random.RandomState(0)
    pitches = []
    for _ in range(20):
        with physics.reset_context():
            env.task.initialize_episode(physics, random_state)
        qpos, qvel = physics.data.qpos, physics.data.qvel
        assert qpos[rootx] == 0.0 and qpos[rootz] == 0.0
        assert np.all(qvel == 0.0)
        low, high = model.jnt_range[3:].T
        assert np.all((low <= qpos[3:]) & (qpos[3:] <= high))
        pitches.append(qpos[rooty])
    assert np.all(np.abs(pitches) <= np.pi) and np.ptp(pitches) > np.pi


def test_visualize_reward_recolours_the_body():
    env = suite.load("cartpole", "balance", task_kwargs={"random": 0}, visualize_reward=True)
    model = env.physics.model
    material = model.material("self").id
    default = model.mat_rgba[material].copy()
    env.reset()
    timestep = env.step([0.0])
    assert timestep.reward > 0.5
    assert not np.array_equal(model.mat_rgba[material], default)
