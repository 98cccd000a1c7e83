"""Corridors along +x: empty, with gaps between platforms, and with walls to avoid.

The corridor starts at x = 0 and ends at x = `corridor_length`; its centre line
is y = 0 and the ground is at z = 0 (world frame, metres). Walkers spawn near
x = 0 (`spawn_position`). Lengths and widths accept numbers or variations
(`composer_tasks.composer.variation`), drawn anew every episode.

By default a corridor is dm_control's: `regenerate(random_state)` (which
`RunThroughCorridor` calls in its `initialize_episode_mjcf`, as dm_control's
task) draws the layout and rebuilds it in the model (planes moved and resized,
the platforms or walls deleted and added as geoms named `start_floor`,
`floor_<i>`, `wall_<i>`), so the Environment compiles a new model for every
episode, with dm_control's elements, names, counts and looks: five unnamed planes
on the world body, a `walls` body (and a `ground` body in the gaps corridor),
dm_control's sky box and grey ground. The draws are dm_control's, in its order,
so one random state lays out the same course in both.

`pooled=True` (this project's, opt-in) lays layouts out without recompiling:
each corridor owns a fixed pool of boxes (`pools.BoxPool`) sized at
construction for the longest layout its parameters allow, and writes each
episode's layout into the compiled model in `initialize_episode`, so that a
reset costs array writes instead of a compilation and every episode has the same
model structure (what `load_batch` needs). The course is the same as the
default's for the same random state (same draws, same order); the model's
structure differs (each plane and box on its own body, the unused boxes parked
far below, a chequered ground, a light). A task that needs the layout before the
arena's own callback calls `regenerate(random_state)` first, in its own
`initialize_episode`; the arena then writes that layout instead of drawing
another. A pooled `regenerate` also writes the layout into the arena's spec, so
a model compiled from the arena after it has that layout; inside an Environment
the spec returns to what was last compiled once `initialize_episode` wrote the
layout into the physics.

Facts of dm_control's corridors (Tassa et al. 2020, arXiv:2006.12983 §7.1)
carried over: 2 m of padding at the ends, walls and platforms 0.16 m thick, 4 m
high side walls, a 6 m start platform in the gaps corridor.
"""

import copy
import logging
from collections.abc import Callable, Sequence
from typing import Any

import mujoco
import numpy as np
from numpy.typing import ArrayLike

from composer_tasks import composer
from composer_tasks.arenas import assets
from composer_tasks.arenas import pools
from composer_tasks.arenas import style
from composer_tasks.composer import variation
from composer_tasks.composer.variation import deterministic
from composer_tasks.composer.variation import distributions
from composer_tasks.physics import Physics

_log = logging.getLogger(__name__)

# A length in metres (or a colour) given as a fixed value or as a variation, any
# callable `variation(initial_value=, current_value=, random_state=)`, drawn anew
# every episode.
NumberOrVariation = float | Callable[..., Any]
ColourOrVariation = Sequence[float] | np.ndarray | Callable[..., Any]

_CORRIDOR_X_PADDING_M = 2.0
# dm_control's name for the padding (its corridors_test.py sizes a probe geom with it).
_CORRIDOR_X_PADDING = _CORRIDOR_X_PADDING_M
_WALL_THICKNESS_M = 0.16
_SIDE_WALL_HEIGHT_M = 4.0
_SIDE_WALL_ALPHA = 0.5
_START_PLATFORM_LENGTH_M = 3 * _CORRIDOR_X_PADDING_M
_SIDE_WALLS_GEOM_GROUP = 3
_PLATFORM_RGBA = (0.5, 0.5, 0.5, 1.0)
# How far the spawn point sits from the corridor's start (x = 0), metres.
_SPAWN_X_M = 0.0


def value_bounds(value: object) -> tuple[float, float] | None:
    """(lowest, highest) value a number or variation can take, or None if unknown.

    Numbers, `Constant`s of numbers, `Sequence`s of entries with known bounds, and
    `Uniform`, `UniformInteger` and `UniformChoice` distributions with numeric
    parameters have known bounds.
    """
    if isinstance(value, (int, float, np.integer, np.floating)):
        return float(value), float(value)
    if isinstance(value, deterministic.Constant):
        return value_bounds(value(random_state=None))
    if isinstance(value, deterministic.Sequence):
        bounds = [value_bounds(entry) for entry in value.values]
        if any(bound is None for bound in bounds):
            return None
        return min(b[0] for b in bounds if b), max(b[1] for b in bounds if b)
    if not isinstance(value, distributions.Distribution):
        return None
    parameters = value.parameters
    if any(callable(p) for p in parameters.values()):
        return None
    if isinstance(value, distributions.UniformChoice):
        choices = np.asarray(parameters["choices"], dtype=np.float64)
        return float(choices.min()), float(choices.max())
    if isinstance(value, distributions.UniformInteger):
        low, high = parameters["low"], parameters["high"]
        if high is None:
            low, high = 0, low
        return float(np.min(low)), float(np.max(high) - 1)
    if isinstance(value, distributions.Uniform):
        return float(np.min(parameters["low"])), float(np.max(parameters["high"]))
    return None


def _draw_length(value: NumberOrVariation, random_state: np.random.RandomState, name: str) -> float:
    """One draw of a length, as dm_control's `variation.evaluate(value, random_state)`."""
    drawn = np.asarray(variation.evaluate(value, random_state=random_state), dtype=np.float64)
    if drawn.size != 1:
        raise ValueError(f"{name} must evaluate to one number, got shape {drawn.shape}")
    length = float(drawn.reshape(()))
    if not (np.isfinite(length) and length > 0):
        raise ValueError(f"{name} must evaluate to positive finite metres, got {length!r}")
    return length


def _draw_colour(
    value: ColourOrVariation, random_state: np.random.RandomState, name: str
) -> np.ndarray:
    """One RGBA colour from a constant or a variation (one draw, as dm_control's)."""
    colour = np.asarray(variation.evaluate(value, random_state=random_state), dtype=np.float64)
    if colour.shape != (4,):
        raise ValueError(f"{name} must be 4 numbers (RGBA), got {colour!r}")
    return colour


def _fixed_colour(value: ColourOrVariation) -> Sequence[float]:
    """`value` if it is four fixed numbers, else the platforms' default grey (a
    colour drawn per episode, which each episode writes)."""
    if callable(value):
        return _PLATFORM_RGBA
    try:
        colour = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):  # a structure holding variations
        return _PLATFORM_RGBA
    return tuple(colour) if colour.shape == (4,) else _PLATFORM_RGBA


def _check_lengths(**values: object) -> None:
    """Rejects fixed (non-variation) lengths that are not positive numbers."""
    for name, value in values.items():
        if callable(value):
            continue
        if not isinstance(value, (int, float, np.integer, np.floating)) or not value > 0:
            raise ValueError(
                f"{name} must be a positive number of metres or a variation, got {value!r}"
            )


def _capacity(explicit: int | None, name: str, estimate: int | None) -> int:
    if explicit is not None:
        if not isinstance(explicit, (int, np.integer)) or explicit < 1:
            raise ValueError(f"{name} must be a positive int, got {explicit!r}")
        return int(explicit)
    if estimate is None:
        raise ValueError(
            f"the bounds of this corridor's parameters are unknown (they are variations other "
            f"than Uniform/UniformInteger/UniformChoice/Constant), so give {name} explicitly"
        )
    return estimate


class Corridor(composer.Arena):
    """Base of the corridors: ground, four bounding planes, sky and light.

    Subclasses draw their layout in `_draw_layout` and write it in `_write_layout`.
    """

    def _build(
        self,
        corridor_width: NumberOrVariation = 4.0,
        corridor_length: NumberOrVariation = 40.0,
        visible_side_planes: bool = True,
        name: str = "corridor",
        *,
        pooled: bool = False,
    ) -> None:
        _check_lengths(corridor_width=corridor_width, corridor_length=corridor_length)
        if not isinstance(pooled, (bool, np.bool_)):
            raise ValueError(f"pooled must be a bool, got {pooled!r}")
        self._pooled = bool(pooled)
        self._corridor_width_value = corridor_width
        self._corridor_length_value = corridor_length
        self._width_bounds = value_bounds(corridor_width)
        self._length_bounds = value_bounds(corridor_length)
        alpha = _SIDE_WALL_ALPHA if visible_side_planes else 0.0
        if self._pooled:
            self._build_pooled(name, alpha)
        else:
            self._build_as_dm_control(name, alpha)
        self._layout = None
        self._pending = False
        self._plane_ids = None
        # The spec's layout attributes as last compiled (`after_compile`), and whether
        # `regenerate` wrote the spec since (pooled corridors).
        self._compiled_spec_values: list[tuple[Any, str, np.ndarray]] | None = None
        self._spec_written = False

    def _build_as_dm_control(self, name: str, alpha: float) -> None:
        """dm_control's corridor, written as dm_control writes it (PyMJCF handles, in
        its order, so that elements list and unnamed elements are named as there):
        the base arena, a `walls` body, its sky box and five unnamed planes on the
        world body (ground, left, right, near, far)."""
        super()._build(name=name)
        root = self.mjcf_model
        self._walls_body = root.worldbody.add("body", name="walls")
        root.visual.map.znear = 0.0005
        root.asset.add(
            "texture",
            type="skybox",
            builtin="gradient",
            rgb1=[0.4, 0.6, 0.8],
            rgb2=[0, 0, 0],
            width=100,
            height=600,
        )
        root.visual.headlight.set_attributes(
            ambient=[0.4, 0.4, 0.4], diffuse=[0.8, 0.8, 0.8], specular=[0.1, 0.1, 0.1]
        )
        self._ground_plane = root.worldbody.add(
            "geom", type="plane", rgba=[0.5, 0.5, 0.5, 1], size=[1, 1, 1]
        )
        self._left_plane, self._right_plane, self._near_plane, self._far_plane = (
            root.worldbody.add(
                "geom",
                type="plane",
                xyaxes=xyaxes,
                size=[1, 1, 1],
                rgba=[1, 0, 0, alpha],
                group=_SIDE_WALLS_GEOM_GROUP,
            )
            for xyaxes in (
                [1, 0, 0, 0, 0, 1],
                [-1, 0, 0, 0, 0, 1],
                [0, 1, 0, 0, 0, 1],
                [0, -1, 0, 0, 0, 1],
            )
        )

    def _build_pooled(self, name: str, alpha: float) -> None:
        """This project's corridor: planes and pooled boxes on bodies of their own."""
        spec = mujoco.MjSpec()
        spec.modelname = name
        spec.visual.map.znear = 0.0005
        style.add_sky_and_light(spec)
        self._ground_material = style.add_checker_material(
            spec,
            "corridor_ground",
            rgb1=[0.2, 0.3, 0.4],
            rgb2=[0.1, 0.2, 0.3],
            mark_rgb=[0.8, 0.8, 0.8],
            reflectance=0.1,
        )
        # Every plane sits on its own static body: the layout moves bodies, never
        # geoms inside a shared body (see pools.py on bounding volumes).
        self._ground_plane = self._plane(
            spec, "ground", [1, 0, 0, 0, 1, 0], rgba=[1, 1, 1, 1], material="corridor_ground"
        )
        self._left_plane = self._plane(spec, "left_wall", [1, 0, 0, 0, 0, 1], rgba=[1, 0, 0, alpha])
        self._right_plane = self._plane(
            spec, "right_wall", [-1, 0, 0, 0, 0, 1], rgba=[1, 0, 0, alpha]
        )
        self._near_plane = self._plane(spec, "near_wall", [0, 1, 0, 0, 0, 1], rgba=[1, 0, 0, alpha])
        self._far_plane = self._plane(spec, "far_wall", [0, -1, 0, 0, 0, 1], rgba=[1, 0, 0, alpha])
        self._spec = spec

    @property
    def pooled(self) -> bool:
        """Whether layouts are written into one compiled model (`pooled=True`) rather
        than rebuilt in the spec and recompiled, as dm_control's."""
        return self._pooled

    @staticmethod
    def _plane(
        spec: mujoco.MjSpec,
        name: str,
        xyaxes: Sequence[float],
        rgba: Sequence[float],
        material: str | None = None,
    ) -> mujoco.MjsGeom:
        body = spec.worldbody.add_body(name=f"{name}_body")
        kwargs: dict[str, Any] = dict(
            name=name,
            type=mujoco.mjtGeom.mjGEOM_PLANE,
            size=[1.0, 1.0, 1.0],
            xyaxes=xyaxes,
            rgba=rgba,
        )
        if name != "ground":
            kwargs["group"] = _SIDE_WALLS_GEOM_GROUP
        if material is not None:
            kwargs["material"] = material
        return body.add_geom(**kwargs)

    # Layout.

    def regenerate(self, random_state: np.random.RandomState) -> dict[str, Any]:
        """Draws the next episode's layout; returns it (a dict).

        As dm_control's, the layout is written into the arena's model: the planes
        moved and resized, the platforms or walls rebuilt, so that the next
        compilation (the Environment's at this reset) has it. A pooled corridor
        writes it into the physics in `initialize_episode` instead (see the module's
        docstring).
        """
        width = _draw_length(self._corridor_width_value, random_state, "corridor_width")
        length = _draw_length(self._corridor_length_value, random_state, "corridor_length")
        self._layout = self._draw_layout(length, width, random_state)
        if not self._pooled:
            self._rebuild_spec(self._layout)
            return self._layout
        self._pending = True
        # As dm_control's `regenerate`, which edits the MJCF model: a model compiled
        # from the arena now has this layout.
        for element, attribute, value in self._spec_values(self._layout):
            setattr(element, attribute, value)
        self._spec_written = True
        return self._layout

    def _rebuild_spec(self, layout: dict[str, Any]) -> None:
        """dm_control's layout in the model: the walls body emptied, the planes placed,
        then the subclass's geoms (`_add_layout_geoms`)."""
        self._walls_body.geom.clear()
        for geom, position, size in self._plane_placements(layout):
            geom.pos = position
            geom.size = size
        self._add_layout_geoms(layout)

    def _add_layout_geoms(self, layout: dict[str, Any]) -> None:
        """Adds the layout's geoms to the spec (not pooled; none in the empty corridor)."""
        del layout

    def after_compile(self, physics: Physics, random_state: np.random.RandomState) -> None:
        """Pooled: remembers the spec's layout as compiled, to return to it in
        `initialize_episode`."""
        del physics, random_state
        if not self._pooled:
            return
        self._compiled_spec_values = [
            (element, attribute, np.array(getattr(element, attribute), copy=True))
            for element, attribute in self._layout_attributes()
        ]
        self._spec_written = False

    def initialize_episode(self, physics: Physics, random_state: np.random.RandomState) -> None:
        """Pooled: writes this episode's layout into the model (drawing it unless a
        task did). As dm_control's, a corridor that is not pooled does nothing here:
        its layout is in the compiled model, drawn by whoever called `regenerate`."""
        if not self._pooled:
            return
        if not self._pending:
            self.regenerate(random_state)
        self._pending = False
        # `regenerate` sets the layout whenever it sets `_pending`.
        assert self._layout is not None
        self._write_planes(physics, self._layout)
        self._write_layout(physics, self._layout)
        # The physics holds the layout now; the spec returns to what was compiled, so
        # that the Environment finds it unedited and keeps its model.
        if self._spec_written and self._compiled_spec_values is not None:
            for element, attribute, value in self._compiled_spec_values:
                setattr(element, attribute, value)
            self._spec_written = False

    def _layout_attributes(self) -> list[tuple[Any, str]]:
        """(spec element, attribute) of every value a layout sets in the spec."""
        pairs: list[tuple[Any, str]] = []
        for geom in (self._ground_plane, *self.side_geoms):
            pairs += [(geom.parent, "pos"), (geom, "size")]
        for pool in self._pools():
            for body, geom in zip(pool.bodies, pool.geoms):
                pairs += [(body, "pos"), (geom, "size"), (geom, "rgba")]
        return pairs

    def _pools(self) -> tuple[pools.BoxPool, ...]:
        """The box pools a subclass lays out (none for the empty corridor)."""
        return ()

    def _plane_placements(self, layout: dict[str, Any]) -> list[tuple[Any, list, list]]:
        """(plane geom, its body's position, its size) of the four bounding planes
        and the ground, for `layout` (world frame, metres)."""
        length, width = layout["corridor_length"], layout["corridor_width"]
        half_x = length / 2 + _CORRIDOR_X_PADDING_M
        return [
            (self._ground_plane, [length / 2, 0, self._ground_z()], [half_x, width / 2, 1]),
            (
                self._left_plane,
                [length / 2, width / 2, _SIDE_WALL_HEIGHT_M / 2],
                [half_x, _SIDE_WALL_HEIGHT_M / 2, 1],
            ),
            (
                self._right_plane,
                [length / 2, -width / 2, _SIDE_WALL_HEIGHT_M / 2],
                [half_x, _SIDE_WALL_HEIGHT_M / 2, 1],
            ),
            (
                self._near_plane,
                [-_CORRIDOR_X_PADDING_M, 0, _SIDE_WALL_HEIGHT_M / 2],
                [width / 2, _SIDE_WALL_HEIGHT_M / 2, 1],
            ),
            (
                self._far_plane,
                [length + _CORRIDOR_X_PADDING_M, 0, _SIDE_WALL_HEIGHT_M / 2],
                [width / 2, _SIDE_WALL_HEIGHT_M / 2, 1],
            ),
        ]

    def _spec_values(self, layout: dict[str, Any]) -> list[tuple[Any, str, Any]]:
        """(spec element, attribute, value) that put `layout` into the spec."""
        values: list[tuple[Any, str, Any]] = []
        for geom, position, size in self._plane_placements(layout):
            values += [(geom.parent, "pos", position), (geom, "size", size)]
        for pool, (centers, half_sizes, rgba) in zip(self._pools(), self._pool_boxes(layout)):
            count = len(centers)
            for index, (body, geom) in enumerate(zip(pool.bodies, pool.geoms)):
                if index < count:
                    values += [
                        (body, "pos", centers[index]),
                        (geom, "size", half_sizes[index]),
                    ]
                    if rgba is not None:  # None: the pool's colour (a styled material)
                        values.append((geom, "rgba", rgba[index]))
                else:
                    # An unused box is parked where the pool built it, far below.
                    values.append((body, "pos", [0.0, 0.0, pools.PARKING_Z_M]))
        return values

    def _pool_boxes(self, layout: dict[str, Any]) -> list[tuple[np.ndarray, np.ndarray, Any]]:
        """(centers (k, 3), half_sizes (k, 3), rgba (k, 4)) of each pool's boxes in
        `layout`, in the order of `_pools`."""
        del layout
        return []

    def _draw_layout(
        self, length: float, width: float, random_state: np.random.RandomState
    ) -> dict[str, Any]:
        return {"corridor_length": length, "corridor_width": width}

    def _write_layout(self, physics: Physics, layout: dict[str, Any]) -> None:
        pass

    def _ground_z(self) -> float:
        return 0.0

    def _write_planes(self, physics: Physics, layout: dict[str, Any]) -> None:
        planes = self._plane_placements(layout)
        model = physics.model
        if self._plane_ids is None or self._plane_ids[0] is not model:
            geoms = [plane for plane, _, _ in planes]
            self._plane_ids = (
                model,
                physics.bind(geoms).id.astype(np.intp),
                np.asarray([physics.bind(g).bodyid for g in geoms]).ravel(),
            )
        _, geom_ids, body_ids = self._plane_ids
        for (_, position, size), geom_id, body_id in zip(planes, geom_ids, body_ids):
            model.body_pos[body_id] = position
            # A plane's size only sets how it is drawn; it collides as an infinite half-space.
            model.geom_size[geom_id] = size

    # Snapshots (composer.Environment.snapshot): the layout is written into the
    # model, which a snapshot holds, and kept in Python for `layout` and the lengths.

    def snapshot_state(self) -> dict[str, Any] | None:
        """This episode's layout (a copy; None before the first episode)."""
        return copy.deepcopy(self._layout)

    def restore_state(self, state: dict[str, Any] | None) -> None:
        """Returns to a `snapshot_state()` of a corridor built alike."""
        self._layout = copy.deepcopy(state)
        self._pending = False

    # Properties.

    @property
    def layout(self) -> dict[str, Any] | None:
        """This episode's layout (a dict; None before the first episode)."""
        return self._layout

    @property
    def corridor_length(self) -> float | None:
        """Length along +x in metres (this episode's; the fixed value if constant)."""
        if self._layout is not None:
            return self._layout["corridor_length"]
        if not self._pooled:
            return None  # dm_control's, before the first `regenerate`
        bounds = self._length_bounds
        return bounds[0] if bounds is not None and bounds[0] == bounds[1] else None

    @property
    def corridor_width(self) -> float | None:
        """Width along y in metres (this episode's; the fixed value if constant)."""
        if self._layout is not None:
            return self._layout["corridor_width"]
        if not self._pooled:
            return None  # dm_control's, before the first `regenerate`
        bounds = self._width_bounds
        return bounds[0] if bounds is not None and bounds[0] == bounds[1] else None

    @property
    def ground_geoms(self) -> tuple[Any, ...]:
        return (self._ground_plane,)

    @property
    def side_geoms(self) -> tuple[Any, ...]:
        """The four bounding planes (left, right, near, far)."""
        return (self._left_plane, self._right_plane, self._near_plane, self._far_plane)

    def spawn_position(self, random_state: np.random.RandomState | None = None) -> np.ndarray:
        """Where walkers start: (3,) world frame, metres, on the ground at the start."""
        del random_state
        return np.array([_SPAWN_X_M, 0.0, 0.0])

    def is_at_target_position(
        self, position: Sequence[float] | np.ndarray, tolerance: float = 0.0
    ) -> bool:
        """True once `position`'s x is within `tolerance` metres of the far end."""
        length = self.corridor_length
        if length is None:
            raise ValueError(
                "this corridor's length is drawn every episode; reset the environment or "
                "call regenerate(random_state) first"
            )
        return position[0] > length - tolerance

    def terrain_height(self, physics: Physics, xy_points: ArrayLike) -> np.ndarray:
        """Ground height (n,) at world points `xy_points` (n, 2), metres.

        The floor is at 0; obstacles standing on it count with their tops.
        """
        del physics
        return np.zeros(len(np.asarray(xy_points).reshape(-1, 2)))


class EmptyCorridor(Corridor):
    """A flat corridor bounded by four planes.

    Args:
      corridor_width: metres (number or variation).
      corridor_length: metres (number or variation).
      visible_side_planes: draw the bounding planes (half transparent).
      name: the arena's name.
      pooled: this project's: lay the corridor out in the compiled model at each
        episode, without recompiling (see the module's docstring).
    """

    def _build(
        self,
        corridor_width: NumberOrVariation = 4.0,
        corridor_length: NumberOrVariation = 40.0,
        visible_side_planes: bool = True,
        name: str = "empty_corridor",
        *,
        pooled: bool = False,
    ) -> None:
        super()._build(
            corridor_width=corridor_width,
            corridor_length=corridor_length,
            visible_side_planes=visible_side_planes,
            name=name,
            pooled=pooled,
        )


class GapsCorridor(Corridor):
    """Platforms separated by gaps; falling into a gap lands on a floor far below.

    As dm_control's: the first platform (`start_floor`) runs from x = 0 to 6 m;
    then, while the next platform would start before the corridor's end, a
    platform length is drawn from `platform_length`, its colour from `ground_rgba`
    (default aesthetic only) and the gap after it from `gap_length`, in that order,
    so that the same random state lays out the same course as dm_control (and
    leaves the stream where dm_control leaves it). The platforms are geoms
    `start_floor`, `floor_0`, `floor_1`, ... of the body `ground`; the ground plane
    lies `pit_depth` below, invisible.

    Args:
      platform_length: metres (number or variation), per platform.
      gap_length: metres (number or variation), per gap.
      corridor_width, corridor_length: metres (numbers or variations).
      ground_rgba: colour of the platforms (RGBA, or a callable giving one), drawn
        for the first platform and then per platform, with the default aesthetic.
        As dm_control's, it is called with the random state as its first argument:
        a function `f(random_state)` draws from the Environment's stream, a
        `Variation` (whose first argument is `initial_value`) from NumPy's global
        one.
      visible_side_planes: draw the bounding planes.
      aesthetic: "default" (coloured platforms) or a style of `arenas.assets`
        (textured platforms and its sky box, as dm_control's).
      name: the arena's name.
      pit_depth: this project's: depth of the floor below the platforms' tops,
        metres (dm_control's 10).
      pooled: this project's: lay the platforms out as a pool of boxes moved at
        each episode, without recompiling (see the module's docstring).
      max_platforms: this project's, pooled corridors only: the pool size; by
        default the most platforms the parameters' bounds allow. Needed when a
        length is a variation of unknown bounds.
    """

    def _build(
        self,
        platform_length: NumberOrVariation = 1.0,
        gap_length: NumberOrVariation = 2.5,
        corridor_width: NumberOrVariation = 4.0,
        corridor_length: NumberOrVariation = 40.0,
        ground_rgba: ColourOrVariation = _PLATFORM_RGBA,
        visible_side_planes: bool = False,
        aesthetic: str = "default",
        name: str = "gaps_corridor",
        *,
        pit_depth: float = 10.0,
        pooled: bool = False,
        max_platforms: int | None = None,
    ) -> None:
        assets.check_aesthetic(aesthetic)
        if max_platforms is not None and not pooled:
            raise ValueError(
                "max_platforms sizes the pool of a pooled corridor; give pooled=True with "
                "it (a corridor that is not pooled builds as many platforms as it draws)"
            )
        super()._build(
            corridor_width=corridor_width,
            corridor_length=corridor_length,
            visible_side_planes=visible_side_planes,
            name=name,
            pooled=pooled,
        )
        _check_lengths(platform_length=platform_length, gap_length=gap_length, pit_depth=pit_depth)
        self._platform_length = platform_length
        self._gap_length = gap_length
        self._ground_rgba = ground_rgba
        self._aesthetic = aesthetic
        self._pit_depth = float(pit_depth)
        self._warned_full = False
        if aesthetic != "default":
            # As dm_control: the style's sky box replaces the sky, its ground the colour.
            if self._pooled:
                for texture in list(self._spec.textures):
                    if texture.type == mujoco.mjtTexture.mjTEXTURE_SKYBOX:
                        self._spec.delete(texture)
            else:
                for texture in self.mjcf_model.asset.find_all("texture"):
                    if texture.type == "skybox":
                        texture.remove()
            self._style_material = assets.add_style(self._spec, aesthetic).name
        if not self._pooled:
            self._capacity = None
            self._ground_body = self.mjcf_model.worldbody.add("body", name="ground")
            return
        estimate = None
        platform, gap = value_bounds(platform_length), value_bounds(gap_length)
        if platform and gap and self._length_bounds and min(platform[0], gap[0]) >= 0:
            step = platform[0] + gap[0]
            if step > 0:
                remaining = self._length_bounds[1] - _START_PLATFORM_LENGTH_M
                estimate = 1 + max(0, int(np.ceil(remaining / step)))
        self._capacity = _capacity(max_platforms, "max_platforms", estimate)
        if aesthetic == "default":
            material = "corridor_ground"
            rgba = _fixed_colour(ground_rgba)
        else:
            material = self._style_material
            rgba = _PLATFORM_RGBA
        self._platforms = pools.BoxPool(
            self._spec.worldbody,
            "platform",
            self._capacity,
            # Each episode writes the drawn colours; a variation's boxes compile grey.
            rgba=rgba,
            material=material,
        )

    def _ground_z(self) -> float:
        return -self._pit_depth

    def _draw_layout(
        self, length: float, width: float, random_state: np.random.RandomState
    ) -> dict[str, Any]:
        layout = super()._draw_layout(length, width, random_state)
        coloured = self._aesthetic == "default"
        colours = [self._platform_colour(random_state)] if coloured else []
        starts, lengths = [0.0], [_START_PLATFORM_LENGTH_M]
        current_x = _START_PLATFORM_LENGTH_M
        # dm_control's loop and draw order: platform, its colour, the gap after it.
        while current_x < length:
            platform = _draw_length(self._platform_length, random_state, "platform_length")
            if coloured:
                colours.append(self._platform_colour(random_state))
            starts.append(current_x)
            lengths.append(platform)
            current_x += platform + _draw_length(self._gap_length, random_state, "gap_length")
        count = self._capacity
        if count is not None and len(starts) > count:
            if not self._warned_full:
                _log.warning(
                    "GapsCorridor: %d platforms drawn, max_platforms=%d; the last "
                    "platform runs to the corridor's end (%.2f m)",
                    len(starts),
                    count,
                    length,
                )
                self._warned_full = True
            del starts[count:], lengths[count:], colours[count:]
            lengths[-1] = length - starts[-1]
        layout["platform_starts"] = np.asarray(starts)
        layout["platform_lengths"] = np.asarray(lengths)
        layout["platform_ends"] = layout["platform_starts"] + layout["platform_lengths"]
        layout["platform_rgba"] = np.asarray(colours) if coloured else None
        return layout

    def _platform_colour(self, random_state: np.random.RandomState) -> np.ndarray:
        """One platform's RGBA, evaluated as dm_control evaluates it: with the random
        state passed positionally (`variation.evaluate(ground_rgba, random_state)`).
        A plain function of the random state draws from it; a `Variation` takes it
        as its `initial_value` and so draws from NumPy's global stream, not the
        Environment's (and a `Uniform` of 4-vectors fails, as there)."""
        colour = np.asarray(variation.evaluate(self._ground_rgba, random_state), dtype=np.float64)
        if colour.shape != (4,):
            raise ValueError(f"ground_rgba must be 4 numbers (RGBA), got {colour!r}")
        return colour

    def _pools(self) -> tuple[pools.BoxPool, ...]:
        return (self._platforms,) if self._pooled else ()

    def _boxes(self, layout: dict[str, Any]) -> tuple[np.ndarray, np.ndarray, Any]:
        """(centers (k, 3), half sizes (k, 3), rgba (k, 4) or None) of the platforms,
        computed as dm_control computes them (start + length / 2, length / 2)."""
        starts, lengths = layout["platform_starts"], layout["platform_lengths"]
        count = len(starts)
        centers = np.column_stack(
            [starts + lengths / 2.0, np.zeros(count), np.full(count, -_WALL_THICKNESS_M)]
        )
        half_sizes = np.column_stack(
            [
                lengths / 2,
                np.full(count, layout["corridor_width"] / 2),
                np.full(count, _WALL_THICKNESS_M),
            ]
        )
        return centers, half_sizes, layout["platform_rgba"]

    def _pool_boxes(self, layout: dict[str, Any]) -> list[tuple[np.ndarray, np.ndarray, Any]]:
        return [self._boxes(layout)] if self._pooled else []

    def _write_layout(self, physics: Physics, layout: dict[str, Any]) -> None:
        centers, half_sizes, rgba = self._boxes(layout)
        self._platforms.write(physics, centers, half_sizes, rgba=rgba)

    def _add_layout_geoms(self, layout: dict[str, Any]) -> None:
        # dm_control moves the ground plane down and makes it invisible.
        self._ground_plane.rgba = [0.0, 0.0, 0.0, 0.0]
        self._ground_body.geom.clear()
        centers, half_sizes, rgba = self._boxes(layout)
        for index, (center, half_size) in enumerate(zip(centers, half_sizes)):
            name = "start_floor" if index == 0 else f"floor_{index - 1}"
            if rgba is None:
                self._ground_body.add(
                    "geom",
                    type="box",
                    name=name,
                    pos=center,
                    size=half_size,
                    material=self._style_material,
                )
            else:
                self._ground_body.add(
                    "geom", type="box", rgba=rgba[index], name=name, pos=center, size=half_size
                )

    @property
    def ground_geoms(self) -> tuple[Any, ...]:
        return (self._ground_plane,) + self.platforms

    @property
    def platforms(self) -> tuple[Any, ...]:
        """The platform geoms: this episode's (`start_floor`, `floor_<i>`), or a
        pooled corridor's whole pool (unused ones parked far below)."""
        if self._pooled:
            return self._platforms.geoms
        return tuple(self._ground_body.find_all("geom"))

    @property
    def pit_depth(self) -> float:
        return self._pit_depth

    def terrain_height(self, physics: Physics, xy_points: ArrayLike) -> np.ndarray:
        """Height (n,) of what a walker would stand on at `xy_points` (n, 2), metres:
        0 on a platform, `-pit_depth` over a gap."""
        if self._pooled:
            centers, half_sizes = self._platforms.active_boxes(physics)
        elif self._layout is None:
            centers, half_sizes = np.zeros((0, 3)), np.zeros((0, 3))
        else:
            centers, half_sizes, _ = self._boxes(self._layout)
        tops = pools.box_tops_at(xy_points, centers, half_sizes)
        return np.where(np.isnan(tops), -self._pit_depth, tops)


class WallsCorridor(Corridor):
    """Walls jutting alternately from the sides, to run around (dm_control paper §7.1).

    As dm_control's: the first wall stands `wall_gap` + 2 m from x = 0 (with
    `include_initial_padding`, else `wall_gap` - 2 m); while a wall's x is before
    the corridor's end, its width, height, colour and whether it swaps side are
    drawn, in that order, then the gap to the next. The walls are geoms
    `wall_0`, `wall_1`, ... of the body `walls`.

    Args:
      wall_gap: distance along x between consecutive walls, metres.
      wall_width: how far a wall reaches across the corridor from its side, metres.
      wall_height: metres.
      swap_wall_side: whether the next wall stands on the other side (bool or variation).
      wall_rgba: wall colour (RGBA or a variation giving one).
      corridor_width, corridor_length: metres.
      visible_side_planes: draw the bounding planes.
      include_initial_padding: keep 4 m more free room before the first wall.
      name: the arena's name.
      pooled: this project's: lay the walls out as a pool of boxes moved at each
        episode, without recompiling (see the module's docstring).
      max_walls: this project's, pooled corridors only: the pool size; by default
        the most walls the parameters' bounds allow.

    Every parameter but `visible_side_planes`, `include_initial_padding`,
    `pooled`, `max_walls` and `name` accepts a number or a variation.
    """

    def _build(
        self,
        wall_gap: NumberOrVariation = 2.5,
        wall_width: NumberOrVariation = 2.5,
        wall_height: NumberOrVariation = 2.0,
        swap_wall_side: bool | Callable[..., Any] = True,
        wall_rgba: ColourOrVariation = (1.0, 1.0, 1.0, 1.0),
        corridor_width: NumberOrVariation = 4.0,
        corridor_length: NumberOrVariation = 40.0,
        visible_side_planes: bool = False,
        include_initial_padding: bool = True,
        name: str = "walls_corridor",
        *,
        pooled: bool = False,
        max_walls: int | None = None,
    ) -> None:
        if max_walls is not None and not pooled:
            raise ValueError(
                "max_walls sizes the pool of a pooled corridor; give pooled=True with it "
                "(a corridor that is not pooled builds as many walls as it draws)"
            )
        super()._build(
            corridor_width=corridor_width,
            corridor_length=corridor_length,
            visible_side_planes=visible_side_planes,
            name=name,
            pooled=pooled,
        )
        _check_lengths(wall_gap=wall_gap, wall_width=wall_width, wall_height=wall_height)
        self._wall_gap = wall_gap
        self._wall_width = wall_width
        self._wall_height = wall_height
        self._swap_wall_side = swap_wall_side
        self._wall_rgba = wall_rgba
        self._first_wall_offset = (
            _CORRIDOR_X_PADDING_M if include_initial_padding else -_CORRIDOR_X_PADDING_M
        )
        self._warned_full = False
        if not self._pooled:
            self._capacity = None
            return
        estimate = None
        gap = value_bounds(wall_gap)
        if gap and gap[0] > 0 and self._length_bounds:
            span = self._length_bounds[1] - (gap[0] + self._first_wall_offset)
            estimate = 1 + max(0, int(np.ceil(span / gap[0])))
        self._capacity = _capacity(max_walls, "max_walls", estimate)
        self._walls = pools.BoxPool(
            self._spec.worldbody, "wall", self._capacity, rgba=(1.0, 1.0, 1.0, 1.0)
        )

    def _draw_layout(
        self, length: float, width: float, random_state: np.random.RandomState
    ) -> dict[str, Any]:
        layout = super()._draw_layout(length, width, random_state)
        xs, widths, heights, sides, colours = [], [], [], [], []
        side = 0
        # dm_control's loop and draw order: the first gap; then per wall its width,
        # height, colour and side swap, and the gap to the next wall.
        wall_x = _draw_length(self._wall_gap, random_state, "wall_gap") - _CORRIDOR_X_PADDING_M
        if self._first_wall_offset > 0:
            wall_x += 2 * _CORRIDOR_X_PADDING_M
        while wall_x < length:
            xs.append(wall_x)
            widths.append(_draw_length(self._wall_width, random_state, "wall_width"))
            heights.append(_draw_length(self._wall_height, random_state, "wall_height"))
            colours.append(_draw_colour(self._wall_rgba, random_state, "wall_rgba"))
            if variation.evaluate(self._swap_wall_side, random_state=random_state):
                side = 1 - side
            sides.append(side)
            wall_x += _draw_length(self._wall_gap, random_state, "wall_gap")
        count = self._capacity
        if count is not None and len(xs) > count:
            if not self._warned_full:
                _log.warning(
                    "WallsCorridor: max_walls=%d reached at x=%.2f m of %.2f m; the "
                    "rest of the corridor is free",
                    count,
                    xs[count - 1],
                    length,
                )
                self._warned_full = True
            del xs[count:], widths[count:], heights[count:], sides[count:], colours[count:]
        layout["wall_x"] = np.asarray(xs, dtype=np.float64)
        layout["wall_width"] = np.asarray(widths, dtype=np.float64)
        layout["wall_height"] = np.asarray(heights, dtype=np.float64)
        # +1: against the left side (+y), -1 against the right.
        layout["wall_side"] = 2.0 * np.asarray(sides, dtype=np.float64) - 1.0
        layout["wall_rgba"] = np.asarray(colours, dtype=np.float64).reshape(-1, 4)
        return layout

    def _pools(self) -> tuple[pools.BoxPool, ...]:
        return (self._walls,) if self._pooled else ()

    def _boxes(self, layout: dict[str, Any]) -> tuple[np.ndarray, np.ndarray, Any]:
        """(centers (k, 3), half sizes (k, 3), rgba (k, 4)) of the walls."""
        widths, heights = layout["wall_width"], layout["wall_height"]
        count = len(widths)
        y = layout["wall_side"] * ((layout["corridor_width"] - widths) / 2)
        centers = np.column_stack([layout["wall_x"], y, heights / 2])
        half_sizes = np.column_stack(
            [np.full(count, _WALL_THICKNESS_M / 2), widths / 2, heights / 2]
        )
        return centers, half_sizes, layout["wall_rgba"]

    def _pool_boxes(self, layout: dict[str, Any]) -> list[tuple[np.ndarray, np.ndarray, Any]]:
        return [self._boxes(layout)] if self._pooled else []

    def _write_layout(self, physics: Physics, layout: dict[str, Any]) -> None:
        centers, half_sizes, rgba = self._boxes(layout)
        self._walls.write(physics, centers, half_sizes, rgba=rgba)

    def _add_layout_geoms(self, layout: dict[str, Any]) -> None:
        centers, half_sizes, rgba = self._boxes(layout)
        for index, (center, half_size) in enumerate(zip(centers, half_sizes)):
            self._walls_body.add(
                "geom",
                type="box",
                name=f"wall_{index}",
                pos=center,
                size=half_size,
                rgba=rgba[index],
            )

    @property
    def walls(self) -> tuple[Any, ...]:
        """The wall geoms: this episode's (`wall_<i>`), or a pooled corridor's whole
        pool (unused ones parked far below)."""
        if self._pooled:
            return self._walls.geoms
        return tuple(self._walls_body.find_all("geom"))

    def terrain_height(self, physics: Physics, xy_points: ArrayLike) -> np.ndarray:
        """Height (n,) of the ground or a wall top at `xy_points` (n, 2), metres."""
        if self._pooled:
            centers, half_sizes = self._walls.active_boxes(physics)
        elif self._layout is None:
            centers, half_sizes = np.zeros((0, 3)), np.zeros((0, 3))
        else:
            centers, half_sizes, _ = self._boxes(self._layout)
        tops = pools.box_tops_at(xy_points, centers, half_sizes)
        return np.where(np.isnan(tops), 0.0, tops)
