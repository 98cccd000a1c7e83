"""Mazes from `labmaze` (the DeepMind Lab maze generator) with spawn cells and targets
(dm_control's `locomotion.arenas.mazes`).

`MazeWithTargets(maze)` lays out any labmaze maze (a `labmaze.BaseMaze`: a
`labmaze.RandomMaze`, a `padded_room.PaddedRoom`, ...) and draws a new layout
every episode with `maze.regenerate()`.

By default a maze is dm_control's: `regenerate()` (which the maze tasks call in
`initialize_episode_mjcf`) runs the labmaze maze's own generator, then rebuilds
the walls in the model as dm_control does (boxes `wall<char>_<i>` in `maze_body`,
five texturing planes and three materials per wall, floor tiles `floor_<i>` per
variation), the wall and floor textures drawn from numpy's global generator
(`np.random.choice`, as there); the reset compiles the new model. A
`RandomMazeWithTargets` seeds its labmaze maze once, at construction, from
numpy's global generator (as dm_control: seed numpy, `np.random.seed`, for the same
mazes as there); the Environment's random state draws nothing for the maze. As in
dm_control, a maze nobody regenerates has no walls.

`pooled=True` (this project's) lays each episode out without recompiling: the
walls are a fixed pool of boxes (`pools.BoxPool`, one box per horizontal run of
wall cells, enough for the densest maze of the grid's size), and optional reward
spheres of the arena (`target_spheres`; `RandomMazeWithTargets` holds
`max_rooms * targets_per_room`) a fixed pool of non-colliding spheres;
`initialize_episode` draws a layout (unless a task called `regenerate` first) and
writes it into the model, every episode in one model structure (what
`load_batch` and observing a fixed number of targets need). A pooled
`RandomMazeWithTargets` seeds each episode's maze from the episode's
`random_state`, so the Environment's seed alone fixes the mazes. The walls'
cells, the spawn and target cells and the collisions are those of the default
for the same maze; the model's structure and looks differ (procedural textures
without texture entities, the floor one plane with one texture).

Looks: DeepMind Lab's textures come as entities (`labmaze_textures.SkyBox`,
`WallTextures`, `FloorTextures`) given as `skybox_texture`, `wall_textures`
and `floor_textures`, attached to the arena as in dm_control.

Frames and units: the maze is centred at the world origin, the floor at z = 0;
grid row 0 is the +y edge and column 0 the -x edge; a cell is `xy_scale`
metres square; all positions are world-frame metres.
"""

import string
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import labmaze
import mujoco
import numpy as np
from numpy.typing import ArrayLike

from composer_tasks import composer, mjcf
from composer_tasks.arenas import assets
from composer_tasks.arenas import covering
from composer_tasks.arenas import pools
from composer_tasks.arenas import style
from composer_tasks.composer.observation import observable
from composer_tasks.mjcf import namescope
from composer_tasks.physics import Physics

_WALL_TOKEN = "*"
_FLOOR_TOKEN = "."
# dm_control mazes.py: the walls' geom group, and the orientation (xyaxes) of the
# planes that texture each face of a wall, by axis and side.
_WALL_GEOM_GROUP = 3
_TEXTURING_XYAXES = {
    "x": {-1: [0, -1, 0, 0, 0, 1], 1: [0, 1, 0, 0, 0, 1]},
    "y": {-1: [1, 0, 0, 0, 0, 1], 1: [-1, 0, 0, 0, 0, 1]},
    "z": {-1: [-1, 0, 0, 0, 1, 0], 1: [1, 0, 0, 0, 1, 0]},
}
# MuJoCo's texture types by the names `assets.GroundTexture.type` uses.
_TEXTURE_TYPES = {"2d": mujoco.mjtTexture.mjTEXTURE_2D, "cube": mujoco.mjtTexture.mjTEXTURE_CUBE}
# labmaze's defaults (`labmaze.defaults`, a compiled module that type checkers
# cannot read): the tokens of spawn and object cells and RandomMaze's parameters.
SPAWN_TOKEN = "P"
OBJECT_TOKEN = "G"
_MAX_ROOMS = 4
_ROOM_MIN_SIZE = 3
_ROOM_MAX_SIZE = 5
_MAX_VARIATIONS = 26
_SIMPLIFY = True
_EXTRA_CONNECTION_PROBABILITY = 0.0
# Wall looks without wall textures: (rgb1, rgb2) of a chequered builtin texture;
# one is picked per episode.
_WALL_STYLES = (
    ((0.55, 0.35, 0.25), (0.45, 0.28, 0.2)),
    ((0.6, 0.6, 0.62), (0.5, 0.5, 0.52)),
    ((0.3, 0.45, 0.3), (0.25, 0.38, 0.25)),
    ((0.7, 0.62, 0.45), (0.6, 0.52, 0.38)),
)
_TARGET_RGBA = (0.9, 0.2, 0.2, 1.0)
# Targets are visual only; their own geom group keeps them out of terrain raycasts.
TARGET_GEOM_GROUP = 2
# dm_control mazes.py: the top camera's height (metres) and the margin of its view.
_TOP_CAMERA_DISTANCE_M = 100.0
_TOP_CAMERA_Y_PADDING_FACTOR = 1.1
# dm_control's `regenerate(random_state=np.random.RandomState())`: one generator,
# made once, for calls without a random state.
_DEFAULT_RANDOM_STATE = np.random.RandomState()


class MazeObservables(composer.Observables):
    """The maze's observable: `top_camera`, the view of the top-down camera."""

    _entity: "MazeWithTargets"

    @composer.observable
    def top_camera(self) -> observable.MJCFCamera:
        return observable.MJCFCamera(self._entity.top_camera)


def _texture_providers(wall_textures: Any) -> dict[str, Any]:
    """{wall character: texture provider} from dm_control's `wall_textures` forms."""
    if wall_textures is None:
        return {}
    if isinstance(wall_textures, Mapping):
        providers = dict(wall_textures)
        for char in providers:
            if not isinstance(char, str) or len(char) != 1:
                raise ValueError(f"wall_textures keys must be single wall characters, got {char!r}")
        return providers
    return {_WALL_TOKEN: wall_textures}


def _provider_textures(provider: Any, label: str) -> list[mujoco.MjsTexture]:
    textures = getattr(provider, "textures", None)
    if not textures:
        raise ValueError(
            f"{label} must be an entity with a non-empty `textures` list "
            f"(labmaze_textures.WallTextures or FloorTextures), got {provider!r}"
        )
    return list(textures)


class MazeWithTargets(composer.Arena):
    """A labmaze maze with textured walls, spawn cells and optional reward spheres.

    Args:
      maze: a labmaze maze (`entity_layer`, `variations_layer`, `width`, `height`,
        `regenerate()`).
      xy_scale: side of a cell, metres.
      z_height: wall height, metres.
      skybox_texture: None or an entity with a skybox `texture`
        (`labmaze_textures.SkyBox`).
      wall_textures: None, an entity with `textures`
        (`labmaze_textures.WallTextures`) for the "*" walls, or a dict
        {wall character: such an entity}.
      floor_textures: None or an entity with `textures`
        (`labmaze_textures.FloorTextures`).
      aesthetic: "default" or a style of `arenas.assets` ("outdoor_natural"): as
        dm_control's, the style's sky box (`skybox_texture` unused) and its ground
        image as the floor's textures (two copies, `floor_textures` unused).
      name: the arena's name.
      target_spheres: how many reward spheres the arena itself holds (0: none;
        tasks such as `ManyGoalsMaze` with a `target_builder` bring their own).
      target_radius: sphere radius, metres.
      target_height: height of the sphere centres above the floor, metres.
    """

    def _build(
        self,
        maze: Any,
        xy_scale: float = 2.0,
        z_height: float = 2.0,
        skybox_texture: composer.Entity | None = None,
        wall_textures: Any = None,
        floor_textures: composer.Entity | None = None,
        aesthetic: str = "default",
        name: str = "maze",
        target_spheres: int = 0,
        target_radius: float = 0.3,
        target_height: float = 0.5,
        *,
        pooled: bool = False,
    ) -> None:
        if not isinstance(pooled, (bool, np.bool_)):
            raise ValueError(f"pooled must be a bool, got {pooled!r}")
        # Whether episodes are laid out in one compiled model (this project's) rather
        # than rebuilt in the model and recompiled (dm_control's); tasks read it.
        self.pooled = bool(pooled)
        for label, value in (
            ("xy_scale", xy_scale),
            ("z_height", z_height),
            ("target_radius", target_radius),
        ):
            if not value > 0:
                raise ValueError(f"{label} must be positive metres, got {value!r}")
        assets.check_aesthetic(aesthetic)
        style_images = None if aesthetic == "default" else assets.check_style(aesthetic)
        if not isinstance(target_spheres, (int, np.integer)) or target_spheres < 0:
            raise ValueError(f"target_spheres must be an int >= 0, got {target_spheres!r}")
        for attribute in ("entity_layer", "variations_layer", "width", "height", "regenerate"):
            if not hasattr(maze, attribute):
                raise TypeError(
                    f"maze must be a labmaze maze (labmaze.BaseMaze); {type(maze).__name__} "
                    f"has no {attribute!r}"
                )
        self._maze = maze
        self._x_cells, self._y_cells = int(maze.width), int(maze.height)
        self._xy_scale = float(xy_scale)
        self._z_height = float(z_height)
        self._target_radius = float(target_radius)
        self._target_height = float(target_height)
        self._text_maze_regenerated_hook: Callable[[], Any] | None = None
        self._layers: tuple[np.ndarray, np.ndarray] | None = None
        self._maze_seed: int | None = None
        self._collected = np.zeros(0, dtype=bool)
        self._target_bodies, self._target_geoms = [], []
        if not self.pooled:
            if target_spheres:
                raise ValueError(
                    "target_spheres are a pooled maze's own reward spheres; give "
                    "pooled=True with them (dm_control's maze has none: its tasks bring "
                    "their targets)"
                )
            self._build_as_dm_control(
                skybox_texture, wall_textures, floor_textures, aesthetic, style_images, name
            )
            return

        spec = mujoco.MjSpec()
        spec.modelname = name
        half_x = self._x_cells * self._xy_scale / 2
        half_y = self._y_cells * self._xy_scale / 2
        spec.visual.map.znear = 0.0005
        self._attached_providers: list[composer.Entity] = []
        if style_images is not None:
            # dm_control mazes.py: an aesthetic's sky box replaces any skybox_texture.
            _, sky_image = style_images
            spec.texturedir = assets.get_texturedir(aesthetic)
            spec.add_texture(
                name="aesthetic_skybox",
                file=sky_image.file,
                type=mujoco.mjtTexture.mjTEXTURE_SKYBOX,
                gridsize=[int(n) for n in sky_image.gridsize.split()],
                gridlayout=sky_image.gridlayout,
            )
            spec.worldbody.add_light(
                name="top_light",
                pos=[0.0, 0.0, max(half_x, half_y)],
                dir=[0.0, 0.0, -1.0],
                diffuse=[0.6, 0.6, 0.6],
                castshadow=False,
            )
        elif skybox_texture is None:
            style.add_sky_and_light(spec, light_height_m=max(half_x, half_y))
        else:
            if getattr(skybox_texture, "texture", None) is None:
                raise ValueError(
                    "skybox_texture must be an entity with a skybox `texture` "
                    f"(labmaze_textures.SkyBox), got {skybox_texture!r}"
                )
            spec.worldbody.add_light(
                name="top_light",
                pos=[0.0, 0.0, max(half_x, half_y)],
                dir=[0.0, 0.0, -1.0],
                diffuse=[0.6, 0.6, 0.6],
                castshadow=False,
            )
            self._attached_providers.append(skybox_texture)

        self._wall_chars: list[str] = []
        # {wall character: [(material or None, provider texture or None, material name)]}
        self._wall_material_names: dict[str, list[tuple[Any, Any, str]]] = {}
        providers = _texture_providers(wall_textures)
        if providers:
            for char, provider in providers.items():
                textures = _provider_textures(provider, f"wall_textures[{char!r}]")
                if provider not in self._attached_providers:
                    self._attached_providers.append(provider)
                names = []
                for texture in textures:
                    material_name = f"wall{char}_{texture.name}"
                    material = spec.add_material(
                        name=material_name, texrepeat=[1.0 / self._xy_scale] * 2, texuniform=True
                    )
                    names.append((material, texture, material_name))
                self._wall_chars.append(char)
                self._wall_material_names[char] = names
        else:
            names = []
            for index, (rgb1, rgb2) in enumerate(_WALL_STYLES):
                material_name = f"maze_wall_{index}"
                style.add_checker_material(
                    spec,
                    material_name,
                    rgb1=rgb1,
                    rgb2=rgb2,
                    texrepeat=[2.0, 2.0],
                    mark_rgb=[0.15, 0.15, 0.15],
                )
                names.append((None, None, material_name))
            self._wall_chars.append(_WALL_TOKEN)
            self._wall_material_names[_WALL_TOKEN] = names

        self._floor_material_entries: list[tuple[Any, Any, str]] = []
        if style_images is not None:
            # dm_control mazes.py: two textures of the style's ground image, which the
            # floor's random choice of texture picks between.
            for texture_name in ("aesthetic_texture_main", "aesthetic_texture"):
                texture = spec.add_texture(
                    name=texture_name,
                    file=style_images[0].file,
                    type=_TEXTURE_TYPES[style_images[0].type],
                )
                material_name = f"floor_{texture_name}"
                material = spec.add_material(
                    name=material_name, texrepeat=[1.0 / self._xy_scale] * 2, texuniform=True
                )
                self._floor_material_entries.append((material, texture, material_name))
        elif floor_textures is None:
            style.add_checker_material(
                spec,
                "maze_floor",
                rgb1=[0.2, 0.3, 0.4],
                rgb2=[0.1, 0.2, 0.3],
                texrepeat=[1.0 / self._xy_scale] * 2,
                mark_rgb=[0.8, 0.8, 0.8],
                reflectance=0.1,
            )
            self._floor_material_entries.append((None, None, "maze_floor"))
        else:
            textures = _provider_textures(floor_textures, "floor_textures")
            self._attached_providers.append(floor_textures)
            for texture in textures:
                material_name = f"floor_{texture.name}"
                material = spec.add_material(
                    name=material_name, texrepeat=[1.0 / self._xy_scale] * 2, texuniform=True
                )
                self._floor_material_entries.append((material, texture, material_name))
        self._floor = spec.worldbody.add_geom(
            name="ground",
            type=mujoco.mjtGeom.mjGEOM_PLANE,
            size=[half_x, half_y, 0.25],
            material=self._floor_material_entries[0][2],
        )
        maze_cells = max(self._x_cells, self._y_cells)
        top_camera_fovy_deg = (360 / np.pi) * np.arctan2(
            _TOP_CAMERA_Y_PADDING_FACTOR * maze_cells * self._xy_scale / 2,
            _TOP_CAMERA_DISTANCE_M,
        )
        self._top_camera = spec.worldbody.add_camera(
            name="top_camera",
            pos=[0.0, 0.0, _TOP_CAMERA_DISTANCE_M],
            fovy=float(top_camera_fovy_deg),
        )
        # One box per horizontal run of cells of one wall character: a row of n
        # cells has at most ceil(n / 2) runs of one character (n with several).
        runs_per_row = (self._x_cells + 1) // 2 if len(self._wall_chars) == 1 else self._x_cells
        self._walls = pools.BoxPool(
            spec.worldbody,
            "wall",
            self._y_cells * runs_per_row,
            rgba=(1, 1, 1, 1),
            material=self._wall_material_names[self._wall_chars[0]][0][2],
        )
        self._target_bodies, self._target_geoms = [], []
        for index in range(int(target_spheres)):
            body = spec.worldbody.add_body(
                name=f"target_{index}", pos=[0.0, 0.0, pools.PARKING_Z_M]
            )
            self._target_geoms.append(
                body.add_geom(
                    name=f"target_{index}_geom",
                    type=mujoco.mjtGeom.mjGEOM_SPHERE,
                    size=[self._target_radius, 0, 0],
                    rgba=list(_TARGET_RGBA),
                    group=TARGET_GEOM_GROUP,
                    contype=0,
                    conaffinity=0,
                )
            )
            self._target_bodies.append(body)
        self._spec = spec
        # Attaching prefixes the providers' texture names with their entity's, so
        # the materials name them afterwards.
        for provider in self._attached_providers:
            self.attach(provider)
        for entries in [*self._wall_material_names.values(), self._floor_material_entries]:
            for material, texture, _ in entries:
                if material is not None:
                    material.textures[mujoco.mjtTextureRole.mjTEXROLE_RGB] = texture.name
        self._show_target_spheres = True
        self._layers: tuple[np.ndarray, np.ndarray] | None = None
        self._maze_seed: int | None = None
        self._wall_style: dict[str, int] = {}
        self._floor_style = 0
        self._pending = False
        # Whether `write_layout` wrote this episode's maze before `initialize_episode`.
        self._written = False
        self._collected = np.zeros(0, dtype=bool)
        self._ids = None

    def _build_as_dm_control(
        self,
        skybox_texture: composer.Entity | None,
        wall_textures: Any,
        floor_textures: composer.Entity | None,
        aesthetic: str,
        style_images: Any,
        name: str,
    ) -> None:
        """dm_control's maze arena, written as dm_control writes it (PyMJCF handles, in
        its order): default geoms white, the sky box, wall and floor textures (the
        providers attached), an invisible `ground` plane, the `maze_body` that
        `regenerate` fills with walls, and the top camera."""
        super()._build(name=name)
        root = self.mjcf_model
        default_geom: Any = root.default.geom
        default_geom.rgba = [1, 1, 1, 1]
        if skybox_texture is not None and style_images is None:
            if getattr(skybox_texture, "texture", None) is None:
                raise ValueError(
                    "skybox_texture must be an entity with a skybox `texture` "
                    f"(labmaze_textures.SkyBox), got {skybox_texture!r}"
                )
        providers = _texture_providers(wall_textures)
        self._wall_textures: dict[str, list[Any]] = {}
        for char, provider in providers.items():
            self._wall_textures[char] = _provider_textures(provider, f"wall_textures[{char!r}]")
        if floor_textures is not None and style_images is None:
            self._floor_textures: list[Any] = _provider_textures(floor_textures, "floor_textures")
        # The arena's own textures first, in dm_control's order: PyMJCF lists a model's
        # own assets before those of the models attached to it, whenever they were
        # added, and MuJoCo's spec lists them in the order they joined it.
        if style_images is not None:
            ground_image, sky_image = style_images
            root.compiler.texturedir = assets.get_texturedir(aesthetic)
            root.asset.add(
                "texture",
                name="aesthetic_skybox",
                file=sky_image.file,
                type="skybox",
                gridsize=sky_image.gridsize,
                gridlayout=sky_image.gridlayout,
            )
        elif skybox_texture is None:
            root.asset.add(
                "texture",
                type="skybox",
                name="skybox",
                builtin="gradient",
                rgb1=[0.4, 0.6, 0.8],
                rgb2=[0, 0, 0],
                width=100,
                height=100,
            )
        if not providers:
            self._wall_textures[_WALL_TOKEN] = [
                root.asset.add(
                    "texture",
                    type="2d",
                    name="wall",
                    builtin="flat",
                    rgb1=[0.8, 0.8, 0.8],
                    width=100,
                    height=100,
                )
            ]
        self._wall_chars = list(self._wall_textures)
        if style_images is not None:
            ground_image = style_images[0]
            self._floor_textures = [
                root.asset.add(
                    "texture", name=texture_name, file=ground_image.file, type=ground_image.type
                )
                for texture_name in ("aesthetic_texture_main", "aesthetic_texture")
            ]
        elif floor_textures is None:
            self._floor_textures = [
                root.asset.add(
                    "texture",
                    type="2d",
                    name="floor",
                    builtin="flat",
                    rgb1=[0.2, 0.2, 0.2],
                    width=100,
                    height=100,
                )
            ]
        # Then the texture entities, attached in dm_control's order (their frames come
        # before the maze body, as there).
        if style_images is None and skybox_texture is not None:
            self.attach(skybox_texture)
        for provider in dict.fromkeys(providers.values()):
            self.attach(provider)
        if style_images is None and floor_textures is not None:
            self.attach(floor_textures)
        ground_x = self._x_cells * (self._xy_scale / 2)
        ground_y = self._y_cells * (self._xy_scale / 2)
        self._floor = root.worldbody.add(
            "geom",
            name="ground",
            type="plane",
            pos=[0, 0, 0],
            size=[ground_x, ground_y, 1],
            rgba=[0, 0, 0, 0],
        )
        self._maze_body = root.worldbody.add("body", name="maze_body")
        root.visual.map.znear = 0.0005
        maze_cells = max(self._x_cells, self._y_cells)
        top_camera_fovy_deg = (360 / np.pi) * np.arctan2(
            _TOP_CAMERA_Y_PADDING_FACTOR * maze_cells * self._xy_scale / 2,
            _TOP_CAMERA_DISTANCE_M,
        )
        self._top_camera = root.worldbody.add(
            "camera",
            name="top_camera",
            pos=[0, 0, _TOP_CAMERA_DISTANCE_M],
            zaxis=[0, 0, 1],
            fovy=top_camera_fovy_deg,
        )
        self._texturing_geoms: list[Any] = []
        self._texturing_materials: list[Any] = []
        self._tile_geom_names: dict[Any, str] = {}
        self._show_target_spheres = False
        self._pending = False
        self._written = False
        self._ids = None

    def _texture_reference(self, texture: Any) -> Any:
        """A texture for a material's `texture` attribute: a handle of this model as
        it is, a provider's spec texture by its name in this model (attached)."""
        return texture if hasattr(texture, "spec_element") else texture.name

    def _rebuild(self) -> None:
        """dm_control's `regenerate` after the maze's own: the spawn and target cells,
        the hook, then the walls and floor rebuilt in the model, the wall and floor
        textures drawn from numpy's global generator (`np.random.choice`), as there."""
        from composer_tasks.mjcf import element as element_module

        self._find_cells()
        if self._text_maze_regenerated_hook is not None:
            self._text_maze_regenerated_hook()
        layer = np.array(self._maze.entity_layer)
        self._layers = (layer, np.array(self._maze.variations_layer))
        element_module.remove_together(self._texturing_geoms + self._texturing_materials)
        self._texturing_geoms, self._texturing_materials = [], []
        self._maze_body.geom.clear()
        self._current_wall_texture = {
            char: textures[np.random.choice(len(textures))]
            for char, textures in self._wall_textures.items()
        }
        for char in self._wall_textures:
            self._make_wall_geoms(char)
        self._make_floor_variations()

    def _cell_centre(self, tile: Any) -> np.ndarray:
        """(row, column) of the centre of a covering rectangle's cells (fractional)."""
        return np.array([(tile.start.y + tile.end.y - 1) / 2, (tile.start.x + tile.end.x - 1) / 2])

    def _make_wall_geoms(self, char: str) -> None:
        x_offset, y_offset = (self._x_cells - 1) / 2, (self._y_cells - 1) / 2
        walls = covering.make_walls(
            self._maze.entity_layer, wall_char=char, make_odd_sized_walls=True
        )
        for index, wall in enumerate(walls):
            mid_y, mid_x = self._cell_centre(wall)
            position = np.array(
                [
                    (mid_x - x_offset) * self._xy_scale,
                    -(mid_y - y_offset) * self._xy_scale,
                    self._z_height / 2,
                ]
            )
            size = np.array(
                [
                    (wall.end.x - mid_x - 0.5) * self._xy_scale,
                    (wall.end.y - mid_y - 0.5) * self._xy_scale,
                    self._z_height / 2,
                ]
            )
            self._maze_body.add(
                "geom",
                name=f"wall{char}_{index}",
                type="box",
                pos=position,
                size=size,
                group=_WALL_GEOM_GROUP,
            )
            self._make_wall_texturing_planes(char, index, position, size)

    def _make_wall_texturing_planes(
        self, char: str, wall_id: int, position: np.ndarray, size: np.ndarray
    ) -> None:
        root = self.mjcf_model
        texture = self._texture_reference(self._current_wall_texture[char])
        for direction_index, direction in enumerate(("x", "y", "z")):
            others = [i for i in range(3) if i != direction_index]
            delta = np.array([int(i == direction_index) for i in range(3)])
            material = root.asset.add(
                "material",
                name=f"wall{char}_{wall_id}_{direction}",
                texture=texture,
                texrepeat=2 * size[others] / self._xy_scale,
            )
            self._texturing_materials.append(material)
            for sign, sign_name in ((-1, "neg"), (1, "pos")):
                if direction == "z" and sign == -1:
                    continue
                self._texturing_geoms.append(
                    root.worldbody.add(
                        "geom",
                        type="plane",
                        name=f"wall{char}_{wall_id}_texturing_{sign_name}_{direction}",
                        pos=position + sign * delta * size,
                        size=np.concatenate([size[others], [self._xy_scale]]),
                        xyaxes=_TEXTURING_XYAXES[direction][sign],
                        material=material,
                        contype=0,
                        conaffinity=0,
                    )
                )

    def _make_floor_variations(self) -> None:
        root = self.mjcf_model
        x_offset, y_offset = (self._x_cells - 1) / 2, (self._y_cells - 1) / 2
        textures = self._floor_textures
        main = np.random.choice(len(textures))
        for variation in _FLOOR_TOKEN + string.ascii_uppercase:
            if variation not in self._maze.variations_layer:
                break
            tiles = covering.make_walls(
                self._maze.variations_layer, wall_char=variation, make_odd_sized_walls=True
            )
            chosen = main
            if variation != _FLOOR_TOKEN:
                if len(textures) == 1:
                    return
                while chosen == main:
                    chosen = np.random.choice(len(textures))
            texture = self._texture_reference(textures[chosen])
            for index, tile in enumerate(tiles):
                mid_y, mid_x = self._cell_centre(tile)
                position = np.array(
                    [(mid_x - x_offset) * self._xy_scale, -(mid_y - y_offset) * self._xy_scale, 0.0]
                )
                size = np.array(
                    [
                        (tile.end.x - mid_x - 0.5) * self._xy_scale,
                        (tile.end.y - mid_y - 0.5) * self._xy_scale,
                        self._xy_scale,
                    ]
                )
                name = (
                    f"floor_{index}" if variation == _FLOOR_TOKEN else f"floor_{variation}_{index}"
                )
                self._tile_geom_names[tile.start] = name
                material = root.asset.add(
                    "material",
                    name=name,
                    texture=texture,
                    texrepeat=2 * size[[0, 1]] / self._xy_scale,
                )
                self._texturing_materials.append(material)
                self._texturing_geoms.append(
                    root.worldbody.add(
                        "geom",
                        name=name,
                        type="plane",
                        material=material,
                        pos=position,
                        size=size,
                        contype=0,
                        conaffinity=0,
                    )
                )

    def _find_cells(self) -> None:
        """This maze's spawn and target cells and their world positions."""
        layer = np.array(self._maze.entity_layer)
        rows, cols = np.nonzero(layer == SPAWN_TOKEN)
        self._spawn_grid = tuple(zip(rows.tolist(), cols.tolist()))
        self._spawn_positions = np.column_stack(
            [self.grid_to_world(rows, cols), np.zeros(len(rows))]
        )
        rows, cols = np.nonzero(layer == OBJECT_TOKEN)
        self._target_grid = tuple(zip(rows.tolist(), cols.tolist()))
        self._target_positions = np.column_stack(
            [self.grid_to_world(rows, cols), np.zeros(len(rows))]
        )

    def _build_observables(self) -> MazeObservables:
        return MazeObservables(self)

    # Layout.

    def _next_maze(self, random_state: np.random.RandomState) -> Any:
        """The next episode's maze: `maze.regenerate()` (the maze's own generator,
        as dm_control)."""
        del random_state
        self._maze.regenerate()
        return self._maze

    def regenerate(self, random_state: np.random.RandomState | None = None) -> Any:
        """Draws the next episode's maze and looks (written into the model by
        `initialize_episode`); returns the labmaze maze.

        `random_state` seeds `RandomMazeWithTargets`'s maze (None: numpy's global
        generator). The wall and floor textures are drawn from numpy's global
        generator, as dm_control's `regenerate` draws them (`np.random.choice`), so
        that the task's random state is drawn from as in dm_control.
        """
        random_state = _DEFAULT_RANDOM_STATE if random_state is None else random_state
        if not self.pooled:
            # dm_control's: the maze's own generator, whatever `random_state`; the
            # layout rebuilt in the model.
            self._maze.regenerate()
            with warnings.catch_warnings():
                # The rebuilt materials compile after those of the walker attached
                # already (MjSpec appends; dm_control's list the arena's first): this
                # module's doing, documented (docs/porting_from_dm_control.md), not a
                # user's to be warned of.
                warnings.simplefilter("ignore", namescope.SectionOrderWarning)
                self._rebuild()
            return self._maze
        maze = self._next_maze(random_state)
        layer = np.array(maze.entity_layer)
        self._layers = (layer, np.array(maze.variations_layer))
        self._find_cells()
        if self._text_maze_regenerated_hook is not None:
            # dm_control calls the hook after finding the spawn and target cells and
            # before laying the walls, which follow any edit it makes.
            self._text_maze_regenerated_hook()
            layer = np.array(maze.entity_layer)
            self._layers = (layer, np.array(maze.variations_layer))
        self._wall_style = {
            char: int(np.random.randint(len(self._wall_material_names[char])))
            for char in self._wall_chars
        }
        self._floor_style = int(np.random.randint(len(self._floor_material_entries)))
        self._wall_layout = self._layout_walls(layer)
        self._pending = True
        return maze

    def _layout_walls(self, layer: np.ndarray) -> tuple[np.ndarray, np.ndarray, list[str]]:
        """(centers, half_sizes, wall character of each box) of this layout."""
        centers, half_sizes, chars = [], [], []
        for char in self._wall_chars:
            char_centers, char_half_sizes = self._wall_boxes(layer == char)
            centers.append(char_centers)
            half_sizes.append(char_half_sizes)
            chars.extend([char] * len(char_centers))
        return np.concatenate(centers), np.concatenate(half_sizes), chars

    def initialize_episode(self, physics: Physics, random_state: np.random.RandomState) -> None:
        """Writes this episode's maze (drawing one unless a task called `regenerate`),
        unless `write_layout` wrote it already this episode."""
        if not self.pooled:
            return  # as dm_control's: the maze is in the compiled model
        if self._written:
            self._written = False
            return
        if not self._pending:
            self.regenerate(random_state)
        self._write(physics)

    def write_layout(self, physics: Physics) -> None:
        """Writes the maze that `regenerate` drew into `physics` now, if it is not
        written yet; the arena's `initialize_episode` then keeps it.

        dm_control's maze is in the compiled model by the time its tasks' own
        `initialize_episode` casts rays at the walls (the spawn heading); here the
        walls are written by the arena's `initialize_episode`, which runs after the
        task's, so a task that needs them earlier calls this (then `forward`).
        """
        if self.pooled and self._pending:
            self._write(physics)
            self._written = True

    def _write(self, physics: Physics) -> None:
        self._pending = False
        centers, half_sizes, chars = self._wall_layout
        model = physics.model
        body_ids, geom_ids, wall_material_ids, floor_material_ids = self._model_ids(physics)
        self._walls.write(
            physics,
            centers,
            half_sizes,
            material_ids=np.array(
                [wall_material_ids[char][self._wall_style[char]] for char in chars], dtype=int
            ),
        )
        model.geom_matid[physics.bind(self._floor).id] = floor_material_ids[self._floor_style]
        targets = self._sphere_centres()
        # An arena without spheres of its own (target_spheres=0) only reports the
        # target cells.
        count = len(targets) if self._show_target_spheres and len(body_ids) else 0
        if count > len(body_ids):
            raise ValueError(
                f"the maze has {count} targets but the arena holds {len(body_ids)} spheres; "
                "labmaze placed more objects than the arena's target_spheres"
            )
        model.body_pos[body_ids[:count]] = targets[:count]
        model.geom_rgba[geom_ids[:count]] = _TARGET_RGBA
        model.body_pos[body_ids[count:]] = (0.0, 0.0, pools.PARKING_Z_M)
        model.geom_rgba[geom_ids[count:], 3] = 0.0
        self._collected = np.zeros(len(targets), dtype=bool)

    def hide_target_spheres(self) -> None:
        """Parks the arena's own reward spheres from the next episode on (for tasks
        that bring their own targets, such as `ManyGoalsMaze` with a `target_builder`)."""
        self._show_target_spheres = False

    # Snapshots (composer.Environment.snapshot): the layout lives in Python too.

    def snapshot_state(self) -> dict[str, Any] | None:
        """The maze's Python state: its layers (and labmaze seed), looks, spawn and
        target positions, wall boxes and which targets were collected (picklable)."""
        if self._layers is None:
            return None
        if not self.pooled:
            # The walls are in the compiled model, which the snapshot holds.
            return dict(
                layers=tuple(layer.copy() for layer in self._layers),
                spawn_grid=self._spawn_grid,
                target_grid=self._target_grid,
                spawn_positions=self._spawn_positions.copy(),
                target_positions=self._target_positions.copy(),
            )
        centers, half_sizes, chars = self._wall_layout
        return dict(
            maze_seed=self._maze_seed,
            layers=tuple(layer.copy() for layer in self._layers),
            wall_style=dict(self._wall_style),
            floor_style=self._floor_style,
            pending=self._pending,
            spawn_grid=self._spawn_grid,
            target_grid=self._target_grid,
            spawn_positions=self._spawn_positions.copy(),
            target_positions=self._target_positions.copy(),
            wall_layout=(centers.copy(), half_sizes.copy(), list(chars)),
            collected=self._collected.copy(),
        )

    def restore_state(self, state: Mapping[str, Any] | None) -> None:
        """Returns the maze to a `snapshot_state()` of a maze built alike."""
        if state is None:
            self._layers = None
            self._maze_seed = None
            self._pending = False
            self._collected = np.zeros(0, dtype=bool)
            return
        if not self.pooled:
            self._layers = tuple(layer.copy() for layer in state["layers"])  # type: ignore[assignment]
            self._spawn_grid = state["spawn_grid"]
            self._target_grid = state["target_grid"]
            self._spawn_positions = state["spawn_positions"].copy()
            self._target_positions = state["target_positions"].copy()
            return
        self._maze_seed = state["maze_seed"]
        self._restore_maze(state)
        self._layers = tuple(layer.copy() for layer in state["layers"])  # type: ignore[assignment]
        self._wall_style = dict(state["wall_style"])
        self._floor_style = state["floor_style"]
        self._pending = state["pending"]
        self._spawn_grid = state["spawn_grid"]
        self._target_grid = state["target_grid"]
        self._spawn_positions = state["spawn_positions"].copy()
        self._target_positions = state["target_positions"].copy()
        centers, half_sizes, chars = state["wall_layout"]
        self._wall_layout = (centers.copy(), half_sizes.copy(), list(chars))
        self._collected = state["collected"].copy()

    def _restore_maze(self, state: Mapping[str, Any]) -> None:
        """Puts the maze object back in the snapshot's layout (a generic maze keeps
        its own object; only its layers are restored)."""
        del state

    def _model_ids(
        self, physics: Physics
    ) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray], np.ndarray]:
        """(target body ids, target geom ids, {wall character: material ids},
        floor material ids) in the compiled model."""
        model = physics.model
        if self._ids is None or self._ids[0] is not model:
            if self._target_bodies:
                body_ids = np.asarray(physics.bind(self._target_bodies).id, dtype=np.intp)
                geom_ids = np.asarray(physics.bind(self._target_geoms).id, dtype=np.intp)
            else:
                body_ids = geom_ids = np.zeros(0, dtype=np.intp)

            def material_ids(entries: list[tuple[Any, Any, str]]) -> np.ndarray:
                return np.array(
                    [
                        mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_MATERIAL, self.prefix + name)
                        for _, _, name in entries
                    ]
                )

            wall_ids = {
                char: material_ids(self._wall_material_names[char]) for char in self._wall_chars
            }
            floor_ids = material_ids(self._floor_material_entries)
            self._ids = (model, body_ids, geom_ids, wall_ids, floor_ids)
        return self._ids[1:]

    def _wall_boxes(self, walls: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(centers, half_sizes) (k, 3) of one box per horizontal run of wall cells."""
        padded = np.pad(walls.astype(np.int8), ((0, 0), (1, 1)))
        steps = np.diff(padded, axis=1)
        rows, starts = np.nonzero(steps == 1)
        _, stops = np.nonzero(steps == -1)
        first = self.grid_to_world(rows, starts)
        last = self.grid_to_world(rows, stops - 1)
        count = len(rows)
        centers = np.column_stack(
            [(first[:, 0] + last[:, 0]) / 2, first[:, 1], np.full(count, self._z_height / 2)]
        )
        half_sizes = np.column_stack(
            [
                (stops - starts) * self._xy_scale / 2,
                np.full(count, self._xy_scale / 2),
                np.full(count, self._z_height / 2),
            ]
        )
        return centers, half_sizes

    # Geometry of the grid.

    def grid_to_world(self, rows: ArrayLike, cols: ArrayLike) -> np.ndarray:
        """World (x, y) (n, 2) of the centres of cells (`rows`, `cols`), metres."""
        rows = np.asarray(rows, dtype=np.float64)
        cols = np.asarray(cols, dtype=np.float64)
        x = (cols - (self._x_cells - 1) / 2) * self._xy_scale
        # dm_control's expression: the centre row is at y = -0.0.
        y = -(rows - (self._y_cells - 1) / 2) * self._xy_scale
        return np.column_stack([x, y])

    def world_to_grid(self, xy: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
        """(rows, cols) of the cells holding world points `xy` (n, 2)."""
        xy = np.asarray(xy, dtype=np.float64).reshape(-1, 2)
        cols = np.floor(xy[:, 0] / self._xy_scale + self._x_cells / 2).astype(int)
        rows = np.floor(self._y_cells / 2 - xy[:, 1] / self._xy_scale).astype(int)
        return rows, cols

    def grid_to_world_positions(
        self, grid_positions: Sequence[Sequence[float]]
    ) -> list[np.ndarray]:
        """dm_control's form: world (x, y, 0) of each (row, column) cell centre."""
        return [np.array([*self.grid_to_world([y], [x])[0], 0.0]) for y, x in grid_positions]

    def world_to_grid_positions(
        self, world_positions: Sequence[Sequence[float]]
    ) -> list[np.ndarray]:
        """dm_control's form: fractional (row, column) of each world (x, y, z)
        (cell centres are whole numbers)."""
        y_offset, x_offset = (self._y_cells - 1) / 2, (self._x_cells - 1) / 2
        return [
            np.array([y_offset - y / self._xy_scale, x_offset + x / self._xy_scale])
            for x, y, _ in world_positions
        ]

    def find_token_grid_positions(self, tokens: Sequence[str]) -> dict[str, list[tuple[int, int]]]:
        """{token: [(row, column) of each cell of the entity layer holding it]}, in
        row-major order."""
        layer = np.array(self._maze.entity_layer)
        found = {}
        for token in tokens:
            rows, cols = np.nonzero(layer == token)
            found[token] = list(zip(rows.tolist(), cols.tolist()))
        return found

    def _require_maze(self) -> None:
        if self._layers is None:
            raise ValueError(
                "the maze exists from the first episode on; reset the environment "
                "or call regenerate(random_state) first"
            )

    # Properties.

    @property
    def maze(self) -> Any:
        """The labmaze maze (for `RandomMazeWithTargets`, this episode's; None
        before the first)."""
        return self._maze

    @property
    def text_maze_regenerated_hook(self) -> Callable[[], Any] | None:
        """A callable run after each `regenerate` of the labmaze maze, before the
        walls are laid out (it may edit the maze's entity layer)."""
        return self._text_maze_regenerated_hook

    @text_maze_regenerated_hook.setter
    def text_maze_regenerated_hook(self, hook: Callable[[], Any] | None) -> None:
        if hook is not None and not callable(hook):
            raise TypeError(f"text_maze_regenerated_hook must be callable or None, got {hook!r}")
        self._text_maze_regenerated_hook = hook

    @property
    def top_camera(self) -> mjcf.Element:
        """The camera 100 m above the maze's centre, looking down."""
        return self._handle(self._top_camera)

    @property
    def target_radius(self) -> float:
        """Radius of the arena's reward spheres (and of the default targets of
        `ManyGoalsMaze`), metres."""
        return self._target_radius

    @property
    def xy_scale(self) -> float:
        return self._xy_scale

    @property
    def z_height(self) -> float:
        return self._z_height

    @property
    def ground_geoms(self) -> tuple[Any, ...]:
        """The ground: dm_control's rule, every geom of the model whose name holds
        "ground" (a pooled maze: its floor)."""
        if self.pooled:
            return self._handles((self._floor,))
        return tuple(
            geom for geom in self.mjcf_model.find_all("geom") if "ground" in (geom.name or "")
        )

    @property
    def walls(self) -> tuple[Any, ...]:
        """The wall geoms: this episode's (`wall*_<i>` in `maze_body`), or a pooled
        maze's whole pool (unused ones are parked far below)."""
        if not self.pooled:
            return tuple(self._maze_body.find_all("geom"))
        return self._walls.geoms

    @property
    def target_geoms(self) -> tuple[mjcf.Element, ...]:
        """The arena's own reward spheres."""
        return self._handles(self._target_geoms)

    @property
    def spawn_positions(self) -> np.ndarray:
        """(n, 3) centres of this episode's spawn cells on the floor, metres."""
        self._require_maze()
        return self._spawn_positions.copy()

    @property
    def target_positions(self) -> np.ndarray:
        """(n, 3) this episode's target cells on the floor (z = 0), as dm_control's
        (`grid_to_world_positions` of the target tokens); the arena's own spheres
        float `target_height` metres above them."""
        self._require_maze()
        return self._target_positions.copy()

    def _sphere_centres(self) -> np.ndarray:
        """(n, 3) centres of the arena's own spheres over the target cells."""
        centres = self.target_positions
        centres[:, 2] = self._target_height
        return centres

    @property
    def spawn_grid_positions(self) -> tuple[tuple[int, int], ...]:
        """(row, column) of this episode's spawn cells."""
        self._require_maze()
        return self._spawn_grid

    @property
    def target_grid_positions(self) -> tuple[tuple[int, int], ...]:
        """(row, column) of this episode's target cells."""
        self._require_maze()
        return self._target_grid

    @property
    def targets_collected(self) -> np.ndarray:
        """(n,) bool: which of this episode's targets have been collected."""
        return self._collected.copy()

    def spawn_position(self, random_state: np.random.RandomState) -> np.ndarray:
        """One of this episode's spawn cells, chosen with `random_state`: (3,) metres."""
        positions = self.spawn_positions
        if len(positions) == 0:
            raise ValueError(
                "this episode's maze has no spawn cell: build RandomMazeWithTargets with "
                "spawns_per_room >= 1 (dm_control's default is 0)"
            )
        return positions[random_state.randint(len(positions))]

    def collect_targets(
        self, physics: Physics, position: ArrayLike, reach: float | None = None
    ) -> int:
        """Collects the arena's spheres within `reach` metres of `position` (3,) and
        hides them.

        `reach` defaults to the target radius plus 0.5 m. Returns how many were
        collected by this call (each target counts once per episode).
        """
        if not self._target_geoms:
            raise ValueError(
                "this maze holds no reward spheres of its own (target_spheres=0); "
                "collect_targets needs them"
            )
        reach = self._target_radius + 0.5 if reach is None else float(reach)
        targets = self._sphere_centres()
        if len(targets) == 0:
            return 0
        distances = np.linalg.norm(targets - np.asarray(position, dtype=np.float64), axis=1)
        new = (distances <= reach) & ~self._collected
        if np.any(new):
            self._collected |= new
            _, geom_ids, _, _ = self._model_ids(physics)
            physics.model.geom_rgba[geom_ids[: len(targets)][new], 3] = 0.0
        return int(new.sum())

    def terrain_height(self, physics: Physics, xy_points: ArrayLike) -> np.ndarray:
        """Height (n,) of the floor (0) or a wall top at `xy_points` (n, 2), metres."""
        if not self.pooled:
            if self._layers is None:  # no maze built yet: the bare floor
                return np.zeros(len(np.asarray(xy_points).reshape(-1, 2)))
            centers, half_sizes, _ = self._layout_walls(self._layers[0])
        else:
            centers, half_sizes = self._walls.active_boxes(physics)
        tops = pools.box_tops_at(xy_points, centers, half_sizes)
        return np.where(np.isnan(tops), 0.0, tops)


class RandomMazeWithTargets(MazeWithTargets):
    """A random labmaze maze (`labmaze.RandomMaze`), a new one every episode, with
    reward spheres of its own (`max_rooms * targets_per_room` of them).

    Args:
      x_cells, y_cells: grid size in cells (odd, as labmaze requires).
      xy_scale: side of a cell, metres.
      z_height: wall height, metres.
      max_rooms, room_min_size, room_max_size, max_variations, simplify:
        labmaze's `RandomMaze` parameters.
      spawns_per_room: spawn cells per room. The default is dm_control's (labmaze's
        0), which leaves no spawn cell: a task that spawns a walker needs at least 1.
      targets_per_room: targets per room (dm_control's default, 0: none).
      skybox_texture, wall_textures, floor_textures, aesthetic: as
        `MazeWithTargets`.
      name: the arena's name.

    Keyword-only, this project's own (dm_control's parameters above keep its names
    and order, so its positional calls bind the same here):
      extra_connection_probability: labmaze's `RandomMaze` parameter.
      target_radius: sphere radius, metres.
      target_height: height of the sphere centres above the floor, metres.
    """

    def _build(  # type: ignore[override]
        self,
        x_cells: int = 11,
        y_cells: int = 11,
        xy_scale: float = 2.0,
        z_height: float = 2.0,
        max_rooms: int = _MAX_ROOMS,
        room_min_size: int = _ROOM_MIN_SIZE,
        room_max_size: int = _ROOM_MAX_SIZE,
        spawns_per_room: int = 0,
        targets_per_room: int = 0,
        max_variations: int = _MAX_VARIATIONS,
        simplify: bool = _SIMPLIFY,
        skybox_texture: composer.Entity | None = None,
        wall_textures: Any = None,
        floor_textures: composer.Entity | None = None,
        aesthetic: str = "default",
        name: str = "random_maze",
        *,
        extra_connection_probability: float = _EXTRA_CONNECTION_PROBABILITY,
        target_radius: float = 0.3,
        target_height: float = 0.5,
        pooled: bool = False,
    ) -> None:
        if not isinstance(spawns_per_room, (int, np.integer)) or spawns_per_room < 0:
            raise ValueError(f"spawns_per_room must be an int >= 0, got {spawns_per_room!r}")
        if not isinstance(targets_per_room, (int, np.integer)) or targets_per_room < 0:
            raise ValueError(f"targets_per_room must be an int >= 0, got {targets_per_room!r}")
        self._maze_kwargs: dict[str, Any] = dict(
            height=y_cells,
            width=x_cells,
            max_rooms=max_rooms,
            room_min_size=room_min_size,
            room_max_size=room_max_size,
            max_variations=max_variations,
            simplify=simplify,
            extra_connection_probability=extra_connection_probability,
            spawns_per_room=spawns_per_room,
            objects_per_room=targets_per_room,
        )
        if pooled:
            # Built now so that labmaze checks the parameters at construction; each
            # episode's maze is seeded from the episode's random state.
            maze = labmaze.RandomMaze(random_seed=0, **self._maze_kwargs)
        else:
            # dm_control's: one maze, seeded once from numpy's global generator, whose
            # own generator lays out every episode.
            random_seed = np.random.randint(2147483648)  # 2**31, as dm_control
            maze = labmaze.RandomMaze(random_seed=random_seed, **self._maze_kwargs)
        super()._build(
            maze,
            xy_scale=xy_scale,
            z_height=z_height,
            skybox_texture=skybox_texture,
            wall_textures=wall_textures,
            floor_textures=floor_textures,
            aesthetic=aesthetic,
            name=name,
            target_spheres=int(max_rooms) * int(targets_per_room) if pooled else 0,
            target_radius=target_radius,
            target_height=target_height,
            pooled=pooled,
        )
        self._episode_maze: labmaze.RandomMaze | None = None if pooled else maze

    def _next_maze(self, random_state: np.random.RandomState) -> labmaze.RandomMaze:
        """A new `labmaze.RandomMaze` seeded from `random_state`."""
        seed = int(random_state.randint(2**31 - 1))
        self._maze_seed = seed
        self._episode_maze = labmaze.RandomMaze(random_seed=seed, **self._maze_kwargs)
        self._maze = self._episode_maze
        return self._episode_maze

    def _restore_maze(self, state: Mapping[str, Any]) -> None:
        self._episode_maze = labmaze.RandomMaze(random_seed=state["maze_seed"], **self._maze_kwargs)
        self._maze = self._episode_maze

    @property
    def maze(self) -> labmaze.RandomMaze | None:
        """The `labmaze.RandomMaze` (a pooled maze's: this episode's, None before the
        first)."""
        return self._episode_maze

    @property
    def max_targets(self) -> int:
        """The most targets a maze of these parameters has."""
        return len(self._target_bodies)
