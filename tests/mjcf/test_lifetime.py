"""How long models built with `composer_tasks.mjcf` live: as long as their RootElement
is held (by the user, a handle, a parent model, an entity or a physics), then freed."""

import gc
import os
import sys
import weakref

import numpy as np

from composer_tasks import composer, mjcf
from composer_tasks.mjcf import root as root_module

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(__file__)), "dm_control_programs"))
from test_programs import load_ported  # noqa: E402  (the folder is put on the path above)


def _build(name):
    model = mjcf.RootElement(model=name)
    body = model.worldbody.add("body", name="torso")
    body.add("geom", type="sphere", size=[0.1])
    body.add("joint", name="hinge", type="hinge")
    return model


def _live_roots():
    gc.collect()
    return sum(isinstance(thing, mjcf.RootElement) for thing in gc.get_objects())


def test_models_built_and_dropped_are_freed():
    refs = []
    for index in range(50):
        model = _build(f"model{index}")
        refs.append(weakref.ref(model))
    del model
    gc.collect()
    assert not any(ref() is not None for ref in refs)


def test_the_registry_of_models_forgets_a_model_that_goes():
    model = _build("registered")
    spec = model.spec
    key = id(spec)
    assert root_module.root_of(spec) is model and key in root_module._ROOTS
    del model
    gc.collect()
    assert key not in root_module._ROOTS
    # The spec outlived its RootElement: wrapping it again registers a new one.
    again = root_module.RootElement._for_spec(spec)
    assert root_module.root_of(spec) is again and again.find("joint", "hinge") is not None
    # A model that goes removes only its own entry, not a newer one under the same id.
    first, second = _build("first"), _build("second")
    shared_key = id(first.spec)
    root_module._remember(shared_key, second)  # as if the id had been reused
    del first
    gc.collect()
    assert root_module._ROOTS[shared_key]() is second
    del second
    gc.collect()
    assert shared_key not in root_module._ROOTS


def test_a_handle_keeps_its_model():
    handle = _build("kept").find("joint", "hinge")
    gc.collect()
    assert handle.root.find("body", "torso") is not None
    assert root_module.root_of(handle.root.spec) is handle.root


def test_a_physics_keeps_its_model_until_it_goes():
    model = _build("compiled")
    ref = weakref.ref(model)
    physics = mjcf.Physics.from_mjcf_model(model)
    del model
    gc.collect()
    assert ref() is not None
    assert physics.named.data.qpos["hinge"].shape == (1,)
    physics.bind(ref().find("joint", "hinge")).qpos = 0.5
    np.testing.assert_array_equal(physics.named.data.qpos["hinge"], [0.5])
    del physics
    gc.collect()
    assert ref() is None


def test_an_attached_model_lives_with_its_parent():
    parent = _build("parent")
    child = _build("child")
    child_ref = weakref.ref(child)
    parent.find("body", "torso").add("site", name="mount").attach(child)
    del child
    gc.collect()
    assert child_ref() is not None
    assert parent.find("joint", "child/hinge") is not None


class _LocalModelEntity(composer.Entity):
    """Builds its model as a local RootElement and keeps only the spec."""

    def _build(self):
        model = _build("local")
        leg = mjcf.RootElement(model="leg")
        leg.worldbody.add("geom", name="foot", type="sphere", size=[0.05])
        model.find("body", "torso").add("site", name="hip").attach(leg)
        self._spec = model.spec


def test_an_entity_keeps_the_model_its_build_made():
    entity = _LocalModelEntity()
    gc.collect()
    model = entity.mjcf_model
    assert model is entity.mjcf_model
    assert model._authored  # made by RootElement(), not re-wrapped from a bare spec
    assert model.find("geom", "leg/foot") is not None
    arena = composer.Arena()
    gc.collect()
    assert arena.mjcf_model is arena.mjcf_model
    assert arena.mjcf_model._authored


def test_entities_and_environments_dropped_leave_no_models():
    program = load_ported("creature_button")

    def run_once(seed):
        environment, _ = program.make_environment(seed)
        environment.reset()
        environment.step(np.zeros(environment.action_spec().shape))
        environment.close()

    run_once(0)
    baseline = _live_roots()
    for seed in range(1, 6):
        run_once(seed)
    assert _live_roots() == baseline
