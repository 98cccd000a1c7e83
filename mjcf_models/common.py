"""The Control Suite's shared look: lighting, skybox, floor grid and named colours.

Facts (colours, texture sizes, headlight, near clip, shadow map size) are those of
dm_control 1.0.50's `suite/common/{visual,skybox,materials}.xml`; the textures are
procedural, so no image files are needed.
"""

import types

import mujoco

# RGBA of the named materials of `suite/common/materials.xml`. `self` colours a
# model's body, `effector` the parts that act, `decoration` static scenery, `eye`
# the swimmers' eyes, `target` goals and `site` marker sites.
PALETTE = types.MappingProxyType(
    {
        "self": (0.7, 0.5, 0.3, 1.0),
        "effector": (0.7, 0.4, 0.2, 1.0),
        "decoration": (0.3, 0.5, 0.7, 1.0),
        "eye": (0.0, 0.2, 1.0, 1.0),
        "target": (0.6, 0.3, 0.3, 1.0),
        "site": (0.5, 0.5, 0.5, 0.3),
    }
)

# The `_highlight` colours of the same file: what a visualised reward of 1 turns
# these materials into.
HIGHLIGHT_RGBA = types.MappingProxyType(
    {
        "self": (0.0, 0.5, 0.3, 1.0),
        "effector": (0.0, 0.5, 0.3, 1.0),
        "target": (0.6, 0.3, 0.3, 0.4),
    }
)


def add_suite_look(spec, materials, grid_texture_first=False, backdrop_rgb=None):
    """Adds the suite's look to `spec`.

    Sets the headlight, near clipping plane and shadow map size; adds the gradient
    `skybox` texture, the checker `grid` texture and its reflective `grid` material
    (for floors), then the published materials file's rgba materials, all of them
    in its order (`self`, its `_default` and `_highlight`, `effector` and its two,
    `decoration`, `eye`, `target` and its two, `site`), as every published model
    includes that file.

    Args:
      spec: the `mujoco.MjSpec` to add to.
      materials: names of `PALETTE` entries the model uses (checked; every entry is
        added, in the file's order).
      grid_texture_first: add the grid texture before the skybox (the published
        fish lists them in that order, which fixes their ids).
      backdrop_rgb: if given, the RGB colour (each in [0, 1]) of a flat `background`
        texture with random white marks, added after the grid texture, and of its
        `background` material, added after the file's materials (the manipulator's
        walls).

    Raises:
      TypeError: if `materials` is a single string.
      ValueError: for a material name that is not in `PALETTE`.
    """
    if isinstance(materials, str):
        raise TypeError(f"materials must be a sequence of names, got the string {materials!r}")
    unknown = [name for name in materials if name not in PALETTE]
    if unknown:
        raise ValueError(f"materials {unknown} are not in the suite palette {list(PALETTE)}")
    spec.visual.headlight.ambient = [0.4, 0.4, 0.4]
    spec.visual.headlight.diffuse = [0.8, 0.8, 0.8]
    spec.visual.headlight.specular = [0.1, 0.1, 0.1]
    spec.visual.map.znear = 0.01
    spec.visual.quality.shadowsize = 2048
    if grid_texture_first:
        _add_grid_texture(spec)
        _add_skybox_texture(spec)
    else:
        _add_skybox_texture(spec)
        _add_grid_texture(spec)
    if backdrop_rgb is not None:
        spec.add_texture(
            name="background",
            type=mujoco.mjtTexture.mjTEXTURE_2D,
            builtin=mujoco.mjtBuiltin.mjBUILTIN_FLAT,
            rgb1=list(backdrop_rgb),
            width=800,
            height=800,
            mark=mujoco.mjtMark.mjMARK_RANDOM,
            markrgb=[1, 1, 1],
        )
    grid = spec.add_material(name="grid", texrepeat=[1, 1], texuniform=True, reflectance=0.2)
    grid.textures[mujoco.mjtTextureRole.mjTEXROLE_RGB] = "grid"
    # Every published model includes the whole materials file, in its order, before
    # its own materials: the same material ids here (`geom_matid`, `mat_rgba`), and
    # `visualize_reward` recolours `self`, `effector` and `target` from their
    # `_default` and `_highlight` companions.
    for name in PALETTE:
        spec.add_material(name=name, rgba=list(PALETTE[name]))
        if name in HIGHLIGHT_RGBA:
            spec.add_material(name=name + "_default", rgba=list(PALETTE[name]))
            spec.add_material(name=name + "_highlight", rgba=list(HIGHLIGHT_RGBA[name]))
    if backdrop_rgb is not None:
        background = spec.add_material(name="background", texrepeat=[1, 1], texuniform=True)
        background.textures[mujoco.mjtTextureRole.mjTEXROLE_RGB] = "background"


def _add_skybox_texture(spec):
    spec.add_texture(
        name="skybox",
        type=mujoco.mjtTexture.mjTEXTURE_SKYBOX,
        builtin=mujoco.mjtBuiltin.mjBUILTIN_GRADIENT,
        rgb1=[0.4, 0.6, 0.8],
        rgb2=[0, 0, 0],
        width=800,
        height=800,
        mark=mujoco.mjtMark.mjMARK_RANDOM,
        markrgb=[1, 1, 1],
    )


def _add_grid_texture(spec):
    spec.add_texture(
        name="grid",
        type=mujoco.mjtTexture.mjTEXTURE_2D,
        builtin=mujoco.mjtBuiltin.mjBUILTIN_CHECKER,
        rgb1=[0.1, 0.2, 0.3],
        rgb2=[0.2, 0.3, 0.4],
        width=300,
        height=300,
        mark=mujoco.mjtMark.mjMARK_EDGE,
        markrgb=[0.2, 0.3, 0.4],
    )
