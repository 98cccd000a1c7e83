"""Looks shared by the arenas: skybox, lights and procedural textures.

All textures here are MuJoCo builtins; the image-based styles of dm_control's
arenas ("outdoor_natural") are `arenas.assets`.
"""

from collections.abc import Sequence

import mujoco


def add_sky_and_light(
    spec: mujoco.MjSpec,
    light_height_m: float = 6.0,
    light_position_xy: Sequence[float] = (0.0, 0.0),
) -> mujoco.MjsLight:
    """A gradient skybox, a soft headlight and one overhead light."""
    spec.visual.headlight.ambient = [0.4, 0.4, 0.4]
    spec.visual.headlight.diffuse = [0.8, 0.8, 0.8]
    spec.visual.headlight.specular = [0.1, 0.1, 0.1]
    spec.add_texture(
        name="skybox",
        type=mujoco.mjtTexture.mjTEXTURE_SKYBOX,
        builtin=mujoco.mjtBuiltin.mjBUILTIN_GRADIENT,
        rgb1=[0.4, 0.6, 0.8],
        rgb2=[0.0, 0.0, 0.0],
        width=200,
        height=200,
    )
    return spec.worldbody.add_light(
        name="top_light",
        pos=[light_position_xy[0], light_position_xy[1], light_height_m],
        dir=[0.0, 0.0, -1.0],
        diffuse=[0.6, 0.6, 0.6],
        castshadow=False,
    )


def add_checker_material(
    spec: mujoco.MjSpec,
    name: str,
    rgb1: Sequence[float],
    rgb2: Sequence[float],
    texrepeat: Sequence[float] = (1.0, 1.0),
    reflectance: float = 0.0,
    texuniform: bool = True,
    mark_rgb: Sequence[float] | None = None,
    size_px: int = 128,
) -> mujoco.MjsMaterial:
    """A material with a chequered builtin texture; returns the `MjsMaterial`.

    `texuniform` repeats the texture per metre of surface instead of per object,
    so squares keep their size on geoms of any size.
    """
    kwargs = dict(
        name=name,
        type=mujoco.mjtTexture.mjTEXTURE_2D,
        builtin=mujoco.mjtBuiltin.mjBUILTIN_CHECKER,
        rgb1=list(rgb1),
        rgb2=list(rgb2),
        width=size_px,
        height=size_px,
    )
    if mark_rgb is not None:
        kwargs.update(mark=mujoco.mjtMark.mjMARK_EDGE, markrgb=list(mark_rgb))
    spec.add_texture(**kwargs)
    material = spec.add_material(
        name=name, texrepeat=list(texrepeat), texuniform=texuniform, reflectance=reflectance
    )
    material.textures[mujoco.mjtTextureRole.mjTEXROLE_RGB] = name
    return material
