"""Parkour segment generators: the obstacle types of Heess et al. 2017 ("Emergence
of Locomotion Behaviours in Rich Environments", arXiv:1707.02286, §3.1), each a
`Segment` that lays one stretch of track out, apart from the arena entity
(`parkour.ParkourCourse`) that owns the model and writes the layout into it.

A segment draws its obstacles from the ranges the user gave and writes them
into a `LayoutBuilder`: heightfield samples (gaps, terrain), boxes standing on
the ground (hurdles, slalom walls), hovering boxes (platforms) and see-saws,
plus an `Obstacle` record per obstacle. The course collects one `Course` per
episode. With a curriculum, `LayoutBuilder.sample` draws each parameter from a
window of its range that slides from the easy to the hard end along the track.

Frames and units: world frame, metres; the ground is at z = 0, the track's
centre line is y = 0.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from composer_tasks.arenas.parkour import ParkourCourse

# A parameter's range: a number (a fixed value) or a (low, high) pair.
NumberOrRange = float | Sequence[float]


def _as_range(
    value: NumberOrRange, name: str, minimum: float = 0.0, strict: bool = True
) -> tuple[float, float]:
    """(low, high) from a number or a pair; both above (or at) `minimum`."""
    if isinstance(value, (int, float, np.integer, np.floating)):
        low = high = float(value)
    else:
        try:
            low, high = (float(v) for v in value)
        except (TypeError, ValueError):
            raise ValueError(
                f"{name} must be a number or a (low, high) pair, got {value!r}"
            ) from None
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
    parameters: dict[str, Any]
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

    segments: list[CourseSegment]
    obstacles: list[Obstacle]

    def of_kind(self, kind: str) -> list[Obstacle]:
        return [obstacle for obstacle in self.obstacles if obstacle.kind == kind]


class LayoutBuilder:
    """Collects one episode's course: heightfield samples, boxes and records."""

    def __init__(self, course: ParkourCourse, random_state: np.random.RandomState):
        self.course = course
        self.random_state = random_state
        grid = course.heightfield
        self.x = grid.x_coords
        self.y = grid.y_coords
        self.dx = grid.spacing[0]
        self.heights = np.zeros(grid.shape)
        # Boxes as (centre x, y, z, half-size x, y, z), metres.
        self.ground_boxes: list[tuple[float, ...]] = []
        self.platform_boxes: list[tuple[float, ...]] = []
        self.seesaw_centers: list[float] = []
        self.obstacles: list[Obstacle] = []

    def sample(
        self, bounds: Sequence[float], x: float, harder: str = "high"
    ) -> tuple[float, float]:
        """(value, difficulty) of a parameter with range `bounds` at track position x."""
        low, high = bounds
        course = self.course
        uniform = self.random_state.uniform()
        if course.curriculum:
            progress = min(
                max(
                    (x - course.obstacles_start) / (course.course_length - course.obstacles_start),
                    0.0,
                ),
                1.0,
            )
            band = course.curriculum_band
            difficulty = progress * (1.0 - band) + band * uniform
        else:
            difficulty = uniform
        fraction = difficulty if harder == "high" else 1.0 - difficulty
        return low + fraction * (high - low), float(difficulty)

    def uniform(self, bounds: Sequence[float]) -> float:
        return self.random_state.uniform(bounds[0], bounds[1])

    def add_box(
        self,
        boxes: list[tuple[float, ...]],
        x0: float,
        x1: float,
        y0: float,
        y1: float,
        z0: float,
        z1: float,
    ) -> None:
        boxes.append(
            (
                (x0 + x1) / 2,
                (y0 + y1) / 2,
                (z0 + z1) / 2,
                (x1 - x0) / 2,
                (y1 - y0) / 2,
                (z1 - z0) / 2,
            )
        )

    def record(
        self, kind: str, x_start: float, x_end: float, difficulty: float, **parameters: Any
    ) -> None:
        self.obstacles.append(Obstacle(kind, float(x_start), float(x_end), parameters, difficulty))

    def columns(self, x_start: float, x_end: float) -> np.ndarray:
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

    def __init__(self, length: NumberOrRange = (8.0, 12.0)):
        self.length = _as_range(length, f"{type(self).__name__}.length")

    def max_ground_boxes_per_m(self) -> float:
        """Upper bound on hurdles/walls per metre of segment (sizes the pool)."""
        return 0.0

    def max_platforms_per_m(self) -> float:
        return 0.0

    def max_seesaws_per_m(self) -> float:
        return 0.0

    def max_height(self) -> float:
        """Highest heightfield surface this segment writes, metres."""
        return 0.0

    def validate(self, course: ParkourCourse) -> None:
        """Raises ValueError if the segment cannot be laid on `course`."""

    def lay_out(self, builder: LayoutBuilder, x_start: float, x_end: float) -> None:
        raise NotImplementedError

    def __repr__(self) -> str:
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

    def __init__(
        self,
        height: NumberOrRange = (0.1, 0.5),
        width: NumberOrRange = (0.1, 0.4),
        spacing: NumberOrRange = (2.0, 4.0),
        length: NumberOrRange = (8.0, 12.0),
    ):
        super().__init__(length)
        self.height = _as_range(height, "Hurdles.height")
        self.width = _as_range(width, "Hurdles.width")
        self.spacing = _as_range(spacing, "Hurdles.spacing")

    def max_ground_boxes_per_m(self) -> float:
        return 1.0 / (self.width[0] + self.spacing[0])

    def lay_out(self, builder: LayoutBuilder, x_start: float, x_end: float) -> None:
        half_width = builder.course.track_width / 2
        x = x_start + builder.uniform(self.spacing)
        while True:
            width, width_difficulty = builder.sample(self.width, x)
            if x + width > x_end:
                return
            height, difficulty = builder.sample(self.height, x)
            builder.add_box(
                builder.ground_boxes, x, x + width, -half_width, half_width, 0.0, height
            )
            builder.record(
                "hurdle",
                x,
                x + width,
                difficulty,
                height=height,
                width=width,
                width_difficulty=width_difficulty,
            )
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

    def __init__(
        self,
        gap: NumberOrRange = (0.3, 1.2),
        platform: NumberOrRange = (1.5, 3.0),
        length: NumberOrRange = (8.0, 12.0),
    ):
        super().__init__(length)
        self.gap = _as_range(gap, "Gaps.gap")
        self.platform = _as_range(platform, "Gaps.platform")

    def validate(self, course: ParkourCourse) -> None:
        dx = course.heightfield.spacing[0]
        low = int(np.ceil(self.gap[0] / dx - 1e-9))
        high = int(np.floor(self.gap[1] / dx + 1e-9))
        if low < 2 or low > high:
            raise ValueError(
                f"Gaps.gap={self.gap!r} must hold a whole number of at least 2 heightfield "
                f"samples of {dx:.4g} m; widen it or refine the course's resolution"
            )

    def lay_out(self, builder: LayoutBuilder, x_start: float, x_end: float) -> None:
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
            builder.heights[:, first + 1 : first + samples] = pit
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

    def __init__(
        self,
        kinds: str | Sequence[str] = ("hills", "ramps", "rubble"),
        height: NumberOrRange = (0.1, 0.5),
        feature_length: NumberOrRange = (2.0, 5.0),
        rubble_size: NumberOrRange = (0.2, 0.5),
        length: NumberOrRange = (8.0, 12.0),
    ):
        super().__init__(length)
        kinds = (kinds,) if isinstance(kinds, str) else tuple(kinds)
        unknown = [kind for kind in kinds if kind not in self._KINDS]
        if not kinds or unknown:
            raise ValueError(
                f"Terrain.kinds must be a non-empty subset of {self._KINDS}, got {kinds!r}"
            )
        self.kinds = kinds
        self.height = _as_range(height, "Terrain.height")
        self.feature_length = _as_range(feature_length, "Terrain.feature_length")
        self.rubble_size = _as_range(rubble_size, "Terrain.rubble_size")

    def max_height(self) -> float:
        return self.height[1]

    def lay_out(self, builder: LayoutBuilder, x_start: float, x_end: float) -> None:
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
                blocks = random_state.uniform(
                    0.0, height, size=(block_y.max() + 1, block_x.max() + 1)
                )
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

    def __init__(
        self,
        opening: NumberOrRange = (1.0, 3.0),
        spacing: NumberOrRange = (3.0, 5.0),
        height: NumberOrRange = (1.5, 2.5),
        thickness: float = 0.2,
        length: NumberOrRange = (8.0, 12.0),
    ):
        super().__init__(length)
        self.opening = _as_range(opening, "SlalomWalls.opening")
        self.spacing = _as_range(spacing, "SlalomWalls.spacing")
        self.height = _as_range(height, "SlalomWalls.height")
        if not thickness > 0:
            raise ValueError(f"SlalomWalls.thickness must be positive metres, got {thickness!r}")
        self.thickness = float(thickness)

    def max_ground_boxes_per_m(self) -> float:
        return 1.0 / (self.thickness + self.spacing[0])

    def validate(self, course: ParkourCourse) -> None:
        if self.opening[1] >= course.track_width:
            raise ValueError(
                f"SlalomWalls.opening={self.opening!r} must stay below the "
                f"track width {course.track_width} m"
            )

    def lay_out(self, builder: LayoutBuilder, x_start: float, x_end: float) -> None:
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
            builder.record(
                "slalom_wall",
                x,
                x + self.thickness,
                difficulty,
                opening=opening,
                height=height,
                side=side,
            )
            side = -side
            x += self.thickness + builder.uniform(self.spacing)


class _HoveringPlatforms(Segment):
    """Hovering boxes across the whole track."""

    # The `Obstacle.kind` of the platforms, set by each subclass.
    obstacle_kind: str

    def __init__(
        self,
        platform_length: NumberOrRange,
        thickness: float,
        spacing: NumberOrRange,
        length: NumberOrRange,
    ):
        super().__init__(length)
        self.platform_length = _as_range(platform_length, f"{type(self).__name__}.platform_length")
        if not thickness > 0:
            raise ValueError(
                f"{type(self).__name__}.thickness must be positive metres, got {thickness!r}"
            )
        self.thickness = float(thickness)
        self.spacing = _as_range(spacing, f"{type(self).__name__}.spacing")

    def max_platforms_per_m(self) -> float:
        return 1.0 / (self.platform_length[0] + self.spacing[0])

    def _bottom_and_record(
        self, builder: LayoutBuilder, x: float
    ) -> tuple[float, float, dict[str, float]]:
        raise NotImplementedError

    def lay_out(self, builder: LayoutBuilder, x_start: float, x_end: float) -> None:
        half_width = builder.course.track_width / 2
        x = x_start + builder.uniform(self.spacing)
        while True:
            platform_length = builder.uniform(self.platform_length)
            if x + platform_length > x_end:
                return
            bottom, difficulty, parameters = self._bottom_and_record(builder, x)
            builder.add_box(
                builder.platform_boxes,
                x,
                x + platform_length,
                -half_width,
                half_width,
                bottom,
                bottom + self.thickness,
            )
            builder.record(
                self.obstacle_kind,
                x,
                x + platform_length,
                difficulty,
                platform_length=platform_length,
                bottom=bottom,
                top=bottom + self.thickness,
                **parameters,
            )
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

    def __init__(
        self,
        height: NumberOrRange = (0.3, 0.7),
        platform_length: NumberOrRange = (1.5, 3.0),
        thickness: float = 0.2,
        spacing: NumberOrRange = (2.0, 4.0),
        length: NumberOrRange = (8.0, 12.0),
    ):
        super().__init__(platform_length, thickness, spacing, length)
        self.height = _as_range(height, "JumpPlatforms.height", minimum=self.thickness)

    def _bottom_and_record(
        self, builder: LayoutBuilder, x: float
    ) -> tuple[float, float, dict[str, float]]:
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

    def __init__(
        self,
        clearance: NumberOrRange = (0.9, 1.3),
        platform_length: NumberOrRange = (1.0, 2.5),
        thickness: float = 0.3,
        spacing: NumberOrRange = (2.0, 4.0),
        length: NumberOrRange = (8.0, 12.0),
    ):
        super().__init__(platform_length, thickness, spacing, length)
        self.clearance = _as_range(clearance, "CrouchPlatforms.clearance")

    def _bottom_and_record(
        self, builder: LayoutBuilder, x: float
    ) -> tuple[float, float, dict[str, float]]:
        clearance, difficulty = builder.sample(self.clearance, x, harder="low")
        return clearance, difficulty, {"clearance": clearance}


# A see-saw's hinge lies this fraction of the plank's length beyond its centre.
SEESAW_HINGE_OFFSET_FRACTION = 0.05


class SeeSaws(Segment):
    """See-saws across the whole track: planks hinged on a pivot block, the near
    end resting on the ground, tipping as a walker crosses the pivot. One of the
    "unobserved perturbations" of the paper's probe courses (§4: "see-saws").

    The plank's size, pivot height and mass are fixed when the course is built
    (they are the pool's; every `SeeSaws` of one course must agree); only the
    positions change per episode. The hinge lies 5 % of the plank's length
    beyond its centre, so that the near end is the heavier: it rests on the
    ground until a walker crosses the pivot. `Obstacle.x_start`/`x_end` are the
    plank's ends (as laid, tilted: its projection is a little shorter).

    Args:
      spacing: (low, high) ground between see-saws, metres.
      plank_length: metres along the track.
      plank_thickness: metres.
      pivot_height: height of the hinge above the ground, metres; below half
        the plank's length.
      plank_mass: kilograms.
      length: (low, high) segment length, metres.
    """

    kind = "seesaws"

    def __init__(
        self,
        spacing: NumberOrRange = (2.0, 4.0),
        plank_length: float = 3.0,
        plank_thickness: float = 0.1,
        pivot_height: float = 0.35,
        plank_mass: float = 20.0,
        length: NumberOrRange = (8.0, 12.0),
    ):
        super().__init__(length)
        self.spacing = _as_range(spacing, "SeeSaws.spacing")
        for label, value in (
            ("plank_length", plank_length),
            ("plank_thickness", plank_thickness),
            ("pivot_height", pivot_height),
            ("plank_mass", plank_mass),
        ):
            if (
                isinstance(value, bool)
                or not isinstance(value, (int, float))
                or not (np.isfinite(value) and value > 0)
            ):
                raise ValueError(f"SeeSaws.{label} must be a positive number, got {value!r}")
        if not plank_thickness / 2 < pivot_height < plank_length / 2:
            raise ValueError(
                f"SeeSaws.pivot_height ({pivot_height!r}) must lie between half the plank's "
                f"thickness and half its length ({plank_length / 2!r} m)"
            )
        self.plank_length = float(plank_length)
        self.plank_thickness = float(plank_thickness)
        self.pivot_height = float(pivot_height)
        self.plank_mass = float(plank_mass)

    @property
    def hinge_offset_m(self) -> float:
        """How far the hinge lies beyond the plank's centre (toward +x), metres:
        the near end is the heavier and rests on the ground."""
        return SEESAW_HINGE_OFFSET_FRACTION * self.plank_length

    def plank(self) -> tuple[float, float, float, float, float]:
        """(length, thickness, pivot height, mass, hinge offset): what the
        course's pool is built with."""
        return (
            self.plank_length,
            self.plank_thickness,
            self.pivot_height,
            self.plank_mass,
            self.hinge_offset_m,
        )

    def max_seesaws_per_m(self) -> float:
        return 1.0 / (self.plank_length + self.spacing[0])

    def lay_out(self, builder: LayoutBuilder, x_start: float, x_end: float) -> None:
        x = x_start + builder.uniform(self.spacing)
        while x + self.plank_length <= x_end:
            pivot = x + self.plank_length / 2 + self.hinge_offset_m
            builder.seesaw_centers.append(pivot)
            builder.record(
                "seesaw",
                x,
                x + self.plank_length,
                0.0,
                pivot_x=pivot,
                pivot_height=self.pivot_height,
            )
            x += self.plank_length + builder.uniform(self.spacing)
