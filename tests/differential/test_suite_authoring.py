"""Writing one's own Control Suite task as dm_control's users do, against dm_control:
a `mujoco.Physics` subclass with named quantities, a `suite.base.Task` subclass run by
`rl.control.Environment`, a simulation of one's own behind `rl.control.Physics`, the
suite's model files and shared assets (`suite.common`), the joint randomiser, the
reward colours, cameras and text overlays (`mujoco.Camera`, `MovableCamera`,
`TextOverlay`), and the types (NumPy scalar, Python float, 0-d array) of the suite's
physics quantities, observations and rewards."""

import pytest

CUSTOM_TASK_PROGRAM = """
import numpy as np
from dm_control import mujoco
from dm_control.rl import control
from dm_control.suite import base
from dm_control.utils import rewards

XML = '''
<mujoco model="slider">
  <option timestep="0.01"/>
  <worldbody>
    <light pos="0 0 3"/>
    <geom name="floor" type="plane" size="2 2 .1"/>
    <body name="cart" pos="0 0 .1">
      <joint name="slide" type="slide" axis="1 0 0" range="-1 1" limited="true" damping="0.1"/>
      <geom name="cart" type="box" size=".1 .1 .05" mass="1"/>
    </body>
  </worldbody>
  <actuator>
    <motor name="push" joint="slide" gear="5" ctrlrange="-1 1" ctrllimited="true"/>
    <motor name="free_push" joint="slide" gear="1"/>
  </actuator>
</mujoco>
'''

def kind(value):
    return type(value).__name__


class Physics(mujoco.Physics):
    def cart_x(self):
        return self.named.data.qpos["slide"][0]


class Slide(base.Task):
    def initialize_episode(self, physics):
        physics.named.data.qpos["slide"] = self.random.uniform(-0.5, 0.5)
        super().initialize_episode(physics)

    def get_observation(self, physics):
        return {"position": physics.position(), "velocity": physics.velocity(),
                "x": physics.cart_x()}

    def get_reward(self, physics):
        return rewards.tolerance(physics.cart_x(), bounds=(0.4, 0.6), margin=0.5)

    def get_termination(self, physics):
        if physics.time() > 0.5:
            return 0.0


physics = Physics.from_xml_string(XML)
task = Slide(random=7)
record("random_type", kind(task.random))
record("random_from_state", Slide(random=np.random.RandomState(3)).random.uniform())
env = control.Environment(physics, task, time_limit=2.0, control_timestep=0.02)
record("action_spec", env.action_spec())
record("mujoco_action_spec", mujoco.action_spec(physics))
record("observation_spec", env.observation_spec())
record("physics_is_env_physics", env.physics is physics)
record("task_is_env_task", env.task is task)
check("step_spec", env.step_spec)
timestep = env.reset()
record("reset", [int(timestep.step_type), timestep.reward, timestep.discount])
record("obs0", timestep.observation)
record("obs0_types", {k: kind(v) for k, v in timestep.observation.items()})
steps = 0
while not timestep.last():
    timestep = env.step(np.array([0.7, 0.1]))
    steps += 1
    record(f"step{steps}", [timestep.reward, timestep.discount, timestep.observation])
record("steps", steps)
record("reward_type", kind(timestep.reward))
record("control", physics.control())
record("time", physics.time())
record("state", physics.get_state())
record("control_timestep", env.control_timestep())
record("after_last", int(env.step(np.zeros(2)).step_type))

# Physics steps per control step, and the episode length in float time.
env = control.Environment(Physics.from_xml_string(XML), Slide(random=1), n_sub_steps=3,
                          time_limit=0.25)
env.reset()
count = 0
while not env.step(np.zeros(2)).last():
    count += 1
record("n_sub_steps_episode", [count, env.physics.time(), env.control_timestep()])
check("both_timesteps", control.Environment, Physics.from_xml_string(XML), Slide(),
      control_timestep=0.02, n_sub_steps=2)
record("compute_n_steps", control.compute_n_steps(0.1, 0.005))
check("compute_n_steps_not_multiple", control.compute_n_steps, 0.011, 0.005)
check("compute_n_steps_too_short", control.compute_n_steps, 0.001, 0.005)

# flat observations: an OrderedDict keeps its order, a dict is sorted by key.
env = control.Environment(Physics.from_xml_string(XML), Slide(random=7), time_limit=1.0,
                          flat_observation=True)
timestep = env.reset()
record("flat", timestep.observation)
record("flat_spec", env.observation_spec())
record("flat_key", control.FLAT_OBSERVATION_KEY)
import collections
ordered = collections.OrderedDict([("b", np.arange(3.0)), ("a", np.float64(7.0))])
record("flatten_ordered", control.flatten_observation(ordered))
record("flatten_dict", control.flatten_observation({"b": np.arange(3.0), "a": np.ones((2, 2))}))
record("flatten_key", control.flatten_observation({"b": np.float64(1.0)}, output_key="k"))
check("flatten_list", control.flatten_observation, [1.0])

# base.Task's controls and the legacy `continuous_actions` attribute.
physics = Physics.from_xml_string(XML)
task = Slide(random=0)
task.before_step(np.array([0.25, -3.0]), physics)
record("before_step", physics.control())
class Legacy:
    continuous_actions = np.array([-0.5, 2.0])
task.before_step(Legacy(), physics)
record("before_step_legacy", physics.control())
record("legacy_step_default", control.Physics.legacy_step)
env = control.Environment(physics, task, legacy_step=False)
record("legacy_step_set", physics.legacy_step)
record("physics_error", [issubclass(control.PhysicsError, RuntimeError),
                         control.PhysicsError.__name__])
"""

OWN_PHYSICS_PROGRAM = """
import numpy as np
from dm_control.rl import control
from dm_env import specs


class PointPhysics(control.Physics):
    \"\"\"A point on a line, integrated by hand: no MuJoCo.\"\"\"

    def __init__(self):
        self.position, self.velocity, self.force, self.elapsed = 0.0, 0.0, 0.0, 0.0
        self.calls = []

    def step(self, n_sub_steps=1):
        self.calls.append(("step", n_sub_steps))
        for _ in range(n_sub_steps):
            self.velocity += 0.1 * self.force
            self.position += 0.1 * self.velocity
            self.elapsed += 0.1

    def time(self):
        return self.elapsed

    def timestep(self):
        return 0.1

    def set_control(self, control):
        self.force = float(control[0])

    def reset(self):
        self.calls.append(("reset",))
        self.position, self.velocity, self.elapsed = 0.0, 0.0, 0.0

    def after_reset(self):
        self.calls.append(("after_reset",))

    def check_divergence(self):
        self.calls.append(("check_divergence",))


class Push(control.Task):
    def __init__(self):
        self.calls = []

    def initialize_episode(self, physics):
        self.calls.append("initialize_episode")
        physics.position = 1.0

    def before_step(self, action, physics):
        self.calls.append("before_step")
        physics.set_control(action)

    def after_step(self, physics):
        self.calls.append("after_step")
        super().after_step(physics)

    def action_spec(self, physics):
        return specs.BoundedArray((1,), float, -1.0, 1.0)

    def get_observation(self, physics):
        self.calls.append("get_observation")
        return {"position": np.array([physics.position]), "velocity": np.float64(physics.velocity)}

    def get_reward(self, physics):
        self.calls.append("get_reward")
        return -abs(physics.position)

    def get_termination(self, physics):
        self.calls.append("get_termination")
        return super().get_termination(physics)


physics, task = PointPhysics(), Push()
env = control.Environment(physics, task, time_limit=1.0, n_sub_steps=2)
timestep = env.reset()
record("reset_obs", timestep.observation)
record("spec", env.observation_spec())
check("task_observation_spec", task.observation_spec, physics)
check("task_step_spec", task.step_spec, physics)
check("physics_set_control_base", control.Physics.set_control, physics, [0.0])
for i in range(6):
    timestep = env.step(np.array([0.5]))
    record(f"step{i}", [int(timestep.step_type), timestep.reward, timestep.discount,
                        timestep.observation])
record("physics_calls", physics.calls)
record("task_calls", task.calls)
with physics.reset_context() as yielded:
    record("reset_context_yields", yielded is physics)
record("calls_after_context", physics.calls[-2:])
record("time", [physics.time(), physics.timestep(), env.control_timestep()])
control.Physics.check_divergence(physics)
record("base_check_divergence", "returned")
"""


@pytest.mark.dm_control_api(
    "suite.base.Task",
    "suite.base.Task.action_spec",
    "suite.base.Task.before_step",
    "suite.base.Task.initialize_episode",
    "suite.base.Task.random",
    "mujoco.engine.action_spec",
    "rl.control.Environment",
    "rl.control.Environment.action_spec",
    "rl.control.Environment.control_timestep",
    "rl.control.Environment.observation_spec",
    "rl.control.Environment.physics",
    "rl.control.Environment.reset",
    "rl.control.Environment.step",
    "rl.control.Environment.step_spec",
    "rl.control.Environment.task",
    "rl.control.FLAT_OBSERVATION_KEY",
    "rl.control.PhysicsError",
    "rl.control.Physics.legacy_step",
    "rl.control.compute_n_steps",
    "rl.control.flatten_observation",
)
def test_own_suite_task_runs_as_in_dm_control(differential):
    differential.assert_same(CUSTOM_TASK_PROGRAM, "suite_authoring_task")


@pytest.mark.dm_control_api(
    "rl.control.Physics",
    "rl.control.Physics.after_reset",
    "rl.control.Physics.check_divergence",
    "rl.control.Physics.reset",
    "rl.control.Physics.reset_context",
    "rl.control.Physics.set_control",
    "rl.control.Physics.step",
    "rl.control.Physics.time",
    "rl.control.Physics.timestep",
    "rl.control.Task",
    "rl.control.Task.action_spec",
    "rl.control.Task.after_step",
    "rl.control.Task.before_step",
    "rl.control.Task.get_observation",
    "rl.control.Task.get_reward",
    "rl.control.Task.get_termination",
    "rl.control.Task.initialize_episode",
    "rl.control.Task.observation_spec",
    "rl.control.Task.step_spec",
)
def test_own_simulation_behind_control_physics_matches(differential):
    differential.assert_same(OWN_PHYSICS_PROGRAM, "suite_authoring_own_physics")


REWARD_COLOURS_PROGRAM = """
import numpy as np
from dm_control import mujoco, suite
from dm_control.rl import control
from dm_control.suite import base, common
from dm_control.utils import rewards

MATERIALS = ["self", "self_default", "self_highlight", "effector", "effector_default",
             "effector_highlight", "target", "target_default", "target_highlight"]


class Physics(mujoco.Physics):
    def distance(self):
        return np.linalg.norm(self.named.data.geom_xpos["pointmass"][:2])


class Reach(base.Task):
    def initialize_episode(self, physics):
        physics.named.data.qpos[:] = self.random.uniform(-0.05, 0.05, size=2)
        super().initialize_episode(physics)

    def get_observation(self, physics):
        return {"position": physics.position()}

    def get_reward(self, physics):
        return rewards.tolerance(physics.distance(), bounds=(0, 0.02), margin=0.1)


physics = Physics.from_xml_string(common.read_model("point_mass.xml"), common.ASSETS)
record("materials", sorted(physics.model.id2name(i, "material")
                           for i in range(physics.model.nmat)))
record("initial_rgba", physics.named.model.mat_rgba[MATERIALS])
task = Reach(random=2)
record("visualize_default", task.visualize_reward)
check("visualize_int", setattr, task, "visualize_reward", 1)
task.visualize_reward = True
env = control.Environment(physics, task, time_limit=0.1)
env.reset()
record("rgba_at_reset", physics.named.model.mat_rgba[MATERIALS])
for i in range(3):
    env.step(np.array([0.3, -0.2]))
    record(f"rgba_step{i}", physics.named.model.mat_rgba[["self", "effector", "target"]])

for domain, task_name in [("point_mass", "easy"), ("reacher", "easy"), ("finger", "spin")]:
    env = suite.load(domain, task_name, task_kwargs={"random": 4}, visualize_reward=True)
    env.reset()
    colours = env.physics.named.model.mat_rgba
    record(f"{domain}/reset", colours["self"])
    record(f"{domain}/companions", [colours["self_default"], colours["self_highlight"]])
    env.step(np.zeros(env.action_spec().shape))
    record(f"{domain}/step", colours["self"])
    check(f"{domain}/setter", setattr, env.task, "visualize_reward", "yes")
"""


@pytest.mark.dm_control_api(
    "suite.base.Task.after_step",
    "suite.base.Task.visualize_reward",
    "suite.common.ASSETS",
    "suite.common.read_model",
)
def test_reward_colours_and_suite_model_files_match(differential):
    differential.assert_same(REWARD_COLOURS_PROGRAM, "suite_authoring_colours", rtol=1e-6)


MODEL_FILES_PROGRAM = """
from dm_control import mujoco
from dm_control.suite import common

for name in ("ball_in_cup", "cartpole", "cheetah", "finger", "point_mass", "walker"):
    physics = mujoco.Physics.from_xml_string(common.read_model(name + ".xml"), common.ASSETS)
    model = physics.model
    record(name + "/type", type(common.read_model(name + ".xml")).__name__)
    record(name + "/sizes", [model.nq, model.nv, model.nu, model.nbody, model.njnt,
                             model.ngeom, model.nsite, model.nsensor])
    for kind, count in (("body", model.nbody), ("joint", model.njnt), ("actuator", model.nu)):
        record(f"{name}/{kind}_names", [model.id2name(i, kind) for i in range(count)])
    cameras = [model.id2name(i, "camera") for i in range(model.ncam)]
    record(f"{name}/camera_names", cameras)
    record(name + "/materials", sorted(model.id2name(i, "material") for i in range(model.nmat)))
    record(name + "/timestep", physics.timestep())
record("assets", sorted(common.ASSETS))
record("asset_types", sorted({type(value).__name__ for value in common.ASSETS.values()}))
check("unknown", common.read_model, "nope.xml")
"""


@pytest.mark.slow
@pytest.mark.dm_control_api("suite.common.read_model", "suite.common.ASSETS")
def test_suite_model_files_compile_to_the_same_models(differential):
    differential.assert_same(MODEL_FILES_PROGRAM, "suite_authoring_model_files")


RANDOMIZERS_PROGRAM = """
import numpy as np
from dm_control import mujoco
from dm_control.suite.utils import randomizers

XML = '''
<mujoco>
  <worldbody>
    <body name="free"><freejoint name="free"/><geom size=".1"/></body>
    <body name="ball" pos="1 0 0"><joint name="ball" type="ball"/><geom size=".1"/></body>
    <body name="limited_ball" pos="2 0 0">
      <joint name="limited_ball" type="ball" range="0 60" limited="true"/><geom size=".1"/>
    </body>
    <body name="hinges" pos="3 0 0">
      <joint name="hinge" type="hinge"/>
      <joint name="limited_hinge" type="hinge" range="-30 45" limited="true"/>
      <joint name="slide" type="slide"/>
      <joint name="limited_slide" type="slide" range="-0.2 0.3" limited="true"/>
      <geom size=".1"/>
    </body>
  </worldbody>
</mujoco>
'''
physics = mujoco.Physics.from_xml_string(XML)
for seed in range(3):
    random = np.random.RandomState(seed)
    randomizers.randomize_limited_and_rotational_joints(physics, random)
    record(f"qpos{seed}", physics.data.qpos)
    record(f"next{seed}", random.uniform())
for limit in (0.0, 0.5, np.pi):
    random = np.random.RandomState(11)
    record(f"quaternion{limit}", randomizers.random_limited_quaternion(random, limit))
    record(f"quaternion_next{limit}", random.uniform())
"""


@pytest.mark.dm_control_api(
    "suite.utils.randomizers.random_limited_quaternion",
    "suite.utils.randomizers.randomize_limited_and_rotational_joints",
)
def test_joint_randomisers_draw_the_same_poses(differential):
    differential.assert_same(RANDOMIZERS_PROGRAM, "suite_authoring_randomizers")


CAMERA_PROGRAM = """
import numpy as np
from dm_control import mujoco
from dm_control.mujoco import engine

XML = '''
<mujoco>
  <visual><global offwidth="320" offheight="240"/></visual>
  <worldbody>
    <light pos="0 0 3"/>
    <geom name="floor" type="plane" size="1 1 .1" rgba=".2 .3 .4 1"/>
    <body name="ball" pos="0 0 .3">
      <freejoint name="free"/><geom name="ball" size=".1" rgba="1 0 0 1"/>
    </body>
    <body name="box" pos=".4 0 .2"><geom name="box" type="box" size=".1 .1 .1"/></body>
    <camera name="front" pos="0 -2 1" xyaxes="1 0 0 0 .5 1"/>
  </worldbody>
</mujoco>
'''
physics = mujoco.Physics.from_xml_string(XML)
record("named", [type(physics.named).__name__, type(physics.named)._fields,
                 isinstance(physics.named, engine.NamedIndexStructs)])
record("named_model_is_field", physics.named.model.geom_size["ball"])
camera = mujoco.Camera(physics, height=48, width=64, camera_id="front")
record("size", [camera.width, camera.height, camera.scene.ngeom])
record("option_type", type(camera.option).__name__)
matrices = camera.matrices()
record("matrices", [type(matrices).__name__, list(matrices._fields)])
record("matrices_values", list(matrices))
record("matrix", camera.matrix)
camera.update()
record("scene_ngeom", camera.scene.ngeom)
rgb = camera.render()
record("rgb", [rgb.shape, rgb.dtype.str])
record("rgb_rough_mean", float(rgb.mean()) // 16)
depth = camera.render(depth=True)
record("depth", [depth.shape, depth.dtype.str, round(float(depth[24, 32]), 2)])
segmentation = camera.render(segmentation=True)
record("segmentation", [segmentation.shape, segmentation.dtype.str])
record("segmentation_ids", sorted(set(map(tuple, segmentation.reshape(-1, 2).tolist()))))
selected = camera.select((0.5, 0.5))
record("select", [type(selected).__name__, selected.body, selected.geom, selected.flex,
                  selected.skin, np.round(selected.world_position, 3)])
record("select_sky", list(camera.select((0.5, 0.99))))
check("overlay_with_depth", camera.render, overlays=[mujoco.TextOverlay("a")], depth=True)
check("depth_and_segmentation", camera.render, depth=True, segmentation=True)
check("flags_with_depth", camera.render, depth=True, render_flag_overrides={"wireframe": True})
for arguments in ({"camera_id": 1}, {"camera_id": -2}, {"width": 1000}, {"height": 1000}):
    check(f"bad/{sorted(arguments)}", mujoco.Camera, physics, **arguments)

free = mujoco.MovableCamera(physics, height=48, width=64)
pose = free.get_pose()
record("pose0", [type(pose).__name__, list(pose._fields), pose.lookat, pose.distance,
                 pose.azimuth, pose.elevation])
free.set_pose([0.1, 0.2, 0.3], 2.5, 45.0, -30.0)
pose = free.get_pose()
record("pose1", [pose.lookat, pose.distance, pose.azimuth, pose.elevation])
record("free_matrix", free.matrix)
plain = np.array(free.render())
with_text = np.array(free.render(overlays=[
    mujoco.TextOverlay("Title", "body", style="big", position="bottom right")]))
record("overlay_draws", bool((plain != with_text).any()))
record("overlay_corner_only", bool((plain[:24, :32] == with_text[:24, :32]).all()))
text = [mujoco.TextOverlay("Title", "body", position="top left")]
rendered = physics.render(48, 64, camera_id="front", overlays=text)
bare = physics.render(48, 64, camera_id="front")
record("physics_render_overlays", [rendered.shape, bool((rendered != bare).any()),
                                   bool((rendered[24:] == bare[24:]).all())])
check("physics_render_overlays_depth", physics.render, 48, 64, overlays=text, depth=True)
overlay = mujoco.TextOverlay("t", "b", style="shadow", position="top right")
record("overlay", [overlay.title, overlay.body, int(overlay.style), int(overlay.position)])
check("overlay_bad_style", mujoco.TextOverlay, style="bold")
record("types", [engine.CameraMatrices._fields, engine.Pose._fields, engine.Selected._fields])
"""


@pytest.mark.dm_control_api(
    "mujoco.engine.Camera",
    "mujoco.engine.Camera.height",
    "mujoco.engine.Camera.width",
    "mujoco.engine.Camera.matrices",
    "mujoco.engine.Camera.matrix",
    "mujoco.engine.Camera.option",
    "mujoco.engine.Camera.render",
    "mujoco.engine.Camera.scene",
    "mujoco.engine.Camera.select",
    "mujoco.engine.Camera.update",
    "mujoco.engine.CameraMatrices",
    "mujoco.engine.CameraMatrices.focal",
    "mujoco.engine.CameraMatrices.image",
    "mujoco.engine.CameraMatrices.rotation",
    "mujoco.engine.CameraMatrices.translation",
    "mujoco.engine.MovableCamera",
    "mujoco.engine.MovableCamera.get_pose",
    "mujoco.engine.MovableCamera.set_pose",
    "mujoco.engine.NamedIndexStructs",
    "mujoco.engine.NamedIndexStructs.data",
    "mujoco.engine.NamedIndexStructs.model",
    "mujoco.engine.Pose",
    "mujoco.engine.Pose.azimuth",
    "mujoco.engine.Pose.distance",
    "mujoco.engine.Pose.elevation",
    "mujoco.engine.Pose.lookat",
    "mujoco.engine.Selected",
    "mujoco.engine.Selected.body",
    "mujoco.engine.Selected.flex",
    "mujoco.engine.Selected.geom",
    "mujoco.engine.Selected.skin",
    "mujoco.engine.Selected.world_position",
    "mujoco.engine.TextOverlay",
    "mujoco.engine.TextOverlay.body",
    "mujoco.engine.TextOverlay.draw",
    "mujoco.engine.TextOverlay.position",
    "mujoco.engine.TextOverlay.style",
    "mujoco.engine.TextOverlay.title",
    "mujoco.engine.Physics.render",
)
def test_cameras_and_overlays_match(differential):
    differential.assert_same(CAMERA_PROGRAM, "suite_authoring_camera", rtol=1e-6, atol=1e-9)


TYPES_PROGRAM = """
import numpy as np
from dm_control import suite

DOMAINS = {DOMAINS}


def kind(value):
    if isinstance(value, np.ndarray):
        return f"ndarray{{value.shape}}"
    return type(value).__name__


for domain, task, helpers in DOMAINS:
    env = suite.load(domain, task, task_kwargs={{"random": 0}})
    timestep = env.reset()
    record(f"{{domain}}/observation", {{k: kind(v) for k, v in timestep.observation.items()}})
    spec = env.action_spec()
    random = np.random.RandomState(0)
    total = 0.0
    for _ in range(3):
        timestep = env.step(random.uniform(spec.minimum, spec.maximum))
        total += timestep.reward
    record(f"{{domain}}/reward", [kind(timestep.reward), kind(total), kind(timestep.discount)])
    for helper in helpers:
        value = getattr(env.physics, helper)()
        record(f"{{domain}}/{{helper}}", [kind(value), value])
"""

_FEW_DOMAINS = [
    ("cartpole", "balance", ["cart_position", "pole_angle_cosine", "angular_vel"]),
    ("walker", "walk", ["torso_height", "torso_upright", "horizontal_velocity"]),
    ("cheetah", "run", ["speed"]),
    ("finger", "spin", ["hinge_velocity", "dist_to_target"]),
    ("ball_in_cup", "catch", ["in_target"]),
    ("fish", "swim", ["upright"]),
    ("lqr", "lqr_2_1", []),
]
_MORE_DOMAINS = [
    ("humanoid", "stand", ["head_height", "torso_upright"]),
    ("manipulator", "bring_peg", []),
    ("hopper", "hop", ["speed", "height"]),
    ("pendulum", "swingup", ["pole_vertical"]),
    ("humanoid_CMU", "stand", ["head_height", "thorax_upright"]),
    ("quadruped", "walk", ["origin_distance", "torso_upright", "toe_positions"]),
    ("dog", "stand", ["com_forward_velocity", "z_projection", "upright"]),
    ("acrobot", "swingup", ["to_target"]),
    ("point_mass", "easy", ["mass_to_target_dist"]),
    ("reacher", "easy", ["finger_to_target_dist"]),
    ("swimmer", "swimmer6", ["nose_to_target_dist"]),
    ("stacker", "stack_2", []),
    ("manipulator", "insert_ball", []),
]


@pytest.mark.dm_control_api("suite.load")
def test_suite_quantities_observations_and_rewards_have_dm_control_types(differential):
    program = TYPES_PROGRAM.format(DOMAINS=repr(_FEW_DOMAINS))
    differential.assert_same(program, "suite_authoring_types", rtol=1e-9, timeout_s=300)


@pytest.mark.slow
def test_every_domain_has_dm_control_types(differential):
    program = TYPES_PROGRAM.format(DOMAINS=repr(_MORE_DOMAINS))
    differential.assert_same(program, "suite_authoring_types_all", rtol=1e-9, timeout_s=600)


SUITE_MODEL_STRUCTURE_PROGRAM = """
from dm_control import suite

for domain in ("acrobot", "ball_in_cup", "cartpole", "finger", "lqr", "manipulator",
               "quadruped", "stacker", "walker"):
    task = [t for d, t in suite.ALL_TASKS if d == domain][0]
    model = suite.load(domain, task, task_kwargs={"random": 0}).physics.model
    for kind, count in (("material", model.nmat), ("texture", model.ntex),
                        ("camera", model.ncam), ("hfield", model.nhfield)):
        record(f"{domain}/{kind}", [model.id2name(i, kind) for i in range(count)])
    record(domain + "/geom_matid", model.geom_matid)
    record(domain + "/mat_rgba", model.mat_rgba)
    record(domain + "/tex_size", [model.tex_width, model.tex_height, model.tex_type])
"""


@pytest.mark.dm_control_api("suite.load")
def test_suite_models_have_the_published_materials_textures_and_cameras(differential):
    # Every model holds the published materials file whole, in its order, then its
    # own (material ids, geom_matid); the quadruped keeps the fetch ball's assets and
    # the terrain heightfield in every task; no camera beyond the published ones.
    differential.assert_same(SUITE_MODEL_STRUCTURE_PROGRAM, "suite_model_structure", rtol=1e-6)
