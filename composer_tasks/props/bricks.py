"""Duplo 2x4 bricks whose studs snap into the next brick's underside (dm_control paper §8.1).

A brick is a hollow shell (four side walls and a top) with eight cylindrical studs
on top and, underneath, three tubes and thin flanges between which the studs of
the brick below fit with a fraction of a millimetre of interference. Pressed
together, the studs and tubes interpenetrate slightly; MuJoCo's soft contacts then
push back, and friction on those contacts holds the bricks together: the snap
comes from geometry and friction only, with no weld or other equality.

Dimensions, contact bits, densities and stud radii are those of dm_control's
Duplo 2x4 (dm-control 1.0.50, `entities/props/duplo/duplo2x4.xml` and
`__init__.py`): 31.8 mm x 63.6 mm footprint, 19.2 mm body, 16 mm stud pitch,
4.6 mm stud height. The stud radius sets how hard the bricks hold: real Duplo
bricks separate under 6 N to 18 N with a lower quartile of 10 N, and dm_control's
table `_STUD_SIZE_PARAMS` gives, for each choice of `easy_align` and `flanges`,
the radii at which its bricks separate at those forces. The brick's model also
turns off MuJoCo's native convex collision (`nativeccd`, `multiccd`), as
dm_control's does, for the whole model it is attached to: the radii are tuned to
that collision code, and with it (measured on MuJoCo 4 with
`composer_tasks.props.duplo_utils.measure_separation_force`) dm_control's radii
give dm_control's forces (6.2 N, 10.0 N and 17.8 N with flanges).

Frames: the brick's origin is the centre of its bottom face; z points up through
the studs; the long side runs along y.
"""

import collections
from collections.abc import Sequence
from typing import Any, Tuple

import mujoco
import numpy as np

from composer_tasks import composer, mjcf
from composer_tasks.composer.observation import observable

# Duplo 2x4 dimensions (m), dm_control's duplo2x4.xml.
BRICK_HEIGHT_M = 0.0192
HALF_WIDTH_M = 0.0159
HALF_LENGTH_M = 0.0318
_STUD_HALF_HEIGHT_M = 0.0023
_STUD_CENTRE_Z_M = 0.0215
_STUD_X_M = 0.00805
_STUD_CAPSULE_X_M = 0.008
_STUD_YS_M = (-0.024, -0.008, 0.008, 0.024)  # 16 mm pitch
_STUD_MARGIN_M = 0.0001
# The radii the brick is built with, before an episode draws its own (duplo2x4.xml's
# `stud` and `stud-capsule` classes).
_BUILT_STUD_RADIUS_M = 0.0047
_BUILT_STUD_CAPSULE_RADIUS_M = 0.005
_WALL_HALF_THICKNESS_M = 0.0008
_TUBE_RADIUS_M = 0.0066999
_TUBE_HALF_HEIGHT_M = 0.0078
_TUBE_Z_M = 0.0098
_TUBE_YS_M = (-0.016, 0.0, 0.016)
_FLANGE_HALF_SIZE_M = (0.0008, 0.00055, 0.0087)
_FLANGE_Z_M = 0.00885
_FLANGE_X_M = 0.0135
_FLANGE_Y_ENDS_M = 0.02945
# Densities (kg/m^3) of dm_control's brick parts: shell 1000 (MuJoCo's default),
# studs 500 (the capsule studs are massless), tubes 300.
_STUD_DENSITY = 500.0
_TUBE_DENSITY = 300.0
# ABS on ABS (dm_control's brick friction) and stiff contacts; MuJoCo's default
# torsional and rolling friction.
BRICK_FRICTION = 0.35
_SOLIMP = (0.99, 0.999, 0.001, 0.5, 2.0)
_SOLREF = (0.01, 1.0)
# The colour of the brick's parts before `color` replaces it (duplo2x4.xml's
# default geom rgba; only its alpha remains).
_ALPHA = 1.0
# Collision bits (duplo2x4.xml): the invisible base box touches the table, the
# robot and other bricks' boxes (contype 3, conaffinity 2); studs (5, 4) touch only
# the walls, tubes and (with `flanges`) flanges underneath another brick (4, 0).
# With `easy_align` the cylinders are hidden and collide with nothing of a brick
# (9, 8), and the capsule studs (0, 4) take their place.
_BASE_CONTACT = dict(contype=3, conaffinity=2)
_SHELL_CONTACT = dict(contype=4, conaffinity=0)
_STUD_CONTACT = dict(contype=5, conaffinity=4)
_HIDDEN_STUD_CONTACT = dict(contype=9, conaffinity=8)
_CAPSULE_STUD_CONTACT = dict(contype=0, conaffinity=4)
_NO_CONTACT = dict(contype=0, conaffinity=0)
_BOUNDING_BOX_HALF_SIZE_M = (0.016, 0.0319, 0.012)
_BOUNDING_BOX_Z_M = 0.0119
_STUD_SITE_X_M = 0.008
_STUD_SITE_Z_M = 0.0238
_HOLE_SITE_Z_M = 0.0046
# A sphere site's radius (m); the unused entries keep MuJoCo's default, as XML does.
_SITE_SIZE_M = (0.001, 0.005, 0.005)
_VERTEX_SITE_SIZE_M = (0.002, 0.005, 0.005)
_SITE_RGBA = (1.0, 0.0, 0.0, 0.3)
_SITE_GROUP = 5
_HIDDEN_GROUP = 3
_TASK_SITE_GROUP = 3
_BOX = mujoco.mjtGeom.mjGEOM_BOX
_CYLINDER = mujoco.mjtGeom.mjGEOM_CYLINDER
_CAPSULE = mujoco.mjtGeom.mjGEOM_CAPSULE
_SPHERE = mujoco.mjtGeom.mjGEOM_SPHERE
# duplo2x4.xml: <flag nativeccd="disable" multiccd="disable"/>.
_DISABLED_COLLISION_FLAGS = (
    mujoco.mjtDisableBit.mjDSBL_NATIVECCD | mujoco.mjtDisableBit.mjDSBL_MULTICCD
)

# dm_control's stud radii (m; `entities/props/duplo/__init__.py`): for each brick
# configuration, the radii at which a pair separates at the minimum (6 N), lower
# quartile (10 N) and maximum (18 N) of real Duplo bricks' separation forces.
# dm_control's own tests read this table, under this name.
_StudSize = collections.namedtuple("_StudSize", ["minimum", "lower_quartile", "maximum"])
_StudParams = collections.namedtuple("_StudParams", ["easy_align", "flanges"])
_STUD_SIZE_PARAMS = {
    _StudParams(easy_align=False, flanges=False): _StudSize(0.004685, 0.004781, 0.004898),
    _StudParams(easy_align=False, flanges=True): _StudSize(0.004609, 0.004647, 0.004716),
    _StudParams(easy_align=True, flanges=False): _StudSize(0.004754, 0.004844, 0.004953),
    _StudParams(easy_align=True, flanges=True): _StudSize(0.004695, 0.004717, 0.004765),
}
# The default brick's (cylinder studs, flanges) radii: lower quartile, minimum, maximum.
STUD_RADIUS_M = _STUD_SIZE_PARAMS[_StudParams(False, True)].lower_quartile
STUD_RADIUS_MIN_M = _STUD_SIZE_PARAMS[_StudParams(False, True)].minimum
STUD_RADIUS_MAX_M = _STUD_SIZE_PARAMS[_StudParams(False, True)].maximum

# dm_control's message for a colour out of range (its tests match it word for word).
_COLOR_NOT_BETWEEN_0_AND_1 = "All values in `color` must be between 0 and 1, got {!r}."

# The height at which a brick sits snapped onto another (m).
STACKED_OFFSET_M = BRICK_HEIGHT_M


class DuploObservables(composer.Observables, composer.FreePropObservableMixin):
    """Pose and motion of the brick's bounding box centre, world frame: position (m,
    (3,)), orientation (w-x-y-z, (4,)), linear (m/s) and angular (rad/s) velocity
    ((3,) each), and the force (N, (3,), site frame) the brick transmits."""

    @composer.observable
    def angular_velocity(self) -> observable.MJCFFeature:
        return observable.MJCFFeature("sensordata", self._entity._sensors["angular_velocity"])

    @composer.observable
    def force(self) -> observable.MJCFFeature:
        return observable.MJCFFeature("sensordata", self._entity._sensors["force"])

    @composer.observable
    def linear_velocity(self) -> observable.MJCFFeature:
        return observable.MJCFFeature("sensordata", self._entity._sensors["linear_velocity"])

    @composer.observable
    def orientation(self) -> observable.MJCFFeature:
        return observable.MJCFFeature("sensordata", self._entity._sensors["orientation"])

    @composer.observable
    def position(self) -> observable.MJCFFeature:
        return observable.MJCFFeature("sensordata", self._entity._sensors["position"])


class Duplo(composer.Entity):
    """A 2x4 Duplo brick, as dm_control's `entities.props.duplo.Duplo`.

    Args:
      easy_align: capsule studs instead of cylinders (their rounded tops slide
        into the holes more easily); the cylinders stay, hidden and contactless.
      flanges: the thin flanges underneath collide with the studs of the brick
        below, so that partly overlapping bricks click together too (and cost
        more contacts).
      variation: 0 gives every episode the configuration's lower-quartile stud
        radius (separation at about 10 N); 1 draws it uniformly between the radii
        that separate at 6 N and 18 N; values in between shrink that range
        towards the lower quartile (and larger ones widen it, as in dm_control, as
        long as the radii stay positive). Each episode draws one number either
        way, as dm_control's does.
      color: (r, g, b) in [0, 1], of every part but the invisible base box.
      name: the entity's (model's) name. This project's own, keyword only.
      vertex_sites: add sites at the 8 corners of the bounding box (the lift
        tasks measure the brick's lowest corner; dm_control's lift task adds
        them in a subclass). This project's own, keyword only.

    Until its first `initialize_episode_mjcf`, a brick's studs have the radius
    its model is written with (4.7 mm cylinders, 5 mm capsules), as in dm_control.
    """

    def _build(
        self,
        easy_align: bool = False,
        flanges: bool = True,
        variation: float = 0.0,
        color: Sequence[float] = (1.0, 0.0, 0.0),
        *,
        name: str = "duplo2x4",
        vertex_sites: bool = False,
    ) -> None:
        variation = float(variation)
        if not np.isfinite(variation):
            raise ValueError(f"variation must be a finite number, got {variation!r}")
        if not all(0 <= value <= 1 for value in color):
            raise ValueError(_COLOR_NOT_BETWEEN_0_AND_1.format(color))
        if len(color) != 3:
            raise ValueError(f"color must be 3 values (r, g, b) in [0, 1], got {color!r}")
        rgba = [*(float(value) for value in color), _ALPHA]
        self._easy_align = bool(easy_align)
        self._flanges = bool(flanges)
        sizes = _STUD_SIZE_PARAMS[_StudParams(self._easy_align, self._flanges)]
        self._sizes = sizes
        # dm_control's formula: the lower quartile stays where it is as the range grows.
        offset = (1 - variation) * sizes.lower_quartile
        self._radius_range = (
            offset + variation * sizes.minimum,
            offset + variation * sizes.maximum,
        )
        if min(self._radius_range) <= 0:
            raise ValueError(
                f"variation {variation!r} gives stud radii {self._radius_range} m; they must "
                "be positive"
            )
        spec = mujoco.MjSpec()
        spec.modelname = name
        spec.option.disableflags |= _DISABLED_COLLISION_FLAGS
        body = spec.worldbody
        common = dict(
            friction=[BRICK_FRICTION, 0.005, 0.0001], solimp=list(_SOLIMP), solref=list(_SOLREF)
        )
        # Elements in duplo2x4.xml's order (geom and site ids, and the order of
        # contacts, follow it).
        body.add_geom(
            name="base",
            type=_BOX,
            pos=[0, 0, BRICK_HEIGHT_M / 2],
            size=[HALF_WIDTH_M, HALF_LENGTH_M, BRICK_HEIGHT_M / 2],
            mass=0.0,
            group=4,
            rgba=[0, 0, 1, 0.3],
            **_BASE_CONTACT,
            **common,
        )
        shell = dict(type=_BOX, rgba=rgba, **_SHELL_CONTACT, **common)
        wall_x = HALF_WIDTH_M - _WALL_HALF_THICKNESS_M
        wall_y = HALF_LENGTH_M - _WALL_HALF_THICKNESS_M
        wall_half_height = BRICK_HEIGHT_M / 2 - _WALL_HALF_THICKNESS_M
        for label, sign in (("0", -1), ("1", 1)):
            body.add_geom(
                name=f"wall_x{label}",
                pos=[sign * wall_x, 0, wall_half_height],
                size=[_WALL_HALF_THICKNESS_M, wall_y - _WALL_HALF_THICKNESS_M, wall_half_height],
                **shell,
            )
        for label, sign in (("0", -1), ("1", 1)):
            body.add_geom(
                name=f"wall_y{label}",
                pos=[0, sign * wall_y, wall_half_height],
                size=[HALF_WIDTH_M, _WALL_HALF_THICKNESS_M, wall_half_height],
                **shell,
            )
        body.add_geom(
            name="wall_z1",
            pos=[0, 0, BRICK_HEIGHT_M - _WALL_HALF_THICKNESS_M],
            size=[HALF_WIDTH_M, HALF_LENGTH_M, _WALL_HALF_THICKNESS_M],
            **shell,
        )
        self._bounding_box = body.add_site(
            name="bounding_box",
            type=_BOX,
            size=list(_BOUNDING_BOX_HALF_SIZE_M),
            pos=[0, 0, _BOUNDING_BOX_Z_M],
            group=_TASK_SITE_GROUP,
            rgba=list(_SITE_RGBA),
        )
        marker = dict(type=_SPHERE, size=list(_SITE_SIZE_M), group=_SITE_GROUP)
        self._stud_sites = np.empty((2, 4), dtype=object)
        self._hole_sites = np.empty((2, 4), dtype=object)
        for grid, z, kind in (
            (self._stud_sites, _STUD_SITE_Z_M, "stud"),
            (self._hole_sites, _HOLE_SITE_Z_M, "hole"),
        ):
            for row, x in enumerate((-_STUD_SITE_X_M, _STUD_SITE_X_M)):
                for column, y in enumerate(_STUD_YS_M):
                    grid[row, column] = body.add_site(
                        name=f"{kind}_{row}{column}",
                        pos=[x, y, z],
                        rgba=list(_SITE_RGBA),
                        **marker,
                    )
        cylinder_contact = _HIDDEN_STUD_CONTACT if self._easy_align else _STUD_CONTACT
        self._cylinder_studs = []
        for row, x in enumerate((-_STUD_X_M, _STUD_X_M)):
            for column, y in enumerate(_STUD_YS_M):
                self._cylinder_studs.append(
                    body.add_geom(
                        name=f"stud_{row}{column}",
                        type=_CYLINDER,
                        pos=[x, y, _STUD_CENTRE_Z_M],
                        size=[_BUILT_STUD_RADIUS_M, _STUD_HALF_HEIGHT_M, 0.0],
                        density=_STUD_DENSITY,
                        margin=_STUD_MARGIN_M,
                        group=_HIDDEN_GROUP if self._easy_align else 0,
                        rgba=rgba,
                        **cylinder_contact,
                        **common,
                    )
                )
        capsule_contact = _CAPSULE_STUD_CONTACT if self._easy_align else _NO_CONTACT
        self._capsule_studs = []
        for row, x in enumerate((-_STUD_CAPSULE_X_M, _STUD_CAPSULE_X_M)):
            for column, y in enumerate(_STUD_YS_M):
                self._capsule_studs.append(
                    body.add_geom(
                        name=f"studcap_{row}{column}",
                        type=_CAPSULE,
                        pos=[x, y, _STUD_CENTRE_Z_M],
                        size=[_BUILT_STUD_CAPSULE_RADIUS_M, _STUD_HALF_HEIGHT_M, 0.0],
                        mass=0.0,
                        group=0 if self._easy_align else _HIDDEN_GROUP,
                        rgba=rgba,
                        **capsule_contact,
                        **common,
                    )
                )
        flange = dict(
            type=_BOX,
            size=list(_FLANGE_HALF_SIZE_M),
            rgba=rgba,
            **(_SHELL_CONTACT if self._flanges else _NO_CONTACT),
            **common,
        )
        for row, x in enumerate((-_FLANGE_X_M, _FLANGE_X_M)):
            for column, y in enumerate(_STUD_YS_M):
                body.add_geom(name=f"flange_{row}{column}", pos=[x, y, _FLANGE_Z_M], **flange)
        quarter_turn = [np.cos(np.pi / 4), 0, 0, np.sin(np.pi / 4)]
        for row, x in enumerate((-_STUD_X_M, _STUD_X_M)):
            for column, y in enumerate((-_FLANGE_Y_ENDS_M, _FLANGE_Y_ENDS_M)):
                body.add_geom(
                    name=f"flange_{row}{column}y",
                    pos=[x, y, _FLANGE_Z_M],
                    quat=quarter_turn,
                    **flange,
                )
        for index, y in enumerate(_TUBE_YS_M):
            body.add_geom(
                name=f"tube_{index}",
                type=_CYLINDER,
                pos=[0, y, _TUBE_Z_M],
                size=[_TUBE_RADIUS_M, _TUBE_HALF_HEIGHT_M, 0.0],
                density=_TUBE_DENSITY,
                rgba=rgba,
                **_SHELL_CONTACT,
                **common,
            )
        # Ribs that stiffen the shell inside (shape only; studs do not reach them).
        for label, sign in (("0", -1), ("1", 1)):
            body.add_geom(
                name=f"inner_x{label}",
                pos=[sign * 0.01045, 0, 0.011],
                size=[0.00385, 0.00055, 0.0066],
                **shell,
            )
        for label, sign in (("0", -1), ("1", 1)):
            body.add_geom(
                name=f"inner_y{label}",
                pos=[0, sign * 0.008, 0.0132],
                size=[0.0004, 0.0014, 0.0044],
                **shell,
            )
        self._vertices = []
        if vertex_sites:
            index = 0
            for dx in (-1, 1):
                for dy in (-1, 1):
                    for dz in (-1, 1):
                        position = np.array(_BOUNDING_BOX_HALF_SIZE_M) * (dx, dy, dz)
                        position[2] += _BOUNDING_BOX_Z_M
                        self._vertices.append(
                            body.add_site(
                                name=f"vertex_{index}",
                                pos=position.tolist(),
                                type=_SPHERE,
                                size=list(_VERTEX_SITE_SIZE_M),
                                group=_TASK_SITE_GROUP,
                                rgba=list(_SITE_RGBA),
                            )
                        )
                        index += 1
        site = dict(objtype=mujoco.mjtObj.mjOBJ_SITE, objname="bounding_box")
        self._sensors = {
            "position": spec.add_sensor(
                name="position", type=mujoco.mjtSensor.mjSENS_FRAMEPOS, **site
            ),
            "orientation": spec.add_sensor(
                name="orientation", type=mujoco.mjtSensor.mjSENS_FRAMEQUAT, **site
            ),
            "linear_velocity": spec.add_sensor(
                name="linear_velocity", type=mujoco.mjtSensor.mjSENS_FRAMELINVEL, **site
            ),
            "angular_velocity": spec.add_sensor(
                name="angular_velocity", type=mujoco.mjtSensor.mjSENS_FRAMEANGVEL, **site
            ),
            "force": spec.add_sensor(name="force", type=mujoco.mjtSensor.mjSENS_FORCE, **site),
        }
        self._spec = spec
        self._studs = self._capsule_studs if self._easy_align else self._cylinder_studs
        self._stud_radius = (
            _BUILT_STUD_CAPSULE_RADIUS_M if self._easy_align else _BUILT_STUD_RADIUS_M
        )

    def _build_observables(self) -> DuploObservables:
        return DuploObservables(self)

    # Parts are PyMJCF handles (`composer_tasks.mjcf.Element`), as dm_control's,
    # except `stud_sites`/`hole_sites`, this project's spec-element arrays.

    def _handles(self, elements: Sequence[Any]) -> tuple[mjcf.Element, ...]:
        return tuple(self.mjcf_model._wrap(element) for element in elements)

    def _site_grid(self, sites: np.ndarray) -> np.ndarray:
        grid = np.empty(sites.shape, dtype=object)
        for index, site in np.ndenumerate(sites):
            grid[index] = self.mjcf_model._wrap(site)
        return grid

    @property
    def sensors(self) -> dict[str, mjcf.Element]:
        return {name: self.mjcf_model._wrap(sensor) for name, sensor in self._sensors.items()}

    @property
    def studs(self) -> np.ndarray:
        """dm_control's `studs`: the (2, 4) sites at the tops of the studs."""
        return self._site_grid(self._stud_sites)

    @property
    def holes(self) -> np.ndarray:
        """dm_control's `holes`: the (2, 4) sites where the studs of a brick
        snapped underneath end up."""
        return self._site_grid(self._hole_sites)

    @property
    def stud_geoms(self) -> tuple[mjcf.Element, ...]:
        """The eight studs that collide (capsules with `easy_align`, else
        cylinders), row-major (2 rows along x, 4 columns along y)."""
        return self._handles(self._studs)

    @property
    def stud_sites(self) -> np.ndarray:
        """(2, 4) sites at the tops of the studs."""
        return self._stud_sites

    @property
    def hole_sites(self) -> np.ndarray:
        """(2, 4) sites where the studs of a brick snapped underneath end up."""
        return self._hole_sites

    @property
    def vertices(self) -> tuple[mjcf.Element, ...]:
        """Sites at the corners of the bounding box (empty unless `vertex_sites`)."""
        return self._handles(self._vertices)

    @property
    def bounding_box(self) -> mjcf.Element:
        return self.mjcf_model._wrap(self._bounding_box)

    @property
    def stud_radius_range(self) -> Tuple[float, float]:
        """(low, high) stud radius (m) episodes draw from."""
        return self._radius_range

    @property
    def stud_radius(self) -> float:
        """The radius (m) of the colliding studs in the current spec."""
        return self._stud_radius

    def set_stud_radius(self, radius: float) -> None:
        """Sets the colliding studs' radius (m) in the spec (the model recompiles at
        the next reset)."""
        radius = float(radius)
        if not (np.isfinite(radius) and radius > 0):
            raise ValueError(f"stud radius must be a positive number of metres, got {radius!r}")
        if radius == self._stud_radius:
            return
        for stud in self._studs:
            stud.size = [radius, _STUD_HALF_HEIGHT_M, 0.0]
        self._stud_radius = radius
        composer.mark_spec_changed()

    def initialize_episode_mjcf(self, random_state: np.random.RandomState) -> None:
        """Draws the episode's stud radius from `stud_radius_range` (one uniform
        draw, also when the range is a single value)."""
        self.set_stud_radius(random_state.uniform(*self._radius_range))
