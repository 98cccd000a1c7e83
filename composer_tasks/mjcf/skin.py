"""MuJoCo's binary skin files (`.skn`), read and written as dm_control's `mjcf.skin`.

    skin = mjcf.skin.parse(contents, body_getter=model.find_body)
    contents == mjcf.skin.serialize(skin)  # a parsed file writes back byte for byte

The format (MuJoCo's XML reference, `skin/@file`), little-endian throughout: four
int32 counts (vertices, texture coordinates, faces, bones); the vertices as float32
(x, y, z); the texture coordinates as float32 (u, v); the faces as int32 vertex
triples; then per bone its body's name in a zero-padded 40-byte field, its bind
position (3 float32) and bind quaternion (4 float32), an int32 vertex count, the
vertex ids (int32) and their weights (float32).

A bone's `body` is a callable returning the body element (found by name through
`body_getter` when it is called, so a skin can be parsed before its bodies exist);
`serialize` writes that element's `full_identifier`.
"""

import struct
from typing import Any, Callable, NamedTuple

import numpy as np

# The width of a bone's body-name field in the file (MuJoCo's skin format).
MAX_BODY_NAME_LENGTH = 40

_COUNTS = struct.Struct("<4i")
_INT32 = struct.Struct("<i")


class Bone(NamedTuple):
    """One bone of a skin: the body it follows and the vertices it moves.

    Attributes:
      body: a callable returning the body's element (it has `full_identifier`).
      bindpos: the body's position in the bind pose, (3,) float64, metres.
      bindquat: the body's orientation in the bind pose, (4,) float64, (w, x, y, z).
      vertex_ids: the indices of the skin vertices this bone moves, (n,) int32.
      vertex_weights: the weight of the bone on each of those vertices, (n,) float32.
    """

    body: Callable[[], Any]
    bindpos: np.ndarray
    bindquat: np.ndarray
    vertex_ids: np.ndarray
    vertex_weights: np.ndarray


class Skin(NamedTuple):
    """A skin: vertices (n, 3) float32, texcoords (m, 2) float32, faces (k, 3) int32
    (vertex indices) and bones (a list of `Bone`)."""

    vertices: np.ndarray
    texcoords: np.ndarray
    faces: np.ndarray
    bones: list


class _Reader:
    """Reads consecutive little-endian fields of a skin file, naming what ran short."""

    def __init__(self, contents: bytes) -> None:
        self._view = memoryview(contents)
        self._offset = 0

    def take(self, size: int, what: str) -> memoryview:
        end = self._offset + size
        if end > len(self._view):
            raise ValueError(
                f"skin file ends inside {what}: it needs {size} bytes at offset "
                f"{self._offset}, the file has {len(self._view)} bytes"
            )
        chunk = self._view[self._offset : end]
        self._offset = end
        return chunk

    def array(self, dtype: str, count: int, what: str) -> np.ndarray:
        item_size = np.dtype(dtype).itemsize
        return np.frombuffer(self.take(item_size * count, what), dtype=dtype)

    def int32(self, what: str) -> int:
        return _INT32.unpack(self.take(_INT32.size, what))[0]

    @property
    def remaining(self) -> int:
        return len(self._view) - self._offset


def parse(contents: bytes, body_getter: Callable[[str], Any]) -> Skin:
    """The `Skin` held in `contents`, the bytes of a MuJoCo skin file.

    Args:
      contents: the file's bytes.
      body_getter: called with a bone's body name (when the bone's `body` is
        called) to return that body's element.

    Raises:
      ValueError: `contents` is shorter than its counts say, has bytes left over,
        or has a negative count.
    """
    reader = _Reader(bytes(contents))
    counts = _COUNTS.unpack(reader.take(_COUNTS.size, "the header's four counts"))
    for name, count in zip(("vertex", "texcoord", "face", "bone"), counts):
        if count < 0:
            raise ValueError(f"skin file has a negative {name} count: {count}")
    vertex_count, texcoord_count, face_count, bone_count = counts
    vertices = reader.array("<f4", 3 * vertex_count, "the vertices").reshape(-1, 3)
    texcoords = reader.array("<f4", 2 * texcoord_count, "the texture coordinates").reshape(-1, 2)
    faces = reader.array("<i4", 3 * face_count, "the faces").reshape(-1, 3)
    bones = []
    for index in range(bone_count):
        what = f"bone {index}"
        name_field = bytes(reader.take(MAX_BODY_NAME_LENGTH, f"{what}'s body name"))
        body_name = name_field.split(b"\0", 1)[0].decode()
        bindpos = reader.array("<f4", 3, f"{what}'s bind position").astype(np.float64)
        bindquat = reader.array("<f4", 4, f"{what}'s bind quaternion").astype(np.float64)
        influenced = reader.int32(f"{what}'s vertex count")
        if influenced < 0:
            raise ValueError(f"skin file has a negative vertex count in {what}: {influenced}")
        vertex_ids = reader.array("<i4", influenced, f"{what}'s vertex ids")
        vertex_weights = reader.array("<f4", influenced, f"{what}'s vertex weights")
        bones.append(
            Bone(
                body=_BodyLookup(body_getter, body_name),
                bindpos=bindpos,
                bindquat=bindquat,
                vertex_ids=vertex_ids,
                vertex_weights=vertex_weights,
            )
        )
    if reader.remaining:
        raise ValueError(f"skin file has {reader.remaining} bytes after its last bone")
    return Skin(vertices=vertices, texcoords=texcoords, faces=faces, bones=bones)


class _BodyLookup:
    """A bone's `body`: looks its body up by name each time it is called."""

    def __init__(self, body_getter: Callable[[str], Any], body_name: str) -> None:
        self._body_getter = body_getter
        self.body_name = body_name

    def __call__(self) -> Any:
        return self._body_getter(self.body_name)

    def __repr__(self) -> str:
        return f"<body {self.body_name!r}>"


def serialize(skin: Skin) -> bytes:
    """The bytes of a MuJoCo skin file holding `skin`.

    Raises:
      ValueError: a bone's body name is longer than the format's 40 bytes, or a
        bone has a different number of vertex ids and weights.
    """
    parts = [
        _COUNTS.pack(len(skin.vertices), len(skin.texcoords), len(skin.faces), len(skin.bones))
    ]
    parts.append(np.asarray(skin.vertices).astype("<f4").tobytes())
    parts.append(np.asarray(skin.texcoords).astype("<f4").tobytes())
    parts.append(np.asarray(skin.faces).astype("<i4").tobytes())
    for index, bone in enumerate(skin.bones):
        name = bone.body().full_identifier.encode("utf-8")
        if len(name) > MAX_BODY_NAME_LENGTH:
            raise ValueError(
                f"bone {index}'s body name {name!r} is {len(name)} bytes; the skin file "
                f"format holds at most {MAX_BODY_NAME_LENGTH}"
            )
        if len(bone.vertex_ids) != len(bone.vertex_weights):
            raise ValueError(
                f"bone {index} has {len(bone.vertex_ids)} vertex ids but "
                f"{len(bone.vertex_weights)} vertex weights"
            )
        parts.append(name.ljust(MAX_BODY_NAME_LENGTH, b"\0"))
        parts.append(np.asarray(bone.bindpos).astype("<f4").tobytes())
        parts.append(np.asarray(bone.bindquat).astype("<f4").tobytes())
        parts.append(_INT32.pack(len(bone.vertex_ids)))
        parts.append(np.asarray(bone.vertex_ids).astype("<i4").tobytes())
        parts.append(np.asarray(bone.vertex_weights).astype("<f4").tobytes())
    return b"".join(parts)
