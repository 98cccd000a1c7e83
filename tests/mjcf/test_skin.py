"""composer_tasks.mjcf.skin: MuJoCo's binary skin files, read and written back."""

import struct

import numpy as np
import pytest

from composer_tasks.mjcf import skin


class _Body:
    def __init__(self, full_identifier):
        self.full_identifier = full_identifier


def _skin_bytes():
    """A skin of 3 vertices, 3 texcoords, 1 face and 2 bones, written field by field."""
    parts = [struct.pack("<4i", 3, 3, 1, 2)]
    parts.append(np.arange(9, dtype="<f4").tobytes())
    parts.append(np.linspace(0, 1, 6, dtype="<f4").tobytes())
    parts.append(np.array([0, 1, 2], dtype="<i4").tobytes())
    for name, ids in ((b"arm/upper", [0, 1]), (b"arm/lower", [2])):
        parts.append(name.ljust(40, b"\0"))
        parts.append(np.array([0.1, 0.2, 0.3], dtype="<f4").tobytes())
        parts.append(np.array([1, 0, 0, 0], dtype="<f4").tobytes())
        parts.append(struct.pack("<i", len(ids)))
        parts.append(np.array(ids, dtype="<i4").tobytes())
        parts.append(np.full(len(ids), 0.5, dtype="<f4").tobytes())
    return b"".join(parts)


def test_parse_reads_every_field_and_serialize_writes_the_same_bytes():
    contents = _skin_bytes()
    looked_up = []

    def body_getter(name):
        looked_up.append(name)
        return _Body(name)

    parsed = skin.parse(contents, body_getter=body_getter)
    assert parsed.vertices.shape == (3, 3) and parsed.vertices[2].tolist() == [6, 7, 8]
    assert parsed.texcoords.shape == (3, 2) and parsed.faces.tolist() == [[0, 1, 2]]
    assert [bone.vertex_ids.tolist() for bone in parsed.bones] == [[0, 1], [2]]
    assert parsed.bones[0].bindquat.dtype == np.float64
    np.testing.assert_allclose(parsed.bones[1].bindpos, [0.1, 0.2, 0.3], rtol=1e-6)
    assert looked_up == []  # bodies are looked up when a bone's body is called
    assert skin.serialize(parsed) == contents
    assert looked_up == ["arm/upper", "arm/lower"]


def test_truncated_or_padded_files_and_long_body_names_raise():
    contents = _skin_bytes()
    with pytest.raises(ValueError, match="ends inside bone 1's vertex weights"):
        skin.parse(contents[:-1], body_getter=_Body)
    with pytest.raises(ValueError, match="4 bytes after its last bone"):
        skin.parse(contents + b"\0" * 4, body_getter=_Body)
    with pytest.raises(ValueError, match="negative face count"):
        skin.parse(struct.pack("<4i", 0, 0, -1, 0), body_getter=_Body)
    parsed = skin.parse(contents, body_getter=lambda name: _Body("b" * 41))
    with pytest.raises(ValueError, match="41 bytes; the skin file format holds at most 40"):
        skin.serialize(parsed)
