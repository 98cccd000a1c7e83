"""Offscreen rendering of a `Physics`: camera images through cached `mujoco.Renderer`s.

`Physics.render` is the public entry; this module holds what it does. A renderer
(a GL context with its framebuffers and the model's meshes, textures and
heightfields uploaded) is made once per image size, antialiasing and
tessellation, and kept in the Physics' cache for the next frame of that kind.

The cache is a least-recently-used cache of at most `MAX_CACHED_RENDERERS`
renderers: asking for one more kind of image closes the GL context of the one
used longest ago (it is made again if asked for again). Each renderer costs tens
of MiB (its framebuffers and uploaded assets; 50 image sizes took a process from
226 MiB to 4 GB before the bound), and a program renders a handful of kinds at
most: the agent's camera, a video, a viewer.

The backend is MuJoCo's choice of `MUJOCO_GL` (egl, osmesa, glfw); see
docs/rendering.md.
"""

import os
from collections.abc import Callable, Mapping, MutableMapping
from typing import TYPE_CHECKING, Any

import mujoco
import numpy as np

if TYPE_CHECKING:
    from composer_tasks.physics import Physics

# Renderers one Physics keeps at most; see the module docstring.
MAX_CACHED_RENDERERS = 8

RENDERING_HELP = (
    "Rendering needs an OpenGL backend. On a machine without a GPU set "
    "MUJOCO_GL=osmesa (Debian package: libosmesa6) or MUJOCO_GL=egl (Debian "
    "packages: libegl1 libegl-mesa0 libgl1-mesa-dri libgbm1)."
)

# Level of detail: the choices of `Physics.render(level_of_detail=...)`.
LEVELS_OF_DETAIL = ("auto", "full")
# With "auto", how far (pixels) the polygonal outline of a round built-in shape may
# stray from its true outline, and the fewest slices ever used (an octagon).
_OUTLINE_TOLERANCE_PX = 0.5
_MIN_SLICES = 8

# A cache key: (height, width, antialias, numslices, numstacks).
RendererKey = tuple[int, int, bool, int, int]


def render(
    physics: "Physics",
    height: int = 240,
    width: int = 320,
    camera_id: int | str = -1,
    depth: bool = False,
    segmentation: bool = False,
    scene_option: mujoco.MjvOption | None = None,
    shadows: bool = True,
    reflections: bool = True,
    antialias: bool = True,
    level_of_detail: str = "auto",
    render_flag_overrides: Mapping[str | int, bool] | None = None,
    scene_callback: Callable[[Any, mujoco.MjvScene], None] | None = None,
) -> np.ndarray:
    """What `Physics.render` does (its docstring documents the arguments)."""
    if depth and segmentation:
        raise ValueError("ask for depth or segmentation, not both")
    if render_flag_overrides and (depth or segmentation):
        raise ValueError(
            "render_flag_overrides apply to RGB images only, not with depth or segmentation"
        )
    overrides = _render_flags(render_flag_overrides or {})
    for name, value in (("height", height), ("width", width)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise ValueError(f"{name} must be a positive number of pixels, got {value!r}")
    model = physics.model
    if isinstance(camera_id, str):
        index = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_CAMERA, camera_id)
        if index < 0:
            raise ValueError(f"no camera named {camera_id!r} in the model")
        camera_id = int(index)
    if not -1 <= camera_id < model.ncam:
        raise ValueError(f"camera_id {camera_id} out of range: the model has {model.ncam} cameras")
    renderer = cached_renderer(physics._renderers, model, height, width, antialias, level_of_detail)
    # The flags live on the renderer's scene, which is cached per size and detail.
    renderer.scene.flags[mujoco.mjtRndFlag.mjRND_SHADOW] = bool(shadows)
    renderer.scene.flags[mujoco.mjtRndFlag.mjRND_REFLECTION] = bool(reflections)
    if depth:
        renderer.update_scene(physics.data, camera=camera_id, scene_option=scene_option)
        if scene_callback is not None:
            scene_callback(physics, renderer.scene)
        return dm_control_depth(renderer, model)
    if segmentation:
        renderer.enable_segmentation_rendering()
    flags = renderer.scene.flags
    saved = flags.copy()
    try:
        renderer.update_scene(physics.data, camera=camera_id, scene_option=scene_option)
        if scene_callback is not None:
            scene_callback(physics, renderer.scene)
        for flag, value in overrides.items():
            flags[flag] = value
        return renderer.render()
    finally:
        np.copyto(flags, saved)
        renderer.disable_segmentation_rendering()


def _render_flags(overrides: Mapping[str | int, bool]) -> dict[int, bool]:
    """{mjtRndFlag index: value} of dm_control's `render_flag_overrides`, whose keys
    are lowercase flag names ("wireframe") or `mujoco.mjtRndFlag` values.

    Raises:
        ValueError: a name or value that is no `mjtRndFlag`.
    """
    flags = {}
    for key, value in overrides.items():
        if isinstance(key, str):
            member = getattr(mujoco.mjtRndFlag, "mjRND_" + key.upper(), None)
            if member is None:
                names = [name[len("mjRND_") :].lower() for name in mujoco.mjtRndFlag.__members__]
                raise ValueError(f"{key!r} is not a rendering flag; flags: {', '.join(names[:-1])}")
            index = int(member)
        else:
            index = int(key)
            if not 0 <= index < int(mujoco.mjtRndFlag.mjNRNDFLAG):
                raise ValueError(f"{key!r} is not a mujoco.mjtRndFlag")
        flags[index] = bool(value)
    return flags


def dm_control_depth(renderer: mujoco.Renderer, model: mujoco.MjModel) -> np.ndarray:
    """The depth image of `renderer`'s updated scene as dm-control 1.0.50 gives it:
    the scene drawn as for an RGB image (the skybox included, where
    `mujoco.Renderer`'s depth mode draws segmentation colours without it, so that
    the sky reads as the far plane), the depth buffer converted to distances along
    the camera axis in metres.

    dm_control converts a conventional depth buffer, `near / (1 - d * (1 - near /
    far))`; MuJoCo 4 writes a reversed-Z buffer, which is inverted here as
    `mujoco.Renderer` does (float32 projection coefficients, float64 arithmetic;
    linear for an orthographic camera). The raw buffer is only reachable through
    the renderer's private GL context, rectangle and rendering context.

    Returns:
        (height, width) float32, top row first.
    """
    if renderer._gl_context:  # noqa: SLF001  (see the docstring)
        renderer._gl_context.make_current()  # noqa: SLF001
    rect, context = renderer._rect, renderer._mjr_context  # noqa: SLF001
    mujoco.mjr_render(rect, renderer.scene, context)
    buffer = np.empty((renderer.height, renderer.width), dtype=np.float32)
    mujoco.mjr_readPixels(None, buffer, rect, context)
    extent = model.stat.extent
    near = np.float32(model.vis.map.znear * extent)
    far = np.float32(model.vis.map.zfar * extent)
    values = buffer.astype(np.float64)
    if renderer.scene.camera[0].orthographic:
        metres = far - values * (far - near)
    else:
        # The reversed-Z projection's depth coefficients: glFrustum's c and d,
        # mapped by z -> (1 - z) / 2.
        c = np.float32(-0.5) * (-(far + near) / (far - near)) - np.float32(0.5)
        d = np.float32(-0.5) * (-(np.float32(2) * far * near) / (far - near))
        metres = d / (values + c)
    image = metres.astype(np.float32)
    # The GL buffer's first row is the image's bottom row.
    return np.flipud(image) if renderer._gl_context else image  # noqa: SLF001


def cached_renderer(
    cache: MutableMapping,
    model: mujoco.MjModel,
    height: int,
    width: int,
    antialias: bool = True,
    level_of_detail: str = "auto",
) -> mujoco.Renderer:
    """The renderer of `cache` for this kind of image, made (and the least recently
    used one closed if the cache is full) when there is none.

    `cache` maps `RendererKey` to `mujoco.Renderer` in order of use, the most recent
    last (a dict: its insertion order is that order).
    """
    quality = model.vis.quality
    slices, stacks = tessellation(quality, height, width, level_of_detail)
    # Keyed by the tessellation itself, so "auto" and "full" share a renderer
    # wherever they agree (large images).
    key = (height, width, bool(antialias), slices, stacks)
    renderer = cache.pop(key, None)
    if renderer is None:
        check_fits_offscreen_buffer(model, height, width)
        saved = quality.offsamples, quality.numslices, quality.numstacks
        # The GL context reads the multisample count and the built-in shapes'
        # tessellation once, when it is made; the model gets its own back after.
        if not antialias:
            quality.offsamples = 0
        quality.numslices, quality.numstacks = slices, stacks
        try:
            renderer = mujoco.Renderer(model, height=height, width=width)
        except Exception as error:  # The backends raise a variety of types.
            backend = os.environ.get("MUJOCO_GL", "<unset>")
            raise RuntimeError(
                f"could not create a renderer with MUJOCO_GL={backend}: {error}. " + RENDERING_HELP
            ) from error
        finally:
            quality.offsamples, quality.numslices, quality.numstacks = saved
        while len(cache) >= MAX_CACHED_RENDERERS:
            cache.pop(next(iter(cache))).close()
    # Reinserted: the most recently used renderer is the last.
    cache[key] = renderer
    return renderer


def check_fits_offscreen_buffer(model: mujoco.MjModel, height: int, width: int) -> None:
    """Raises ValueError naming the buffer's size and how to raise it unless a
    height x width image fits the model's offscreen buffer (the GL backend would
    refuse it with a message that reads like a backend failure)."""
    buffer = model.vis.global_
    if width <= buffer.offwidth and height <= buffer.offheight:
        return
    raise ValueError(
        f"a {height}x{width} (height x width) image does not fit the model's offscreen "
        f"buffer of {buffer.offheight}x{buffer.offwidth} pixels; raise it before rendering: "
        f"physics.model.vis.global_.offheight = {max(height, buffer.offheight)} and "
        f"physics.model.vis.global_.offwidth = {max(width, buffer.offwidth)} (or "
        "<visual><global offheight=... offwidth=.../></visual> in the model)"
    )


def tessellation(quality: Any, height: int, width: int, level_of_detail: str) -> tuple[int, int]:
    """(numslices, numstacks) of the built-in shapes for a height x width image,
    given the model's `vis.quality`."""
    if not (isinstance(level_of_detail, str) and level_of_detail in LEVELS_OF_DETAIL):
        raise ValueError(
            f"level_of_detail must be one of {LEVELS_OF_DETAIL}, got {level_of_detail!r}"
        )
    if level_of_detail == "full":
        return quality.numslices, quality.numstacks
    # A regular polygon of n sides inscribed in a circle of radius r strays at most
    # r (1 - cos(pi / n)) from it; r is half the image's larger side, the widest a
    # shape can be and still be seen whole.
    radius_px = max(height, width) / 2
    slices = int(np.ceil(np.pi / np.arccos(1.0 - _OUTLINE_TOLERANCE_PX / radius_px)))
    slices = max(slices, _MIN_SLICES)
    # Stacks go from pole to pole, half the angle of slices, and MuJoCo splits them
    # between two hemispheres: half as many, rounded up to even, keep the same step.
    stacks = 2 * -(-slices // 4)
    return min(slices, quality.numslices), min(stacks, quality.numstacks)


def upload_hfield(cache: MutableMapping, model: mujoco.MjModel, hfield_id: int) -> None:
    """Re-uploads heightfield `hfield_id` of `model` to every renderer of `cache`."""
    if not 0 <= hfield_id < model.nhfield:
        raise ValueError(
            f"hfield_id {hfield_id} out of range: the model has {model.nhfield} heightfields"
        )
    for renderer in cache.values():
        # mujoco.Renderer keeps its GL and rendering contexts private and has no
        # public re-upload.
        renderer._gl_context.make_current()
        mujoco.mjr_uploadHField(model, renderer._mjr_context, hfield_id)


def close_renderers(cache: MutableMapping) -> None:
    """Closes every renderer of `cache` (their GL contexts) and empties it."""
    for renderer in cache.values():
        renderer.close()
    cache.clear()
