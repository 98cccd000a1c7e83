"""Soccer entities: BoxHead, Ant, the soccer ball and the pitch against dm-control 1.0.50.

The reference facts are recorded by `tests/conformance/make_soccer_entities_reference.py`
(in the dm_control venv) into `tests/conformance/reference/soccer_entities.json`.
"""

import json
import os
import pickle

import mujoco
import numpy as np
import pytest

from composer_tasks import composer
from composer_tasks.mjcf.physics import Physics
from composer_tasks.props import soccer_ball
from composer_tasks.walkers import boxhead
from composer_tasks.walkers import soccer_team

_REFERENCE_PATH = os.path.join(os.path.dirname(__file__), "conformance", "reference",
                               "soccer_entities.json")
with open(_REFERENCE_PATH) as _stream:
    REFERENCE = json.load(_stream)

_OBJ = mujoco.mjtObj
_ROOT_JOINT_NAMES = {"root_x/": "root_x", "root_y/": "root_y", "root_z/": "root_z"}
# The walker's own sensors (the recorded model also holds the soccer task's).
_TASK_SENSOR_MARKERS = ("ball_ego", "opponent_", "teammate_", "_end_effector")


def _arena_with_ground():
    arena = composer.Arena()
    arena.spec.worldbody.add_geom(name="ground", type=mujoco.mjtGeom.mjGEOM_PLANE,
                                  size=[30.0, 30.0, 1.0])
    return arena


def _elements(model, kind, prefix):
    count = {_OBJ.mjOBJ_BODY: model.nbody, _OBJ.mjOBJ_GEOM: model.ngeom,
             _OBJ.mjOBJ_JOINT: model.njnt, _OBJ.mjOBJ_ACTUATOR: model.nu,
             _OBJ.mjOBJ_SENSOR: model.nsensor}[kind]
    found = {}
    for index in range(count):
        name = mujoco.mj_id2name(model, kind, index) or ""
        if name.startswith(prefix) and name != prefix:
            found[name[len(prefix):]] = index
    return found


def _boxhead_physics(**kwargs):
    arena = _arena_with_ground()
    walker = boxhead.BoxHead(name="home0", **kwargs)
    walker.create_root_joints(arena.attach(walker))
    return arena, walker, Physics.from_spec(arena.spec)


# BoxHead.

def test_boxhead_bodies_geoms_joints_actuators_match_the_reference():
    reference = REFERENCE["walkers"]["BOXHEAD"]
    _, walker, physics = _boxhead_physics(marker_rgba=soccer_team.RGBA_BLUE, walker_id=0)
    model = physics.model
    bodies = _elements(model, _OBJ.mjOBJ_BODY, "home0/")
    assert set(bodies) == set(reference["bodies"])
    for name, facts in reference["bodies"].items():
        np.testing.assert_allclose(model.body_mass[bodies[name]], facts["mass"], rtol=1e-9)
        np.testing.assert_allclose(model.body_inertia[bodies[name]], facts["inertia"], rtol=1e-9)
    geoms = _elements(model, _OBJ.mjOBJ_GEOM, "home0/")
    assert set(geoms) == set(reference["geoms"])
    for name, facts in reference["geoms"].items():
        index = geoms[name]
        assert model.geom_type[index] == facts["type"], name
        np.testing.assert_allclose(model.geom_size[index], facts["size"], rtol=1e-9, err_msg=name)
        np.testing.assert_allclose(model.geom_friction[index], facts["friction"], err_msg=name)
        assert (model.geom_condim[index], model.geom_contype[index], model.geom_conaffinity[index],
                model.geom_group[index]) == (facts["condim"], facts["contype"],
                                             facts["conaffinity"], facts["group"]), name
    for name in reference["marker_geoms"]:
        np.testing.assert_allclose(model.geom_rgba[geoms[name]], reference["marker_rgba"], rtol=1e-6)
    joints = _elements(model, _OBJ.mjOBJ_JOINT, "home0/")
    expected_joints = {_ROOT_JOINT_NAMES.get(name, name): facts
                       for name, facts in reference["joints"].items()}
    assert set(joints) == set(expected_joints)
    for name, facts in expected_joints.items():
        index = joints[name]
        dof = model.jnt_dofadr[index]
        assert model.jnt_type[index] == facts["type"], name
        assert bool(model.jnt_limited[index]) == facts["limited"], name
        np.testing.assert_allclose(model.jnt_axis[index], facts["axis"], atol=1e-12, err_msg=name)
        np.testing.assert_allclose(model.jnt_range[index], facts["range"], err_msg=name)
        np.testing.assert_allclose(
            [model.dof_damping[dof], model.dof_armature[dof], model.jnt_stiffness[index],
             model.qpos_spring[model.jnt_qposadr[index]]],
            [facts["damping"], facts["armature"], facts["stiffness"], facts["springref"]],
            err_msg=name)
    actuators = _elements(model, _OBJ.mjOBJ_ACTUATOR, "home0/")
    assert list(actuators) == reference["action_spec"]["names"]  # roll, steer, kick, in order.
    for name, facts in reference["actuators"].items():
        index = actuators[name]
        assert model.actuator_gear[index, 0] == facts["gear"], name
        np.testing.assert_allclose(model.actuator_ctrlrange[index], facts["ctrlrange"])
        assert (model.actuator_gaintype[index], model.actuator_biastype[index],
                model.actuator_dyntype[index]) == (facts["gaintype"], facts["biastype"],
                                                   facts["dyntype"]), name
        np.testing.assert_allclose(model.actuator_gainprm[index, :3], facts["gainprm"])
        np.testing.assert_allclose(model.actuator_biasprm[index, :3], facts["biasprm"])
    sensors = _elements(model, _OBJ.mjOBJ_SENSOR, "home0/")
    own = {name: facts for name, facts in reference["sensors"].items()
           if not any(marker in name for marker in _TASK_SENSOR_MARKERS)}
    for name, facts in own.items():
        assert model.sensor_type[sensors[name]] == facts["type"], name
    spec = walker.action_spec
    assert spec.shape == tuple(reference["action_spec"]["shape"])
    np.testing.assert_array_equal(spec.minimum, reference["action_spec"]["minimum"])
    np.testing.assert_array_equal(spec.maximum, reference["action_spec"]["maximum"])
    assert spec.name.split("\t") == reference["action_spec"]["names"]
    assert walker.root_body.name == "home0/" + reference["root_body"]
    assert [body.name for body in walker.end_effectors] == [
        "home0/" + name for name in reference["end_effectors"]]
    assert [joint.name for joint in walker.observable_joints] == [
        "home0/" + name for name in reference["observable_joints"]]
    assert [geom.name for geom in walker.ground_contact_geoms] == [
        "home0/" + name for name in reference["ground_contact_geoms"]]
    camera = model.camera("home0/egocentric")
    assert model.cam_fovy[camera.id] == reference["cameras"]["egocentric"]["fovy"]


@pytest.mark.parametrize("walker_type", ["BOXHEAD"])
def test_walker_observable_shapes_match_the_reference(walker_type):
    reference = REFERENCE["walkers"][walker_type]["walker_observables"]
    arena, walker, physics = _boxhead_physics(marker_rgba=soccer_team.RGBA_BLUE, walker_id=0)
    _check_observable_shapes(walker, physics, reference)


def _check_observable_shapes(walker, physics, reference):
    physics.forward()
    ours = {name: item for name, item in walker.observables.items() if name != "egocentric_camera"}
    # dm_control's force sensors observable and framequat do not exist for these bodies
    # (both always empty); every other published observable is here, shaped alike.
    published = {name: shape for name, shape in reference.items()
                 if name not in ("sensors_force", "sensors_framequat")}
    assert set(published) <= set(ours)
    for name, shape in published.items():
        value = np.asarray(ours[name].observation_callable(physics)())
        assert list(value.shape) == shape, name


def test_boxhead_camera_control_adds_camera_joints_actuators_and_observables():
    _, walker, physics = _boxhead_physics(camera_control=True)
    model = physics.model
    assert [model.actuator(i).name for i in range(model.nu)] == [
        "home0/roll", "home0/steer", "home0/kick", "home0/camera_yaw", "home0/camera_pitch"]
    pitch = model.joint("home0/camera_pitch")
    np.testing.assert_allclose(model.jnt_range[pitch.id], (-0.35, 0.0))
    assert model.jnt_limited[pitch.id] and not model.jnt_limited[model.joint("home0/camera_yaw").id]
    index = model.actuator("home0/camera_yaw").id
    np.testing.assert_allclose(model.actuator_biasprm[index, :3], (0.0, 0.0, -1.0))
    physics.bind(list(walker.observable_camera_joints)).qpos = np.array([0.3, -0.2])
    physics.forward()
    np.testing.assert_allclose(
        walker.observables.camera_joints_pos.observation_callable(physics)(),
        np.concatenate([np.sin([0.3, -0.2]), np.cos([0.3, -0.2])]))
    assert walker.observables.camera_joints_vel.observation_callable(physics)().shape == (2,)
    assert walker.observables.prev_action.observation_callable(physics)().shape == (5,)
    # Gravity on the camera body is cancelled by an applied force.
    walker.initialize_episode(physics, np.random.RandomState(0))
    camera = physics.bind(walker.egocentric_camera.parent)
    np.testing.assert_allclose(camera.xfrc_applied, (0.0, 0.0, 9.81, 0.0, 0.0, 0.0))


def test_boxhead_pose_and_velocity_round_trip_and_move_the_body():
    _, walker, physics = _boxhead_physics()
    yaw = 0.7
    walker.set_pose(physics, [1.0, -2.0, 0.0], [np.cos(yaw / 2), 0.0, 0.0, np.sin(yaw / 2)])
    position, quaternion = walker.get_pose(physics)
    np.testing.assert_allclose(position, [1.0, -2.0, 0.0])
    np.testing.assert_allclose(quaternion, [np.cos(yaw / 2), 0.0, 0.0, np.sin(yaw / 2)])
    physics.forward()
    # The head's x axis (forward) turned by +yaw from its published -90 degrees.
    heading = np.asarray(physics.bind(walker.root_body).xmat).reshape(3, 3)[:, 0]
    np.testing.assert_allclose(heading[:2], [np.cos(yaw - np.pi / 2), np.sin(yaw - np.pi / 2)],
                               atol=1e-12)
    np.testing.assert_allclose(physics.bind(walker.root_body).xpos, [1.0, -2.0, 1.0])
    walker.set_velocity(physics, [0.5, 0.0, 0.0], [0.0, 0.0, 1.5])
    linear, angular = walker.get_velocity(physics)
    np.testing.assert_allclose(linear, [0.5, 0.0, 0.0])
    np.testing.assert_allclose(angular, [0.0, 0.0, 1.5])
    turn = 0.4
    walker.shift_pose(physics, [1.0, 0.0, 0.0], [np.cos(turn / 2), 0.0, 0.0, np.sin(turn / 2)])
    position, quaternion = walker.get_pose(physics)
    np.testing.assert_allclose(position, [2.0, -2.0, 0.0])
    np.testing.assert_allclose(2 * np.arctan2(quaternion[3], quaternion[0]), yaw + turn)


def test_boxhead_rolls_on_the_ground_and_records_prev_action():
    _, walker, physics = _boxhead_physics()
    walker.initialize_episode(physics, np.random.RandomState(0))
    walker.set_pose(physics, [0.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0])
    np.testing.assert_array_equal(walker.prev_action, np.zeros(3))
    for _ in range(200):
        walker.apply_action(physics, [1.0, 0.0, 0.0], None)
        physics.step()
    np.testing.assert_array_equal(walker.prev_action, [1.0, 0.0, 0.0])
    # It stays on the ground (the shell's bottom at z ~ 0) and moved.
    shell = physics.bind(walker.ground_contact_geoms[0])
    assert abs(shell.xpos[2] - 0.35) < 0.02
    assert np.linalg.norm(walker.get_pose(physics)[0][:2]) > 0.1
    state = walker.snapshot_state()
    walker.initialize_episode(physics, np.random.RandomState(0))
    np.testing.assert_array_equal(walker.prev_action, np.zeros(3))
    walker.restore_state(pickle.loads(pickle.dumps(state)))
    np.testing.assert_array_equal(walker.prev_action, [1.0, 0.0, 0.0])


def test_boxhead_walker_id_draws_a_digit_texture():
    _, walker, physics = _boxhead_physics(marker_rgba=soccer_team.RGBA_RED, walker_id=10)
    model = physics.model
    texture = model.texture("home0/head_texture")
    assert (model.tex_height[texture.id], model.tex_width[texture.id]) == (64, 64)
    # Head is textured, so not a marker geom; arms are team-coloured.
    assert [geom.name for geom in walker.marker_geoms] == [
        "home0/arm_l", "home0/arm_r", "home0/eye_l", "home0/eye_r"]
    image = boxhead.digit_texture(10, (0.8, 0.1, 0.1))
    white = np.all(image == 255, axis=-1)
    assert 0 < white.mean() < 0.5
    # "1" lights two segments, "0" six: the left glyph is thinner than the right.
    assert white[:, :32].sum() < white[:, 32:].sum()
    assert not np.array_equal(boxhead.digit_texture(3, (0, 0, 0)), boxhead.digit_texture(8, (0, 0, 0)))


@pytest.mark.parametrize("kwargs, message", [
    (dict(walker_id=11), "walker_id"),
    (dict(walker_id=-1), "walker_id"),
    (dict(walker_id=True), "walker_id"),
    (dict(marker_rgba=(1.0, 0.0, 0.0)), "marker_rgba"),
    (dict(marker_rgba=(2.0, 0.0, 0.0, 1.0)), "marker_rgba"),
    (dict(camera_resolution=(28,)), "camera_resolution"),
    (dict(camera_resolution=(28, 0)), "camera_resolution"),
    (dict(roll_gear=np.nan), "roll_gear"),
    (dict(steer_gear="55"), "steer_gear"),
    (dict(name=""), "name"),
])
def test_boxhead_rejects_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        boxhead.BoxHead(**kwargs)


def test_boxhead_rejects_poses_it_cannot_take():
    _, walker, physics = _boxhead_physics()
    tilt = [np.cos(0.2), np.sin(0.2), 0.0, 0.0]
    with pytest.raises(ValueError, match="only turns about z"):
        walker.set_pose(physics, quaternion=tilt)
    with pytest.raises(ValueError, match="only spins about z"):
        walker.set_velocity(physics, angular_velocity=[1.0, 0.0, 0.0])
    with pytest.raises(ValueError, match="position"):
        walker.set_pose(physics, position=[0.0, 0.0])
    with pytest.raises(ValueError, match="action must be 3"):
        walker.apply_action(physics, [0.0, 0.0], None)
    with pytest.raises(TypeError, match="camera_control"):
        boxhead.BoxHead(camera_control=1)


def test_boxhead_root_joints_need_the_attachment_frame_once():
    arena = _arena_with_ground()
    walker = boxhead.BoxHead(name="w")
    frame = arena.attach(walker)
    with pytest.raises(ValueError, match="attachment_frame"):
        walker.create_root_joints(arena.spec.worldbody)
    walker.create_root_joints(frame)
    with pytest.raises(ValueError, match="already has root joints"):
        walker.create_root_joints(frame)
    unattached = boxhead.BoxHead(name="v")
    arena.attach(unattached)
    physics = Physics.from_spec(arena.spec)
    with pytest.raises(ValueError, match="no root joints"):
        unattached.set_pose(physics, [0.0, 0.0, 0.0])


# Soccer ball.

@pytest.mark.parametrize("kind", ["default", "regulation"])
def test_ball_facts_match_the_reference(kind):
    reference = REFERENCE["balls"][kind]
    ball = soccer_ball.SoccerBall() if kind == "default" else soccer_ball.regulation_soccer_ball()
    arena = _arena_with_ground()
    arena.add_free_entity(ball)
    physics = Physics.from_spec(arena.spec)
    geom = physics.bind(ball.geom)
    model = physics.model
    body = model.geom_bodyid[geom.id]
    assert model.geom_type[geom.id] == reference["type"]
    np.testing.assert_allclose(model.geom_size[geom.id], reference["size"])
    np.testing.assert_allclose(model.body_mass[body], reference["mass"])
    np.testing.assert_allclose(model.body_inertia[body], reference["inertia"], rtol=1e-9)
    np.testing.assert_allclose(model.geom_friction[geom.id], reference["friction"])
    np.testing.assert_allclose(model.geom_solref[geom.id], reference["solref"])
    np.testing.assert_allclose(model.geom_solimp[geom.id], reference["solimp"])
    np.testing.assert_allclose(model.geom_pos[geom.id], reference["pos"])
    assert (model.geom_condim[geom.id], model.geom_priority[geom.id], model.geom_contype[geom.id],
            model.geom_conaffinity[geom.id]) == (reference["condim"], reference["priority"],
                                                 reference["contype"], reference["conaffinity"])
    for name, facts in reference["cameras"].items():
        camera = model.camera(f"soccer_ball/{name}")
        np.testing.assert_allclose(model.cam_pos[camera.id], facts["pos"])
        assert model.cam_fovy[camera.id] == facts["fovy"]
    assert ball.root_body is ball.attachment_body


def _match(team_size=1):
    """An arena with a ball and `team_size` BoxHeads per team; returns
    (arena, ball, players, physics), the ball's trackers initialised."""
    arena = _arena_with_ground()
    ball = soccer_ball.SoccerBall()
    arena.add_free_entity(ball)
    players = []
    for team in (soccer_team.Team.HOME, soccer_team.Team.AWAY):
        for index in range(team_size):
            walker = boxhead.BoxHead(name=f"{team.name.lower()}{index}",
                                     marker_rgba=soccer_team.team_rgba(team), walker_id=index)
            walker.create_root_joints(arena.attach(walker))
            player = soccer_team.Player(team, walker)
            ball.register_player(player)
            players.append(player)
    physics = Physics.from_spec(arena.spec)
    random_state = np.random.RandomState(0)
    ball.initialize_episode(physics, random_state)
    for number, player in enumerate(players):
        player.walker.set_pose(physics, [0.0, 4.0 * number, 0.0], [1.0, 0.0, 0.0, 0.0])
    ball.set_pose(physics, [10.0, 10.0, 0.0])
    return arena, ball, players, physics


def _control_step(ball, physics, substeps=5):
    ball.before_step(physics, None, None)
    for _ in range(substeps):
        physics.step()
        ball.after_substep(physics, None)
    ball.after_step(physics, None)


def _touch(ball, player, physics):
    """Places the ball against `player`'s shell (its walker faces -y at yaw 0)."""
    position, _ = player.walker.get_pose(physics)
    ball.set_pose(physics, position + [0.0, -0.69, 0.0])
    ball.set_velocity(physics, np.zeros(3), np.zeros(3))


def test_ball_records_the_player_in_contact_as_last_hit():
    _, ball, players, physics = _match(team_size=2)
    home0, home1, away0, _ = players
    _control_step(ball, physics)
    assert (ball.hit, ball.last_hit, ball.dist_between_last_hits) == (False, None, None)
    _touch(ball, home0, physics)
    _control_step(ball, physics)
    assert ball.hit and ball.last_hit is home0 and ball.intercepted and ball.repossessed
    ball.set_pose(physics, [10.0, 10.0, 0.0])
    _control_step(ball, physics)
    assert not ball.hit and ball.last_hit is home0
    assert not ball.intercepted and not ball.repossessed
    _touch(ball, home1, physics)  # A teammate: repossessed, not intercepted.
    _control_step(ball, physics)
    assert ball.last_hit is home1 and ball.repossessed and not ball.intercepted
    first_distance = ball.dist_between_last_hits
    assert first_distance is not None and first_distance > 1.0  # Moved away and back.
    _touch(ball, away0, physics)  # An opponent: intercepted.
    _control_step(ball, physics)
    assert ball.last_hit is away0 and ball.repossessed and ball.intercepted
    ball.initialize_entity_trackers()
    assert (ball.last_hit, ball.hit, ball.dist_between_last_hits) == (None, False, None)


def test_ball_ignores_contacts_with_unregistered_geoms():
    arena, ball, players, physics = _match()
    ball.set_pose(physics, [10.0, 10.0, 0.0])  # On the ground only.
    for _ in range(3):
        _control_step(ball, physics)
    assert ball.last_hit is None and not ball.hit


def test_ball_tracking_snapshot_restores_exactly():
    _, ball, players, physics = _match()
    _touch(ball, players[1], physics)
    _control_step(ball, physics)
    state = pickle.loads(pickle.dumps(ball.snapshot_state()))
    ball.initialize_entity_trackers()
    ball.restore_state(state)
    assert ball.last_hit is players[1] and ball.hit and ball.intercepted
    np.testing.assert_array_equal(ball.snapshot_state()["pos_at_last_step"], state["pos_at_last_step"])
    bad = dict(state, last_hit=5)
    with pytest.raises(ValueError, match="player 5"):
        ball.restore_state(bad)


@pytest.mark.parametrize("kwargs, message", [
    (dict(radius=0.0), "radius"), (dict(radius=np.inf), "radius"), (dict(mass=-1.0), "mass"),
    (dict(friction=(0.7, 0.1)), "friction"), (dict(friction=(0.7, -0.1, 0.1)), "friction"),
    (dict(damp_ratio=-0.1), "damp_ratio"), (dict(damp_ratio="1"), "damp_ratio"),
])
def test_ball_rejects_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        soccer_ball.SoccerBall(**kwargs)


def test_ball_rejects_bad_players_and_unattached_root_body():
    ball = soccer_ball.SoccerBall()
    with pytest.raises(TypeError, match="Player"):
        ball.register_player("home0")
    with pytest.raises(ValueError, match="not attached"):
        ball.root_body
    with pytest.raises(TypeError, match="Team"):
        soccer_team.team_rgba("home")
