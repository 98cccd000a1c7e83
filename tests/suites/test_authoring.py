"""Writing one's own suite task: `suites.base.Task`, `suites.common`,
`suites.utils.randomizers`, `physics.action_spec` and the cameras of
`composer_tasks.rendering` (their agreement with dm_control is
tests/differential/test_suite_authoring.py)."""

import mujoco
import numpy as np
import pytest

from composer_tasks import physics as physics_lib
from composer_tasks import rewards
from suites import base, common, control, suite
from suites.utils import randomizers

_SLIDER = """
<mujoco>
  <include file="./common/skybox.xml"/>
  <include file="./common/visual.xml"/>
  <include file="./common/materials.xml"/>
  <option timestep="0.01"/>
  <worldbody>
    <light pos="0 0 3"/>
    <geom name="floor" type="plane" size="2 2 .1" material="grid"/>
    <body name="cart" pos="0 0 .1">
      <joint name="slide" type="slide" axis="1 0 0" range="-1 1" limited="true"/>
      <geom name="cart" type="box" size=".1 .1 .05" mass="1" material="self"/>
    </body>
    <camera name="side" pos="0 -2 .5" xyaxes="1 0 0 0 0 1"/>
  </worldbody>
  <actuator>
    <motor name="limited" joint="slide" ctrlrange="-1 1" ctrllimited="true"/>
    <motor name="unlimited" joint="slide"/>
  </actuator>
</mujoco>
"""


class _Slide(base.Task):
    def initialize_episode(self, physics):
        physics.named.data.qpos["slide"] = self.random.uniform(0.4, 0.6)
        super().initialize_episode(physics)

    def get_observation(self, physics):
        return {"x": physics.named.data.qpos["slide"][0]}

    def get_reward(self, physics):
        return rewards.tolerance(physics.named.data.qpos["slide"][0], bounds=(0.4, 0.6))


def _physics():
    return physics_lib.Physics.from_xml_string(_SLIDER, common.ASSETS)


def test_task_random_from_seed_state_or_none():
    assert _Slide(random=3).random.uniform() == np.random.RandomState(3).uniform()
    state = np.random.RandomState(5)
    assert _Slide(random=state).random is state
    assert isinstance(_Slide().random, np.random.RandomState)


def test_task_without_observation_or_reward_cannot_be_made():
    class NoReward(base.Task):
        def get_observation(self, physics):
            return {}

    with pytest.raises(TypeError, match="get_reward"):
        NoReward()


def test_action_spec_bounds_limited_actuators_only():
    physics = _physics()
    spec = _Slide().action_spec(physics)
    assert spec.shape == (2,) and spec.dtype == np.float64 and spec.name is None
    np.testing.assert_array_equal(spec.minimum, [-1.0, -mujoco.mjMAXVAL])
    np.testing.assert_array_equal(spec.maximum, [1.0, mujoco.mjMAXVAL])


def test_before_step_writes_controls_and_reads_continuous_actions():
    physics, task = _physics(), _Slide()
    task.before_step(np.array([0.5, -2.0]), physics)
    np.testing.assert_array_equal(physics.data.ctrl, [0.5, -2.0])

    class Legacy:
        continuous_actions = np.array([-0.25, 3.0])

    task.before_step(Legacy(), physics)
    np.testing.assert_array_equal(physics.data.ctrl, [-0.25, 3.0])


def test_visualize_reward_refuses_a_non_bool_with_value_error():
    with pytest.raises(ValueError, match="visualize_reward must be a bool, got 1"):
        _Slide().visualize_reward = 1
    env = suite.load("cartpole", "balance", task_kwargs={"random": 0})
    with pytest.raises(ValueError, match="got 'yes'"):
        env.task.visualize_reward = "yes"


def test_reward_colours_are_set_at_reset_from_the_model_materials():
    physics, task = _physics(), _Slide(random=0)
    task.visualize_reward = True
    colours = physics.named.model.mat_rgba
    env = control.Environment(physics, task, time_limit=1.0)
    env.reset()
    # The cart starts inside the bounds: reward 1, every material highlighted.
    for name in ("self", "effector", "target"):
        np.testing.assert_array_equal(colours[name], colours[name + "_highlight"])


def test_suite_task_recolours_at_reset_too():
    env = suite.load("point_mass", "easy", task_kwargs={"random": 0}, visualize_reward=True)
    colours = env.physics.named.model.mat_rgba
    colours["self_highlight"] = [0.0, 0.0, 1.0, 1.0]
    env.reset()
    # As in dm_control, the reward is read inside the reset, before its closing
    # forward pass: the mass's position is still the model's initial one, at the
    # target, so the reward is 1 and the colour is the (changed) highlight.
    np.testing.assert_array_equal(colours["self"], [0.0, 0.0, 1.0, 1.0])
    env.step(np.zeros(2))
    assert not np.array_equal(colours["self"], [0.0, 0.0, 1.0, 1.0])


def test_suite_models_carry_the_published_companion_materials():
    env = suite.load("finger", "spin", task_kwargs={"random": 0})
    colours = env.physics.named.model.mat_rgba
    for name in ("self", "effector", "target"):
        np.testing.assert_array_equal(colours[name + "_default"], colours[name])
    np.testing.assert_allclose(colours["self_highlight"], [0.0, 0.5, 0.3, 1.0])
    np.testing.assert_allclose(colours["target_highlight"], [0.6, 0.3, 0.3, 0.4])


def test_read_model_gives_a_complete_model_with_every_shared_material():
    text = common.read_model("cartpole.xml")
    assert isinstance(text, bytes)
    model = mujoco.MjModel.from_xml_string(text.decode())
    assert model.nq == 2 and model.nu == 1
    names = {model.material(i).name for i in range(model.nmat)}
    assert {"self", "self_default", "effector_highlight", "target", "eye", "site"} <= names


def test_read_model_names_what_is_wrong():
    with pytest.raises(FileNotFoundError, match="no suite model file 'nope.xml'"):
        common.read_model("nope.xml")
    with pytest.raises(ValueError, match=r"mjcf_models\.swimmer\.make_spec"):
        common.read_model("swimmer.xml")


def test_assets_give_the_suite_look_to_a_model_of_ones_own():
    model = _physics().model
    assert model.ntex == 2
    assert model.vis.map.znear == pytest.approx(0.01)
    assert model.vis.quality.shadowsize == 2048
    np.testing.assert_allclose(model.material("effector").rgba, [0.7, 0.4, 0.2, 1.0])


_JOINTS = """
<mujoco>
  <worldbody>
    <body name="free" pos="0 0 1"><freejoint name="free"/><geom size=".1"/></body>
    <body name="ball" pos="1 0 0">
      <joint name="ball" type="ball" range="0 30" limited="true"/><geom size=".1"/>
    </body>
    <body name="slides" pos="2 0 0">
      <joint name="slide" type="slide"/>
      <joint name="limited_slide" type="slide" range="0.1 0.2" limited="true"/>
      <geom size=".1"/>
    </body>
  </worldbody>
</mujoco>
"""


def test_randomiser_keeps_positions_and_limits():
    physics = physics_lib.Physics.from_xml_string(_JOINTS)
    qpos = physics.named.data.qpos
    for seed in range(20):
        randomizers.randomize_limited_and_rotational_joints(physics, np.random.RandomState(seed))
        np.testing.assert_array_equal(qpos["free"][:3], [0, 0, 1])
        assert np.all(qpos["free"][3:] >= 0) and np.linalg.norm(qpos["free"][3:]) == pytest.approx(
            1
        )
        # A rotation by at most 30 degrees: w = cos(angle / 2).
        assert qpos["ball"][0] >= np.cos(np.deg2rad(30) / 2) - 1e-12
        assert qpos["slide"][0] == 0.0
        assert 0.1 <= qpos["limited_slide"][0] <= 0.2


def test_limited_quaternion_draws_axis_then_angle():
    quaternion = randomizers.random_limited_quaternion(np.random.RandomState(0), 0.0)
    np.testing.assert_allclose(quaternion, [1.0, 0.0, 0.0, 0.0])
    random = np.random.RandomState(1)
    quaternion = randomizers.random_limited_quaternion(random, 1.0)
    replay = np.random.RandomState(1)
    axis = replay.randn(3)
    angle = replay.rand()
    np.testing.assert_allclose(quaternion[0], np.cos(angle / 2))
    np.testing.assert_allclose(quaternion[1:] / np.sin(angle / 2), axis / np.linalg.norm(axis))


def test_camera_renders_fresh_images_of_every_kind():
    physics = _physics()
    camera = physics_lib.Camera(physics, height=24, width=32, camera_id="side")
    first, second = camera.render(), camera.render()
    assert first.shape == (24, 32, 3) and first.dtype == np.uint8
    assert first is not second and not np.shares_memory(first, second)
    depth = camera.render(depth=True)
    assert depth.shape == (24, 32) and depth.dtype == np.float32 and np.all(depth > 0)
    segmentation = camera.render(segmentation=True)
    assert segmentation.shape == (24, 32, 2) and segmentation.dtype == np.int32
    geoms = {tuple(pair) for pair in segmentation.reshape(-1, 2).tolist()}
    assert (physics.model.geom("cart").id, int(mujoco.mjtObj.mjOBJ_GEOM)) in geoms
    with_text = camera.render(overlays=[physics_lib.TextOverlay("title", "body")])
    assert (with_text != first).any()


def test_camera_refuses_bad_arguments():
    physics = _physics()
    with pytest.raises(ValueError, match="'camera' with name 'nope' does not exist"):
        physics_lib.Camera(physics, camera_id="nope")
    with pytest.raises(ValueError, match="1 fixed cameras"):
        physics_lib.Camera(physics, camera_id=1)
    with pytest.raises(ValueError, match="offscreen"):
        physics_lib.Camera(physics, width=5000)
    with pytest.raises(KeyError, match="style 'bold'"):
        physics_lib.TextOverlay(style="bold")
    camera = physics_lib.Camera(physics, 24, 32)
    with pytest.raises(ValueError, match="not supported with depth or segmentation"):
        camera.render(overlays=[physics_lib.TextOverlay()], depth=True)


def test_movable_camera_pose_round_trips_and_moves_the_matrix():
    physics = _physics()
    camera = physics_lib.MovableCamera(physics, 24, 32)
    before = camera.matrix
    camera.set_pose([0.1, 0.2, 0.3], 2.0, 30.0, -20.0)
    pose = camera.get_pose()
    np.testing.assert_allclose(pose.lookat, [0.1, 0.2, 0.3])
    assert (pose.distance, pose.azimuth, pose.elevation) == (2.0, 30.0, -20.0)
    assert not np.allclose(camera.matrix, before)
    # The look-at point projects to the image centre.
    pixel = camera.matrix @ np.array([0.1, 0.2, 0.3, 1.0])
    np.testing.assert_allclose(pixel[:2] / pixel[2], [15.5, 11.5], atol=1e-6)


def test_named_is_a_named_index_structs():
    physics = _physics()
    assert isinstance(physics.named, physics_lib.NamedIndexStructs)
    assert physics.named.model is physics.named[0]
