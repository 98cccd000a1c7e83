"""PositionDetector: tells whether registered entities are inside an axis-aligned box.

As dm_control's `entities.props.PositionDetector` (dm-control 1.0.50): an entity is
detected when the world position (`geom_xpos`) of any of its geoms lies strictly
inside the region between `lower` and `upper` (or, `inverted`, outside it). This
is not a contact test: a ball is detected once its centre is in. A 2-D detector
(pos and size of length 2) ignores z. Detection is evaluated at the start of an
episode and after every physics substep; with `retain_substep_detections`, an
entity detected at any substep of a control step stays detected until the next
step begins.

Public API:

* `PositionDetector(pos, size, inverted=False, visible=False, rgba=(1, 1, 1, 1),
  detected_rgba=(0, 1, 0, 0.25), retain_substep_detections=False,
  name="position_detector")`: `pos` the centre and `size` the half-lengths (m), 2
  or 3 values each, in the world frame (the detector is attached at the origin).
* `register_entities(*entities)`, `deregister_entities()`, `detected_entities`
  (a list, in registration order), `activated` (anything detected).
* `resize(pos, size)`: a new region (a spec edit: the model recompiles).
* `lower`, `upper`, `mid` (m, 2 or 3 values), the sites `lower_site`, `mid_site`,
  `upper_site` and their `framepos` sensors `lower_sensor`, `mid_sensor`,
  `upper_sensor`; the `detection_zone` box site turns `detected_rgba` while
  something is detected. Sites are in group 4 (hidden by default) unless
  `visible`.
* `snapshot_state()` / `restore_state(state)`: the detection flags.
"""

from collections.abc import Mapping
from typing import Any, Sequence

import mujoco
import numpy as np
from numpy.typing import ArrayLike

from composer_tasks import composer, mjcf
from composer_tasks.physics import Physics

# dm_control position_detector: the drawn height of a 2-D region (m), the radius of
# the corner sites (m), and the site group of sensor sites (composer.SENSOR_SITES_GROUP).
_RENDERED_HEIGHT_IN_2D_MODE_M = 0.01
_CORNER_SITE_RADIUS_M = 0.05
SENSOR_SITES_GROUP = 4


def _check_region(pos: ArrayLike, size: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    pos = np.asarray(pos, dtype=np.float64)
    size = np.asarray(size, dtype=np.float64)
    if pos.shape != size.shape or pos.shape not in ((2,), (3,)):
        raise ValueError(
            f"pos and size must both have 2 or 3 values (m), got {pos.tolist()!r} and "
            f"{size.tolist()!r}"
        )
    # A half-size <= 0 is accepted, as dm_control accepts it: the region is then empty
    # (lower >= upper), so nothing is inside it (everything is, `inverted`).
    # dm_control's RandomizedPitch gives its field such a size when the pitch is
    # narrower than two goal depths.
    if not (np.all(np.isfinite(pos)) and np.all(np.isfinite(size))):
        raise ValueError(
            f"pos and size must be finite (m), got {pos.tolist()!r} and {size.tolist()!r}"
        )
    return pos, size


def check_rgba(rgba: ArrayLike, label: str) -> np.ndarray:
    """`rgba` as a float array of 4 values in [0, 1]; ValueError naming `label` else."""
    array = np.asarray(rgba, dtype=np.float64)
    if array.shape != (4,) or not np.all((array >= 0.0) & (array <= 1.0)):
        raise ValueError(f"{label} must be 4 values in [0, 1] (RGBA), got {rgba!r}")
    return array


def _in_3d(vector: np.ndarray) -> np.ndarray:
    return np.concatenate([vector, [0.0]]) if vector.shape == (2,) else vector.copy()


class PositionDetector(composer.Entity):
    """Detects registered entities inside (or, inverted, outside) a box region.

    Args: see the module docstring.

    Raises:
      ValueError: for a region or colours outside their ranges.
    """

    def _build(
        self,
        pos: Sequence[float],
        size: Sequence[float],
        inverted: bool = False,
        visible: bool = False,
        rgba: ArrayLike = (1.0, 1.0, 1.0, 1.0),
        detected_rgba: ArrayLike = (0.0, 1.0, 0.0, 0.25),
        retain_substep_detections: bool = False,
        name: str = "position_detector",
    ) -> None:
        centre, half_size = _check_region(pos, size)
        self._inverted = bool(inverted)
        self._retain_substep_detections = bool(retain_substep_detections)
        self._rgba = check_rgba(rgba, "rgba")
        self._detected_rgba = check_rgba(detected_rgba, "detected_rgba")
        spec = mujoco.MjSpec()
        spec.modelname = name
        group = 0 if visible else SENSOR_SITES_GROUP
        self._site = spec.worldbody.add_site(
            name="detection_zone",
            type=mujoco.mjtGeom.mjGEOM_BOX,
            rgba=list(self._rgba),
            group=group,
        )
        # MuJoCo fills unused site sizes with 0.005 m, as MJCF's size="0.05" does.
        corner = dict(
            size=[_CORNER_SITE_RADIUS_M, 0.005, 0.005], rgba=list(self._rgba), group=group
        )
        self._lower_site = spec.worldbody.add_site(name="lower", **corner)
        self._mid_site = spec.worldbody.add_site(name="mid", **corner)
        self._upper_site = spec.worldbody.add_site(name="upper", **corner)
        self._sensors = tuple(
            spec.add_sensor(
                name=f"{name}_{label}",
                type=mujoco.mjtSensor.mjSENS_FRAMEPOS,
                objtype=mujoco.mjtObj.mjOBJ_SITE,
                objname=label,
            )
            for label in ("lower", "mid", "upper")
        )
        self._spec = spec
        self._entities = []
        self._geom_ids = []
        self._detected_flags = []
        self._detected = False
        self._previously_detected = False
        self._set_region(centre, half_size)

    def _set_region(self, pos: np.ndarray, size: np.ndarray) -> None:
        self._lower = pos - size
        self._upper = pos + size
        # (lower, upper) corners in 3-D; a 2-D region spans all heights.
        self._bounds = (
            self._lower.tolist() + [-np.inf] * (3 - pos.size),
            self._upper.tolist() + [np.inf] * (3 - pos.size),
        )
        render_size = np.full(3, _RENDERED_HEIGHT_IN_2D_MODE_M)
        # MuJoCo's sites need positive sizes; an empty region shows as a flat one.
        render_size[: len(size)] = np.maximum(np.abs(size), _RENDERED_HEIGHT_IN_2D_MODE_M)
        self._site.pos = list(_in_3d(pos))
        self._site.size = list(render_size)
        self._lower_site.pos = list(_in_3d(self._lower))
        self._mid_site.pos = list(_in_3d((self._lower + self._upper) / 2.0))
        self._upper_site.pos = list(_in_3d(self._upper))

    def resize(self, pos: Sequence[float], size: Sequence[float]) -> None:
        """Moves and resizes the region (centre `pos`, half-lengths `size`, m) keeping
        its dimension (2 or 3). A spec edit: the model recompiles.

        Raises:
          ValueError: for a region of another dimension or a value that is not finite.
        """
        centre, half_size = _check_region(pos, size)
        if centre.shape != self._lower.shape:
            raise ValueError(
                f"detector {self.name!r} is {self._lower.size}-D; resize needs {self._lower.size} "
                f"values for pos and size, got {centre.tolist()!r} and {half_size.tolist()!r}"
            )
        self._set_region(centre, half_size)
        composer.mark_spec_changed()

    # Entities.

    def register_entities(self, *entities: composer.Entity) -> None:
        """Adds entities whose geoms the detector watches.

        Raises:
          TypeError: for something that is not a `composer.Entity`.
        """
        for entity in entities:
            if not isinstance(entity, composer.Entity):
                raise TypeError(f"can only register entities, got {entity!r}")
            self._entities.append(entity)
        self._detected_flags = [False] * len(self._entities)

    def deregister_entities(self) -> None:
        self._entities = []
        self._geom_ids = []
        self._detected_flags = []

    @property
    def detected_entities(self) -> list[composer.Entity]:
        """The registered entities detected now (in registration order)."""
        return [entity for entity, flag in zip(self._entities, self._detected_flags) if flag]

    @property
    def activated(self) -> bool:
        """Whether anything was detected at the last evaluation."""
        return self._detected

    # Callbacks.

    def initialize_episode(self, physics: Physics, random_state: np.random.RandomState) -> None:
        del random_state
        self._site_id = int(physics.bind(self._site).id)
        physics.model.site_rgba[self._site_id] = self._rgba
        self._geom_ids = []
        for entity in self._entities:
            holder = (
                entity.attachment_body
                if entity.attachment_body is not None
                else entity.spec.worldbody
            )
            geoms = holder.find_all(mujoco.mjtObj.mjOBJ_GEOM)
            ids = (
                np.asarray(physics.bind(geoms).id, dtype=np.intp).reshape(-1).tolist()
                if geoms
                else []
            )
            self._geom_ids.append(ids)
        self._detected_flags = [False] * len(self._entities)
        self._detected = False
        # Poses set earlier in this episode's initialisation (the task's hook runs
        # first) reach geom_xpos only after a forward pass, which dm_control's
        # `bind(geom).xpos` does lazily when the physics is dirty.
        if physics._dirty:
            physics.forward()
        self._update_detection(physics)

    def before_step(self, physics: Physics, random_state: np.random.RandomState) -> None:
        del physics, random_state
        self._detected_flags = [False] * len(self._entities)

    def after_substep(self, physics: Physics, random_state: np.random.RandomState) -> None:
        del random_state
        self._update_detection(physics)

    def _update_detection(self, physics: Physics) -> None:
        # Plain Python over the few watched geoms: cheaper than numpy on 1-3 values,
        # and this runs after every physics substep.
        self._previously_detected = self._detected
        flags = self._detected_flags
        if not self._retain_substep_detections:
            flags[:] = [False] * len(flags)
        positions = physics.data.geom_xpos
        (x_low, y_low, z_low), (x_high, y_high, z_high) = self._bounds
        inverted = self._inverted
        for index, ids in enumerate(self._geom_ids):
            if flags[index]:
                continue
            for geom in ids:
                x, y, z = positions[geom].tolist()
                inside = x_low < x < x_high and y_low < y < y_high and z_low < z < z_high
                if inside != inverted:
                    flags[index] = True
                    break
        self._detected = any(flags)
        if self._detected != self._previously_detected:
            physics.model.site_rgba[self._site_id] = (
                self._detected_rgba if self._detected else self._rgba
            )

    # Region.

    @property
    def lower(self) -> np.ndarray:
        """The region's lower corner (m), a new array of 2 or 3 values."""
        return self._lower.copy()

    @property
    def upper(self) -> np.ndarray:
        """The region's upper corner (m), a new array of 2 or 3 values."""
        return self._upper.copy()

    @property
    def mid(self) -> np.ndarray:
        """The region's centre (m), a new array of 2 or 3 values."""
        return (self._lower + self._upper) / 2.0

    @property
    def lower_site(self) -> mjcf.Element:
        return self.mjcf_model._wrap(self._lower_site)

    @property
    def mid_site(self) -> mjcf.Element:
        return self.mjcf_model._wrap(self._mid_site)

    @property
    def upper_site(self) -> mjcf.Element:
        return self.mjcf_model._wrap(self._upper_site)

    @property
    def lower_sensor(self) -> mjcf.Element:
        return self.mjcf_model._wrap(self._sensors[0])

    @property
    def mid_sensor(self) -> mjcf.Element:
        return self.mjcf_model._wrap(self._sensors[1])

    @property
    def upper_sensor(self) -> mjcf.Element:
        return self.mjcf_model._wrap(self._sensors[2])

    @property
    def rgba(self) -> np.ndarray:
        return self._rgba.copy()

    @property
    def detected_rgba(self) -> np.ndarray:
        return self._detected_rgba.copy()

    def snapshot_state(self) -> dict[str, Any]:
        """The detection flags (picklable), for `composer.Environment.snapshot`."""
        return dict(
            flags=list(self._detected_flags),
            detected=self._detected,
            previously_detected=self._previously_detected,
        )

    def restore_state(self, state: Mapping[str, Any]) -> None:
        """Returns the flags to a `snapshot_state()` of a detector with as many
        registered entities.

        Raises:
          ValueError: if the snapshot has flags for another number of entities.
        """
        flags = [bool(flag) for flag in state["flags"]]
        if len(flags) != len(self._entities):
            raise ValueError(
                f"detector {self.name!r}: the snapshot has {len(flags)} detection flags, but "
                f"{len(self._entities)} entities are registered"
            )
        self._detected_flags = flags
        self._detected = bool(state["detected"])
        self._previously_detected = bool(state["previously_detected"])
