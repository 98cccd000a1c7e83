"""The public helpers of dm_control's `dm_control.mujoco.wrapper`, over MuJoCo's bindings.

dm_control wraps MuJoCo's structs in its own classes; this project uses MuJoCo's
structs directly (`physics.model` is a `mujoco.MjModel`). What ported programs and
dm_control's own tests use from the wrapper has a counterpart here:

* `MjModel`: the model loaders (`from_xml_string(xml, assets)`, `from_xml_path`,
  `from_byte_string`, `from_binary_path`) and `to_bytes` / `save_binary` / `copy`,
  around a `mujoco.MjModel` (`.ptr`), whose every field reads and writes through;
* `util`: `to_binary_string` and `to_native_string`.

Every other name of dm_control's wrapper (`MjData`, `MjvScene`, `MjrContext`, the
callback contexts) has no counterpart: MuJoCo's own classes are used instead, and
reading one of them here raises an `AttributeError` saying so.
"""

from __future__ import annotations

import copy
from typing import Any

import mujoco
import numpy as np

from composer_tasks.mujoco_wrapper import util

__all__ = ["MjModel", "util"]

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


# dm_control's wrapper names that have no counterpart here, and what to use instead.
_NO_COUNTERPART = {
    "MjData": "mujoco.MjData (physics.data is one)",
    "MjvScene": "mujoco.MjvScene",
    "MjvCamera": "mujoco.MjvCamera",
    "MjvOption": "mujoco.MjvOption",
    "MjvPerturb": "mujoco.MjvPerturb",
    "MjvFigure": "mujoco.MjvFigure",
    "MjrContext": "mujoco.Renderer (rendering here is MuJoCo's renderer)",
    "Error": "mujoco.FatalError (MuJoCo's errors) or ValueError (a model that fails to compile)",
    "mjbindings": "composer_tasks.mjbindings (import it directly)",
    "callback_context": "mujoco.set_mjcb_control and its kin (MuJoCo's callbacks)",
    "set_callback": "mujoco.set_mjcb_control and its kin (MuJoCo's callbacks)",
    "enable_timer": "MuJoCo's own timers (data.timer)",
    "get_schema": "nothing: PyMJCF here has no XML schema (ARCHITECTURE.md decision 1)",
    "save_last_parsed_model_to_xml": "mujoco.mj_saveLastXML",
}


def __getattr__(name: str) -> Any:
    if name in _NO_COUNTERPART:
        raise AttributeError(
            f"dm_control.mujoco.wrapper.{name} has no counterpart in "
            f"composer_tasks.mujoco_wrapper; use {_NO_COUNTERPART[name]}"
        )
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
