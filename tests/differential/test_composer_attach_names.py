"""Entities of the same name attached side by side are renamed as dm_control renames
them (`name_1`, `name_2`), and their elements are found under the new prefixes."""

import pytest

PROGRAM = """
from dm_control import composer, mjcf


class Block(composer.Entity):
    def _build(self, name="block"):
        self._model = mjcf.RootElement(model=name)
        body = self._model.worldbody.add("body", name="body")
        body.add("geom", name="geom", type="box", size=[0.1, 0.1, 0.1])
        body.add("joint", name="slide", type="slide", axis=[1, 0, 0])

    @property
    def mjcf_model(self):
        return self._model


arena = composer.Arena()
blocks = [Block(), Block(), Block(name="other"), Block()]
for block in blocks:
    arena.attach(block)
record("names", [block.mjcf_model.model for block in blocks])
physics = mjcf.Physics.from_mjcf_model(arena.mjcf_model)
record("joints", [physics.model.id2name(i, "joint") for i in range(physics.model.njnt)])
record("full_identifiers", [block.mjcf_model.find("joint", "slide").full_identifier for block in blocks])
"""


@pytest.mark.dm_control_api("composer.Entity.attach", "composer.Arena.attach")
def test_same_name_entities_are_renamed_as_in_dm_control(differential):
    differential.assert_same(PROGRAM, "attach_names")
