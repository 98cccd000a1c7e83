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

import copy
from collections.abc import Sequence

import mujoco
import numpy as np
from numpy.typing import ArrayLike

from composer_tasks import composer, mjcf
from composer_tasks.arenas import parkour_segments
from composer_tasks.arenas import pools
from composer_tasks.arenas import style
from composer_tasks.physics import Physics

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
_SEESAW_RGBA = (0.55, 0.4, 0.25, 1.0)
# See-saw planks stop this short of the side walls, so that they swing freely.
_SEESAW_SIDE_CLEARANCE_M = 0.05


# The segment types and the layout records live in `parkour_segments`; they are
# re-exported here, where course authors look for them.
Segment = parkour_segments.Segment
Hurdles = parkour_segments.Hurdles
Gaps = parkour_segments.Gaps
Terrain = parkour_segments.Terrain
SlalomWalls = parkour_segments.SlalomWalls
JumpPlatforms = parkour_segments.JumpPlatforms
CrouchPlatforms = parkour_segments.CrouchPlatforms
SeeSaws = parkour_segments.SeeSaws
Obstacle = parkour_segments.Obstacle
CourseSegment = parkour_segments.CourseSegment
Course = parkour_segments.Course

_MODES = ("mixed", "per_episode")


class ParkourCourse(composer.Arena):
    """A random obstacle course along +x (see the module docstring).

    Args:
      segments: segment types (instances of `Hurdles`, `Gaps`, `Terrain`,
        `SlalomWalls`, `JumpPlatforms`, `CrouchPlatforms`, `SeeSaws`); default
        `Hurdles()`.
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

    # Lays out its episodes in the compiled model, without recompiling: tasks that
    # regenerate dm_control's corridors at the MJCF stage leave it to `initialize_episode`.
    pooled = True

    def _build(
        self,
        segments: Segment | Sequence[Segment] | None = None,
        mode: str = "mixed",
        segment_weights: ArrayLike | None = None,
        curriculum: bool = False,
        curriculum_band: float = 0.25,
        course_length: float = 60.0,
        spawn_length: float = 4.0,
        track_width: float = 8.0,
        side_walls: bool = True,
        visible_side_walls: bool = False,
        resolution: float = 0.1,
        pit_depth: float = 2.0,
        name: str = "parkour",
    ) -> None:
        if segments is None:
            segments = (Hurdles(),)
        segments = (segments,) if isinstance(segments, Segment) else tuple(segments)
        if not segments or not all(isinstance(s, Segment) for s in segments):
            raise TypeError(
                f"segments must be Segment instances (Hurdles(), Gaps(), ...), got {segments!r}"
            )
        if mode not in _MODES:
            raise ValueError(f"mode must be one of {_MODES}, got {mode!r}")
        if segment_weights is None:
            weights = np.full(len(segments), 1.0 / len(segments))
        else:
            weights = np.asarray(segment_weights, dtype=np.float64)
            if weights.shape != (len(segments),) or np.any(weights < 0) or weights.sum() <= 0:
                raise ValueError(
                    f"segment_weights must be {len(segments)} non-negative numbers "
                    f"with a positive sum, got {segment_weights!r}"
                )
            weights = weights / weights.sum()
        if not 0 < curriculum_band <= 1:
            raise ValueError(f"curriculum_band must be in (0, 1], got {curriculum_band!r}")
        for label, value in (
            ("track_width", track_width),
            ("resolution", resolution),
            ("pit_depth", pit_depth),
        ):
            if not value > 0:
                raise ValueError(f"{label} must be positive metres, got {value!r}")
        if not spawn_length >= 0:
            raise ValueError(f"spawn_length must be >= 0 metres, got {spawn_length!r}")
        if not course_length > spawn_length:
            raise ValueError(
                f"course_length must exceed spawn_length ({spawn_length} m), got {course_length!r}"
            )
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
        style.add_sky_and_light(
            spec, light_height_m=8.0, light_position_xy=(self.course_length / 2, 0.0)
        )
        style.add_checker_material(
            spec,
            "parkour_ground",
            rgb1=[0.2, 0.3, 0.4],
            rgb2=[0.1, 0.2, 0.3],
            texrepeat=[1.0, 1.0],
            mark_rgb=[0.8, 0.8, 0.8],
            reflectance=0.0,
        )
        x_range = (-_BACK_PADDING_M, self.course_length + _END_PADDING_M)
        half_width = self.track_width / 2
        max_height = max([_MIN_ELEVATION_M] + [s.max_height() for s in segments])
        self.heightfield = pools.HeightfieldGrid(
            spec,
            "terrain",
            x_range,
            (-half_width, half_width),
            resolution,
            min_height=-self.pit_depth,
            max_height=max_height,
            material="parkour_ground",
        )
        for segment in segments:
            segment.validate(self)

        # Pools sized for the densest course the ranges allow: every segment adds at
        # most one obstacle beyond its length times its type's densest rate.
        track = self.course_length - self.obstacles_start
        max_segments = int(np.ceil(track / min(s.length[0] for s in segments))) + 1
        ground_capacity = int(np.ceil(track * max(s.max_ground_boxes_per_m() for s in segments)))
        platform_capacity = int(np.ceil(track * max(s.max_platforms_per_m() for s in segments)))
        self._ground_boxes = pools.BoxPool(
            spec.worldbody,
            "obstacle",
            ground_capacity + max_segments if ground_capacity else 0,
            rgba=_HURDLE_RGBA,
            group=GROUND_GEOM_GROUP,
        )
        self._platforms = pools.BoxPool(
            spec.worldbody,
            "platform",
            platform_capacity + max_segments if platform_capacity else 0,
            rgba=_PLATFORM_RGBA,
            group=PLATFORM_GEOM_GROUP,
        )
        self._seesaws = _seesaw_pool(spec, segments, track, max_segments, self.track_width)

        # Beyond the heightfield (and at the bottom of the pits) a floor catches falls.
        floor_body = spec.worldbody.add_body(
            name="pit_floor_body", pos=[self.course_length / 2, 0.0, -self.pit_depth]
        )
        self._pit_floor = floor_body.add_geom(
            name="pit_floor",
            type=mujoco.mjtGeom.mjGEOM_PLANE,
            size=[self.course_length, 4 * half_width, 1.0],
            rgba=[0.15, 0.15, 0.2, 1.0],
            group=GROUND_GEOM_GROUP,
        )
        self._side_walls = ()
        if side_walls:
            alpha = 0.3 if visible_side_walls else 0.0
            centre_x = (x_range[0] + x_range[1]) / 2
            half_length = (x_range[1] - x_range[0]) / 2
            walls = []
            for label, position, xyaxes, size in (
                (
                    "left_wall",
                    [centre_x, half_width, 0.0],
                    [1, 0, 0, 0, 0, 1],
                    [half_length, _SIDE_WALL_HEIGHT_M, 1.0],
                ),
                (
                    "right_wall",
                    [centre_x, -half_width, 0.0],
                    [-1, 0, 0, 0, 0, 1],
                    [half_length, _SIDE_WALL_HEIGHT_M, 1.0],
                ),
                (
                    "near_wall",
                    [x_range[0], 0.0, 0.0],
                    [0, 1, 0, 0, 0, 1],
                    [half_width, _SIDE_WALL_HEIGHT_M, 1.0],
                ),
                (
                    "far_wall",
                    [x_range[1], 0.0, 0.0],
                    [0, -1, 0, 0, 0, 1],
                    [half_width, _SIDE_WALL_HEIGHT_M, 1.0],
                ),
            ):
                body = spec.worldbody.add_body(name=f"{label}_body", pos=position)
                walls.append(
                    body.add_geom(
                        name=label,
                        type=mujoco.mjtGeom.mjGEOM_PLANE,
                        xyaxes=xyaxes,
                        size=size,
                        rgba=[0.8, 0.3, 0.3, alpha],
                        group=SIDE_WALL_GEOM_GROUP,
                    )
                )
            self._side_walls = tuple(walls)
        self._spec = spec
        self._course = None
        self._pending = None

    # Layout.

    def regenerate(self, random_state: np.random.RandomState) -> Course:
        """Draws the next episode's course (written by `initialize_episode`); returns it."""
        builder = parkour_segments.LayoutBuilder(self, random_state)
        segments = []
        if self._mode == "per_episode":
            episode_type = self._segments[random_state.choice(len(self._segments), p=self._weights)]
        x = self.obstacles_start
        while x < self.course_length:
            segment = (
                episode_type
                if self._mode == "per_episode"
                else self._segments[random_state.choice(len(self._segments), p=self._weights)]
            )
            end = min(x + builder.uniform(segment.length), self.course_length)
            segment.lay_out(builder, x, end)
            segments.append(CourseSegment(segment.kind, x, end))
            x = end
        self._pending = (builder, Course(segments, builder.obstacles))
        return self._pending[1]

    def initialize_episode(self, physics: Physics, random_state: np.random.RandomState) -> None:
        """Writes this episode's course into the model (drawing it unless a task did)."""
        if self._pending is None:
            self.regenerate(random_state)
        # `regenerate` sets the pending layout.
        assert self._pending is not None
        builder, course = self._pending
        self._pending = None
        self.heightfield.write(physics, builder.heights)
        for pool, boxes in (
            (self._ground_boxes, builder.ground_boxes),
            (self._platforms, builder.platform_boxes),
        ):
            boxes = np.asarray(boxes, dtype=np.float64).reshape(-1, 6)
            pool.write(physics, boxes[:, :3], boxes[:, 3:])
        if self._seesaws is not None:
            self._seesaws.write(physics, builder.seesaw_centers)
        self._course = course

    def after_compile(self, physics: Physics, random_state: np.random.RandomState) -> None:
        # The compiler normalises the heightfield's initial samples, which would put
        # the flat ground at the pits' depth until the first episode writes it.
        del random_state
        self.heightfield.write(physics, np.zeros(self.heightfield.shape))

    # Snapshots (composer.Environment.snapshot): the course is written into the
    # model, which a snapshot holds, and kept in Python for `course`.

    def snapshot_state(self) -> Course | None:
        """This episode's `Course` (a copy; None before the first episode)."""
        return copy.deepcopy(self._course)

    def restore_state(self, state: Course | None) -> None:
        """Returns to a `snapshot_state()` of a course built alike."""
        self._course = copy.deepcopy(state)
        self._pending = None

    # Properties.

    @property
    def course(self) -> Course | None:
        """This episode's `Course` (None before the first episode)."""
        return self._course

    @property
    def segment_types(self) -> tuple[Segment, ...]:
        return self._segments

    @property
    def ground_geoms(self) -> tuple[mjcf.Element, ...]:
        """Geoms a walker stands on: heightfield, pit floor, obstacle and platform boxes."""
        seesaws = () if self._seesaws is None else self._seesaws.geoms
        return self._handles(
            (self.heightfield.geom, self._pit_floor)
            + self._ground_boxes.geoms
            + self._platforms.geoms
            + seesaws
        )

    @property
    def obstacle_geoms(self) -> tuple[mjcf.Element, ...]:
        """The pool of hurdles and slalom walls (unused ones are parked far below)."""
        return self._handles(self._ground_boxes.geoms)

    @property
    def platforms(self) -> tuple[mjcf.Element, ...]:
        """The pool of hovering platforms (unused ones are parked far below)."""
        return self._handles(self._platforms.geoms)

    @property
    def side_walls(self) -> tuple[mjcf.Element, ...]:
        return self._handles(self._side_walls)

    @property
    def spawn_region(self) -> tuple[tuple[float, float], tuple[float, float]]:
        """((x_min, x_max), (y_min, y_max)) of the free flat region, metres."""
        half_width = self.track_width / 2
        return (-_BACK_PADDING_M, self.obstacles_start), (-half_width, half_width)

    def spawn_position(self, random_state: np.random.RandomState | None = None) -> np.ndarray:
        """Where walkers start: (3,) world frame, on the ground at the origin."""
        del random_state
        return np.zeros(3)

    def terrain_height(self, physics: Physics, xy_points: ArrayLike) -> np.ndarray:
        """Height (n,) of the ground at world points `xy_points` (n, 2), metres.

        The heightfield (gaps are `-pit_depth`), raised to the top of any hurdle,
        slalom wall or see-saw plank (in its current pose) there; `-pit_depth`
        beyond the heightfield.
        """
        xy_points = np.asarray(xy_points, dtype=np.float64).reshape(-1, 2)
        ground = self.heightfield.height_at(physics, xy_points)
        ground = np.where(np.isnan(ground), -self.pit_depth, ground)
        centers, half_sizes = self._ground_boxes.active_boxes(physics)
        tops = pools.box_tops_at(xy_points, centers, half_sizes)
        ground = np.where(np.isnan(tops), ground, np.maximum(ground, tops))
        if self._seesaws is not None:
            planks = self._seesaws.plank_tops_at(physics, xy_points)
            ground = np.where(np.isnan(planks), ground, np.maximum(ground, planks))
        return ground

    def platform_height(
        self, physics: Physics, xy_points: ArrayLike, surface: str = "top"
    ) -> np.ndarray:
        """Height (n,) of the hovering platform above `xy_points` (n, 2), nan where none.

        surface: "top" (what a walker lands on) or "bottom" (what it crouches under).
        """
        if surface not in ("top", "bottom"):
            raise ValueError(f"surface must be 'top' or 'bottom', got {surface!r}")
        centers, half_sizes = self._platforms.active_boxes(physics)
        if surface == "top":
            return pools.box_tops_at(xy_points, centers, half_sizes)
        return pools.box_bottoms_at(xy_points, centers, half_sizes)


def _seesaw_pool(
    spec: mujoco.MjSpec,
    segments: Sequence[Segment],
    track_length: float,
    max_segments: int,
    track_width: float,
) -> pools.SeeSawPool | None:
    """The course's pool of see-saws (None without a `SeeSaws` segment), sized
    for the densest layout; every `SeeSaws` must share one plank."""
    seesaw_segments = [segment for segment in segments if isinstance(segment, SeeSaws)]
    if not seesaw_segments:
        return None
    planks = {segment.plank() for segment in seesaw_segments}
    if len(planks) > 1:
        raise ValueError(
            f"every SeeSaws segment of a course must have the same plank_length, "
            f"plank_thickness, pivot_height and plank_mass; got {sorted(planks)}"
        )
    length, thickness, pivot_height, mass, hinge_offset = planks.pop()
    rate = max(segment.max_seesaws_per_m() for segment in seesaw_segments)
    capacity = int(np.ceil(track_length * rate)) + max_segments
    return pools.SeeSawPool(
        spec,
        "seesaw",
        capacity,
        plank_length=length,
        plank_width=track_width - 2 * _SEESAW_SIDE_CLEARANCE_M,
        plank_thickness=thickness,
        pivot_height=pivot_height,
        plank_mass=mass,
        hinge_offset=hinge_offset,
        rgba=_SEESAW_RGBA,
        group=GROUND_GEOM_GROUP,
    )
