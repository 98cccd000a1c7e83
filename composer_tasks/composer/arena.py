"""Arena: the root entity of a task, with dm_control's global physics settings.

Every dm_control arena starts from the same base model (dm_control
`composer/arena.xml`, dm-control 1.0.50), which sets, for the whole model:

* `option`: an elliptic friction cone, 5 no-slip iterations with tolerance 0,
  timestep 0.002 s;
* `compiler`: angles in radians, Euler sequence "xyz", and lower bounds of
  1e-5 kg on body masses and 1e-11 kg m^2 on inertias;
* `visual`: a headlight (diffuse 0.6, ambient 0.3, no specular), a near clipping
  plane at 0.01 and thin decor (forces, contacts, joints, frames).

`Arena` sets the same, so a creature on an arena here moves as it does on a
dm_control arena. An arena whose `_build` makes its own spec (the arenas in
`composer_tasks.arenas` do) gets the physics settings (option and compiler)
applied after `_build`; one whose `_build` calls `super()._build(name=...)` starts
from the whole base model and may change any of it afterwards.
"""

from typing import Any

import mujoco

from composer_tasks import mjcf
from composer_tasks.composer import entity as entity_module

# dm_control composer/arena.xml (dm-control 1.0.50): <mujoco model="base">.
_BASE_MODEL_NAME = "base"
# dm_control composer/arena.xml: <option>.
_CONE = mujoco.mjtCone.mjCONE_ELLIPTIC
_NOSLIP_ITERATIONS = 5
_NOSLIP_TOLERANCE = 0.0
_TIMESTEP_S = 0.002
# dm_control composer/arena.xml: <compiler angle="radian" eulerseq="xyz"
# boundmass="1e-5" boundinertia="1e-11">; kg and kg m^2.
_BOUND_MASS_KG = 1e-5
_BOUND_INERTIA_KG_M2 = 1e-11
# dm_control composer/arena.xml: <visual>.
_HEADLIGHT_DIFFUSE = (0.6, 0.6, 0.6)
_HEADLIGHT_AMBIENT = (0.3, 0.3, 0.3)
_HEADLIGHT_SPECULAR = (0.0, 0.0, 0.0)
_ZNEAR = 0.01
_SCALE = {
    "forcewidth": 0.01,
    "contactwidth": 0.06,
    "contactheight": 0.01,
    "jointwidth": 0.01,
    "framewidth": 0.01,
    "framelength": 0.3,
}


def apply_physics_settings(spec: mujoco.MjSpec) -> None:
    """Sets dm_control's arena option and compiler settings on `spec`."""
    spec.option.cone = _CONE
    spec.option.noslip_iterations = _NOSLIP_ITERATIONS
    spec.option.noslip_tolerance = _NOSLIP_TOLERANCE
    spec.compiler.degree = False
    spec.compiler.eulerseq = "xyz"
    spec.compiler.boundmass = _BOUND_MASS_KG
    spec.compiler.boundinertia = _BOUND_INERTIA_KG_M2


class Arena(entity_module.Entity):
    """The base of arenas: an empty world with dm_control's arena settings.

    Subclasses add floors, walls and lights in `_build`, either on the base model
    (`super()._build(name=name)`, then `self.mjcf_model.worldbody.add(...)` or
    `self.spec`) or on a spec of their own (then the physics settings are applied
    after `_build`).

    Args (of `_build`):
      name: the arena's name (the model name); None keeps the base model's,
        "base", as in dm_control.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._built_from_base = False
        super().__init__(*args, **kwargs)
        if not self._built_from_base:
            apply_physics_settings(self._spec)

    def _build(self, name: str | None = None) -> None:
        model = mjcf.RootElement(model=_BASE_MODEL_NAME if name is None else name)
        spec = model.spec
        apply_physics_settings(spec)
        spec.option.timestep = _TIMESTEP_S
        headlight = spec.visual.headlight
        headlight.diffuse = _HEADLIGHT_DIFFUSE
        headlight.ambient = _HEADLIGHT_AMBIENT
        headlight.specular = _HEADLIGHT_SPECULAR
        spec.visual.map.znear = _ZNEAR
        for field, value in _SCALE.items():
            setattr(spec.visual.scale, field, value)
        self._spec = spec
        self._built_from_base = True

    def add_free_entity(self, entity: entity_module.Entity) -> "mjcf.Element":
        """Attaches `entity` to the world with a free joint (6 DoF) on its attachment
        frame; returns the frame."""
        frame = self.attach(entity)
        frame.add("freejoint")
        return frame
