"""A legacy walker written as dm_control's: `super()._build(initializer)` first, then
its own model and part properties (the differential test in
tests/differential/test_signatures.py compares one with dm_control)."""

import numpy as np
import pytest

from composer_tasks import mjcf
from composer_tasks.walkers import initializers, legacy_base


class _Hinged(legacy_base.Walker):
    def _build(self, initializer=None, call_super=True):
        if call_super:
            super()._build(initializer)
        self._root = mjcf.RootElement(model="hinged")
        torso = self._root.worldbody.add("body", name="torso")
        torso.add("geom", type="sphere", size=[0.1])
        self._hinge = torso.add("joint", name="hip", type="hinge")
        self._motor = self._root.actuator.add("motor", name="hip", joint=self._hinge)

    @property
    def mjcf_model(self):
        return self._root

    @property
    def root_body(self):
        return self._root.find("body", "torso")

    @property
    def observable_joints(self):
        return [self._hinge]

    @property
    def actuators(self):
        return [self._motor]


def test_a_dm_control_style_legacy_walker_gets_dm_controls_initializers():
    assert isinstance(_Hinged().initializers[0], initializers.UprightInitializer)
    first, second = initializers.NoOpInitializer(), initializers.NoOpInitializer()
    assert _Hinged(first).initializers == (first,)
    assert _Hinged((first, second)).initializers == (first, second)
    walker = _Hinged()
    physics = mjcf.Physics.from_mjcf_model(walker.mjcf_model)
    walker.apply_action(physics, [0.5], np.random.RandomState(0))
    np.testing.assert_array_equal(walker.prev_action, [0.5])
    assert walker.rangefinder_sensors == () and walker.marker_geoms == ()


def test_a_legacy_walker_that_skips_the_legacy_build_is_told_what_to_call():
    with pytest.raises(TypeError, match=r"super\(\)\._build\(initializer\)"):
        _Hinged(call_super=False)
