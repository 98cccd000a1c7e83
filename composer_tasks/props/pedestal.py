"""Pedestal and cradle: the raised target of the place tasks (dm_control's place.py).

A `Pedestal` is a capsule column 0.2 m tall with a cradle on top: a fixed Duplo
brick (place_brick) or a `SphereCradle`, three spheres forming a concave seat
(place_cradle). Its origin, where the target site sits, is the top of the
column's rounded cap; the observable `position` is that site's world position.
Numbers from dm-control 1.0.50 (`manipulation/place.py`).
"""

import mujoco
import numpy as np

from composer_tasks import composer, mjcf
from composer_tasks.composer.observation import observable

PEDESTAL_RADIUS_M = 0.07
PEDESTAL_HEIGHT_M = 0.2
_SPHERE_COUNT = 3
_SPHERE_RADIUS_M = 0.7 * PEDESTAL_RADIUS_M
_TASK_SITE_GROUP = 3
_TARGET_RGBA = (1.0, 0.0, 0.0, 0.3)


class SphereCradle(composer.Entity):
    """Three spheres (radius 0.049 m) around a point, making a concave seat above it."""

    def _build(self, name: str = "cradle") -> None:
        spec = mujoco.MjSpec()
        spec.modelname = name
        for index, angle in enumerate(np.linspace(0, 2 * np.pi, _SPHERE_COUNT, endpoint=False)):
            position = 0.7 * _SPHERE_RADIUS_M * np.array([np.sin(angle), np.cos(angle), -1.0])
            spec.worldbody.add_geom(
                name=f"sphere_{index}",
                type=mujoco.mjtGeom.mjGEOM_SPHERE,
                size=[_SPHERE_RADIUS_M, 0, 0],
                condim=6,
                pos=position.tolist(),
            )
        self._spec = spec


class PedestalObservables(composer.Observables):
    """The pedestal's observable: its target site's world position."""

    @composer.observable
    def position(self) -> observable.MJCFFeature:
        """World position (m) of the target site on the pedestal."""
        return observable.MJCFFeature("xpos", self._entity.target_site)


class Pedestal(composer.Entity):
    """A column holding `cradle` at its top, with a target site of `target_radius` metres.

    The column hangs below the origin: place the pedestal with its origin where
    the target should be.
    """

    def _build(self, cradle: composer.Entity, target_radius: float, name: str = "pedestal") -> None:
        if not target_radius > 0:
            raise ValueError(f"target_radius must be positive metres, got {target_radius!r}")
        spec = mujoco.MjSpec()
        spec.modelname = name
        spec.worldbody.add_geom(
            name="column",
            type=mujoco.mjtGeom.mjGEOM_CAPSULE,
            size=[PEDESTAL_RADIUS_M, 0, 0],
            fromto=[0, 0, -PEDESTAL_RADIUS_M, 0, 0, -(PEDESTAL_HEIGHT_M + PEDESTAL_RADIUS_M)],
        )
        self._cradle_site = spec.worldbody.add_site(
            name="cradle_site",
            type=mujoco.mjtGeom.mjGEOM_SPHERE,
            size=[0.003, 0, 0],
            group=_TASK_SITE_GROUP,
        )
        self._target_site = spec.worldbody.add_site(
            name="target_site",
            type=mujoco.mjtGeom.mjGEOM_SPHERE,
            size=[target_radius, 0, 0],
            rgba=list(_TARGET_RGBA),
            # Hidden by default, as dm_control's (workspaces.add_target_site, not visible).
            group=_TASK_SITE_GROUP,
        )
        self._spec = spec
        self._cradle = cradle
        self.attach(cradle, self._cradle_site)

    def _build_observables(self) -> PedestalObservables:
        return PedestalObservables(self)

    @property
    def target_site(self) -> mjcf.Element:
        """The target site (a PyMJCF handle, as dm_control's)."""
        return self.mjcf_model._wrap(self._target_site)

    @property
    def cradle(self) -> composer.Entity:
        return self._cradle
