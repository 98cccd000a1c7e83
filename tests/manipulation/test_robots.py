"""The Jaco arm and hand carry the published model's numbers (recorded from
dm-control 1.0.50) and its kinematics, with geometry from primitives."""

import mujoco
import numpy as np
import pytest

from composer_tasks.arenas.table import Table
from composer_tasks.mjcf import Physics
from composer_tasks.robots import JacoArm
from composer_tasks.robots import JacoHand
from tests.manipulation import reference


def _robot(arm_offset=(0.0, 0.4, 0.0)):
    arena, arm, hand = Table(), JacoArm(), JacoHand()
    arm.attach(hand)
    arena.attach_offset(arm, arm_offset)
    return Physics.from_spec(arena.spec), arm, hand


def _body_name(model, index):
    return model.body(index).name.replace("jaco_arm/", "").replace("jaco_hand/", "")


def test_body_masses_and_inertias_match_the_reference():
    physics, _, _ = _robot()
    model = physics.model
    recorded = reference.facts()["robot"]["bodies"]
    checked = 0
    for index in range(model.nbody):
        name = _body_name(model, index)
        if not name.startswith(("b_", "hand")):
            continue
        facts = recorded[name]
        np.testing.assert_allclose(model.body_mass[index], facts["mass"], rtol=1e-9, err_msg=name)
        np.testing.assert_allclose(
            model.body_inertia[index], facts["inertia"], rtol=1e-6, err_msg=name
        )
        np.testing.assert_allclose(model.body_ipos[index], facts["ipos"], atol=1e-9, err_msg=name)
        np.testing.assert_allclose(
            np.abs(model.body_iquat[index] @ facts["iquat"]), 1.0, atol=1e-6, err_msg=name
        )
        np.testing.assert_allclose(model.body_pos[index], facts["pos"], atol=1e-9, err_msg=name)
        np.testing.assert_allclose(
            np.abs(model.body_quat[index] @ facts["quat"]), 1.0, atol=1e-6, err_msg=name
        )
        checked += 1
    assert checked == len([n for n in recorded if n]) == 14


def test_joints_and_actuators_match_the_reference():
    physics, arm, hand = _robot()
    model = physics.model
    recorded = reference.facts()["robot"]
    for joint in (*arm.joints, *hand.joints):
        index = physics.bind(joint).element_id
        name = model.joint(index).name.split("/")[-1]
        facts = recorded["joints"][name]
        dof = model.jnt_dofadr[index]
        assert bool(model.jnt_limited[index]) == facts["limited"], name
        if facts["limited"]:
            np.testing.assert_allclose(model.jnt_range[index], facts["range"], err_msg=name)
        for field in ("armature", "damping", "frictionloss"):
            assert getattr(model, f"dof_{field}")[dof] == pytest.approx(facts[field]), (name, field)
    assert model.nu == len(recorded["actuators"]) == 9
    for index in range(model.nu):
        name = model.actuator(index).name.split("/")[-1]
        facts = recorded["actuators"][name]
        assert model.actuator_gainprm[index, 0] == pytest.approx(facts["gainprm0"])
        np.testing.assert_allclose(model.actuator_biasprm[index, :3], facts["biasprm"])
        np.testing.assert_allclose(model.actuator_ctrlrange[index], facts["ctrlrange"])
        np.testing.assert_allclose(model.actuator_forcerange[index], facts["forcerange"])
        assert bool(model.actuator_forcelimited[index]) == facts["forcelimited"]


def test_published_actuator_figures():
    physics, arm, hand = _robot()
    model = physics.model
    ranges = model.actuator_ctrlrange[:, 1]
    np.testing.assert_allclose(ranges[:3], 0.628, atol=5e-4)
    np.testing.assert_allclose(ranges[3:6], 0.838, atol=5e-4)
    np.testing.assert_allclose(ranges[6:], 5.0)
    np.testing.assert_allclose(model.actuator_gainprm[:6, 0], 500.0)
    np.testing.assert_allclose(model.actuator_gainprm[6:, 0], 10.0)


def test_kinematics_match_the_reference_at_a_recorded_configuration():
    physics, arm, hand = _robot()
    recorded = reference.facts()["kinematics"]
    physics.data.qpos[:9] = recorded["qpos"]
    physics.forward()
    for site, name in (
        (hand.pinch_site, "pinchsite"),
        (hand.grip_site, "gripsite"),
        (arm.wrist_site, "wristsite"),
    ):
        np.testing.assert_allclose(
            physics.bind(site).xpos, recorded["sites"][name]["xpos"], atol=1e-9, err_msg=name
        )
        np.testing.assert_allclose(
            physics.bind(site).xmat, recorded["sites"][name]["xmat"], atol=1e-9, err_msg=name
        )
    model = physics.model
    for index in range(model.nbody):
        name = _body_name(model, index)
        if name in recorded["body_xpos"]:
            np.testing.assert_allclose(
                physics.data.xpos[index], recorded["body_xpos"][name], atol=1e-9, err_msg=name
            )


def test_geometry_is_primitives_only():
    physics, _, _ = _robot()
    model = physics.model
    assert model.nmesh == 0
    primitive = {
        mujoco.mjtGeom.mjGEOM_CAPSULE,
        mujoco.mjtGeom.mjGEOM_CYLINDER,
        mujoco.mjtGeom.mjGEOM_BOX,
        mujoco.mjtGeom.mjGEOM_PLANE,
    }
    assert set(model.geom_type.tolist()) <= {int(t) for t in primitive}


def test_observables_have_the_published_shapes():
    physics, arm, hand = _robot()
    physics.data.qpos[:9] = reference.facts()["kinematics"]["qpos"]
    physics.forward()
    joints_pos = arm.observables.joints_pos
    value = joints_pos._raw_reader(physics)()
    assert value.shape == (6, 2)
    np.testing.assert_allclose(value[:, 0] ** 2 + value[:, 1] ** 2, 1.0)
    np.testing.assert_allclose(
        np.arctan2(value[:, 0], value[:, 1]) % (2 * np.pi),
        np.array(reference.facts()["kinematics"]["qpos"][:6]) % (2 * np.pi),
    )
    assert arm.observables.joints_torque._raw_reader(physics)().shape == (6,)
    assert hand.observables.pinch_site_rmat._raw_reader(physics)().shape == (9,)


def test_set_grasp_maps_zero_and_one_to_the_finger_range():
    physics, _, hand = _robot()
    hand.set_grasp(physics, 0.0)
    np.testing.assert_allclose([physics.bind(j).qpos[0] for j in hand.joints], 0.15)
    hand.set_grasp(physics, (1.0, 0.5, 0.0))
    np.testing.assert_allclose([physics.bind(j).qpos[0] for j in hand.joints], [1.35, 0.75, 0.15])
    with pytest.raises(ValueError, match="close_factors"):
        hand.set_grasp(physics, 1.5)
    with pytest.raises(ValueError, match="close_factors"):
        hand.set_grasp(physics, (0.1, 0.2))


def test_velocity_servo_tracks_a_joint_velocity_command():
    physics, arm, _ = _robot()
    physics.data.qpos[:6] = arm.home_qpos
    physics.forward()
    physics.data.ctrl[0] = 0.5
    physics.step(50)
    assert physics.bind(arm.joints[0]).qvel[0] == pytest.approx(0.5, abs=0.02)


def test_arm_attach_puts_the_hand_at_the_wrist_site_by_default():
    physics, arm, hand = _robot()
    physics.data.qpos[:6] = arm.home_qpos
    physics.forward()
    wrist = physics.bind(arm.attachment_site)
    hand_body = physics.model.body("jaco_arm/jaco_hand/")
    np.testing.assert_allclose(physics.data.xpos[hand_body.id], wrist.xpos, atol=1e-12)
    np.testing.assert_allclose(
        physics.data.xmat[hand_body.id].reshape(3, 3), wrist.xmat.reshape(3, 3), atol=1e-12
    )
    assert arm.attachment_site == arm.wrist_site and arm.wrist_site.name == "wristsite"


def test_hand_handles_and_tool_centre_point_default_as_dm_control():
    hand = JacoHand()
    assert hand.tool_center_point == hand.grip_site
    assert JacoHand(use_pinch_site_as_tcp=True).tool_center_point.name == "pinchsite"
    assert [geom.name for geom in hand.hand_geom] == ["link_6_main", "link_6_insert"]
    assert [joint.name for joint in hand.joints] == ["finger_1", "finger_2", "finger_3"]
    with pytest.raises(TypeError, match="use_pinch_site_as_tcp must be a bool"):
        JacoHand(use_pinch_site_as_tcp="yes")
