"""Parkour courses of Heess et al. 2017 ("Emergence of Locomotion Behaviours in Rich
Environments", arXiv:1707.02286, §3.1): hurdles, gaps, variable terrain, slalom
walls and hovering platforms, laid out anew every episode.

A course runs along +x. Walkers spawn at the origin, in a free flat region
(`spawn_region`); after it come segments of obstacles up to `course_length`,
then a flat run-out. Each segment has one obstacle type and a length drawn from
its own range; every obstacle parameter is drawn from the range the user gave:

    course = ParkourCourse(segments=[Hurdles(height=(0.2, 0.6)), Gaps()],
                           mode="mixed", curriculum=True)

Modes: "mixed" draws each segment's type independently (single-type courses are
those given one segment type), "per_episode" draws one type per episode for the
whole course (a per-episode mixture). With `curriculum=True` the difficulty of
every obstacle grows with its distance along the track: its parameter is drawn
from a window of the range that slides from the easy end (at the start of the
obstacles) to the hard end (at `course_length`).

Frames and units: world frame, metres; the ground is at z = 0, the track's
centre line is y = 0, its walls at y = +-track_width / 2.

Speed: the course never changes the spec. The ground is a heightfield of fixed
resolution (gaps are trenches `pit_depth` deep, terrain features are written
into it) and hurdles, walls and platforms come from fixed pools of boxes
(`pools.py`); `initialize_episode` writes a new course into the compiled model.
"""

import dataclasses

import mujoco
import numpy as np

from composer_tasks import composer
from composer_tasks.arenas import pools
from composer_tasks.arenas import style

# Geom groups, also the `geomgroup` masks for `mujoco.mj_ray`: the ground and
# obstacles standing on it, then the hovering platforms, then the side walls.
GROUND_GEOM_GROUP = 0
PLATFORM_GEOM_GROUP = 1
SIDE_WALL_GEOM_GROUP = 3

_BACK_PADDING_M = 2.0
_END_PADDING_M = 4.0
_SIDE_WALL_HEIGHT_M = 4.0
_MIN_ELEVATION_M = 0.1
_HURDLE_RGBA = (0.85, 0.45, 0.2, 1.0)
_WALL_RGBA = (0.8, 0.8, 0.85, 1.0)
_PLATFORM_RGBA = (0.3, 0.55, 0.8, 1.0)


def _as_range(value, name, minimum=0.0, strict=True):
    """(low, high) from a number or a pair; both above (or at) `minimum`."""
    if isinstance(value, (int, float, np.integer, np.floating)):
        low = high = float(value)
    else:
        try:
            low, high = (float(v) for v in value)
        except (TypeError, ValueError):
            raise ValueError(
                f"{name} must be a number or a (low, high) pair, got {value!r}") from None
    if not (np.isfinite(low) and np.isfinite(high)) or low > high:
        raise ValueError(f"{name} must be finite with low <= high, got {value!r}")
    if (low <= minimum) if strict else (low < minimum):
        relation = ">" if strict else ">="
        raise ValueError(f"{name} must be {relation} {minimum} metres, got {value!r}")
    return low, high


@dataclasses.dataclass
class Obstacle:
    """One obstacle of a course, for statistics and tests.

    kind: "hurdle", "gap", "terrain", "slalom_wall", "platform" or "crouch_platform".
    x_start, x_end: its extent along the track, metres.
    parameters: what was drawn (heights, lengths, ... in metres; "terrain" has "feature").
    difficulty: where the main parameter lies in its range, 0 (easiest) to 1 (hardest).
    """
    kind: str
    x_start: float
    x_end: float
    parameters: dict
    difficulty: float


@dataclasses.dataclass
class CourseSegment:
    """One segment of a course: its type's name and extent along the track (m)."""
    kind: str
    x_start: float
    x_end: float


@dataclasses.dataclass
class Course:
    """The layout of one episode: segments and obstacles in track order."""
    segments: list
    obstacles: list

    def of_kind(self, kind):
        return [obstacle for obstacle in self.obstacles if obstacle.kind == kind]


class _Builder:
    """Collects one episode's course: heightfield samples, boxes and records."""

    def __init__(self, course, random_state):
        self.course = course
        self.random_state = random_state
        grid = course.heightfield
        self.x = grid.x_coords
        self.y = grid.y_coords
        self.dx = grid.spacing[0]
        self.heights = np.zeros(grid.shape)
        self.ground_boxes = []
        self.platform_boxes = []
        self.obstacles = []

    def sample(self, bounds, x, harder="high"):
        """(value, difficulty) of a parameter with range `bounds` at track position x."""
        low, high = bounds
        course = self.course
        uniform = self.random_state.uniform()
        if course.curriculum:
            progress = min(max((x - course.obstacles_start) /
                               (course.course_length - course.obstacles_start), 0.0), 1.0)
            band = course.curriculum_band
            difficulty = progress * (1.0 - band) + band * uniform
        else:
            difficulty = uniform
        fraction = difficulty if harder == "high" else 1.0 - difficulty
        return low + fraction * (high - low), float(difficulty)

    def uniform(self, bounds):
        return self.random_state.uniform(bounds[0], bounds[1])

    def add_box(self, boxes, x0, x1, y0, y1, z0, z1):
        boxes.append(((x0 + x1) / 2, (y0 + y1) / 2, (z0 + z1) / 2,
                      (x1 - x0) / 2, (y1 - y0) / 2, (z1 - z0) / 2))

    def record(self, kind, x_start, x_end, difficulty, **parameters):
        self.obstacles.append(Obstacle(kind, float(x_start), float(x_end), parameters,
                                       difficulty))

    def columns(self, x_start, x_end):
        """Indices of the samples with x_start <= x <= x_end."""
        first = int(np.ceil((x_start - self.x[0]) / self.dx - 1e-9))
        last = int(np.floor((x_end - self.x[0]) / self.dx + 1e-9))
        return np.arange(max(first, 0), min(last, len(self.x) - 1) + 1)


class Segment:
    """Base of the segment types: a stretch of track of one kind of obstacle.

    Args:
      length: (low, high) length of a segment along the track, metres.
    """

    kind = "segment"

    def __init__(self, length=(8.0, 12.0)):
        self.length = _as_range(length, f"{type(self).__name__}.length")

    def max_ground_boxes_per_m(self):
        """Upper bound on hurdles/walls per metre of segment (sizes the pool)."""
        return 0.0

    def max_platforms_per_m(self):
        return 0.0

    def max_height(self):
        """Highest heightfield surface this segment writes, metres."""
        return 0.0

    def validate(self, course):
        """Raises ValueError if the segment cannot be laid on `course`."""

    def lay_out(self, builder, x_start, x_end):
        raise NotImplementedError

    def __repr__(self):
        fields = ", ".join(f"{k}={v!r}" for k, v in vars(self).items())
        return f"{type(self).__name__}({fields})"


class Hurdles(Segment):
    """Hurdles across the whole track: boxes of variable height and width.

    Args:
      height: (low, high) metres; higher is harder.
      width: (low, high) extent along the track, metres; wider is harder.
      spacing: (low, high) free ground between hurdles, metres.
      length: (low, high) segment length, metres.
    """

    kind = "hurdles"

    def __init__(self, height=(0.1, 0.5), width=(0.1, 0.4), spacing=(2.0, 4.0),
                 length=(8.0, 12.0)):
        super().__init__(length)
        self.height = _as_range(height, "Hurdles.height")
        self.width = _as_range(width, "Hurdles.width")
        self.spacing = _as_range(spacing, "Hurdles.spacing")

    def max_ground_boxes_per_m(self):
        return 1.0 / (self.width[0] + self.spacing[0])

    def lay_out(self, builder, x_start, x_end):
        half_width = builder.course.track_width / 2
        x = x_start + builder.uniform(self.spacing)
        while True:
            width, width_difficulty = builder.sample(self.width, x)
            if x + width > x_end:
                return
            height, difficulty = builder.sample(self.height, x)
            builder.add_box(builder.ground_boxes, x, x + width, -half_width, half_width, 0.0,
                            height)
            builder.record("hurdle", x, x + width, difficulty, height=height, width=width,
                           width_difficulty=width_difficulty)
            x += width + builder.uniform(self.spacing)


class Gaps(Segment):
    """Gaps across the track: trenches `pit_depth` deep in the heightfield.

    Gap edges lie on heightfield samples, so a gap's length is a whole number of
    samples; it is drawn from `gap` and rounded to the nearest one inside `gap`.

    Args:
      gap: (low, high) gap length along the track, metres; longer is harder.
        At least two heightfield samples (2 x resolution).
      platform: (low, high) solid ground between gaps, metres.
      length: (low, high) segment length, metres.
    """

    kind = "gaps"

    def __init__(self, gap=(0.3, 1.2), platform=(1.5, 3.0), length=(8.0, 12.0)):
        super().__init__(length)
        self.gap = _as_range(gap, "Gaps.gap")
        self.platform = _as_range(platform, "Gaps.platform")

    def validate(self, course):
        dx = course.heightfield.spacing[0]
        low = int(np.ceil(self.gap[0] / dx - 1e-9))
        high = int(np.floor(self.gap[1] / dx + 1e-9))
        if low < 2 or low > high:
            raise ValueError(
                f"Gaps.gap={self.gap!r} must hold a whole number of at least 2 heightfield "
                f"samples of {dx:.4g} m; widen it or refine the course's resolution")

    def lay_out(self, builder, x_start, x_end):
        dx = builder.dx
        low = int(np.ceil(self.gap[0] / dx - 1e-9))
        high = int(np.floor(self.gap[1] / dx + 1e-9))
        pit = -builder.course.pit_depth
        x = x_start + builder.uniform(self.platform)
        while True:
            gap, difficulty = builder.sample(self.gap, x)
            samples = min(max(int(round(gap / dx)), low), high)
            first = int(np.ceil((x - builder.x[0]) / dx - 1e-9))
            if first + samples >= len(builder.x):
                return
            gap_start, gap_end = builder.x[first], builder.x[first + samples]
            if gap_end > x_end:
                return
            # The samples strictly between the edges drop; the edges stay at ground
            # level, so the opening at ground level is exactly `samples` spacings.
            builder.heights[:, first + 1:first + samples] = pit
            builder.record("gap", gap_start, gap_end, difficulty, length=samples * dx)
            x = gap_end + builder.uniform(self.platform)


class Terrain(Segment):
    """Variable terrain written into the heightfield: hills, ramps and rubble.

    The segment is a run of features, each of a kind drawn from `kinds`:
      "hills": a smooth bump (raised cosine) across the track;
      "ramps": up a slope, along a plateau, down a slope, each a third of the feature;
      "rubble": square blocks of random height (up to the drawn height), varying
        along and across the track.

    Args:
      kinds: a subset of ("hills", "ramps", "rubble").
      height: (low, high) feature height, metres; higher is harder.
      feature_length: (low, high) length of one feature along the track, metres.
      rubble_size: (low, high) side of a rubble block, metres.
      length: (low, high) segment length, metres.
    """

    kind = "terrain"
    _KINDS = ("hills", "ramps", "rubble")

    def __init__(self, kinds=("hills", "ramps", "rubble"), height=(0.1, 0.5),
                 feature_length=(2.0, 5.0), rubble_size=(0.2, 0.5), length=(8.0, 12.0)):
        super().__init__(length)
        kinds = (kinds,) if isinstance(kinds, str) else tuple(kinds)
        unknown = [kind for kind in kinds if kind not in self._KINDS]
        if not kinds or unknown:
            raise ValueError(f"Terrain.kinds must be a non-empty subset of {self._KINDS}, "
                             f"got {kinds!r}")
        self.kinds = kinds
        self.height = _as_range(height, "Terrain.height")
        self.feature_length = _as_range(feature_length, "Terrain.feature_length")
        self.rubble_size = _as_range(rubble_size, "Terrain.rubble_size")

    def max_height(self):
        return self.height[1]

    def lay_out(self, builder, x_start, x_end):
        random_state = builder.random_state
        x = x_start
        while x_end - x >= self.feature_length[0]:
            kind = self.kinds[random_state.randint(len(self.kinds))]
            end = min(x + builder.uniform(self.feature_length), x_end)
            height, difficulty = builder.sample(self.height, x)
            # Only samples strictly inside the feature change, so the ground at its
            # ends (and at the spawn region's edge) stays flat.
            columns = builder.columns(x + 1e-6, end - 1e-6)
            along = (builder.x[columns] - x) / (end - x)
            if kind == "hills":
                builder.heights[:, columns] = height * 0.5 * (1.0 - np.cos(2 * np.pi * along))
            elif kind == "ramps":
                profile = np.clip(np.minimum(along, 1.0 - along) * 3.0, 0.0, 1.0)
                builder.heights[:, columns] = height * profile
            else:
                size = builder.uniform(self.rubble_size)
                block_x = np.floor((builder.x[columns] - x) / size).astype(int)
                block_y = np.floor((builder.y - builder.y[0]) / size).astype(int)
                blocks = random_state.uniform(0.0, height,
                                              size=(block_y.max() + 1, block_x.max() + 1))
                builder.heights[:, columns] = blocks[np.ix_(block_y, block_x)]
            builder.record("terrain", x, end, difficulty, feature=kind, height=height)
            x = end


class SlalomWalls(Segment):
    """Walls from alternate sides of the track, leaving an opening to run through.

    For 3-D walkers (a planar walker cannot go around them).

    Args:
      opening: (low, high) free width beside each wall, metres; narrower is harder.
        Must stay below the track width.
      spacing: (low, high) distance between consecutive walls along the track, metres.
      height: (low, high) wall height, metres.
      thickness: wall thickness along the track, metres.
      length: (low, high) segment length, metres.
    """

    kind = "slalom_walls"

    def __init__(self, opening=(1.0, 3.0), spacing=(3.0, 5.0), height=(1.5, 2.5),
                 thickness=0.2, length=(8.0, 12.0)):
        super().__init__(length)
        self.opening = _as_range(opening, "SlalomWalls.opening")
        self.spacing = _as_range(spacing, "SlalomWalls.spacing")
        self.height = _as_range(height, "SlalomWalls.height")
        if not thickness > 0:
            raise ValueError(f"SlalomWalls.thickness must be positive metres, got {thickness!r}")
        self.thickness = float(thickness)

    def max_ground_boxes_per_m(self):
        return 1.0 / (self.thickness + self.spacing[0])

    def validate(self, course):
        if self.opening[1] >= course.track_width:
            raise ValueError(f"SlalomWalls.opening={self.opening!r} must stay below the "
                             f"track width {course.track_width} m")

    def lay_out(self, builder, x_start, x_end):
        track_width = builder.course.track_width
        x = x_start + builder.uniform(self.spacing)
        side = 1.0 if builder.random_state.uniform() < 0.5 else -1.0
        while x + self.thickness <= x_end:
            opening, difficulty = builder.sample(self.opening, x, harder="low")
            height = builder.uniform(self.height)
            # The wall stands against side `side` (+1: +y) and leaves `opening` free
            # against the other.
            if side > 0:
                y0, y1 = -track_width / 2 + opening, track_width / 2
            else:
                y0, y1 = -track_width / 2, track_width / 2 - opening
            builder.add_box(builder.ground_boxes, x, x + self.thickness, y0, y1, 0.0, height)
            builder.record("slalom_wall", x, x + self.thickness, difficulty, opening=opening,
                           height=height, side=side)
            side = -side
            x += self.thickness + builder.uniform(self.spacing)


class _HoveringPlatforms(Segment):
    """Hovering boxes across the whole track."""

    def __init__(self, platform_length, thickness, spacing, length):
        super().__init__(length)
        self.platform_length = _as_range(platform_length,
                                         f"{type(self).__name__}.platform_length")
        if not thickness > 0:
            raise ValueError(f"{type(self).__name__}.thickness must be positive metres, "
                             f"got {thickness!r}")
        self.thickness = float(thickness)
        self.spacing = _as_range(spacing, f"{type(self).__name__}.spacing")

    def max_platforms_per_m(self):
        return 1.0 / (self.platform_length[0] + self.spacing[0])

    def _bottom_and_record(self, builder, x):
        raise NotImplementedError

    def lay_out(self, builder, x_start, x_end):
        half_width = builder.course.track_width / 2
        x = x_start + builder.uniform(self.spacing)
        while True:
            platform_length = builder.uniform(self.platform_length)
            if x + platform_length > x_end:
                return
            bottom, difficulty, parameters = self._bottom_and_record(builder, x)
            builder.add_box(builder.platform_boxes, x, x + platform_length, -half_width,
                            half_width, bottom, bottom + self.thickness)
            builder.record(self.obstacle_kind, x, x + platform_length, difficulty,
                           platform_length=platform_length, bottom=bottom,
                           top=bottom + self.thickness, **parameters)
            x += platform_length + builder.uniform(self.spacing)


class JumpPlatforms(_HoveringPlatforms):
    """Hovering platforms to jump onto.

    Args:
      height: (low, high) height of the top surface, metres; higher is harder.
        Must exceed `thickness` (the platform hovers).
      platform_length: (low, high) metres along the track.
      thickness: metres.
      spacing: (low, high) ground between platforms, metres.
      length: (low, high) segment length, metres.
    """

    kind = "jump_platforms"
    obstacle_kind = "platform"

    def __init__(self, height=(0.3, 0.7), platform_length=(1.5, 3.0), thickness=0.2,
                 spacing=(2.0, 4.0), length=(8.0, 12.0)):
        super().__init__(platform_length, thickness, spacing, length)
        self.height = _as_range(height, "JumpPlatforms.height", minimum=self.thickness)

    def _bottom_and_record(self, builder, x):
        top, difficulty = builder.sample(self.height, x)
        return top - self.thickness, difficulty, {"height": top}


class CrouchPlatforms(_HoveringPlatforms):
    """Hovering platforms to crouch under.

    Args:
      clearance: (low, high) height of the bottom surface above the ground,
        metres; lower is harder.
      platform_length: (low, high) metres along the track.
      thickness: metres.
      spacing: (low, high) ground between platforms, metres.
      length: (low, high) segment length, metres.
    """

    kind = "crouch_platforms"
    obstacle_kind = "crouch_platform"

    def __init__(self, clearance=(0.9, 1.3), platform_length=(1.0, 2.5), thickness=0.3,
                 spacing=(2.0, 4.0), length=(8.0, 12.0)):
        super().__init__(platform_length, thickness, spacing, length)
        self.clearance = _as_range(clearance, "CrouchPlatforms.clearance")

    def _bottom_and_record(self, builder, x):
        clearance, difficulty = builder.sample(self.clearance, x, harder="low")
        return clearance, difficulty, {"clearance": clearance}


_MODES = ("mixed", "per_episode")


class ParkourCourse(composer.Arena):
    """A random obstacle course along +x (see the module docstring).

    Args:
      segments: segment types (instances of `Hurdles`, `Gaps`, `Terrain`,
        `SlalomWalls`, `JumpPlatforms`, `CrouchPlatforms`); default `Hurdles()`.
      mode: "mixed" (a type per segment) or "per_episode" (one type per course).
      segment_weights: optional probabilities of the types (default equal).
      curriculum: make obstacles harder along the track.
      curriculum_band: width of the sliding window of the range, as a fraction (0, 1].
      course_length: where the obstacles end, metres along +x.
      spawn_length: length of the free flat region after the spawn point (x = 0), metres.
      track_width: metres across (the heightfield and the side walls).
      side_walls: bound the track by planes at y = +-track_width / 2.
      visible_side_walls: draw them (half transparent).
      resolution: largest heightfield sample spacing, metres.
      pit_depth: depth of gaps below the ground, metres.
      name: the arena's name.
    """

    def _build(self, segments=None, mode="mixed", segment_weights=None,
               curriculum=False, curriculum_band=0.25, course_length=60.0, spawn_length=4.0,
               track_width=8.0, side_walls=True, visible_side_walls=False, resolution=0.1,
               pit_depth=2.0, name="parkour"):
        if segments is None:
            segments = (Hurdles(),)
        segments = (segments,) if isinstance(segments, Segment) else tuple(segments)
        if not segments or not all(isinstance(s, Segment) for s in segments):
            raise TypeError(f"segments must be Segment instances (Hurdles(), Gaps(), ...), "
                            f"got {segments!r}")
        if mode not in _MODES:
            raise ValueError(f"mode must be one of {_MODES}, got {mode!r}")
        if segment_weights is None:
            weights = np.full(len(segments), 1.0 / len(segments))
        else:
            weights = np.asarray(segment_weights, dtype=np.float64)
            if weights.shape != (len(segments),) or np.any(weights < 0) or weights.sum() <= 0:
                raise ValueError(f"segment_weights must be {len(segments)} non-negative numbers "
                                 f"with a positive sum, got {segment_weights!r}")
            weights = weights / weights.sum()
        if not 0 < curriculum_band <= 1:
            raise ValueError(f"curriculum_band must be in (0, 1], got {curriculum_band!r}")
        for label, value in (("track_width", track_width), ("resolution", resolution),
                             ("pit_depth", pit_depth)):
            if not value > 0:
                raise ValueError(f"{label} must be positive metres, got {value!r}")
        if not spawn_length >= 0:
            raise ValueError(f"spawn_length must be >= 0 metres, got {spawn_length!r}")
        if not course_length > spawn_length:
            raise ValueError(f"course_length must exceed spawn_length ({spawn_length} m), "
                             f"got {course_length!r}")
        self._segments = segments
        self._mode = mode
        self._weights = weights
        self.curriculum = bool(curriculum)
        self.curriculum_band = float(curriculum_band)
        self.course_length = float(course_length)
        self.obstacles_start = float(spawn_length)
        self.track_width = float(track_width)
        self.pit_depth = float(pit_depth)

        spec = mujoco.MjSpec()
        spec.modelname = name
        spec.visual.map.znear = 0.0005
        style.add_sky_and_light(spec, light_height_m=8.0,
                                light_position_xy=(self.course_length / 2, 0.0))
        style.add_checker_material(
            spec, "parkour_ground", rgb1=[0.2, 0.3, 0.4], rgb2=[0.1, 0.2, 0.3],
            texrepeat=[1.0, 1.0], mark_rgb=[0.8, 0.8, 0.8], reflectance=0.0)
        x_range = (-_BACK_PADDING_M, self.course_length + _END_PADDING_M)
        half_width = self.track_width / 2
        max_height = max([_MIN_ELEVATION_M] + [s.max_height() for s in segments])
        self.heightfield = pools.HeightfieldGrid(
            spec, "terrain", x_range, (-half_width, half_width), resolution,
            min_height=-self.pit_depth, max_height=max_height, material="parkour_ground")
        for segment in segments:
            segment.validate(self)

        # Pools sized for the densest course the ranges allow: every segment adds at
        # most one obstacle beyond its length times its type's densest rate.
        track = self.course_length - self.obstacles_start
        max_segments = int(np.ceil(track / min(s.length[0] for s in segments))) + 1
        ground_capacity = int(np.ceil(track * max(s.max_ground_boxes_per_m() for s in segments)))
        platform_capacity = int(np.ceil(track * max(s.max_platforms_per_m() for s in segments)))
        self._ground_boxes = pools.BoxPool(
            spec.worldbody, "obstacle", ground_capacity + max_segments if ground_capacity else 0,
            rgba=_HURDLE_RGBA, group=GROUND_GEOM_GROUP)
        self._platforms = pools.BoxPool(
            spec.worldbody, "platform",
            platform_capacity + max_segments if platform_capacity else 0,
            rgba=_PLATFORM_RGBA, group=PLATFORM_GEOM_GROUP)

        # Beyond the heightfield (and at the bottom of the pits) a floor catches falls.
        floor_body = spec.worldbody.add_body(name="pit_floor_body",
                                             pos=[self.course_length / 2, 0.0, -self.pit_depth])
        self._pit_floor = floor_body.add_geom(
            name="pit_floor", type=mujoco.mjtGeom.mjGEOM_PLANE,
            size=[self.course_length, 4 * half_width, 1.0], rgba=[0.15, 0.15, 0.2, 1.0],
            group=GROUND_GEOM_GROUP)
        self._side_walls = ()
        if side_walls:
            alpha = 0.3 if visible_side_walls else 0.0
            centre_x = (x_range[0] + x_range[1]) / 2
            half_length = (x_range[1] - x_range[0]) / 2
            walls = []
            for label, position, xyaxes, size in (
                    ("left_wall", [centre_x, half_width, 0.0], [1, 0, 0, 0, 0, 1],
                     [half_length, _SIDE_WALL_HEIGHT_M, 1.0]),
                    ("right_wall", [centre_x, -half_width, 0.0], [-1, 0, 0, 0, 0, 1],
                     [half_length, _SIDE_WALL_HEIGHT_M, 1.0]),
                    ("near_wall", [x_range[0], 0.0, 0.0], [0, 1, 0, 0, 0, 1],
                     [half_width, _SIDE_WALL_HEIGHT_M, 1.0]),
                    ("far_wall", [x_range[1], 0.0, 0.0], [0, -1, 0, 0, 0, 1],
                     [half_width, _SIDE_WALL_HEIGHT_M, 1.0])):
                body = spec.worldbody.add_body(name=f"{label}_body", pos=position)
                walls.append(body.add_geom(
                    name=label, type=mujoco.mjtGeom.mjGEOM_PLANE, xyaxes=xyaxes, size=size,
                    rgba=[0.8, 0.3, 0.3, alpha], group=SIDE_WALL_GEOM_GROUP))
            self._side_walls = tuple(walls)
        self._spec = spec
        self._course = None
        self._pending = None

    # Layout.

    def regenerate(self, random_state):
        """Draws the next episode's course (written by `initialize_episode`); returns it."""
        builder = _Builder(self, random_state)
        segments = []
        if self._mode == "per_episode":
            episode_type = self._segments[random_state.choice(len(self._segments),
                                                              p=self._weights)]
        x = self.obstacles_start
        while x < self.course_length:
            segment = episode_type if self._mode == "per_episode" else self._segments[
                random_state.choice(len(self._segments), p=self._weights)]
            end = min(x + builder.uniform(segment.length), self.course_length)
            segment.lay_out(builder, x, end)
            segments.append(CourseSegment(segment.kind, x, end))
            x = end
        self._pending = (builder, Course(segments, builder.obstacles))
        return self._pending[1]

    def initialize_episode(self, physics, random_state):
        """Writes this episode's course into the model (drawing it unless a task did)."""
        if self._pending is None:
            self.regenerate(random_state)
        builder, course = self._pending
        self._pending = None
        self.heightfield.write(physics, builder.heights)
        for pool, boxes in ((self._ground_boxes, builder.ground_boxes),
                            (self._platforms, builder.platform_boxes)):
            boxes = np.asarray(boxes, dtype=np.float64).reshape(-1, 6)
            pool.write(physics, boxes[:, :3], boxes[:, 3:])
        self._course = course

    def after_compile(self, physics, random_state):
        # The compiler normalises the heightfield's initial samples, which would put
        # the flat ground at the pits' depth until the first episode writes it.
        del random_state
        self.heightfield.write(physics, np.zeros(self.heightfield.shape))

    # Properties.

    @property
    def course(self):
        """This episode's `Course` (None before the first episode)."""
        return self._course

    @property
    def segment_types(self):
        return self._segments

    @property
    def ground_geoms(self):
        """Geoms a walker stands on: heightfield, pit floor, obstacle and platform boxes."""
        return ((self.heightfield.geom, self._pit_floor) + self._ground_boxes.geoms
                + self._platforms.geoms)

    @property
    def obstacle_geoms(self):
        """The pool of hurdles and slalom walls (unused ones are parked far below)."""
        return self._ground_boxes.geoms

    @property
    def platforms(self):
        """The pool of hovering platforms (unused ones are parked far below)."""
        return self._platforms.geoms

    @property
    def side_walls(self):
        return self._side_walls

    @property
    def spawn_region(self):
        """((x_min, x_max), (y_min, y_max)) of the free flat region, metres."""
        half_width = self.track_width / 2
        return (-_BACK_PADDING_M, self.obstacles_start), (-half_width, half_width)

    def spawn_position(self, random_state=None):
        """Where walkers start: (3,) world frame, on the ground at the origin."""
        del random_state
        return np.zeros(3)

    def terrain_height(self, physics, xy_points):
        """Height (n,) of the ground at world points `xy_points` (n, 2), metres.

        The heightfield (gaps are `-pit_depth`), raised to the top of any hurdle or
        slalom wall standing there; `-pit_depth` beyond the heightfield.
        """
        xy_points = np.asarray(xy_points, dtype=np.float64).reshape(-1, 2)
        ground = self.heightfield.height_at(physics, xy_points)
        ground = np.where(np.isnan(ground), -self.pit_depth, ground)
        centers, half_sizes = self._ground_boxes.active_boxes(physics)
        tops = pools.box_tops_at(xy_points, centers, half_sizes)
        return np.where(np.isnan(tops), ground, np.maximum(ground, tops))

    def platform_height(self, physics, xy_points, surface="top"):
        """Height (n,) of the hovering platform above `xy_points` (n, 2), nan where none.

        surface: "top" (what a walker lands on) or "bottom" (what it crouches under).
        """
        if surface not in ("top", "bottom"):
            raise ValueError(f"surface must be 'top' or 'bottom', got {surface!r}")
        centers, half_sizes = self._platforms.active_boxes(physics)
        if surface == "top":
            return pools.box_tops_at(xy_points, centers, half_sizes)
        return pools.box_bottoms_at(xy_points, centers, half_sizes)
