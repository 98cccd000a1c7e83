"""Control Suite and Composer usage found to differ from dm_control by probing,
each program a dm_control user's, now agreeing: actions that broadcast to the action
spec (a scalar, a length-1 list, a leading axis of length 1, booleans), as
dm_control's `physics.set_control` (`np.copyto`) takes them, and the error types of
actions it refuses; a camera name the model lacks."""

import pytest

# This project's exception classes that are subclasses of each dm_control class they
# stand for (so that code catching dm_control's class catches them): a recorded
# raise of one of these here agrees with a raise of any of those there.
_SUBCLASSES_OF = {
    "ActionDtypeError": {"TypeError", "ValueError"},
    "ModelFileNotFoundError": {"ValueError", "FileNotFoundError"},
    "RandomStateTypeError": {"TypeError", "AttributeError"},
}


def _raised_name(value):
    return value.get("__raises__") if isinstance(value, dict) else None


def _assert_same_up_to_subclasses(differential, program, name, **options):
    """`assert_same`, with a raise of a `_SUBCLASSES_OF` class here agreeing with a
    raise there of a class it subclasses (nested in a value too)."""
    comparison = differential.compare(program, name, **options)
    assert not comparison.theirs.error, comparison.theirs.error
    assert not comparison.ours.error, comparison.ours.error
    problems = [
        str(difference)
        for difference in comparison.differences
        if _raised_name(difference.theirs)
        not in _SUBCLASSES_OF.get(_raised_name(difference.ours) or "", ())
    ]
    assert not problems, "\n".join(problems)


ACTIONS_PROGRAM = """
import numpy as np
from dm_control import suite

env = suite.load("walker", "walk", task_kwargs={"random": 1})
env.reset()
for key, action in [("scalar", 0.1), ("np_scalar", np.float32(0.2)), ("len1", np.array([0.3])),
                    ("list6", [0.1] * 6), ("int6", np.arange(6)), ("shape16", np.zeros((1, 6))),
                    ("shape7", np.zeros(7)), ("shape26", np.zeros((2, 6))), ("str", "abc"),
                    ("none", None), ("complex", np.ones(6, complex)), ("bool6", np.ones(6, bool)),
                    ("big", np.full(6, 5.0)), ("tuple", tuple([0.2] * 6)),
                    ("f32", np.full(6, 0.25, np.float32)), ("0d", np.array(0.4))]:
    def step(action=action):
        timestep = env.step(action)
        return timestep.observation["orientations"], env.physics.data.ctrl.copy()
    check("walker/" + key, step)
    env.reset()
env = suite.load("cartpole", "balance", task_kwargs={"random": 1})
env.reset()
for key, action in [("scalar", 0.1), ("list", [0.2]), ("big", 3.0), ("2d", np.array([[0.1]]))]:
    def step(action=action):
        timestep = env.step(action)
        return timestep.observation["position"], env.physics.data.ctrl.copy()
    check("cartpole/" + key, step)
"""

COMPOSER_ACTIONS_PROGRAM = """
import numpy as np
from dm_control import composer, mjcf
from dm_control.composer.observation import observable


class Arm(composer.Entity):
    def _build(self):
        self._mjcf_root = mjcf.RootElement(model="arm")
        body = self._mjcf_root.worldbody.add("body", name="link")
        self.joint = body.add("joint", name="hinge", type="hinge", axis=[0, 1, 0])
        body.add("geom", type="capsule", fromto=[0, 0, 0, 0.5, 0, 0], size=[0.05])
        for name, limit in (("m", 1), ("m2", 2)):
            self._mjcf_root.actuator.add("motor", name=name, joint=self.joint,
                                         ctrlrange=[-limit, limit], ctrllimited=True)

    @property
    def mjcf_model(self):
        return self._mjcf_root


class Swing(composer.Task):
    def __init__(self):
        self.arm = Arm()
        self._observables = {"angle": observable.MJCFFeature("qpos", self.arm.joint)}
        self._observables["angle"].enabled = True
        self.control_timestep = 0.01

    @property
    def root_entity(self):
        return self.arm

    @property
    def task_observables(self):
        return self._observables

    def initialize_episode(self, physics, random_state):
        physics.bind(self.arm.joint).qpos = random_state.uniform(-0.1, 0.1)

    def before_step(self, physics, action, random_state):
        physics.set_control(action)

    def get_reward(self, physics):
        return float(physics.bind(self.arm.joint).qpos[0])


env = composer.Environment(Swing(), random_state=3)
env.reset()
for key, action in [("scalar", 0.2), ("len1", [0.3]), ("2d", np.zeros((1, 2))),
                    ("bool", np.ones(2, bool)), ("str", "ab"), ("none", None),
                    ("wrong", np.zeros(3)), ("big", np.array([5.0, -5.0])),
                    ("int", np.array([1, 2]))]:
    def step(action=action):
        timestep = env.step(action)
        return timestep.reward, timestep.observation["angle"], env.physics.data.ctrl.copy()
    check("composer/" + key, step)

# A walker writes its action with `bind(actuators).ctrl = action`: a string raises
# ValueError there (set_control's np.copyto, above, TypeError).
from dm_control.locomotion.examples import basic_cmu_2019

env = basic_cmu_2019.cmu_humanoid_run_walls(random_state=1)
env.reset()
size = env.action_spec().shape[0]
for key, action in [("scalar", 0.1), ("bool", np.ones(size, bool)), ("leading", np.zeros((1, size))),
                    ("float32", np.full(size, 0.1, np.float32)), ("string", "abc")]:
    def step(action=action):
        env.step(action)
        return env.physics.data.ctrl.copy()
    check("walker/" + key, step)
"""

CAMERA_PROGRAM = """
from dm_control import mujoco, suite

env = suite.load("walker", "walk", task_kwargs={"random": 1})
env.reset()
physics = env.physics
record("render/by_name", physics.render(16, 20, camera_id="side").shape)
check("render/unknown_name", physics.render, 16, 20, camera_id="nope")
check("render/index_out_of_range", physics.render, 16, 20, camera_id=7)
check("render/below_free_camera", physics.render, 16, 20, camera_id=-2)
check("camera/unknown_name", mujoco.Camera, physics, 16, 20, camera_id="nope")
check("camera/index_out_of_range", mujoco.Camera, physics, 16, 20, camera_id=7)
check("name2id/unknown_camera", physics.model.name2id, "nope", "camera")
"""


@pytest.mark.dm_control_api("suite.load", "rl.control.Environment.step")
def test_suite_actions_broadcast_as_in_dm_control(differential):
    _assert_same_up_to_subclasses(
        differential, ACTIONS_PROGRAM, "probe_suite_actions", rtol=1e-6, atol=1e-8
    )


@pytest.mark.dm_control_api("composer.Environment", "composer.Environment.step")
def test_composer_actions_broadcast_as_in_dm_control(differential):
    _assert_same_up_to_subclasses(
        differential, COMPOSER_ACTIONS_PROGRAM, "probe_composer_actions", rtol=1e-6, atol=1e-8
    )


@pytest.mark.dm_control_api("mujoco.engine.Physics.render", "mujoco.engine.Camera")
def test_unknown_camera_names_raise_as_in_dm_control(differential):
    differential.assert_same(CAMERA_PROGRAM, "probe_camera_names")


LEGACY_STEP_PROGRAM = """
import numpy as np
from dm_control import composer, suite
from dm_control.locomotion.examples import basic_cmu_2019
from dm_control.rl import control
from dm_control.suite import walker

for legacy in (True, False, 0):
    env = suite.load("walker", "walk", task_kwargs={"random": 2},
                     environment_kwargs={"legacy_step": legacy})
    env.reset()
    record(f"{legacy}/suite_flag", env.physics.legacy_step)
    for i in range(3):
        timestep = env.step(np.full(6, 0.3))
        record(f"{legacy}/walker{i}", (timestep.observation, timestep.reward))
    record(f"{legacy}/xpos", env.physics.data.xpos.copy())
    record(f"{legacy}/copy_flag", env.physics.copy().legacy_step)
    env = suite.load("cartpole", "swingup", task_kwargs={"random": 2},
                     environment_kwargs={"legacy_step": legacy})
    env.reset()
    for i in range(3):
        record(f"{legacy}/cartpole{i}", env.step(np.array([0.3])).observation)
    physics = walker.Physics.from_xml_string(*walker.get_model_and_assets())
    env = control.Environment(physics, walker.PlanarWalker(move_speed=1, random=3),
                              legacy_step=legacy, n_sub_steps=2, time_limit=1)
    env.reset()
    record(f"{legacy}/rl_flag", physics.legacy_step)
    for i in range(3):
        record(f"{legacy}/rl{i}", env.step(np.full(6, -0.3)).observation)

for legacy in (True, False):
    env = basic_cmu_2019.cmu_humanoid_run_walls(random_state=4)
    env = composer.Environment(env.task, time_limit=1, random_state=4, legacy_step=legacy)
    env.reset()
    record(f"{legacy}/composer_flag", env.physics.legacy_step)
    for i in range(2):
        observation = env.step(np.full(env.action_spec().shape, 0.1)).observation
        record(f"{legacy}/composer{i}", {k: v for k, v in observation.items()
                                         if "egocentric_camera" not in k})
"""


@pytest.mark.dm_control_api(
    "composer.Environment", "rl.control.Environment", "rl.control.Physics.legacy_step"
)
def test_legacy_step_false_steps_as_in_dm_control(differential):
    differential.assert_same(LEGACY_STEP_PROGRAM, "probe_legacy_step", rtol=1e-6, atol=1e-8)


TOLERANCE_EDGES_PROGRAM = """
import numpy as np
from dm_control.utils import rewards

x = np.array([np.nan, np.inf, -np.inf, 0.3, 5.0])
for sigmoid in ["gaussian", "hyperbolic", "long_tail", "reciprocal", "cosine", "linear",
                "quadratic", "tanh_squared"]:
    for margin in [0.0, 1.0, np.inf]:
        for bounds in [(0.0, 1.0), (-np.inf, 0.0), (0.0, 0.0), (-np.inf, np.inf)]:
            key = f"{sigmoid}/{margin}/{bounds}"
            check(key + "/few", rewards.tolerance, x, bounds=bounds, margin=margin, sigmoid=sigmoid)
            check(key + "/many", rewards.tolerance, np.tile(x, 10), bounds=bounds, margin=margin,
                  sigmoid=sigmoid)
            for i, value in enumerate(x):
                check(f"{key}/float{i}", rewards.tolerance, float(value), bounds=bounds,
                      margin=margin, sigmoid=sigmoid)
                check(f"{key}/0d{i}", rewards.tolerance, np.array(value), bounds=bounds,
                      margin=margin, sigmoid=sigmoid)
for key, x in [("0d", np.array(0.3)), ("0d_int", np.array(3)), ("f32", np.float32(0.3)),
               ("int", 3), ("one", np.array([3.0]))]:
    for margin in (0.0, 1.0):
        check(f"type/{key}/{margin}",
              lambda: type(rewards.tolerance(x, bounds=(0, 1), margin=margin)).__name__)
check("type/0d_array_bound",
      lambda: type(rewards.tolerance(np.array(0.3), bounds=(0, np.array(1.0)), margin=1)).__name__)
check("margin0/unknown_sigmoid", rewards.tolerance, 2.0, bounds=(0, 1), sigmoid="nope")
check("margin0/value_at_margin", rewards.tolerance, 2.0, bounds=(0, 1), value_at_margin=3.0)
check("margin1/unknown_sigmoid", rewards.tolerance, 2.0, bounds=(0, 1), margin=1, sigmoid="nope")
check("margin1/value_at_margin", rewards.tolerance, 2.0, bounds=(0, 1), margin=1,
      value_at_margin=3.0)
check("negative_margin", rewards.tolerance, 2.0, bounds=(0, 1), margin=-1)
check("reversed_bounds", rewards.tolerance, 2.0, bounds=(1, 0))
"""


@pytest.mark.dm_control_api("utils.rewards.tolerance")
def test_tolerance_edges_match_dm_control(differential):
    differential.assert_same(TOLERANCE_EDGES_PROGRAM, "probe_tolerance_edges")


HOOKS_AND_AGGREGATORS_PROGRAM = """
import numpy as np
from dm_control import composer, mjcf
from dm_control.composer.observation import observable
from dm_env import specs

LOG = []


class Ball(composer.Entity):
    def _build(self, name):
        self._root = mjcf.RootElement(model=name)
        body = self._root.worldbody.add("body", name="b", pos=[0, 0, 1])
        self.joint = body.add("joint", type="slide", axis=[0, 0, 1])
        body.add("geom", type="sphere", size=[0.1])

    @property
    def mjcf_model(self):
        return self._root

    def initialize_episode_mjcf(self, random_state):
        LOG.append(("entity_initialize_episode_mjcf", self._root.model))

    def after_compile(self, physics, random_state):
        LOG.append(("entity_after_compile", self._root.model))

    def initialize_episode(self, physics, random_state):
        LOG.append(("entity_initialize_episode", self._root.model, random_state.randint(100)))

    def before_step(self, physics, random_state):
        LOG.append(("entity_before_step", self._root.model))

    def before_substep(self, physics, random_state):
        LOG.append(("entity_before_substep", self._root.model))

    def after_substep(self, physics, random_state):
        LOG.append(("entity_after_substep", self._root.model))

    def after_step(self, physics, random_state):
        LOG.append(("entity_after_step", self._root.model))

    def _build_observables(self):
        return BallObservables(self)


class BallObservables(composer.Observables):
    @composer.observable
    def z(self):
        return observable.Generic(lambda physics: physics.bind(self._entity.joint).qpos[0:1].copy())


class Arena(composer.Entity):
    def _build(self):
        self._root = mjcf.RootElement(model="arena")
        self._root.worldbody.add("geom", type="plane", size=[2, 2, 0.1])

    @property
    def mjcf_model(self):
        return self._root


class Drop(composer.Task):
    def __init__(self):
        self.arena = Arena()
        self.ball = Ball("ball")
        self.arena.attach(self.ball)
        self.ball2 = Ball("ball2")
        self.arena.attach(self.ball2)
        self.set_timesteps(control_timestep=0.015, physics_timestep=0.005)
        self.ball.observables.z.enabled = True
        self.ball.observables.z.buffer_size = 3
        self.ball.observables.z.update_interval = 2
        self.ball2.observables.z.enabled = True
        self.ball2.observables.z.delay = 1
        self.steps = 0
        self.clock = observable.Generic(lambda physics: np.array([physics.time(), 1.0]))
        self.clock.enabled = True
        self.clock.aggregator = "mean"
        self.summed = observable.Generic(lambda physics: np.array([physics.time(), 2.0]))
        self.summed.enabled = True
        self.summed.aggregator = lambda values: np.sum(values, axis=0)

    @property
    def root_entity(self):
        return self.arena

    @property
    def task_observables(self):
        return {"clock": self.clock, "summed": self.summed}

    def initialize_episode_mjcf(self, random_state):
        LOG.append(("task_initialize_episode_mjcf",))

    def after_compile(self, physics, random_state):
        LOG.append(("task_after_compile",))

    def initialize_episode(self, physics, random_state):
        LOG.append(("task_initialize_episode", random_state.randint(100)))
        self.steps = 0

    def before_step(self, physics, action, random_state):
        LOG.append(("task_before_step",))

    def before_substep(self, physics, action, random_state):
        LOG.append(("task_before_substep",))

    def after_substep(self, physics, random_state):
        LOG.append(("task_after_substep",))

    def after_step(self, physics, random_state):
        self.steps += 1
        LOG.append(("task_after_step",))

    def get_reward(self, physics):
        return self.steps

    def get_discount(self, physics):
        return 0.25

    def should_terminate_episode(self, physics):
        return self.steps >= 3

    def action_spec(self, physics):
        return specs.BoundedArray((0,), np.float64, [], [], name="")


for strip in (False, True):
    for padding in (composer.ObservationPadding.ZERO, composer.ObservationPadding.INITIAL_VALUE):
        LOG.clear()
        key = f"{strip}/{padding.name}"
        env = composer.Environment(Drop(), random_state=5, strip_singleton_obs_buffer_dim=strip,
                                   delayed_observation_padding=padding)
        record(key + "/log_construct", list(LOG))
        LOG.clear()
        record(key + "/spec", env.observation_spec())
        timestep = env.reset()
        record(key + "/log_reset", list(LOG))
        LOG.clear()
        record(key + "/reset", (int(timestep.step_type), timestep.reward, timestep.discount,
                                timestep.observation))
        for i in range(4):
            timestep = env.step(np.zeros(0))
            record(f"{key}/step{i}", (int(timestep.step_type), timestep.reward, timestep.discount,
                                      timestep.observation))
            record(f"{key}/log_step{i}", list(LOG))
            LOG.clear()
"""


@pytest.mark.dm_control_api(
    "composer.Environment",
    "composer.Environment.step",
    "composer.Environment.reset",
    "composer.observation.observable.Observable.aggregator",
)
def test_hooks_and_aggregators_with_stripped_buffers_match_dm_control(differential):
    differential.assert_same(HOOKS_AND_AGGREGATORS_PROGRAM, "probe_hooks_aggregators")


PHYSICS_STATE_PROGRAM = """
import mujoco as mj
import numpy as np
from dm_control import suite

env = suite.load("cartpole", "balance", task_kwargs={"random": 1})
env.reset()
physics = env.physics
state = physics.get_state(sig=mj.mjtState.mjSTATE_QPOS)
record("get_state/sig", state)
record("get_state/full_physics", physics.get_state(sig=mj.mjtState.mjSTATE_FULLPHYSICS).shape)
env.step([0.5])
physics.set_state(state, sig=mj.mjtState.mjSTATE_QPOS)
record("set_state/sig", physics.data.qpos.copy())
check("set_state/sig_wrong_size", physics.set_state, np.zeros(1), sig=mj.mjtState.mjSTATE_QPOS)
check("set_state/wrong_size", physics.set_state, np.zeros(3))
check("set_state/two_dimensional", physics.set_state, np.zeros((1, 5)))
check("reset/keyframe_out_of_range", physics.reset, 0)
with physics.reset_context():
    physics.data.qpos[:] = [0.1, 0.2]
record("reset_context/xpos", physics.data.xpos.copy())
"""


@pytest.mark.dm_control_api("mujoco.engine.Physics.get_state", "mujoco.engine.Physics.set_state")
def test_physics_state_with_sig_matches_dm_control(differential):
    differential.assert_same(PHYSICS_STATE_PROGRAM, "probe_physics_state")


LIMITS_AND_FLAGS_PROGRAM = """
import numpy as np
from dm_control import composer, mjcf, suite
from dm_env import specs


def suite_episode(time_limit, **environment_kwargs):
    env = suite.load("cartpole", "balance", task_kwargs={"random": 1, "time_limit": time_limit},
                     environment_kwargs=environment_kwargs)
    env.reset()
    steps = []
    for _ in range(4):
        timestep = env.step([0.0])
        steps.append((int(timestep.step_type), timestep.discount))
        if timestep.last():
            break
    return steps


for time_limit in (0, 0.0, -1.0, -np.inf, np.nan, 0.015):
    check(f"suite/time_limit/{time_limit}", suite_episode, time_limit)
check("suite/time_limit/str", suite.load, "cartpole", "balance", task_kwargs={"time_limit": "1"})
for flag in (1, "yes", 0, "", [1]):
    check(f"suite/flat_observation/{flag!r}",
          lambda: list(suite.load("cartpole", "balance", task_kwargs={"random": 1},
                                  environment_kwargs={"flat_observation": flag}).reset().observation))


class Box(composer.Entity):
    def _build(self):
        self._root = mjcf.RootElement(model="box")
        body = self._root.worldbody.add("body", name="b", pos=[0, 0, 1])
        self.joint = body.add("joint", name="z", type="slide", axis=[0, 0, 1])
        body.add("geom", type="box", size=[0.1, 0.1, 0.1])

    @property
    def mjcf_model(self):
        return self._root


class Fall(composer.Task):
    def __init__(self):
        self.box = Box()
        self.box.observables  # noqa: B018

    @property
    def root_entity(self):
        return self.box

    def initialize_episode(self, physics, random_state):
        physics.bind(self.box.joint).qpos = random_state.uniform(-0.5, 0.5)

    def get_reward(self, physics):
        return float(physics.bind(self.box.joint).qpos[0])

    def action_spec(self, physics):
        return specs.BoundedArray((0,), np.float64, [], [], name="")


def composer_episode(time_limit, **kwargs):
    env = composer.Environment(Fall(), time_limit=time_limit, random_state=2, **kwargs)
    rewards = [env.reset().step_type.value]
    for _ in range(4):
        timestep = env.step(np.zeros(0))
        rewards.append((int(timestep.step_type), timestep.reward, timestep.discount))
        if timestep.last():
            break
    return rewards


for time_limit in (0, -2.0, -np.inf, np.nan, 0.005):
    check(f"composer/time_limit/{time_limit}", composer_episode, time_limit)
for name in ("fixed_initial_state", "strip_singleton_obs_buffer_dim",
             "recompile_mjcf_every_episode", "raise_exception_on_physics_error"):
    for flag in (1, "yes", 0, None):
        check(f"composer/{name}/{flag!r}", composer_episode, 0.003, **{name: flag})
"""


@pytest.mark.dm_control_api("suite.load", "composer.Environment", "rl.control.Environment")
def test_time_limits_and_flags_are_taken_as_dm_control_takes_them(differential):
    differential.assert_same(LIMITS_AND_FLAGS_PROGRAM, "probe_limits_and_flags")


ABSTRACT_CLASSES_PROGRAM = """
from dm_control import composer, mjcf


class Empty(composer.Entity):
    pass


class ModelOnly(composer.Entity):
    @property
    def mjcf_model(self):
        return mjcf.RootElement()


class BuildOnly(composer.Entity):
    def _build(self):
        self._root = mjcf.RootElement()


class Built(composer.Entity):
    def _build(self):
        self._root = mjcf.RootElement()

    @property
    def mjcf_model(self):
        return self._root


class RewardOnly(composer.Task):
    def get_reward(self, physics):
        return 0.0


class RootOnly(composer.Task):
    @property
    def root_entity(self):
        return None


class Complete(RootOnly):
    def get_reward(self, physics):
        return 0.0


check("entity/empty", Empty)
check("entity/model_only", ModelOnly)
check("entity/build_only", BuildOnly)
check("entity/built", lambda: type(Built()).__name__)
check("task/reward_only", RewardOnly)
check("task/root_only", RootOnly)
check("task/complete", lambda: type(Complete()).__name__)
check("task/null", lambda: type(composer.NullTask(Built())).__name__)
"""


@pytest.mark.dm_control_api("composer.Task", "composer.Entity")
def test_abstract_tasks_and_entities_refuse_instantiation_as_in_dm_control(differential):
    differential.assert_same(ABSTRACT_CLASSES_PROGRAM, "probe_abstract_classes")


MULTI_AGENT_ACTIONS_PROGRAM = """
import numpy as np
from dm_control.locomotion import soccer

env = soccer.load(team_size=1, time_limit=1.0, random_state=3)
env.reset()
for key, actions in [("scalars", [0.1, 0.2]), ("length_one", [[0.1], [0.2]]),
                     ("bools", [np.ones(3, bool), np.zeros(3, bool)]),
                     ("ints", [np.array([1, 0, 1]), np.array([0, 1, 0])]),
                     ("leading_axis", [np.zeros((1, 3)), np.zeros((1, 3))]),
                     ("strings", ["abc", "def"]), ("wrong_shape", [np.zeros(4), np.zeros(3)])]:
    def step(actions=actions):
        timestep = env.step(actions)
        return ([o["ball_ego_position"] for o in timestep.observation],
                env.physics.data.ctrl.copy())
    check("soccer/" + key, step)
    env.reset()
"""


@pytest.mark.dm_control_api("locomotion.soccer.load")
def test_multi_agent_actions_are_written_as_in_dm_control(differential):
    differential.assert_same(
        MULTI_AGENT_ACTIONS_PROGRAM, "probe_multi_agent_actions", rtol=1e-6, atol=1e-8
    )


VARIATION_ARITHMETIC_PROGRAM = """
import numpy as np
from dm_control.composer.variation import deterministic, distributions

Constant = deterministic.Constant
random_state = np.random.RandomState(0)
check("list_add", lambda: (Constant([1.0, 2.0]) + [10.0, 20.0])())
check("list_mul", lambda: (Constant([1.0, 2.0]) * 2)())
check("reflected_list_add", lambda: ([0.5] + Constant([1.0]))())
check("tuple_add", lambda: (Constant((1.0,)) + (2.0,))())
check("array_and_list", lambda: (Constant(np.array([1.0, 2.0])) + [10.0, 20.0])())
check("negated_list", lambda: (-Constant([1.0, 2.0]))())
check("float_times_list", lambda: (Constant(2.0) * [1.0, 2.0])())
check("int_times_list", lambda: (Constant(2) * [1.0, 2.0])())
check("item_of_list", lambda: Constant([4, 5, 6])[1]())
check("uniform_plus_list", lambda: (distributions.Uniform(0, 1) + [1.0, 2.0])(random_state=random_state))
"""


@pytest.mark.dm_control_api("composer.variation.Variation")
def test_variation_arithmetic_applies_operators_as_dm_control_does(differential):
    differential.assert_same(VARIATION_ARITHMETIC_PROGRAM, "probe_variation_arithmetic")


ACTION_DTYPES_PROGRAM = """
import numpy as np
from dm_control import composer, mjcf
from dm_env import specs


class Box(composer.Entity):
    def _build(self):
        self._root = mjcf.RootElement(model="box")
        body = self._root.worldbody.add("body", name="b")
        self.joint = body.add("joint", name="z", type="slide", axis=[0, 0, 1])
        body.add("geom", type="box", size=[0.1, 0.1, 0.1])
        self._root.actuator.add("motor", joint=self.joint, name="m")

    @property
    def mjcf_model(self):
        return self._root


class Push(composer.Task):
    def __init__(self, dtype):
        self.box = Box()
        self.dtype = dtype
        self.seen = None

    @property
    def root_entity(self):
        return self.box

    def action_spec(self, physics):
        return specs.BoundedArray((1,), self.dtype, -1, 1, name="m")

    def before_step(self, physics, action, random_state):
        self.seen = (np.asarray(action).dtype.kind, np.asarray(action).tolist())
        super().before_step(physics, action, random_state)

    def get_reward(self, physics):
        return 0.0


for dtype in (np.float32, np.int32, np.float64):
    task = Push(dtype)
    env = composer.Environment(task, random_state=1)
    env.reset()
    for key, action in [("float64", np.array([0.1])), ("float32", np.array([0.1], np.float32)),
                        ("int", np.array([1])), ("list", [0.1]), ("bool", np.array([True]))]:
        def step(action=action):
            env.step(action)
            return env.physics.data.ctrl.copy(), task.seen
        check(f"{np.dtype(dtype).name}/{key}", step)
"""


@pytest.mark.dm_control_api("composer.Environment.step", "composer.Task.before_step")
def test_actions_keep_their_dtype_as_in_dm_control(differential):
    differential.assert_same(ACTION_DTYPES_PROGRAM, "probe_action_dtypes")


BAD_INPUT_PROGRAM = """
import numpy as np
from dm_control import mujoco, suite


def raised(function, *args):
    try:
        function(*args)
    except Exception as error:
        return error


check("from_xml_path/missing", mujoco.Physics.from_xml_path, "/nonexistent/model.xml")
check("from_binary_path/missing", mujoco.Physics.from_binary_path, "/nonexistent/model.mjb")
record("from_xml_path/missing_is_value_error",
       isinstance(raised(mujoco.Physics.from_xml_path, "/nonexistent.xml"), ValueError))
physics = suite.load("cartpole", "balance", task_kwargs={"random": 1}).physics
check("render/float_height", physics.render, 10.5, 10)
check("render/float_width", physics.render, 10, 10.0)
check("render/negative_camera", physics.render, 10, 10, camera_id=-2)
"""


@pytest.mark.dm_control_api(
    "mujoco.engine.Physics.from_xml_path",
    "mujoco.engine.Physics.from_binary_path",
    "mujoco.engine.Physics.render",
)
def test_bad_model_paths_and_image_sizes_raise_as_in_dm_control(differential):
    _assert_same_up_to_subclasses(differential, BAD_INPUT_PROGRAM, "probe_bad_input")


TIMESTEPS_BETWEEN_EPISODES_PROGRAM = """
import numpy as np
from dm_control import composer, mjcf


class Box(composer.Entity):
    def _build(self):
        self._root = mjcf.RootElement(model="box")
        body = self._root.worldbody.add("body", name="b", pos=[0, 0, 1])
        self.joint = body.add("joint", name="z", type="slide", axis=[0, 0, 1])
        body.add("geom", type="box", size=[0.1, 0.1, 0.1])

    @property
    def mjcf_model(self):
        return self._root


class Clock(composer.Task):
    def __init__(self):
        self.box = Box()
        self.set_timesteps(0.01, 0.002)

    @property
    def root_entity(self):
        return self.box

    def get_reward(self, physics):
        return physics.time()


def episode(env):
    rewards = []
    while True:
        timestep = env.step(np.zeros(0))
        rewards.append(timestep.reward)
        if timestep.last():
            return rewards


for recompile in (True, False):
    task = Clock()
    env = composer.Environment(task, random_state=1, time_limit=0.05,
                               recompile_mjcf_every_episode=recompile)
    env.reset()
    first = [env.step(np.zeros(0)).reward for _ in range(2)]
    task.set_timesteps(0.02, 0.002)
    record(f"{recompile}/control_timestep_mid_episode", env.control_timestep())
    record(f"{recompile}/mid_episode", (first, env.step(np.zeros(0)).reward))
    env.reset()
    record(f"{recompile}/next_episode", (env.control_timestep(), episode(env)))
    task.physics_timestep = 0.004
    env.reset()
    record(f"{recompile}/new_physics_timestep", (env.physics.timestep(), env.control_timestep(),
                                                 episode(env)))
    task.control_timestep = 0.004
    env.reset()
    record(f"{recompile}/control_equals_physics", (env.control_timestep(), episode(env)))
"""


@pytest.mark.dm_control_api(
    "composer.Task.set_timesteps",
    "composer.Task.physics_timestep",
    "composer.Task.control_timestep",
    "composer.Environment.reset",
)
def test_timesteps_changed_between_episodes_apply_as_in_dm_control(differential):
    differential.assert_same(TIMESTEPS_BETWEEN_EPISODES_PROGRAM, "probe_timesteps_between_episodes")


EDITS_BETWEEN_EPISODES_PROGRAM = """
import numpy as np
from dm_control import composer, mjcf
from dm_control.composer.observation import observable


class Box(composer.Entity):
    def _build(self, name="box"):
        self._root = mjcf.RootElement(model=name)
        body = self._root.worldbody.add("body", name="b", pos=[0, 0, 1])
        self.joint = body.add("joint", name="z", type="slide", axis=[0, 0, 1])
        body.add("geom", type="box", size=[0.1, 0.1, 0.1])
        self._root.actuator.add("motor", joint=self.joint, name="m")

    @property
    def mjcf_model(self):
        return self._root

    def _build_observables(self):
        return BoxObservables(self)


class BoxObservables(composer.Observables):
    @composer.observable
    def pos(self):
        return observable.MJCFFeature("qpos", self._entity.joint)

    @composer.observable
    def vel(self):
        return observable.MJCFFeature("qvel", self._entity.joint)


class Hold(composer.Task):
    def __init__(self):
        self.box = Box()
        self.box.observables.pos.enabled = True
        self.set_timesteps(0.01, 0.002)

    @property
    def root_entity(self):
        return self.box

    def get_reward(self, physics):
        return physics.time()


for recompile in (True, False):
    task = Hold()
    env = composer.Environment(task, random_state=1, recompile_mjcf_every_episode=recompile)
    env.reset()
    task.box.observables.vel.enabled = True
    task.box.observables.pos.buffer_size = 3
    record(f"{recompile}/observables_mid_episode", env.step(np.zeros(1)).observation)
    timestep = env.reset()
    record(f"{recompile}/observables_next_episode",
           (env.observation_spec(), timestep.observation, env.step(np.zeros(1)).observation))
    task.box.attach(Box("b2"))
    record(f"{recompile}/attached_mid_episode", env.action_spec())
    env.reset()
    record(f"{recompile}/attached_next_episode", (env.action_spec(), env.physics.model.nq))
    check(f"{recompile}/step_after_attach",
          lambda: env.step(np.zeros(env.action_spec().shape)).reward)
    task.box.mjcf_model.worldbody.add("geom", type="sphere", size=[0.05], pos=[1, 0, 0])
    env.reset()
    record(f"{recompile}/geom_added", env.physics.model.ngeom)
"""


@pytest.mark.dm_control_api("composer.Environment.reset", "composer.Entity.attach")
def test_edits_between_episodes_apply_as_in_dm_control(differential):
    differential.assert_same(EDITS_BETWEEN_EPISODES_PROGRAM, "probe_edits_between_episodes")


RESET_ATTEMPTS_PROGRAM = """
import numpy as np
from dm_control import composer, mjcf


class Box(composer.Entity):
    def _build(self):
        self._root = mjcf.RootElement(model="box")
        self._root.worldbody.add("geom", type="box", size=[0.1, 0.1, 0.1])

    @property
    def mjcf_model(self):
        return self._root


class Flaky(composer.Task):
    def __init__(self, failures):
        self.box = Box()
        self.failures = failures
        self.attempts = 0

    @property
    def root_entity(self):
        return self.box

    def initialize_episode(self, physics, random_state):
        self.attempts += 1
        if self.attempts <= self.failures:
            raise composer.EpisodeInitializationError(f"attempt {self.attempts}")

    def get_reward(self, physics):
        return 0.0


for attempts in (0, -3, 1, 2, 2.5, 3, True):
    task = Flaky(failures=2)
    env = composer.Environment(task, random_state=0, max_reset_attempts=attempts)
    check(f"{attempts!r}/reset", lambda: int(env.reset().step_type))
    record(f"{attempts!r}/attempts", task.attempts)
"""


@pytest.mark.dm_control_api("composer.Environment", "composer.EpisodeInitializationError")
def test_reset_attempts_are_counted_as_in_dm_control(differential):
    differential.assert_same(RESET_ATTEMPTS_PROGRAM, "probe_reset_attempts")


SEEDS_PROGRAM = """
import numpy as np
from dm_control import composer, mjcf, suite


class Box(composer.Entity):
    def _build(self):
        self._root = mjcf.RootElement(model="box")
        body = self._root.worldbody.add("body", name="b")
        self.joint = body.add("joint", name="z", type="slide", axis=[0, 0, 1])
        body.add("geom", type="box", size=[0.1, 0.1, 0.1])

    @property
    def mjcf_model(self):
        return self._root


class Drop(composer.Task):
    def __init__(self):
        self.box = Box()

    @property
    def root_entity(self):
        return self.box

    def initialize_episode(self, physics, random_state):
        physics.bind(self.box.joint).qpos = random_state.uniform()

    def get_reward(self, physics):
        return 0.0


for key, seed in [("int", 3), ("np_int", np.int64(3)), ("list", [1, 2, 3]),
                  ("array", np.array([1, 2])), ("tuple", (1, 2)), ("bool", True),
                  ("too_big", 2**32), ("negative", -1), ("float", 1.5), ("string", "a")]:
    def composer_draws(seed=seed):
        env = composer.Environment(Drop(), random_state=seed)
        env.reset()
        return float(env.physics.data.qpos[0]), env.random_state.randint(1000)
    check("composer/" + key, composer_draws)

    def suite_draws(seed=seed):
        return suite.load("cartpole", "balance", task_kwargs={"random": seed}).reset().observation
    check("suite/" + key, suite_draws)
"""


@pytest.mark.dm_control_api("composer.Environment", "suite.load")
def test_seeds_are_taken_as_numpy_takes_them_as_in_dm_control(differential):
    differential.assert_same(SEEDS_PROGRAM, "probe_seeds")


VARIATION_RANDOM_STATES_PROGRAM = """
import numpy as np
from dm_control.composer.variation import distributions, noises, rotations

check("int", lambda: distributions.Uniform()(random_state=3))
check("noise_int", lambda: noises.Additive(distributions.Normal())(
    initial_value=1.0, current_value=1.0, random_state=3))
check("quaternion_int", lambda: rotations.UniformQuaternion()(random_state=3))
check("generator", lambda: distributions.Uniform()(random_state=np.random.default_rng(1)))
for falsy in (None, 0, False):
    np.random.seed(5)
    check(f"global/{falsy!r}", lambda: distributions.Normal()(random_state=falsy))
"""


@pytest.mark.dm_control_api("composer.variation.distributions.Uniform")
def test_variation_random_states_are_taken_as_in_dm_control(differential):
    _assert_same_up_to_subclasses(
        differential, VARIATION_RANDOM_STATES_PROGRAM, "probe_variation_random_states"
    )


SUITE_TASK_SPECS_PROGRAM = """
from dm_control import suite
from dm_control.rl import control
from dm_control.suite import cartpole, walker

env = suite.load("cartpole", "balance", task_kwargs={"random": 1})
check("suite/observation_spec", lambda: env.task.observation_spec(env.physics))
check("suite/step_spec", lambda: env.task.step_spec(env.physics))
check("suite/action_spec", lambda: env.task.action_spec(env.physics))
check("suite/get_termination", lambda: env.task.get_termination(env.physics))
physics = walker.Physics.from_xml_string(*walker.get_model_and_assets())
task = walker.PlanarWalker(move_speed=1, random=2)
check("walker/observation_spec", lambda: task.observation_spec(physics))
check("walker/step_spec", lambda: task.step_spec(physics))
env = control.Environment(physics, task)
check("environment/observation_spec", env.observation_spec)
check("environment/step_spec", env.step_spec)
"""


@pytest.mark.dm_control_api("suite.base.Task", "rl.control.Task.observation_spec")
def test_suite_task_spec_methods_raise_as_in_dm_control(differential):
    differential.assert_same(SUITE_TASK_SPECS_PROGRAM, "probe_suite_task_specs")


LEGACY_WALKER_MEMBERS_PROGRAM = """
import numpy as np
from dm_control.locomotion.examples import basic_cmu_2019
from dm_control.locomotion.soccer import boxhead
from dm_control.locomotion.walkers import ant, cmu_humanoid

env = basic_cmu_2019.cmu_humanoid_run_walls(random_state=1)
env.reset()
for _ in range(5):
    env.step(np.zeros(env.action_spec().shape))
physics = env.physics
walker = env.task._walker
check("cmu/aliveness", lambda: walker.aliveness(physics))
check("cmu/end_effector_geom_ids", lambda: sorted(walker.end_effector_geom_ids))
check("cmu/body_geom_ids", lambda: sorted(walker.body_geom_ids))
check("cmu/obs_on_other", lambda: dict(walker.obs_on_other))
check("cmu/end_effector_contacts", lambda: walker.end_effector_contacts(physics))
check("cmu/body_contacts", lambda: walker.body_contacts(physics))
check("cmu/actuator_force", lambda: walker.actuator_force(physics))
check("cmu/mocap_to_observable", lambda: list(walker.mocap_to_observable_joint_order))
check("cmu/observable_to_mocap", lambda: list(walker.observable_to_mocap_joint_order))
check("cmu/end_effectors_pos_sensors", lambda: [s.name for s in walker.end_effectors_pos_sensors])
for name, make in [("ant", ant.Ant), ("boxhead", boxhead.BoxHead),
                   ("cmu_v2020", cmu_humanoid.CMUHumanoidPositionControlledV2020)]:
    other = make()
    check(name + "/end_effectors_pos_sensors", lambda: [s.name for s in other.end_effectors_pos_sensors])
from dm_control.locomotion.walkers import rodent
check("rat/body_sites", lambda: rodent.Rat().body_sites)
"""


@pytest.mark.dm_control_api(
    "locomotion.walkers.cmu_humanoid.CMUHumanoid",
    "locomotion.walkers.legacy_base.Walker.end_effectors_pos_sensors",
)
def test_cmu_humanoids_have_the_legacy_walker_members_as_in_dm_control(differential):
    differential.assert_same(LEGACY_WALKER_MEMBERS_PROGRAM, "probe_legacy_walker_members")


SUITE_EPISODE_LENGTHS_PROGRAM = """
import numpy as np
from dm_control import suite

for domain, task in [("cartpole", "balance"), ("walker", "walk"), ("humanoid", "stand"),
                     ("acrobot", "swingup"), ("fish", "swim")]:
    for time_limit in (0.3, 0.0500000001, 0.049999999, 0.1, 0.35):
        def steps(time_limit=time_limit):
            env = suite.load(domain, task, task_kwargs={"random": 1, "time_limit": time_limit})
            env.reset()
            count = 1
            while not env.step(np.zeros(env.action_spec().shape)).last():
                count += 1
            return count
        check(f"{domain}/{task}/{time_limit}", steps)
"""


@pytest.mark.dm_control_api("suite.load", "rl.control.Environment.step")
def test_suite_episode_lengths_count_as_in_dm_control(differential):
    differential.assert_same(SUITE_EPISODE_LENGTHS_PROGRAM, "probe_suite_episode_lengths")


OBSERVATION_VALUE_KINDS_PROGRAM = """
import numpy as np
from dm_control import composer, mjcf
from dm_control.composer.observation import observable
class Box(composer.Entity):
    def _build(self):
        self._root = mjcf.RootElement(model="box")
        body = self._root.worldbody.add("body", name="b", pos=[0, 0, 1])
        self.joint = body.add("joint", name="z", type="slide", axis=[0, 0, 1])
        body.add("geom", type="box", size=[0.1, 0.1, 0.1])
    @property
    def mjcf_model(self): return self._root
class T(composer.Task):
    def __init__(self, **opts):
        self.box = Box()
        self.set_timesteps(0.01, 0.002)
        o = {
            "scalar": observable.Generic(lambda p: p.time()),
            "int": observable.Generic(lambda p: int(p.time() * 1000)),
            "bool": observable.Generic(lambda p: p.time() > 0.015),
            "list": observable.Generic(lambda p: [p.time(), 1.0]),
            "f32": observable.Generic(lambda p: np.float32(p.time())),
            "tuple": observable.Generic(lambda p: (1, 2)),
            "2d": observable.Generic(lambda p: np.ones((2, 3)) * p.time()),
        }
        for v in o.values():
            v.enabled = True
            for k, val in opts.items(): setattr(v, k, val)
        self._o = o
    @property
    def root_entity(self): return self.box
    @property
    def task_observables(self): return self._o
    def get_reward(self, physics): return 0.0
for strip in (False, True):
    for opts in ({}, {"buffer_size": 2}, {"aggregator": "sum", "buffer_size": 3}, {"delay": 2}):
        key = f"{strip}/{sorted(opts.items())}"
        def f(opts=opts):
            env = composer.Environment(T(**opts), random_state=0, strip_singleton_obs_buffer_dim=strip)
            spec = env.observation_spec()
            ts0 = env.reset()
            ts1 = env.step(np.zeros(0))
            ts2 = env.step(np.zeros(0))
            return spec, ts0.observation, ts1.observation, ts2.observation, {k: (np.asarray(v).dtype.str, type(v).__name__) for k, v in ts2.observation.items()}
        check(key, f)
"""


@pytest.mark.dm_control_api("composer.observation.observable.Generic", "composer.Environment.step")
def test_observation_value_kinds_match_dm_control(differential):
    differential.assert_same(OBSERVATION_VALUE_KINDS_PROGRAM, "probe_observation_value_kinds")


OBSERVATION_SCHEDULES_PROGRAM = """
import numpy as np
from dm_control import composer, mjcf
from dm_control.composer.observation import observable
class Box(composer.Entity):
    def _build(self):
        self._root = mjcf.RootElement(model="box")
        body = self._root.worldbody.add("body", name="b", pos=[0, 0, 1])
        self.joint = body.add("joint", name="z", type="slide", axis=[0, 0, 1])
        body.add("geom", type="box", size=[0.1, 0.1, 0.1])
    @property
    def mjcf_model(self): return self._root
class T(composer.Task):
    def __init__(self, n, specs):
        self.box = Box()
        self.set_timesteps(0.002 * n, 0.002)
        o = {}
        for i, (interval, buf, delay, agg, kind) in enumerate(specs):
            if kind == 0:
                ob = observable.Generic(lambda p: np.array([p.time(), 2 * p.time()]))
            elif kind == 1:
                ob = observable.Generic(lambda p: p.time())
            else:
                ob = observable.MJCFFeature("qpos", self.box.joint)
            ob.enabled = True
            ob.update_interval = interval
            ob.buffer_size = buf
            ob.delay = delay
            ob.aggregator = agg
            o[f"o{i}"] = ob
        self._o = o
    @property
    def root_entity(self): return self.box
    @property
    def task_observables(self): return self._o
    def get_reward(self, physics): return 0.0
rng = np.random.RandomState(123)
for trial in range(60):
    n = int(rng.randint(1, 6))
    specs = []
    for i in range(3):
        kind = int(rng.randint(3))
        agg = [None, None, "mean", "max", "sum"][rng.randint(5)]
        if kind == 1 and agg is not None:
            agg = None
        specs.append((int(rng.randint(1, 5)), int(rng.randint(1, 5)), int(rng.randint(0, 7)), agg, kind))
    strip = bool(rng.randint(2))
    # INITIAL_VALUE pads as dm_control only with values that are new arrays (its
    # padding aliases an MJCFFeature's view of the simulation: a documented difference).
    pad = composer.ObservationPadding.ZERO if trial % 3 else composer.ObservationPadding.INITIAL_VALUE
    if pad is composer.ObservationPadding.INITIAL_VALUE:
        specs = [(interval, buf, delay, agg, 0) for interval, buf, delay, agg, _ in specs]
    def f(n=n, specs=specs, strip=strip, pad=pad):
        env = composer.Environment(T(n, specs), random_state=0, strip_singleton_obs_buffer_dim=strip, delayed_observation_padding=pad)
        out = [env.observation_spec(), env.reset().observation]
        for _ in range(6):
            out.append(env.step(np.zeros(0)).observation)
        out.append(env.reset().observation)
        out.append(env.step(np.zeros(0)).observation)
        return out
    check(f"trial{trial}/{n}/{specs}/{strip}/{pad.name}", f)
"""


@pytest.mark.dm_control_api(
    "composer.Environment.step",
    "composer.observation.observable.Observable.update_interval",
    "composer.observation.observable.Observable.buffer_size",
    "composer.observation.observable.Observable.delay",
)
def test_random_observation_schedules_match_dm_control(differential):
    differential.assert_same(OBSERVATION_SCHEDULES_PROGRAM, "probe_observation_schedules")
