"""Floor: a flat chequered ground with a skybox and a light, sized in metres."""

from collections.abc import Sequence

import mujoco
import numpy as np
from numpy.typing import ArrayLike

from composer_tasks import composer, mjcf
from composer_tasks.arenas import assets
from composer_tasks.physics import Physics

# Size of the plane's rendering grid quads, metres (dm_control floors.py).
_GROUND_QUAD_SIZE_M = 0.25


class Floor(composer.Arena):
    """A flat chequered floor centred at the origin, seen by a top-down camera.

    dm_control's `locomotion.arenas.floors.Floor` (dm-control 1.0.50): a plane
    "groundplane" of half-lengths `size` (grid quads of 0.25 m), a checker
    material repeating twice per metre (white squares 1 m across), the base
    arena's settings with a brighter headlight, and a camera "top_camera"
    `top_camera_distance` metres above the origin looking down, whose vertical
    field of view fits `size[1]` times `top_camera_y_padding_factor`.

    Args:
      size: (half-length x, half-length y) in metres.
      reflectance: reflectance of the floor material.
      aesthetic: "default" (the chequered floor) or a style of `arenas.assets`
        ("outdoor_natural": a grass ground and a sky box, from this project's own
        images; the floor's `reflectance` is then unused, as in dm_control).
      name: the arena's name.
      top_camera_y_padding_factor: margin of the top camera's view around the
        floor's y extent (1 fits it exactly).
      top_camera_distance: height of the top camera, metres.
    """

    def _build(
        self,
        size: Sequence[float] = (8.0, 8.0),
        reflectance: float = 0.2,
        aesthetic: str = "default",
        name: str = "floor",
        top_camera_y_padding_factor: float = 1.1,
        top_camera_distance: float = 100.0,
    ) -> None:
        size = tuple(float(s) for s in size)
        if len(size) != 2 or min(size) <= 0:
            raise ValueError(f"size must be two positive half-lengths in metres, got {size!r}")
        assets.check_aesthetic(aesthetic)
        if not top_camera_distance > 0:
            raise ValueError(
                f"top_camera_distance must be positive metres, got {top_camera_distance!r}"
            )
        super()._build(name=name)
        spec = self._spec
        spec.visual.headlight.ambient = [0.4, 0.4, 0.4]
        spec.visual.headlight.diffuse = [0.8, 0.8, 0.8]
        spec.visual.headlight.specular = [0.1, 0.1, 0.1]
        if aesthetic != "default":
            # dm_control floors.py: the style's grass material and sky box.
            self._ground_material = assets.add_style(spec, aesthetic)
        else:
            self._ground_texture = spec.add_texture(
                name="groundplane",
                type=mujoco.mjtTexture.mjTEXTURE_2D,
                builtin=mujoco.mjtBuiltin.mjBUILTIN_CHECKER,
                rgb1=[0.2, 0.3, 0.4],
                rgb2=[0.1, 0.2, 0.3],
                mark=mujoco.mjtMark.mjMARK_EDGE,
                markrgb=[0.8, 0.8, 0.8],
                width=200,
                height=200,
            )
            self._ground_material = spec.add_material(
                name="groundplane", texrepeat=[2.0, 2.0], texuniform=True, reflectance=reflectance
            )
            self._ground_material.textures[mujoco.mjtTextureRole.mjTEXROLE_RGB] = "groundplane"
        self._ground = spec.worldbody.add_geom(
            name="groundplane",
            type=mujoco.mjtGeom.mjGEOM_PLANE,
            size=[size[0], size[1], _GROUND_QUAD_SIZE_M],
            material=self._ground_material.name,
        )
        fovy_rad = 2 * np.arctan2(top_camera_y_padding_factor * size[1], top_camera_distance)
        self._top_camera = spec.worldbody.add_camera(
            name="top_camera",
            pos=[0.0, 0.0, top_camera_distance],
            quat=[1.0, 0.0, 0.0, 0.0],
            fovy=float(np.rad2deg(fovy_rad)),
        )
        self._size = size
        self._top_camera_y_padding_factor = float(top_camera_y_padding_factor)
        self._top_camera_distance = float(top_camera_distance)

    def regenerate(self, random_state: np.random.RandomState) -> None:
        """dm_control's `regenerate`: a floor has no layout to draw, so nothing
        changes (as dm_control's `Floor.regenerate`)."""
        del random_state

    @property
    def ground_geom(self) -> mjcf.Element:
        return self._handle(self._ground)

    @property
    def top_camera(self) -> mjcf.Element:
        """The camera looking straight down at the floor."""
        return self._handle(self._top_camera)

    @property
    def ground_geoms(self) -> tuple[mjcf.Element, ...]:
        return self._handles((self._ground,))

    @property
    def size(self) -> tuple[float, ...]:
        """(half-length x, half-length y) in metres."""
        return self._size

    def spawn_position(self, random_state: np.random.RandomState | None = None) -> np.ndarray:
        """Where walkers start: the origin, (3,) world frame, metres."""
        del random_state
        return np.zeros(3)

    def terrain_height(self, physics: Physics, xy_points: ArrayLike) -> np.ndarray:
        """Height (n,) of the floor at world points `xy_points` (n, 2): 0 metres."""
        del physics
        return np.zeros(len(np.asarray(xy_points).reshape(-1, 2)))
