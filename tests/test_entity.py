"""Entity: attachment by reference, names, binding, detach, poses, compile errors."""

import logging
import mujoco
import numpy as np
import pytest

from composer_tasks import composer
from composer_tasks.physics import Physics

from core_fixtures import Leg, Plane, Torso


def _names(model, kind, count):
    return [getattr(model, kind)(i).name for i in range(count)]


def test_nested_attach_gives_prefixed_names():
    arena = Plane()
    creature = Torso()
    arena.attach(creature)
    model = arena.spec.compile()
    assert _names(model, "joint", model.njnt) == ["creature/leg0/hip", "creature/leg1/hip"]
    assert _names(model, "actuator", model.nu) == ["creature/leg0/hip", "creature/leg1/hip"]
    assert creature.legs[1].prefix == "creature/leg1/"
    assert [e.name for e in arena.iter_entities()] == ["arena", "creature", "leg0", "leg1"]
    assert creature.legs[0].parent is creature and creature.parent is arena
    assert creature.legs[0].root_entity is arena


def test_attach_into_an_already_attached_entity():
    arena = Plane()
    creature = Torso(num_legs=1)
    arena.attach(creature)
    extra = Leg(name="extra")
    creature.attach(extra)
    model = arena.spec.compile()
    assert "creature/extra/hip" in _names(model, "joint", model.njnt)


def test_handles_bind_to_the_compiled_root():
    arena = Plane()
    creature = Torso()
    arena.attach(creature)
    physics = Physics.from_spec(arena.spec)
    leg = creature.legs[1]
    physics.bind(leg.hip).qpos = 0.4
    assert physics.data.joint("creature/leg1/hip").qpos[0] == 0.4
    assert physics.bind(leg.geom).size[0] == pytest.approx(0.03)
    assert physics.bind(leg.motor).ctrlrange.tolist() == [-1.0, 1.0]


def test_attach_at_site_places_child_there():
    arena = Plane()
    creature = Torso()
    arena.attach(creature)
    physics = Physics.from_spec(arena.spec)
    for index, leg in enumerate(creature.legs):
        position, _ = leg.get_pose(physics)
        np.testing.assert_allclose(position, [0.1 * (-1) ** index, 0.0, 0.0], atol=1e-12)


def test_attach_by_site_name_and_errors():
    creature = Torso(num_legs=0)
    creature.spec.body("torso").add_site(name="mount", pos=[0.0, 0.0, 0.2])
    leg = Leg(name="top")
    creature.attach(leg, "mount")
    physics = Physics.from_spec(creature.spec)
    np.testing.assert_allclose(leg.get_pose(physics)[0], [0.0, 0.0, 0.2])
    with pytest.raises(ValueError, match="no site named 'missing'"):
        creature.attach(Leg(name="other"), "missing")
    with pytest.raises(ValueError, match="already attached"):
        Plane().attach(leg)
    failed = Leg(name="top")
    with pytest.raises(ValueError, match="no site named 'missing'"):
        creature.attach(failed, "missing")
    assert failed.name == "top"  # a failed attach renames nothing
    # A second and third child of the same name are renamed as dm_control renames them.
    second, third = Leg(name="top"), Leg(name="top")
    creature.attach(second)
    creature.attach(third)
    assert (leg.name, second.name, third.name) == ("top", "top_1", "top_2")
    assert Physics.from_spec(creature.spec).model.joint("top_2/hip") is not None
    with pytest.raises(TypeError, match="attach_site"):
        creature.attach(Leg(name="third"), 42)
    with pytest.raises(TypeError, match="only attach an Entity"):
        creature.attach("leg")


def test_detach_removes_the_elements():
    arena = Plane()
    creature = Torso()
    arena.attach(creature)
    leg = creature.legs[0]
    leg.detach()
    model = arena.spec.compile()
    assert _names(model, "joint", model.njnt) == ["creature/leg1/hip"]
    assert model.nu == 1
    assert [e.name for e in arena.iter_entities()] == ["arena", "creature", "leg1"]
    assert leg.parent is None
    with pytest.raises(ValueError, match="was detached"):
        arena.attach(leg)
    with pytest.raises(RuntimeError, match="not attached"):
        arena.detach()


def test_free_entity_pose_and_velocity():
    arena = Plane()
    creature = Torso()
    arena.add_free_entity(creature)
    physics = Physics.from_spec(arena.spec)
    assert physics.model.nq == 7 + 2
    half_turn_about_z = np.array([0.0, 0.0, 0.0, 1.0])
    creature.set_pose(physics, position=[1.0, 2.0, 3.0], quaternion=half_turn_about_z)
    position, quaternion = creature.get_pose(physics)
    np.testing.assert_array_equal(position, [1.0, 2.0, 3.0])
    np.testing.assert_array_equal(quaternion, half_turn_about_z)
    creature.set_velocity(physics, velocity=[0.5, 0.0, 0.0], angular_velocity=[0.0, 0.0, 1.0])
    physics.forward()
    linear, angular = creature.get_velocity(physics)
    np.testing.assert_allclose(linear, [0.5, 0.0, 0.0], atol=1e-12)
    np.testing.assert_allclose(angular, [0.0, 0.0, 1.0], atol=1e-12)
    creature.shift_pose(physics, position=[0.0, 0.0, 1.0])
    np.testing.assert_array_equal(creature.get_pose(physics)[0], [1.0, 2.0, 4.0])
    # Facing -x after the half turn: world +x is local -x.
    np.testing.assert_allclose(
        creature.global_vector_to_local_frame(physics, [1.0, 0.0, 0.0]),
        [-1.0, 0.0, 0.0],
        atol=1e-12,
    )
    np.testing.assert_allclose(
        creature.global_vector_to_local_frame(physics, [1.0, 0.0]), [-1.0, 0.0], atol=1e-12
    )


def test_fixed_entity_set_pose_moves_the_attachment_body(caplog):
    arena = Plane()
    creature = Torso()
    arena.attach(creature)
    physics = Physics.from_spec(arena.spec)
    creature.set_pose(physics, position=[0.0, 1.0, 0.5])
    physics.forward()
    np.testing.assert_allclose(creature.get_pose(physics)[0], [0.0, 1.0, 0.5])
    qvel_before = physics.data.qvel.copy()
    with caplog.at_level(logging.WARNING):
        creature.set_velocity(physics, velocity=[1.0, 0.0, 0.0])
    assert "no free joint" in caplog.text
    np.testing.assert_array_equal(physics.data.qvel, qvel_before)
    with pytest.raises(ValueError, match="no free joint"):
        creature.get_velocity(physics)
    with pytest.raises(ValueError, match="position must have shape"):
        creature.set_pose(physics, position=[1.0, 2.0])
    with pytest.raises(ValueError, match="position must have shape"):
        creature.set_pose(physics, position=[[1.0], [2.0], [3.0]])
    # A leading axis of length 1 is accepted, as dm_control's slice assignment does.
    creature.set_pose(physics, position=[[0.0, 1.0, 0.25]])
    physics.forward()
    np.testing.assert_allclose(creature.get_pose(physics)[0], [0.0, 1.0, 0.25])
    with pytest.raises(RuntimeError, match="root of the model"):
        arena.set_pose(physics, position=[0.0, 0.0, 0.0])
    with pytest.raises(RuntimeError, match="root of the model"):
        arena.get_pose(physics)


def test_build_must_set_a_spec():
    class Broken(composer.Entity):
        def _build(self):
            self._spec = "not a spec"

    with pytest.raises(TypeError, match="Broken._build must set self._spec"):
        Broken()


class _BadLeg(composer.Entity):
    def _build(self):
        spec = mujoco.MjSpec()
        spec.modelname = "bad"
        body = spec.worldbody.add_body(name="shin")
        body.add_geom(name="zero_box", type=mujoco.mjtGeom.mjGEOM_BOX, size=[0.0, 0.0, 0.0])
        self._spec = spec


def test_compile_error_names_element_entity_and_line():
    arena = Plane()
    arena.attach(_BadLeg())

    class T(composer.Task):
        root_entity = arena

        def get_reward(self, physics):
            return 0.0

    with pytest.raises(ValueError) as raised:
        composer.Environment(T())
    message = str(raised.value)
    assert "'bad/zero_box'" in message
    assert "entity 'bad'" in message
    assert "_BadLeg" in message
    assert "test_entity.py:" in message


def test_names_moved_out_of_entity_stay_importable_from_it():
    from composer_tasks.composer import callbacks, compile_errors, entity, observables, spec_edits

    assert (
        entity.Observables is observables.Observables
        and entity.observable is observables.observable
    )
    assert (
        entity.Callbacks is callbacks.Callbacks
        and entity.CALLBACK_NAMES is callbacks.CALLBACK_NAMES
    )
    assert entity.overrides is callbacks.overrides
    assert entity.describe_compile_error is compile_errors.describe_compile_error
    assert entity.mark_spec_changed is spec_edits.mark_spec_changed
    assert entity.spec_edit_count is spec_edits.spec_edit_count


def test_free_entities_are_added_by_arenas_only():
    creature = Torso()
    assert not hasattr(composer.Entity, "add_free_entity")
    arena = Plane()
    frame = arena.add_free_entity(creature)
    assert frame.full_identifier == "creature/"
    assert creature.free_joint is not None and creature.free_joint.name == "creature/"
