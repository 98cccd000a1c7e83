"""The suite's Physics (`dm_control.mujoco.engine`) and the wrapper's visualisation
structs against dm_control's: the messages of its errors (which dm_control's own
engine_test matches word for word), the default scene options of a render (no
rangefinder rays), `wrapper.MjvOption`/`MjvScene`/`MjvCamera`/`MjvFigure`, and
`mjcf.physics.Binding` built by name."""

import pytest

# Messages are compared with the bound array's class name taken out (dm_control's is
# SynchronizingArrayWrapper, the same name here).
ENGINE = """import pickle
import numpy as np
import mujoco
from dm_control import mjcf
from dm_control.mjcf import physics as mjcf_physics
from dm_control.mujoco import engine
from dm_control.mujoco import wrapper
from dm_control.mujoco.wrapper.mjbindings import enums

def message(function, *args, **kwargs):
    try:
        function(*args, **kwargs)
    except Exception as error:
        return type(error).__name__ + ": " + str(error)
    return "no error"

XML = '''
<mujoco model="engine">
  <worldbody>
    <light name="top" pos="0 0 3"/>
    <camera name="cam" pos="0 -2 1" xyaxes="1 0 0 0 0.5 1"/>
    <geom name="floor" type="plane" size="2 2 .1"/>
    <geom name="wall" type="box" pos="1.2 0.3 0.5" size="0.05 0.5 0.5"/>
    <body name="arm" pos="0 0 0.5">
      <joint name="hip" axis="0 1 0"/>
      <geom name="arm" type="capsule" fromto="0 0 0 0.4 0 0" size="0.05"/>
      <site name="eye" pos="0.4 0 0" zaxis="1 0 0"/>
      <body name="fore" pos="0.4 0 0">
        <joint name="knee" axis="0 1 0"/>
        <geom name="fore" type="capsule" fromto="0 0 0 0.3 0 0" size="0.04"/>
      </body>
    </body>
  </worldbody>
  <actuator><motor name="hip" joint="hip"/></actuator>
  <sensor><rangefinder name="range" site="eye"/></sensor>
  <keyframe><key name="bent" qpos="0.3 0.2"/></keyframe>
</mujoco>
'''
physics = engine.Physics.from_xml_string(XML)
record("keyframe_message", message(physics.reset, keyframe_id=4))
record("keyframe_message_negative", message(physics.reset, keyframe_id=-1))
record("state_items", len(physics._physics_state_items()))
record("both_message", message(physics.render, 16, 16, depth=True, segmentation=True))
overlay = engine.TextOverlay(title="t")
record("overlay_message", message(physics.render, 16, 16, depth=True, overlays=[overlay]))
record(
    "flags_message",
    message(physics.render, 16, 16, segmentation=True, render_flag_overrides={"wireframe": True}),
)
# dm_control checks overlays first, then flag overrides, then depth with segmentation.
record(
    "order_message",
    message(
        physics.render, 16, 16, depth=True, segmentation=True, overlays=[overlay],
        render_flag_overrides={"wireframe": True},
    ),
)
for name in (
    "_BOTH_SEGMENTATION_AND_DEPTH_ENABLED",
    "_OVERLAYS_NOT_SUPPORTED_FOR_DEPTH_OR_SEGMENTATION",
    "_RENDER_FLAG_OVERRIDES_NOT_SUPPORTED_FOR_DEPTH_OR_SEGMENTATION",
    "_KEYFRAME_ID_OUT_OF_RANGE",
    "_INVALID_PHYSICS_STATE",
):
    record("constant/" + name, getattr(engine, name))
record("constant/_PICKLING_NOT_SUPPORTED", mjcf_physics._PICKLING_NOT_SUPPORTED)

def raise_warning(index):
    with physics.check_invalid_state():
        physics.data.warning[index].number += 1
record("invalid_state_message", message(raise_warning, enums.mjtWarning.mjWARN_BADCTRL))
def raise_two():
    with physics.check_invalid_state():
        physics.data.warning[enums.mjtWarning.mjWARN_BADQACC].number += 1
        physics.data.warning[enums.mjtWarning.mjWARN_INERTIA].number += 1
record("invalid_state_two", message(raise_two))
with physics.check_invalid_state():
    pass
record("no_new_warning", "ok")

# Rangefinder rays are not drawn by default (dm_control's wrapper.MjvOption).
option = wrapper.MjvOption()
record("option/rangefinder", bool(option.flags[enums.mjtVisFlag.mjVIS_RANGEFINDER]))
record("option/segment_label_flags", option.flags[:8].astype(int))
record("option/frame", int(option.frame))
record("option/ptr_is_self", option.ptr is option)
physics.reset(keyframe_id=0)
default = physics.render(96, 128, camera_id="cam")
explicit = physics.render(96, 128, camera_id="cam", scene_option=wrapper.MjvOption())
record("render/default_is_wrapper_option", bool(np.array_equal(default, explicit)))
rays = wrapper.MjvOption()
rays.flags[enums.mjtVisFlag.mjVIS_RANGEFINDER] = True
with_rays = physics.render(96, 128, camera_id="cam", scene_option=rays)
record("render/rays_drawn", bool(np.any(with_rays != default)))
camera = engine.Camera(physics, 48, 64, camera_id="cam")
record("camera/option_rangefinder", bool(camera.option.flags[enums.mjtVisFlag.mjVIS_RANGEFINDER]))

scene = wrapper.MjvScene(physics.model)
record("scene/maxgeom", scene.maxgeom)
record("scene/ngeom", scene.ngeom)
record("scene/geoms_len", len(scene.geoms))
mujoco.mjv_updateScene(
    physics.model.ptr, physics.data.ptr, option, None, wrapper.MjvCamera(),
    enums.mjtCatBit.mjCAT_ALL, scene,
)
record("scene/updated_geoms_len", len(scene.geoms) == scene.ngeom)
record("scene/small_maxgeom", wrapper.MjvScene(physics.model, max_geom=7).maxgeom)
record("scene/empty_maxgeom", wrapper.MjvScene().maxgeom)
with scene.override_flags({"wireframe": True, enums.mjtRndFlag.mjRND_SHADOW: False}):
    record("scene/override_inside", scene.flags[:5].astype(int))
record("scene/override_after", scene.flags[:5].astype(int))
scene.free()
free_camera = wrapper.MjvCamera()
free_camera.type_ = enums.mjtCamera.mjCAMERA_FIXED
record("camera/type", int(free_camera.type))
figure = wrapper.MjvFigure()
record("figure/range", np.array(figure.range_))
record("perturb/ptr_is_self", wrapper.MjvPerturb().ptr is not None)

model = mjcf.RootElement(model="arm")
body = model.worldbody.add("body", name="upper")
hip = body.add("joint", name="hip", type="hinge")
knee = body.add("joint", name="knee", type="hinge", axis=[1, 0, 0])
body.add("geom", name="g", type="sphere", size=[0.1])
arm = mjcf.Physics.from_mjcf_model(model)
record("binding/bad_namespace", message(mjcf_physics.Binding, arm, "invalid_namespace", "x"))
one = mjcf_physics.Binding(arm, "joint", "hip")
one.qpos = 0.4
record("binding/one_qpos", np.array(one.qpos))
record("binding/one_id", one.element_id)
both = mjcf_physics.Binding(arm, "joint", ["knee", "hip"])
record("binding/both_qpos", np.array(both.qpos))
record("binding/both_ids", both.element_id)
record("binding/dirty", arm.is_dirty)
record("binding/bad_attribute", "does not have attribute" in message(lambda: one.nonsense))
xpos = arm.bind(body).xpos
record("pickle_message", message(pickle.dumps, xpos).replace(str(type(xpos)), "TYPE"))
"""


@pytest.mark.dm_control_api(
    "mujoco.engine.Physics.render",
    "mujoco.engine.Physics.reset",
    "mujoco.engine.Physics.check_invalid_state",
    "mujoco.engine.Camera.option",
    "mjcf.Physics.bind",
)
def test_engine_messages_scene_options_and_wrapper_structs_match(differential):
    differential.assert_same(ENGINE, "physics_engine", rtol=1e-12, atol=1e-12)
