"""mjcf.Physics: bind with dm_control's shapes, named indexing, and compiled-model checks;
mjcf models in composer entities, arenas and environments."""

import mujoco
import numpy as np
import pytest

from composer_tasks import composer, mjcf
from composer_tasks.composer.observation import observable


def _model():
    model = mjcf.RootElement(model="robot")
    base = model.worldbody.add("body", name="base", pos=[0, 0, 1])
    base.add("freejoint", name="root")
    base.add("geom", name="base", type="box", size=[0.1, 0.1, 0.1], mass=2)
    imu = base.add("site", name="imu")
    arms, hinges = [], []
    for index in range(2):
        arm = base.add("body", name=f"arm{index}", pos=[0.2 * (-1) ** index, 0, 0])
        hinges.append(arm.add("joint", name=f"hinge{index}", axis=[0, 1, 0]))
        arm.add(
            "geom", name=f"arm{index}", type="capsule", fromto=[0, 0, 0, 0.2, 0, 0], size=[0.02]
        )
        arms.append(arm)
        model.actuator.add("motor", name=f"motor{index}", joint=hinges[-1], ctrlrange=[-1, 1])
    sensors = [
        model.sensor.add("accelerometer", name="acc", site=imu),
        model.sensor.add("gyro", name="gyro", site=imu),
    ]
    return model, base, arms, hinges, sensors


def test_bind_shapes_follow_dm_control():
    model, base, arms, hinges, sensors = _model()
    physics = mjcf.Physics.from_mjcf_model(model)
    root = model.find("joint", "root")
    assert physics.bind(hinges[0]).qpos.shape == (1,)
    assert physics.bind(hinges).qpos.shape == (2,)
    assert physics.bind(root).qpos.shape == (7,)
    assert physics.bind([root] + hinges).qpos.shape == (9,)
    assert physics.bind(base).xpos.shape == (3,) and physics.bind(base).xmat.shape == (9,)
    assert physics.bind(arms).xpos.shape == (2, 3)
    assert np.shape(physics.bind(base).mass) == () and physics.bind(base).mass == 2
    assert physics.bind(arms).mass.shape == (2,)
    assert physics.bind(sensors[0]).sensordata.shape == (3,)
    assert physics.bind(sensors).sensordata.shape == (6,)
    assert physics.bind(model.find("site", "imu")).xpos.shape == (3,)  # site_xpos
    assert physics.bind(hinges[1]).element_id == physics.model.joint("hinge1").id
    np.testing.assert_array_equal(physics.bind(hinges).element_id, [1, 2])


def test_bind_writes():
    model, _, _, hinges, _ = _model()
    physics = mjcf.Physics.from_mjcf_model(model)
    physics.bind(hinges[0]).qpos[0] = 0.3  # a live view
    physics.bind(hinges).qvel = [1.0, 2.0]
    physics.bind(model.find("geom", "base")).rgba = [0, 1, 0, 1]
    assert physics.data.qpos[7] == 0.3 and physics.data.qvel[6:].tolist() == [1.0, 2.0]
    assert physics.model.geom_rgba[0].tolist() == [0, 1, 0, 1]
    values = physics.bind(hinges).qpos
    values[0] = 1.0  # a list's values are written back, as dm_control's are
    assert physics.data.qpos[7] == 1.0 and physics.is_dirty
    with pytest.raises(AttributeError, match="'qpoz' for a joint"):
        _ = physics.bind(hinges).qpoz


def test_named_indexing():
    model, _, _, _, _ = _model()
    physics = mjcf.Physics.from_mjcf_model(model)
    named = physics.named
    named.data.qpos["hinge1"] = 0.5
    assert named.data.qpos["hinge1"].shape == (1,) and physics.data.qpos[8] == 0.5
    assert named.data.qpos["root"].shape == (7,)
    assert named.data.qvel[["root", "hinge0"]].shape == (7,)
    assert named.data.xpos["base"].shape == (3,) and named.data.xpos["base", "z"] == 1.0
    assert named.data.xpos[["arm0", "arm1"]].shape == (2, 3)
    assert named.data.xpos["base", ["x", "y"]].tolist() == [0.0, 0.0]
    assert named.model.geom_size["base"].tolist() == [0.1, 0.1, 0.1]
    assert named.data.sensordata["gyro"].shape == (3,)
    assert named.data.ctrl["motor1"] == 0.0
    assert named.model.body_mass[["arm0", "arm1"]].shape == (2,)
    with pytest.raises(KeyError, match="no joint named 'nope'"):
        named.data.qpos["nope"]
    with pytest.raises(KeyError, match="no column named 'w'"):
        named.data.xpos["base", "w"]


def test_edits_after_compiling_raise_until_recompiled():
    model, base, _, hinges, _ = _model()
    physics = mjcf.Physics.from_mjcf_model(model)
    hinges[0].range = [-1, 1]
    with pytest.raises(ValueError, match="edited after this physics was compiled"):
        physics.bind(hinges[0])
    with pytest.raises(ValueError, match="edited after this physics was compiled"):
        _ = physics.named.data.qpos
    physics.recompile()
    # MuJoCo's default compiler reads angles in degrees.
    np.testing.assert_allclose(physics.bind(hinges[0]).range, np.deg2rad([-1, 1]))
    extra = base.add("site", name="late")
    with pytest.raises(ValueError, match="edited after"):
        physics.bind(extra)
    physics.recompile()
    assert physics.bind(extra).xpos.shape == (3,)


class _Robot(composer.Entity):
    """Written as in dm_control: the model is a RootElement that mjcf_model returns."""

    def _build(self):
        self._model, self._base, _, self._hinges, _ = _model()
        self._model.worldbody.find("joint", "root").remove()

    @property
    def mjcf_model(self):
        return self._model

    @property
    def hinges(self):
        return self._hinges


class _Floor(composer.Arena):
    def _build(self, name="floor"):
        super()._build(name=name)
        self.mjcf_model.worldbody.add("geom", name="ground", type="plane", size=[2, 2, 0.1])
        self.marker = self.mjcf_model.worldbody.add("site", name="marker", pos=[0, 0, 0])


class _Task(composer.Task):
    def __init__(self):
        self.arena = _Floor()
        self.robot = _Robot()
        self.arena.add_free_entity(self.robot)
        self.observed = observable.MJCFFeature("xpos", self.arena.marker, enabled=True)
        self.set_timesteps(0.02, 0.005)

    @property
    def root_entity(self):
        return self.arena

    @property
    def task_observables(self):
        return {"marker": self.observed}

    def initialize_episode_mjcf(self, random_state):
        self.arena.marker.pos = [random_state.uniform(1, 2), 0, 0]

    def get_reward(self, physics):
        return 0.0


def test_model_edits_in_initialize_episode_mjcf_take_effect():
    env = composer.Environment(_Task(), random_state=3, strip_singleton_obs_buffer_dim=True)
    first = env.reset().observation["marker"][0]
    second = env.reset().observation["marker"][0]
    assert 1 <= first <= 2 and 1 <= second <= 2 and first != second
    assert env.physics.model.site("marker").pos[0] == second


def test_entity_mjcf_model_and_arena_settings():
    task = _Task()
    assert task.robot.mjcf_model is task.robot._model and task.robot.name == "robot"
    assert task.robot.spec is task.robot.mjcf_model.spec
    assert task.arena.mjcf_model.find("joint", "robot/") is not None
    assert task.robot.free_joint is not None
    spec = task.arena.spec
    assert spec.option.cone == mujoco.mjtCone.mjCONE_ELLIPTIC
    assert spec.option.noslip_iterations == 5 and spec.option.noslip_tolerance == 0
    assert spec.compiler.boundmass == 1e-5 and spec.compiler.boundinertia == 1e-11
    assert not spec.compiler.degree
    env = composer.Environment(task, random_state=0)
    assert isinstance(env.physics, mjcf.Physics)
    hinges = task.robot.hinges
    assert env.physics.bind(hinges).qpos.shape == (2,)


def test_arenas_built_on_their_own_spec_get_the_physics_settings():
    from composer_tasks.arenas import Floor

    spec = Floor().spec
    assert spec.option.cone == mujoco.mjtCone.mjCONE_ELLIPTIC
    assert spec.option.noslip_iterations == 5 and spec.compiler.boundmass == 1e-5


def test_model_wrapper_entity():
    model, _, _, _, _ = _model()
    model.find("joint", "root").remove()
    entity = composer.ModelWrapperEntity(model)
    assert entity.mjcf_model is model and entity.name == "robot"
    arena = _Floor()
    frame = arena.attach(entity)
    frame.add("freejoint")
    assert entity.free_joint is not None
    with pytest.raises(TypeError, match="mjcf.RootElement or a mujoco.MjSpec"):
        composer.ModelWrapperEntity("robot.xml")
    # An unnamed model is "unnamed_model", as in PyMJCF.
    assert composer.ModelWrapperEntity(mjcf.RootElement()).name == "unnamed_model"


def test_entity_without_a_model_raises():
    class Empty(composer.Entity):
        def _build(self):
            pass

    with pytest.raises(TypeError, match="must set self._spec"):
        Empty()


def test_variators_take_mjcf_handles():
    from composer_tasks.composer import variation
    from composer_tasks.composer.variation import distributions

    model, _, _, hinges, _ = _model()
    geom = model.find("geom", "base")
    geom.rgba = [0.5, 0.5, 0.5, 1]  # a variator varies the value as written (None if unset)
    variator = variation.MJCFVariator()
    variator.bind_attributes(geom, rgba=distributions.Uniform(0, 1, single_sample=False))
    before = composer.spec_edits.spec_edit_count()
    variator.apply_variations(np.random.RandomState(0))
    assert composer.spec_edits.spec_edit_count() > before
    assert np.all((geom.rgba >= 0) & (geom.rgba <= 1)) and geom.rgba.tolist() != [0.5, 0.5, 0.5, 1]
    physics = mjcf.Physics.from_mjcf_model(model)
    physics_variator = variation.PhysicsVariator()
    physics_variator.bind_attributes(hinges[0], damping=distributions.Uniform(1, 2))
    physics_variator.apply_variations(physics, np.random.RandomState(0))
    assert 1 <= physics.bind(hinges[0]).damping[0] <= 2
