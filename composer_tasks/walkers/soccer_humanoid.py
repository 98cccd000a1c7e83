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

import enum
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


# dm_control soccer/humanoid.py: the walker_id range and its error message (its
# tests match the message literally).
_INVALID_WALKER_ID = f"walker_id must be in [0-{MAX_WALKER_ID}], got: {{}}."
# The geoms under the jersey (dm_control's `_INTERIOR_GEOMS`).
_INTERIOR_GEOMS = frozenset(
    {
        "lhipjoint",
        "rhipjoint",
        "lfemur",
        "lowerback",
        "upperback",
        "rclavicle",
        "lclavicle",
        "thorax",
        "lhumerus",
        "root_geom",
        "lowerneck",
        "rhumerus",
        "rfemur",
    }
)
_SKIN_RGBA = (0.7, 0.5, 0.3, 1.0)
# Visual hands: the palm drawn 1.3x, the fingers and thumb 1.5x, their centres 1.5x
# further out (dm_control's soccer humanoid).
_PALM_SCALE = 1.3
_FINGER_SCALE = 1.5
_HAND_OFFSET_SCALE = 1.5
# The parts of neck, arms and legs that show out of the jersey, V2019 numbers (CMU
# frame, m): (geom, body, radius, half-length, centre, quaternion). Each is the
# outer end of its limb's capsule, cut where the jersey ends (0.066 m along the
# neck, 0.20 m along the humerus, 0.384 m along the femur); the neck and knees are
# thinner so that they do not poke through the jersey.
_NECK_CUT_M = 0.066 - 0.0452401
_HUMERUS_CUT_M = 0.20 - 0.138421
_FEMUR_CUT_M = 0.384 - 0.202473
_JERSEY_LIMBS = (
    (
        "halfneck",
        "lowerneck",
        0.05,
        0.02279225 - _NECK_CUT_M,
        (-0.00165071, 0.0452401 + _NECK_CUT_M, 0.00534359),
        (0.66437, 0.746906, 0.027253, 0),
    ),
    (
        "lelbow",
        "lhumerus",
        0.035,
        0.1245789 - _HUMERUS_CUT_M,
        (0.0, -0.138421 - _HUMERUS_CUT_M, 0.0),
        (0.612372, -0.612372, 0.353553, 0.353553),
    ),
    (
        "relbow",
        "rhumerus",
        0.035,
        0.1245789 - _HUMERUS_CUT_M,
        (0.0, -0.138421 - _HUMERUS_CUT_M, 0.0),
        (0.612372, -0.612372, -0.353553, -0.353553),
    ),
    (
        "lknee",
        "lfemur",
        0.055,
        0.1822257 - _FEMUR_CUT_M,
        (-5.0684e-08, -0.202473 - _FEMUR_CUT_M, 0),
        (0.696364, -0.696364, -0.122788, -0.122788),
    ),
    (
        "rknee",
        "rfemur",
        0.055,
        0.1822257 - _FEMUR_CUT_M,
        (-5.0684e-08, -0.202473 - _FEMUR_CUT_M, 0),
        (0.696364, -0.696364, 0.122788, 0.122788),
    ),
)


class Humanoid(legacy_base.LegacyWalker, cmu_humanoid.CMUHumanoidPositionControlled):
    """dm_control's soccer `Humanoid`: the V2019 position-controlled CMU humanoid with
    a face, larger visual hands, a team look and the legacy walker API.

    Looks (`Humanoid.Visual`):

    * `GEOM`: the marker geoms but the face (feet and toes, lower neck, clavicles,
      thorax, back, femurs, pelvis) drawn in `marker_rgba` at alpha 0.7.
    * `JERSEY`: dm_control dresses the walker in a jersey skin with the number
      `walker_id + 1`, from image and skin files it ships. Those are not authored
      here: the geoms under the jersey are drawn in the team colour instead (the
      number is not shown), with dm_control's skin-coloured neck, elbows and knees
      that show out of it. Physics is the same as dm_control's in both looks.

    Args:
      visual: a `Humanoid.Visual`.
      marker_rgba: 4 values, RGBA in [0, 1]: the team colour.
      walker_id: None or an int in [0, 10]; required for `JERSEY`.
      initializer: None, a pose initializer or a sequence of them.
      name: the entity's name.

    Raises:
      ValueError: for a `visual` that is not a `Humanoid.Visual`, a `marker_rgba`
        not of length 4, a missing or out-of-range `walker_id` (dm_control's
        messages).
    """

    class Visual(enum.Enum):
        GEOM = 1
        JERSEY = 2

    def _build(  # type: ignore[override]
        self,
        visual: "Humanoid.Visual",
        marker_rgba: ArrayLike,
        walker_id: Optional[int] = None,
        initializer: Any = None,
        name: str = "walker",
    ) -> None:
        if not isinstance(visual, Humanoid.Visual):
            raise ValueError("`visual` must be one of `Humanoid.Visual`.")
        if len(marker_rgba) != 4:  # type: ignore[arg-type]
            raise ValueError("`marker_rgba` must be a sequence of length 4.")
        if walker_id is None and visual != Humanoid.Visual.GEOM:
            raise ValueError("`walker_id` must be set unless `visual` is set to `Visual.GEOM`.")
        if walker_id is not None and not 0 <= walker_id <= MAX_WALKER_ID:
            raise ValueError(_INVALID_WALKER_ID.format(walker_id))
        team_rgba = np.array(marker_rgba, dtype=np.float64)
        if not np.all((team_rgba >= 0.0) & (team_rgba <= 1.0)):
            raise ValueError(f"marker_rgba must be 4 values in [0, 1] (RGBA), got {marker_rgba!r}")
        cmu_humanoid.CMUHumanoidPositionControlled._build(
            self, model_version="2019", name=name, include_face=True
        )
        self._visual = visual
        self._walker_id = None if walker_id is None else int(walker_id)
        spec = self._spec
        marker_geoms = [spec.geom("face")]
        for body_name in _MARKER_BODIES:
            marker_geoms.extend(spec.body(body_name).find_all(mujoco.mjtObj.mjOBJ_GEOM))
        marker_geoms.extend(spec.geom(geom_name) for geom_name in _MARKER_GEOMS)
        if visual == Humanoid.Visual.GEOM:
            rgba = team_rgba.copy()
            rgba[3] = MARKER_ALPHA
            # dm_control colours the marker geoms before it adds the face, so the
            # face (a marker geom) keeps its colour.
            for geom in marker_geoms[1:]:
                geom.rgba = list(rgba)
        for hand_name in ("lhand", "rhand"):
            for geom in spec.body(hand_name).find_all(mujoco.mjtObj.mjOBJ_GEOM):
                geom.rgba = [0.0, 0.0, 0.0, 0.0]
                scale = _PALM_SCALE if geom.name == hand_name else _FINGER_SCALE
                geom.parent.add_geom(
                    name=geom.name + "_visual",
                    type=geom.type,
                    quat=list(geom.quat),
                    mass=0.0,
                    contype=0,
                    conaffinity=0,
                    size=list(np.asarray(geom.size) * scale),
                    pos=list(np.asarray(geom.pos) * _HAND_OFFSET_SCALE),
                )
        if visual == Humanoid.Visual.JERSEY:
            for geom in spec.geoms:
                if geom.name in _INTERIOR_GEOMS:
                    geom.rgba = list(team_rgba)
            for geom_name, body_name, radius, half_length, centre, quaternion in _JERSEY_LIMBS:
                spec.body(body_name).add_geom(
                    name=geom_name,
                    type=mujoco.mjtGeom.mjGEOM_CAPSULE,
                    size=[radius, half_length, 0.0],
                    pos=list(centre),
                    quat=list(quaternion),
                    mass=0.0,
                    contype=0,
                    conaffinity=0,
                    rgba=list(_SKIN_RGBA),
                )
        self._init_legacy(marker_geoms=marker_geoms, initializer=initializer)

    def _build_observables(self) -> "SoccerHumanoidObservables":
        return SoccerHumanoidObservables(self)

    @property
    def visual(self) -> "Humanoid.Visual":
        return self._visual

    @property
    def walker_id(self) -> Optional[int]:
        return self._walker_id
