"""The visualisation structs of dm_control's `dm_control.mujoco.wrapper`, over MuJoCo's.

dm_control's wrapper subclasses MuJoCo's `MjvOption`, `MjvCamera`, `MjvScene`,
`MjvPerturb` and `MjvFigure` to add a `ptr` (the struct itself) and a few defaults;
code written for dm_control builds them to pass to `physics.render(scene_option=...)`
or a camera. The classes here are the same subclasses of MuJoCo's structs, with
dm_control's defaults: an `MjvOption` does not draw rangefinder rays, an `MjvScene`
made from a model holds dm_control's estimate of its renderable geoms (at least
1000) and lists only the geoms it holds.

`Error` is the error of `model.name2id` / `model.id2name` (`composer_tasks.physics.Error`),
and `mjbindings` MuJoCo's functions and enums (`composer_tasks.mjbindings`).
`physics.model` and `physics.data` are MuJoCo's own `MjModel` and `MjData` with
dm_control's wrapper methods (`ptr`, `name2id`, ...), so no wrapper classes of them
are needed to use a physics.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping

import mujoco
import numpy as np

from composer_tasks import mjbindings, rendering
from composer_tasks.physics import Error


class MjvOption(mujoco.MjvOption):
    """MuJoCo's visualisation options with dm_control's default: rangefinder rays off."""

    def __init__(self) -> None:
        super().__init__()
        rendering.apply_dm_control_option_defaults(self)

    @property
    def ptr(self) -> MjvOption:
        """The struct itself (dm_control's raw pointer)."""
        return self


class MjvCamera(mujoco.MjvCamera):
    """MuJoCo's abstract camera; `type_` is dm_control's alias of `type`."""

    @property
    def ptr(self) -> MjvCamera:
        """The struct itself (dm_control's raw pointer)."""
        return self

    @property
    def type_(self) -> int:
        """The camera's `mujoco.mjtCamera` (dm_control's name of `type`)."""
        return self.type

    @type_.setter
    def type_(self, value: int) -> None:
        self.type = value


class MjvPerturb(mujoco.MjvPerturb):
    """MuJoCo's perturbation state."""

    @property
    def ptr(self) -> MjvPerturb:
        """The struct itself (dm_control's raw pointer)."""
        return self


class MjvFigure(mujoco.MjvFigure):
    """MuJoCo's 2D figure; `range_` is dm_control's alias of `range`."""

    @property
    def ptr(self) -> MjvFigure:
        """The struct itself (dm_control's raw pointer)."""
        return self

    @property
    def range_(self) -> np.ndarray:
        """The axis ranges (dm_control's name of `range`)."""
        return self.range

    @range_.setter
    def range_(self, value: np.ndarray) -> None:
        self.range = value


class MjvScene(mujoco.MjvScene):
    """MuJoCo's abstract scene.

    Args:
      model: the model whose geoms the scene holds (a `mujoco.MjModel`, or anything
        with its `ptr`); None makes an empty scene.
      max_geom: the most geoms the scene holds; by default dm_control's estimate
        from the model's sizes, at least 1000.
    """

    def __init__(self, model: mujoco.MjModel | None = None, max_geom: int | None = None) -> None:
        if model is None:
            super().__init__()
            return
        model = getattr(model, "ptr", model)
        if not isinstance(model, mujoco.MjModel):
            raise TypeError(f"MjvScene takes a mujoco.MjModel, got {type(model).__name__}")
        if max_geom is None:
            max_geom = rendering.default_max_geom(model)
        super().__init__(model, max_geom)

    @property
    def ptr(self) -> MjvScene:
        """The struct itself (dm_control's raw pointer)."""
        return self

    @property
    def geoms(self) -> np.ndarray:  # type: ignore[override]
        """The geoms the scene holds now (the first `ngeom` of its buffer)."""
        return super().geoms[: self.ngeom]

    @contextlib.contextmanager
    def override_flags(self, overrides: Mapping[str | int, bool]) -> Iterator[None]:
        """Sets rendering flags inside the block and restores them after it; keys are
        lowercase flag names ("wireframe") or `mujoco.mjtRndFlag` values.

        Raises:
          ValueError: a key that names no `mujoco.mjtRndFlag`.
        """
        if not overrides:
            yield
            return
        saved = self.flags.copy()
        for index, value in rendering.render_flags(overrides).items():
            self.flags[index] = value
        try:
            yield
        finally:
            np.copyto(self.flags, saved)

    def free(self) -> None:
        """Nothing to free: MuJoCo's bindings own the memory (dm_control's no-op)."""


__all__ = [
    "Error",
    "MjvCamera",
    "MjvFigure",
    "MjvOption",
    "MjvPerturb",
    "MjvScene",
    "mjbindings",
]
