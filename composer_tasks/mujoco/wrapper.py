"""The visualisation structs of dm_control's `dm_control.mujoco.wrapper`, over MuJoCo's.

dm_control's wrapper subclasses MuJoCo's `MjvOption`, `MjvCamera`, `MjvScene`,
`MjvPerturb` and `MjvFigure` to add a `ptr` (the struct itself) and a few defaults;
code written for dm_control builds them to pass to `physics.render(scene_option=...)`
or a camera. The classes here are the same subclasses of MuJoCo's structs, with
dm_control's defaults: an `MjvOption` does not draw rangefinder rays, an `MjvScene`
made from a model holds dm_control's estimate of its renderable geoms (at least
1000) and lists only the geoms it holds.

`Error` is the error of `model.name2id` / `model.id2name` (`composer_tasks.physics.Error`),
and `mjbindings` MuJoCo's functions and enums (`composer_tasks.mjbindings`). `MjModel`
has the wrapper's loaders (`from_xml_string(xml, assets)`, `from_xml_path`,
`from_byte_string`, `from_binary_path`) and `to_bytes` / `save_binary` / `copy` around a
`mujoco.MjModel` (`ptr`); `wrapper_util` beside this module has `util`'s string helpers.
`physics.model` and `physics.data` are MuJoCo's own `MjModel` and `MjData` with
dm_control's wrapper methods (`ptr`, `name2id`, ...), so no wrapper classes of them
are needed to use a physics.
"""

from __future__ import annotations

import contextlib
import copy
import sys
from collections.abc import Iterator, Mapping
from typing import Any

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


# The file name a byte string is loaded under (MuJoCo reads binaries by name).
_BINARY_ASSET_NAME = "model.mjb"


class MjModel:
    """A `mujoco.MjModel` with dm_control's wrapper methods.

    Attributes that are not the wrapper's own (`nq`, `body_mass`, `opt`, ...) are
    the wrapped model's: read and written through, so an edit here is an edit of
    `ptr`.
    """

    def __init__(self, model: mujoco.MjModel) -> None:
        if not isinstance(model, mujoco.MjModel):
            raise TypeError(f"MjModel wraps a mujoco.MjModel, got {type(model).__name__}")
        object.__setattr__(self, "_model", model)

    @property
    def ptr(self) -> mujoco.MjModel:
        """The wrapped `mujoco.MjModel`."""
        return self._model

    def __getattr__(self, name: str) -> Any:
        # Only called for names this class lacks: the wrapped model's fields.
        return getattr(self._model, name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self._model, name, value)

    def __getstate__(self) -> mujoco.MjModel:
        return self._model

    def __setstate__(self, state: mujoco.MjModel) -> None:
        object.__setattr__(self, "_model", state)

    def __copy__(self) -> MjModel:
        return type(self)(copy.copy(self._model))

    def copy(self) -> MjModel:
        """A copy that shares no memory with this model."""
        return self.__copy__()

    @classmethod
    def from_xml_string(cls, xml_string: str, assets: dict[str, bytes] | None = None) -> MjModel:
        """The model compiled from MJCF (or URDF) text; `assets` maps the file names
        the text references (meshes, textures, included XML) to their contents."""
        return cls(mujoco.MjModel.from_xml_string(xml_string, assets or {}))

    @classmethod
    def from_xml_path(cls, xml_path: str) -> MjModel:
        """The model compiled from an MJCF (or URDF) file."""
        return cls(mujoco.MjModel.from_xml_path(xml_path))

    @classmethod
    def from_byte_string(cls, byte_string: bytes) -> MjModel:
        """The model saved as `byte_string` by `to_bytes` (MuJoCo's binary format)."""
        return cls(
            mujoco.MjModel.from_binary_path(_BINARY_ASSET_NAME, {_BINARY_ASSET_NAME: byte_string})
        )

    @classmethod
    def from_binary_path(cls, binary_path: str) -> MjModel:
        """The model saved in MuJoCo's binary format at `binary_path`."""
        return cls(mujoco.MjModel.from_binary_path(binary_path, {}))

    def to_bytes(self) -> bytes:
        """This model in MuJoCo's binary format (`mj_saveModel`)."""
        buffer = np.zeros(mujoco.mj_sizeModel(self._model), dtype=np.uint8)
        mujoco.mj_saveModel(self._model, None, buffer)
        return buffer.tobytes()

    def save_binary(self, binary_path: str) -> None:
        """Writes this model in MuJoCo's binary format to `binary_path`."""
        mujoco.mj_saveModel(self._model, binary_path, None)


# dm_control's tutorial builds a scene option as `mujoco.wrapper.core.MjvOption()`:
# `core` (dm_control's ctypes structs, whose names the wrapper re-exports) reached as an
# attribute is this module, whose structs are those above. (Importing
# `dm_control.mujoco.wrapper.core` has no counterpart: composer_tasks.porting.)
core = sys.modules[__name__]

__all__ = [
    "Error",
    "MjModel",
    "MjvCamera",
    "MjvFigure",
    "MjvOption",
    "MjvPerturb",
    "MjvScene",
    "mjbindings",
]
