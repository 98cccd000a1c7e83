"""SoccerHumanoid: this project's CMU humanoid as a soccer player.

dm_control's soccer uses a CMU humanoid specialised for matches (dm-control
1.0.50, `locomotion/soccer/humanoid.py`): the position-controlled CMU body, its
team colour on "marker" geoms, the walker's previous action, and dm_control's
legacy walker observables. This subclass of `cmu_humanoid.CMUHumanoid` adds exactly
that, leaving the body unchanged:

* `marker_rgba` colours the marker geoms (the face, every geom of both feet, the
  lower neck, clavicles, thorax, upper and lower back, femurs and pelvis); as in
  dm_control's geom visual, the colour is drawn at alpha 0.7.
* `walker_id` (None or 0 to 10) is validated and kept as `walker_id`; dm_control
  prints it on a jersey skin (its `Visual.JERSEY`), which is not offered here:
  this is dm_control's `Visual.GEOM` look.
* `prev_action`, `action_spec`, `snapshot_state`/`restore_state` and the legacy
  observables (`legacy_base`), plus the servo filters' `actuator_activation`.

Public API: `SoccerHumanoid(name="walker", marker_rgba=None, walker_id=None,
initializer=None)`, `marker_geoms`, `walker_id`, and everything `CMUHumanoid` and
`legacy_base.LegacyWalker` offer. A free joint is its root
(`walker.create_root_joints(arena.attach(walker))`).
"""

from typing import Any, Optional

import mujoco
import numpy as np
from numpy.typing import ArrayLike

from composer_tasks.walkers import cmu_humanoid
from composer_tasks.walkers import legacy_base

# dm_control soccer/humanoid.py: marker colours are drawn at this alpha (Visual.GEOM).
MARKER_ALPHA = 0.7
MAX_WALKER_ID = 10
_MARKER_GEOMS = (
    "lowerneck",
    "lclavicle",
    "rclavicle",
    "thorax",
    "upperback",
    "lowerback",
    "rfemur",
    "lfemur",
    "root_geom",
)
_MARKER_BODIES = ("rfoot", "lfoot")


class SoccerHumanoidObservables(
    legacy_base.LegacyWalkerObservables, cmu_humanoid.CMUHumanoidObservables
):
    """Legacy walker observables (names and shapes as dm_control's) and the CMU
    humanoid's `actuator_activation`."""


class SoccerHumanoid(legacy_base.LegacyWalker, cmu_humanoid.CMUHumanoidPositionControlledV2020):
    """The CMU humanoid with a team colour and the legacy walker API.

    Args:
      name: the entity's name.
      marker_rgba: None, or RGBA in [0, 1]; drawn with alpha 0.7 on the marker geoms.
      walker_id: None or an int in [0, 10] (the player's number, kept).
      initializer: None, a pose initializer or a sequence of them.

    Raises:
      ValueError: for a marker colour or walker id outside those ranges.
    """

    def _build(
        self,
        name: str = "walker",
        marker_rgba: ArrayLike | None = None,
        walker_id: Optional[int] = None,
        initializer: Any = None,
    ) -> None:
        rgba = None
        if marker_rgba is not None:
            rgba = np.asarray(marker_rgba, dtype=np.float64)
            if rgba.shape != (4,) or not np.all((rgba >= 0.0) & (rgba <= 1.0)):
                raise ValueError(
                    f"marker_rgba must be 4 values in [0, 1] (RGBA), got {marker_rgba!r}"
                )
            rgba = rgba.copy()
            rgba[3] = MARKER_ALPHA
        if walker_id is not None and (
            isinstance(walker_id, bool)
            or not isinstance(walker_id, (int, np.integer))
            or not 0 <= walker_id <= MAX_WALKER_ID
        ):
            raise ValueError(
                f"walker_id must be None or an int in [0, {MAX_WALKER_ID}], got {walker_id!r}"
            )
        cmu_humanoid.CMUHumanoidPositionControlledV2020._build(self, name=name)
        self._walker_id = None if walker_id is None else int(walker_id)
        spec = self._spec
        marker_geoms = [spec.geom("face")]
        for body_name in _MARKER_BODIES:
            marker_geoms.extend(spec.body(body_name).find_all(mujoco.mjtObj.mjOBJ_GEOM))
        marker_geoms.extend(spec.geom(geom_name) for geom_name in _MARKER_GEOMS)
        if rgba is not None:
            for geom in marker_geoms:
                geom.rgba = list(rgba)
        self._init_legacy(marker_geoms=marker_geoms, initializer=initializer)

    def _build_observables(self) -> "SoccerHumanoidObservables":
        return SoccerHumanoidObservables(self)

    @property
    def walker_id(self) -> Optional[int]:
        return self._walker_id
