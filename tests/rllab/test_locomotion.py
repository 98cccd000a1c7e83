"""rllab locomotion tasks: observation contents and sizes, reward and termination
formulas on constructed states, determinism."""

import numpy as np
import pytest

from suites import rllab

# Sizes on this project's models (docs/rllab.md says where and why they differ
# from the supplement's 13/20/21/20/142).
_SIZES = {
    "swimmer": 13,
    "hopper": 24,
    "walker": 21,
    "half_cheetah": 20,
    "ant": 107,
    "simple_humanoid": 102,
    "full_humanoid": 160,
}
_ACTIONS = {
    "swimmer": 2,
    "hopper": 4,
    "walker": 6,
    "half_cheetah": 6,
    "ant": 8,
    "simple_humanoid": 10,
    "full_humanoid": 21,
}


def _constructed(env, qpos=None, qvel=None, ctrl=None):
    physics = env.physics
    data = physics.data
    data.qpos[:] = physics.model.qpos0 if qpos is None else qpos
    data.qvel[:] = 0 if qvel is None else qvel
    data.ctrl[:] = 0 if ctrl is None else ctrl
    physics.forward()
    return physics


@pytest.mark.parametrize("name", rllab.LOCOMOTION)
def test_specs(name):
    env = rllab.load(name, seed=0)
    spec = env.observation_spec()["observations"]
    assert spec.shape == (_SIZES[name],) and spec.dtype == np.float64
    assert env.reset().observation["observations"].shape == (_SIZES[name],)
    action = env.action_spec()
    assert action.shape == (_ACTIONS[name],)
    np.testing.assert_array_equal(action.minimum, -1.0)
    np.testing.assert_array_equal(action.maximum, 1.0)


def test_half_cheetah_reward_and_observation():
    env = rllab.load("half_cheetah", seed=0)
    env.reset()
    qvel = np.zeros(9)
    qvel[0] = 1.0
    qpos = np.arange(9) * 0.01
    physics = _constructed(env, qpos=qpos, qvel=qvel, ctrl=np.full(6, 0.5))
    assert env.task.get_reward(physics) == pytest.approx(1.0 - 0.05 * 6 * 0.25)
    assert not env.task.should_terminate_episode(physics)
    observation = env.task.observations.observation_callable(physics)()
    np.testing.assert_array_equal(observation[:8], qpos[1:])
    np.testing.assert_array_equal(observation[8:17], qvel)
    np.testing.assert_array_equal(
        observation[17:], physics.data.subtree_com[physics.model.body("torso").id]
    )


def test_hopper_alive_bonus_and_terminations():
    env = rllab.load("hopper", seed=0)
    env.reset()
    task = env.task
    physics = _constructed(env, ctrl=np.full(4, 1.0))
    assert task.torso_height(physics) > 0.7
    assert task.get_reward(physics) == pytest.approx(1.0 - 0.005 * 4)
    qpos = physics.model.qpos0.copy()
    qpos[physics.model.joint("rooty").qposadr[0]] = 0.25
    assert task.should_terminate_episode(_constructed(env, qpos=qpos))
    qpos = physics.model.qpos0.copy()
    qpos[physics.model.joint("rootz").qposadr[0]] = -0.6
    physics = _constructed(env, qpos=qpos)
    assert task.torso_height(physics) < 0.7 and task.should_terminate_episode(physics)
    assert task.get_discount(physics) == 0.0


def test_walker_height_window():
    env = rllab.load("walker", seed=0)
    env.reset()
    z = env.physics.model.joint("rootz").qposadr[0]
    for offset, done in ((0.0, False), (1.0, True), (-0.6, True)):
        qpos = env.physics.model.qpos0.copy()
        qpos[z] = offset
        assert env.task.should_terminate_episode(_constructed(env, qpos=qpos)) is done


@pytest.mark.parametrize("name", ["simple_humanoid", "full_humanoid"])
def test_humanoid_deviation_and_contact_costs(name):
    env = rllab.load(name, seed=0)
    env.reset()
    nu = _ACTIONS[name]
    qpos = env.physics.model.qpos0.copy()
    qpos[2] = 1.7  # in the air: no contact forces
    qvel = np.zeros(env.physics.model.nv)
    qvel[:3] = [1.0, 0.5, 0.2]
    physics = _constructed(env, qpos=qpos, qvel=qvel, ctrl=np.full(nu, 0.1))
    assert np.all(env.task.contact_forces(physics) == 0)
    expected = 1.0 - 5e-4 * nu * 0.01 + 0.2 - 5e-3 * (0.25 + 0.04)
    assert env.task.get_reward(physics) == pytest.approx(expected)
    qpos[2] = 2.1
    assert env.task.should_terminate_episode(_constructed(env, qpos=qpos))


def test_ant_reward_orientation_and_height_window():
    env = rllab.load("ant", seed=0)
    env.reset()
    task = env.task
    qpos = env.physics.model.qpos0.copy()
    qpos[2] = 0.3  # torso 0.8 m up, feet off the ground
    qvel = np.zeros(14)
    qvel[0] = 0.7
    physics = _constructed(env, qpos=qpos, qvel=qvel, ctrl=np.full(8, 0.5))
    assert np.all(task.contact_forces(physics) == 0)
    assert task.get_reward(physics) == pytest.approx(0.7 - 0.005 * 8 * 0.25 + 0.05)
    assert not task.should_terminate_episode(physics)
    observation = task.observations.observation_callable(physics)()
    np.testing.assert_allclose(observation[-12:-3], np.eye(3).ravel())
    qpos[2] = 0.6
    assert task.should_terminate_episode(_constructed(env, qpos=qpos))
    qpos[2] = -0.4
    assert task.should_terminate_episode(_constructed(env, qpos=qpos))


def test_humanoid_contact_cost_on_the_ground():
    env = rllab.load("simple_humanoid", seed=0)
    env.reset()
    physics = env.physics
    for _ in range(20):
        env.step(np.zeros(10))
    forces = env.task.contact_forces(physics)
    assert forces.shape == (66,) and np.any(forces != 0) and np.all(np.abs(forces) <= 1)
    velocity = env.task.center_of_mass_velocity(physics)
    expected = (
        velocity[0] + 0.2 - 5e-6 * np.sum(forces**2) - 5e-3 * (velocity[1] ** 2 + velocity[2] ** 2)
    )
    assert env.task.get_reward(physics) == pytest.approx(expected)


def test_swimmer_limited_sensors_keeps_positions():
    from composer_tasks import robustness

    task = rllab.make_task("swimmer")
    robustness.limited_sensors(task)
    assert [s.name for s in task.observations.sensors] == ["joint_positions", "center_of_mass"]


def test_determinism():
    def rollout():
        env = rllab.load("hopper", seed=3)
        random = np.random.RandomState(0)
        out = [env.reset().observation["observations"]]
        for _ in range(20):
            ts = env.step(random.uniform(-1, 1, 4))
            out.append(np.append(ts.observation["observations"], ts.reward))
        return np.concatenate(out)

    np.testing.assert_array_equal(rollout(), rollout())


@pytest.mark.parametrize("name", ["ant", "full_humanoid"])
def test_contact_forces_are_those_of_the_current_state(name):
    """After a step the data holds the new contacts but the constraint forces of the
    state before the last substep; the wrenches must be the current state's (as
    rllab's `model.forward()` gives them), not those stale forces read through the
    new contacts' rows, which depend on leftover memory and broke restored runs."""
    import mujoco

    env = rllab.load(name, seed=0)
    model = env.physics.model
    reference = mujoco.MjData(model)
    state_kind = mujoco.mjtState.mjSTATE_INTEGRATION
    state = np.empty(mujoco.mj_stateSize(model, state_kind))
    actions = np.random.RandomState(1).uniform(-1, 1, size=(60, _ACTIONS[name]))
    env.reset()
    contact_changes = 0
    previous_contacts = None
    for action in actions:
        timestep = env.step(action)
        if timestep.first():
            continue
        data = env.physics.data
        contacts = {(int(a), int(b)) for a, b in data.contact.geom[: data.ncon]}
        contact_changes += previous_contacts is not None and contacts != previous_contacts
        previous_contacts = contacts
        mujoco.mj_getState(model, data, state, state_kind)
        mujoco.mj_setState(model, reference, state, state_kind)
        mujoco.mj_forward(model, reference)
        mujoco.mj_rnePostConstraint(model, reference)
        np.testing.assert_array_equal(
            env.task.contact_forces(env.physics), np.clip(reference.cfrc_ext, -1, 1).ravel()
        )
    assert contact_changes > 5
