"""Terrain observations of Heess et al. (2017), "Emergence of Locomotion Behaviours
in Rich Environments" (arXiv:1707.02286), Appendix B.1.

Published layouts:
  * planar walker: 50 terrain heights at equally spaced points along x from 2 m
    behind to 8 m ahead of the walker; platform heights "with a separate set of
    sampling points"; the walker body's height above the ground at its
    location; and "the difference between the agent's position and the next
    sampling grid center" (to resolve the aliasing of piece-wise constant
    terrain sampled at finitely many points).
  * quadruped and humanoid: the same in two dimensions: a variable-resolution
    grid from 1.2 m behind to 5.6 m ahead along x and 4 m to the left and right,
    whose "sampling density decreases with increasing distance from the position
    of the body"; the body's height above the ground; and its x and y distances
    to the next sampling-grid centre.
The sampling points "translate along the x- and y-axis with the body" (§3.1):
the grid keeps the world's axes and does not turn with the walker.

What the paper leaves open, and this module's choice:
  * The grid's individual positions (`GRID_FORWARD_OFFSETS_M`,
    `GRID_LATERAL_OFFSETS_M`): 0.2 m apart within 2 m ahead and 1 m to the
    side, then spacings that grow with the distance (forward 0.4 m; lateral
    0.4, 0.6, 0.8, 1.2 m).
  * How the points translate: in whole steps of a world-fixed lattice (the
    planar samples' spacing, 10/49 m; 0.2 m for the grid). The samples are laid
    out around the lattice point nearest to the root body (the "next sampling
    grid centre"), so a sample reads the same patch of ground until the body
    has moved a whole lattice step, and `sample_grid_offset` (root minus that
    centre, world frame, metres, each component in [-step/2, step/2)) tells the
    agent where between lattice points it is.
  * Heights are relative to the root body: sample height (world z) minus the
    root's world z, metres, like a range measured from the body. The body's
    height above the ground is the root's z minus the terrain height under it.

`TerrainSampler(..., follow_heading=True)` turns the grid with the walker's
heading instead (the flagrun tasks of `tasks/flagrun.py` use it, where the
walker runs in every direction).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike

from composer_tasks.tasks import walker_state

if TYPE_CHECKING:
    from composer_tasks import composer
    from composer_tasks.physics import Physics
    from composer_tasks.walkers.base import Walker

# 50 equally spaced points from 2 m behind to 8 m ahead (Heess et al. 2017, B.1).
PLANAR_OFFSETS_M = np.linspace(-2.0, 8.0, 50)
PLANAR_LATTICE_STEP_M = 10.0 / 49.0

# Forward offsets: 1.2 m behind to 5.6 m ahead (Heess et al. 2017, B.1); 0.2 m
# apart up to 2 m ahead, then 0.4 m apart.
GRID_FORWARD_OFFSETS_M = np.round(
    np.concatenate([np.arange(-1.2, 2.0 + 1e-9, 0.2), np.arange(2.4, 5.6 + 1e-9, 0.4)]), 12
)
# Lateral offsets: 4 m to either side (Heess et al. 2017, B.1); 0.2 m apart
# within 1 m, then 1.4, 2.0, 2.8 and 4.0 m (spacings 0.4, 0.6, 0.8, 1.2 m).
_LATERAL_OUTER_M = np.array([1.4, 2.0, 2.8, 4.0])
GRID_LATERAL_OFFSETS_M = np.round(
    np.concatenate([-_LATERAL_OUTER_M[::-1], np.arange(-1.0, 1.0 + 1e-9, 0.2), _LATERAL_OUTER_M]),
    12,
)
GRID_LATERAL_STEP_M = 0.2

# Relative platform height reported where no platform hovers: higher than any
# walker stands, i.e. "nothing overhead within reach".
NO_PLATFORM_HEIGHT_M = 3.0


class TerrainSampler:
    """Heights of an arena's terrain (and platforms) at points around a walker.

    Args:
      arena: an arena with `terrain_height(physics, xy_points)` and, for platform
        observations, `platform_height(physics, xy_points, surface)` (surface
        "bottom" or "top"; NaN where no platform hovers), both taking (n, 2)
        world points and returning (n,) world heights.
      walker: the walker the points follow.
      forward_offsets_m: offsets along world x (or the walker's heading with
        `follow_heading`) from the grid centre, metres.
      lateral_offsets_m: None for a 1-D line of samples along x; else offsets
        along world y (to the walker's left with `follow_heading`), metres,
        making a (forward, lateral) grid.
      lattice_step_m: the world lattice the grid centre moves on, metres: a
        number (both axes) or an (x, y) pair; default the smallest spacing of
        the offsets. 0 makes the grid follow the root body continuously.
      follow_heading: turn the grid with the walker's heading (its root x-axis
        projected on the ground) instead of keeping the world's axes.
      anchor: where the grid is centred and heights are measured from: a
        function (physics, walker) -> world position (3,), metres; default the
        root body's origin.

    Raises:
      TypeError: for an arena without `terrain_height`.
      ValueError: for offsets that are not finite, strictly increasing 1-D
        arrays, or a negative or non-finite lattice step.
    """

    def __init__(
        self,
        arena: composer.Arena,
        walker: Walker,
        forward_offsets_m: ArrayLike,
        lateral_offsets_m: ArrayLike | None = None,
        lattice_step_m: ArrayLike | None = None,
        follow_heading: bool = False,
        anchor: Callable[[Physics, Walker], np.ndarray] | None = None,
    ) -> None:
        if not callable(getattr(arena, "terrain_height", None)):
            raise TypeError(
                f"arena {type(arena).__name__} has no terrain_height(physics, xy_points); "
                "terrain observations need it"
            )
        # Duck-typed: `terrain_height` is checked above, `platform_height` is
        # needed only for platform observations.
        self._arena: Any = arena
        self._walker = walker
        forward = _offsets(forward_offsets_m, "forward_offsets_m")
        if lateral_offsets_m is None:
            self._shape = forward.shape
            self._local_points = np.stack([forward, np.zeros_like(forward)], axis=-1)
            default_step = (_smallest_spacing(forward), 0.0)
        else:
            lateral = _offsets(lateral_offsets_m, "lateral_offsets_m")
            self._shape = (forward.size, lateral.size)
            grid_forward, grid_lateral = np.meshgrid(forward, lateral, indexing="ij")
            self._local_points = np.stack([grid_forward.ravel(), grid_lateral.ravel()], axis=-1)
            default_step = (_smallest_spacing(forward), _smallest_spacing(lateral))
        if lattice_step_m is None:
            step = np.array(default_step)
        else:
            step = np.broadcast_to(np.asarray(lattice_step_m, dtype=np.float64), (2,)).copy()
            if not np.all(np.isfinite(step)) or np.any(step < 0):
                raise ValueError(
                    f"lattice_step_m must be finite metres >= 0, got {lattice_step_m!r}"
                )
            if lateral_offsets_m is None:
                step[1] = 0.0
        self._lattice_step = step
        self._follow_heading = bool(follow_heading)
        if anchor is not None and not callable(anchor):
            raise TypeError(f"anchor must be callable(physics, walker) or None, got {anchor!r}")
        self._anchor = anchor or _root_position
        self._planar = lateral_offsets_m is None

    @property
    def shape(self) -> tuple[int, ...]:
        """Shape of `terrain_heights`: (n,) for a line, (n_forward, n_lateral) for a grid."""
        return self._shape

    @property
    def lattice_step_m(self) -> np.ndarray:
        """(x, y) step of the world lattice the grid centre moves on, metres."""
        return self._lattice_step.copy()

    def grid_center(self, physics: Physics) -> np.ndarray:
        """World xy (2,) of the lattice point nearest to the root body, metres
        (the root's own xy along an axis whose step is 0)."""
        root = self._anchor(physics, self._walker)[:2]
        step = self._lattice_step
        snapped = np.where(
            step > 0, np.floor(root / np.where(step > 0, step, 1.0) + 0.5) * step, root
        )
        return snapped

    def sample_grid_offset(self, physics: Physics) -> np.ndarray:
        """Root body minus the grid centre, world frame, metres: (1,) (x) for a
        line of samples, (2,) (x, y) for a grid."""
        root = self._anchor(physics, self._walker)[:2]
        offset = root - self.grid_center(physics)
        return offset[:1] if self._planar else offset

    def sample_points(self, physics: Physics) -> tuple[np.ndarray, float]:
        """(n, 2) world xy of the sample points, metres, and the root's world z."""
        center = self.grid_center(physics)
        if self._follow_heading:
            points = self._local_points @ walker_state.heading_rotation(physics, self._walker).T
        else:
            points = self._local_points
        return points + center, self._anchor(physics, self._walker)[2]

    def terrain_heights(self, physics: Physics) -> np.ndarray:
        """Terrain heights relative to the root body, metres, shaped `shape`."""
        points, root_height = self.sample_points(physics)
        heights = np.asarray(self._arena.terrain_height(physics, points), dtype=np.float64)
        return (heights - root_height).reshape(self._shape)

    def height_above_ground(self, physics: Physics) -> np.ndarray:
        """(1,): the anchor's (root body's) world z minus the terrain height
        under it, metres."""
        root = self._anchor(physics, self._walker)
        ground = np.asarray(
            self._arena.terrain_height(physics, root[np.newaxis, :2]), dtype=np.float64
        )
        return root[2:] - ground

    def platform_heights(self, physics: Physics) -> np.ndarray:
        """Heights of the bottom and top surfaces of hovering platforms relative to
        the root body, metres, shaped `shape + (2,)` (bottom, top);
        `NO_PLATFORM_HEIGHT_M` for both where no platform hovers."""
        points, root_height = self.sample_points(physics)
        surfaces = np.stack(
            [
                np.asarray(
                    self._arena.platform_height(physics, points, surface=surface), dtype=np.float64
                )
                for surface in ("bottom", "top")
            ],
            axis=-1,
        )
        relative = surfaces - root_height
        relative[np.isnan(relative)] = NO_PLATFORM_HEIGHT_M
        return relative.reshape(self._shape + (2,))


def _root_position(physics: Physics, walker: Walker) -> np.ndarray:
    return walker_state.root_position(physics, walker)


def _offsets(values: ArrayLike, name: str) -> np.ndarray:
    array = np.asarray(values, dtype=np.float64)
    if (
        array.ndim != 1
        or array.size == 0
        or not np.all(np.isfinite(array))
        or np.any(np.diff(array) <= 0)
    ):
        raise ValueError(
            f"{name} must be a non-empty, finite, strictly increasing 1-D array "
            f"of metres, got {values!r}"
        )
    return array


def _smallest_spacing(offsets: np.ndarray) -> float:
    return float(np.min(np.diff(offsets))) if offsets.size > 1 else 0.0
