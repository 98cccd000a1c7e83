"""Humanoid domain: published model facts, hand-computed rewards and observations,
initial states."""

import math

import mujoco
import numpy as np
import pytest

from mjcf_models import humanoid as humanoid_model
from suites import humanoid
from suites import suite

_HEAD_ABOVE_TORSO = 0.19  # m, the head body's offset in the published model.


def _set_state(
    env,
    root_position=(0.0, 0.0, 1.5),
    root_quaternion=(1.0, 0.0, 0.0, 0.0),
    joint_angles=0.0,
    root_velocity=(0.0, 0.0, 0.0),
    control=0.0,
):
    """Writes a pose, a translation velocity of the whole body and a control, then
    recomputes derived quantities."""
    physics = env.physics
    mujoco.mj_resetData(physics.model, physics.data)
    physics.data.qpos[:3] = root_position
    physics.data.qpos[3:7] = root_quaternion
    physics.data.qpos[7:] = joint_angles
    physics.data.qvel[:3] = root_velocity
    physics.data.ctrl[:] = control
    physics.forward()
    return physics


def test_published_dimensions_and_layout():
    # dm_control paper §6.2: humanoid has state 54 (27 degrees of freedom, positions
    # and velocities), action 21, observation 67.
    env = suite.load("humanoid", "run", task_kwargs={"random": 0})
    model = env.physics.model
    assert (model.nq, model.nv) == (28, 27)
    assert 2 * model.nv == 54
    assert env.action_spec().shape == (21,)
    np.testing.assert_array_equal(env.action_spec().minimum, -1.0)
    np.testing.assert_array_equal(env.action_spec().maximum, 1.0)
    observation_spec = env.observation_spec()
    assert list(observation_spec) == [
        "joint_angles",
        "head_height",
        "extremities",
        "torso_vertical",
        "com_velocity",
        "velocity",
    ]
    shapes = [spec.shape for spec in observation_spec.values()]
    assert shapes == [(21,), (), (12,), (3,), (3,), (27,)]
    assert sum(int(np.prod(shape)) for shape in shapes) == 67
    joint_names = [model.joint(i).name for i in range(model.njnt)]
    assert joint_names == ["root"] + list(humanoid_model.JOINT_NAMES)
    assert model.jnt_type[0] == mujoco.mjtJoint.mjJNT_FREE
    np.testing.assert_array_equal(model.jnt_qposadr[1:], np.arange(7, 28))


def test_actuators_follow_the_published_order_and_gears():
    model = humanoid_model.make_spec().compile()
    names = [model.actuator(i).name for i in range(model.nu)]
    assert names[:4] == ["abdomen_y", "abdomen_z", "abdomen_x", "right_hip_x"]
    for index, (name, gear) in enumerate(humanoid_model.ACTUATOR_GEARS):
        assert names[index] == name
        assert model.joint(int(model.actuator_trnid[index, 0])).name == name
        assert model.actuator_gear[index, 0] == gear
    np.testing.assert_array_equal(model.actuator_ctrlrange, [[-1.0, 1.0]] * 21)


def test_published_physical_parameters():
    model = humanoid_model.make_spec().compile()
    assert model.opt.timestep == 0.005
    assert model.opt.integrator == mujoco.mjtIntegrator.mjINT_EULER
    # Capsule and sphere volumes at 1000 kg/m^3: the head is a 9 cm sphere.
    np.testing.assert_allclose(model.body("head").mass, 1000 * 4 / 3 * math.pi * 0.09**3)
    np.testing.assert_allclose(model.body_mass.sum(), 40.844, atol=1e-3)
    np.testing.assert_allclose(model.joint("right_hip_y").range, np.deg2rad([-110, 20]))
    np.testing.assert_allclose(model.joint("left_hip_y").range, np.deg2rad([-120, 20]))
    assert model.joint("abdomen_z").stiffness == 20 and model.dof_damping[6] == 5
    assert model.joint("right_knee").stiffness == 1
    assert model.joint("right_elbow").stiffness == 0
    np.testing.assert_allclose(model.dof_armature[6:], 0.01)
    np.testing.assert_array_equal(model.dof_damping[:6], 0.0)  # The free root is undamped.
    assert model.geom("floor").friction[0] == 1.0
    np.testing.assert_allclose(model.geom("torso").friction, [0.7, 0.005, 0.0001])
    assert model.geom("torso").condim == 1
    assert model.nsensordata == 66
    assert {model.camera(i).name for i in range(model.ncam)} == {"back", "side", "egocentric"}
    assert model.cam_mode[model.camera("back").id] == mujoco.mjtCamLight.mjCAMLIGHT_TRACKCOM
    assert model.mat_rgba[model.material("self").id].tolist() == pytest.approx([0.7, 0.5, 0.3, 1])


def test_observations_of_the_upright_rest_pose():
    env = suite.load("humanoid", "stand", task_kwargs={"random": 0})
    physics = _set_state(env)
    assert physics.head_height() == pytest.approx(1.5 + _HEAD_ABOVE_TORSO)
    np.testing.assert_allclose(physics.torso_vertical_orientation(), [0, 0, 1])
    extremities = physics.extremities().reshape(4, 3)
    # Hands: shoulder offset (0, ±.17, .06) plus the upper (.18, ±.18, -.18) and
    # lower (.18, ∓.18, .18) arm offsets.
    np.testing.assert_allclose(extremities[0], [0.36, 0.17, 0.06], atol=1e-12)
    np.testing.assert_allclose(extremities[2], [0.36, -0.17, 0.06], atol=1e-12)
    # Feet: hips at ±.1 m, 1.258 m below the torso (the waist's 4 mrad tilts shift x).
    np.testing.assert_allclose(extremities[1], [-0.01, 0.09, -1.258], atol=0.01)
    np.testing.assert_allclose(extremities[3], [-0.01, -0.09, -1.258], atol=0.01)
    # The body is mirror-symmetric in y at the rest pose, so its centre of mass is
    # centred; it lies between the feet and the head.
    centre_of_mass = physics.center_of_mass_position()
    assert centre_of_mass[1] == pytest.approx(0.0, abs=1e-12)
    assert 0.2 < centre_of_mass[2] < 1.5 + _HEAD_ABOVE_TORSO
    observation = env.task.task_observables
    assert np.shape(observation["head_height"].observation_callable(physics)()) == ()


def test_extremities_are_egocentric():
    env = suite.load("humanoid", "stand", task_kwargs={"random": 0})
    angles = np.random.RandomState(3).uniform(-0.3, 0.3, 21)
    reference = _set_state(env, joint_angles=angles).extremities()
    half_yaw = math.radians(70) / 2
    turned = _set_state(
        env,
        root_position=(2.0, -1.0, 0.7),
        joint_angles=angles,
        root_quaternion=(math.cos(half_yaw), 0.0, 0.0, math.sin(half_yaw)),
    )
    np.testing.assert_allclose(turned.extremities(), reference, atol=1e-12)
    # The world's z axis in the torso frame does not change under a yaw either.
    np.testing.assert_allclose(turned.torso_vertical_orientation(), [0, 0, 1], atol=1e-12)


@pytest.mark.parametrize("task, expected", [("stand", 1.0), ("walk", 1 / 6), ("run", 1 / 6)])
def test_reward_of_the_upright_still_pose(task, expected):
    # Head 1.69 m high, torso upright, no control: only the speed term can fall short;
    # standing still earns the move tasks' floor of 1/6.
    env = suite.load("humanoid", task, task_kwargs={"random": 0})
    assert env.task.get_reward(_set_state(env)) == pytest.approx(expected)


@pytest.mark.parametrize(
    "task, expected",
    [
        # Gaussian stillness term, 0.1 at the 2 m/s margin: for velocity (0.6, 0.8) m/s
        # the mean of 0.1 ** (0.6/2)^2 and 0.1 ** (0.8/2)^2.
        ("stand", (0.1**0.09 + 0.1**0.16) / 2),
        # Speed 1 m/s: the walk target is met; the run target (10 m/s, 10 m/s linear
        # margin) is 0.1 met, so (5 * 0.1 + 1) / 6.
        ("walk", 1.0),
        ("run", 0.25),
    ],
)
def test_reward_of_a_moving_upright_pose(task, expected):
    env = suite.load("humanoid", task, task_kwargs={"random": 0})
    physics = _set_state(env, root_velocity=(0.6, 0.8, 0.0))
    np.testing.assert_allclose(physics.center_of_mass_velocity(), [0.6, 0.8, 0.0], atol=1e-12)
    assert env.task.get_reward(physics) == pytest.approx(expected)


def test_reward_terms_at_their_margins():
    env = suite.load("humanoid", "stand", task_kwargs={"random": 0})
    # Head at 1.4 - 1.4/4 m: the Gaussian standing term is 0.1.
    low = _set_state(env, root_position=(0.0, 0.0, 1.05 - _HEAD_ABOVE_TORSO))
    assert env.task.get_reward(low) == pytest.approx(0.1)
    # Torso pitched forward 90 degrees (its z axis horizontal), head at 1.5 m: the
    # linear upright term is 1 - 0.9 / 1.9.
    half = math.pi / 4
    lying = _set_state(env, root_quaternion=(math.cos(half), 0.0, math.sin(half), 0.0))
    assert lying.torso_upright() == pytest.approx(0.0, abs=1e-12)
    assert env.task.get_reward(lying) == pytest.approx(1 - 0.9 / 1.9)
    # Control 0.5 everywhere: each quadratic term is 1 - 0.5^2, so (4 + 0.75) / 5.
    pushing = _set_state(env, control=0.5)
    assert env.task.get_reward(pushing) == pytest.approx(0.95)
    # Full control: the control term bottoms out at 4/5.
    assert env.task.get_reward(_set_state(env, control=-1.0)) == pytest.approx(0.8)


def test_initial_states_are_random_contact_free_and_at_rest():
    env = suite.load("humanoid", "walk", task_kwargs={"random": 5})
    model = env.physics.model
    low, high = model.jnt_range[1:, 0], model.jnt_range[1:, 1]
    starts = []
    for _ in range(10):
        env.reset()
        data = env.physics.data
        assert data.ncon == 0
        np.testing.assert_array_equal(data.qpos[:3], [0.0, 0.0, 1.5])
        np.testing.assert_array_equal(data.qvel, 0.0)
        quaternion = data.qpos[3:7]
        assert np.linalg.norm(quaternion) == pytest.approx(1.0)
        # As published, the quaternion's components are uniform in [0, 1) before
        # normalisation, so none is negative.
        assert np.all(quaternion >= 0)
        assert np.all((data.qpos[7:] >= low) & (data.qpos[7:] <= high))
        starts.append(data.qpos.copy())
    starts = np.array(starts)
    assert np.all(starts[:, 3:].std(axis=0) > 0.01)


def test_same_seed_same_initial_state():
    first = suite.load("humanoid", "stand", task_kwargs={"random": 42}).reset()
    second = suite.load("humanoid", "stand", task_kwargs={"random": 42}).reset()
    for key, value in first.observation.items():
        np.testing.assert_array_equal(value, second.observation[key])


def test_pure_state_variant_observes_qpos_and_qvel():
    env = suite.load("humanoid", "run_pure_state", task_kwargs={"random": 0})
    timestep = env.reset()
    assert list(timestep.observation) == ["position", "velocity"]
    np.testing.assert_array_equal(timestep.observation["position"], env.physics.data.qpos)
    assert ("humanoid", "run_pure_state") in suite.EXTRA


def test_task_rejects_a_negative_speed():
    with pytest.raises(ValueError, match="move_speed"):
        humanoid.Humanoid(move_speed=-1, pure_state=False)


def test_physics_class_is_the_domain_one():
    env = suite.load("humanoid", "stand", task_kwargs={"random": 0})
    assert isinstance(env.physics, humanoid.Physics)
