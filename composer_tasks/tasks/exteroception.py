"""Terrain observations of Heess et al. (2017), "Emergence of Locomotion Behaviours
in Rich Environments" (arXiv:1707.02286), §3.1 and appendix.

Published layouts:
  * planar walker: 50 terrain heights at equally spaced points from 2 m behind to
    8 m ahead of the walker along the track, and the heights of hovering
    platforms at the same points as a separate vector;
  * quadruped and humanoid: a 2-D grid of terrain heights around the walker, from
    1.2 m behind to 5.6 m ahead and 4 m to either side, denser near the body.
The paper does not list the grid's individual sample positions; the offsets
below (`GRID_FORWARD_OFFSETS_M`, `GRID_LATERAL_OFFSETS_M`) are this project's:
0.2 m spacing within 2 m ahead and 1 m to the side, coarser beyond.

Every height is relative to the walker's root body: sample height (world z)
minus the root's world z, in metres, so that it reads like a range measured
from the body. The sample points follow the walker: for the planar walker along
world +x; for the grid in the walker's heading frame (its root x-axis projected
on the ground), so the grid turns with the walker.
"""

import numpy as np

from composer_tasks.tasks import walker_state

# 50 equally spaced points from 2 m behind to 8 m ahead (Heess et al. 2017).
PLANAR_OFFSETS_M = np.linspace(-2.0, 8.0, 50)

# Forward offsets: 1.2 m behind to 5.6 m ahead (Heess et al. 2017); 0.2 m apart
# up to 2 m ahead, then 0.4 m apart.
GRID_FORWARD_OFFSETS_M = np.concatenate([np.arange(-1.2, 2.0 + 1e-9, 0.2),
                                         np.arange(2.4, 5.6 + 1e-9, 0.4)])
# Lateral offsets: 4 m to either side (Heess et al. 2017); 0.2 m apart within
# 1 m, then 1.5, 2, 3 and 4 m.
_LATERAL_OUTER_M = np.array([1.5, 2.0, 3.0, 4.0])
GRID_LATERAL_OFFSETS_M = np.concatenate([-_LATERAL_OUTER_M[::-1],
                                         np.arange(-1.0, 1.0 + 1e-9, 0.2),
                                         _LATERAL_OUTER_M])

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
      forward_offsets_m: offsets along the walker's heading (or world +x when
        `lateral_offsets_m` is None), metres.
      lateral_offsets_m: None for a 1-D line of samples along world +x; else
        offsets to the walker's left, metres, making a (forward, lateral) grid.
    """

    def __init__(self, arena, walker, forward_offsets_m, lateral_offsets_m=None):
        if not callable(getattr(arena, "terrain_height", None)):
            raise TypeError(
                f"arena {type(arena).__name__} has no terrain_height(physics, xy_points); "
                "terrain observations need it")
        self._arena = arena
        self._walker = walker
        forward = np.asarray(forward_offsets_m, dtype=np.float64)
        if lateral_offsets_m is None:
            self._shape = forward.shape
            self._local_points = np.stack([forward, np.zeros_like(forward)], axis=-1)
            self._turns = False
        else:
            lateral = np.asarray(lateral_offsets_m, dtype=np.float64)
            self._shape = (forward.size, lateral.size)
            grid_forward, grid_lateral = np.meshgrid(forward, lateral, indexing="ij")
            self._local_points = np.stack([grid_forward.ravel(), grid_lateral.ravel()], axis=-1)
            self._turns = True

    @property
    def shape(self):
        return self._shape

    def sample_points(self, physics):
        """(n, 2) world xy of the sample points, metres, and the root's world z."""
        root = walker_state.root_position(physics, self._walker)
        if self._turns:
            points = self._local_points @ walker_state.heading_rotation(physics, self._walker).T
        else:
            points = self._local_points
        return points + root[:2], root[2]

    def terrain_heights(self, physics):
        """Terrain heights relative to the root body, metres, shaped `shape`."""
        points, root_height = self.sample_points(physics)
        heights = np.asarray(self._arena.terrain_height(physics, points), dtype=np.float64)
        return (heights - root_height).reshape(self._shape)

    def platform_heights(self, physics):
        """Heights of the bottom and top surfaces of hovering platforms relative to
        the root body, metres, shaped `shape + (2,)` (bottom, top);
        `NO_PLATFORM_HEIGHT_M` for both where no platform hovers."""
        points, root_height = self.sample_points(physics)
        surfaces = np.stack([
            np.asarray(self._arena.platform_height(physics, points, surface=surface),
                       dtype=np.float64)
            for surface in ("bottom", "top")], axis=-1)
        relative = surfaces - root_height
        relative[np.isnan(relative)] = NO_PLATFORM_HEIGHT_M
        return relative.reshape(self._shape + (2,))
