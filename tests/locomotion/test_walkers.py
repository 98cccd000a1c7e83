"""Walkers: counts as published, stability, observables, frames, poses and spawn."""

import os
import subprocess
import sys
import textwrap

import mujoco
import numpy as np
import pytest

from composer_tasks import composer
from composer_tasks import mjcf, walkers
from composer_tasks.arenas import Floor
from composer_tasks.composer.observation import observable as observable_module
from composer_tasks.mjcf import Physics
from composer_tasks.tasks import walker_state
from composer_tasks.walkers import cmu_humanoid
from mjcf_models import humanoid as humanoid_model

# Per walker: (nq, nv, nu) and the physics timestep of its published tasks (s).
_PUBLISHED = {
    walkers.PlanarWalker: ((9, 9, 6), 0.0025),
    walkers.Quadruped: ((15, 14, 8), 0.005),
    walkers.Humanoid: ((28, 27, 21), 0.005),
    walkers.CMUHumanoidPositionControlledV2020: ((63, 62, 56), 0.005),
}
WALKER_CLASSES = list(_PUBLISHED)
_CAMERA = "egocentric_camera"
_FRAMEQUAT = "sensors_framequat"


def _in_floor(walker_class, timestep=None):
    """A Floor with the walker attached as its contract says; returns (floor, walker, physics)."""
    floor = Floor()
    walker = walker_class()
    if walker.is_planar:
        floor.attach(walker)
    else:
        floor.add_free_entity(walker)
    if timestep is not None:
        floor.spec.option.timestep = timestep
    return floor, walker, Physics.from_spec(floor.spec)


def _spawn(walker, physics, position=(0.0, 0.0, 0.0), quaternion=(1.0, 0.0, 0.0, 0.0)):
    """Stands the walker at `position` turned by `quaternion`: a CMU humanoid (root at
    its frame origin, lying) through its `upright_pose`, as dm_control's tasks do."""
    position, quaternion = np.array(position, float), np.array(quaternion, float)
    if getattr(walker, "root_at_frame_origin", False):
        position, quaternion = walker_state.upright_placement(walker, position, quaternion)
    with physics.reset_context():
        walker.set_pose(physics, position=position, quaternion=quaternion)
        walker.initialize_episode(physics, np.random.RandomState(0))


def _upright_root_height(walker):
    """World z (m) of the root of a walker spawned by `_spawn` at z = 0."""
    if getattr(walker, "root_at_frame_origin", False):
        return walker.upright_pose.xpos[2]
    return walker.standing_height


# dm_control's V2020 upright pose puts the root 1.143 m up, and its compiled model has
# the root 1.1414688 m above the feet's lowest point there: the feet float 1.5 mm.
_CMU_V2020_FEET_GAP_M = 1.143 - 1.1414687892190383


def _yaw_quaternion(angle):
    return np.array([np.cos(angle / 2), 0.0, 0.0, np.sin(angle / 2)])


class _StandTask(composer.Task):
    """The walker on a floor, with the observables it enables by default."""

    def __init__(self, walker):
        self.walker = walker
        self._floor = Floor()
        if walker.is_planar:
            self._floor.attach(walker)
        else:
            self._floor.add_free_entity(walker)
        self.set_timesteps(0.01, 0.005 if not walker.is_planar else 0.0025)

    @property
    def root_entity(self):
        return self._floor

    def initialize_episode(self, physics, random_state):
        self.walker.set_pose(physics, position=np.zeros(3))

    def get_reward(self, physics):
        return 0.0


@pytest.mark.parametrize("walker_class", WALKER_CLASSES)
def test_counts_are_the_published_ones(walker_class):
    (nq, nv, nu), _ = _PUBLISHED[walker_class]
    _, walker, physics = _in_floor(walker_class)
    model = physics.model
    assert (model.nq, model.nv, model.nu) == (nq, nv, nu)
    assert len(walker.actuators) == nu
    assert [physics.bind(a).element_id for a in walker.actuators] == list(range(nu))
    # Every actuator drives one of the observable joints, which are all hinges.
    joint_ids = {physics.bind(joint).element_id for joint in walker.observable_joints}
    assert {int(model.actuator_trnid[i, 0]) for i in range(nu)} == joint_ids
    assert all(model.jnt_type[j] == mujoco.mjtJoint.mjJNT_HINGE for j in joint_ids)


def test_planar_walker_root_joints_confine_it_to_the_plane():
    floor, walker, physics = _in_floor(walkers.PlanarWalker)
    assert walker.is_planar and walker.free_joint is None
    kinds = [physics.bind(joint).type for joint in walker.root_joints]
    assert [int(k) for k in kinds] == [
        mujoco.mjtJoint.mjJNT_SLIDE,
        mujoco.mjtJoint.mjJNT_SLIDE,
        mujoco.mjtJoint.mjJNT_HINGE,
    ]
    _spawn(walker, physics)
    bodies = [
        physics.bind(body).element_id for body in (walker.root_body,) + walker.mocap_tracking_bodies
    ]
    assert len(bodies) == 7
    initial = physics.data.xpos[bodies].copy()
    rng = np.random.RandomState(1)
    for _ in range(400):
        physics.data.ctrl[:] = rng.uniform(-1, 1, physics.model.nu)
        physics.step()
    moved = physics.data.xpos[bodies] - initial
    assert np.abs(moved[:, [0, 2]]).max() > 0.1
    np.testing.assert_allclose(moved[:, 1], 0.0, atol=1e-12)


def test_humanoid_is_the_suite_humanoid_without_the_world():
    _, walker, physics = _in_floor(walkers.Humanoid)
    suite = humanoid_model.make_spec().compile()
    model = physics.model
    walker_bodies = [
        i
        for i in range(model.nbody)
        if model.body(i).name.startswith("walker/") and model.body(i).name != "walker/"
    ]
    masses = sorted(model.body_mass[walker_bodies])
    np.testing.assert_allclose(masses, sorted(suite.body_mass[1:]), rtol=1e-12)
    gears = [model.actuator_gear[i, 0] for i in range(model.nu)]
    assert gears == [float(gear) for _, gear in humanoid_model.ACTUATOR_GEARS]
    # Handles named as dm_control names them, relative to the walker.
    assert [joint.name for joint in walker.observable_joints] == list(humanoid_model.JOINT_NAMES)
    assert len(walker.torque_sensors) == 6 and len(walker.touch_sensors) == 8
    assert walker.head.name == "head"


def test_cmu_humanoid_published_mass_gains_and_upright_height():
    _, walker, physics = _in_floor(walkers.CMUHumanoidPositionControlledV2020)
    model = physics.model
    root = physics.bind(walker.root_body).element_id
    # 70 kg, plus the massless face lifted to the arena's 1e-5 kg mass bound (dm_control:
    # 70.00001 in its Floor too).
    assert model.body_subtreemass[root] == pytest.approx(70.00001, rel=1e-9)
    # dm_control stands V2020 upright with its root 1.143 m up, turned by the
    # unnormalised (0.859, 1, 1, 0.859); its standing height is the 1.5 m head height
    # above which the humanoid counts as standing.
    pose = walker.upright_pose
    assert pose.qpos is None
    np.testing.assert_array_equal(pose.xpos, [0.0, 0.0, 1.143])
    np.testing.assert_array_equal(pose.xquat, [0.859, 1.0, 1.0, 0.859])
    assert walker.standing_height == 1.5
    np.testing.assert_array_equal(walkers.CMUHumanoid().upright_pose.xpos, [0.0, 0.0, 0.94])
    assert model.na == 56
    names = [actuator.name for actuator in walker.actuators]
    assert names == sorted(names) and names[0] == "headrx"
    lfemurrx = walker.actuators[names.index("lfemurrx")]
    binding = physics.bind(lfemurrx)
    assert binding.forcerange.tolist() == [-300.0, 300.0]
    assert binding.dynprm[0] == 0.03
    joints = {joint.name: joint for joint in walker.observable_joints}
    assert physics.bind(joints["lfemurrx"]).damping == 15.0
    assert physics.bind(joints["lowerbackrz"]).stiffness == 200.0


def test_cmu_servo_drives_its_joint_toward_the_mapped_target():
    _, walker, physics = _in_floor(walkers.CMUHumanoidPositionControlledV2020)
    names = [actuator.name for actuator in walker.actuators]
    index = names.index("ltibiarx")
    lower, upper = 0.01, 2.96706
    actuation = 0.5
    with physics.reset_context():
        physics.data.act[:] = 0.0
        physics.data.act[physics.model.actuator_actadr[index]] = actuation
        physics.bind(walker.observable_joints[index]).qpos = 2.0
    physics.forward()  # reset_context closes with actuation disabled, as dm_control's
    target = lower + (actuation + 1) / 2 * (upper - lower)
    assert physics.data.actuator_force[index] == pytest.approx(160.0 * (target - 2.0), rel=1e-9)
    with physics.reset_context():
        physics.data.act[physics.model.actuator_actadr[index]] = 1.0
    physics.forward()
    assert physics.data.actuator_force[index] == 160.0  # The force limit.
    # dm_control's cmu_pose_to_actuation takes the pose in the CMU mocap order.
    pose = np.array([joint.range[0] for joint in walker.mocap_joints])
    np.testing.assert_allclose(walker.cmu_pose_to_actuation(pose), -1.0)
    with pytest.raises(ValueError, match=r"shape \(56,\)"):
        walker.cmu_pose_to_actuation(np.zeros(3))


@pytest.mark.parametrize("walker_class", WALKER_CLASSES)
@pytest.mark.parametrize("actions", ["zero", "random"])
def test_steps_two_seconds_without_diverging(walker_class, actions):
    _, timestep = _PUBLISHED[walker_class]
    _, walker, physics = _in_floor(walker_class, timestep)
    _spawn(walker, physics)
    rng = np.random.RandomState(0)
    low, high = physics.model.actuator_ctrlrange.T
    substeps_per_action = max(1, round(0.01 / timestep))
    for step in range(round(2.0 / timestep)):
        if actions == "random" and step % substeps_per_action == 0:
            physics.data.ctrl[:] = rng.uniform(low, high)
        physics.step()
    assert np.all(np.isfinite(physics.data.qpos)) and np.all(np.isfinite(physics.data.qvel))
    assert physics.bind(walker.root_body).xpos[2] > 0.0


@pytest.mark.parametrize("walker_class", WALKER_CLASSES)
def test_spawn_stands_on_the_floor_touching_only_with_feet(walker_class):
    floor, walker, physics = _in_floor(walker_class)
    _spawn(walker, physics, position=(0.5, 0.0, 0.0), quaternion=_yaw_quaternion(0.0))
    root = physics.bind(walker.root_body).xpos
    assert root[2] == pytest.approx(_upright_root_height(walker), abs=1e-9)
    assert walker.standing_height > 0.3
    feet = {physics.bind(geom).element_id for geom in walker.ground_contact_geoms}
    for contact in physics.data.contact[: physics.data.ncon]:
        assert {contact.geom1, contact.geom2} & feet
        assert contact.dist > -1e-9
    # The lowest body part touches the ground: signed distances to the ground plane.
    model = physics.model
    ground = physics.bind(floor.ground_geom).element_id
    distances = [
        mujoco.mj_geomDistance(model, physics.data, ground, geom, 1.0, None)
        for geom in range(model.ngeom)
        if model.geom(geom).name.startswith("walker/") and model.geom_contype[geom]
    ]
    gap = _CMU_V2020_FEET_GAP_M if getattr(walker, "root_at_frame_origin", False) else 0.0
    assert min(distances) == pytest.approx(gap, abs=1e-9)


@pytest.mark.parametrize("walker_class", WALKER_CLASSES)
def test_initial_pose_sets_joints_not_the_root(walker_class):
    _, walker, physics = _in_floor(walker_class)
    with physics.reset_context():
        walker.set_pose(physics, position=np.array([1.0, 0.0, 0.2]))
        joints = list(walker.pose_joints)
        physics.bind(joints).qpos = np.full(len(joints), 0.3)
        physics.bind(joints).qvel = np.ones(len(joints))
        walker.initialize_episode(physics, np.random.RandomState(0))
    np.testing.assert_allclose(
        physics.bind(list(walker.pose_joints)).qpos.ravel(), walker.initial_qpos
    )
    np.testing.assert_array_equal(physics.bind(list(walker.pose_joints)).qvel, 0.0)
    np.testing.assert_allclose(walker.get_pose(physics)[0], [1.0, 0.0, 0.2], atol=1e-12)


# dm_control's legacy scalars of the CMU humanoid, its body camera (rendering is
# costly) and its prev_action (dm_control's CMU humanoid records no action: reading
# it raises NotImplementedError), which a task does not enable.
_CMU_NOT_ENABLED = {
    "head_height",
    "position",
    "orientation",
    "veloc_forward",
    "veloc_strafe",
    "veloc_up",
    "gyro_backward_roll",
    "gyro_rightward_roll",
    "gyro_anticlockwise_spin",
    "torso_xvel",
    "torso_yvel",
    "sensors_rangefinder",
    "body_camera",
    "prev_action",
}


@pytest.mark.parametrize("walker_class", WALKER_CLASSES)
def test_enabled_observables_are_finite_with_the_documented_shapes(walker_class):
    walker = walker_class()
    if isinstance(walker, walkers.CMUHumanoidPositionControlledV2020):
        # As dm_control's, the CMU humanoid's observables all start disabled; the
        # task enables what its agent sees.
        assert not any(item.enabled for item in walker.observables.as_dict().values())
        for name in walker.observables.keys():
            if name not in _CMU_NOT_ENABLED | {_CAMERA, _FRAMEQUAT}:
                walker.observables[name].enabled = True
    environment = composer.Environment(
        _StandTask(walker), random_state=0, strip_singleton_obs_buffer_dim=True
    )
    timestep = environment.reset()
    rng = np.random.RandomState(0)
    spec = environment.action_spec()
    for _ in range(5):
        timestep = environment.step(rng.uniform(spec.minimum, spec.maximum))
    observation = timestep.observation
    n_joints = len(walker.observable_joints)
    expected = {
        "joints_pos": (n_joints,),
        "joints_vel": (n_joints,),
        "sensors_velocimeter": (3,),
        "sensors_accelerometer": (3,),
        "sensors_gyro": (3,),
        "sensors_touch": (len(walker.touch_sensors),),
        # Lists of 3-vector sensors are concatenated, as dm_control's MJCFFeature
        # gives them.
        "sensors_torque": (3 * len(walker.torque_sensors),),
        "body_height": (),
        "world_zaxis": (3,),
        "end_effectors_pos": (3 * len(walker.end_effectors),),
    }
    if isinstance(walker, walkers.CMUHumanoidPositionControlledV2020):
        # dm_control's CMU humanoid adds these (appendages: end effectors and head).
        expected["actuator_activation"] = (56,)
        expected["appendages_pos"] = (3 * (len(walker.end_effectors) + 1),)
        expected["sensors_force"] = (0,)
    # dm_control's legacy scalars of the CMU humanoid, disabled as there.
    # (And its body camera, disabled as the egocentric one: rendering is costly.)
    legacy = (
        _CMU_NOT_ENABLED
        if isinstance(walker, walkers.CMUHumanoidPositionControlledV2020)
        else set()
    )
    assert not any(walker.observables[name].enabled for name in legacy)
    # A walker without torque sensors (the planar walker, the quadruped) keeps the
    # observable, reading (0,), but off: observations carry no empty entry.
    empty = set()
    if not walker.torque_sensors:
        empty.add("sensors_torque")
        del expected["sensors_torque"]
        assert not walker.observables["sensors_torque"].enabled
        assert "walker/sensors_torque" not in observation
        reading = walker.observables["sensors_torque"].observation_callable(environment.physics)()
        assert np.shape(reading) == (0,)
    assert set(walker.observables.keys()) == (
        set(expected) | {_CAMERA, _FRAMEQUAT} | legacy | empty
    )
    assert not walker.observables[_CAMERA].enabled
    # dm_control's base observable, disabled: these walkers have no framequat sensor.
    assert not walker.observables[_FRAMEQUAT].enabled
    assert all(walker.observables[name].enabled for name in expected)
    for name, shape in expected.items():
        value = observation[f"walker/{name}"]
        assert value.shape == shape, name
        assert np.all(np.isfinite(value)), name
    assert set(np.unique(observation["walker/sensors_touch"])) <= {0.0, 1.0}


@pytest.mark.parametrize("walker_class", WALKER_CLASSES)
def test_observables_at_the_upright_spawn(walker_class):
    _, walker, physics = _in_floor(walker_class)
    _spawn(walker, physics)
    # The CMU humanoid's prev_action raises when read, as dm_control's.
    read = {
        name: item.observation_callable(physics)()
        for name, item in walker.observables.items()
        if name != _CAMERA
        and not (
            name == "prev_action" and isinstance(walker, walkers.CMUHumanoidPositionControlledV2020)
        )
    }
    if getattr(walker, "root_at_frame_origin", False):
        # The CMU pelvis frame, as in dm_control (world z there is its y, tilted
        # by the unnormalised upright quaternion): dm-control 1.0.50 reads these.
        np.testing.assert_allclose(read["world_zaxis"], [0.0, 0.98856, -0.15083], atol=1e-5)
    else:
        np.testing.assert_allclose(read["world_zaxis"], [0.0, 0.0, 1.0], atol=1e-12)
    assert read["body_height"] == pytest.approx(_upright_root_height(walker))
    np.testing.assert_allclose(
        read["joints_pos"], physics.bind(list(walker.observable_joints)).qpos.ravel()
    )
    root = physics.bind(walker.root_body)
    rotation = root.xmat.reshape(3, 3)
    expected = [rotation.T @ (physics.bind(body).xpos - root.xpos) for body in walker.end_effectors]
    # Concatenated, one 3-vector per end effector, as in dm_control.
    end_effectors = read["end_effectors_pos"].reshape(-1, 3)
    np.testing.assert_allclose(end_effectors, expected, atol=1e-12)
    # End effectors (feet) lie below the root: world up in the root frame.
    assert np.all(end_effectors[-2:] @ read["world_zaxis"] < 0)


@pytest.mark.parametrize(
    "walker_class",
    [
        cls
        for cls in WALKER_CLASSES
        # The CMU humanoid's egocentric frame is the CMU pelvis frame (dm_control's):
        # tests/differential/test_cmu_frame.py compares its values with dm_control's.
        if cls is not walkers.PlanarWalker and not getattr(cls, "root_at_frame_origin", False)
    ],
)
def test_egocentric_transform_and_sensor_frame_under_a_quarter_turn(walker_class):
    _, walker, physics = _in_floor(walker_class)
    _spawn(walker, physics, quaternion=_yaw_quaternion(np.pi / 2))
    # Facing world +y: world +x is on the walker's right, world +y ahead.
    np.testing.assert_allclose(
        walker.transform_vec_to_egocentric_frame(physics, [1.0, 0.0, 0.0]),
        [0.0, -1.0, 0.0],
        atol=1e-12,
    )
    np.testing.assert_allclose(
        walker.transform_vec_to_egocentric_frame(physics, [[0.0, 2.0], [3.0, 0.0]]),
        [[2.0, 0.0], [0.0, -3.0]],
        atol=1e-12,
    )
    np.testing.assert_allclose(
        walker.transform_xmat_to_egocentric_frame(physics, np.eye(3)),
        [[0.0, 1.0, 0.0], [-1.0, 0.0, 0.0], [0.0, 0.0, 1.0]],
        atol=1e-12,
    )
    with physics.reset_context():
        walker.set_pose(physics, quaternion=_yaw_quaternion(np.pi / 2))
        walker.initialize_episode(physics, None)
        walker.set_velocity(physics, velocity=np.array([0.0, 1.5, 0.0]))
    velocimeter = walker.observables.sensors_velocimeter.observation_callable(physics)()
    # At the root's origin the free joint's rotation adds nothing (zero angular velocity).
    np.testing.assert_allclose(velocimeter, [1.5, 0.0, 0.0], atol=1e-9)
    with pytest.raises(ValueError, match="last axis of length 2 or 3"):
        walker.transform_vec_to_egocentric_frame(physics, np.zeros(4))


def test_egocentric_transform_of_a_pitched_planar_walker():
    _, walker, physics = _in_floor(walkers.PlanarWalker)
    pitch = 0.3
    _spawn(
        walker,
        physics,
        position=(2.0, 0.0, 0.1),
        quaternion=[np.cos(pitch / 2), 0.0, np.sin(pitch / 2), 0.0],
    )
    # Turned 0.3 rad about +y the walker's x axis points below the horizon, so world
    # up has a backward component in its frame: R^T e_z = (-sin, 0, cos).
    np.testing.assert_allclose(
        walker.transform_vec_to_egocentric_frame(physics, [0.0, 0.0, 1.0]),
        [-np.sin(pitch), 0.0, np.cos(pitch)],
        atol=1e-12,
    )
    # The 2-D form ignores pitch: the heading is still world +x.
    np.testing.assert_allclose(
        walker.transform_vec_to_egocentric_frame(physics, [1.0, 0.5]), [1.0, 0.5], atol=1e-12
    )


def test_planar_walker_pose_and_velocity_round_trip():
    floor, walker, physics = _in_floor(walkers.PlanarWalker)
    pitch = -0.4
    quaternion = np.array([np.cos(pitch / 2), 0.0, np.sin(pitch / 2), 0.0])
    with physics.reset_context():
        walker.set_pose(physics, position=np.array([1.0, 0.25, 0.3]), quaternion=quaternion)
        walker.set_velocity(
            physics, velocity=np.array([0.7, 0.0, -0.2]), angular_velocity=np.array([0.0, 1.1, 0.0])
        )
    position, orientation = walker.get_pose(physics)
    np.testing.assert_allclose(position, [1.0, 0.25, 0.3], atol=1e-12)
    np.testing.assert_allclose(orientation, quaternion, atol=1e-12)
    linear, angular = walker.get_velocity(physics)
    np.testing.assert_allclose(linear, [0.7, 0.0, -0.2], atol=1e-12)
    np.testing.assert_allclose(angular, [0.0, 1.1, 0.0], atol=1e-12)
    # The walker's origin is standing_height below the torso, along the torso's -z.
    torso = physics.bind(walker.root_body)
    np.testing.assert_allclose(
        torso.xpos - torso.xmat.reshape(3, 3) @ [0.0, 0.0, walker.standing_height],
        [1.0, 0.25, 0.3],
        atol=1e-12,
    )
    # The velocity is that of the origin: compare with a finite difference.
    before = walker.get_pose(physics)[0]
    physics.model.opt.gravity[:] = 0.0
    physics.model.opt.timestep = 1e-6
    physics.step()
    np.testing.assert_allclose((walker.get_pose(physics)[0] - before) / 1e-6, linear, atol=1e-4)
    walker.shift_pose(physics, position=np.array([0.5, 0.0, 0.0]))
    assert walker.get_pose(physics)[0][0] == pytest.approx(before[0] + 0.5, abs=1e-5)


def test_planar_walker_rejects_poses_out_of_its_plane():
    _, walker, physics = _in_floor(walkers.PlanarWalker)
    with pytest.raises(ValueError, match="only turn about its plane's normal"):
        walker.set_pose(physics, quaternion=_yaw_quaternion(0.3))
    with pytest.raises(ValueError, match="cannot move out of its plane"):
        walker.set_velocity(physics, velocity=np.array([0.0, 1.0, 0.0]))
    with pytest.raises(ValueError, match="position must be 3 finite numbers"):
        walker.set_pose(physics, position=[0.0, np.nan, 0.0])
    unattached = walkers.PlanarWalker()
    with pytest.raises(ValueError, match="not attached"):
        unattached.get_pose(physics)


def test_quadruped_touch_sensors_feel_the_feet_after_settling():
    _, walker, physics = _in_floor(walkers.Quadruped, 0.005)
    _spawn(walker, physics)
    for _ in range(100):
        physics.step()
    touch = walker.observables.sensors_touch.observation_callable(physics)()
    np.testing.assert_array_equal(touch, [1, 1, 1, 1, 0, 0, 0, 0])


def test_humanoid_lower_limb_torques_mirror_between_the_legs():
    _, walker, physics = _in_floor(walkers.Humanoid, 0.005)
    _spawn(walker, physics)
    for _ in range(20):
        physics.step()
    # Concatenated as dm_control gives them: one 3-vector per sensor.
    torques = walker.observables.sensors_torque.observation_callable(physics)().reshape(-1, 3)
    assert torques.shape == (6, 3) and np.abs(torques).max() > 0.1
    # Rows: left/right ankle, knee, hip. Standing symmetrically, mirroring in the
    # sagittal plane flips the x and z components of a torque and keeps y.
    np.testing.assert_allclose(torques[1::2], torques[0::2] * [-1.0, 1.0, -1.0], atol=1e-6)


def test_cmu_nose_is_massless_and_hidden_from_the_egocentric_camera_group():
    _, walker, physics = _in_floor(walkers.CMUHumanoidPositionControlledV2020)
    model = physics.model
    nose, face = model.geom("walker/nose"), model.geom("walker/face")
    assert nose.group[0] == 1 and nose.contype[0] == 0 and nose.conaffinity[0] == 0
    assert face.group[0] == 2 and face.contype[0] == 0
    # The head weighs what its own capsule does: the face and nose add no mass.
    radius, half_length = model.geom("walker/head").size[:2]
    volume = np.pi * radius**2 * 2 * half_length + 4 / 3 * np.pi * radius**3
    assert model.body("walker/head").mass[0] == pytest.approx(
        cmu_humanoid._DENSITY_KG_M3 * volume, rel=1e-9
    )
    assert walker.observables[_CAMERA].camera is walker.egocentric_camera.spec_element


_CAMERA_SCRIPT = textwrap.dedent("""
    import sys
    import mujoco
    import numpy as np
    sys.path.insert(0, sys.argv[1])
    try:
        mujoco.Renderer(mujoco.MjModel.from_xml_string("<mujoco/>"), 8, 8).close()
    except Exception:
        sys.exit(3)
    from composer_tasks import composer, walkers
    sys.path.insert(0, sys.argv[2])
    import test_walkers as t
    for walker_class in t.WALKER_CLASSES:
        walker = walker_class()
        task = t._StandTask(walker)
        walker.observables.egocentric_camera.enabled = True
        env = composer.Environment(task, random_state=0, strip_singleton_obs_buffer_dim=True)
        image = env.reset().observation["walker/egocentric_camera"]
        assert image.shape == (64, 64, 3) and image.dtype == np.uint8, image.shape
        assert image.std() > 0
    walker = walkers.CMUHumanoidPositionControlledV2020()
    env = composer.Environment(t._StandTask(walker), random_state=0)
    env.reset()
    physics = env.physics
    camera = physics.bind(walker.egocentric_camera).element_id
    option = walker.observables.egocentric_camera.observation_callable(physics).keywords[
        "scene_option"]
    seen = physics.render(64, 64, camera_id=camera, segmentation=True, scene_option=option)
    nose = physics.model.geom("walker/nose").id
    geom = int(mujoco.mjtObj.mjOBJ_GEOM)
    assert not np.any((seen[..., 0] == nose) & (seen[..., 1] == geom))
    unhidden = physics.render(64, 64, camera_id=camera, segmentation=True)
    assert np.any((unhidden[..., 0] == nose) & (unhidden[..., 1] == geom))
    print("camera ok")
    """)


def test_egocentric_cameras_render_and_hide_the_cmu_nose():
    tests = os.path.dirname(os.path.abspath(__file__))
    repository = os.path.dirname(os.path.dirname(tests))
    outcomes = {}
    for backend in ("egl", "osmesa"):
        environment = dict(os.environ, MUJOCO_GL=backend, PYOPENGL_PLATFORM=backend)
        result = subprocess.run(
            [sys.executable, "-c", _CAMERA_SCRIPT, repository, tests],
            env=environment,
            capture_output=True,
            text=True,
            timeout=300,
        )
        if result.returncode == 0:
            assert "camera ok" in result.stdout
            return
        outcomes[backend] = result
    if all(result.returncode == 3 for result in outcomes.values()):
        pytest.skip("no OpenGL backend (MUJOCO_GL=egl or osmesa) works on this machine")
    pytest.fail(next(r for r in outcomes.values() if r.returncode != 3).stderr)


@pytest.mark.parametrize("walker_class", WALKER_CLASSES)
def test_egocentric_camera_looks_along_the_heading(walker_class):
    _, walker, physics = _in_floor(walker_class)
    _spawn(walker, physics)
    camera = physics.bind(walker.egocentric_camera)
    view = -physics.data.cam_xmat[camera.element_id].reshape(3, 3)[:, 2]
    assert view[0] > 0.9  # Cameras look along their -z; the walker faces world +x.
    assert walker.observables[_CAMERA].height == 64


def test_walker_groupings_leave_out_missing_sensors():
    quadruped = walkers.Quadruped()
    assert quadruped.observables.dynamic_sensors == [quadruped.observables.sensors_touch]
    humanoid = walkers.Humanoid()
    assert humanoid.observables.dynamic_sensors == [
        humanoid.observables.sensors_touch,
        humanoid.observables.sensors_torque,
    ]
    cmu = walkers.CMUHumanoidPositionControlledV2020()
    assert cmu.observables.actuator_activation in cmu.observables.proprioception


@pytest.mark.parametrize(
    "walker_class",
    [
        cmu_humanoid.CMUHumanoid,
        cmu_humanoid.CMUHumanoidPositionControlled,
        cmu_humanoid.CMUHumanoidPositionControlledV2020,
    ],
)
def test_cmu_upright_pose_stands_the_pelvis_frame_up(walker_class):
    walker = walker_class()
    # The root body is at the frame origin in the CMU pelvis frame, as dm_control's.
    root = walker.root_body.spec_element
    np.testing.assert_array_equal(root.pos, [0.0, 0.0, 0.0])
    np.testing.assert_array_equal(root.quat, [1.0, 0.0, 0.0, 0.0])
    quaternion = np.asarray(walker.upright_pose.xquat, float)
    rotation = np.empty(9)
    mujoco.mju_quat2Mat(rotation, quaternion / np.linalg.norm(quaternion))
    rotation = rotation.reshape(3, 3)
    # CMU x (the subject's left) becomes world y (left); CMU y (up) nearly world z,
    # tilted 8.7 degrees by dm_control's rounded quaternion.
    np.testing.assert_allclose(rotation[:, 0], [0.0, 1.0, 0.0], atol=1e-6)
    assert rotation[2, 1] == pytest.approx(0.98856, abs=1e-5)
    # dm_control's default initializer, UprightInitializer, stands it up at reset.
    floor = Floor()
    floor.add_free_entity(walker)
    physics = Physics.from_mjcf_model(floor.mjcf_model)
    walker.reinitialize_pose(physics, np.random.RandomState(0))
    position, orientation = walker.get_pose(physics)
    np.testing.assert_array_equal(position, walker.upright_pose.xpos)
    np.testing.assert_allclose(orientation, quaternion / np.linalg.norm(quaternion))


# Tracking cameras.


@pytest.mark.parametrize("walker_class", WALKER_CLASSES)
def test_tracking_cameras_follow_the_walker_and_look_at_it(walker_class):
    _, walker, physics = _in_floor(walker_class)
    yaw = 0.0 if walker.is_planar else 0.3
    _spawn(walker, physics, position=(5.0, 0.0, 0.0), quaternion=_yaw_quaternion(yaw))
    # dm_control's CMU humanoid keeps its own cameras (front_side for front).
    front = "front_side" if walker_class is walkers.CMUHumanoidPositionControlledV2020 else "front"
    assert [camera.name for camera in walker.tracking_cameras] == [
        "walker/back",
        "walker/side",
        f"walker/{front}",
    ]
    model, data = physics.model, physics.data
    # The walker's first camera is a tracking camera (camera 0 of the model is the
    # Floor's top camera, as in dm_control).
    assert model.camera(0).name == "top_camera"
    walker_cameras = [
        model.camera(i).name
        for i in range(model.ncam)
        if model.camera(i).name.startswith("walker/")
    ]
    assert walker_cameras[0] in ("walker/back", "walker/side")
    root = physics.bind(walker.root_body).xpos
    for camera in walker.tracking_cameras:
        camera_id = physics.bind(camera).id
        assert model.cam_mode[camera_id] == mujoco.mjtCamLight.mjCAMLIGHT_TRACKCOM
        to_root = root - data.cam_xpos[camera_id]
        view = -data.cam_xmat[camera_id].reshape(3, 3)[:, 2]
        # The root lies within 20 degrees of the optical axis, 2-5 m away.
        cosine = view @ to_root / np.linalg.norm(to_root)
        assert cosine > np.cos(np.radians(20.0)), camera.name
        assert 2.0 < np.linalg.norm(to_root) < 5.0, camera.name


# dm_control's walker methods.


@pytest.mark.parametrize("walker_class", [walkers.Quadruped, walkers.Humanoid])
def test_create_root_joints_equals_add_free_entity(walker_class):
    floor = Floor()
    walker = walker_class()
    frame = floor.attach(walker)
    walker.create_root_joints(frame)
    physics = Physics.from_spec(floor.spec)
    _, reference, reference_physics = _in_floor(walker_class)
    assert physics.model.nq == reference_physics.model.nq
    assert physics.model.nv == reference_physics.model.nv
    walker.set_pose(physics, position=np.array([1.0, 2.0, 0.5]))
    physics.forward()
    np.testing.assert_allclose(walker.get_pose(physics)[0], [1.0, 2.0, 0.5])
    with pytest.raises(ValueError, match="already has root joints"):
        walker.create_root_joints(frame)


def test_create_root_joints_rejects_a_frame_that_is_not_the_walkers():
    floor = Floor()
    walker = walkers.Quadruped()
    floor.attach(walker)
    other = floor.spec.worldbody.add_frame()
    with pytest.raises(ValueError, match="attachment_frame"):
        walker.create_root_joints(other)
    with pytest.raises(ValueError, match="attachment_frame"):
        walkers.Quadruped().create_root_joints(other)


def test_planar_walker_keeps_its_own_root_joints():
    floor = Floor()
    walker = walkers.PlanarWalker()
    frame = floor.attach(walker)
    with pytest.raises(ValueError, match="already has root joints"):
        walker.create_root_joints(frame)


@pytest.mark.parametrize("walker_class", WALKER_CLASSES)
def test_apply_action_writes_the_walkers_controls(walker_class):
    _, walker, physics = _in_floor(walker_class)
    action = np.linspace(-0.5, 0.5, len(walker.actuators))
    walker.apply_action(physics, action, np.random.RandomState(0))
    np.testing.assert_array_equal(physics.bind(list(walker.actuators)).ctrl, action)
    with pytest.raises(ValueError, match="action must be"):
        walker.apply_action(physics, action[:-1], None)
    with pytest.raises(ValueError, match="action must be"):
        walker.apply_action(physics, np.full(len(walker.actuators), np.nan), None)


class _Bend:
    """A pose initializer that sets the first pose joint, drawing once."""

    def initialize_pose(self, physics, walker, random_state):
        physics.bind(walker.pose_joints[0]).qpos = random_state.uniform(0.1, 0.2)


def test_reinitialize_pose_resets_the_pose_then_runs_the_initializers():
    _, walker, physics = _in_floor(walkers.Quadruped)
    joints = physics.bind(list(walker.pose_joints))
    joints.qpos = np.full(8, 0.3)
    joints.qvel = np.ones(8)
    walker.reinitialize_pose(physics, np.random.RandomState(0))
    np.testing.assert_array_equal(joints.qpos, walker.initial_qpos)
    np.testing.assert_array_equal(joints.qvel, 0.0)
    walker.add_initializer(_Bend())
    assert len(walker.initializers) == 1
    walker.initialize_episode(physics, np.random.RandomState(0))
    expected = np.random.RandomState(0).uniform(0.1, 0.2)
    assert physics.bind(walker.pose_joints[0]).qpos[0] == expected
    np.testing.assert_array_equal(np.array(joints.qpos)[1:], walker.initial_qpos[1:])
    with pytest.raises(TypeError, match="initialize_pose"):
        walker.add_initializer(object())


def test_add_egocentric_vector_turns_a_world_vector_into_the_walker_frame():
    _, walker, physics = _in_floor(walkers.Quadruped)
    _spawn(walker, physics, position=(1.0, 0.0, 0.0), quaternion=_yaw_quaternion(np.pi / 2))
    physics.forward()
    world = observable_module.Generic(lambda physics: np.array([3.0, 1.0, 0.0]))
    walker.observables.add_egocentric_vector(
        "to_point", world, origin_callable=lambda physics: np.array([1.0, 0.0, 0.0])
    )
    item = walker.observables.to_point
    assert item.enabled
    value = item.observation_callable(physics)()
    # (2, 1, 0) in the world is 2 m to the left and 1 m behind a walker facing +y.
    np.testing.assert_allclose(value[:2], [1.0, -2.0], atol=1e-9)
    walker.observables.add_egocentric_vector("off", world, enabled=False)
    assert not walker.observables.off.enabled


def test_parts_are_pymjcf_handles_named_relative_to_the_walker():
    _, walker, physics = _in_floor(walkers.Quadruped)
    assert all(isinstance(joint, mjcf.Element) for joint in walker.observable_joints)
    assert not walker.root_body.name.startswith("walker/")
    # PyMJCF shapes: a list binds to one row per element, one element to a scalar.
    assert physics.bind(list(walker.observable_joints)).range.shape == (
        len(walker.observable_joints),
        2,
    )
    assert np.shape(physics.bind(walker.ground_contact_geoms[0]).bodyid) == ()
    assert walker.root_body.spec_element.name == "walker/" + walker.root_body.name


def test_upright_pose_is_no_displacement():
    pose = walkers.Quadruped().upright_pose
    assert pose.qpos is None
    np.testing.assert_array_equal(pose.xpos, np.zeros(3))
    np.testing.assert_array_equal(pose.xquat, [1.0, 0.0, 0.0, 0.0])


def test_cmu_appendages_are_the_end_effectors_and_the_head_in_the_root_frame():
    _, walker, physics = _in_floor(walkers.CMUHumanoidPositionControlledV2020)
    _spawn(walker, physics, quaternion=_yaw_quaternion(0.7))
    appendages = walker.observables.appendages_pos.observation_callable(physics)()
    root = physics.bind(walker.root_body)
    bodies = list(walker.end_effectors) + [walker.head]
    expected = (physics.bind(bodies).xpos - root.xpos) @ root.xmat.reshape(3, 3)
    np.testing.assert_allclose(appendages, expected.ravel(), atol=1e-12)
    force = walker.observables.sensors_force.observation_callable(physics)()
    assert force.shape == (0,)
    assert walker.touch_sensors[0].name == "sensor_touch_lhand"
    assert walker.action_spec.shape == (56,)
    observables = walker.observables
    assert observables.head_height.observation_callable(physics)() == pytest.approx(
        physics.bind(walker.head).xpos[2]
    )
    for name in ("sensors_framequat", "sensors_rangefinder"):
        assert observables[name].observation_callable(physics)().shape == (0,)


def test_ant_force_and_framequat_sensors_read_every_sensor_of_their_type():
    _, walker, physics = _in_floor(walkers.Ant)
    observables = walker.observables
    assert observables.sensors_force.observation_callable(physics)().shape == (0,)
    quaternions = observables.sensors_framequat.observation_callable(physics)()
    np.testing.assert_array_equal(
        quaternions, observables.bodies_quats.observation_callable(physics)()
    )
    assert [item for item in observables.dynamic_sensors] == [
        observables.sensors_force,
        observables.sensors_torque,
        observables.sensors_touch,
    ]


def test_legacy_mocap_joints_are_the_walkers_own_joints_in_model_order():
    _, walker, _ = _in_floor(walkers.Ant)
    assert [joint.name for joint in walker.mocap_joints] == [
        joint.name for joint in walker.observable_joints
    ]
    assert walker.mocap_to_observable_joint_order == list(range(8))
    assert walker.observable_to_mocap_joint_order == list(range(8))


def test_root_sensors_are_made_in_the_order_given_and_a_bad_order_is_refused():
    from composer_tasks.walkers import base

    spec = mujoco.MjSpec()
    body = spec.worldbody.add_body(name="root")
    _, (velocimeter, accelerometer, gyro) = base.add_root_sensors(
        spec, body, com_velocity=False, order=("velocimeter", "gyro", "accelerometer")
    )
    assert [sensor.name for sensor in spec.sensors] == [
        "root_velocimeter",
        "root_gyro",
        "root_accelerometer",
    ]
    assert (velocimeter.name, accelerometer.name, gyro.name) == (
        "root_velocimeter",
        "root_accelerometer",
        "root_gyro",
    )
    other = mujoco.MjSpec()
    other_body = other.worldbody.add_body(name="root")
    with pytest.raises(ValueError, match="order must list"):
        base.add_root_sensors(other, other_body, order=("velocimeter", "gyro"))
    assert not other_body.sites and not other.sensors  # nothing added
