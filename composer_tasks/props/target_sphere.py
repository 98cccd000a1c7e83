"""Target spheres that light up on touch (dm_control's `locomotion.props.target_sphere`).

A target is a sphere that reports contacts but exerts no force: its geom's margin
is minus its diameter and its gap its diameter (dm_control's values), so MuJoCo
lists a contact as soon as another geom touches the sphere and never makes it
active. A target counts as reached from the first substep on which any contact
(or, with `specific_collision_geom_ids`, a contact with one of those geoms)
involves its geom, until the episode ends.

Frames and units: the sphere's centre is `height_above_ground` metres above the
entity's frame; radii are metres.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

import mujoco
import numpy as np

from composer_tasks import composer, mjcf
from composer_tasks.physics import Physics

# Side of the checker cube textures, pixels (dm_control's 100).
_TEXTURE_SIZE_PX = 100


def _validated_rgb(label: str, rgb: Sequence[float]) -> list[float]:
    values = [float(value) for value in rgb]
    if len(values) != 3 or not all(0.0 <= value <= 1.0 for value in values):
        raise ValueError(f"{label} must be three values in [0, 1], got {rgb!r}")
    return values


def _add_checker_cube(
    spec: mujoco.MjSpec, name: str, rgb1: list[float], rgb2: list[float]
) -> mujoco.MjsTexture:
    return spec.add_texture(
        name=name,
        type=mujoco.mjtTexture.mjTEXTURE_CUBE,
        builtin=mujoco.mjtBuiltin.mjBUILTIN_CHECKER,
        rgb1=rgb1,
        rgb2=rgb2,
        width=_TEXTURE_SIZE_PX,
        height=_TEXTURE_SIZE_PX,
    )


def _add_sphere(spec: mujoco.MjSpec, radius: float, height: float, material: str) -> mujoco.MjsGeom:
    return spec.worldbody.add_geom(
        name="geom",
        type=mujoco.mjtGeom.mjGEOM_SPHERE,
        size=[radius, 0.0, 0.0],
        pos=[0.0, 0.0, height],
        margin=-2.0 * radius,
        gap=2.0 * radius,
        material=material,
    )


def _validated_size(radius: float, height_above_ground: float) -> tuple[float, float]:
    if not radius > 0:
        raise ValueError(f"radius must be positive metres, got {radius!r}")
    return float(radius), float(height_above_ground)


class _TouchTarget(composer.Entity):
    """What both targets share: the sphere, its material and the contact test."""

    _geom: mujoco.MjsGeom
    _material: mujoco.MjsMaterial
    _specific_collision_geom_ids: Collection[int] | None

    def _set_collision_filter(self, specific_collision_geom_ids: Collection[int] | None) -> None:
        if specific_collision_geom_ids is not None:
            specific_collision_geom_ids = [int(i) for i in specific_collision_geom_ids]
        self._specific_collision_geom_ids = specific_collision_geom_ids

    @property
    def geom(self) -> mjcf.Element:
        """The sphere's geom."""
        return self._handle(self._geom)

    @property
    def material(self) -> mjcf.Element:
        """The sphere's material (its texture or alpha shows the activation)."""
        return self._handle(self._material)

    def _is_touched(self, physics: Physics) -> bool:
        """Whether a contact of this substep involves the sphere (and, if given, one
        of the specific geoms)."""
        data = physics.data
        count = int(data.ncon)
        if count == 0:
            return False
        pairs = np.asarray(data.contact.geom)[:count]
        geom_id = int(physics.bind(self._geom).id)
        touching = np.any(pairs == geom_id, axis=1)
        # dm_control's filter: an empty collection means no filter.
        if self._specific_collision_geom_ids:
            specific = np.isin(pairs, list(self._specific_collision_geom_ids)).any(axis=1)
            touching &= specific
        return bool(np.any(touching))


class TargetSphere(_TouchTarget):
    """A sphere that becomes transparent once touched, for the rest of the episode.

    Args:
      radius: sphere radius, metres.
      height_above_ground: height of the centre above the entity's frame, metres.
      rgb1, rgb2: the two colours (each three values in [0, 1]) of the checker
        pattern.
      specific_collision_geom_ids: None or an empty collection (any contact
        activates), or compiled geom ids: only a contact with one of them
        activates.
      name: the entity's name.
    """

    def _build(
        self,
        radius: float = 0.6,
        height_above_ground: float = 1.0,
        rgb1: Sequence[float] = (0.0, 0.4, 0.0),
        rgb2: Sequence[float] = (0.0, 0.7, 0.0),
        specific_collision_geom_ids: Collection[int] | None = None,
        name: str = "target",
    ) -> None:
        radius, height = _validated_size(radius, height_above_ground)
        spec = mujoco.MjSpec()
        spec.modelname = name
        texture = _add_checker_cube(
            spec, "target_sphere", _validated_rgb("rgb1", rgb1), _validated_rgb("rgb2", rgb2)
        )
        self._texture = texture
        self._material = spec.add_material(name="target_sphere")
        self._material.textures[mujoco.mjtTextureRole.mjTEXROLE_RGB] = "target_sphere"
        self._geom = _add_sphere(spec, radius, height, "target_sphere")
        self._set_collision_filter(specific_collision_geom_ids)
        self._activated = False
        self._spec = spec

    @property
    def activated(self) -> bool:
        """Whether the target has been reached during this episode."""
        return self._activated

    def reset(self, physics: Physics) -> None:
        """Makes the target not activated (and opaque) again."""
        self._activated = False
        physics.bind(self._material).rgba[-1] = 1.0

    def _update_activation(self, physics: Physics) -> None:
        if not self._activated and self._is_touched(physics):
            self._activated = True
            physics.bind(self._material).rgba[-1] = 0.0

    def initialize_episode_mjcf(self, random_state: np.random.RandomState) -> None:
        del random_state
        self._activated = False

    def initialize_episode(self, physics: Physics, random_state: np.random.RandomState) -> None:
        del random_state
        # dm_control recompiles the model every episode, which makes the sphere
        # opaque again; here the model is kept, so the alpha is restored explicitly.
        physics.bind(self._material).rgba[-1] = 1.0
        self._update_activation(physics)

    def after_substep(self, physics: Physics, random_state: np.random.RandomState) -> None:
        del random_state
        self._update_activation(physics)


class TargetSphereTwoTouch(_TouchTarget):
    """A sphere that records a first touch and a second one `touch_debounce` later.

    Its texture shows the state: `rgb_initial` before any touch, `rgb_interval`
    after the first, `rgb_final` after the second. `activated` is the pair
    (touched once, touched twice); both stay set until the episode ends.

    Args:
      radius: sphere radius, metres.
      height_above_ground: height of the centre above the entity's frame, metres.
      rgb_initial, rgb_interval, rgb_final: each two colours (three values in
        [0, 1]) of a checker pattern.
      touch_debounce: seconds after the first touch during which touches do not
        count as the second.
      specific_collision_geom_ids: as `TargetSphere`'s.
      name: the entity's name.
    """

    def _build(
        self,
        radius: float = 0.6,
        height_above_ground: float = 1.0,
        rgb_initial: Sequence[Sequence[float]] = ((0.0, 0.4, 0.0), (0.0, 0.7, 0.0)),
        rgb_interval: Sequence[Sequence[float]] = ((1.0, 1.0, 0.4), (0.7, 0.7, 0.0)),
        rgb_final: Sequence[Sequence[float]] = ((0.4, 0.7, 1.0), (0.0, 0.4, 0.7)),
        touch_debounce: float = 0.2,
        specific_collision_geom_ids: Collection[int] | None = None,
        name: str = "target",
    ) -> None:
        radius, height = _validated_size(radius, height_above_ground)
        if not touch_debounce >= 0:
            raise ValueError(f"touch_debounce must be >= 0 seconds, got {touch_debounce!r}")
        spec = mujoco.MjSpec()
        spec.modelname = name
        textures = []
        for texture_name, label, colours in (
            ("target_sphere_init", "rgb_initial", rgb_initial),
            ("target_sphere_inter", "rgb_interval", rgb_interval),
            ("target_sphere_final", "rgb_final", rgb_final),
        ):
            if len(colours) != 2:
                raise ValueError(f"{label} must be two colours, got {colours!r}")
            rgb1 = _validated_rgb(f"{label}[0]", colours[0])
            rgb2 = _validated_rgb(f"{label}[1]", colours[1])
            textures.append(_add_checker_cube(spec, texture_name, rgb1, rgb2))
        self._texture_initial, self._texture_interval, self._texture_final = textures
        self._material = spec.add_material(name="target_sphere_init")
        self._material.textures[mujoco.mjtTextureRole.mjTEXROLE_RGB] = "target_sphere_init"
        self._geom = _add_sphere(spec, radius, height, "target_sphere_init")
        self._set_collision_filter(specific_collision_geom_ids)
        self._touch_debounce = float(touch_debounce)
        self._touched_once = False
        self._touched_twice = False
        self._touch_time = 0.0
        self._spec = spec

    @property
    def activated(self) -> tuple[bool, bool]:
        """(touched at least once, touched at least twice) this episode."""
        return (self._touched_once, self._touched_twice)

    def _show(self, physics: Physics, texture: mujoco.MjsTexture) -> None:
        texture_id = int(physics.bind(texture).id)
        material_id = int(physics.bind(self._material).id)
        physics.model.mat_texid[material_id, mujoco.mjtTextureRole.mjTEXROLE_RGB] = texture_id

    def reset(self, physics: Physics) -> None:
        """Makes the target untouched again and shows its initial texture."""
        self._touched_once = False
        self._touched_twice = False
        self._show(physics, self._texture_initial)

    def _update_activation(self, physics: Physics) -> None:
        if self._touched_once and self._touched_twice:
            return
        if not self._is_touched(physics):
            return
        if not self._touched_once:
            self._touched_once = True
            self._touch_time = float(physics.data.time)
            self._show(physics, self._texture_interval)
        if float(physics.data.time) > self._touch_time + self._touch_debounce:
            self._touched_twice = True
            self._show(physics, self._texture_final)

    def initialize_episode_mjcf(self, random_state: np.random.RandomState) -> None:
        del random_state
        self._touched_once = False
        self._touched_twice = False

    def initialize_episode(self, physics: Physics, random_state: np.random.RandomState) -> None:
        del random_state
        # As TargetSphere: the kept model still shows last episode's texture.
        self._show(physics, self._texture_initial)
        self._update_activation(physics)

    def after_substep(self, physics: Physics, random_state: np.random.RandomState) -> None:
        del random_state
        self._update_activation(physics)
