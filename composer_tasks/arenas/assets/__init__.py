"""Texture images of the locomotion arenas' styles (dm_control's
`locomotion.arenas.assets`).

A style names a folder of images under `ROOT_DIR`; dm_control has one style,
"outdoor_natural": a grass ground (`get_ground_texture_info`) and a sky box
(`get_sky_texture_info`), which `arenas.Floor(aesthetic="outdoor_natural")` uses.
The file names, texture types and sky-box layout are dm_control's; the pictures
are this project's own, drawn by `make_textures.py` (docs/locomotion_arenas.md).

Unlike dm_control's `ROOT_DIR`, a path relative to its `composer` package that
only PyMJCF's asset loader resolves, `ROOT_DIR` here is absolute, so
`get_texturedir(style)` works as a `compiler.texturedir` of any model.
"""

import collections
import os

import mujoco

ROOT_DIR = os.path.dirname(os.path.abspath(__file__))


def get_texturedir(style: str) -> str:
    """The folder of `style`'s images (not checked: dm_control's neither)."""
    return os.path.join(ROOT_DIR, style)


# dm_control writes ('outdoor_natural') with no comma: a string, not a tuple, so
# `style in SKY_STYLES` is a substring test there ("natural" passes it, and then
# names a folder that does not exist). Kept as dm_control has it.
SKY_STYLES = "outdoor_natural"

SkyBox = collections.namedtuple("SkyBox", ("file", "gridsize", "gridlayout"))
SkyBox.__doc__ = """A sky box image: `file` in the style's folder; `gridsize` "rows
columns" of square faces; `gridlayout` the face in each cell, row by row (MuJoCo's
`texture` attributes)."""


def get_sky_texture_info(style: str) -> SkyBox:
    """The sky box of `style`.

    Raises:
      ValueError: `style` is not one of `SKY_STYLES` (a substring test, as
        dm_control's).
    """
    if style not in SKY_STYLES:
        raise ValueError(f"`style` should be one of {SKY_STYLES}: got {style!r}")
    # dm_control's layout: a 3 x 4 grid, up over the front face, the four side
    # faces in a row (left, front, right, back), down under the front.
    return SkyBox(file="OutdoorSkybox2048.png", gridsize="3 4", gridlayout=".U..LFRB.D..")


# A string, as `SKY_STYLES` (dm_control's).
GROUND_STYLES = "outdoor_natural"

GroundTexture = collections.namedtuple("GroundTexture", ("file", "type"))
GroundTexture.__doc__ = """A ground image: `file` in the style's folder and its MuJoCo
texture `type` ("2d")."""


def get_ground_texture_info(style: str) -> GroundTexture:
    """The ground texture of `style`.

    Raises:
      ValueError: `style` is not one of `GROUND_STYLES` (a substring test, as
        dm_control's).
    """
    if style not in GROUND_STYLES:
        raise ValueError(f"`style` should be one of {GROUND_STYLES}: got {style!r}")
    return GroundTexture(file="OutdoorGrassFloorD.png", type="2d")


# MuJoCo's texture types by their MJCF names (a `GroundTexture.type`).
_TEXTURE_TYPES = {
    "2d": mujoco.mjtTexture.mjTEXTURE_2D,
    "cube": mujoco.mjtTexture.mjTEXTURE_CUBE,
    "skybox": mujoco.mjtTexture.mjTEXTURE_SKYBOX,
}


def check_style(style: str) -> tuple[GroundTexture, SkyBox]:
    """The ground and sky of `style`, whose images exist (this project's check,
    for arenas to fail before building).

    Raises:
      ValueError: `style` is not a style (dm_control's message).
      FileNotFoundError: the style has no such images (as dm_control, which
        fails opening them).
    """
    ground = get_ground_texture_info(style)
    sky = get_sky_texture_info(style)
    texturedir = get_texturedir(style)
    for file in (ground.file, sky.file):
        if not os.path.isfile(os.path.join(texturedir, file)):
            raise FileNotFoundError(f"style {style!r} has no image {file!r} in {texturedir!r}")
    return ground, sky


def check_aesthetic(aesthetic: str) -> None:
    """Refuses an arena's `aesthetic` that is neither "default" nor a style whose images
    exist (the arenas' shared check, before they build anything).

    Raises:
      ValueError: naming the aesthetic and why (`check_style`'s reason).
      FileNotFoundError: the style has no such images.
    """
    if aesthetic == "default":
        return
    try:
        check_style(aesthetic)
    except ValueError as error:
        raise ValueError(
            f"aesthetic must be 'default' or a style of arenas.assets, got {aesthetic!r} ({error})"
        ) from error


def add_style(spec: mujoco.MjSpec, style: str) -> mujoco.MjsMaterial:
    """Gives `spec` the ground and sky of `style` as dm_control's arenas do
    (floors.py, bowl.py): the style's folder becomes the texture folder, the
    ground image the texture "aesthetic_texture" of the material
    "aesthetic_material" (repeated per metre), the sky image the sky box
    "aesthetic_skybox". Returns the material, for the ground geoms.

    Raises:
      ValueError: `style` is not a style (dm_control's message).
      FileNotFoundError: the style has no such images (as dm_control, which
        fails opening them).
    """
    ground, sky = check_style(style)
    spec.texturedir = get_texturedir(style)
    spec.add_texture(name="aesthetic_texture", file=ground.file, type=_TEXTURE_TYPES[ground.type])
    material = spec.add_material(name="aesthetic_material", texuniform=True)
    material.textures[mujoco.mjtTextureRole.mjTEXROLE_RGB] = "aesthetic_texture"
    spec.add_texture(
        name="aesthetic_skybox",
        file=sky.file,
        type=mujoco.mjtTexture.mjTEXTURE_SKYBOX,
        gridsize=[int(n) for n in sky.gridsize.split()],
        gridlayout=sky.gridlayout,
    )
    return material
