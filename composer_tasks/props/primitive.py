"""Primitive: a prop made of one geom, with sensors of its pose and motion.

As dm_control's `entities.props.Primitive` (dm-control 1.0.50): the observables
`position`, `orientation`, `linear_velocity` and `angular_velocity` read frame
sensors of the geom, in the world frame. dm_control's manipulation props (a geom
named "body_geom" with a touch sensor; `Box`, `BoxWithSites`, `Sphere`, ...) are
`composer_tasks.props.manipulation`.
"""

from typing import Any

import mujoco
import numpy as np
from numpy.typing import ArrayLike

from composer_tasks import composer, mjcf
from composer_tasks.composer.observation import observable
from composer_tasks.mjcf.root import UNNAMED_MODEL

_GEOM_TYPES = {
    "box": (mujoco.mjtGeom.mjGEOM_BOX, 3),
    "sphere": (mujoco.mjtGeom.mjGEOM_SPHERE, 1),
    "capsule": (mujoco.mjtGeom.mjGEOM_CAPSULE, 2),
    "cylinder": (mujoco.mjtGeom.mjGEOM_CYLINDER, 2),
    "ellipsoid": (mujoco.mjtGeom.mjGEOM_ELLIPSOID, 3),
}


class PrimitiveObservables(composer.Observables):
    """World-frame position (m), orientation (w-x-y-z), linear (m/s) and angular
    (rad/s) velocity of the geom."""

    @composer.observable
    def angular_velocity(self) -> observable.MJCFFeature:
        return observable.MJCFFeature("sensordata", self._entity._sensors["angular_velocity"])

    @composer.observable
    def linear_velocity(self) -> observable.MJCFFeature:
        return observable.MJCFFeature("sensordata", self._entity._sensors["linear_velocity"])

    @composer.observable
    def orientation(self) -> observable.MJCFFeature:
        return observable.MJCFFeature("sensordata", self._entity._sensors["orientation"])

    @composer.observable
    def position(self) -> observable.MJCFFeature:
        return observable.MJCFFeature("sensordata", self._entity._sensors["position"])


class Primitive(composer.Entity):
    """A prop of one geom.

    Args:
      geom_type: "box", "sphere", "capsule", "cylinder" or "ellipsoid".
      size: the geom's size in metres (half-lengths for a box; radius, half-length
        for capsules and cylinders; radius for a sphere).
      name: the entity's name (None: "unnamed_model", as dm_control's).
      mass: the geom's mass in kg (default: from MuJoCo's default density).
      vertex_sites: for boxes, add sites at the 8 corners (the lift task measures
        the lowest one).
      **geom_kwargs: other `MjsGeom` attributes (rgba, friction, ...).
    """

    def _build(
        self,
        geom_type: str,
        size: ArrayLike,
        name: str | None = None,
        mass: float | None = None,
        vertex_sites: bool = False,
        **geom_kwargs: Any,
    ) -> None:
        if geom_type not in _GEOM_TYPES:
            raise ValueError(f"geom_type must be one of {sorted(_GEOM_TYPES)}, got {geom_type!r}")
        mj_type, size_count = _GEOM_TYPES[geom_type]
        size = np.asarray(size, dtype=np.float64).reshape(-1)
        if size.shape != (size_count,) or not np.all(size > 0):
            raise ValueError(
                f"a {geom_type} needs {size_count} positive size(s) in metres, "
                f"got {size.tolist()!r}"
            )
        if vertex_sites and geom_type != "box":
            raise ValueError(f"vertex_sites needs a box, got a {geom_type}")
        spec = mujoco.MjSpec()
        # A prop built without a name is PyMJCF's unnamed model, as dm_control's
        # (`RootElement(model=None)`): its observations are "unnamed_model/...".
        spec.modelname = UNNAMED_MODEL if name is None else name
        full_size = np.zeros(3)
        full_size[:size_count] = size
        if mass is not None:
            geom_kwargs["mass"] = float(mass)
        self._geom = spec.worldbody.add_geom(
            name="geom", type=mj_type, size=full_size.tolist(), **geom_kwargs
        )
        target = dict(objtype=mujoco.mjtObj.mjOBJ_GEOM, objname="geom")
        self._sensors = {
            "position": spec.add_sensor(
                name="position", type=mujoco.mjtSensor.mjSENS_FRAMEPOS, **target
            ),
            "orientation": spec.add_sensor(
                name="orientation", type=mujoco.mjtSensor.mjSENS_FRAMEQUAT, **target
            ),
            "linear_velocity": spec.add_sensor(
                name="linear_velocity", type=mujoco.mjtSensor.mjSENS_FRAMELINVEL, **target
            ),
            "angular_velocity": spec.add_sensor(
                name="angular_velocity", type=mujoco.mjtSensor.mjSENS_FRAMEANGVEL, **target
            ),
        }
        self._vertices = []
        if vertex_sites:
            index = 0
            for dx in (-1, 1):
                for dy in (-1, 1):
                    for dz in (-1, 1):
                        self._vertices.append(
                            spec.worldbody.add_site(
                                name=f"vertex_{index}",
                                pos=(size * (dx, dy, dz)).tolist(),
                                size=[0.002, 0.0, 0.0],
                                group=3,
                                rgba=[1, 0, 0, 0.3],
                            )
                        )
                        index += 1
        self._spec = spec

    def _build_observables(self) -> PrimitiveObservables:
        return PrimitiveObservables(self)

    # Parts are PyMJCF handles (`composer_tasks.mjcf.Element`), as dm_control's.

    @property
    def geom(self) -> mjcf.Element:
        return self.mjcf_model._wrap(self._geom)

    @property
    def sensors(self) -> dict[str, mjcf.Element]:
        """The four frame sensors by observable name."""
        return {name: self.mjcf_model._wrap(sensor) for name, sensor in self._sensors.items()}

    @property
    def position(self) -> mjcf.Element:
        """dm_control's name: the world-position sensor of the geom."""
        return self.mjcf_model._wrap(self._sensors["position"])

    @property
    def orientation(self) -> mjcf.Element:
        """dm_control's name: the world-orientation (quaternion) sensor of the geom."""
        return self.mjcf_model._wrap(self._sensors["orientation"])

    @property
    def linear_velocity(self) -> mjcf.Element:
        """dm_control's name: the world linear-velocity sensor of the geom."""
        return self.mjcf_model._wrap(self._sensors["linear_velocity"])

    @property
    def angular_velocity(self) -> mjcf.Element:
        """dm_control's name: the world angular-velocity sensor of the geom."""
        return self.mjcf_model._wrap(self._sensors["angular_velocity"])

    @property
    def vertices(self) -> tuple[mjcf.Element, ...]:
        """Corner sites of a box built with `vertex_sites` (else empty)."""
        return tuple(self.mjcf_model._wrap(site) for site in self._vertices)
