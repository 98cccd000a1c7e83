"""Manipulator domain: published model facts, hand-computed poses and rewards, initial states."""

import math

import mujoco
import numpy as np
import pytest

from mjcf_models import manipulator as manipulator_model
from suites import manipulator
from suites import suite

_QPOS_JOINTS = [
    "arm_root",
    "arm_shoulder",
    "arm_elbow",
    "arm_wrist",
    "thumb",
    "thumbtip",
    "finger",
    "fingertip",
]
_ARM_LENGTH = 0.18 + 0.15 + 0.12  # upper, middle and lower arm links (m)
_ARM_BASE_Z = 0.4


def _env(task="bring_ball", seed=0, **task_kwargs):
    env = suite.load("manipulator", task, task_kwargs=dict(random=seed, **task_kwargs))
    env.reset()
    return env


def _set_qpos(physics, **positions):
    """Resets the data and sets joints by name (other joints at their zero)."""
    with physics.reset_context():
        for name, value in positions.items():
            physics.data.joint(name).qpos[0] = value
    return physics


def test_published_dimensions_and_layout():
    # dm_control paper §6.2 lists state 22, action 5; the observation of
    # dm_control 1.0.50 (recorded) has 44 numbers, the paper's 37 predates the
    # (sin, cos) arm angles.
    env = _env()
    model = env.physics.model
    assert model.nq + model.nv == 22
    assert env.action_spec().shape == (5,)
    observation_spec = env.observation_spec()
    assert [(k, s.shape) for k, s in observation_spec.items()] == [
        ("arm_pos", (8, 2)),
        ("arm_vel", (8,)),
        ("touch", (5,)),
        ("hand_pos", (4,)),
        ("object_pos", (4,)),
        ("object_vel", (3,)),
        ("target_pos", (4,)),
    ]
    assert sum(math.prod(s.shape) for s in observation_spec.values()) == 44
    assert [model.joint(i).name for i in range(model.njnt)] == _QPOS_JOINTS + [
        "ball_x",
        "ball_z",
        "ball_y",
    ]
    assert [model.actuator(i).name for i in range(model.nu)] == [
        "root",
        "shoulder",
        "elbow",
        "wrist",
        "grasp",
    ]


def test_partially_observable_variant_sees_only_the_arm():
    env = _env(fully_observable=False)
    assert list(env.observation_spec()) == ["arm_pos", "arm_vel", "touch"]


def test_published_physical_parameters():
    model = manipulator_model.make_spec().compile()
    assert model.opt.timestep == 0.001
    assert model.opt.cone == mujoco.mjtCone.mjCONE_ELLIPTIC
    np.testing.assert_allclose(model.actuator_gear[:, 0], [12, 8, 4, 2, 2])
    assert model.actuator_trntype[4] == mujoco.mjtTrn.mjTRN_TENDON
    np.testing.assert_allclose(model.dof_damping[:8], [2, 1.5, 1, 0.5, 0.5, 0.01, 0.5, 0.01])
    np.testing.assert_allclose(model.jnt_stiffness[:8], [0, 0, 0, 0, 0, 0.01, 0, 0.01])
    np.testing.assert_allclose(
        model.jnt_range[1:8],
        np.radians(
            [[-160, 160], [-160, 160], [-140, 140], [-10, 60], [-40, 20], [-10, 60], [-40, 20]]
        ),
    )
    assert not model.jnt_limited[0]
    # Arm links are capsules of density 500 kg/m^3; the ball is water-dense.
    upper_arm_volume = math.pi * 0.02**2 * 0.18 + 4 / 3 * math.pi * 0.02**3
    assert model.body("upper_arm").mass[0] == pytest.approx(500 * upper_arm_volume)
    assert model.body("ball").mass[0] == pytest.approx(1000 * 4 / 3 * math.pi * 0.022**3)
    assert model.body("pinch site").mass[0] == 1e-6
    # `grasp` averages the two finger angles, `coupling` (held at zero) differs them.
    np.testing.assert_allclose(model.wrap_prm, [0.5, 0.5, -0.5, 0.5])
    assert model.eq_type[0] == mujoco.mjtEq.mjEQ_TENDON
    assert [model.sensor(i).name for i in range(model.nsensor)] == list(manipulator.TOUCH_SENSORS)
    assert {model.camera(i).name for i in range(model.ncam)} == {"fixed", "hand"}
    assert model.camera("hand").mode == mujoco.mjtCamLight.mjCAMLIGHT_TRACK


@pytest.mark.parametrize(
    "task, props",
    [
        ("bring_ball", ["ball", "target_ball"]),
        ("bring_peg", ["peg", "pommel", "target_peg"]),
        ("insert_ball", ["ball", "cup", "target_ball"]),
        ("insert_peg", ["peg", "pommel", "slot", "target_peg"]),
    ],
)
def test_each_task_has_the_published_props(task, props):
    model = _env(task).physics.model
    arm_bodies = [
        "world",
        "upper_arm",
        "middle_arm",
        "lower_arm",
        "hand",
        "pinch site",
        "thumb",
        "thumbtip",
        "finger",
        "fingertip",
    ]
    assert [model.body(i).name for i in range(model.nbody)] == arm_bodies + props
    prop = props[0]
    assert [model.joint(i).name for i in range(8, model.njnt)] == [
        f"{prop}_x",
        f"{prop}_z",
        f"{prop}_y",
    ]


def test_control_timestep_is_ten_physics_steps_and_episodes_last_10_seconds():
    env = _env()
    assert env.task.control_timestep == pytest.approx(0.01)
    assert env.task.physics_steps_per_control_step == 10
    assert env.task.control_timestep * 1000 == pytest.approx(10.0)


def test_arm_observations_by_hand():
    env = _env()
    theta = 0.6
    physics = _set_qpos(env.physics, arm_root=theta, finger=0.2, thumb=0.1)
    angles = np.zeros(8)
    angles[list(manipulator.ARM_JOINTS).index("arm_root")] = theta
    angles[list(manipulator.ARM_JOINTS).index("finger")] = 0.2
    angles[list(manipulator.ARM_JOINTS).index("thumb")] = 0.1
    np.testing.assert_allclose(
        physics.bounded_joint_pos(manipulator.ARM_JOINTS),
        np.stack([np.sin(angles), np.cos(angles)], axis=1),
        atol=1e-15,
    )
    # The straight arm, turned by theta about -y, puts the hand's frame at
    # (-0.45 sin, 0.4 + 0.45 cos) with quaternion (cos(theta/2), 0, -sin(theta/2), 0).
    np.testing.assert_allclose(
        physics.body_2d_pose("hand"),
        [
            -_ARM_LENGTH * math.sin(theta),
            _ARM_BASE_Z + _ARM_LENGTH * math.cos(theta),
            math.cos(theta / 2),
            -math.sin(theta / 2),
        ],
        atol=1e-12,
    )


def test_object_observations_are_its_world_pose_and_joint_velocities():
    env = _env()
    physics = env.physics
    with physics.reset_context():
        physics.data.qpos[8:] = 0.1, 0.3, 0.5
        physics.data.qvel[8:] = 1.0, -2.0, 3.0
    # The prop's slides have their reference at the body's position: qpos is the
    # world position; the hinge turns it about +y.
    np.testing.assert_allclose(
        physics.body_2d_pose("ball"), [0.1, 0.3, math.cos(0.25), math.sin(0.25)], atol=1e-12
    )
    np.testing.assert_array_equal(
        physics.joint_vel(("ball_x", "ball_z", "ball_y")), [1.0, -2.0, 3.0]
    )


def test_grasp_closes_both_fingers_symmetrically():
    env = _env()
    physics = _set_qpos(env.physics)
    physics.data.ctrl[:] = 0, 0, 0, 0, 1
    physics.step(300)
    thumb, finger = physics.data.joint("thumb").qpos[0], physics.data.joint("finger").qpos[0]
    assert thumb > 0.2
    assert finger == pytest.approx(thumb, abs=1e-3)


def test_ball_reward_by_hand():
    env = _env()
    physics = env.physics
    target = physics.model.body("target_ball")
    target.pos[[0, 2]] = 0.1, 0.2
    # The ghost sits 1 mm behind the plane of motion.
    for dx in (0.0, 0.0099, 0.02, 0.03, 0.1):
        _set_qpos(physics, ball_x=0.1 + dx, ball_z=0.2)
        distance = math.hypot(dx, 0.001)
        # Within 1 cm: 1; beyond, a gaussian of the excess that is 0.1 at 2 cm.
        expected = 1.0 if distance <= 0.01 else 0.1 ** (((distance - 0.01) / 0.02) ** 2)
        assert env.task.get_reward(physics) == pytest.approx(expected, rel=1e-12), dx


def test_peg_reward_is_one_on_the_target_and_a_third_when_only_grasped():
    env = _env("bring_peg")
    physics = env.physics
    target = physics.model.body("target_peg")
    angle = 0.8
    target.pos[[0, 2]] = -0.1, 0.3
    target.quat[:] = math.cos(angle / 2), 0, math.sin(angle / 2), 0
    _set_qpos(physics, peg_x=-0.1, peg_z=0.3, peg_y=angle)
    assert env.task.get_reward(physics) == pytest.approx(1.0)
    # With the arm straight up, the hand's pinch site is 0.025 m above its grasp
    # site; the peg's pinch point is 0.025 m from its grasp point along the peg,
    # so the peg turned upside down (angle pi) on the grasp site fits both.
    grasp = _set_qpos(physics).data.site("grasp").xpos.copy()
    _set_qpos(physics, peg_x=grasp[0], peg_z=grasp[2], peg_y=math.pi)
    assert physics.site_distance("peg_grasp", "grasp") == pytest.approx(0.0, abs=1e-12)
    assert physics.site_distance("peg_pinch", "pinch") == pytest.approx(0.0, abs=1e-12)
    # Far from the target, only grasping counts, at a third.
    assert env.task.get_reward(physics) == pytest.approx(1 / 3, rel=1e-9)


def test_initial_states_are_contact_free_with_a_symmetric_hand():
    env = _env(seed=8)
    physics = env.physics
    placements = set()
    for _ in range(150):
        env.reset()
        data, model = physics.data, physics.model
        assert data.ncon == 0
        assert data.joint("finger").qpos[0] == data.joint("thumb").qpos[0]
        target = model.body("target_ball")
        assert -0.4 <= target.pos[0] < 0.4 and 0.1 <= target.pos[2] < 0.4
        ball_to_grasp = physics.site_distance("ball", "grasp")
        ball_to_target = physics.site_distance("ball", "target_ball")
        if ball_to_grasp < 1e-9:
            placements.add("in_hand")
        elif ball_to_target == pytest.approx(0.001):
            placements.add("in_target")
        else:
            placements.add("uniform")
            assert -5 <= data.joint("ball_x").qvel[0] < 5
    assert placements == {"in_hand", "in_target", "uniform"}


def test_physics_class_is_the_domain_one():
    assert isinstance(_env().physics, manipulator.Physics)


def test_bad_arguments_are_rejected():
    with pytest.raises(TypeError, match="use_peg"):
        manipulator_model.make_spec(use_peg="yes")
    with pytest.raises(TypeError, match="fully_observable"):
        manipulator.Bring(use_peg=False, insert=False, fully_observable=1)
