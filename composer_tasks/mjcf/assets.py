"""Binary assets given by content (`mjcf.Asset`) and models read from zip archives
(`mjcf.from_zip`).

An `Asset` is a file's bytes and extension: `mesh.file = mjcf.Asset(data, ".stl")`
stores the bytes in the model's MjSpec assets under the name MuJoCo's virtual file
system will know them by (`get_vfs_filename`), and the mesh refers to that name.
"""

from __future__ import annotations

import hashlib
import io
import os
import zipfile
from typing import Any

# The longest file name MuJoCo's virtual file system takes, as PyMJCF trims to it
# (dm_control/mjcf/constants.py, MAX_VFS_FILENAME_LENGTH).
MAX_VFS_FILENAME_LENGTH = 998


class Asset:
    """A binary asset given by its contents (PyMJCF's `mjcf.Asset`).

    Args:
      contents: the file's bytes (a string is encoded as UTF-8).
      extension: the file's extension with its dot (".stl", ".png"): MuJoCo picks
        the decoder from it.
      prefix: a readable start for the file's name in the virtual file system.
    """

    __slots__ = ("contents", "extension", "prefix")

    def __init__(self, contents: bytes | str, extension: str, prefix: str = "") -> None:
        if not isinstance(contents, (bytes, str)):
            raise TypeError(f"contents must be bytes, got {type(contents).__name__}")
        if not isinstance(extension, str):
            raise TypeError(f"extension must be a string, got {type(extension).__name__}")
        self.contents = contents
        self.extension = extension
        self.prefix = prefix

    def _bytes(self) -> bytes:
        contents = self.contents
        return contents.encode("utf-8") if isinstance(contents, str) else contents

    def get_vfs_filename(self, filename_with_hash: bool = True) -> str:
        """The asset's file name in MuJoCo's virtual file system: the prefix, a SHA-1
        of the contents and the extension, as PyMJCF names it (so that two assets with
        the same name but different contents do not clash)."""
        digest = hashlib.sha1(self._bytes()).hexdigest()
        if self.prefix:
            prefix = self.prefix
            length = len(prefix) + len(digest) + len(self.extension) + 1
            if length > MAX_VFS_FILENAME_LENGTH:
                prefix = prefix[: -(length - MAX_VFS_FILENAME_LENGTH)]
            name = f"{prefix}-{digest}" if filename_with_hash else prefix
        else:
            name = digest
        return name + self.extension

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Asset) and other.get_vfs_filename() == self.get_vfs_filename()

    def __hash__(self) -> int:
        return hash(self.get_vfs_filename())

    def __repr__(self) -> str:
        return f"mjcf.Asset({self.get_vfs_filename()!r}, {len(self._bytes())} bytes)"


def register(handle: Any, asset: Asset) -> str:
    """Puts `asset`'s bytes in the assets of `handle`'s root model; returns the name the
    file attribute stores."""
    name = asset.get_vfs_filename()
    spec = handle._scope._top_spec()
    spec.assets = {**spec.assets, name: asset._bytes()}
    return name


def from_zip(
    path: str | os.PathLike[str],
    model_file: str = "model.xml",
    escape_separators: bool = False,
    resolve_references: bool = True,
) -> Any:
    """Reads a model and its assets from a zip archive (PyMJCF's `mjcf.from_zip`).

    The archive's one XML file is the model (or, when it has several, the one named
    `model_file`); every other file is an asset, named by its path relative to the
    model file's folder.

    Raises:
      ValueError: `path` is not a zip archive, it has no XML file, or several and
        none named `model_file`.
    """
    from composer_tasks.mjcf import parser

    path = os.fspath(path)
    with open(path, "rb") as handle:
        contents = handle.read()
    if not zipfile.is_zipfile(io.BytesIO(contents)):
        raise ValueError(f"File {path} is not a zip file.")
    with zipfile.ZipFile(io.BytesIO(contents), "r") as archive:
        names = archive.namelist()
        xml_files = [name for name in names if name.endswith(".xml")]
        if not xml_files:
            raise ValueError(f"No XML file found in {path}.")
        if len(xml_files) > 1:
            if model_file not in xml_files:
                raise ValueError(
                    f"Multiple XML files found in {path}, but none named {model_file}."
                )
            xml_path = model_file
        else:
            xml_path = xml_files[0]
        text = archive.read(xml_path).decode("utf-8")
        model_dir = os.path.dirname(xml_path)
        assets = {
            os.path.relpath(name, model_dir): archive.read(name)
            for name in names
            if not (name.endswith("/") or name == xml_path)
        }
    return parser.from_xml_string(
        text, escape_separators, resolve_references=resolve_references, assets=assets
    )
