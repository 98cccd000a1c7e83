"""The batch's one shared model: the per-copy fields it finds and expands, the copies
that fall back to models of their own, and model variations that collide with a
task's own variator."""

import logging

import mujoco
import numpy as np
import pytest

from composer_tasks import batch_fields, seeding
from composer_tasks.batch import BatchEnvironment, copy_seed
from composer_tasks.composer.variation import PhysicsVariator, distributions
from suites import suite

from core_fixtures import RandomHeightTask

_MASS = ("body", "creature/torso", "mass")


def _assert_batch_equals_singles(batch, singles, steps):
    spec = batch.action_spec()
    actions = np.random.RandomState(3).uniform(
        spec.minimum, spec.maximum, size=(steps, batch.num_envs) + spec.shape
    )
    batched = batch.reset()
    alone = [env.reset() for env in singles]
    for step in range(steps + 1):
        for index, timestep in enumerate(alone):
            assert batched.step_type[index] == timestep.step_type, (step, index)
            assert batched.reward[index] == (timestep.reward or 0.0), (step, index)
            for name, value in timestep.observation.items():
                np.testing.assert_array_equal(
                    batched.observation[name][index], value, err_msg=f"{name} {step} {index}"
                )
        if step == steps:
            return
        batched = batch.step(actions[step])
        alone = [env.step(actions[step, index]) for index, env in enumerate(singles)]


# The comparison itself.


def test_model_reference_names_every_kind_of_difference():
    model = suite.load("cartpole", "balance").physics.model
    reference = batch_fields.ModelReference(model)
    other = mujoco.MjModel.__copy__(model)
    assert reference.differences(other) == ()
    other.body_mass[2] += 1.0
    other.opt.timestep *= 2
    other.stat.meaninertia += 1.0
    assert reference.differences(other) == ("body_mass", "opt.timestep", "stat.meaninertia")
    smaller = mujoco.MjModel.from_xml_string("<mujoco><worldbody/></mujoco>")
    assert "nbody" in reference.differences(smaller)


@pytest.mark.parametrize(
    "field, change",
    [
        ("opt.density", lambda opt: setattr(opt, "density", -0.0)),  # equal to 0.0 as a float
        ("opt.viscosity", lambda opt: setattr(opt, "viscosity", float("nan"))),
        ("opt.iterations", lambda opt: setattr(opt, "iterations", opt.iterations + 1)),
        ("opt.wind", lambda opt: opt.wind.__setitem__(1, -0.0)),
        ("opt.o_solimp", lambda opt: opt.o_solimp.__setitem__(4, opt.o_solimp[4] * 2)),
    ],
)
def test_model_reference_tells_option_bits_apart(field, change):
    """The options' snapshot misses no bit: -0.0 against 0.0, a NaN, an int, an entry
    of an array field."""
    model = suite.load("cartpole", "balance").physics.model
    assert model.opt.density == 0.0 and model.opt.viscosity == 0.0 and model.opt.wind[1] == 0.0
    reference = batch_fields.ModelReference(model)
    other = mujoco.MjModel.__copy__(model)
    change(other.opt)
    assert reference.differences(other) == (field,)
    # Equal bits are equal, a NaN's included.
    assert batch_fields.ModelReference(other).differences(mujoco.MjModel.__copy__(other)) == ()


def test_expandable_fields_are_mujoco_batchs():
    assert batch_fields.cpu_expandable("body_mass")
    assert batch_fields.cpu_expandable("opt.timestep")
    assert not batch_fields.cpu_expandable("hfield_data")
    assert not batch_fields.cpu_expandable("stat.meaninertia")


def test_model_reference_refuses_what_is_not_a_model():
    with pytest.raises(TypeError, match="mujoco.MjModel"):
        batch_fields.ModelReference("cartpole")


# One model by default.


def test_model_variations_run_on_one_model_with_the_varied_field_expanded():
    variations = {_MASS: distributions.Uniform(0.5, 2.0)}
    batch = BatchEnvironment(
        RandomHeightTask, 3, seed=4, time_limit=0.05, model_variations=variations
    )
    batch.reset()
    assert batch.batch.models is None
    masses = batch.batch.expanded("body_mass")
    torso = batch.envs[0].physics.model.body("creature/torso").id
    np.testing.assert_array_equal(masses[:, torso], batch.model_values(*_MASS)[:, 0])
    assert len(np.unique(masses[:, torso])) == 3


@pytest.mark.parametrize(
    "domain, task, expanded",
    [
        ("fish", "swim", ("geom_pos",)),  # the target moves at each reset
        ("lqr", "lqr_2_1", ("jnt_stiffness",)),  # drawn when the copy is built
        ("cartpole", "swingup", ()),
    ],
)
def test_fields_a_task_changes_are_found_without_a_hint(domain, task, expanded):
    batch = suite.load_batch(domain, task, 3, seed=1)
    batch.reset()
    assert batch.batch.models is None
    for name in expanded:
        assert batch.batch.expanded(name) is not None, name


def test_a_field_that_cannot_be_expanded_gives_those_copies_their_own_models(caplog):
    with caplog.at_level(logging.WARNING, logger="composer_tasks.batch"):
        batch = suite.load_batch("quadruped", "escape", 3, seed=0, task_kwargs={"time_limit": 0.1})
        singles = [
            suite.load(
                "quadruped", "escape", task_kwargs={"random": copy_seed(0, i), "time_limit": 0.1}
            )
            for i in range(3)
        ]
        _assert_batch_equals_singles(batch, singles, steps=7)  # across an auto-reset
    notes = [
        record.getMessage() for record in caplog.records if "shared model" in record.getMessage()
    ]
    assert len(notes) == 1
    assert "Escape" in notes[0] and "hfield_data" in notes[0]
    assert batch.batch.models is not None


def test_model_variations_stay_bit_identical_to_single_environments():
    variations = {("body", "pole_1", "mass"): distributions.Uniform(0.5, 2.0)}
    kwargs = {"time_limit": 0.1}
    batch = suite.load_batch(
        "cartpole", "balance", 3, seed=5, model_variations=variations, task_kwargs=kwargs
    )

    class _Varied:
        """A single environment that draws the batch's variations from the copy's stream."""

        def __init__(self, index):
            self.env = suite.load(
                "cartpole", "balance", task_kwargs=dict(kwargs, random=copy_seed(5, index))
            )
            self._random = np.random.RandomState(seeding.derive_seed(5, index, 1))

        def reset(self):
            mass = self.env.physics.model.body("pole_1").mass
            mass[:] = variations[("body", "pole_1", "mass")](
                initial_value=mass.copy(), current_value=mass.copy(), random_state=self._random
            )
            return self.env.reset()

        def step(self, action):
            return self.reset() if self.env.needs_reset else self.env.step(action)

    _assert_batch_equals_singles(batch, [_Varied(index) for index in range(3)], steps=7)
    assert batch.batch.models is None


def test_copy_physics_takes_an_edit_between_resets_and_refuses_a_bad_index():
    batch = suite.load_batch("cartpole", "balance", 2, seed=0)
    batch.reset()
    with batch.copy_physics(1) as physics:
        physics.model.actuator("slide").gear[0] = 20.0
    assert batch.batch.expanded("actuator_gear")[:, 0, 0].tolist() == [10.0, 20.0]
    assert batch.model_values("actuator", "slide", "gear")[:, 0].tolist() == [10.0, 20.0]
    with pytest.raises(ValueError, match="copy index"):
        with batch.copy_physics(2):
            pass


# Model variations against a task's own variator.


class _VariedFrictionTask(RandomHeightTask):
    def __init__(self):
        super().__init__()
        self.variators = [PhysicsVariator()]
        self.variators[0].bind_attributes(
            self.creature.torso_geom, friction=distributions.Uniform(0.5, 1.0)
        )

    def initialize_episode(self, physics, random_state):
        self.variators[0].apply_variations(physics, random_state)
        super().initialize_episode(physics, random_state)


def test_model_variations_of_an_attribute_a_task_variator_varies_are_refused():
    friction = ("geom", "creature/torso", "friction")
    with pytest.raises(
        ValueError,
        match=r"model_variations\[\('geom', 'creature/torso', 'friction'\)\] and "
        r"_VariedFrictionTask.variators\[0\] \(a PhysicsVariator\) both vary",
    ):
        BatchEnvironment(
            _VariedFrictionTask, 2, seed=0, model_variations={friction: distributions.Uniform(2, 3)}
        )


def test_model_variations_of_another_attribute_run_beside_a_task_variator():
    variations = {_MASS: distributions.Uniform(0.5, 1.0)}
    batch = BatchEnvironment(_VariedFrictionTask, 2, seed=0, model_variations=variations)
    batch.reset()
    assert batch.batch.models is None
    assert batch.batch.expanded("body_mass") is not None
    assert batch.batch.expanded("geom_friction") is not None


# Copies keep no model or MjData of their own unless theirs cannot be shared.


def test_vectorised_copies_share_one_scratch_physics():
    batch = suite.load_batch("fish", "swim", 3, seed=0)
    batch.reset()
    models = {id(env.physics.model) for env in batch.envs}
    datas = {id(env.physics.data) for env in batch.envs}
    assert len(models) == len(datas) == 1
    # Each copy's own values come from the batch: fish's target moves per copy.
    targets = {batch.copy_model(index).geom_pos.tobytes() for index in range(3)}
    assert len(targets) == 3


def test_copies_whose_models_cannot_be_shared_keep_their_own():
    batch = suite.load_batch("quadruped", "escape", 3, seed=0)
    batch.reset()
    models = [env.physics.model for env in batch.envs]
    assert len({id(model) for model in models}) == 3
    assert list(batch.batch.models) == models


@pytest.mark.parametrize(
    "domain, task, variations",
    [
        ("fish", "swim", None),
        ("quadruped", "escape", None),
        ("cartpole", "balance", {("body", "pole_1", "mass"): distributions.Uniform(0.5, 2.0)}),
    ],
)
def test_a_snapshot_restores_into_a_fresh_batch_bit_for_bit(domain, task, variations):
    def make(seed):
        return suite.load_batch(
            domain, task, 3, seed=seed, model_variations=variations, task_kwargs={"time_limit": 0.1}
        )

    batch = make(1)
    spec = batch.action_spec()
    actions = np.random.RandomState(0).uniform(
        spec.minimum, spec.maximum, size=(12, 3) + spec.shape
    )
    batch.reset()
    for row in actions[:4]:
        batch.step(row)
    snapshot = batch.snapshot()
    expected = [batch.step(row) for row in actions[4:]]
    fresh = make(8)
    fresh.reset()
    fresh.restore(snapshot)
    for row, want in zip(actions[4:], expected):
        got = fresh.step(row)
        np.testing.assert_array_equal(got.step_type, want.step_type)
        np.testing.assert_array_equal(got.reward, want.reward)
        for name, value in want.observation.items():
            np.testing.assert_array_equal(got.observation[name], value, err_msg=name)


def test_an_unexpandable_edit_later_gives_varied_copies_their_own_models(caplog):
    variations = {("body", "pole_1", "mass"): distributions.Uniform(0.5, 2.0)}

    def make():
        return suite.load_batch("cartpole", "balance", 3, seed=2, model_variations=variations)

    edited, twin = make(), make()
    edited.reset()
    twin.reset()
    masses = edited.model_values("body", "pole_1", "mass")
    assert edited.batch.models is None
    with caplog.at_level(logging.WARNING, logger="composer_tasks.batch"):
        with edited.copy_physics(1) as physics:
            physics.model.stat.meaninertia *= 2.0
    assert any("stat.meaninertia" in record.getMessage() for record in caplog.records)
    # Copies 0 and 2 left the scratch Physics for models of their own (their masses
    # differ from the shared model's); copy 1 keeps the edited one.
    assert edited.batch.models is not None
    assert len({id(env.physics.model) for env in edited.envs}) == 3
    np.testing.assert_array_equal(edited.model_values("body", "pole_1", "mass"), masses)
    assert edited.copy_model(1).stat.meaninertia == 2.0 * twin.copy_model(1).stat.meaninertia
    actions = np.random.RandomState(1).uniform(-1, 1, size=(5, 3, 1))
    for row in actions:
        got, want = edited.step(row), twin.step(row)
        for name, value in want.observation.items():
            np.testing.assert_array_equal(got.observation[name][[0, 2]], value[[0, 2]])


def test_copy_model_replaces_a_model_of_other_sizes():
    batch = suite.load_batch("cartpole", "balance", 2, seed=0)
    batch.reset()
    other = mujoco.MjModel.from_xml_string("<mujoco/>")
    model = batch.copy_model(1, other)
    assert model is not other and model.nbody == batch.copy_model(0).nbody
    assert batch.copy_model(1, model) is model


def test_a_batch_without_model_variations_reseeds_and_snapshots_its_copies():
    # Without model_variations the copies have no variation streams to keep (nothing
    # would draw from them); reseeding still seeds every copy's task stream, and a
    # snapshot still holds one (empty) variation entry per copy, as the Gymnasium
    # adapter's partial reset splices it copy by copy.
    batch = suite.load_batch("cartpole", "swingup", 3, seed=0)
    batch.reset()
    batch.reseed(7)
    reseeded = batch.step(np.zeros((3, 1)))
    fresh = suite.load_batch("cartpole", "swingup", 3, seed=7).reset()
    for name, value in fresh.observation.items():
        np.testing.assert_array_equal(reseeded.observation[name], value, err_msg=name)
    batch.reseed([11, 12, 13])
    listed = batch.step(np.zeros((3, 1)))
    for index, seed in enumerate((11, 12, 13)):
        alone = suite.load("cartpole", "swingup", task_kwargs={"random": seed}).reset()
        for name, value in alone.observation.items():
            np.testing.assert_array_equal(listed.observation[name][index], value, err_msg=name)
    snapshot = batch.snapshot()
    assert snapshot["variation_random"] == [None, None, None]
    after = batch.step(np.full((3, 1), 0.5))
    batch.restore(snapshot)
    again = batch.step(np.full((3, 1), 0.5))
    for name, value in after.observation.items():
        np.testing.assert_array_equal(again.observation[name], value, err_msg=name)
