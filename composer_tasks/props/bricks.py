"""Duplo 2x4 bricks whose studs snap into the next brick's underside (dm_control paper §8.1).

A brick is a hollow shell (four side walls and a top) with eight cylindrical studs
on top and, underneath, three tubes and thin flanges between which the studs of
the brick below fit with a fraction of a millimetre of interference. Pressed
together, the studs and tubes interpenetrate slightly; MuJoCo's soft contacts then
push back, and friction on those contacts holds the bricks together: the snap
comes from geometry and friction only, with no weld or other equality.

Dimensions are those of a Lego Duplo 2x4 brick as modelled by dm_control
(dm-control 1.0.50, `entities/props/duplo/duplo2x4.xml`): 31.8 mm x 63.6 mm
footprint, 19.2 mm body, 16 mm stud pitch, 4.6 mm stud height. The stud radius
sets how hard the bricks hold: real Duplo bricks separate under 6 N to 18 N, with
a lower quartile of 10 N (the figures dm_control tunes to,
`entities/props/duplo/autotune.py`). `STUD_RADIUS_M` was tuned here, on MuJoCo 4,
with `measure_separation_force` (tests/manipulation/test_bricks.py re-measures):
the default brick separates at about 10 N, and `variation=1.0` draws each
episode's stud radius uniformly from a range whose ends separate at about 6 N and
18 N.

Frames: the brick's origin is the centre of its bottom face; z points up through
the studs; the long side runs along y.
"""

from collections.abc import Sequence
from typing import Any, Tuple

import mujoco
import numpy as np

from composer_tasks import composer, mjcf
from composer_tasks.composer.observation import observable
from composer_tasks.physics import Physics

# Duplo 2x4 dimensions (m), dm_control's model.
BRICK_HEIGHT_M = 0.0192
HALF_WIDTH_M = 0.0159
HALF_LENGTH_M = 0.0318
_STUD_HALF_HEIGHT_M = 0.0023
_STUD_CENTRE_Z_M = 0.0215
_STUD_X_M = 0.00805
_STUD_YS_M = (-0.024, -0.008, 0.008, 0.024)  # 16 mm pitch
_STUD_MARGIN_M = 0.0001
_WALL_HALF_THICKNESS_M = 0.0008
_TUBE_RADIUS_M = 0.0067
_TUBE_HALF_HEIGHT_M = 0.0078
_TUBE_Z_M = 0.0098
_TUBE_YS_M = (-0.016, 0.0, 0.016)
_FLANGE_HALF_SIZE_M = (0.0008, 0.00055, 0.0087)
_FLANGE_Z_M = 0.00885
_FLANGE_X_M = 0.0135
_FLANGE_Y_ENDS_M = 0.02945
# Densities (kg/m^3) of dm_control's brick parts: shell 1000, studs 500, tubes 300.
_SHELL_DENSITY = 1000.0
_STUD_DENSITY = 500.0
_TUBE_DENSITY = 300.0
# ABS on ABS (dm_control's brick friction) and stiff contacts.
BRICK_FRICTION = 0.35
_SOLIMP = (0.99, 0.999, 0.001, 0.5, 2.0)
_SOLREF = (0.01, 1.0)
# Collision bits: the invisible body box touches the table, the robot and other
# bricks' boxes (contype 3, conaffinity 2); studs (5, 4) touch only the tubes,
# flanges and walls underneath another brick (4, 0) and the table.
_BODY_CONTACT = dict(contype=3, conaffinity=2)
_SHELL_CONTACT = dict(contype=4, conaffinity=0)
_STUD_CONTACT = dict(contype=5, conaffinity=4)

# Stud radii (m) tuned on MuJoCo 4 with `measure_separation_force` so that the
# separation forces are 6 N (minimum), 10 N (lower quartile, the default) and 18 N
# (maximum): the published Duplo figures.
# Measured (N): 0.00458 m -> 6.02, 0.004609 m -> 10.01, 0.004665 m -> 17.99.
STUD_RADIUS_M = 0.004609
STUD_RADIUS_MIN_M = 0.00458
STUD_RADIUS_MAX_M = 0.004665

# The height at which a brick sits snapped onto another (m).
STACKED_OFFSET_M = BRICK_HEIGHT_M
_BOUNDING_BOX_HALF_SIZE_M = (0.016, 0.0319, 0.012)
_BOUNDING_BOX_Z_M = 0.0119
_STUD_SITE_Z_M = 0.0238
_HOLE_SITE_Z_M = 0.0046
_SITE_GROUP = 5
_TASK_SITE_GROUP = 3
_BOX = mujoco.mjtGeom.mjGEOM_BOX
_CYLINDER = mujoco.mjtGeom.mjGEOM_CYLINDER


class DuploObservables(composer.Observables):
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
    """A 2x4 Duplo brick.

    Args:
      variation: 0 gives every episode the default stud radius (separation at
        about 10 N); 1 draws it uniformly between the radii that separate at
        6 N and 18 N; values in between shrink that range towards the default.
      color: (r, g, b) in [0, 1].
      name: the entity's name.
      vertex_sites: add sites at the 8 corners of the bounding box (the lift
        tasks measure the brick's lowest corner).
    """

    def _build(
        self,
        variation: float = 0.0,
        color: Sequence[float] = (1.0, 0.0, 0.0),
        name: str = "duplo2x4",
        vertex_sites: bool = False,
    ) -> None:
        variation = float(variation)
        if not 0.0 <= variation <= 1.0:
            raise ValueError(f"variation must be in [0, 1], got {variation!r}")
        rgb = np.asarray(color, dtype=np.float64)
        if rgb.shape != (3,) or not np.all((rgb >= 0) & (rgb <= 1)):
            raise ValueError(f"color must be 3 values in [0, 1], got {rgb!r}")
        rgba = [*rgb.tolist(), 1.0]
        self._radius_range = (
            (1 - variation) * STUD_RADIUS_M + variation * STUD_RADIUS_MIN_M,
            (1 - variation) * STUD_RADIUS_M + variation * STUD_RADIUS_MAX_M,
        )
        self._variation = variation
        spec = mujoco.MjSpec()
        spec.modelname = name
        body = spec.worldbody
        common = dict(
            friction=[BRICK_FRICTION, 0.005, 0.0001], solimp=list(_SOLIMP), solref=list(_SOLREF)
        )
        self._body_geom = body.add_geom(
            name="base",
            type=_BOX,
            pos=[0, 0, BRICK_HEIGHT_M / 2],
            size=[HALF_WIDTH_M, HALF_LENGTH_M, BRICK_HEIGHT_M / 2],
            mass=0.0,
            group=4,
            rgba=[0, 0, 1, 0.3],
            **_BODY_CONTACT,
            **common,
        )
        shell = dict(type=_BOX, density=_SHELL_DENSITY, rgba=rgba, **_SHELL_CONTACT, **common)
        wall_x = HALF_WIDTH_M - _WALL_HALF_THICKNESS_M
        wall_y = HALF_LENGTH_M - _WALL_HALF_THICKNESS_M
        for sign, label in ((-1, 0), (1, 1)):
            body.add_geom(
                name=f"wall_x{label}",
                pos=[sign * wall_x, 0, 0.0088],
                size=[_WALL_HALF_THICKNESS_M, wall_y - 0.0008, 0.0088],
                **shell,
            )
            body.add_geom(
                name=f"wall_y{label}",
                pos=[0, sign * wall_y, 0.0088],
                size=[HALF_WIDTH_M, _WALL_HALF_THICKNESS_M, 0.0088],
                **shell,
            )
        body.add_geom(
            name="wall_z1",
            pos=[0, 0, BRICK_HEIGHT_M - _WALL_HALF_THICKNESS_M],
            size=[HALF_WIDTH_M, HALF_LENGTH_M, _WALL_HALF_THICKNESS_M],
            **shell,
        )
        # Ribs that stiffen the shell inside (shape only; studs do not reach them).
        for sign, label in ((-1, 0), (1, 1)):
            body.add_geom(
                name=f"inner_x{label}",
                pos=[sign * 0.01045, 0, 0.011],
                size=[0.00385, 0.00055, 0.0066],
                **shell,
            )
            body.add_geom(
                name=f"inner_y{label}",
                pos=[0, sign * 0.008, 0.0132],
                size=[0.0004, 0.0014, 0.0044],
                **shell,
            )
        self._studs = []
        for row, x in enumerate((-_STUD_X_M, _STUD_X_M)):
            for column, y in enumerate(_STUD_YS_M):
                self._studs.append(
                    body.add_geom(
                        name=f"stud_{row}{column}",
                        type=_CYLINDER,
                        pos=[x, y, _STUD_CENTRE_Z_M],
                        size=[STUD_RADIUS_M, _STUD_HALF_HEIGHT_M, 0.0],
                        density=_STUD_DENSITY,
                        margin=_STUD_MARGIN_M,
                        rgba=rgba,
                        **_STUD_CONTACT,
                        **common,
                    )
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
        flange = dict(
            type=_BOX,
            size=list(_FLANGE_HALF_SIZE_M),
            density=_SHELL_DENSITY,
            rgba=rgba,
            **_SHELL_CONTACT,
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
        self._bounding_box = body.add_site(
            name="bounding_box",
            type=_BOX,
            size=list(_BOUNDING_BOX_HALF_SIZE_M),
            pos=[0, 0, _BOUNDING_BOX_Z_M],
            group=_TASK_SITE_GROUP,
            rgba=[1, 0, 0, 0.3],
        )
        self._stud_sites = np.empty((2, 4), dtype=object)
        self._hole_sites = np.empty((2, 4), dtype=object)
        for row, x in enumerate((-0.008, 0.008)):
            for column, y in enumerate(_STUD_YS_M):
                self._stud_sites[row, column] = body.add_site(
                    name=f"stud_{row}{column}",
                    pos=[x, y, _STUD_SITE_Z_M],
                    size=[0.001, 0, 0],
                    group=_SITE_GROUP,
                )
                self._hole_sites[row, column] = body.add_site(
                    name=f"hole_{row}{column}",
                    pos=[x, y, _HOLE_SITE_Z_M],
                    size=[0.001, 0, 0],
                    group=_SITE_GROUP,
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
                                size=[0.002, 0, 0],
                                group=_TASK_SITE_GROUP,
                                rgba=[1, 0, 0, 0.3],
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
        self._stud_radius = STUD_RADIUS_M

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
        """The eight stud geoms, row-major (2 rows along x, 4 columns along y)."""
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
        """The stud radius (m) of the current spec."""
        return self._stud_radius

    def set_stud_radius(self, radius: float) -> None:
        """Sets the studs' radius (m) in the spec (the model recompiles at the next reset)."""
        radius = float(radius)
        if not 0.9 * STUD_RADIUS_MIN_M <= radius <= 1.1 * STUD_RADIUS_MAX_M:
            raise ValueError(
                f"stud radius must be within 10% of [{STUD_RADIUS_MIN_M}, {STUD_RADIUS_MAX_M}] m, "
                f"got {radius!r}"
            )
        for stud in self._studs:
            stud.size = [radius, _STUD_HALF_HEIGHT_M, 0.0]
        self._stud_radius = radius
        composer.mark_spec_changed()

    def initialize_episode_mjcf(self, random_state: np.random.RandomState) -> None:
        """Draws the episode's stud radius (only when `variation` > 0)."""
        if self._variation > 0:
            self.set_stud_radius(random_state.uniform(*self._radius_range))


def stack_bricks(top: Duplo, bottom: Duplo) -> composer.Entity:
    """A model with `bottom` fixed at the origin and `top` free, snapped onto it."""
    root = _Root()
    root.attach(bottom)
    root.add_free_entity(top)
    body = top.attachment_body
    assert body is not None  # Set by `add_free_entity`.
    body.pos = [0.0, 0.0, STACKED_OFFSET_M]
    return root


class _Root(composer.Arena):
    def _build(self) -> None:
        self._spec = mujoco.MjSpec()
        self._spec.modelname = "bricks"
        self._spec.option.cone = mujoco.mjtCone.mjCONE_ELLIPTIC
        self._spec.option.noslip_iterations = 5
        self._spec.option.noslip_tolerance = 0.0


def measure_separation_force(
    top: Duplo,
    bottom: Duplo,
    min_force: float = 0.0,
    max_force: float = 20.0,
    tolerance: float = 0.01,
    time_limit: float = 0.5,
    height_threshold: float = 1e-3,
    physics_timestep: float = 0.002,
) -> float:
    """The smallest upward force (N) that pulls `top` off `bottom`, by bisection.

    Builds a model with `bottom` fixed and `top` snapped onto it, turns gravity
    off, and for each candidate force applies it upward at the top brick's origin
    for up to `time_limit` seconds: the bricks count as separated when the top
    brick rises by `height_threshold` metres. (A long time limit lowers the
    estimate, since soft contacts let the bricks creep apart under any force.)
    Uses, and attaches, both bricks: build fresh ones for other measurements.
    """
    root = stack_bricks(top, bottom)
    root.spec.option.timestep = physics_timestep
    root.spec.option.disableflags |= mujoco.mjtDisableBit.mjDSBL_GRAVITY
    physics = Physics.from_spec(root.spec)
    body_id = physics.bind(top.attachment_body).id
    data = physics.data

    def separates(force: float) -> bool:
        physics.reset()
        physics.forward()
        start_height = data.xpos[body_id, 2]
        data.xfrc_applied[body_id, 2] = force
        while data.time < time_limit:
            physics.step(5)
            if data.xpos[body_id, 2] - start_height > height_threshold:
                return True
        return False

    low, high = float(min_force), float(max_force)
    while separates(low) and low > 1e-6:
        low *= 0.5
    while not separates(high):
        high *= 2.0
        if high > 1e4:
            raise ValueError("the bricks did not separate under 10 kN; are they stacked?")
    while high - low > tolerance:
        middle = 0.5 * (low + high)
        if separates(middle):
            high = middle
        else:
            low = middle
    return 0.5 * (low + high)
