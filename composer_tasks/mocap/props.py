"""Props built from a motion-capture clip's prop records (dm_control's
`locomotion.mocap.props`, 1.0.50).

A prop is one geom (sphere or box, the record's MuJoCo size in metres and mass in
kilograms) in a model named after the record, with `framepos` and `framequat`
sensors of the geom ("position", "orientation"; world frame). Its default colour
blends from gold (3 kg and lighter) to rust (10 kg and heavier), dm_control's
colours.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from composer_tasks import composer, mjcf
from composer_tasks.composer import define
from composer_tasks.composer.observation import observable
from composer_tasks.mocap import records

_LIGHT_PROP_RGBA = np.array([0.77, 0.64, 0.21, 1.0])
_LIGHT_PROP_MASS_KG = 3.0
_HEAVY_PROP_RGBA = np.array([0.77, 0.34, 0.21, 1.0])
_HEAVY_PROP_MASS_KG = 10.0

_GEOM_TYPE = {records.Prop.SPHERE: "sphere", records.Prop.BOX: "box"}


def _default_rgba(mass: float) -> np.ndarray:
    heaviness = np.clip(
        (mass - _LIGHT_PROP_MASS_KG) / (_HEAVY_PROP_MASS_KG - _LIGHT_PROP_MASS_KG), 0.0, 1.0
    )
    return (1 - heaviness) * _LIGHT_PROP_RGBA + heaviness * _HEAVY_PROP_RGBA


class Prop(composer.Entity):
    """A prop of a clip.

    Args:
      prop_proto: the clip's `records.Prop`.
      rgba: the geom's colour (default: by mass, see the module docstring).
      priority_friction: give the geom contact priority 1, condim 6 and friction
        (0.7, size[0]/4, size[0]/2), the torsional and rolling terms being lengths
        on the scale of the contact patch.

    Raises:
      ValueError: the record's shape is neither SPHERE nor BOX.
    """

    def _build(
        self,
        prop_proto: records.Prop,
        rgba: ArrayLike | None = None,
        priority_friction: bool = False,
    ) -> None:
        if prop_proto.shape not in _GEOM_TYPE:
            raise ValueError(
                f"prop {prop_proto.name!r} has shape {prop_proto.shape}; a mocap prop is a "
                f"SPHERE ({records.Prop.SPHERE}) or a BOX ({records.Prop.BOX})"
            )
        color = _default_rgba(prop_proto.mass) if rgba is None else rgba
        self._mjcf_root = mjcf.RootElement(model=str(prop_proto.name))
        self._geom = self._mjcf_root.worldbody.add(
            "geom",
            type=_GEOM_TYPE[prop_proto.shape],
            size=prop_proto.size,
            mass=prop_proto.mass,
            rgba=color,
        )
        if priority_friction:
            self._geom.priority = 1
            self._geom.condim = 6
            self._geom.friction = [0.7, prop_proto.size[0] / 4, prop_proto.size[0] / 2]
        self._body_geom_ids: tuple[int, ...] = ()
        self._position = self._mjcf_root.sensor.add(
            "framepos", name="position", objtype="geom", objname=self._geom
        )
        self._orientation = self._mjcf_root.sensor.add(
            "framequat", name="orientation", objtype="geom", objname=self._geom
        )

    def _build_observables(self) -> Observables:
        return Observables(self)

    @property
    def mjcf_model(self) -> mjcf.RootElement:
        return self._mjcf_root

    def update_with_new_prop(self, prop: Prop) -> None:
        """Takes the size, mass and colour of `prop`'s geom."""
        self._geom.size = prop.geom.size
        self._geom.mass = prop.geom.mass
        self._geom.rgba = prop.geom.rgba

    @property
    def geom(self) -> Any:
        return self._geom

    def after_compile(self, physics: Any, random_state: Any) -> None:
        del random_state
        self._body_geom_ids = (int(physics.bind(self._geom).element_id),)

    @property
    def body_geom_ids(self) -> tuple[int, ...]:
        """The geom's id in the compiled model (after compilation)."""
        return self._body_geom_ids

    @property
    def position(self) -> Any:
        """The geom's world position sensor."""
        return self._position

    @property
    def orientation(self) -> Any:
        """The geom's world orientation (quaternion) sensor."""
        return self._orientation


class Observables(composer.Observables):
    """The prop's ground-truth position (3,) and orientation (4,), world frame."""

    @define.observable
    def position(self) -> observable.Observable:
        return observable.MJCFFeature("sensordata", self._entity.position)

    @define.observable
    def orientation(self) -> observable.Observable:
        return observable.MJCFFeature("sensordata", self._entity.orientation)
