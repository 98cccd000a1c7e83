"""dm_control's `dm_control.mujoco.wrapper.util` string helpers (UTF-8, as there)."""

from __future__ import annotations

from typing import Any

_ENCODING = "utf-8"


def to_binary_string(text: str | bytes) -> bytes:
    """`text` as bytes: a `str` encoded as UTF-8, `bytes` unchanged."""
    if isinstance(text, bytes):
        return text
    if not isinstance(text, str):
        raise TypeError(f"to_binary_string takes str or bytes, got {type(text).__name__}")
    return text.encode(_ENCODING)


def to_native_string(text: Any) -> Any:
    """`text` as `str` if it is `bytes` (decoded as UTF-8); anything else unchanged,
    as dm_control's helper (which returns `None` or a number as given)."""
    if isinstance(text, bytes):
        return text.decode(_ENCODING)
    return text
