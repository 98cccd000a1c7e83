"""Reading MJCF text and files into models, and writing models back to MJCF text.

Parsing is MuJoCo's own (`MjSpec.from_string` / `from_file`, which also follows
`<include>`); the result is a `RootElement` over the parsed spec. Writing is
`MjSpec.to_xml` of the root model.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import IO, Any

import mujoco

from composer_tasks.mjcf.root import RootElement


def from_xml_string(
    xml_string: str,
    escape_separators: bool = False,
    model_dir: str | os.PathLike[str] = "",
    resolve_references: bool = True,
    assets: Mapping[str, bytes] | None = None,
) -> RootElement:
    """Parses MJCF text into a model.

    Args:
      xml_string: the MJCF text.
      escape_separators: must be False: names containing "/" are kept as they are.
      model_dir: the folder that relative asset paths resolve against.
      resolve_references: must be True (MuJoCo resolves references when it compiles).
      assets: `{file name: bytes}` for files the text refers to.
    """
    _check_options(escape_separators, resolve_references)
    if not isinstance(xml_string, str):
        raise TypeError(f"xml_string must be a string, got {type(xml_string).__name__}")
    spec = mujoco.MjSpec.from_string(xml_string, assets=dict(assets or {}))
    if model_dir:
        spec.modelfiledir = os.fspath(model_dir)
    return RootElement._for_spec(spec, authored=True)


def from_path(
    path: str | os.PathLike[str],
    escape_separators: bool = False,
    resolve_references: bool = True,
    assets: Mapping[str, bytes] | None = None,
) -> RootElement:
    """Loads an MJCF file; its assets resolve relative to the file's folder."""
    _check_options(escape_separators, resolve_references)
    path = os.fspath(path)
    if not os.path.exists(path):
        raise FileNotFoundError(f"no MJCF file at {path!r}")
    spec = mujoco.MjSpec.from_file(path, assets=dict(assets or {}))
    return RootElement._for_spec(spec, authored=True)


def from_file(
    file_handle: IO[Any],
    escape_separators: bool = False,
    model_dir: str | os.PathLike[str] = "",
    resolve_references: bool = True,
    assets: Mapping[str, bytes] | None = None,
) -> RootElement:
    """Parses MJCF text read from an open file (text or bytes)."""
    text = file_handle.read()
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    return from_xml_string(text, escape_separators, model_dir, resolve_references, assets)


def to_xml_string(model: RootElement, precision: int | None = None) -> str:
    """The root model of `model` as MJCF text (MuJoCo's writer, which validates it)."""
    if precision is not None:
        raise ValueError("precision is not supported: MuJoCo writes full precision")
    return model._top_spec().to_xml()


def get_assets(model: RootElement) -> dict:
    """`{file name: bytes}` of the files the model's meshes, textures and heightfields
    name, from the model's asset dictionary or, relative to the model's folder, disk."""
    spec = model._top_spec()
    found = dict(spec.assets)
    folders = {"meshes": spec.meshdir, "textures": spec.texturedir, "hfields": spec.meshdir}
    for collection, folder in folders.items():
        for element in getattr(spec, collection):
            name = getattr(element, "file", "")
            if not name or name in found:
                continue
            path = os.path.join(spec.modelfiledir or "", folder or "", name)
            if not os.path.exists(path):
                raise FileNotFoundError(
                    f"asset {name!r} of {collection[:-1]} {element.name!r} is neither in the "
                    f"model's assets nor at {path!r}"
                )
            with open(path, "rb") as handle:
                found[name] = handle.read()
    return found


def _check_options(escape_separators: bool, resolve_references: bool) -> None:
    if escape_separators:
        raise ValueError("escape_separators=True is not supported: names are kept as written")
    if not resolve_references:
        raise ValueError(
            "resolve_references=False is not supported: MuJoCo resolves them at compile"
        )


__all__ = ["from_file", "from_path", "from_xml_string", "get_assets", "to_xml_string"]
