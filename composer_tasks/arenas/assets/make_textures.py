"""Draws this project's arena texture images (the PNG files beside this script).

    python -m composer_tasks.arenas.assets.make_textures          # rewrite the files
    python -m composer_tasks.arenas.assets.make_textures --check  # exit 1 if stale

dm_control ships photographs for its "outdoor_natural" arena style; this project
draws its own from a fixed seed, with NumPy and a minimal PNG writer (standard
library zlib), so the same script always draws the same pixels (`--check`
compares pixels, not bytes: another zlib may deflate them differently):

* the ground: a grass-green field with patches of lighter and darker green and a
  fine speckle, seamless when tiled (the patches are sums of sinusoids with whole
  periods across the image, the speckle a per-pixel draw);
* the sky box: a 4 x 3 grid of square faces in dm_control's layout
  (`gridlayout` ".U..LFRB.D..": up above the front, left, front, right and back
  side faces, down below the front), shaded by elevation only: a ground brown
  below the horizon, a pale haze at the horizon and a deepening blue above it,
  so the faces meet without seams.
"""

from __future__ import annotations

import argparse
import os
import struct
import sys
import zlib

import numpy as np

from composer_tasks.arenas import assets

_SEED = 20261127
_GROUND_SIZE_PX = 512  # dm_control's ground image: 512 x 512
_SKY_FACE_PX = 512  # dm_control's sky box: 4 x 3 faces of 512 px (2048 wide)
# The layout's rows as written in `assets.SkyBox.gridlayout` (3 rows of 4).
_SKY_GRID = (".U..", "LFRB", ".D..")

# Colours, RGB in [0, 1].
_GRASS_DARK = np.array([0.20, 0.33, 0.10])
_GRASS_LIGHT = np.array([0.36, 0.50, 0.18])
_SKY_ZENITH = np.array([0.20, 0.42, 0.78])
_SKY_HORIZON = np.array([0.80, 0.88, 0.95])
_SKY_GROUND = np.array([0.30, 0.27, 0.20])


def png_bytes(image: np.ndarray) -> bytes:
    """The PNG file (8-bit RGB, no filtering choice: filter 'Sub' on every row)
    of `image`, (height, width, 3) uint8."""
    if image.dtype != np.uint8 or image.ndim != 3 or image.shape[2] != 3:
        raise ValueError(f"expected (height, width, 3) uint8, got {image.shape} {image.dtype}")
    height, width, _ = image.shape
    # Filter type 1 (Sub): each byte minus the byte one pixel to its left, which
    # turns smooth gradients into long runs that deflate well.
    shifted = np.zeros_like(image)
    shifted[:, 1:] = image[:, :-1]
    rows = (image.astype(np.int16) - shifted).astype(np.uint8).reshape(height, width * 3)
    raw = np.concatenate([np.ones((height, 1), np.uint8), rows], axis=1).tobytes()

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def _png_content(contents: bytes) -> tuple[bytes, bytes]:
    """A PNG file's header and its inflated image data (what `--check` compares)."""
    header, data, offset = b"", [], 8
    while offset < len(contents):
        (length,) = struct.unpack(">I", contents[offset : offset + 4])
        kind = contents[offset + 4 : offset + 8]
        body = contents[offset + 8 : offset + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            data.append(body)
        offset += 12 + length
    return header, zlib.decompress(b"".join(data))


def _to_uint8(image: np.ndarray) -> np.ndarray:
    return np.round(np.clip(image, 0.0, 1.0) * 255.0).astype(np.uint8)


def ground_image(random_state: np.random.RandomState) -> np.ndarray:
    """The grass texture, (256, 256, 3) uint8, seamless when tiled."""
    size = _GROUND_SIZE_PX
    u = np.arange(size) / size
    uu, vv = np.meshgrid(u, u, indexing="xy")
    patches = np.zeros((size, size))
    for frequency in range(1, 7):
        for _ in range(3):
            kx, ky = random_state.randint(-frequency, frequency + 1, size=2)
            phase = random_state.uniform(0.0, 2 * np.pi)
            patches += np.cos(2 * np.pi * (kx * uu + ky * vv) + phase) / frequency
    patches = (patches - patches.min()) / (patches.max() - patches.min())
    speckle = random_state.uniform(-1.0, 1.0, size=(size, size))
    # Speckle in a few levels only: grass-like, and it keeps the file small.
    speckle = np.round(speckle * 2.0) / 2.0
    shade = np.clip(0.75 * patches + 0.12 * speckle + 0.12, 0.0, 1.0)[..., None]
    return _to_uint8(_GRASS_DARK + (_GRASS_LIGHT - _GRASS_DARK) * shade)


def _sky_colour(elevation_rad: np.ndarray) -> np.ndarray:
    """The sky's colour (..., 3) at each elevation (radians, up positive)."""
    up = np.clip(elevation_rad / (np.pi / 2), -1.0, 1.0)[..., None]
    above = _SKY_HORIZON + (_SKY_ZENITH - _SKY_HORIZON) * np.sqrt(np.clip(up, 0.0, 1.0))
    below = _SKY_HORIZON + (_SKY_GROUND - _SKY_HORIZON) * np.clip(-up * 6.0, 0.0, 1.0)
    return np.where(up >= 0.0, above, below)


def sky_image() -> np.ndarray:
    """The sky box, (3 * 256, 4 * 256, 3) uint8 in `_SKY_GRID`'s layout (unused
    cells black)."""
    face = _SKY_FACE_PX
    # Pixel centres across a face, in [-1, 1]; rows run downwards.
    t = (np.arange(face) + 0.5) / face * 2.0 - 1.0
    across, down = np.meshgrid(t, t, indexing="xy")
    side = np.arctan2(-down, np.sqrt(1.0 + across**2))
    top = np.arctan2(1.0, np.hypot(across, down))
    faces = {"L": side, "F": side, "R": side, "B": side, "U": top, "D": -top}
    image = np.zeros((3 * face, 4 * face, 3))
    for row, letters in enumerate(_SKY_GRID):
        for column, letter in enumerate(letters):
            if letter in faces:
                cell = (
                    slice(row * face, (row + 1) * face),
                    slice(column * face, (column + 1) * face),
                )
                image[cell] = _sky_colour(faces[letter])
    return _to_uint8(image)


def images() -> dict[str, bytes]:
    """Each texture file's path relative to `assets.ROOT_DIR`, and its bytes."""
    style = "outdoor_natural"
    ground = assets.get_ground_texture_info(style)
    sky = assets.get_sky_texture_info(style)
    if "".join(_SKY_GRID) != sky.gridlayout:
        raise RuntimeError(f"the sky layout drawn here, {_SKY_GRID}, is not {sky.gridlayout!r}")
    random_state = np.random.RandomState(_SEED)
    return {
        os.path.join(style, ground.file): png_bytes(ground_image(random_state)),
        os.path.join(style, sky.file): png_bytes(sky_image()),
    }


def main(argv: list[str] | None = None) -> int:
    """Draws the texture images into this package's folder (`--check`: exits 1,
    writing nothing, if a committed image differs from what would be drawn)."""
    parser = argparse.ArgumentParser(description="Draws the arena texture images.")
    parser.add_argument("--check", action="store_true", help="exit 1 if a file is stale")
    arguments = parser.parse_args(argv)
    stale = []
    for relative, contents in images().items():
        path = os.path.join(assets.ROOT_DIR, relative)
        current = None
        if os.path.exists(path):
            with open(path, "rb") as handle:
                current = handle.read()
        if current is not None and _png_content(current) == _png_content(contents):
            continue
        stale.append(relative)
        if not arguments.check:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as handle:
                handle.write(contents)
    verb = "stale" if arguments.check else "written"
    print(f"{verb}: {', '.join(stale)}" if stale else "up to date")
    return 1 if arguments.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
