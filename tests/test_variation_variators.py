"""Tests for MJCFVariator and PhysicsVariator, on bare specs and in an Environment."""

import mujoco
import numpy as np
import pytest

from composer_tasks import composer
from composer_tasks.composer import variation
from composer_tasks.composer.variation import deterministic
from composer_tasks.composer.variation import distributions
from composer_tasks.composer.variation import noises
from composer_tasks.physics import Physics

_SIZE = np.array([0.1, 0.2, 0.3])
_BOX_DENSITY = 1000.0  # MuJoCo's default geom density, kg/m^3.
_BOX_MASS = _BOX_DENSITY * 8.0 * np.prod(_SIZE)  # Box size is half-extents.


def _scaled(low=0.5, high=1.5):
    return noises.Multiplicative(distributions.Uniform(low, high))


def _box_spec():
    spec = mujoco.MjSpec()
    spec.modelname = "box"
    body = spec.worldbody.add_body(name="body", pos=[0.0, 0.0, 1.0])
    body.add_freejoint(name="free")
    spec.worldbody.add_geom(name="floor", type=mujoco.mjtGeom.mjGEOM_PLANE, size=[1.0, 1.0, 0.1])
    geom = body.add_geom(
        name="geom", type=mujoco.mjtGeom.mjGEOM_BOX, size=_SIZE, rgba=[0.2, 0.4, 0.6, 1.0]
    )
    return spec, body, geom


# MJCFVariator on a bare spec.


def test_mjcf_variator_changes_the_compiled_geom_size_every_time():
    spec, body, geom = _box_spec()
    floor = spec.geom("floor")
    variator = variation.MJCFVariator()
    variator.bind_attributes(geom, size=_scaled())
    random_state = np.random.RandomState(0)
    model = spec.compile()
    data = mujoco.MjData(model)
    data.qpos[:3] = [0.5, -0.5, 2.0]
    sizes = []
    for _ in range(4):
        variator.apply_variations(random_state)
        model, data = spec.recompile(model, data)
        compiled = model.bind(geom).size
        np.testing.assert_array_equal(compiled, geom.size)
        sizes.append(compiled.copy())
        # Relative to the original size each time, not compounding.
        ratio = compiled / _SIZE
        assert np.all((ratio >= 0.5) & (ratio <= 1.5))
        assert len(np.unique(ratio)) == 3
        # Nothing else changed: other attributes, other geoms, the body, the state.
        np.testing.assert_allclose(model.bind(geom).rgba, [0.2, 0.4, 0.6, 1.0], rtol=1e-6)
        np.testing.assert_array_equal(model.bind(floor).size, [1.0, 1.0, 0.1])
        np.testing.assert_array_equal(model.bind(body).pos, [0.0, 0.0, 1.0])
        np.testing.assert_array_equal(data.qpos[:3], [0.5, -0.5, 2.0])
    assert len({tuple(size) for size in sizes}) == 4


def test_mjcf_variator_is_deterministic_under_a_seed():
    def sizes(seed):
        spec, _, geom = _box_spec()
        variator = variation.MJCFVariator()
        variator.bind_attributes(geom, size=_scaled())
        random_state = np.random.RandomState(seed)
        result = []
        for _ in range(3):
            variator.apply_variations(random_state)
            result.append(spec.compile().bind(geom).size.copy())
        return np.array(result)

    np.testing.assert_array_equal(sizes(1), sizes(1))
    assert not np.array_equal(sizes(1), sizes(2))


def test_mjcf_variator_values_scalars_and_cumulative():
    spec, body, geom = _box_spec()
    variator = variation.MJCFVariator()
    variator.bind_attributes(
        geom,
        rgba=[1.0, 0.0, 0.0, 1.0],
        pos=noises.Additive(deterministic.Constant(0.5), cumulative=True),
    )
    variator.bind_attributes(
        body,
        mass=deterministic.Sequence([2.0, 3.0]),
        gravcomp=distributions.Uniform(single_sample=True),
    )
    random_state = np.random.default_rng(0)
    variator.apply_variations(random_state)
    variator.apply_variations(random_state)
    np.testing.assert_array_equal(geom.rgba, [1.0, 0.0, 0.0, 1.0])
    np.testing.assert_array_equal(geom.pos, [1.0, 1.0, 1.0])
    assert body.mass == 3.0
    assert 0.0 <= body.gravcomp < 1.0
    np.testing.assert_array_equal(spec.compile().bind(geom).pos, [1.0, 1.0, 1.0])


def test_single_sample_broadcasts_to_the_attribute_shape():
    spec, _, geom = _box_spec()
    variator = variation.MJCFVariator()
    variator.bind_attributes(geom, size=distributions.Uniform(0.1, 0.2, single_sample=True))
    variator.apply_variations(np.random.RandomState(0))
    assert geom.size[0] == geom.size[1] == geom.size[2]
    assert 0.1 <= geom.size[0] < 0.2
    del spec


def test_variations_get_copies_of_the_initial_value():
    spec, _, geom = _box_spec()
    seen = []

    def vandal(initial_value, current_value, random_state):
        seen.append(initial_value.copy())
        initial_value *= 10.0
        current_value *= 10.0
        return initial_value + 1.0

    variator = variation.MJCFVariator()
    variator.bind_attributes(geom, size=vandal)
    random_state = np.random.RandomState(0)
    variator.apply_variations(random_state)
    variator.apply_variations(random_state)
    np.testing.assert_array_equal(seen[0], _SIZE)
    np.testing.assert_array_equal(seen[1], _SIZE)
    np.testing.assert_allclose(geom.size, _SIZE * 10.0 + 1.0)
    del spec


def test_bind_none_removes_and_clear_removes_all():
    spec, body, geom = _box_spec()
    variator = variation.MJCFVariator()
    variator.bind_attributes(geom, size=[0.5, 0.5, 0.5], rgba=[0.0, 0.0, 0.0, 1.0])
    variator.bind_attributes(geom, size=None)
    variator.apply_variations(np.random.RandomState(0))
    np.testing.assert_array_equal(geom.size, _SIZE)
    np.testing.assert_array_equal(geom.rgba, [0.0, 0.0, 0.0, 1.0])
    variator.bind_attributes(body, mass=4.0)
    variator.clear()
    variator.apply_variations(np.random.RandomState(0))
    assert body.mass == 0.0
    del spec


def test_mjcf_variator_bad_input():
    spec, body, geom = _box_spec()
    variator = variation.MJCFVariator()
    with pytest.raises(AttributeError, match="'geom'.*'colour'"):
        variator.bind_attributes(geom, colour=[1.0, 0.0, 0.0, 1.0])

    variator.bind_attributes(geom, size=[0.1, 0.2])
    with pytest.raises(ValueError, match="'geom'.*size.*shape"):
        variator.apply_variations(np.random.RandomState(0))
    np.testing.assert_array_equal(geom.size, _SIZE)

    variator = variation.MJCFVariator()
    variator.bind_attributes(body, mass=[1.0, 2.0])
    with pytest.raises(ValueError, match="'body'.*mass.*scalar"):
        variator.apply_variations(np.random.RandomState(0))

    variator = variation.MJCFVariator()
    variator.bind_attributes(geom, contype=0.5)
    with pytest.raises(ValueError, match="contype.*integer"):
        variator.apply_variations(np.random.RandomState(0))

    variator = variation.MJCFVariator()
    variator.bind_attributes(geom, size=distributions.Uniform())
    with pytest.raises(TypeError, match="random_state"):
        variator.apply_variations("seed")
    del spec


# PhysicsVariator on a Physics.


def test_physics_variator_changes_masses_without_recompiling():
    spec, body, geom = _box_spec()
    physics = Physics.from_spec(spec)
    model = physics.model
    xml = spec.to_xml()
    assert physics.bind(body).mass[0] == pytest.approx(_BOX_MASS)
    variator = variation.PhysicsVariator()
    variator.bind_attributes(body, mass=_scaled())
    variator.bind_attributes(geom, friction=noises.Additive([0.5, 0.0, 0.0]))
    random_state = np.random.RandomState(0)
    masses = []
    for _ in range(4):
        variator.apply_variations(physics, random_state)
        assert physics.model is model
        mass = physics.bind(body).mass[0]
        assert 0.5 * _BOX_MASS <= mass <= 1.5 * _BOX_MASS
        masses.append(mass)
        # The initial friction (1, 0.005, 0.0001), not the previous episode's.
        np.testing.assert_allclose(physics.bind(geom).friction, [1.5, 0.005, 0.0001])
    assert len(set(masses)) == 4
    assert spec.to_xml() == xml
    assert spec.body("body").mass == 0.0


def test_physics_variator_reads_initial_values_again_after_recompiling():
    spec, body, geom = _box_spec()
    physics = Physics.from_spec(spec)
    variator = variation.PhysicsVariator()
    variator.bind_attributes(body, mass=noises.Multiplicative(2.0))
    random_state = np.random.RandomState(0)
    variator.apply_variations(physics, random_state)
    variator.apply_variations(physics, random_state)
    assert physics.bind(body).mass[0] == pytest.approx(2.0 * _BOX_MASS)
    geom.size = 2.0 * _SIZE
    physics.recompile()
    variator.apply_variations(physics, random_state)
    assert physics.bind(body).mass[0] == pytest.approx(2.0 * 8.0 * _BOX_MASS)


def test_physics_variator_bad_input():
    spec, body, geom = _box_spec()
    physics = Physics.from_spec(spec)
    variator = variation.PhysicsVariator()
    variator.bind_attributes(body, moss=1.0)
    with pytest.raises(AttributeError, match="'body'.*'moss'"):
        variator.apply_variations(physics, np.random.RandomState(0))
    variator = variation.PhysicsVariator()
    variator.bind_attributes(geom, size=[1.0, 2.0])
    with pytest.raises(ValueError, match="'geom'.*size"):
        variator.apply_variations(physics, np.random.RandomState(0))
    np.testing.assert_array_equal(physics.bind(geom).size, _SIZE)


# Both variators in a composer.Environment.


class _Box(composer.Entity):
    def _build(self, name="box"):
        self._spec, self.body, self.geom = _box_spec()
        self._spec.modelname = name


class _VariedTask(composer.Task):
    def __init__(self):
        self._box = _Box()
        self.mjcf_variator = variation.MJCFVariator()
        self.physics_variator = variation.PhysicsVariator()

    @property
    def root_entity(self):
        return self._box

    @property
    def box(self):
        return self._box

    def initialize_episode_mjcf(self, random_state):
        self.mjcf_variator.apply_variations(random_state)

    def initialize_episode(self, physics, random_state):
        self.physics_variator.apply_variations(physics, random_state)

    def get_reward(self, physics):
        return 0.0


def test_environment_recompiles_with_each_mjcf_variation():
    task = _VariedTask()
    task.mjcf_variator.bind_attributes(task.box.geom, size=_scaled())
    env = composer.Environment(task, random_state=3)
    sizes = []
    for _ in range(3):
        env.reset()
        env.step(np.zeros(0))
        compiled = env.physics.bind(task.box.geom).size
        np.testing.assert_array_equal(compiled, task.box.geom.size)
        assert np.all((compiled >= 0.5 * _SIZE) & (compiled <= 1.5 * _SIZE))
        sizes.append(tuple(compiled))
        np.testing.assert_array_equal(env.physics.bind(task.box.body).pos, [0.0, 0.0, 1.0])
    assert len(set(sizes)) == 3


def test_environment_physics_variation_keeps_the_model():
    task = _VariedTask()
    task.physics_variator.bind_attributes(task.box.body, mass=_scaled())
    env = composer.Environment(task, random_state=3)
    model = env.physics.model
    masses = []
    for _ in range(3):
        env.reset()
        assert env.physics.model is model
        masses.append(env.physics.bind(task.box.body).mass[0])
    assert len(set(masses)) == 3
    assert all(0.5 * _BOX_MASS <= mass <= 1.5 * _BOX_MASS for mass in masses)


def test_environment_variations_are_seeded():
    def episode_values(seed):
        task = _VariedTask()
        task.mjcf_variator.bind_attributes(task.box.geom, size=_scaled())
        task.physics_variator.bind_attributes(task.box.body, mass=_scaled())
        env = composer.Environment(task, random_state=seed)
        values = []
        for _ in range(2):
            env.reset()
            values.append(
                np.concatenate(
                    [env.physics.bind(task.box.geom).size, env.physics.bind(task.box.body).mass]
                )
            )
        return np.array(values)

    np.testing.assert_array_equal(episode_values(5), episode_values(5))
    assert not np.array_equal(episode_values(5), episode_values(6))
