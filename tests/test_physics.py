"""Physics: construction, stepping, binding, state, divergence."""

import pickle
import weakref

import mujoco
import numpy as np
import pytest

from composer_tasks.physics import Physics, PhysicsError, array_fields

_PENDULUM = """
<mujoco>
  <option timestep="0.01"/>
  <worldbody>
    <body name="pole">
      <joint name="hinge" axis="0 1 0" damping="0.1"/>
      <geom name="mass" type="sphere" size="0.05" pos="0 0 -0.5" mass="1"/>
    </body>
  </worldbody>
  <actuator><motor name="torque" joint="hinge" ctrlrange="-1 1"/></actuator>
</mujoco>
"""


def _pendulum():
    return Physics.from_xml_string(_PENDULUM)


def test_from_spec_keeps_spec_and_compiles():
    spec = mujoco.MjSpec.from_string(_PENDULUM)
    physics = Physics.from_spec(spec)
    assert physics.spec is spec
    assert physics.model.njnt == 1
    assert physics.timestep() == pytest.approx(0.01)


def test_from_xml_path(tmp_path):
    path = tmp_path / "pendulum.xml"
    path.write_text(_PENDULUM)
    assert Physics.from_xml_path(path).model.nu == 1
    with pytest.raises(FileNotFoundError, match="no MJCF file"):
        Physics.from_xml_path(tmp_path / "missing.xml")


def test_step_matches_mj_step_and_leaves_derived_quantities_current():
    physics = _pendulum()
    physics.data.qpos[0] = 0.3
    physics.forward()  # After writing the state, as reset_context does on exit.
    reference = mujoco.MjData(physics.model)
    reference.qpos[0] = 0.3
    physics.step(7)
    for _ in range(7):
        mujoco.mj_step(physics.model, reference)
    np.testing.assert_array_equal(physics.data.qpos, reference.qpos)
    np.testing.assert_array_equal(physics.data.qvel, reference.qvel)
    assert physics.time() == pytest.approx(0.07)
    # A bare mj_step leaves body poses one substep behind; Physics.step does not.
    mujoco.mj_forward(physics.model, reference)
    np.testing.assert_array_equal(physics.data.xpos, reference.xpos)


def test_reset_context_resets_then_forwards():
    physics = _pendulum()
    physics.data.qpos[0] = 1.0
    physics.step(3)
    with physics.reset_context():
        assert physics.time() == 0.0
        assert physics.data.qpos[0] == 0.0
        physics.data.qpos[0] = 0.5
    # mj_forward ran on exit: the sphere's world position follows the new angle.
    expected_x = -0.5 * np.sin(0.5)
    assert physics.data.geom("mass").xpos[0] == pytest.approx(expected_x)


def test_array_fields_are_the_structs_own_public_arrays():
    physics = _pendulum()
    fields = dict(array_fields(physics.model))
    assert "qpos0" in fields and "body_mass" in fields
    assert not any(name.startswith("_") for name in fields)
    assert all(isinstance(value, np.ndarray) for value in fields.values())
    assert np.shares_memory(fields["body_mass"], physics.model.body_mass)  # views
    assert "opt" not in fields and "nq" not in fields  # structs and sizes are not arrays
    data_fields = dict(array_fields(physics.data))
    assert np.shares_memory(data_fields["qpos"], physics.data.qpos)


def test_bind_single_and_sequence():
    spec = mujoco.MjSpec.from_string(_PENDULUM)
    physics = Physics.from_spec(spec)
    joint = spec.joint("hinge")
    geom = spec.geom("mass")
    physics.bind(joint).qpos = 0.25
    assert physics.data.qpos[0] == 0.25
    assert physics.bind(geom).size[0] == pytest.approx(0.05)
    physics.bind(spec.body("pole")).mass = 2.0
    assert physics.model.body_mass[1] == 2.0
    stacked = physics.bind([joint, joint])
    np.testing.assert_array_equal(stacked.qpos, [0.25, 0.25])
    with pytest.raises(AttributeError, match="no_such_attribute"):
        physics.bind(joint).no_such_attribute


def test_element_ids_are_resolved_once_per_model():
    spec = mujoco.MjSpec.from_string(_PENDULUM)
    second = spec.body("pole").add_body(name="tip", pos=[0, 0, -0.5])
    second.add_joint(name="tip_hinge", axis=[0, 1, 0])
    second.add_geom(type=mujoco.mjtGeom.mjGEOM_SPHERE, size=[0.02], mass=0.1)
    physics = Physics.from_spec(spec)
    joints = [spec.joint("tip_hinge"), spec.joint("hinge")]
    ids = physics.element_ids(joints)
    np.testing.assert_array_equal(ids, [1, 0])
    assert ids.dtype == np.int64
    assert physics.element_ids(tuple(joints)) is ids  # Cached, list or tuple alike.
    with pytest.raises(ValueError, match="read-only"):
        ids[0] = 5
    # A recompile that removes the joint in front gives new ids, not the cached ones.
    tip_only = [spec.joint("tip_hinge")]
    np.testing.assert_array_equal(physics.element_ids(tip_only), [1])
    spec.delete(spec.actuator("torque"))
    spec.delete(spec.joint("hinge"))
    physics.recompile()
    np.testing.assert_array_equal(physics.element_ids(tip_only), [0])
    # An element of another spec is refused, as bind refuses it.
    other = mujoco.MjSpec.from_string(_PENDULUM)
    with pytest.raises(Exception) as refused:
        physics.bind(other.joint("hinge"))
    with pytest.raises(type(refused.value)):
        physics.element_ids([other.joint("hinge")])


def test_sensordata_alias():
    spec = mujoco.MjSpec.from_string(_PENDULUM)
    sensor = spec.add_sensor(
        name="angle",
        type=mujoco.mjtSensor.mjSENS_JOINTPOS,
        objtype=mujoco.mjtObj.mjOBJ_JOINT,
        objname="hinge",
    )
    physics = Physics.from_spec(spec)
    physics.data.qpos[0] = 0.4
    physics.forward()
    assert physics.bind(sensor).sensordata[0] == pytest.approx(0.4)


def test_get_set_full_state_round_trip_and_bad_shape():
    physics = _pendulum()
    physics.data.qpos[0] = 0.7
    physics.data.ctrl[0] = 0.5
    physics.step(5)
    state = physics.get_full_state()
    physics.step(5)
    after = physics.data.qpos.copy()
    physics.set_full_state(state)
    physics.step(5)
    np.testing.assert_array_equal(physics.data.qpos, after)
    with pytest.raises(ValueError, match="state must have shape"):
        physics.set_full_state(state[:-1])


def test_get_state_is_qpos_qvel_act_and_set_state_recomputes_nothing():
    physics = _pendulum()
    physics.data.qpos[0] = 0.7
    physics.data.qvel[0] = -0.2
    physics.forward()
    state = physics.get_state()
    np.testing.assert_array_equal(state, [0.7, -0.2])
    np.testing.assert_array_equal(physics.state(), state)
    xpos = physics.data.geom_xpos.copy()
    physics.set_state(np.array([0.1, 0.3]))
    np.testing.assert_array_equal(physics.position(), [0.1])
    np.testing.assert_array_equal(physics.velocity(), [0.3])
    np.testing.assert_array_equal(physics.data.geom_xpos, xpos)  # as dm_control: no forward
    with pytest.raises(ValueError, match=r"state must have shape \(2,\)"):
        physics.set_state(state[:-1])
    integration = physics.get_state(sig=mujoco.mjtState.mjSTATE_INTEGRATION)
    np.testing.assert_array_equal(integration, physics.get_full_state())
    physics.set_state(integration, sig=mujoco.mjtState.mjSTATE_INTEGRATION)
    # MuJoCo's mj_setState raises TypeError for a wrong size; dm_control passes it on.
    with pytest.raises(TypeError, match="for this model and sig"):
        physics.set_state(integration[:-1], sig=mujoco.mjtState.mjSTATE_INTEGRATION)


def test_copy_is_independent():
    physics = _pendulum()
    physics.data.qpos[0] = 0.2
    clone = physics.copy()
    clone.step(10)
    assert physics.time() == 0.0
    assert clone.model is not physics.model  # dm_control copies the model by default
    assert physics.copy(share_model=True).model is physics.model
    assert clone.data.geom_xpos[0, 0] != 0.0  # forwarded, as dm_control's copy is


def test_recompile_keeps_state():
    spec = mujoco.MjSpec.from_string(_PENDULUM)
    physics = Physics.from_spec(spec)
    physics.data.qpos[0] = 0.3
    physics.step(4)
    qpos, time = physics.data.qpos.copy(), physics.time()
    spec.geom("mass").size = [0.1, 0.0, 0.0]
    physics.recompile()
    assert physics.model.geom_size[0, 0] == pytest.approx(0.1)
    np.testing.assert_array_equal(physics.data.qpos, qpos)
    assert physics.time() == time


def test_divergence_raises_physics_error_with_warning_text():
    physics = _pendulum()
    physics.data.qvel[0] = np.nan
    with pytest.raises(PhysicsError, match=r"(?i)t=0.*(nan|inf|unstable|qvel|qacc)"):
        physics.step()


def test_physics_error_after_reset_is_raised_again():
    physics = _pendulum()
    physics.data.qvel[0] = np.nan
    with pytest.raises(PhysicsError):
        physics.step()
    physics.reset()
    physics.step()  # A healthy step after a reset raises nothing.
    physics.data.qpos[0] = np.inf
    with pytest.raises(PhysicsError):
        physics.step()


def test_render_errors_name_the_camera():
    physics = _pendulum()
    with pytest.raises(ValueError, match="'camera' with name 'nope' does not exist"):
        physics.render(camera_id="nope")
    with pytest.raises(ValueError, match="out of range"):
        physics.render(camera_id=3)
    with pytest.raises(ValueError, match="`segmentation` and `depth` cannot both be `True`"):
        physics.render(depth=True, segmentation=True)


def test_constructor_type_errors():
    with pytest.raises(TypeError, match="MjModel"):
        Physics("not a model")
    with pytest.raises(TypeError, match="MjSpec"):
        Physics.from_spec("<mujoco/>")


def test_upload_hfield_checks_the_id():
    physics = Physics.from_xml_string(
        '<mujoco><asset><hfield name="h" nrow="4" ncol="4" size="1 1 1 0.1"/></asset>'
        '<worldbody><geom type="hfield" hfield="h"/></worldbody></mujoco>'
    )
    physics.upload_hfield(0)  # No renderer yet: nothing to re-upload.
    with pytest.raises(ValueError, match="hfield_id 1 out of range"):
        physics.upload_hfield(1)


def test_steps_pause_the_stage_timers_unless_asked():
    from composer_tasks import physics as physics_module

    clock = physics_module._ENGINE_TIMER
    if clock is None or clock.value is None:
        pytest.skip("MuJoCo's stage-timer clock is not reachable or not installed here")
    saved = clock.value
    physics = physics_module.Physics(
        mujoco.MjModel.from_xml_string(
            "<mujoco><worldbody><body><freejoint/><geom size='0.1'/></body></worldbody></mujoco>"
        )
    )
    step_timer = physics.data.timer[mujoco.mjtTimer.mjTIMER_STEP]
    physics.step(3)
    assert step_timer.duration == 0.0 and clock.value == saved
    physics.time_stages = True
    physics.step(3)
    assert step_timer.duration > 0.0 and clock.value == saved


def _overlapping_boxes(count=40, memory_bytes=1_000_000):
    """`count` free boxes all at one place: their contacts overflow a small arena."""
    spec = mujoco.MjSpec()
    spec.memory = memory_bytes
    for _ in range(count):
        body = spec.worldbody.add_body(pos=[0.0, 0.0, 0.1])
        body.add_freejoint()
        body.add_geom(type=mujoco.mjtGeom.mjGEOM_BOX, size=[0.1, 0.1, 0.1])
    return spec


def test_warnings_of_a_default_or_probed_state_are_not_raised_but_a_chosen_one_is():
    # The model's default state (bodies overlapping until an episode places them)
    # compiles and resets without error; a probe may overflow the contact buffer.
    physics = Physics.from_spec(_overlapping_boxes())
    physics.forward(check_warnings=False)
    with pytest.raises(PhysicsError, match="Too many contacts"):
        physics.forward()
    with pytest.raises(PhysicsError, match="Too many contacts"):
        with physics.reset_context():
            pass  # nothing placed: the state the episode starts from overflows
    with physics.reset_context():
        for index in range(physics.model.nbody - 1):
            physics.data.qpos[7 * index : 7 * index + 3] = [index * 0.5, 0.0, 0.1]
    assert physics.data.ncon == 0


_FRAMES = """
<mujoco>
  <worldbody>
    <body name="arm" pos="0 0 1">
      <joint name="hinge" axis="0 1 0"/>
      <geom name="rod" type="capsule" fromto="0 0 0 0.5 0 0" size="0.05"/>
      <site name="tip" pos="0.5 0 0"/>
    </body>
  </worldbody>
  <actuator><motor name="torque" joint="hinge"/></actuator>
</mujoco>
"""


def test_bind_of_spec_elements_marks_dirty_and_forwards_on_a_derived_read():
    spec = mujoco.MjSpec.from_string(_FRAMES)
    physics = Physics.from_spec(spec)
    tip = physics.bind(spec.site("tip"))
    before = tip.xpos.copy()
    physics.bind(spec.joint("hinge")).qpos = np.pi / 2
    assert physics.is_dirty
    assert physics.data.site_xpos[0].tolist() == before.tolist()  # raw data: stale
    np.testing.assert_allclose(physics.bind(spec.site("tip")).xpos, [0.0, 0.0, 0.5], atol=1e-12)
    assert not physics.is_dirty
    physics.bind(spec.joint("hinge")).qpos[0] = 0.0  # an item write marks dirty too
    assert physics.is_dirty
    np.testing.assert_allclose(tip.xpos, [0.5, 0.0, 1.0], atol=1e-12)
    physics.bind(spec.actuator("torque")).ctrl = 1.0
    physics.step()
    assert physics.is_dirty  # step leaves the flag, as dm_control's
    assert physics.bind(spec.joint("hinge")).id == 0 and physics.is_dirty  # ids never forward
    physics.bind(spec.geom("rod")).rgba = [1, 0, 0, 1]
    physics.forward()
    physics.bind(spec.geom("rod")).rgba = [0, 1, 0, 1]
    assert not physics.is_dirty  # colours do not change the dynamics


def test_bind_of_spec_elements_zeroes_sameframe_on_frame_writes():
    spec = mujoco.MjSpec.from_string(_FRAMES)
    physics = Physics.from_spec(spec)
    site = physics.bind(spec.site("tip"))
    physics.bind(spec.body("arm")).pos = [0.0, 0.0, 2.0]
    assert physics.model.body_sameframe[1] == 0
    site.quat[...] = [0.0, 1.0, 0.0, 0.0]
    assert physics.model.site_sameframe[0] == 0
    physics.bind(spec.body("arm")).ipos = [0.1, 0.0, 0.0]
    assert physics.model.body_simple[1] == 0


def test_bound_arrays_compute_plain_arrays():
    spec = mujoco.MjSpec.from_string(_FRAMES)
    physics = Physics.from_spec(spec)
    doubled = physics.bind(spec.site("tip")).xpos * 2
    assert type(doubled) is np.ndarray
    assert type(physics.bind(spec.site("tip")).xpos.copy()) is np.ndarray


def test_model_and_data_are_mujocos_structs_with_dm_controls_methods():
    physics = _pendulum()
    assert type(physics.model) is mujoco.MjModel and physics.model.ptr is physics.model
    assert type(physics.data) is mujoco.MjData and physics.data.ptr is physics.data
    assert physics.model.name2id("hinge", "joint") == 0
    assert physics.model.name2id("hinge", mujoco.mjtObj.mjOBJ_JOINT) == 0
    with pytest.raises(ValueError, match="'nope' is not a valid object type name"):
        physics.model.name2id("hinge", "nope")
    assert physics.model.id2name(0, "joint") == "hinge"
    with pytest.raises(ValueError, match="name 'missing' does not exist"):
        physics.model.name2id("missing", "joint")
    with physics.model.disable("gravity", mujoco.mjtDisableBit.mjDSBL_CONTACT):
        assert physics.model.opt.disableflags & mujoco.mjtDisableBit.mjDSBL_GRAVITY
    assert physics.model.opt.disableflags == 0
    with pytest.raises(ValueError, match="'weightless' is not a valid flag name"):
        with physics.model.disable("weightless"):
            pass
    with pytest.raises(ValueError, match=r"contact_id must be in \[0, -1\]"):
        physics.data.contact_force(0)


def test_constructors_from_binaries_and_reloads(tmp_path):
    physics = _pendulum()
    binary = physics.model.to_bytes()
    assert Physics.from_byte_string(binary).model.nu == 1
    with pytest.raises(TypeError, match="byte_string must be bytes"):
        Physics.from_byte_string("not bytes")
    path = tmp_path / "pendulum.mjb"
    physics.model.save_binary(str(path))
    assert Physics.from_binary_path(path).model.njnt == 1
    with pytest.raises(FileNotFoundError, match="no MJB file"):
        Physics.from_binary_path(tmp_path / "missing.mjb")
    physics.step(3)
    physics.reload_from_xml_string(_PENDULUM.replace('timestep="0.01"', 'timestep="0.02"'))
    assert physics.time() == 0.0 and physics.timestep() == pytest.approx(0.02)
    with pytest.raises(FileNotFoundError, match="no MJCF file"):
        physics.reload_from_xml_path(tmp_path / "missing.xml")


def test_reset_forwards_without_actuation_and_checks_the_keyframe():
    physics = _pendulum()
    with physics.reset_context():
        physics.data.ctrl[0] = 1.0
    assert physics.data.actuator_force[0] == 0.0  # after_reset: actuation disabled
    physics.forward()
    assert physics.data.actuator_force[0] == 1.0
    with pytest.raises(
        ValueError, match=r"`keyframe_id` must be between 0 and -1 inclusive, got: 0"
    ):
        physics.reset(keyframe_id=0)


def test_warnings_are_logged_within_suppress_physics_errors(caplog):
    physics = _pendulum()
    with physics.suppress_physics_errors():
        physics.data.qvel[0] = np.nan
        physics.step()
    assert "physics diverged" in caplog.text
    physics.reset()
    physics.data.qvel[0] = np.inf
    with pytest.raises(PhysicsError):
        with physics.check_invalid_state():
            mujoco.mj_step(physics.model, physics.data)


def test_depth_is_the_distance_along_the_camera_axis():
    physics = Physics.from_xml_string(
        """
        <mujoco>
          <worldbody>
            <camera name="down" pos="0 0 2" xyaxes="1 0 0 0 1 0"/>
            <geom type="plane" size="5 5 .1"/>
          </worldbody>
        </mujoco>
        """
    )
    depth = physics.render(height=32, width=32, camera_id="down", depth=True)
    assert depth.dtype == np.float32 and depth.shape == (32, 32)
    np.testing.assert_allclose(depth, 2.0, rtol=1e-5)


def test_render_flag_overrides_are_checked_and_restored():
    physics = Physics.from_xml_string(_PENDULUM)
    flags = physics.render(16, 16, render_flag_overrides={"wireframe": True})
    assert flags.shape == (16, 16, 3)
    renderer = next(iter(physics._renderers.values()))
    assert not renderer.scene.flags[mujoco.mjtRndFlag.mjRND_WIREFRAME]  # restored
    with pytest.raises(ValueError, match="'sketchy' is not a rendering flag"):
        physics.render(16, 16, render_flag_overrides={"sketchy": True})
    with pytest.raises(ValueError, match="99 is not a mujoco.mjtRndFlag"):
        physics.render(16, 16, render_flag_overrides={99: True})
    with pytest.raises(ValueError, match="not supported for depth or segmentation"):
        physics.render(16, 16, depth=True, render_flag_overrides={"wireframe": True})


def test_pickling_keeps_the_state_and_forwards():
    physics = _pendulum()
    physics.data.qpos[0] = 0.4
    clone = pickle.loads(pickle.dumps(physics))
    np.testing.assert_array_equal(clone.data.qpos, [0.4])
    assert clone.data.geom_xpos[0, 0] == pytest.approx(-0.5 * np.sin(0.4))
    assert clone.spec is None


def test_xml_with_included_assets_compiles_without_a_spec():
    main = '<mujoco><include file="body.xml"/></mujoco>'
    included = b'<mujoco><worldbody><body><joint/><geom size=".1"/></body></worldbody></mujoco>'
    physics = Physics.from_xml_string(main, assets={"body.xml": included})
    assert physics.model.njnt == 1 and physics.spec is None
    with pytest.raises(ValueError, match="XML Error"):
        Physics.from_xml_string(main)


def test_physics_of_one_mjdata_is_dm_controls_form():
    model = mujoco.MjModel.from_xml_string(_PENDULUM)
    data = mujoco.MjData(model)
    data.qpos[0] = 0.3
    data.ctrl[0] = 1.0
    physics = Physics(data)
    assert physics.data is data and physics.model is data.model
    assert physics.data.geom_xpos[0, 0] == pytest.approx(-0.5 * np.sin(0.3))  # forwarded
    assert physics.data.actuator_force[0] == 0.0  # with actuation disabled


def test_bindings_do_not_keep_their_physics_alive():
    spec = mujoco.MjSpec.from_string(_FRAMES)
    physics = Physics.from_spec(spec)
    physics.bind(spec.joint("hinge")).qpos = 0.2
    position = physics.bind(spec.site("tip")).xpos
    reference = weakref.ref(physics)
    del physics
    assert reference() is None  # freed by reference counting, no collection needed
    assert position.shape == (3,)
