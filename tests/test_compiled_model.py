"""CompiledModel: a compiled model's values, put back at the resets where
dm_control compiles a new model (composer.Environment)."""

import copy

import mujoco
import numpy as np
import pytest

from composer_tasks import composer
from composer_tasks.composer.compiled_model import CompiledModel, _array_fields
from composer_tasks.physics import Physics

_XML = """
<mujoco>
  <asset>
    <hfield name="terrain" nrow="5" ncol="5" size="1 1 0.5 0.1"/>
    <texture name="grid" type="2d" builtin="checker" width="16" height="16"/>
  </asset>
  <worldbody>
    <geom name="floor" type="hfield" hfield="terrain"/>
    <body name="ball" pos="0 0 1">
      <freejoint/>
      <geom name="ball" type="sphere" size="0.1" mass="1"/>
      <site name="s"/>
    </body>
  </worldbody>
  <actuator><motor name="m" site="s" gear="1 0 0 0 0 0"/></actuator>
</mujoco>
"""


def _model():
    return mujoco.MjModel.from_xml_string(_XML)


def _same_values(model, reference):
    return all(
        np.array_equal(getattr(model, name), getattr(reference, name))
        for name in _array_fields()
        if name != "tex_data"
    )


def test_restore_puts_back_every_array_and_the_option_and_statistic_structs():
    model = _model()
    reference = copy.copy(model)
    compiled = CompiledModel(model)
    model.body_mass[1] *= 3
    model.geom_size[1, 0] = 0.5
    model.hfield_data[:] = 0.7
    model.actuator_gear[0, 0] = 9.0
    model.opt.gravity[:] = [1.0, 2.0, 3.0]
    model.opt.timestep = 0.01
    model.opt.integrator = mujoco.mjtIntegrator.mjINT_RK4
    model.stat.meaninertia = 42.0
    compiled.restore(model)
    assert _same_values(model, reference)
    np.testing.assert_array_equal(model.opt.gravity, reference.opt.gravity)
    assert model.opt.timestep == reference.opt.timestep
    assert model.opt.integrator == reference.opt.integrator
    assert model.stat.meaninertia == reference.stat.meaninertia


def test_restore_writes_into_a_copy_of_the_model_and_refuses_another_layout():
    model = _model()
    compiled = CompiledModel(model)
    twin = copy.copy(model)
    twin.body_mass[1] = 5.0
    compiled.restore(twin)
    assert twin.body_mass[1] == model.body_mass[1]
    other = mujoco.MjModel.from_xml_string("<mujoco><worldbody/></mujoco>")
    with pytest.raises(ValueError, match="buffer bytes"):
        compiled.restore(other)


def test_texture_pixels_are_not_restored():
    model = _model()
    compiled = CompiledModel(model)
    model.tex_data[:4] = 7
    compiled.restore(model)
    np.testing.assert_array_equal(model.tex_data[:4], 7)


def test_repr_is_by_content():
    assert repr(CompiledModel(_model())) == repr(CompiledModel(_model()))
    model = _model()
    model.body_mass[1] = 2.0
    assert repr(CompiledModel(model)) != repr(CompiledModel(_model()))


class _Arena(composer.Arena):
    def _build(self):
        super()._build()
        self.box = self.mjcf_model.worldbody.add(
            "geom", name="box", type="box", size=[0.1, 0.1, 0.1]
        )


class _Scaling(composer.Task):
    def __init__(self):
        self._arena = _Arena()
        self.seen = []

    @property
    def root_entity(self):
        return self._arena

    def initialize_episode(self, physics, random_state):
        self.seen.append(float(physics.bind(self._arena.box).size[0]))
        physics.bind(self._arena.box).size *= 2

    def get_reward(self, physics):
        return 0.0


@pytest.mark.parametrize("recompile, expected", [(True, [0.1, 0.1, 0.1]), (False, [0.1, 0.2, 0.4])])
def test_a_callbacks_model_edit_lasts_one_episode_unless_nothing_recompiles(recompile, expected):
    task = _Scaling()
    env = composer.Environment(task, random_state=0, recompile_mjcf_every_episode=recompile)
    for _ in range(3):
        env.reset()
    np.testing.assert_allclose(task.seen, expected)


def test_physics_of_a_spec_compiles_the_same_values_after_restores():
    task = _Scaling()
    env = composer.Environment(task, random_state=0)
    env.reset()
    fresh = Physics.from_spec(task.root_entity.spec)
    env.reset()
    env.physics.bind(task._arena.box).size /= 2  # undo this episode's doubling
    assert _same_values(env.physics.model, fresh.model)


def test_a_model_the_user_recompiled_is_kept_at_the_next_reset():
    task = _Scaling()
    env = composer.Environment(task, random_state=0)
    env.reset()
    # An edit of the spec itself, applied by the user's own recompile.
    spec_geom = task.root_entity.spec.geom("box")
    spec_geom.size = [0.3, 0.3, 0.3]
    env.physics.recompile()
    env.reset()
    env.reset()
    assert task.seen[-2:] == pytest.approx([0.3, 0.3])
