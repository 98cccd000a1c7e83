"""The soccer pitch: a walled field with two goals that detect the ball.

Authored from the published facts of dm_control's soccer pitch (dm-control 1.0.50,
`locomotion/soccer/pitch.py`); numbers carry over from there. World frame: the
pitch is centred at the origin, its length along x and width along y; `size` is
(half-length, half-width) in metres, as dm_control's.

* Ground: a plane of half-sizes `size` (for `RandomizedPitch`, the field's) with a
  pitch texture drawn here (stripes, boundary, halfway line, centre circle and
  spot, penalty boxes with their arcs), stretched over the plane; eight
  visual-only green planes frame the field.
* Walls: four planes facing inwards at x = +-size[0] and y = +-size[1], which
  stop walkers and ball (drawn 1e-7 m wide, so invisible).
* Goals (`Goal`): 3-D detection regions `home_goal` (at -x, blue) and `away_goal`
  (at +x, red), `goal_size` = (depth, width, height) half-sizes, by default
  (16/6, 0.33 * size[1], 16/6) m, placed against the end walls (offset inwards by
  `field_box_offset` with a field box); each has ten capsule goalposts (radius 0.07
  times the mean goal half-size) that collide, and turn green while the ball is
  in. `detected_goal()` is the `Team` that scored: the AWAY team when the ball is
  in the home goal, HOME when it is in the away goal, else None.
* Field (`field`): an inverted 2-D detector, the pitch less a goal depth on every
  side; `detected_off_court()` lists the ball when it is out (not with a field box).
* Field box (`field_box=True`): eight invisible boxes around the field, with
  openings at the goals, that collide with the ball only (contact bit 7).
* Cameras and lights: the `top_down` camera `top_camera_distance` (95 m) above the
  centre, its fovy fitted to 1.1 times the longer side; four spot lights (cutoff
  60 degrees) above the field's corners; 120 hoarding boxes (sites) around the
  pitch, coloured by hue (`hoarding_color_scheme_id` 0 to 3).
* Global settings: dm_control's arena base (`composer.Arena`), and statistic
  extent 0.1 * max(size) (centre (0, 0, extent)), far clipping plane 50 and near
  0.1 / extent (relative to extent, as MuJoCo's map settings are), shadow map
  8192 px.

Public API:

* `Pitch(size=(12, 9), goal_size=None, top_camera_distance=95.0, field_box=False,
  field_box_offset=0.0, hoarding_color_scheme_id=0, name="pitch")`.
* `RandomizedPitch(min_size, max_size, randomizer=None, keep_aspect_ratio=False,
  goal_size=None, field_box=False, field_box_offset=0.0, top_camera_distance=95.0,
  name="randomized_pitch")`: at every episode (`initialize_episode_mjcf`) draws
  size = min + ratio * (max - min) per axis, ratio from `randomizer(random_state=)`
  (default uniform on [0, 1); one ratio for both axes with `keep_aspect_ratio`),
  and rebuilds walls, goals, field, ground, field box, lights and hoarding for
  it (a spec edit: the model recompiles, as in dm_control).
* `register_ball(ball)`: the goals (and, without a field box, the field) watch
  the ball; with a field box, the ball and the boxes get contact bit 7.
* `detected_goal()`, `detected_off_court()`, `size`, `goal_size`, `home_goal`,
  `away_goal`, `field`, `ground_geom`, `walls`, `field_box_geoms`, `top_camera`.
* `match_pitch_sizes(team_size, humanoid=False)`: the (min_size, max_size,
  goal_size) dm_control's `soccer.load` gives a `RandomizedPitch` for a team size.
"""

from __future__ import annotations

import colorsys
import functools
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Optional, Sequence, Tuple

import mujoco
import numpy as np
from numpy.typing import ArrayLike

from composer_tasks import composer, mjcf
from composer_tasks.composer.variation import distributions
from composer_tasks.physics import Physics
from composer_tasks.props import position_detector
from composer_tasks.walkers import soccer_team

if TYPE_CHECKING:
    from composer_tasks.props import soccer_ball

# dm_control soccer/pitch.py constants (m unless stated).
_TOP_CAMERA_Y_PADDING_FACTOR = 1.1
DEFAULT_TOP_CAMERA_DISTANCE_M = 95.0
_WALL_RGBA = (0.1, 0.1, 0.1, 0.8)
# Walls are drawn as planes of this (tiny) size: they stop bodies but stay unseen.
_WALL_DRAWN_SIZE_M = 1e-7
_SIDE_WIDTH_M = 32.0 / 6.0
_GROUND_GRID_RATIO = 1.0 / 100.0  # Grid spacing of the ground plane per metre of max(size).
FIELD_BOX_CONTACT_BIT = 1 << 7
DEFAULT_PITCH_SIZE = (12.0, 9.0)
_DEFAULT_GOAL_LENGTH_RATIO = 0.33  # Goal half-width per pitch half-width.
_GOALPOST_RELATIVE_SIZE = 0.07  # Goalpost radius per mean goal half-size.
_TOP_POST_RADIUS_FACTOR = 1.01  # Keeps the crossbar's corners from z-fighting.
_SUPPORT_POST_RATIO = 0.75
# Goalposts in the unit box [-1, 1]^3 of a goal facing +x (from, to).
_GOALPOSTS = {
    "right_post": (1, -1, -1, 1, -1, 1),
    "left_post": (1, 1, -1, 1, 1, 1),
    "top_post": (1, -1, 1, 1, 1, 1),
    "right_base": (1, -1, -1, -1, -1, -1),
    "left_base": (1, 1, -1, -1, 1, -1),
    "back_base": (-1, -1, -1, -1, 1, -1),
    "right_support": (-1, -1, -1, 0.2, -1, 1),
    "right_top_support": (0.2, -1, 1, 1, -1, 1),
    "left_support": (-1, 1, -1, 0.2, 1, 1),
    "left_top_support": (0.2, 1, 1, 1, 1, 1),
}
_HOME_GOAL_RGBA = (0.2, 0.2, 1.0, 0.5)
_AWAY_GOAL_RGBA = (1.0, 0.2, 0.2, 0.5)
_PERIMETER_RGBA = (0.306, 0.682, 0.223, 1.0)
_FIELD_BOX_RGBA = (0.3, 0.3, 0.3, 0.0)
_FIELD_BOX_HALF_HEIGHT_M = 20.0
_FIELD_BOX_THICKNESS_M = 1.0
_NUM_HOARDING = 30  # Hoarding boxes per side.
_HOARDING_SATURATION = 0.7
_HOARDING_HUE_OFFSET = 0.25
_LIGHT_CUTOFF_DEG = 60.0
_SKYBOX_RGB = ((0.7, 0.9, 0.9), (0.03, 0.09, 0.27))
# dm_control's sky box: a 400 px gradient.
_SKYBOX_PX = 400
_SHADOW_SIZE_PX = 8192
_ZFAR = 50.0
_ZNEAR_M = 0.1
_EXTENT_PER_SIZE = 0.1
# Mini-football (5-a-side) goals and areas for humanoid matches (dm_control).
_MINI_GOAL_LENGTH_M = 3.66
_MINI_GOAL_SIDE_M = 1.22
MINI_FOOTBALL_MIN_AREA_PER_HUMANOID = 100.0  # m^2 per player.
MINI_FOOTBALL_MAX_AREA_PER_HUMANOID = 350.0
MINI_FOOTBALL_GOAL_SIZE = (_MINI_GOAL_SIDE_M / 2, _MINI_GOAL_LENGTH_M / 2, _MINI_GOAL_SIDE_M / 2)
# dm_control soccer.load: the BoxHead and Ant matches' pitch half-sizes, any team size.
MIN_PITCH_SIZE = (32.0, 24.0)
MAX_PITCH_SIZE = (48.0, 36.0)
_PITCH_ASPECT_RATIO = 0.75  # width / length of humanoid pitches.
# The ground texture (authored here): pixels, stripes, and line geometry in
# fractions of the drawn plane's full length (x) and width (y).
_TEXTURE_SIZE_PX = (800, 600)  # (width along x, height along y), as drawn.
# The image's size in the model: dm_control's field texture (pitch_nologo_l.png) is
# 3200 x 2400 px; the drawing is repeated 4 x 4 to that size, so the model's texture
# arrays (`tex_width`, `tex_height`, `tex_data`) have dm_control's sizes.
_TEXTURE_UPSCALE = 4
_STRIPES = 15
_GRASS_RGB = ((0.25, 0.63, 0.13), (0.34, 0.72, 0.2))
_LINE_RGB = (1.0, 1.0, 1.0)
_LINE_WIDTH = 0.006
_BORDER = 0.01
_CENTRE_CIRCLE_RADIUS = 0.09
_CENTRE_SPOT_RADIUS = 0.012
_PENALTY_BOX_DEPTH = 0.09
_PENALTY_BOX_HALF_WIDTH = 0.22
_PENALTY_ARC_RADIUS = 0.075
_PENALTY_SPOT_FROM_GOAL = 0.06


def area_to_size(area: float, aspect_ratio: float = _PITCH_ASPECT_RATIO) -> np.ndarray:
    """(half-length, half-width) in m of a pitch of `area` m^2 whose width is
    `aspect_ratio` times its length (dm_control `soccer._area_to_size`)."""
    return np.sqrt([area / aspect_ratio, area * aspect_ratio]) / 2.0


def match_pitch_sizes(
    team_size: int, humanoid: bool = False
) -> tuple[tuple[float, ...], tuple[float, ...], tuple[float, float, float] | None]:
    """(min_size, max_size, goal_size) of the `RandomizedPitch` of a
    `team_size`-a-side match, as dm_control's `soccer.load` chooses them: for
    BoxHead and Ant matches (32, 24) to (48, 36) m with goals sized to the pitch
    (goal_size None); for humanoids 100 to 350 m^2 per player at aspect 0.75, with
    mini-football goals.

    Raises:
      ValueError: if team_size is not an int in [1, 11].
    """
    if (
        isinstance(team_size, bool)
        or not isinstance(team_size, (int, np.integer))
        or not 1 <= team_size <= 11
    ):
        raise ValueError(f"team_size must be an int in [1, 11], got {team_size!r}")
    if not humanoid:
        return MIN_PITCH_SIZE, MAX_PITCH_SIZE, None
    players = 2 * int(team_size)
    return (
        tuple(area_to_size(MINI_FOOTBALL_MIN_AREA_PER_HUMANOID * players)),
        tuple(area_to_size(MINI_FOOTBALL_MAX_AREA_PER_HUMANOID * players)),
        MINI_FOOTBALL_GOAL_SIZE,
    )


def _top_down_fovy(size: Sequence[float], distance: float) -> float:
    return (360.0 / np.pi) * np.arctan2(_TOP_CAMERA_Y_PADDING_FACTOR * max(size), distance)


def _wall_poses(
    size: Sequence[float],
) -> list[tuple[tuple[float, float, float], tuple[float, float, float]]]:
    """(position, x axis) of the walls at -y, +y, -x, +x; each plane's y axis is
    world z, so its normal (x axis cross z) faces the centre."""
    return [
        ((0.0, -size[1], 0.0), (-1.0, 0.0, 0.0)),
        ((0.0, size[1], 0.0), (1.0, 0.0, 0.0)),
        ((-size[0], 0.0, 0.0), (0.0, 1.0, 0.0)),
        ((size[0], 0.0, 0.0), (0.0, -1.0, 0.0)),
    ]


def _xz_quaternion(x_axis: ArrayLike) -> np.ndarray:
    """Quaternion of the frame with the given x axis and world z as its y axis."""
    x = np.asarray(x_axis, dtype=np.float64)
    y = np.array([0.0, 0.0, 1.0])
    rotation = np.stack([x, y, np.cross(x, y)], axis=1)
    quaternion = np.empty(4)
    mujoco.mju_mat2Quat(quaternion, rotation.reshape(-1))
    return quaternion


def _field_box_poses(
    field_size: Sequence[float], goal_size: Sequence[float]
) -> list[tuple[tuple[float, float, float], tuple[float, float, float]]]:
    """(position, half-size) of the eight field-box walls (dm_control
    `_fieldbox_pos_size`): long sides, then per end the corners and the bar above
    the goal."""
    corner_y = 0.5 * (field_size[1] + goal_size[1])
    corner_half_y = 0.5 * (field_size[1] - goal_size[1])
    thickness = _FIELD_BOX_THICKNESS_M
    half_height = _FIELD_BOX_HALF_HEIGHT_M
    top_z = half_height + goal_size[2]
    top_half_z = half_height - goal_size[2]
    offset_x = field_size[0] + thickness
    offset_y = field_size[1] + thickness
    return [
        ((0.0, -offset_y, half_height), (field_size[0], thickness, half_height)),
        ((0.0, offset_y, half_height), (field_size[0], thickness, half_height)),
        ((-offset_x, -corner_y, half_height), (thickness, corner_half_y, half_height)),
        ((-offset_x, 0.0, top_z), (thickness, goal_size[1], top_half_z)),
        ((-offset_x, corner_y, half_height), (thickness, corner_half_y, half_height)),
        ((offset_x, -corner_y, half_height), (thickness, corner_half_y, half_height)),
        ((offset_x, 0.0, top_z), (thickness, goal_size[1], top_half_z)),
        ((offset_x, corner_y, half_height), (thickness, corner_half_y, half_height)),
    ]


def _corner_lights(
    size: Sequence[float],
) -> list[tuple[tuple[float, float, float], tuple[float, float, float]]]:
    """(position, direction) of the four lights above the corners of `size`."""
    height = np.mean(size) * 2.0 / 3.0
    return [
        ((x, y, height), (-x, -y, -2.0 * height))
        for x in (-size[0], size[0])
        for y in (-size[1], size[1])
    ]


def _goalpost_radius(goal_size: Sequence[float] | np.ndarray) -> float:
    return _GOALPOST_RELATIVE_SIZE * sum(goal_size) / 3.0


def _post_radius(name: str, radius: float) -> float:
    if "top" in name:
        radius *= _TOP_POST_RADIUS_FACTOR
    if "support" in name:
        radius *= _SUPPORT_POST_RATIO
    return radius


def _goalpost_fromto(
    unit_fromto: Sequence[float], size: np.ndarray, pos: np.ndarray, direction: np.ndarray
) -> np.ndarray:
    flip = np.concatenate([direction, direction])
    scale = np.concatenate([size, size])
    return np.asarray(unit_fromto) * flip * scale + np.concatenate([pos, pos])


@functools.lru_cache(maxsize=1)
def pitch_texture() -> np.ndarray:
    """The ground's image, (2400, 3200, 3) uint8, x along the columns: mown stripes,
    the boundary, halfway line, centre circle and spot, and at each end a penalty
    box with its spot and arc; shared (read-only)."""
    width, height = _TEXTURE_SIZE_PX
    # Pixel centres in fractions of the plane: u along x in [0, 1], v along y.
    u = (np.arange(width) + 0.5) / width
    v = (np.arange(height) + 0.5) / height
    uu, vv = np.meshgrid(u, v)
    stripe = np.floor(uu * _STRIPES).astype(int) % 2
    image = np.asarray(_GRASS_RGB)[stripe]
    aspect = height / width  # Circles are round on a plane of this aspect.
    half_line = _LINE_WIDTH / 2.0
    lines = np.zeros_like(uu, dtype=bool)
    inner = (uu >= _BORDER) & (uu <= 1 - _BORDER) & (vv >= _BORDER) & (vv <= 1 - _BORDER)
    for edge in (_BORDER, 1.0 - _BORDER):
        lines |= (
            (np.abs(uu - edge) <= half_line)
            & (vv >= _BORDER - half_line)
            & (vv <= 1 - _BORDER + half_line)
        )
        lines |= (
            (np.abs(vv - edge) <= half_line / aspect)
            & (uu >= _BORDER - half_line)
            & (uu <= 1 - _BORDER + half_line)
        )
    lines |= (np.abs(uu - 0.5) <= half_line) & inner
    # Distances in units of the plane's length (v scaled by the aspect).
    radius = np.hypot(uu - 0.5, (vv - 0.5) * aspect)
    lines |= np.abs(radius - _CENTRE_CIRCLE_RADIUS) <= half_line
    lines |= radius <= _CENTRE_SPOT_RADIUS
    for goal_line, inwards in ((_BORDER, 1.0), (1.0 - _BORDER, -1.0)):
        box_edge = goal_line + inwards * _PENALTY_BOX_DEPTH
        in_span = np.abs(vv - 0.5) <= _PENALTY_BOX_HALF_WIDTH
        between = (inwards * (uu - goal_line) >= 0) & (inwards * (uu - box_edge) <= 0)
        lines |= (np.abs(uu - box_edge) <= half_line) & in_span
        side = np.abs(np.abs(vv - 0.5) - _PENALTY_BOX_HALF_WIDTH) <= half_line / aspect
        lines |= side & between
        spot_u = goal_line + inwards * _PENALTY_SPOT_FROM_GOAL
        spot_distance = np.hypot(uu - spot_u, (vv - 0.5) * aspect)
        lines |= spot_distance <= _CENTRE_SPOT_RADIUS * 0.6
        outside_box = inwards * (uu - box_edge) > 0
        lines |= (np.abs(spot_distance - _PENALTY_ARC_RADIUS) <= half_line) & outside_box
    image[lines] = _LINE_RGB
    drawn = np.round(image * 255.0).astype(np.uint8)
    result = np.repeat(np.repeat(drawn, _TEXTURE_UPSCALE, axis=0), _TEXTURE_UPSCALE, axis=1)
    result.setflags(write=False)
    return result


class Goal(position_detector.PositionDetector):
    """A 3-D goal region (`PositionDetector`, retaining substep detections) with ten
    colliding capsule goalposts that turn `detected_rgba` (opaque) while the ball
    is in.

    Args:
      direction: 1 for a goal that opens towards +x (the home goal, at -x), -1
        for one that opens towards -x.
      pos, size: the region's centre and (depth, width, height) half-sizes (m).
      rgba, detected_rgba, name: as `PositionDetector`'s.

    Raises:
      ValueError: for a direction other than 1 or -1, or a region not in 3-D.
    """

    def _build(
        self,
        direction: int,
        pos: Sequence[float],
        size: Sequence[float],
        rgba: ArrayLike = (1.0, 1.0, 1.0, 1.0),
        detected_rgba: ArrayLike = (0.0, 1.0, 0.0, 0.25),
        name: str = "goal",
    ) -> None:
        if isinstance(direction, bool) or direction not in (1, -1):
            raise ValueError(f"direction must be 1 or -1, got {direction!r}")
        if len(pos) != 3 or len(size) != 3:
            raise ValueError(f"a goal needs a 3-D pos and size, got {pos!r} and {size!r}")
        super()._build(
            pos=pos,
            size=size,
            rgba=rgba,
            detected_rgba=detected_rgba,
            visible=False,
            retain_substep_detections=True,
            name=name,
        )
        self._direction = np.array([direction, direction, 1.0])
        self._posts = [
            self._spec.worldbody.add_geom(
                name=post, type=mujoco.mjtGeom.mjGEOM_CAPSULE, rgba=list(self.goalpost_rgba)
            )
            for post in _GOALPOSTS
        ]
        self._place_posts(np.asarray(pos, dtype=np.float64), np.asarray(size, dtype=np.float64))

    def _place_posts(self, pos: np.ndarray, size: np.ndarray) -> None:
        radius = _goalpost_radius(size)
        for geom, (post, unit) in zip(self._posts, _GOALPOSTS.items()):
            geom.fromto = list(_goalpost_fromto(unit, size, pos, self._direction))
            geom.size = [_post_radius(post, radius), 0.0, 0.0]

    def resize(self, pos: Sequence[float], size: Sequence[float]) -> None:
        """Moves and resizes the region and its goalposts (a spec edit)."""
        super().resize(pos, size)
        self._place_posts(np.asarray(pos, dtype=np.float64), np.asarray(size, dtype=np.float64))

    def set_position(self, physics: Physics, pos: Sequence[float]) -> None:
        """dm_control's `Goal.set_position`, which always raises TypeError.

        dm_control 1.0.50 (soccer/pitch.py) calls `PositionDetector.set_position`
        without its `physics` argument, so the call fails before the goal moves;
        this keeps that behaviour rather than moving the goal silently where
        dm_control cannot. `resize(pos, size)` moves a goal (a model edit).
        """
        del physics, pos
        raise TypeError(
            "Goal.set_position fails as in dm_control 1.0.50 (it calls "
            "PositionDetector.set_position without `physics`); move a goal with "
            "resize(pos, size)"
        )

    @property
    def goalposts(self) -> tuple[mjcf.Element, ...]:
        return self._handles(self._posts)

    @property
    def goalpost_rgba(self) -> np.ndarray:
        """The region's colour, opaque."""
        rgba = self.rgba
        rgba[3] = 1.0
        return rgba

    @property
    def goalpost_detected_rgba(self) -> np.ndarray:
        rgba = self.detected_rgba
        rgba[3] = 1.0
        return rgba

    def _update_detection(self, physics: Physics) -> None:
        was_detected = self._detected
        super()._update_detection(physics)
        if self._detected != was_detected:
            colour = self.goalpost_detected_rgba if self._detected else self.goalpost_rgba
            physics.model.geom_rgba[self._post_ids] = colour

    def initialize_episode(self, physics: Physics, random_state: np.random.RandomState) -> None:
        self._post_ids = np.asarray(physics.bind(list(self._posts)).id, dtype=np.intp)
        physics.model.geom_rgba[self._post_ids] = self.goalpost_rgba
        super().initialize_episode(physics, random_state)


def _is_finite_number(value: object) -> bool:
    return (
        isinstance(value, (int, float, np.integer, np.floating))
        and not isinstance(value, bool)
        and bool(np.isfinite(value))
    )


def _pair(values: Sequence[float] | np.ndarray) -> Tuple[float, float]:
    return (float(values[0]), float(values[1]))


def _check_size(size: ArrayLike, label: str) -> np.ndarray:
    array = np.asarray(size, dtype=np.float64)
    if array.shape != (2,) or not np.all(np.isfinite(array)) or np.any(array <= 0):
        raise ValueError(
            f"{label} must be (half-length, half-width), two positive values in m, got {size!r}"
        )
    return array


def _check_goal_size(goal_size: ArrayLike | None) -> tuple[float, float, float] | None:
    if goal_size is None:
        return None
    array = np.asarray(goal_size, dtype=np.float64)
    if array.shape != (3,) or not np.all(np.isfinite(array)) or np.any(array <= 0):
        raise ValueError(
            f"goal_size must be None or (depth, width, height), three positive "
            f"half-sizes in m, got {goal_size!r}"
        )
    return (float(array[0]), float(array[1]), float(array[2]))


class Pitch(composer.Arena):
    """A walled soccer pitch with home and away goals and an off-field detector.

    Args: see the module docstring.

    Raises:
      ValueError: for sizes that are not positive, a goal size not of three
        positive values, or a hoarding colour scheme other than 0 to 3.
    """

    def _build(
        self,
        size: ArrayLike = DEFAULT_PITCH_SIZE,
        goal_size: ArrayLike | None = None,
        top_camera_distance: float = DEFAULT_TOP_CAMERA_DISTANCE_M,
        field_box: bool = False,
        field_box_offset: float = 0.0,
        hoarding_color_scheme_id: int = 0,
        name: str = "pitch",
    ) -> None:
        self._size = _pair(_check_size(size, "size"))
        self._goal_size = _check_goal_size(goal_size)
        if not _is_finite_number(top_camera_distance) or top_camera_distance <= 0:
            raise ValueError(
                f"top_camera_distance must be positive (m), got {top_camera_distance!r}"
            )
        if not _is_finite_number(field_box_offset):
            raise ValueError(f"field_box_offset must be finite (m), got {field_box_offset!r}")
        scheme = hoarding_color_scheme_id
        if isinstance(scheme, bool) or scheme not in (0, 1, 2, 3):
            raise ValueError(
                f"hoarding_color_scheme_id must be 0, 1, 2 or 3, got {hoarding_color_scheme_id!r}"
            )
        super()._build(name=name)
        spec = self._spec
        self._top_camera_distance = float(top_camera_distance)
        self._hoarding_color_scheme_id = int(hoarding_color_scheme_id)
        self._top_camera = spec.worldbody.add_camera(
            name="top_down",
            pos=[0.0, 0.0, self._top_camera_distance],
            fovy=_top_down_fovy(self._size, self._top_camera_distance),
        )
        extent = _EXTENT_PER_SIZE * max(self._size)
        spec.stat.extent = extent
        spec.stat.center = [0.0, 0.0, extent]
        spec.visual.map.zfar = _ZFAR
        spec.visual.map.znear = _ZNEAR_M / extent
        spec.visual.quality.shadowsize = _SHADOW_SIZE_PX
        spec.add_texture(
            name="skybox",
            type=mujoco.mjtTexture.mjTEXTURE_SKYBOX,
            builtin=mujoco.mjtBuiltin.mjBUILTIN_GRADIENT,
            rgb1=list(_SKYBOX_RGB[0]),
            rgb2=list(_SKYBOX_RGB[1]),
            width=_SKYBOX_PX,
            height=_SKYBOX_PX,
        )
        self._lights = [spec.worldbody.add_light(cutoff=_LIGHT_CUTOFF_DEG) for _ in range(4)]
        self._place_lights(self._size)
        image = pitch_texture()
        texture = spec.add_texture(
            name="fieldplane",
            type=mujoco.mjtTexture.mjTEXTURE_2D,
            width=image.shape[1],
            height=image.shape[0],
            nchannel=3,
        )
        texture.data = image.tobytes()
        material = spec.add_material(name="fieldplane")
        material.textures[mujoco.mjtTextureRole.mjTEXROLE_RGB] = "fieldplane"
        self._ground_geom = spec.worldbody.add_geom(
            name="ground",
            type=mujoco.mjtGeom.mjGEOM_PLANE,
            material="fieldplane",
            size=[*self._size, max(self._size) * _GROUND_GRID_RATIO],
        )
        self._walls = []
        for position, x_axis in _wall_poses(self._size):
            self._walls.append(
                spec.worldbody.add_geom(
                    type=mujoco.mjtGeom.mjGEOM_PLANE,
                    rgba=list(_WALL_RGBA),
                    pos=list(position),
                    quat=list(_xz_quaternion(x_axis)),
                    size=[_WALL_DRAWN_SIZE_M] * 3,
                )
            )

        self._field_box_offset = float(field_box_offset) if field_box else 0.0
        goal_size = self.goal_size
        self._home_goal = Goal(
            direction=1,
            pos=self._home_goal_pos(goal_size),
            size=goal_size,
            rgba=_HOME_GOAL_RGBA,
            name="home_goal",
        )
        self.attach(self._home_goal)
        self._away_goal = Goal(
            direction=-1,
            pos=self._away_goal_pos(goal_size),
            size=goal_size,
            rgba=_AWAY_GOAL_RGBA,
            name="away_goal",
        )
        self.attach(self._away_goal)
        self._field = position_detector.PositionDetector(
            pos=(0.0, 0.0),
            size=self._field_size(goal_size),
            inverted=True,
            visible=False,
            name="field",
        )
        self.attach(self._field)
        self._perimeter = [
            spec.worldbody.add_geom(
                type=mujoco.mjtGeom.mjGEOM_PLANE,
                size=[1.0, 1.0, 1.0],
                rgba=list(_PERIMETER_RGBA),
                contype=0,
                conaffinity=0,
            )
            for _ in range(8)
        ]
        self._place_perimeter()
        self._field_box = []
        if field_box:
            for position, half_size in _field_box_poses(self._field_size(goal_size), goal_size):
                self._field_box.append(
                    spec.worldbody.add_geom(
                        type=mujoco.mjtGeom.mjGEOM_BOX,
                        rgba=list(_FIELD_BOX_RGBA),
                        pos=list(position),
                        size=list(half_size),
                    )
                )
        self._hoarding = [
            spec.worldbody.add_site(type=mujoco.mjtGeom.mjGEOM_BOX, size=[1.0, 1.0, 1.0])
            for _ in range(4 * _NUM_HOARDING)
        ]
        self._place_hoarding()

    # Layout.

    def _home_goal_pos(self, goal_size: Sequence[float]) -> tuple[float, float, float]:
        return (-self._size[0] + goal_size[0] + self._field_box_offset, 0.0, goal_size[2])

    def _away_goal_pos(self, goal_size: Sequence[float]) -> tuple[float, float, float]:
        return (self._size[0] - goal_size[0] - self._field_box_offset, 0.0, goal_size[2])

    def _field_size(self, goal_size: Sequence[float]) -> tuple[float, float]:
        return (self._size[0] - 2.0 * goal_size[0], self._size[1] - 2.0 * goal_size[0])

    def _place_lights(self, size: Sequence[float]) -> None:
        for light, (position, direction) in zip(self._lights, _corner_lights(size)):
            light.pos = list(position)
            light.dir = list(direction)

    def _place_perimeter(self) -> None:
        """Eight visual planes around the field, a goal depth wide (dm_control
        `_update_perimeter`)."""
        width = self.goal_size[0]
        planes = iter(self._perimeter)
        for x in (-1, 0, 1):
            for y in (-1, 0, 1):
                if x == 0 and y == 0:
                    continue
                plane = next(planes)
                plane.size = [
                    self._size[0] - 2 * width if x == 0 else width,
                    self._size[1] - 2 * width if y == 0 else width,
                    max(self._size) * _GROUND_GRID_RATIO,
                ]
                plane.pos = [x * (self._size[0] - width), y * (self._size[1] - width), 0.0]

    def _place_hoarding(self) -> None:
        """The hoarding boxes along the four sides, coloured by their angle around
        the pitch (dm_control `_update_hoarding`)."""
        goal_height = self.goal_size[2]
        sites = iter(self._hoarding)
        for axis in (0, 1):
            depth = goal_height / 8.0
            half_height = goal_height / 2.0
            length = self._size[axis] + (2.0 * depth if axis == 1 else 0.0)
            half_size = np.full(3, half_height)
            half_size[axis] = length / _NUM_HOARDING
            half_size[1 - axis] = depth
            along = (
                np.linspace(-length, length, _NUM_HOARDING, endpoint=False) + length / _NUM_HOARDING
            )
            for sign in (-1.0, 1.0):
                across = sign * (self._size[1 - axis] + depth)
                for value in along:
                    position = np.zeros(3)
                    position[axis], position[1 - axis], position[2] = value, across, depth
                    site = next(sites)
                    site.pos = list(position)
                    site.size = list(half_size)
                    site.rgba = [*_hoarding_rgb(position, self._hoarding_color_scheme_id), 1.0]

    # Ball and outcome.

    def register_ball(self, ball: soccer_ball.SoccerBall) -> None:
        """Makes the goals (and, without a field box, the field) watch `ball`; with a
        field box, gives the ball and the boxes contact bit 7 so that they collide
        with each other and the boxes with nothing else."""
        self._home_goal.register_entities(ball)
        self._away_goal.register_entities(ball)
        if self._field_box:
            ball.geom.contype = (ball.geom.contype or 1) | FIELD_BOX_CONTACT_BIT
            for wall in self._field_box:
                wall.contype = FIELD_BOX_CONTACT_BIT
                wall.conaffinity = FIELD_BOX_CONTACT_BIT
            composer.mark_spec_changed()
        else:
            self._field.register_entities(ball)

    def detected_goal(self) -> Optional[soccer_team.Team]:
        """The team that scored: AWAY if the ball is in the home goal, HOME if it
        is in the away goal, else None."""
        if self._home_goal.detected_entities:
            return soccer_team.Team.AWAY
        if self._away_goal.detected_entities:
            return soccer_team.Team.HOME
        return None

    def detected_off_court(self) -> list[composer.Entity]:
        """The watched entities outside the field (empty with a field box)."""
        return self._field.detected_entities

    # Accessors.

    @property
    def size(self) -> Tuple[float, float]:
        """(half-length, half-width) of the pitch (m)."""
        return self._size

    @property
    def goal_size(self) -> Tuple[float, float, float]:
        """(depth, width, height) half-sizes of the goals (m)."""
        if self._goal_size is not None:
            return self._goal_size
        side = _SIDE_WIDTH_M / 2.0
        return (side, self._size[1] * _DEFAULT_GOAL_LENGTH_RATIO, side)

    @property
    def home_goal(self) -> Goal:
        return self._home_goal

    @property
    def away_goal(self) -> Goal:
        return self._away_goal

    @property
    def field(self) -> position_detector.PositionDetector:
        return self._field

    @property
    def ground_geom(self) -> mjcf.Element:
        return self._handle(self._ground_geom)

    @property
    def walls(self) -> tuple[mjcf.Element, ...]:
        return self._handles(self._walls)

    @property
    def field_box_geoms(self) -> tuple[mjcf.Element, ...]:
        return self._handles(self._field_box)

    @property
    def top_camera(self) -> mjcf.Element:
        return self._handle(self._top_camera)


def _hoarding_rgb(
    position: Sequence[float] | np.ndarray, scheme: int
) -> tuple[float, float, float]:
    x, y = position[0], position[1]
    if scheme == 0:  # Red to blue through green, blue behind the blue (home) goal.
        angle = np.pi + np.arctan2(x, -abs(y))
    elif scheme == 1:  # Red to blue through green, blue behind the red goal.
        angle = np.arctan2(x, abs(y))
    elif scheme == 2:  # Red to blue through purple, blue behind the red goal.
        angle = np.arctan2(x, -abs(y))
    else:  # Red to blue through purple, blue behind the blue goal.
        angle = np.pi + np.arctan2(x, abs(y))
    hue = (0.5 + angle / (2.0 * np.pi) - _HOARDING_HUE_OFFSET) % 1.0
    return colorsys.hsv_to_rgb(hue, _HOARDING_SATURATION, 1.0)


class RandomizedPitch(Pitch):
    """A pitch whose size is drawn between `min_size` and `max_size` every episode.

    Args: see the module docstring. Until the first episode, the pitch has
    `max_size`.

    Raises:
      ValueError: for sizes that are not positive or min_size > max_size.
      TypeError: for a randomizer that is not callable.
    """

    def _build(
        self,
        min_size: Sequence[float] | np.ndarray,
        max_size: Sequence[float] | np.ndarray,
        randomizer: Callable[..., Any] | None = None,
        keep_aspect_ratio: bool = False,
        goal_size: ArrayLike | None = None,
        field_box: bool = False,
        field_box_offset: float = 0.0,
        top_camera_distance: float = DEFAULT_TOP_CAMERA_DISTANCE_M,
        name: str = "randomized_pitch",
    ) -> None:
        low = _check_size(min_size, "min_size")
        high = _check_size(max_size, "max_size")
        if np.any(low > high):
            raise ValueError(f"min_size {tuple(min_size)} exceeds max_size {tuple(max_size)}")
        if randomizer is not None and not callable(randomizer):
            raise TypeError(f"randomizer must be callable(random_state=...), got {randomizer!r}")
        super()._build(
            size=tuple(high),
            goal_size=goal_size,
            top_camera_distance=top_camera_distance,
            field_box=field_box,
            field_box_offset=field_box_offset,
            name=name,
        )
        self._min_size = _pair(low)
        self._max_size = _pair(high)
        self._randomizer = randomizer if randomizer is not None else distributions.Uniform()
        self._keep_aspect_ratio = bool(keep_aspect_ratio)

    @property
    def min_size(self) -> Tuple[float, float]:
        return self._min_size

    @property
    def max_size(self) -> Tuple[float, float]:
        return self._max_size

    def initialize_episode_mjcf(self, random_state: np.random.RandomState) -> None:
        """Draws this episode's size and lays the pitch out for it."""
        length_ratio = self._draw_ratio(random_state)
        width_ratio = length_ratio if self._keep_aspect_ratio else self._draw_ratio(random_state)
        self.set_size(
            (
                self._min_size[0] + length_ratio * (self._max_size[0] - self._min_size[0]),
                self._min_size[1] + width_ratio * (self._max_size[1] - self._min_size[1]),
            )
        )

    def _draw_ratio(self, random_state: np.random.RandomState) -> float:
        ratio = np.asarray(self._randomizer(random_state=random_state), dtype=np.float64)
        if ratio.shape != () or not 0.0 <= ratio <= 1.0:
            raise ValueError(f"the randomizer must give one ratio in [0, 1], got {ratio!r}")
        return float(ratio)

    def set_size(self, size: Sequence[float]) -> None:
        """Lays the pitch out for `size` (half-length, half-width, m): walls, goals,
        field, ground (the field's size), field box, lights and hoarding, as
        dm_control's `RandomizedPitch` does each episode (a spec edit)."""
        self._size = _pair(_check_size(size, "size"))
        self._top_camera.fovy = _top_down_fovy(self._size, self._top_camera_distance)
        self._place_perimeter()
        for wall, (position, _) in zip(self._walls, _wall_poses(self._size)):
            wall.pos = list(position)
        goal_size = self.goal_size
        self._home_goal.resize(self._home_goal_pos(goal_size), goal_size)
        self._away_goal.resize(self._away_goal_pos(goal_size), goal_size)
        field_size = self._field_size(goal_size)
        self._field.resize((0.0, 0.0), field_size)
        self._ground_geom.size = [*field_size, max(self._size) * _GROUND_GRID_RATIO]
        boxes = _field_box_poses(field_size, goal_size)
        for wall, (position, half_size) in zip(self._field_box, boxes):
            wall.pos = list(position)
            wall.size = list(half_size)
        self._place_lights(field_size)
        self._place_hoarding()
        composer.mark_spec_changed()

    def snapshot_state(self) -> dict[str, Any]:
        """The drawn size (picklable), for `composer.Environment.snapshot`."""
        return dict(size=self._size)

    def restore_state(self, state: Mapping[str, Any]) -> None:
        """Lays the pitch out for a `snapshot_state()`'s size. The restored
        environment's model already has that layout; this keeps the Python side
        (goal and field regions) in step with it."""
        self.set_size(state["size"])
