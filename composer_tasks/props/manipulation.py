"""dm_control's manipulation props (`dm_control.manipulation.props`): one-geom props
with a touch sensor, and the boxes, spheres, capsules, cylinders and ellipsoids
built on them.

They differ from `composer_tasks.props.primitive.Primitive` (dm_control's
`entities.props.Primitive`) as dm_control's two classes do: the geom is named
"body_geom"; a site of the geom's shape, 5 % larger, almost transparent and in the
sensor-site group, carries an unnamed touch sensor (`touch`, and the `touch`
observable, in N); `mass` is the third positional argument and `name` the
fourth.

Differences from dm_control, both from this project's Entity and PyMJCF layers:
`name` of a prop built without one is the model's name, "unnamed_model" (None in
dm_control: `name` here is every entity's attachment prefix), and the unnamed
touch sensor compiles with no name ("" where dm_control writes
"<prop>//unnamed_sensor_0"; docs/mjcf.md, unnamed elements).

The other sensors are dm_control's too: `position` (m), `orientation` (w, x, y, z),
`linear_velocity` (m/s) and `angular_velocity` (rad/s) of the geom, world frame.
Sizes are in metres, as MuJoCo reads them for the geom's type; an attribute not
given keeps MuJoCo's default (a sphere's site gets one size value, the other two
stay 0.005 m).
"""

import itertools
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from composer_tasks import composer, mjcf
from composer_tasks.composer.observation import observable

# dm_control's manipulation props: default half-lengths of a box and radii of an
# ellipsoid (m), and the touch site's scale and colour.
_DEFAULT_HALF_LENGTHS_M = (0.05, 0.1, 0.15)
_TOUCH_SITE_SCALE = 1.05
_TOUCH_SITE_RGBA = (1.0, 1.0, 1.0, 0.1)
# dm_control's BoxWithSites: radius (m) and colour of the corner sites.
_CORNER_SITE_RADIUS_M = 0.1
_CORNER_SITE_RGBA = (1.0, 0.0, 0.0, 1.0)


class Primitive(composer.Entity):
    """A prop of one geom, with a touch sensor and frame sensors.

    Args:
      geom_type: a MuJoCo geom type ("box", "sphere", "capsule", "cylinder",
        "ellipsoid").
      size: up to 3 numbers (metres) as MuJoCo reads them for `geom_type`; any
        array is flattened.
      mass: the geom's mass in kg (default: from MuJoCo's default density).
      name: the model's name (the prefix of its elements once attached).
    """

    def _build(
        self,
        geom_type: str,
        size: ArrayLike,
        mass: float | None = None,
        name: str | None = None,
    ) -> None:
        size = np.reshape(np.asarray(size), -1)
        self._mjcf_root = mjcf.RootElement(model=name)
        self._geom = self._mjcf_root.worldbody.add(
            "geom", name="body_geom", type=geom_type, size=size, mass=mass
        )
        touch_site = self._mjcf_root.worldbody.add(
            "site",
            type=geom_type,
            name="touch_sensor",
            size=size * _TOUCH_SITE_SCALE,
            rgba=list(_TOUCH_SITE_RGBA),
            group=composer.SENSOR_SITES_GROUP,
        )
        self._touch = self._mjcf_root.sensor.add("touch", site=touch_site)
        sensors = {}
        for sensor_name, sensor_type in (
            ("position", "framepos"),
            ("orientation", "framequat"),
            ("linear_velocity", "framelinvel"),
            ("angular_velocity", "frameangvel"),
        ):
            sensors[sensor_name] = self._mjcf_root.sensor.add(
                sensor_type, name=sensor_name, objtype="geom", objname=self._geom
            )
        self._position = sensors["position"]
        self._orientation = sensors["orientation"]
        self._linear_velocity = sensors["linear_velocity"]
        self._angular_velocity = sensors["angular_velocity"]

    def _build_observables(self) -> "PrimitiveObservables":
        return PrimitiveObservables(self)

    @property
    def geom(self) -> mjcf.Element:
        """The prop's geom ("body_geom")."""
        return self._geom

    @property
    def touch(self) -> mjcf.Element:
        """The touch sensor of the site around the geom (N)."""
        return self._touch

    @property
    def position(self) -> mjcf.Element:
        """The geom's world-position sensor (m)."""
        return self._position

    @property
    def orientation(self) -> mjcf.Element:
        """The geom's world-orientation sensor (quaternion w, x, y, z)."""
        return self._orientation

    @property
    def linear_velocity(self) -> mjcf.Element:
        """The geom's world linear-velocity sensor (m/s)."""
        return self._linear_velocity

    @property
    def angular_velocity(self) -> mjcf.Element:
        """The geom's world angular-velocity sensor (rad/s)."""
        return self._angular_velocity

    @property
    def mjcf_model(self) -> mjcf.RootElement:
        return self._mjcf_root


class PrimitiveObservables(composer.Observables, composer.FreePropObservableMixin):
    """The sensors of a `Primitive`: world-frame position (m), orientation
    (w, x, y, z), linear (m/s) and angular (rad/s) velocity, and touch (N)."""

    @composer.observable
    def position(self) -> observable.MJCFFeature:
        return observable.MJCFFeature("sensordata", self._entity.position)

    @composer.observable
    def orientation(self) -> observable.MJCFFeature:
        return observable.MJCFFeature("sensordata", self._entity.orientation)

    @composer.observable
    def linear_velocity(self) -> observable.MJCFFeature:
        return observable.MJCFFeature("sensordata", self._entity.linear_velocity)

    @composer.observable
    def angular_velocity(self) -> observable.MJCFFeature:
        return observable.MJCFFeature("sensordata", self._entity.angular_velocity)

    @composer.observable
    def touch(self) -> observable.MJCFFeature:
        return observable.MJCFFeature("sensordata", self._entity.touch)


def _or_default(values: Any) -> Any:
    """dm_control's `values or default`: None or an empty sequence gives the default
    half-lengths. (An array is accepted here, where dm_control's truth test raises.)"""
    if values is None or len(np.atleast_1d(values)) == 0:
        return list(_DEFAULT_HALF_LENGTHS_M)
    return values


class Sphere(Primitive):
    """A sphere prop.

    Args:
      radius: metres.
      mass: kg (default: from MuJoCo's default density).
      name: the model's name.
    """

    def _build(  # type: ignore[override]  # dm_control's Sphere signature.
        self, radius: float = 0.05, mass: float | None = None, name: str = "sphere"
    ) -> None:
        super()._build(geom_type="sphere", size=radius, mass=mass, name=name)


class Box(Primitive):
    """A box prop.

    Args:
      half_lengths: (3,) half-lengths in metres; None or empty gives (0.05, 0.1, 0.15).
      mass: kg (default: from MuJoCo's default density).
      name: the model's name.
    """

    def _build(  # type: ignore[override]  # dm_control's Box signature.
        self,
        half_lengths: ArrayLike | None = None,
        mass: float | None = None,
        name: str = "box",
    ) -> None:
        super()._build(geom_type="box", size=_or_default(half_lengths), mass=mass, name=name)


class BoxWithSites(Box):
    """A `Box` with a sphere site at each of its eight corners (`corner_sites`,
    named `corner_0` ... `corner_7`, radius 0.1 m, red, in the sensor-site group),
    ordered as dm_control's: x from +h_x to -h_x outermost, then y, then z.

    Args:
      half_lengths: (3,) half-lengths in metres; None or empty gives (0.05, 0.1, 0.15).
      mass: kg (default: from MuJoCo's default density).
      name: the model's name.
    """

    def _build(  # type: ignore[override]  # dm_control's BoxWithSites signature.
        self,
        half_lengths: ArrayLike | None = None,
        mass: float | None = None,
        name: str = "box",
    ) -> None:
        half_lengths = _or_default(half_lengths)
        super()._build(half_lengths=half_lengths, mass=mass, name=name)
        half = np.asarray(half_lengths, dtype=np.float64).reshape(-1)
        corners = itertools.product((half[0], -half[0]), (half[1], -half[1]), (half[2], -half[2]))
        self._corner_sites = tuple(
            self._mjcf_root.worldbody.add(
                "site",
                type="sphere",
                name=f"corner_{index}",
                size=[_CORNER_SITE_RADIUS_M],
                pos=list(corner),
                rgba=list(_CORNER_SITE_RGBA),
                group=composer.SENSOR_SITES_GROUP,
            )
            for index, corner in enumerate(corners)
        )

    @property
    def corner_sites(self) -> tuple[mjcf.Element, ...]:
        """The eight corner sites, in dm_control's order."""
        return self._corner_sites


class Ellipsoid(Primitive):
    """An ellipsoid prop.

    Args:
      radii: (3,) radii in metres; None or empty gives (0.05, 0.1, 0.15).
      mass: kg (default: from MuJoCo's default density).
      name: the model's name.
    """

    def _build(  # type: ignore[override]  # dm_control's Ellipsoid signature.
        self,
        radii: ArrayLike | None = None,
        mass: float | None = None,
        name: str = "ellipsoid",
    ) -> None:
        super()._build(geom_type="ellipsoid", size=_or_default(radii), mass=mass, name=name)


class Cylinder(Primitive):
    """A cylinder prop along its z axis.

    Args:
      radius: metres.
      half_length: half its length along z, metres.
      mass: kg (default: from MuJoCo's default density).
      name: the model's name.
    """

    def _build(  # type: ignore[override]  # dm_control's Cylinder signature.
        self,
        radius: float = 0.05,
        half_length: float = 0.15,
        mass: float | None = None,
        name: str = "cylinder",
    ) -> None:
        super()._build(geom_type="cylinder", size=[radius, half_length], mass=mass, name=name)


class Capsule(Primitive):
    """A capsule prop along its z axis.

    Args:
      radius: metres.
      half_length: half the length of its cylindrical part along z, metres.
      mass: kg (default: from MuJoCo's default density).
      name: the model's name.
    """

    def _build(  # type: ignore[override]  # dm_control's Capsule signature.
        self,
        radius: float = 0.05,
        half_length: float = 0.15,
        mass: float | None = None,
        name: str = "capsule",
    ) -> None:
        super()._build(geom_type="capsule", size=[radius, half_length], mass=mass, name=name)
