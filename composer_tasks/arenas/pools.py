"""Geometry that arenas lay out anew every episode without recompiling the model.

An arena builds, once, a fixed pool of box obstacles (`BoxPool`) and a fixed-size
heightfield (`HeightfieldGrid`); each episode it writes the new layout into the
compiled model's fields. Nothing here touches the spec after construction, so a
reset costs a few array writes instead of a recompilation.

What must change together when a box moves or resizes at run time, and why:
  * `body_pos`: every box sits alone at the origin of its own static body, and
    the body moves. Moving the geom inside a shared body would leave that body's
    bounding-volume hierarchy (`bvh_aabb`, computed at compile time and used by
    the midphase) describing the old geometry, and contacts would be missed.
  * `geom_size` with `geom_rbound` (bounding sphere), `geom_aabb` (local box) and
    the body's single `bvh_aabb` node: the broad- and midphase read all three.
  * `geom_contype`/`geom_conaffinity`: unused boxes get 0 (no contact pairs at
    all), are parked far below the world and are transparent, which also hides
    them from `mujoco.mj_ray`. The geoms compile with the pool's bitmasks,
    because MuJoCo derives a body's own bitmask (`body_contype`, which the
    broadphase checks first) from its geoms at compile time.

Renderers upload heightfields once; after `HeightfieldGrid.write` an existing
`mujoco.Renderer` must re-upload it (`mujoco.mjr_uploadHField(model, context,
hfield_id)`) to show the new terrain. Collision and `mj_ray` see it at once.
"""

from collections.abc import Sequence

import mujoco
import numpy as np
from numpy.typing import ArrayLike

from composer_tasks.physics import Physics

# Unused boxes wait here (world frame, metres): far below any arena, so that no
# ray cast from above and no contact can reach them.
PARKING_Z_M = -100.0
_PARKED_HALF_SIZE_M = 0.01


class BoxPool:
    """A fixed number of axis-aligned boxes, each on its own static body.

    Args:
      parent: the `mujoco.MjsBody` the boxes' bodies hang from (usually the
        arena's world body).
      name: prefix of the bodies (`name_<i>`) and geoms (`name_<i>_geom`).
      capacity: how many boxes the pool holds (the most a layout may use).
      rgba: default colour of the boxes.
      group: the geoms' visual group (also the `geomgroup` mask of `mj_ray`).
      material: optional material name for the geoms.
      contype, conaffinity: collision bitmasks of boxes in use.
    """

    def __init__(
        self,
        parent: mujoco.MjsBody,
        name: str,
        capacity: int,
        rgba: Sequence[float] | np.ndarray = (0.6, 0.6, 0.6, 1.0),
        group: int = 0,
        material: str | None = None,
        contype: int = 1,
        conaffinity: int = 1,
    ):
        if not isinstance(capacity, (int, np.integer)) or capacity < 0:
            raise ValueError(f"capacity must be a non-negative int, got {capacity!r}")
        self._name = name
        self._capacity = int(capacity)
        self._rgba = np.asarray(rgba, dtype=np.float64)
        self._contype = contype
        self._conaffinity = conaffinity
        bodies, geoms = [], []
        for index in range(self._capacity):
            body = parent.add_body(name=f"{name}_{index}", pos=[0.0, 0.0, PARKING_Z_M])
            # An explicit identity inertial frame keeps the body's bounding volume
            # in the body frame, so writing the box's size is enough to update it.
            body.explicitinertial = True
            body.ipos = [0.0, 0.0, 0.0]
            body.iquat = [1.0, 0.0, 0.0, 0.0]
            body.mass = 1.0
            body.inertia = [1.0, 1.0, 1.0]
            kwargs = dict(
                name=f"{name}_{index}_geom",
                type=mujoco.mjtGeom.mjGEOM_BOX,
                size=[_PARKED_HALF_SIZE_M] * 3,
                rgba=list(rgba),
                group=group,
                contype=contype,
                conaffinity=conaffinity,
            )
            if material is not None:
                kwargs["material"] = material
            geoms.append(body.add_geom(**kwargs))
            bodies.append(body)
        self._bodies = tuple(bodies)
        self._geoms = tuple(geoms)
        self._ids = None

    @property
    def capacity(self) -> int:
        return self._capacity

    @property
    def geoms(self) -> tuple[mujoco.MjsGeom, ...]:
        """The pool's `mujoco.MjsGeom`s, in slot order."""
        return self._geoms

    @property
    def bodies(self) -> tuple[mujoco.MjsBody, ...]:
        return self._bodies

    def _model_ids(self, physics: Physics) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        model = physics.model
        if self._ids is None or self._ids[0] is not model:
            if self._capacity:
                body_ids = np.asarray(physics.bind(list(self._bodies)).id, dtype=np.intp)
                geom_ids = np.asarray(physics.bind(list(self._geoms)).id, dtype=np.intp)
            else:
                body_ids = geom_ids = np.zeros(0, dtype=np.intp)
            bvh_ids = model.body_bvhadr[body_ids].astype(np.intp)
            self._ids = (model, body_ids, geom_ids, bvh_ids)
        return self._ids[1:]

    def write(
        self,
        physics: Physics,
        centers: ArrayLike,
        half_sizes: ArrayLike,
        rgba: ArrayLike | None = None,
        material_ids: ArrayLike | None = None,
        quaternions: ArrayLike | None = None,
    ) -> None:
        """Places `len(centers)` boxes and parks the rest.

        Args:
          physics: the `Physics` of the compiled model.
          centers: (k, 3) box centres in the world frame, metres.
          half_sizes: (k, 3) half-extents along the boxes' own axes, metres (> 0);
            the world axes unless `quaternions` turn the boxes.
          rgba: optional (k, 4) colours; the pool's default colour otherwise.
          material_ids: optional (k,) material ids (`model.mat_*` index, -1 none).
          quaternions: optional (k, 4) unit quaternions (w, x, y, z) turning the
            boxes (their bodies, so the bounding volumes, kept in the body
            frame, turn with them); identity otherwise.
        """
        centers = np.asarray(centers, dtype=np.float64).reshape(-1, 3)
        half_sizes = np.asarray(half_sizes, dtype=np.float64).reshape(-1, 3)
        count = len(centers)
        if half_sizes.shape != centers.shape:
            raise ValueError(
                f"centers and half_sizes must both have shape (k, 3), got "
                f"{centers.shape} and {half_sizes.shape}"
            )
        if count > self._capacity:
            raise ValueError(
                f"pool {self._name!r} holds {self._capacity} boxes, the layout asks for {count}"
            )
        if count and np.any(half_sizes <= 0):
            raise ValueError(f"half_sizes must be positive, got minimum {half_sizes.min()}")
        model = physics.model
        body_ids, geom_ids, bvh_ids = self._model_ids(physics)
        used, unused = slice(0, count), slice(count, self._capacity)
        model.body_pos[body_ids[used]] = centers
        if quaternions is None:
            model.body_quat[body_ids] = (1.0, 0.0, 0.0, 0.0)
        else:
            quaternions = np.asarray(quaternions, dtype=np.float64).reshape(-1, 4)
            if quaternions.shape != (count, 4):
                raise ValueError(
                    f"quaternions must have shape ({count}, 4), got {quaternions.shape}"
                )
            model.body_quat[body_ids[used]] = quaternions
            model.body_quat[body_ids[unused]] = (1.0, 0.0, 0.0, 0.0)
        model.geom_size[geom_ids[used]] = half_sizes
        model.geom_rbound[geom_ids[used]] = np.linalg.norm(half_sizes, axis=1)
        model.geom_aabb[geom_ids[used], :3] = 0.0
        model.geom_aabb[geom_ids[used], 3:] = half_sizes
        model.bvh_aabb[bvh_ids[used], :3] = 0.0
        model.bvh_aabb[bvh_ids[used], 3:] = half_sizes
        model.geom_contype[geom_ids[used]] = self._contype
        model.geom_conaffinity[geom_ids[used]] = self._conaffinity
        model.geom_rgba[geom_ids[used]] = self._rgba if rgba is None else rgba
        if material_ids is not None:
            model.geom_matid[geom_ids[used]] = material_ids

        parked = geom_ids[unused]
        model.body_pos[body_ids[unused]] = (0.0, 0.0, PARKING_Z_M)
        model.geom_size[parked] = _PARKED_HALF_SIZE_M
        model.geom_rbound[parked] = _PARKED_HALF_SIZE_M * np.sqrt(3.0)
        model.geom_aabb[parked, :3] = 0.0
        model.geom_aabb[parked, 3:] = _PARKED_HALF_SIZE_M
        model.bvh_aabb[bvh_ids[unused], :3] = 0.0
        model.bvh_aabb[bvh_ids[unused], 3:] = _PARKED_HALF_SIZE_M
        model.geom_contype[parked] = 0
        model.geom_conaffinity[parked] = 0
        model.geom_rgba[parked, 3] = 0.0

    def active_boxes(self, physics: Physics) -> tuple[np.ndarray, np.ndarray]:
        """(centers (k, 3), half_sizes (k, 3)) of the boxes in use, read from the model."""
        model = physics.model
        body_ids, geom_ids, _ = self._model_ids(physics)
        centers = model.body_pos[body_ids]
        active = centers[:, 2] > PARKING_Z_M / 2
        return centers[active], model.geom_size[geom_ids[active]]


class HeightfieldGrid:
    """A heightfield of fixed resolution over a rectangle, rewritten per episode.

    The grid's samples lie at `x_coords` (columns) and `y_coords` (rows), world
    frame. MuJoCo joins them into two triangles per cell along the diagonal from
    (x0, y0) to (x1, y1); `height_at` interpolates the same way, so it returns
    exactly the surface contacts and rays see.

    Args:
      spec: the arena's `mujoco.MjSpec`.
      name: name of the hfield asset, its body and geom (`name`, `name_body`, `name_geom`).
      x_range, y_range: (min, max) extent in metres, world frame.
      resolution: the largest sample spacing in metres; the actual spacing
        (`spacing`) divides the extent exactly.
      min_height, max_height: the lowest and highest surface the grid can take (m).
      base_thickness: depth of the solid below `min_height` (m).
      material, rgba: appearance of the geom.
    """

    def __init__(
        self,
        spec: mujoco.MjSpec,
        name: str,
        x_range: Sequence[float],
        y_range: Sequence[float],
        resolution: float,
        min_height: float,
        max_height: float,
        base_thickness: float = 0.5,
        material: str | None = None,
        rgba: Sequence[float] = (0.5, 0.5, 0.5, 1.0),
    ):
        (x0, x1), (y0, y1) = x_range, y_range
        if not (x1 > x0 and y1 > y0):
            raise ValueError(
                f"x_range and y_range must be increasing, got {x_range!r}, {y_range!r}"
            )
        if not resolution > 0:
            raise ValueError(f"resolution must be positive metres, got {resolution!r}")
        if not max_height > min_height:
            raise ValueError(
                f"max_height must exceed min_height, got {max_height!r} <= {min_height!r}"
            )
        ncol = int(np.ceil((x1 - x0) / resolution)) + 1
        nrow = int(np.ceil((y1 - y0) / resolution)) + 1
        self._x_coords = np.linspace(x0, x1, ncol)
        self._y_coords = np.linspace(y0, y1, nrow)
        self._spacing = ((x1 - x0) / (ncol - 1), (y1 - y0) / (nrow - 1))
        self._min_height = float(min_height)
        self._max_height = float(max_height)
        elevation = self._max_height - self._min_height
        ground = np.clip(-self._min_height / elevation, 0.0, 1.0)
        self._hfield = spec.add_hfield(
            name=name,
            nrow=nrow,
            ncol=ncol,
            size=[(x1 - x0) / 2, (y1 - y0) / 2, elevation, base_thickness],
            userdata=[float(ground)] * (nrow * ncol),
        )
        self._body = spec.worldbody.add_body(
            name=f"{name}_body", pos=[(x0 + x1) / 2, (y0 + y1) / 2, self._min_height]
        )
        kwargs = dict(
            name=f"{name}_geom", type=mujoco.mjtGeom.mjGEOM_HFIELD, hfieldname=name, rgba=list(rgba)
        )
        if material is not None:
            kwargs["material"] = material
        self._geom = self._body.add_geom(**kwargs)
        self._hfield_id = None

    @property
    def geom(self) -> mujoco.MjsGeom:
        return self._geom

    @property
    def hfield(self) -> mujoco.MjsHField:
        return self._hfield

    @property
    def x_coords(self) -> np.ndarray:
        """Sample x positions (ncol,), metres, world frame."""
        return self._x_coords

    @property
    def y_coords(self) -> np.ndarray:
        """Sample y positions (nrow,), metres, world frame."""
        return self._y_coords

    @property
    def spacing(self) -> tuple[float, float]:
        """(dx, dy) between samples, metres."""
        return self._spacing

    @property
    def shape(self) -> tuple[int, int]:
        """(nrow, ncol): rows along y, columns along x."""
        return len(self._y_coords), len(self._x_coords)

    @property
    def height_range(self) -> tuple[float, float]:
        return self._min_height, self._max_height

    def _data(self, physics: Physics) -> tuple[np.ndarray, int]:
        model = physics.model
        if self._hfield_id is None or self._hfield_id[0] is not model:
            hfield_id = physics.bind(self._hfield).id
            self._hfield_id = (model, hfield_id, int(model.hfield_adr[hfield_id]))
        _, hfield_id, adr = self._hfield_id
        nrow, ncol = self.shape
        return model.hfield_data[adr : adr + nrow * ncol].reshape(nrow, ncol), hfield_id

    def hfield_id(self, physics: Physics) -> int:
        """The hfield's index in the compiled model (for `mjr_uploadHField`)."""
        return self._data(physics)[1]

    def write(self, physics: Physics, heights: ArrayLike) -> None:
        """Sets the surface: `heights` (nrow, ncol) in metres, world frame.

        Values are clipped to the grid's height range.
        """
        heights = np.asarray(heights, dtype=np.float64)
        if heights.shape != self.shape:
            raise ValueError(f"heights must have shape {self.shape}, got {heights.shape}")
        data, hfield_id = self._data(physics)
        elevation = self._max_height - self._min_height
        data[...] = (
            np.clip(heights, self._min_height, self._max_height) - self._min_height
        ) / elevation
        # Renderers hold their own copy of the surface.
        physics.upload_hfield(hfield_id)

    def heights(self, physics: Physics) -> np.ndarray:
        """The current samples (nrow, ncol) in metres, world frame (a new array)."""
        data, _ = self._data(physics)
        return self._min_height + data * (self._max_height - self._min_height)

    def height_at(self, physics: Physics, xy: ArrayLike) -> np.ndarray:
        """Surface height (n,) at world points `xy` (n, 2); nan outside the grid."""
        xy = np.asarray(xy, dtype=np.float64).reshape(-1, 2)
        data, _ = self._data(physics)
        nrow, ncol = self.shape
        dx, dy = self._spacing
        u = (xy[:, 0] - self._x_coords[0]) / dx
        v = (xy[:, 1] - self._y_coords[0]) / dy
        inside = (u >= 0) & (u <= ncol - 1) & (v >= 0) & (v <= nrow - 1)
        col = np.clip(np.floor(u), 0, ncol - 2).astype(np.intp)
        row = np.clip(np.floor(v), 0, nrow - 2).astype(np.intp)
        fu = np.clip(u - col, 0.0, 1.0)
        fv = np.clip(v - row, 0.0, 1.0)
        h00 = data[row, col]
        h10 = data[row, col + 1]
        h01 = data[row + 1, col]
        h11 = data[row + 1, col + 1]
        lower = fu >= fv
        normalized = np.where(
            lower,
            h00 + fu * (h10 - h00) + fv * (h11 - h10),
            h00 + fv * (h01 - h00) + fu * (h11 - h01),
        )
        heights = self._min_height + normalized * (self._max_height - self._min_height)
        return np.where(inside, heights, np.nan)


def box_tops_at(xy: ArrayLike, centers: np.ndarray, half_sizes: np.ndarray) -> np.ndarray:
    """Highest top face (n,) of the boxes above each point `xy` (n, 2); nan where none.

    Boxes are axis-aligned: `centers` and `half_sizes` (k, 3), metres, world frame.
    """
    xy = np.asarray(xy, dtype=np.float64).reshape(-1, 2)
    if len(centers) == 0:
        return np.full(len(xy), np.nan)
    inside = (np.abs(xy[:, None, 0] - centers[None, :, 0]) <= half_sizes[None, :, 0]) & (
        np.abs(xy[:, None, 1] - centers[None, :, 1]) <= half_sizes[None, :, 1]
    )
    tops = np.where(inside, (centers[:, 2] + half_sizes[:, 2])[None, :], -np.inf)
    best = tops.max(axis=1)
    return np.where(np.isfinite(best), best, np.nan)


def box_bottoms_at(xy: ArrayLike, centers: np.ndarray, half_sizes: np.ndarray) -> np.ndarray:
    """Lowest bottom face (n,) of the boxes above each point `xy` (n, 2); nan where none."""
    xy = np.asarray(xy, dtype=np.float64).reshape(-1, 2)
    if len(centers) == 0:
        return np.full(len(xy), np.nan)
    inside = (np.abs(xy[:, None, 0] - centers[None, :, 0]) <= half_sizes[None, :, 0]) & (
        np.abs(xy[:, None, 1] - centers[None, :, 1]) <= half_sizes[None, :, 1]
    )
    bottoms = np.where(inside, (centers[:, 2] - half_sizes[:, 2])[None, :], np.inf)
    best = bottoms.min(axis=1)
    return np.where(np.isfinite(best), best, np.nan)


class SeeSawPool:
    """A fixed number of see-saws: planks on a hinge across a pivot block.

    Each see-saw is a static base body (moved by writing `body_pos`, parked far
    below when unused) holding a pivot block `pivot_height` high and a plank
    body hinged at the pivot's top about the base's y axis. The pivot block is
    for the eye only (no collisions): it sits under the plank, and MuJoCo does
    not filter contacts between the plank and a base welded to the world.

    The ground does not hold a plank up: the hinge's limits do, at the tilts
    that put either end at ground level (z = 0, where see-saw segments are
    flat), and contacts between the planks and the world body's geoms (the
    heightfield, pit floor and side walls) are excluded. A box on a fine
    heightfield is among MuJoCo's costliest collisions (a 3 m x 8 m plank
    covers thousands of 0.1 m prisms), and it would slow every step several
    times over; walkers still collide with the planks. A plank in use
    starts tilted with its near end (-x) on the ground (`rest_angle`), at rest.

    Args:
      spec: the arena's `mujoco.MjSpec`; the bases hang from its world body.
      name: prefix of the bodies (`name_<i>`, `name_<i>_plank`), geoms and joints.
      capacity: how many see-saws the pool holds.
      plank_length, plank_width, plank_thickness: the plank's size, metres.
      pivot_height: height of the hinge above the ground, metres.
      plank_mass: kilograms.
      hinge_offset: how far the hinge lies beyond the plank's centre toward +x,
        metres; positive makes the near end the heavier, resting on the ground
        (a plank centred on its hinge would balance at any tilt).
      rgba: colour of planks and pivots.
      group: the geoms' visual group.
    """

    def __init__(
        self,
        spec: mujoco.MjSpec,
        name: str,
        capacity: int,
        plank_length: float,
        plank_width: float,
        plank_thickness: float,
        pivot_height: float,
        plank_mass: float,
        hinge_offset: float,
        rgba: Sequence[float] = (0.55, 0.4, 0.25, 1.0),
        group: int = 0,
    ):
        if not isinstance(capacity, (int, np.integer)) or capacity < 0:
            raise ValueError(f"capacity must be a non-negative int, got {capacity!r}")
        self._capacity = int(capacity)
        self._rgba = np.asarray(rgba, dtype=np.float64)
        self.plank_length = float(plank_length)
        self.plank_thickness = float(plank_thickness)
        self.pivot_height = float(pivot_height)
        self.hinge_offset = float(hinge_offset)
        # The tilt that puts the near end's lower edge on the ground: the hinge
        # sits `pivot_height` up, the plank's bottom face thickness/2 below it.
        drop = self.pivot_height - self.plank_thickness / 2
        reach = self.plank_length / 2 + self.hinge_offset
        self.rest_angle = float(np.arcsin(min(drop / reach, 1.0)))
        # The hinge stops at the resting tilt either way (in the spec's angle unit).
        limit = self.rest_angle
        if spec.compiler.degree:
            limit = float(np.degrees(limit))
        bases, pivots, planks, joints = [], [], [], []
        for index in range(self._capacity):
            base = spec.worldbody.add_body(name=f"{name}_{index}", pos=[0.0, 0.0, PARKING_Z_M])
            pivots.append(
                base.add_geom(
                    name=f"{name}_{index}_pivot",
                    type=mujoco.mjtGeom.mjGEOM_BOX,
                    size=[0.1, plank_width / 2, self.pivot_height / 2],
                    pos=[0.0, 0.0, self.pivot_height / 2],
                    rgba=list(rgba),
                    group=group,
                    contype=0,
                    conaffinity=0,
                )
            )
            plank = base.add_body(name=f"{name}_{index}_plank", pos=[0.0, 0.0, self.pivot_height])
            joints.append(
                plank.add_joint(
                    name=f"{name}_{index}_hinge",
                    type=mujoco.mjtJoint.mjJNT_HINGE,
                    axis=[0.0, 1.0, 0.0],
                    range=[-limit, limit],
                    limited=mujoco.mjtLimited.mjLIMITED_TRUE,
                    damping=1.0,
                )
            )
            spec.add_exclude(bodyname1="world", bodyname2=f"{name}_{index}_plank")
            planks.append(
                plank.add_geom(
                    name=f"{name}_{index}_plank",
                    type=mujoco.mjtGeom.mjGEOM_BOX,
                    size=[self.plank_length / 2, plank_width / 2, self.plank_thickness / 2],
                    pos=[-self.hinge_offset, 0.0, 0.0],
                    mass=float(plank_mass),
                    rgba=list(rgba),
                    group=group,
                )
            )
            bases.append(base)
        self._bases = tuple(bases)
        self._pivots = tuple(pivots)
        self._planks = tuple(planks)
        self._joints = tuple(joints)
        self._ids = None

    @property
    def capacity(self) -> int:
        return self._capacity

    @property
    def geoms(self) -> tuple[mujoco.MjsGeom, ...]:
        """Pivot and plank geoms of every see-saw."""
        return self._pivots + self._planks

    @property
    def planks(self) -> tuple[mujoco.MjsGeom, ...]:
        return self._planks

    def _model_ids(self, physics: Physics) -> tuple[np.ndarray, ...]:
        model = physics.model
        if self._ids is None or self._ids[0] is not model:
            if self._capacity:
                ids = tuple(
                    np.asarray(physics.bind(list(elements)).id, dtype=np.intp)
                    for elements in (self._bases, self._pivots, self._planks)
                )
                joint_ids = np.asarray(physics.bind(list(self._joints)).id, dtype=np.intp)
                ids += (model.jnt_qposadr[joint_ids].copy(), model.jnt_dofadr[joint_ids].copy())
            else:
                ids = tuple(np.zeros(0, dtype=np.intp) for _ in range(5))
            self._ids = (model,) + ids
        return self._ids[1:]

    def write(self, physics: Physics, centers_x: ArrayLike) -> None:
        """Places see-saws with their pivots at world x `centers_x` (k,) on the
        track's centre line (y = 0, on the ground), planks at their resting
        tilt and at rest; parks the others."""
        centers_x = np.asarray(centers_x, dtype=np.float64).reshape(-1)
        count = len(centers_x)
        if count > self._capacity:
            raise ValueError(
                f"the see-saw pool holds {self._capacity}, the layout asks for {count}"
            )
        model, data = physics.model, physics.data
        bases, pivots, planks, qpos, dofs = self._model_ids(physics)
        used, unused = slice(0, count), slice(count, self._capacity)
        model.body_pos[bases[used]] = np.column_stack([centers_x, np.zeros((count, 2))])
        model.body_pos[bases[unused]] = (0.0, 0.0, PARKING_Z_M)
        model.geom_contype[planks[used]] = 1
        model.geom_conaffinity[planks[used]] = 1
        model.geom_contype[planks[unused]] = 0
        model.geom_conaffinity[planks[unused]] = 0
        for geoms in (pivots, planks):
            model.geom_rgba[geoms[used]] = self._rgba
            model.geom_rgba[geoms[unused], 3] = 0.0
        # A negative angle about +y lowers the -x end: the near end rests on the ground.
        data.qpos[qpos[used]] = -self.rest_angle
        data.qpos[qpos[unused]] = 0.0
        data.qvel[dofs] = 0.0

    def plank_tops_at(self, physics: Physics, xy: ArrayLike) -> np.ndarray:
        """Height (n,) of the highest plank top face above each point `xy` (n, 2),
        from the planks' current poses (`data.geom_xpos`, `geom_xmat`); nan where
        no plank in use lies above the point."""
        xy = np.asarray(xy, dtype=np.float64).reshape(-1, 2)
        if not self._capacity:
            return np.full(len(xy), np.nan)
        model, data = physics.model, physics.data
        _, _, planks, _, _ = self._model_ids(physics)
        planks = planks[model.geom_contype[planks] > 0]
        if not planks.size:
            return np.full(len(xy), np.nan)
        # Per plank (k): rotation (k, 3, 3), top face centre (k, 3), half sizes (k, 3).
        rotations = data.geom_xmat[planks].reshape(-1, 3, 3)
        normals = rotations[:, :, 2]
        half = model.geom_size[planks]
        tops = data.geom_xpos[planks] + normals * half[:, 2:3]
        # Height (n, k) of each plank's top plane over each point.
        dx = xy[:, None, 0] - tops[None, :, 0]
        dy = xy[:, None, 1] - tops[None, :, 1]
        z = (
            tops[None, :, 2]
            - (normals[None, :, 0] * dx + normals[None, :, 1] * dy) / normals[None, :, 2]
        )
        offsets = np.stack([dx, dy, z - tops[None, :, 2]], axis=-1)
        # The point on the plane in each plank's frame: inside its face?
        local = np.einsum("nkj,kji->nki", offsets, rotations)
        inside = (np.abs(local[..., 0]) <= half[None, :, 0]) & (
            np.abs(local[..., 1]) <= half[None, :, 1]
        )
        best = np.where(inside, z, -np.inf).max(axis=1)
        return np.where(np.isfinite(best), best, np.nan)
