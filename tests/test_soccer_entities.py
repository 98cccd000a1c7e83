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
from composer_tasks.walkers import ant
from composer_tasks.walkers import boxhead
from composer_tasks.walkers import cmu_humanoid
from composer_tasks.walkers import soccer_humanoid
from composer_tasks.walkers import soccer_team

_REFERENCE_PATH = os.path.join(
    os.path.dirname(__file__), "conformance", "reference", "soccer_entities.json"
)
with open(_REFERENCE_PATH) as _stream:
    REFERENCE = json.load(_stream)

_OBJ = mujoco.mjtObj
# The walker's own sensors (the recorded model also holds the soccer task's).
_TASK_SENSOR_MARKERS = ("ball_ego", "opponent_", "teammate_", "_end_effector")


def _arena_with_ground():
    arena = composer.Arena()
    arena.spec.worldbody.add_geom(
        name="ground", type=mujoco.mjtGeom.mjGEOM_PLANE, size=[30.0, 30.0, 1.0]
    )
    return arena


def _elements(model, kind, prefix):
    count = {
        _OBJ.mjOBJ_BODY: model.nbody,
        _OBJ.mjOBJ_GEOM: model.ngeom,
        _OBJ.mjOBJ_JOINT: model.njnt,
        _OBJ.mjOBJ_ACTUATOR: model.nu,
        _OBJ.mjOBJ_SENSOR: model.nsensor,
    }[kind]
    found = {}
    for index in range(count):
        name = mujoco.mj_id2name(model, kind, index) or ""
        if name.startswith(prefix) and name != prefix:
            found[name[len(prefix) :]] = index
    return found


def _boxhead_physics(**kwargs):
    arena = _arena_with_ground()
    walker = boxhead.BoxHead(name="home0", **kwargs)
    walker.create_root_joints(arena.attach(walker))
    return arena, walker, Physics.from_spec(arena.spec)


# Walkers.


def _ant_physics(**kwargs):
    arena = _arena_with_ground()
    walker = ant.Ant(name="home0", **kwargs)
    walker.create_root_joints(arena.attach(walker))
    return arena, walker, Physics.from_spec(arena.spec)


_WALKER_PHYSICS = {
    "BOXHEAD": lambda: _boxhead_physics(marker_rgba=soccer_team.RGBA_BLUE, walker_id=0),
    "ANT": lambda: _ant_physics(marker_rgba=soccer_team.RGBA_BLUE),
}
# Sensors the published walkers gain from observables and the soccer task, and the
# centre-of-mass velocity sensor every walker here carries (walkers.base).
_DERIVED_SENSOR_MARKERS = _TASK_SENSOR_MARKERS + ("_appendage", "_ego_body_", "_subtreelinvel")


@pytest.mark.parametrize("walker_type", sorted(_WALKER_PHYSICS))
def test_walker_bodies_geoms_joints_actuators_sensors_match_the_reference(walker_type):
    reference = REFERENCE["walkers"][walker_type]
    _, walker, physics = _WALKER_PHYSICS[walker_type]()
    model = physics.model
    bodies = _elements(model, _OBJ.mjOBJ_BODY, "home0/")
    assert list(bodies) == reference["order"]["bodies"]
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
        assert (
            model.geom_condim[index],
            model.geom_contype[index],
            model.geom_conaffinity[index],
            model.geom_group[index],
        ) == (facts["condim"], facts["contype"], facts["conaffinity"], facts["group"]), name
    for name in reference["marker_geoms"]:
        np.testing.assert_allclose(
            model.geom_rgba[geoms[name]], reference["marker_rgba"], rtol=1e-6
        )
    # Walker parts are PyMJCF handles named as dm_control names them (unprefixed).
    assert [geom.name for geom in walker.marker_geoms] == reference["marker_geoms"]
    joints = _elements(model, _OBJ.mjOBJ_JOINT, "home0/")
    # The free joint is named after its frame ("home0/", "" after the prefix), as
    # PyMJCF names it; the ball walkers' root slides "home0/root_x/", as there.
    expected_order = [name for name in reference["order"]["joints"] if name]
    assert list(joints) == expected_order
    if "" in reference["joints"]:
        assert walker.free_joint is not None
    for name, facts in reference["joints"].items():
        if not name:
            continue
        index = joints[name]
        dof = model.jnt_dofadr[index]
        assert model.jnt_type[index] == facts["type"], name
        assert bool(model.jnt_limited[index]) == facts["limited"], name
        np.testing.assert_allclose(model.jnt_axis[index], facts["axis"], atol=1e-12, err_msg=name)
        np.testing.assert_allclose(model.jnt_range[index], facts["range"], err_msg=name)
        np.testing.assert_allclose(
            [
                model.dof_damping[dof],
                model.dof_armature[dof],
                model.jnt_stiffness[index],
                model.qpos_spring[model.jnt_qposadr[index]],
            ],
            [facts["damping"], facts["armature"], facts["stiffness"], facts["springref"]],
            err_msg=name,
        )
    actuators = _elements(model, _OBJ.mjOBJ_ACTUATOR, "home0/")
    assert list(actuators) == reference["action_spec"]["names"]
    for name, facts in reference["actuators"].items():
        index = actuators[name]
        assert model.actuator_gear[index, 0] == facts["gear"], name
        assert model.actuator_trnid[index, 0] == joints[facts["joint"]], name
        np.testing.assert_allclose(model.actuator_ctrlrange[index], facts["ctrlrange"])
        assert (
            model.actuator_gaintype[index],
            model.actuator_biastype[index],
            model.actuator_dyntype[index],
        ) == (facts["gaintype"], facts["biastype"], facts["dyntype"]), name
        np.testing.assert_allclose(model.actuator_gainprm[index, :3], facts["gainprm"])
        np.testing.assert_allclose(model.actuator_biasprm[index, :3], facts["biasprm"])
    sensors = _elements(model, _OBJ.mjOBJ_SENSOR, "home0/")
    own = [
        name
        for name in reference["order"]["sensors"]
        if not any(marker in name for marker in _DERIVED_SENSOR_MARKERS)
    ]
    assert [
        name for name in sensors if not any(marker in name for marker in _DERIVED_SENSOR_MARKERS)
    ] == own
    for name in own:
        facts = reference["sensors"][name]
        assert (model.sensor_type[sensors[name]], model.sensor_dim[sensors[name]]) == (
            facts["type"],
            facts["dim"],
        ), name
    for name, facts in reference["cameras"].items():
        assert model.cam_fovy[model.camera("home0/" + name).id] == facts["fovy"], name
    spec = walker.action_spec
    assert spec.shape == tuple(reference["action_spec"]["shape"])
    np.testing.assert_array_equal(spec.minimum, reference["action_spec"]["minimum"])
    np.testing.assert_array_equal(spec.maximum, reference["action_spec"]["maximum"])
    assert spec.name.split("\t") == reference["action_spec"]["names"]
    assert walker.root_body.name == reference["root_body"]
    assert [body.name for body in walker.end_effectors] == reference["end_effectors"]
    assert [joint.name for joint in walker.observable_joints] == reference["observable_joints"]
    assert [geom.name for geom in walker.ground_contact_geoms] == reference["ground_contact_geoms"]
    assert walker.egocentric_camera.name == reference["egocentric_camera"]
    total = sum(model.body_mass[index] for index in bodies.values())
    np.testing.assert_allclose(total, reference["standalone_total_mass"], rtol=1e-9)


@pytest.mark.parametrize("walker_type", sorted(_WALKER_PHYSICS))
def test_walker_observable_shapes_match_the_reference(walker_type):
    reference = REFERENCE["walkers"][walker_type]["walker_observables"]
    _, walker, physics = _WALKER_PHYSICS[walker_type]()
    _check_observable_shapes(walker, physics, reference)


def _check_observable_shapes(walker, physics, reference):
    physics.forward()
    ours = {name: item for name, item in walker.observables.items() if name != "egocentric_camera"}
    # dm_control's force sensors observable and framequat do not exist for these bodies
    # (both always empty); every other published observable is here, shaped alike.
    published = {
        name: shape
        for name, shape in reference.items()
        if name not in ("sensors_force", "sensors_framequat")
    }
    assert set(published) <= set(ours)
    for name, shape in published.items():
        value = np.asarray(ours[name].observation_callable(physics)())
        assert list(value.shape) == shape, name


def test_boxhead_camera_control_adds_camera_joints_actuators_and_observables():
    _, walker, physics = _boxhead_physics(camera_control=True)
    model = physics.model
    assert [model.actuator(i).name for i in range(model.nu)] == [
        "home0/roll",
        "home0/steer",
        "home0/kick",
        "home0/camera_yaw",
        "home0/camera_pitch",
    ]
    pitch = model.joint("home0/camera_pitch")
    np.testing.assert_allclose(model.jnt_range[pitch.id], (-0.35, 0.0))
    assert model.jnt_limited[pitch.id] and not model.jnt_limited[model.joint("home0/camera_yaw").id]
    index = model.actuator("home0/camera_yaw").id
    np.testing.assert_allclose(model.actuator_biasprm[index, :3], (0.0, 0.0, -1.0))
    physics.bind(list(walker.observable_camera_joints)).qpos = np.array([0.3, -0.2])
    physics.forward()
    np.testing.assert_allclose(
        walker.observables.camera_joints_pos.observation_callable(physics)(),
        np.concatenate([np.sin([0.3, -0.2]), np.cos([0.3, -0.2])]),
    )
    assert walker.observables.camera_joints_vel.observation_callable(physics)().shape == (2,)
    assert walker.observables.prev_action.observation_callable(physics)().shape == (5,)
    # Gravity on the camera body is cancelled by an applied force.
    walker.initialize_episode(physics, np.random.RandomState(0))
    camera = physics.bind(walker.egocentric_camera.parent)
    np.testing.assert_allclose(camera.xfrc_applied, (0.0, 0.0, 9.81, 0.0, 0.0, 0.0))


def test_boxhead_pose_and_velocity_follow_dm_control():
    _, walker, physics = _boxhead_physics()
    yaw = 0.7
    walker.set_pose(physics, [1.0, -2.0, 0.0], [np.cos(yaw / 2), 0.0, 0.0, np.sin(yaw / 2)])
    np.testing.assert_allclose(physics.bind(list(walker.root_joints)).qpos, [1.0, -2.0, 0.0])
    np.testing.assert_allclose(physics.named.data.qpos["home0/steer"], yaw)
    # get_pose is Entity's: the attachment frame, which the root slides do not move.
    position, quaternion = walker.get_pose(physics)
    np.testing.assert_array_equal(position, [0.0, 0.0, 0.0])
    np.testing.assert_array_equal(quaternion, [1.0, 0.0, 0.0, 0.0])
    physics.forward()
    # dm_control writes the yaw into the downward steer axis as is: the head's x
    # axis (forward) turns by -yaw from its published -90 degrees.
    heading = np.asarray(physics.bind(walker.root_body).xmat).reshape(3, 3)[:, 0]
    np.testing.assert_allclose(
        heading[:2], [np.cos(-yaw - np.pi / 2), np.sin(-yaw - np.pi / 2)], atol=1e-12
    )
    np.testing.assert_allclose(physics.bind(walker.root_body).xpos, [1.0, -2.0, 1.0])
    walker.set_velocity(physics, [0.5, 0.0, 0.0], [0.0, 0.0, 1.5])
    np.testing.assert_allclose(physics.bind(list(walker.root_joints)).qvel, [0.5, 0.0, 0.0])
    np.testing.assert_allclose(physics.named.data.qvel["home0/steer"], 1.5)
    walker.set_velocity(physics, angular_velocity=-0.5)
    np.testing.assert_allclose(physics.named.data.qvel["home0/steer"], -0.5)
    with pytest.raises(ValueError, match="no free joint"):
        walker.get_velocity(physics)
    with pytest.raises(ValueError, match="position must be 3 finite values"):
        walker.set_pose(physics, [1.0, 2.0])
    # shift_pose is Entity's: the frame's pose plus the shift, written by set_pose.
    turn = 0.4
    walker.shift_pose(physics, [1.0, 0.0, 0.0], [np.cos(turn / 2), 0.0, 0.0, np.sin(turn / 2)])
    np.testing.assert_allclose(physics.bind(list(walker.root_joints)).qpos, [1.0, 0.0, 0.0])
    np.testing.assert_allclose(physics.named.data.qpos["home0/steer"], turn)
    # The episode start keeps the root pose the task set, heading included, and
    # resets the other joints.
    physics.named.data.qpos["home0/kick"] = 0.2
    walker.initialize_episode(physics, np.random.RandomState(0))
    np.testing.assert_allclose(physics.named.data.qpos["home0/steer"], turn)
    np.testing.assert_allclose(physics.bind(list(walker.root_joints)).qpos, [1.0, 0.0, 0.0])
    assert physics.named.data.qpos["home0/kick"] == 0.0


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
    assert np.linalg.norm(physics.bind(list(walker.root_joints)).qpos[:2]) > 0.1
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
        "arm_l",
        "arm_r",
        "eye_l",
        "eye_r",
    ]
    image = boxhead.digit_texture(10, (0.8, 0.1, 0.1))
    white = np.all(image == 255, axis=-1)
    assert 0 < white.mean() < 0.5
    # "1" lights two segments, "0" six: the left glyph is thinner than the right.
    assert white[:, :32].sum() < white[:, 32:].sum()
    assert not np.array_equal(
        boxhead.digit_texture(3, (0, 0, 0)), boxhead.digit_texture(8, (0, 0, 0))
    )


@pytest.mark.parametrize(
    "kwargs, message",
    [
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
    ],
)
def test_boxhead_rejects_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        boxhead.BoxHead(**kwargs)


def test_boxhead_rejects_poses_it_cannot_take():
    _, walker, physics = _boxhead_physics()
    # As in dm_control, only the yaw of a quaternion and the z of a spin are kept.
    tilt = [np.cos(0.2), np.sin(0.2), 0.0, 0.0]
    walker.set_pose(physics, quaternion=tilt)
    assert physics.named.data.qpos["home0/steer"] == 0.0
    walker.set_velocity(physics, angular_velocity=[1.0, 0.0, 0.0])
    assert physics.named.data.qvel["home0/steer"] == 0.0
    with pytest.raises(ValueError, match="quaternion must be 4"):
        walker.set_pose(physics, quaternion=[1.0, 0.0, 0.0])
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
    # Without root joints, set_pose moves the attachment frame (Entity.set_pose).
    unattached.set_pose(physics, [0.5, 0.0, 0.0])
    np.testing.assert_array_equal(unattached.get_pose(physics)[0], [0.5, 0.0, 0.0])


# Soccer ball.


@pytest.mark.parametrize("kind", ["default", "regulation"])
def test_ball_facts_match_the_reference(kind):
    reference = REFERENCE["balls"][kind]
    ball = soccer_ball.SoccerBall() if kind == "default" else soccer_ball.regulation_soccer_ball()
    arena = _arena_with_ground()
    arena.add_free_entity(ball)
    physics = Physics.from_spec(arena.spec)
    geom = physics.bind(ball.geom).element_id  # the ball's geom is a PyMJCF handle
    model = physics.model
    body = model.geom_bodyid[geom]
    assert model.geom_type[geom] == reference["type"]
    np.testing.assert_allclose(model.geom_size[geom], reference["size"])
    np.testing.assert_allclose(model.body_mass[body], reference["mass"])
    np.testing.assert_allclose(model.body_inertia[body], reference["inertia"], rtol=1e-9)
    np.testing.assert_allclose(model.geom_friction[geom], reference["friction"])
    np.testing.assert_allclose(model.geom_solref[geom], reference["solref"])
    np.testing.assert_allclose(model.geom_solimp[geom], reference["solimp"])
    np.testing.assert_allclose(model.geom_pos[geom], reference["pos"])
    assert (
        model.geom_condim[geom],
        model.geom_priority[geom],
        model.geom_contype[geom],
        model.geom_conaffinity[geom],
    ) == (
        reference["condim"],
        reference["priority"],
        reference["contype"],
        reference["conaffinity"],
    )
    for name, facts in reference["cameras"].items():
        camera = model.camera(f"soccer_ball/{name}")
        np.testing.assert_allclose(model.cam_pos[camera.id], facts["pos"])
        assert model.cam_fovy[camera.id] == facts["fovy"]
    # dm_control's root_body (Entity's): the attachment frame once attached.
    assert ball.root_body.tag == "body"
    assert physics.bind(ball.root_body).element_id == physics.bind(ball.attachment_body).element_id


def _match(team_size=1):
    """An arena with a ball and `team_size` BoxHeads per team; returns
    (arena, ball, players, physics), the ball's trackers initialised."""
    arena = _arena_with_ground()
    ball = soccer_ball.SoccerBall()
    arena.add_free_entity(ball)
    players = []
    for team in (soccer_team.Team.HOME, soccer_team.Team.AWAY):
        for index in range(team_size):
            walker = boxhead.BoxHead(
                name=f"{team.name.lower()}{index}",
                marker_rgba=soccer_team.team_rgba(team),
                walker_id=index,
            )
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
    ball.before_step(physics, None)
    for _ in range(substeps):
        physics.step()
        ball.after_substep(physics, None)
    ball.after_step(physics, None)


def _touch(ball, player, physics):
    """Places the ball against `player`'s shell (its walker faces -y at yaw 0)."""
    position = np.asarray(physics.bind(list(player.walker.root_joints)).qpos)
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
    np.testing.assert_array_equal(
        ball.snapshot_state()["pos_at_last_step"], state["pos_at_last_step"]
    )
    bad = dict(state, last_hit=5)
    with pytest.raises(ValueError, match="player 5"):
        ball.restore_state(bad)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(radius=0.0), "radius"),
        (dict(radius=np.inf), "radius"),
        (dict(mass=-1.0), "mass"),
        (dict(friction=(0.7, 0.1)), "friction"),
        (dict(friction=(0.7, -0.1, 0.1)), "friction"),
        (dict(damp_ratio=-0.1), "damp_ratio"),
        (dict(damp_ratio="1"), "damp_ratio"),
    ],
)
def test_ball_rejects_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        soccer_ball.SoccerBall(**kwargs)


def test_ball_rejects_bad_players_and_has_a_worldbody_root_before_attaching():
    ball = soccer_ball.SoccerBall()
    with pytest.raises(TypeError, match="Player"):
        ball.register_player("home0")
    # As dm_control's, the root body of a ball not attached yet is its worldbody.
    assert ball.root_body.tag == "worldbody"
    with pytest.raises(TypeError, match="Team"):
        soccer_team.team_rgba("home")


# Pitch.

from composer_tasks.arenas import pitch as pitch_module  # noqa: E402


def _geoms_by_name(model):
    return {
        mujoco.mj_id2name(model, _OBJ.mjOBJ_GEOM, index) or "": index
        for index in range(model.ngeom)
    }


def _check_detector(detector, reference):
    np.testing.assert_allclose(detector.lower, reference["lower"], atol=1e-12)
    np.testing.assert_allclose(detector.upper, reference["upper"], atol=1e-12)
    np.testing.assert_allclose(detector.mid, reference["mid"], atol=1e-12)


_PITCHES = {
    "default": lambda: pitch_module.Pitch(),
    "field_box": lambda: pitch_module.Pitch(field_box=True),
    "hoarding_scheme_2": lambda: pitch_module.Pitch(hoarding_color_scheme_id=2),
    "randomized": lambda: pitch_module.RandomizedPitch(
        (32, 24), (48, 36), field_box=True, randomizer=lambda random_state: 0.25
    ),
}


def _unnamed(name):
    """An element unnamed in its model: no name, or PyMJCF's (`//unnamed_geom_3`),
    which the compiled model gives it as dm_control's does."""
    return not name or name.startswith("//") or "//unnamed_" in name


def _placements(items, keys):
    return sorted(
        tuple(np.round(np.asarray(item[key], dtype=np.float64).ravel(), 5).tolist() for key in keys)
        for item in items
    )


@pytest.mark.parametrize("kind", sorted(_PITCHES))
def test_pitch_layout_matches_the_reference(kind):
    reference = REFERENCE["pitch"][kind]
    arena = _PITCHES[kind]()
    if kind == "randomized":
        arena.initialize_episode_mjcf(np.random.RandomState(0))
    physics = Physics.from_spec(arena.spec)
    physics.forward()
    model, data = physics.model, physics.data
    np.testing.assert_allclose(arena.size, reference["size"])
    _check_detector(arena.home_goal, reference["home_goal"])
    _check_detector(arena.away_goal, reference["away_goal"])
    _check_detector(arena.field, reference["field"])
    geoms = [
        dict(
            name=mujoco.mj_id2name(model, _OBJ.mjOBJ_GEOM, i) or "",
            type=model.geom_type[i],
            size=model.geom_size[i],
            pos=data.geom_xpos[i],
            contype=model.geom_contype[i],
            conaffinity=model.geom_conaffinity[i],
            rgba=model.geom_rgba[i],
        )
        for i in range(model.ngeom)
    ]
    published = reference["geoms"]
    # Named geoms (the ground, the goalposts) by name; the rest by placement.
    named = {geom["name"]: geom for geom in geoms if not _unnamed(geom["name"])}
    for facts in published:
        if facts["name"].startswith("//"):
            continue
        ours = named[facts["name"]]
        assert ours["type"] == facts["type"], facts["name"]
        np.testing.assert_allclose(ours["size"], facts["size"], rtol=1e-9, err_msg=facts["name"])
        np.testing.assert_allclose(ours["pos"], facts["pos"], atol=1e-9, err_msg=facts["name"])
        np.testing.assert_allclose(
            ours["rgba"][:3], facts["rgba"][:3], rtol=1e-6, err_msg=facts["name"]
        )
        assert (ours["contype"], ours["conaffinity"]) == (facts["contype"], facts["conaffinity"])
    keys = ("type", "contype", "conaffinity", "pos", "size")
    assert _placements([geom for geom in geoms if _unnamed(geom["name"])], keys) == _placements(
        [geom for geom in published if geom["name"].startswith("//")], keys
    )
    sites = [
        dict(
            name=mujoco.mj_id2name(model, _OBJ.mjOBJ_SITE, i) or "",
            type=model.site_type[i],
            pos=data.site_xpos[i],
            size=model.site_size[i],
            rgba=model.site_rgba[i],
            group=model.site_group[i],
        )
        for i in range(model.nsite)
    ]
    site_keys = ("type", "group", "pos", "size", "rgba")
    for unnamed in (True, False):
        ours = [site for site in sites if _unnamed(site["name"]) == unnamed]
        theirs = [site for site in reference["sites"] if site["name"].startswith("//") == unnamed]
        assert _placements(ours, site_keys) == _placements(theirs, site_keys)
    for site in sites:
        if site["name"]:
            assert site["name"] in {item["name"] for item in reference["sites"]}
    # Walls face the centre.
    for wall in arena.walls:
        index = physics.bind(wall).element_id
        normal = data.geom_xmat[index].reshape(3, 3)[:, 2]
        assert np.dot(normal, data.geom_xpos[index]) < 0
    camera = model.camera("top_down")
    np.testing.assert_allclose(model.cam_fovy[camera.id], reference["top_camera_fovy"], rtol=1e-6)
    np.testing.assert_allclose(model.cam_pos[camera.id], reference["top_camera_pos"])
    np.testing.assert_allclose(
        [model.stat.extent, model.vis.map.znear, model.vis.map.zfar],
        [reference["extent"], reference["znear"], reference["zfar"]],
        rtol=1e-6,
    )
    np.testing.assert_allclose(model.stat.center, reference["center"])
    assert (model.nlight, model.nsite) == (reference["nlight"], reference["nsite"])
    np.testing.assert_allclose(model.light_pos, reference["light_pos"])
    np.testing.assert_allclose(model.light_dir, reference["light_dir"], rtol=1e-6)
    assert model.opt.timestep == reference["timestep"]


def test_field_box_matches_the_reference_and_collides_with_the_ball_only():
    reference = REFERENCE["pitch"]["field_box"]
    arena = pitch_module.Pitch(field_box=True)
    ball = soccer_ball.SoccerBall()
    arena.add_free_entity(ball)
    arena.register_ball(ball)
    physics = Physics.from_spec(arena.spec)
    model = physics.model
    boxes = [physics.bind(box).element_id for box in arena.field_box_geoms]
    ours = sorted(
        (*np.round(physics.data.geom_xpos[i], 9), *np.round(model.geom_size[i], 9)) for i in boxes
    )
    published = sorted(
        (*np.round(g["pos"], 9), *np.round(g["size"], 9))
        for g in reference["geoms"]
        if g["type"] == mujoco.mjtGeom.mjGEOM_BOX
    )
    assert ours == published and len(ours) == 8
    bit = pitch_module.FIELD_BOX_CONTACT_BIT
    assert all(model.geom_contype[i] == bit and model.geom_conaffinity[i] == bit for i in boxes)
    assert model.geom_contype[physics.bind(ball.geom).element_id] == 1 | bit
    # The field detector does not watch the ball with a field box.
    ball.set_pose(physics, [100.0, 0.0, 0.0])
    physics.forward()
    _run_detection(arena, physics)
    assert arena.detected_off_court() == []


@pytest.mark.parametrize("key", sorted(REFERENCE["randomized_pitch"]))
def test_match_pitch_sizes_and_goals_per_team_size_match_the_reference(key):
    reference = REFERENCE["randomized_pitch"][key]
    walker_type, team_size = key.split("-")
    min_size, max_size, goal_size = pitch_module.match_pitch_sizes(
        int(team_size), humanoid=walker_type == "HUMANOID"
    )
    np.testing.assert_allclose(min_size, reference["min_size"], rtol=1e-12)
    np.testing.assert_allclose(max_size, reference["max_size"], rtol=1e-12)
    if reference["goal_size"] is None:
        assert goal_size is None
    else:
        np.testing.assert_allclose(goal_size, reference["goal_size"])
    arena = pitch_module.RandomizedPitch(min_size, max_size, goal_size=goal_size)
    for bound in reference["at_bounds"]:
        arena.set_size(bound["pitch_size"])
        _check_detector(arena.home_goal, bound["home_goal"])
        _check_detector(arena.away_goal, bound["away_goal"])
        _check_detector(arena.field, bound["field"])


def _run_detection(arena, physics):
    """The detectors' episode start, then one substep's detection."""
    for entity in arena.iter_entities():
        if isinstance(entity, pitch_module.position_detector.PositionDetector):
            entity.initialize_episode(physics, None)


def _pitch_with_ball(**kwargs):
    arena = pitch_module.RandomizedPitch((32.0, 24.0), (48.0, 36.0), **kwargs)
    arena.initialize_episode_mjcf(np.random.RandomState(3))
    ball = soccer_ball.SoccerBall()
    arena.add_free_entity(ball)
    arena.register_ball(ball)
    return arena, ball, Physics.from_spec(arena.spec)


def _place_ball_centre(ball, physics, centre):
    # The ball's frame is a radius below its centre.
    ball.set_pose(physics, np.asarray(centre, dtype=np.float64) - [0.0, 0.0, ball.radius])
    physics.forward()


def test_goals_detect_the_ball_inside_and_not_outside():
    arena, ball, physics = _pitch_with_ball()
    home, away = arena.home_goal, arena.away_goal
    cases = [
        # The goals lie beyond the field (dm_control's layout): off court too.
        (home.mid, soccer_team.Team.AWAY, [ball]),
        (away.mid, soccer_team.Team.HOME, [ball]),
        ([0.0, 0.0, 0.5], None, []),
        ([home.lower[0] + 0.5, home.upper[1] + 1.0, 0.5], None, [ball]),  # Beside the goal.
        ([home.mid[0], home.upper[1] + 0.05, home.mid[2]], None, [ball]),
        ([home.upper[0] + 0.05, 0.0, 1.0], None, []),  # Just in front of the goal mouth.
    ]
    for centre, scorer, off_court in cases:
        _place_ball_centre(ball, physics, centre)
        _run_detection(arena, physics)
        assert arena.detected_goal() == scorer, centre
        assert arena.detected_off_court() == off_court, centre
    # A goal region retains a detection until the next control step.
    _place_ball_centre(ball, physics, away.mid)
    _run_detection(arena, physics)
    _place_ball_centre(ball, physics, [0.0, 0.0, 0.5])
    away.after_substep(physics, None)
    assert arena.detected_goal() == soccer_team.Team.HOME
    away.before_step(physics, None)
    away.after_substep(physics, None)
    assert arena.detected_goal() is None
    # The goalposts turn the detected colour while the ball is in.
    _place_ball_centre(ball, physics, home.mid)
    home.after_substep(physics, None)
    post = physics.bind(home.goalposts[0])
    np.testing.assert_allclose(post.rgba, home.goalpost_detected_rgba)
    state = home.snapshot_state()
    home.before_step(physics, None)
    home.restore_state(pickle.loads(pickle.dumps(state)))
    assert home.detected_entities == [ball]


def test_goals_stop_the_ball_with_their_posts():
    arena, ball, physics = _pitch_with_ball()
    post = arena.away_goal.goalposts[0]  # right_post of the away goal, at +y.
    start, end = np.asarray(post.fromto[:3]), np.asarray(post.fromto[3:])
    centre = (start + end) / 2 + [-1.0, 0.0, 0.0]
    _place_ball_centre(ball, physics, centre)
    ball.set_velocity(physics, [8.0, 0.0, 0.0], np.zeros(3))
    for _ in range(150):
        physics.step()
    position, _ = ball.get_pose(physics)
    assert position[0] < start[0]


def test_randomized_pitch_is_deterministic_and_draws_within_bounds():
    def sizes(seed, **kwargs):
        arena = pitch_module.RandomizedPitch((32.0, 24.0), (48.0, 36.0), **kwargs)
        random_state = np.random.RandomState(seed)
        drawn = []
        for _ in range(5):
            arena.initialize_episode_mjcf(random_state)
            drawn.append(arena.size + arena.goal_size + tuple(arena.home_goal.lower))
        return np.array(drawn)

    first = sizes(7)
    np.testing.assert_array_equal(first, sizes(7))
    assert not np.array_equal(first, sizes(8))
    assert np.all((first[:, 0] >= 32.0) & (first[:, 0] <= 48.0))
    assert np.all((first[:, 1] >= 24.0) & (first[:, 1] <= 36.0))
    # Goals are sized to the pitch: a third of its width.
    np.testing.assert_allclose(first[:, 3], 0.33 * first[:, 1])
    kept = sizes(7, keep_aspect_ratio=True)
    np.testing.assert_allclose((kept[:, 0] - 32.0) / 16.0, (kept[:, 1] - 24.0) / 12.0)
    # dm_control's draw: the length ratio, then the width ratio.
    ratios = np.random.RandomState(7).uniform(size=2)
    np.testing.assert_allclose(first[0, :2], [32.0 + 16.0 * ratios[0], 24.0 + 12.0 * ratios[1]])


class _PitchTask(composer.Task):
    """A pitch, a ball and a BoxHead, for resets through the Environment."""

    def __init__(self):
        self._arena = pitch_module.RandomizedPitch((32.0, 24.0), (48.0, 36.0), field_box=True)
        self.ball = soccer_ball.SoccerBall()
        self._arena.add_free_entity(self.ball)
        self._arena.register_ball(self.ball)
        self.walker = boxhead.BoxHead(name="home0", marker_rgba=soccer_team.RGBA_BLUE)
        self.walker.create_root_joints(self._arena.attach(self.walker))
        self.ball.register_player(soccer_team.Player(soccer_team.Team.HOME, self.walker))
        observables = self.walker.observables
        for item in (
            observables.proprioception
            + observables.kinematic_sensors
            + [observables.prev_action, self.ball.observables.position]
        ):
            item.enabled = True
        self.set_timesteps(control_timestep=0.025, physics_timestep=0.005)

    @property
    def root_entity(self):
        return self._arena

    def initialize_episode(self, physics, random_state):
        yaw = random_state.uniform(-np.pi, np.pi)
        self.walker.set_pose(physics, [0.0, 0.0, 0.0], [np.cos(yaw / 2), 0.0, 0.0, np.sin(yaw / 2)])
        # The ball just ahead of the walker, which faces its yaw - 90 degrees.
        ahead = np.array([np.cos(yaw - np.pi / 2), np.sin(yaw - np.pi / 2), 0.0])
        self.ball.set_pose(physics, 0.8 * ahead)

    def before_step(self, physics, action, random_state):
        self.walker.apply_action(physics, action, random_state)

    def get_reward(self, physics):
        return 0.0


def test_randomized_pitch_recompiles_its_layout_every_episode():
    env = composer.Environment(_PitchTask(), random_state=5)
    sizes = []
    for _ in range(3):
        env.reset()
        arena = env.task.root_entity
        model = env.physics.model
        ground = env.physics.bind(arena.ground_geom)
        field_half = np.asarray(arena.field.upper)
        np.testing.assert_allclose(ground.size[:2], field_half)
        wall = env.physics.bind(arena.walls[3]).element_id
        np.testing.assert_allclose(env.physics.data.geom_xpos[wall][0], arena.size[0])
        sizes.append(arena.size)
        env.step([np.zeros(3)][0])
        assert model.ngeom == env.physics.model.ngeom
    assert len(set(sizes)) == 3
    again = composer.Environment(_PitchTask(), random_state=5)
    for size in sizes:
        again.reset()
        assert again.task.root_entity.size == size


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        (dict(size=(12.0,)), ValueError, "size"),
        (dict(size=(12.0, -1.0)), ValueError, "size"),
        (dict(goal_size=(1.0, 2.0)), ValueError, "goal_size"),
        (dict(hoarding_color_scheme_id=4), ValueError, "hoarding_color_scheme_id"),
        (dict(top_camera_distance=0.0), ValueError, "top_camera_distance"),
    ],
)
def test_pitch_rejects_bad_arguments(kwargs, error, message):
    with pytest.raises(error, match=message):
        pitch_module.Pitch(**kwargs)


def test_randomized_pitch_and_detectors_reject_bad_arguments():
    with pytest.raises(ValueError, match="exceeds max_size"):
        pitch_module.RandomizedPitch((50.0, 24.0), (48.0, 36.0))
    with pytest.raises(TypeError, match="randomizer"):
        pitch_module.RandomizedPitch((32.0, 24.0), (48.0, 36.0), randomizer=0.5)
    arena = pitch_module.RandomizedPitch(
        (32.0, 24.0), (48.0, 36.0), randomizer=lambda random_state: 1.5
    )
    with pytest.raises(ValueError, match="ratio in"):
        arena.initialize_episode_mjcf(np.random.RandomState(0))
    with pytest.raises(ValueError, match="team_size"):
        pitch_module.match_pitch_sizes(0)
    with pytest.raises(ValueError, match="team_size"):
        pitch_module.match_pitch_sizes(12)
    with pytest.raises(ValueError, match="direction"):
        pitch_module.Goal(direction=0, pos=(0, 0, 1), size=(1, 1, 1))
    with pytest.raises(ValueError, match="3-D"):
        pitch_module.Goal(direction=1, pos=(0, 0), size=(1, 1))
    detector = pitch_module.position_detector.PositionDetector(pos=(0.0, 0.0), size=(1.0, 1.0))
    with pytest.raises(ValueError, match="2-D"):
        detector.resize((0.0, 0.0, 0.0), (1.0, 1.0, 1.0))
    with pytest.raises(ValueError, match="finite"):
        pitch_module.position_detector.PositionDetector(pos=(0.0, 0.0), size=(1.0, np.inf))
    # As dm_control: a non-positive half-size is an empty region, not an error.
    empty = pitch_module.position_detector.PositionDetector(pos=(0.0, 0.0), size=(1.0, -0.5))
    assert (empty.lower > empty.upper).tolist() == [False, True]
    with pytest.raises(ValueError, match="rgba"):
        pitch_module.position_detector.PositionDetector(
            pos=(0.0, 0.0), size=(1.0, 1.0), rgba=(1, 1, 1)
        )
    with pytest.raises(TypeError, match="entities"):
        detector.register_entities("ball")


def test_pitch_texture_draws_white_lines_on_striped_grass():
    image = pitch_module.pitch_texture()
    # dm_control's field texture's size (pitch_nologo_l.png).
    assert image.shape == (2400, 3200, 3) and image.dtype == np.uint8
    white = np.all(image == 255, axis=-1)
    assert 0.02 < white.mean() < 0.15
    assert white[:, 1600].mean() > 0.9  # The halfway line.
    assert white[1200, 1600] and not white[1200, 800]  # The centre spot, grass beside it.
    # Symmetric under a half turn.
    np.testing.assert_array_equal(white, white[::-1, ::-1])


def test_ant_stands_senses_and_reports_aliveness():
    _, walker, physics = _ant_physics(marker_rgba=soccer_team.RGBA_RED)
    walker.initialize_episode(physics, np.random.RandomState(0))
    for _ in range(500):
        walker.apply_action(physics, np.zeros(8), None)
        physics.step()
    torso = physics.bind(walker.root_body)
    assert 0.3 < torso.xpos[2] < 0.7
    assert walker.aliveness(physics) == pytest.approx(0.0, abs=1e-3)
    observables = walker.observables
    touch = observables.sensors_touch.observation_callable(physics)()
    assert touch.shape == (9,) and touch[0] == 0.0 and np.all(touch[[2, 4, 6, 8]] == 1.0)
    ranges = observables.sensors_rangefinder.observation_callable(physics)()
    assert ranges.shape == (8,) and np.all(ranges > 0) and np.all(ranges <= 10.0)
    quats = observables.bodies_quats.observation_callable(physics)()
    np.testing.assert_allclose(quats[:4], [1.0, 0.0, 0.0, 0.0], atol=1e-9)  # The torso's own.
    np.testing.assert_allclose(
        observables.appendages_pos.observation_callable(physics)(),
        observables.end_effectors_pos.observation_callable(physics)(),
    )
    upside_down = [0.0, 1.0, 0.0, 0.0]
    walker.set_pose(physics, [0.0, 0.0, 1.0], upside_down)
    physics.forward()
    assert walker.aliveness(physics) == pytest.approx(-1.0)
    walker.apply_action(physics, np.full(8, 0.5), None)
    np.testing.assert_array_equal(
        observables.prev_action.observation_callable(physics)(), np.full(8, 0.5)
    )
    with pytest.raises(ValueError, match="marker_rgba"):
        ant.Ant(marker_rgba=(1.0, 0.0, 0.0))
    with pytest.raises(ValueError, match="action must be 8"):
        walker.apply_action(physics, np.zeros(3), None)


def test_soccer_humanoid_adds_team_colour_and_legacy_api_to_the_cmu_humanoid():
    arena = _arena_with_ground()
    walker = soccer_humanoid.SoccerHumanoid(
        name="home0", marker_rgba=soccer_team.RGBA_BLUE, walker_id=3
    )
    walker.create_root_joints(arena.attach(walker))
    physics = Physics.from_spec(arena.spec)
    model = physics.model
    reference_body = cmu_humanoid.CMUHumanoidPositionControlledV2020(name="home0")
    plain = _arena_with_ground()
    plain.add_free_entity(reference_body)
    plain_model = Physics.from_spec(plain.spec).model
    # The body is the CMU humanoid's, unchanged.
    np.testing.assert_array_equal(model.body_mass, plain_model.body_mass)
    assert (model.nq, model.nv, model.nu) == (plain_model.nq, plain_model.nv, plain_model.nu)
    names = [geom.name for geom in walker.marker_geoms]
    assert names[0] == "face" and "rfoot" in names and "ltoes0" in names
    assert names[-1] == "root_geom" and len(names) == len(set(names))
    for geom in walker.marker_geoms:
        np.testing.assert_allclose(
            model.geom_rgba[physics.bind(geom).element_id], (0.1, 0.1, 0.8, 0.7), rtol=1e-6
        )
    assert walker.walker_id == 3 and walker.action_spec.shape == (56,)
    walker.initialize_episode(physics, np.random.RandomState(0))
    walker.apply_action(physics, np.full(56, 0.1), None)
    physics.forward()
    observables = walker.observables
    assert observables.body_height.observation_callable(physics)().shape == ()
    assert observables.end_effectors_pos.observation_callable(physics)().shape == (12,)
    assert observables.actuator_activation.observation_callable(physics)().shape == (56,)
    np.testing.assert_array_equal(
        observables.prev_action.observation_callable(physics)(), np.full(56, 0.1)
    )
    assert observables.veloc_forward.observation_callable(physics)().shape == ()
    with pytest.raises(ValueError, match="walker_id"):
        soccer_humanoid.SoccerHumanoid(walker_id=11)
    with pytest.raises(ValueError, match="marker_rgba"):
        soccer_humanoid.SoccerHumanoid(marker_rgba=(0.1, 0.1, 0.8))


def test_match_entities_resume_from_a_snapshot_bit_for_bit():
    def rollout(env, steps, seed):
        actions = np.random.RandomState(seed).uniform(-1.0, 1.0, size=(steps, 3))
        actions[:, 0] = -1.0  # Roll ahead, into the ball.
        return [env.step(action).observation for action in actions]

    env = composer.Environment(_PitchTask(), random_state=11)
    env.reset()
    rollout(env, 10, 0)
    snapshot = pickle.loads(pickle.dumps(env.snapshot()))
    first = rollout(env, 30, 1)
    task = env.task
    assert task.ball.last_hit is not None  # The walker reached the ball.
    tracking = task.ball.snapshot_state()
    prev_action = task.walker.prev_action
    other = composer.Environment(_PitchTask(), random_state=99)
    other.reset()
    other.restore(snapshot)
    second = rollout(other, 30, 1)
    for left, right in zip(first, second):
        assert left.keys() == right.keys()
        for key in left:
            np.testing.assert_array_equal(left[key], right[key], err_msg=key)
    restored = other.task.ball.snapshot_state()
    assert restored["last_hit"] == tracking["last_hit"]
    assert restored["dist_since_last_hit"] == tracking["dist_since_last_hit"]
    np.testing.assert_array_equal(other.task.walker.prev_action, prev_action)
    assert other.task.root_entity.size == task.root_entity.size


def test_match_entities_are_deterministic_per_seed():
    def trajectory(seed):
        env = composer.Environment(_PitchTask(), random_state=seed)
        env.reset()
        return np.concatenate(
            [
                np.concatenate(
                    [np.ravel(value) for value in env.step([-1.0, 0.3, 0.0]).observation.values()]
                )
                for _ in range(20)
            ]
        )

    np.testing.assert_array_equal(trajectory(4), trajectory(4))
    assert not np.array_equal(trajectory(4), trajectory(5))


@pytest.mark.parametrize("walker_type", sorted(_WALKER_PHYSICS))
def test_soccer_walker_observables_start_disabled_and_group_as_published(walker_type):
    _, walker, _ = _WALKER_PHYSICS[walker_type]()
    observables = walker.observables
    assert not any(item.enabled for item in observables.values())
    published = [
        observables.joints_pos,
        observables.joints_vel,
        observables.body_height,
        observables.end_effectors_pos,
        observables.world_zaxis,
    ]
    if walker_type == "ANT":  # dm_control's Ant adds its feet and bodies, in this order
        published = published[:4] + [
            observables.appendages_pos,
            observables.world_zaxis,
            observables.bodies_quats,
            observables.bodies_pos,
        ]
    assert [item for item in observables.proprioception] == published
    assert observables.kinematic_sensors == [
        observables.sensors_gyro,
        observables.sensors_velocimeter,
        observables.sensors_accelerometer,
    ]


# Rollouts against dm-control 1.0.50 (MuJoCo 3.17 there, 4.0 here: the same
# model gives the same motion up to the engines' numerical differences).
_ROLLOUTS = REFERENCE["rollouts"]


def _on_default_pitch(entity, free=False):
    arena = pitch_module.Pitch()
    if free:
        arena.add_free_entity(entity)
    else:
        entity.create_root_joints(arena.attach(entity))
    arena.spec.option.timestep = 0.005
    return Physics.from_spec(arena.spec)


def test_boxhead_rolls_steers_and_kicks_as_published():
    walker = boxhead.BoxHead(name="walker")
    physics = _on_default_pitch(walker)
    names = ["walker/" + name for name in _ROLLOUTS["boxhead_joint_names"]]
    head = physics.bind(walker.root_body)
    errors = []
    for action, state in zip(_ROLLOUTS["boxhead_actions"], _ROLLOUTS["boxhead"]):
        walker.apply_action(physics, action, None)
        for _ in range(5):
            physics.step()
        qpos = [physics.named.data.qpos[name][0] for name in names]
        errors.append(
            (
                np.max(np.abs(head.xpos - state["head_xpos"])),
                np.max(np.abs(head.xmat - state["head_xmat"])),
                np.max(np.abs(np.subtract(qpos, state["joint_qpos"]))),
            )
        )
    errors = np.array(errors)
    assert np.all(errors[:, 0] < 1e-5), errors[:, 0].max()
    assert np.all(errors[:, 1] < 1e-5), errors[:, 1].max()
    assert np.all(errors[:, 2] < 1e-5), errors[:, 2].max()


def test_ant_settles_as_published():
    walker = ant.Ant(name="walker")
    physics = _on_default_pitch(walker)
    heights = []
    for _ in _ROLLOUTS["ant_torso_height"]:
        for _ in range(5):
            physics.step()
        heights.append(physics.bind(walker.root_body).xpos[2])
    np.testing.assert_allclose(heights, _ROLLOUTS["ant_torso_height"], atol=1e-5)


@pytest.mark.parametrize("kind", ["default", "regulation"])
def test_ball_drops_and_bounces_as_published(kind):
    ball = soccer_ball.SoccerBall() if kind == "default" else soccer_ball.regulation_soccer_ball()
    physics = _on_default_pitch(ball, free=True)
    ball.set_pose(physics, [0.0, 0.0, 1.0])
    heights = []
    for _ in _ROLLOUTS["ball_drop_height"][kind]:
        for _ in range(5):
            physics.step()
        heights.append(physics.bind(ball.geom).xpos[2])
    np.testing.assert_allclose(heights, _ROLLOUTS["ball_drop_height"][kind], atol=1e-5)


def test_ant_moves_each_joint_as_published():
    walker = ant.Ant(name="walker")
    physics = _on_default_pitch(walker)
    for _ in _ROLLOUTS["ant_torso_height"]:
        for _ in range(5):
            physics.step()
    joints = physics.bind(list(walker.observable_joints))
    torso = physics.bind(walker.root_body)
    for action, state in zip(_ROLLOUTS["ant_actions"], _ROLLOUTS["ant"]):
        walker.apply_action(physics, action, None)
        for _ in range(5):
            physics.step()
        np.testing.assert_allclose(joints.qpos, state["joint_qpos"], atol=1e-5)
        np.testing.assert_allclose(torso.xpos, state["torso_xpos"], atol=1e-5)


def test_boxhead_egocentric_camera_sees_the_ball_ahead():
    arena = pitch_module.Pitch()
    walker = boxhead.BoxHead(name="home0", marker_rgba=soccer_team.RGBA_BLUE, walker_id=1)
    walker.create_root_joints(arena.attach(walker))
    ball = soccer_ball.SoccerBall()
    arena.add_free_entity(ball)
    physics = Physics.from_spec(arena.spec)
    # dm_control writes the yaw into the downward steer axis as is: -90 degrees
    # turns the head from facing -y to facing +x.
    quarter_turn = [np.cos(np.pi / 4), 0.0, 0.0, -np.sin(np.pi / 4)]
    walker.set_pose(physics, [0.0, 0.0, 0.0], quarter_turn)  # Facing +x.
    camera = walker.observables.egocentric_camera.observation_callable(physics)

    def ball_pixels(position):
        ball.set_pose(physics, position)
        physics.forward()
        image = camera()
        assert image.shape == (28, 28, 3) and image.dtype == np.uint8
        # The ball's dark panels: near-black pixels (grass, sky and lines are not);
        # antialiasing (physics.render's default, as dm_control's cameras render)
        # lightens the edges of these few-pixel panels.
        return int(np.sum(np.all(image < 60, axis=-1)))

    assert ball_pixels([2.0, 0.0, 0.0]) > 5
    assert ball_pixels([-2.0, 0.0, 0.0]) == 0  # Behind the walker.


def test_position_detector_sites_and_sensors_are_pymjcf_handles():
    detector = pitch_module.position_detector.PositionDetector(pos=(0.0, 0.0), size=(1.0, 1.0))
    sites = (detector.lower_site, detector.mid_site, detector.upper_site)
    sensors = (detector.lower_sensor, detector.mid_sensor, detector.upper_sensor)
    assert all(site.tag == "site" for site in sites)
    assert all(sensor.spec_element.name == sensor.name for sensor in sensors)
