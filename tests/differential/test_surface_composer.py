"""dm_control's Composer surface, case by case: the task and entity hooks as the
Environment calls them and their base defaults, the entity tree (parent, detach,
observables), free-entity motion and the free prop's observables, the observable
options, cameras and features, the observation buffer and updater, and the
module constants; each run on both sides and compared.

One program per side runs every case once (a module-scoped fixture); each case is
its own test, marked with the dm_control names it exercises.
"""

import pytest

from tests.differential.surface_cases import PRELUDE, assert_case

_MARK = pytest.mark

PROGRAM = (
    PRELUDE
    + r"""
import collections
import numpy as np
from dm_control import composer, mjcf
from dm_control.composer import environment as environment_module
from dm_control.composer.observation import observable, updater
from dm_control.composer.observation import obs_buffer
from dm_control.composer.observation.observable import base as observable_base
from dm_control.manipulation import props as manipulation_props


LOG = []


class Arm(composer.Entity):
    def _build(self, name="arm"):
        self._model = mjcf.RootElement(model=name)
        upper = self._model.worldbody.add("body", name="upper", pos=[0, 0, 0.5])
        upper.add("joint", name="shoulder", type="hinge", axis=[0, 1, 0])
        upper.add("geom", name="upper", type="capsule", fromto=[0, 0, 0, 0.3, 0, 0], size=[0.05])
        self._model.actuator.add("motor", name="shoulder", joint="shoulder", gear=[2.0])

    def _build_observables(self):
        return ArmObservables(self)

    @property
    def mjcf_model(self):
        return self._model

    def initialize_episode_mjcf(self, random_state):
        LOG.append("entity.initialize_episode_mjcf")

    def after_compile(self, physics, random_state):
        LOG.append("entity.after_compile")

    def initialize_episode(self, physics, random_state):
        LOG.append("entity.initialize_episode")

    def before_step(self, physics, random_state):
        LOG.append("entity.before_step")

    def before_substep(self, physics, random_state):
        LOG.append("entity.before_substep")

    def after_substep(self, physics, random_state):
        LOG.append("entity.after_substep")

    def after_step(self, physics, random_state):
        LOG.append("entity.after_step")


class ArmObservables(composer.Observables):
    @composer.observable
    def shoulder_pos(self):
        return observable.MJCFFeature("qpos", self._entity.mjcf_model.find("joint", "shoulder"))


class Hooked(composer.Task):
    def __init__(self):
        self._arena = composer.Arena()
        self.arm = Arm()
        self._arena.attach(self.arm)
        self.ball = manipulation_props.Primitive(geom_type="sphere", size=[0.05], name="ball")
        self._arena.add_free_entity(self.ball)
        self.set_timesteps(control_timestep=0.01, physics_timestep=0.0025)

    @property
    def root_entity(self):
        return self._arena

    def initialize_episode_mjcf(self, random_state):
        LOG.append("task.initialize_episode_mjcf")

    def after_compile(self, physics, random_state):
        LOG.append("task.after_compile")

    def initialize_episode(self, physics, random_state):
        LOG.append("task.initialize_episode")
        self.ball.set_pose(physics, position=[0.5, 0.0, 0.3])
        self.ball.set_velocity(physics, velocity=[0.2, 0.0, 0.1], angular_velocity=[0.0, 1.0, 0.0])

    def before_step(self, physics, action, random_state):
        LOG.append("task.before_step")
        super().before_step(physics, action, random_state)

    def before_substep(self, physics, action, random_state):
        LOG.append("task.before_substep")

    def after_substep(self, physics, random_state):
        LOG.append("task.after_substep")

    def after_step(self, physics, random_state):
        LOG.append("task.after_step")

    def get_reward(self, physics):
        return float(physics.data.time)

    def get_discount(self, physics):
        return 0.5

    def should_terminate_episode(self, physics):
        return physics.data.time > 0.025


@case("hooks")
def _(put):
    task = Hooked()
    env = composer.Environment(task, random_state=3)
    put("task_is", env.task is task)
    put("physics_binds", hasattr(env.physics, "bind"))
    put("control_timestep", task.control_timestep)
    put("physics_timestep", task.physics_timestep)
    put("physics_steps_per_control_step", task.physics_steps_per_control_step)
    put("root_entity", task.root_entity is task._arena)
    timestep = env.reset()
    put("reset_log", list(LOG))
    LOG.clear()
    steps = []
    while not timestep.last():
        timestep = env.step(np.array([0.5]))
        steps.append((float(timestep.reward), float(timestep.discount), int(timestep.step_type)))
    put("steps", steps)
    put("step_log", list(LOG))
    LOG.clear()
    env.close()


@case("entity_defaults")
def _(put):
    # The base class's hooks do nothing and return None.
    base = composer.Entity.__new__(Arm)
    physics = None
    put("after_compile", composer.Entity.after_compile(base, physics, None))
    put("after_step", composer.Entity.after_step(base, physics, None))
    put("after_substep", composer.Entity.after_substep(base, physics, None))
    put("before_substep", composer.Entity.before_substep(base, physics, None))
    put("initialize_episode", composer.Entity.initialize_episode(base, physics, None))
    put("initialize_episode_mjcf", composer.Entity.initialize_episode_mjcf(base, None))
    put("task_after_compile", composer.Task.after_compile(None, physics, None))
    put("task_after_step", composer.Task.after_step(None, physics, None))
    put("task_after_substep", composer.Task.after_substep(None, physics, None))
    put("task_before_substep", composer.Task.before_substep(None, physics, None, None))
    put("task_initialize_episode", composer.Task.initialize_episode(None, physics, None))
    put("task_initialize_episode_mjcf", composer.Task.initialize_episode_mjcf(None, None))
    put("task_get_discount", composer.Task.get_discount(None, physics))
    put("task_should_terminate", composer.Task.should_terminate_episode(None, physics))


@case("entity_tree")
def _(put):
    arena = composer.Arena()
    arm, other = Arm("a"), Arm("b")
    arena.attach(arm)
    arm.attach(other)
    put("parent", [arm.parent is arena, other.parent is arm, arena.parent is None])
    put("mjcf_model", [arena.mjcf_model.model, arm.mjcf_model.model])
    put("observables", sorted(arm.observables.as_dict()))
    arm.observables.shoulder_pos.enabled = True
    arm.observables.disable_all()
    put("disable_all", [o.enabled for o in arm.observables.as_dict().values()])
    arm.observables.add_observable("time", observable.Generic(lambda physics: physics.data.time))
    put("add_observable", sorted(arm.observables.as_dict()))
    put("added_enabled", arm.observables.as_dict(fully_qualified=False)["time"].enabled)
    other.detach()
    put("detached_parent", other.parent is None)
    put("detached_children", [e.mjcf_model.model for e in arena.iter_entities()])


@case("free_entity_motion")
def _(put):
    arena = composer.Arena()
    ball = manipulation_props.Primitive(geom_type="box", size=[0.05, 0.04, 0.03], name="box")
    arena.add_free_entity(ball)
    physics = mjcf.Physics.from_mjcf_model(arena.mjcf_model)
    ball.set_pose(physics, position=[0.1, 0.2, 0.3])
    ball.set_velocity(physics, velocity=[1.0, -2.0, 0.5], angular_velocity=[0.3, 0.2, -0.1])
    physics.forward()
    put("get_velocity", ball.get_velocity(physics))
    ball.shift_pose(physics, position=[0.0, 0.0, 0.5], quaternion=[0.0, 0.0, 0.0, 1.0])
    put("shifted", ball.get_pose(physics))
    put("shifted_velocity", ball.get_velocity(physics))
    put("shifted_qvel", physics.data.qvel)
    physics.forward()
    put("sensors", [getattr(ball, n).tag for n in
                    ("position", "orientation", "linear_velocity", "angular_velocity")])
    put("geom", ball.geom.type)
    put("name", ball.name)
    put("mjcf_model", ball.mjcf_model.model)
    for name in ("position", "orientation", "linear_velocity", "angular_velocity"):
        item = getattr(ball.observables, name)
        put("observable/" + name, item.observation_callable(physics)())
        put("mixin/" + name, type(getattr(ball.observables, name)).__name__)


@case("constants")
def _(put):
    put("HOOK_NAMES", sorted(environment_module.HOOK_NAMES))
    put("ObservationPadding", [composer.ObservationPadding.INITIAL_VALUE.name,
                               composer.ObservationPadding.ZERO.name])
    put("AGGREGATORS", sorted(observable_base.AGGREGATORS))
    data = np.arange(12.0).reshape(4, 3) - 5.0
    for key in sorted(observable_base.AGGREGATORS):
        put("aggregate/" + key, observable_base.AGGREGATORS[key](data))
    put("PREFIX_SEPARATOR", mjcf.PREFIX_SEPARATOR)


@case("null_task")
def _(put):
    arena = composer.Arena()
    task = composer.NullTask(arena)
    put("root_entity", task.root_entity is arena)
    env = composer.Environment(task, random_state=0)
    env.reset()
    put("reward", task.get_reward(env.physics))
    put("step_reward", env.step([]).reward)


@case("model_wrapper")
def _(put):
    model = mjcf.from_xml_string(
        "<mujoco model='w'><worldbody><body name='b'><geom size='0.1'/></body></worldbody></mujoco>")
    entity = composer.ModelWrapperEntity(model)
    put("mjcf_model", entity.mjcf_model is model)


@case("observable_options")
def _(put):
    item = observable.Generic(lambda physics: np.array([1.0, 2.0]), update_interval=2,
                              buffer_size=3, delay=1, aggregator="sum")
    put("initial", [item.update_interval, item.buffer_size, item.delay, item.enabled])
    put("aggregator", item.aggregator(np.ones((3, 2))))
    put("corruptor", item.corruptor)
    item.configure(update_interval=4, delay=0, enabled=True, buffer_size=1, aggregator="max",
                   corruptor=lambda value, random_state: value * 2)
    put("configured", [item.update_interval, item.buffer_size, item.delay, item.enabled])
    put("corrupted", item.corruptor(np.array([1.0]), None))
    callable_ = item.observation_callable(None, np.random.RandomState(0))
    put("observation_callable", callable_())
    check("configure_bad", item.configure, nope=3)


@case("feature_and_cameras")
def _(put):
    root = mjcf.RootElement(model="cams")
    body = root.worldbody.add("body", name="b", pos=[0, 0, 1])
    body.add("joint", name="slide", type="slide", axis=[1, 0, 0])
    body.add("geom", name="g", size=[0.1])
    camera = root.worldbody.add("camera", name="eye", pos=[0, -2, 1], xyaxes=[1, 0, 0, 0, 0.5, 1])
    physics = mjcf.Physics.from_mjcf_model(root)
    physics.data.qpos[0] = 0.25
    physics.forward()
    feature = observable.MujocoFeature("xpos", "b")
    put("mujoco_feature", feature.observation_callable(physics)())
    put("mujoco_feature_type", isinstance(feature, observable.Observable))
    mjcf_camera = observable.MJCFCamera(camera, height=24, width=32)
    put("mjcf_camera", [mjcf_camera.height, mjcf_camera.width])
    mujoco_camera = observable.MujocoCamera("eye", height=12, width=8)
    put("mujoco_camera", [mujoco_camera.height, mujoco_camera.width])
    put("mujoco_camera_type", isinstance(mujoco_camera, observable.Observable))


@case("buffer")
def _(put):
    buffer = obs_buffer.Buffer(buffer_size=3, shape=(2,), dtype=np.float64)
    put("shape", buffer.shape)
    put("dtype", np.dtype(buffer.dtype).str)
    buffer.insert(0, 0, np.array([1.0, 2.0]))
    buffer.insert(1, 2, np.array([3.0, 4.0]))
    buffer.insert(2, 0, np.array([5.0, 6.0]))
    for time in range(5):
        put(f"read{time}", buffer.read(time))
    schedule = collections.deque([(4, 0), (5, 3), (6, 0), (7, 0), (8, 1), (9, 0), (10, 0)])
    buffer.drop_unobserved_upcoming_items(schedule, read_interval=4)
    put("schedule", list(schedule))
    strip = obs_buffer.Buffer(buffer_size=1, shape=(), dtype=np.int32,
                              strip_singleton_buffer_dim=True)
    put("strip_shape", strip.shape)
    check("negative_delay", buffer.insert, 5, -1, np.zeros(2))


@case("updater")
def _(put):
    root = mjcf.RootElement(model="u")
    body = root.worldbody.add("body", name="b")
    body.add("joint", name="slide", type="slide", axis=[1, 0, 0])
    body.add("geom", size=[0.1])
    physics = mjcf.Physics.from_mjcf_model(root)
    observables = collections.OrderedDict(
        time=observable.Generic(lambda p: np.array([p.data.time]), buffer_size=2),
        slow=observable.Generic(lambda p: np.array([p.data.time]), update_interval=3,
                                aggregator="mean"),
        off=observable.Generic(lambda p: p.data.time),
    )
    observables["time"].enabled = True
    observables["slow"].enabled = True
    updater_ = updater.Updater(observables, physics_steps_per_control_step=2)
    updater_.reset(physics, np.random.RandomState(0))
    put("observation_spec", updater_.observation_spec())
    put("reset_observation", updater_.get_observation())
    updater_.prepare_for_next_control_step()
    put("prepared", updater_.get_observation())


@case("updater_update")
def _(put):
    root = mjcf.RootElement(model="u")
    body = root.worldbody.add("body", name="b")
    body.add("joint", name="slide", type="slide", axis=[1, 0, 0])
    body.add("geom", size=[0.1])
    physics = mjcf.Physics.from_mjcf_model(root)
    item = observable.Generic(lambda p: np.array([p.data.time]), buffer_size=3, delay=1)
    item.enabled = True
    updater_ = updater.Updater({"t": item}, physics_steps_per_control_step=2)
    updater_.reset(physics, np.random.RandomState(0))
    for step in range(3):
        updater_.prepare_for_next_control_step()
        for _ in range(2):
            physics.step()
            updater_.update()
        put(f"observation{step}", updater_.get_observation())


@case("shift_pose_rotate_velocity")
def _(put):
    arena = composer.Arena()
    ball = manipulation_props.Primitive(geom_type="sphere", size=[0.05], name="ball")
    arena.add_free_entity(ball)
    physics = mjcf.Physics.from_mjcf_model(arena.mjcf_model)
    ball.set_velocity(physics, velocity=[1.0, -2.0, 0.5])
    physics.forward()
    ball.shift_pose(physics, position=[1.0, 0.0, 0.0], rotate_velocity=True,
                    quaternion=[np.cos(0.4), 0.0, 0.0, np.sin(0.4)])
    put("pose", ball.get_pose(physics))
    put("qvel", physics.data.qvel)


@case("set_velocity_writes_angular_velocity_as_given")
def _(put):
    arena = composer.Arena()
    ball = manipulation_props.Primitive(geom_type="sphere", size=[0.05], name="ball")
    arena.add_free_entity(ball)
    physics = mjcf.Physics.from_mjcf_model(arena.mjcf_model)
    ball.set_pose(physics, quaternion=[np.cos(0.4), np.sin(0.4), 0.0, 0.0])
    ball.set_velocity(physics, angular_velocity=[0.3, 0.2, -0.1])
    put("qvel", physics.data.qvel)


@case("get_velocity_reads_qvel")
def _(put):
    arena = composer.Arena()
    ball = manipulation_props.Primitive(geom_type="sphere", size=[0.05], name="ball")
    arena.add_free_entity(ball)
    physics = mjcf.Physics.from_mjcf_model(arena.mjcf_model)
    ball.set_velocity(physics, velocity=[1.0, -2.0, 0.5], angular_velocity=[0.3, 0.2, -0.1])
    put("velocity", ball.get_velocity(physics))


@case("set_velocity_without_free_joint")
def _(put):
    arena = composer.Arena()
    ball = manipulation_props.Primitive(geom_type="sphere", size=[0.05], name="ball")
    arena.attach(ball)
    physics = mjcf.Physics.from_mjcf_model(arena.mjcf_model)
    ball.set_velocity(physics, velocity=[1.0, -2.0, 0.5], angular_velocity=[0.3, 0.2, -0.1])
    put("nv", physics.model.nv)
    ball.set_pose(physics, position=[0.1, 0.2, 0.3], quaternion=[0.0, 0.0, 0.0, 2.0])
    put("pose", ball.get_pose(physics))
    physics.forward()
    put("xpos", physics.bind(ball.geom).xpos)


@case("variators_reset_initial_values")
def _(put):
    from dm_control.composer import variation
    from dm_control.composer.variation import noises

    root = mjcf.RootElement(model="box")
    body = root.worldbody.add("body", name="body", pos=[0, 0, 0.5])
    body.add("joint", name="slide", type="slide", axis=[1, 0, 0])
    geom = body.add("geom", name="geom", type="box", size=[0.1, 0.2, 0.3])
    mjcf_variator = variation.MJCFVariator()
    mjcf_variator.bind_attributes(geom, size=noises.Multiplicative(2.0))
    random_state = np.random.RandomState(0)
    mjcf_variator.apply_variations(random_state)
    mjcf_variator.apply_variations(random_state)
    put("mjcf_kept", np.array(geom.size))
    mjcf_variator.reset_initial_values()
    mjcf_variator.apply_variations(random_state)
    put("mjcf_after_reset", np.array(geom.size))
    mjcf_variator.apply_variations(random_state)
    put("mjcf_again", np.array(geom.size))
    physics = mjcf.Physics.from_mjcf_model(root)
    physics_variator = variation.PhysicsVariator()
    physics_variator.bind_attributes(geom, friction=noises.Multiplicative(3.0))
    physics_variator.apply_variations(physics, random_state)
    physics_variator.apply_variations(physics, random_state)
    put("physics_kept", np.array(physics.bind(geom).friction))
    physics_variator.reset_initial_values()
    physics_variator.apply_variations(physics, random_state)
    physics_variator.apply_variations(physics, random_state)
    put("physics_after_reset", np.array(physics.bind(geom).friction))


@case("observable_call")
def _(put):
    arena = composer.Arena()
    ball = manipulation_props.Primitive(geom_type="sphere", size=[0.05], name="ball")
    arena.add_free_entity(ball)
    physics = mjcf.Physics.from_mjcf_model(arena.mjcf_model)
    put("position", ball.observables.position(physics))


@case("mjcf_camera_size_setters")
def _(put):
    root = mjcf.RootElement(model="cams")
    camera = root.worldbody.add("camera", name="eye", pos=[0, -2, 1])
    mjcf_camera = observable.MJCFCamera(camera, height=24, width=32)
    mjcf_camera.height, mjcf_camera.width = 16, 20
    put("mjcf_camera", [mjcf_camera.height, mjcf_camera.width])


@case("mujoco_camera_size_setters")
def _(put):
    mujoco_camera = observable.MujocoCamera("eye", height=12, width=8)
    mujoco_camera.height, mujoco_camera.width = 6, 4
    put("mujoco_camera", [mujoco_camera.height, mujoco_camera.width])
"""
)

CASES = [
    pytest.param(
        "hooks",
        marks=_MARK.dm_control_api(
            "composer.Entity.initialize_episode_mjcf",
            "composer.Entity.after_compile",
            "composer.Entity.initialize_episode",
            "composer.Entity.before_substep",
            "composer.Entity.after_substep",
            "composer.Entity.after_step",
            "composer.Task.initialize_episode_mjcf",
            "composer.Task.after_compile",
            "composer.Task.initialize_episode",
            "composer.Task.before_substep",
            "composer.Task.after_substep",
            "composer.Task.after_step",
            "composer.Task.get_reward",
            "composer.Task.get_discount",
            "composer.Task.should_terminate_episode",
            "composer.Task.root_entity",
            "composer.Task.control_timestep",
            "composer.Task.physics_timestep",
            "composer.Task.physics_steps_per_control_step",
            "composer.Environment.task",
            "composer.Environment.physics",
            "composer.Environment.close",
        ),
        id="hooks",
    ),
    pytest.param(
        "entity_defaults",
        marks=_MARK.dm_control_api(
            "composer.Entity.after_compile",
            "composer.Entity.after_step",
            "composer.Entity.after_substep",
            "composer.Entity.before_substep",
            "composer.Entity.initialize_episode",
            "composer.Entity.initialize_episode_mjcf",
            "composer.Task.after_compile",
            "composer.Task.after_step",
            "composer.Task.after_substep",
            "composer.Task.before_substep",
            "composer.Task.initialize_episode",
            "composer.Task.initialize_episode_mjcf",
            "composer.Task.get_discount",
            "composer.Task.should_terminate_episode",
        ),
        id="entity_defaults",
    ),
    pytest.param(
        "entity_tree",
        marks=_MARK.dm_control_api(
            "composer.Entity.parent",
            "composer.Entity.mjcf_model",
            "composer.Arena.mjcf_model",
            "composer.Entity.observables",
            "composer.Entity.detach",
            "composer.Observables.add_observable",
            "composer.Observables.disable_all",
        ),
        id="entity_tree",
    ),
    pytest.param(
        "free_entity_motion",
        marks=_MARK.dm_control_api(
            "composer.Entity.set_velocity",
            "composer.Entity.get_velocity",
            "composer.Entity.shift_pose",
            "manipulation.props.Primitive",
            "manipulation.props.Primitive.geom",
            "manipulation.props.Primitive.name",
            "manipulation.props.Primitive.mjcf_model",
            "manipulation.props.Primitive.position",
            "manipulation.props.Primitive.orientation",
            "manipulation.props.Primitive.linear_velocity",
            "manipulation.props.Primitive.angular_velocity",
            "manipulation.props.primitive.PrimitiveObservables",
            "manipulation.props.primitive.PrimitiveObservables.position",
            "manipulation.props.primitive.PrimitiveObservables.orientation",
            "manipulation.props.primitive.PrimitiveObservables.linear_velocity",
            "manipulation.props.primitive.PrimitiveObservables.angular_velocity",
            "composer.FreePropObservableMixin.position",
            "composer.FreePropObservableMixin.orientation",
            "composer.FreePropObservableMixin.linear_velocity",
            "composer.FreePropObservableMixin.angular_velocity",
        ),
        id="free_entity_motion",
    ),
    pytest.param(
        "shift_pose_rotate_velocity",
        marks=_MARK.dm_control_api("composer.Entity.shift_pose"),
        id="shift_pose_rotate_velocity",
    ),
    pytest.param(
        "set_velocity_writes_angular_velocity_as_given",
        marks=_MARK.dm_control_api("composer.Entity.set_velocity"),
        id="set_velocity_writes_angular_velocity_as_given",
    ),
    pytest.param(
        "get_velocity_reads_qvel",
        marks=_MARK.dm_control_api("composer.Entity.get_velocity"),
        id="get_velocity_reads_qvel",
    ),
    pytest.param(
        "set_velocity_without_free_joint",
        marks=_MARK.dm_control_api(
            "composer.Entity.set_velocity", "composer.Entity.get_pose", "composer.Entity.set_pose"
        ),
        id="set_velocity_without_free_joint",
    ),
    pytest.param(
        "variators_reset_initial_values",
        marks=_MARK.dm_control_api(
            "composer.variation.MJCFVariator.reset_initial_values",
            "composer.variation.PhysicsVariator.reset_initial_values",
        ),
        id="variators_reset_initial_values",
    ),
    pytest.param(
        "constants",
        marks=_MARK.dm_control_api(
            "composer.environment.HOOK_NAMES",
            "composer.ObservationPadding.INITIAL_VALUE",
            "composer.ObservationPadding.ZERO",
            "composer.observation.observable.base.AGGREGATORS",
            "mjcf.PREFIX_SEPARATOR",
        ),
        id="constants",
    ),
    pytest.param(
        "null_task",
        marks=_MARK.dm_control_api("composer.NullTask.root_entity", "composer.NullTask.get_reward"),
        id="null_task",
    ),
    pytest.param(
        "model_wrapper",
        marks=_MARK.dm_control_api("composer.ModelWrapperEntity.mjcf_model"),
        id="model_wrapper",
    ),
    pytest.param(
        "observable_options",
        marks=_MARK.dm_control_api(
            "composer.observation.observable.Observable",
            "composer.observation.observable.Observable.update_interval",
            "composer.observation.observable.Observable.buffer_size",
            "composer.observation.observable.Observable.delay",
            "composer.observation.observable.Observable.enabled",
            "composer.observation.observable.Observable.aggregator",
            "composer.observation.observable.Observable.corruptor",
            "composer.observation.observable.Observable.configure",
            "composer.observation.observable.Observable.observation_callable",
        ),
        id="observable_options",
    ),
    pytest.param(
        "feature_and_cameras",
        marks=_MARK.dm_control_api(
            "composer.observation.observable.MujocoFeature",
            "composer.observation.observable.MJCFCamera",
            "composer.observation.observable.MJCFCamera.height",
            "composer.observation.observable.MJCFCamera.width",
            "composer.observation.observable.MujocoCamera",
            "composer.observation.observable.MujocoCamera.height",
            "composer.observation.observable.MujocoCamera.width",
        ),
        id="feature_and_cameras",
    ),
    pytest.param(
        "mjcf_camera_size_setters",
        marks=_MARK.dm_control_api(
            "composer.observation.observable.MJCFCamera.height",
            "composer.observation.observable.MJCFCamera.width",
        ),
        id="mjcf_camera_size_setters",
    ),
    pytest.param(
        "mujoco_camera_size_setters",
        marks=_MARK.dm_control_api(
            "composer.observation.observable.MujocoCamera.height",
            "composer.observation.observable.MujocoCamera.width",
        ),
        id="mujoco_camera_size_setters",
    ),
    pytest.param(
        "observable_call",
        marks=_MARK.dm_control_api("composer.observation.observable.Observable"),
        id="observable_call",
    ),
    pytest.param(
        "buffer",
        marks=_MARK.dm_control_api(
            "composer.observation.Buffer.shape",
            "composer.observation.Buffer.dtype",
            "composer.observation.Buffer.insert",
            "composer.observation.Buffer.read",
            "composer.observation.Buffer.drop_unobserved_upcoming_items",
        ),
        id="buffer",
    ),
    pytest.param(
        "updater",
        marks=_MARK.dm_control_api(
            "composer.observation.Updater.reset",
            "composer.observation.Updater.observation_spec",
            "composer.observation.Updater.get_observation",
            "composer.observation.Updater.prepare_for_next_control_step",
        ),
        id="updater",
    ),
    pytest.param(
        "updater_update",
        marks=_MARK.dm_control_api("composer.observation.Updater.update"),
        id="updater_update",
    ),
]


@pytest.fixture(scope="module")
def composer_run(differential):
    return differential.compare(PROGRAM, "surface_composer", rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("case", CASES)
def test_composer_surface_matches_dm_control(composer_run, case):
    assert_case(composer_run, case)
