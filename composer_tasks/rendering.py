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
from collections.abc import Callable, Mapping, MutableMapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

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
    overlays: Sequence["TextOverlay"] = (),
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
    for name, value in (("height", height), ("width", width)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            # TypeError, as dm_control's image buffer of a non-integer size raises.
            raise TypeError(f"{name} must be an int number of pixels, got {value!r}")
        if value < 1:
            raise ValueError(f"{name} must be a positive number of pixels, got {value!r}")
    model = physics.model
    if isinstance(camera_id, str):
        camera_id = camera_index_by_name(model, camera_id)
    if not -1 <= camera_id < model.ncam:
        raise ValueError(f"camera_id {camera_id} out of range: the model has {model.ncam} cameras")
    check_image_kind(overlays, depth, segmentation, render_flag_overrides)
    overrides = render_flags(render_flag_overrides or {})
    renderer = cached_renderer(physics._renderers, model, height, width, antialias, level_of_detail)
    if scene_option is None:
        scene_option = apply_dm_control_option_defaults(mujoco.MjvOption())
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
        if overlays:
            return _render_with_overlays(renderer, overlays)
        return renderer.render()
    finally:
        np.copyto(flags, saved)
        renderer.disable_segmentation_rendering()


def _render_with_overlays(
    renderer: mujoco.Renderer, overlays: Sequence["TextOverlay"]
) -> np.ndarray:
    """`renderer.render()` of its updated scene with `overlays` drawn over it, with the
    renderer's private GL and rendering contexts (as `dm_control_depth`)."""
    if renderer._gl_context:  # noqa: SLF001
        renderer._gl_context.make_current()  # noqa: SLF001
    rect, context = renderer._rect, renderer._mjr_context  # noqa: SLF001
    mujoco.mjr_setBuffer(mujoco.mjtFramebuffer.mjFB_OFFSCREEN, context)
    mujoco.mjr_render(rect, renderer.scene, context)
    for overlay in overlays:
        overlay.draw(context, rect)
    image = np.empty((renderer.height, renderer.width, 3), dtype=np.uint8)
    mujoco.mjr_readPixels(image, None, rect, context)
    # The GL buffer's first row is the image's bottom row.
    return np.flipud(image).copy() if renderer._gl_context else image  # noqa: SLF001


# dm_control's messages (mujoco/engine.py), which its own tests match word for word.
OVERLAYS_NOT_SUPPORTED_FOR_DEPTH_OR_SEGMENTATION = (
    "Overlays are not supported with depth or segmentation rendering."
)
RENDER_FLAG_OVERRIDES_NOT_SUPPORTED_FOR_DEPTH_OR_SEGMENTATION = (
    "`render_flag_overrides` are not supported for depth or segmentation rendering."
)
BOTH_SEGMENTATION_AND_DEPTH_ENABLED = "`segmentation` and `depth` cannot both be `True`."


def check_image_kind(
    overlays: Sequence["TextOverlay"],
    depth: bool,
    segmentation: bool,
    render_flag_overrides: Mapping[str | int, bool] | None,
) -> None:
    """Raises `ValueError` for an image that cannot be drawn: overlays or flag
    overrides on a depth or segmentation image, or depth and segmentation together
    (checked in dm_control's order, with its messages)."""
    if overlays and (depth or segmentation):
        raise ValueError(OVERLAYS_NOT_SUPPORTED_FOR_DEPTH_OR_SEGMENTATION)
    if render_flag_overrides and (depth or segmentation):
        raise ValueError(RENDER_FLAG_OVERRIDES_NOT_SUPPORTED_FOR_DEPTH_OR_SEGMENTATION)
    if depth and segmentation:
        raise ValueError(BOTH_SEGMENTATION_AND_DEPTH_ENABLED)


def apply_dm_control_option_defaults(option: mujoco.MjvOption) -> mujoco.MjvOption:
    """Sets dm_control's defaults on MuJoCo's visualisation options and returns them:
    rangefinder rays are not drawn (dm_control's `wrapper.MjvOption`, which its
    cameras use when no `scene_option` is given)."""
    option.flags[mujoco.mjtVisFlag.mjVIS_RANGEFINDER] = False
    return option


def render_flags(overrides: Mapping[str | int, bool]) -> dict[int, bool]:
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
    image = _depth_in_metres(buffer, model, bool(renderer.scene.camera[0].orthographic))
    # The GL buffer's first row is the image's bottom row.
    return np.flipud(image) if renderer._gl_context else image  # noqa: SLF001


def _depth_in_metres(buffer: np.ndarray, model: mujoco.MjModel, orthographic: bool) -> np.ndarray:
    """A reversed-Z depth buffer (float32, as read) as float32 distances along the
    camera axis in metres (see `dm_control_depth`)."""
    extent = model.stat.extent
    near = np.float32(model.vis.map.znear * extent)
    far = np.float32(model.vis.map.zfar * extent)
    values = buffer.astype(np.float64)
    if orthographic:
        metres = far - values * (far - near)
    else:
        # The reversed-Z projection's depth coefficients: glFrustum's c and d,
        # mapped by z -> (1 - z) / 2.
        c = np.float32(-0.5) * (-(far + near) / (far - near)) - np.float32(0.5)
        d = np.float32(-0.5) * (-(np.float32(2) * far * near) / (far - near))
        metres = d / (values + c)
    return metres.astype(np.float32)


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


def camera_index_by_name(model: mujoco.MjModel, name: str) -> int:
    """The index of the camera named `name`.

    Raises:
      composer_tasks.physics.Error: the model has no camera of that name (a
        ValueError, as dm_control's `model.name2id` raises its `core.Error`).
    """
    index = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_CAMERA, name)
    if index < 0:
        from composer_tasks.physics import Error  # physics imports this module

        raise Error(f"Object of type 'camera' with name {name!r} does not exist.")
    return int(index)


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


# dm_control's `mujoco.Camera` family (engine.py): a camera of one's own with its
# own scene, options and pose, drawn with the Physics' cached renderers' GL and
# rendering contexts (one per image size), so that making a Camera per frame costs
# no GL context.

_FONT_STYLES = {
    "normal": mujoco.mjtFont.mjFONT_NORMAL,
    "shadow": mujoco.mjtFont.mjFONT_SHADOW,
    "big": mujoco.mjtFont.mjFONT_BIG,
}
_GRID_POSITIONS = {
    "top left": mujoco.mjtGridPos.mjGRID_TOPLEFT,
    "top right": mujoco.mjtGridPos.mjGRID_TOPRIGHT,
    "bottom left": mujoco.mjtGridPos.mjGRID_BOTTOMLEFT,
    "bottom right": mujoco.mjtGridPos.mjGRID_BOTTOMRIGHT,
}


class CameraMatrices(NamedTuple):
    """The factors of a camera's 3x4 matrix, `image @ focal @ rotation @ translation`:
    image (3, 3) pixel offsets, focal (3, 4) focal scaling, rotation (4, 4) world to
    camera axes, translation (4, 4) by minus the camera's position (metres)."""

    image: np.ndarray
    focal: np.ndarray
    rotation: np.ndarray
    translation: np.ndarray


class Pose(NamedTuple):
    """A free camera's pose: the point it looks at (world, metres), its distance from
    it (metres), azimuth and elevation (degrees)."""

    lookat: np.ndarray
    distance: float
    azimuth: float
    elevation: float


class Selected(NamedTuple):
    """What `Camera.select` finds under a point of the image: the ids of the body,
    geom, flex and skin there (None where there is none) and the world position
    (metres) of the point hit (None if nothing was)."""

    body: int | None
    geom: int | None
    flex: int | None
    skin: int | None
    world_position: np.ndarray | None


class TextOverlay:
    """Text drawn over an RGB image by `Camera.render(overlays=...)`.

    Args:
      title, body: the two columns of text.
      style: "normal", "shadow" or "big".
      position: "top left", "top right", "bottom left" or "bottom right".

    Raises:
      KeyError: an unknown style or position (the message lists the choices).
    """

    __slots__ = ("title", "body", "style", "position")

    def __init__(
        self, title: str = "", body: str = "", style: str = "normal", position: str = "top left"
    ) -> None:
        if style not in _FONT_STYLES:
            raise KeyError(f"style {style!r} is not one of {sorted(_FONT_STYLES)}")
        if position not in _GRID_POSITIONS:
            raise KeyError(f"position {position!r} is not one of {sorted(_GRID_POSITIONS)}")
        self.title = title
        self.body = body
        self.style = _FONT_STYLES[style]
        self.position = _GRID_POSITIONS[position]

    def draw(self, context: mujoco.MjrContext, rect: mujoco.MjrRect) -> None:
        """Draws the text in `rect` with rendering context `context` (current GL)."""
        mujoco.mjr_overlay(self.style, self.position, rect, self.title, self.body, context)


def default_max_geom(model: mujoco.MjModel) -> int:
    """The most geoms a scene of `model` holds by default (dm_control's estimate)."""
    # dm_control's estimate of the most geoms a scene may hold (one per frame axis,
    # per geom with its contacts and forces, per body's decorations, per site,
    # tendon, joint, actuator, skin, camera and light), and at least 1000.
    frames = max(model.nbody, model.ngeom, model.nsite, model.ncam, model.nlight)
    estimate = (
        3 * frames
        + 4 * model.ngeom
        + 3 * model.nbody
        + model.nsite
        + model.ntendon
        + model.njnt
        + model.nu
        + model.nskin
        + model.ncam
        + model.nlight
    )
    return max(1000, estimate)


class Camera:
    """A camera view of a `Physics` (dm_control's `mujoco.Camera`): a fixed camera of
    the model, or the free camera (-1), at its own image size, with its own scene
    and visualisation options.

    Args:
      physics: the `Physics` to view.
      height, width: image size in pixels (within the model's offscreen buffer).
      camera_id: a camera's index or name; -1 is the free camera.
      max_geom: the most geoms the scene holds (default: dm_control's estimate from
        the model's sizes, at least 1000).
      scene_callback: called with (physics, scene) after the scene is updated and
        before it is drawn, e.g. to add geoms.

    Raises:
      ValueError: the image does not fit the offscreen buffer, no camera has that
        name, or `camera_id` is below -1 or not below the number of cameras.
    """

    def __init__(
        self,
        physics: "Physics",
        height: int = 240,
        width: int = 320,
        camera_id: int | str = -1,
        max_geom: int | None = None,
        scene_callback: Callable[["Physics", mujoco.MjvScene], None] | None = None,
    ) -> None:
        model = physics.model
        check_fits_offscreen_buffer(model, height, width)
        if isinstance(camera_id, str):
            index = camera_index_by_name(model, camera_id)
        else:
            index = int(camera_id)
        if index < -1:
            raise ValueError(f"camera_id cannot be smaller than -1, got {index}")
        if index >= model.ncam:
            raise ValueError(
                f"the model has {model.ncam} fixed cameras; camera_id={index} is invalid"
            )
        self._physics = physics
        self._height = height
        self._width = width
        self._scene_callback = scene_callback
        self._scene = mujoco.MjvScene(model, max_geom or default_max_geom(model))
        self._scene_option = apply_dm_control_option_defaults(mujoco.MjvOption())
        self._perturb = mujoco.MjvPerturb()
        self._render_camera = mujoco.MjvCamera()
        self._render_camera.fixedcamid = index
        if index == -1:
            self._render_camera.type = mujoco.mjtCamera.mjCAMERA_FREE
            mujoco.mjv_defaultFreeCamera(model, self._render_camera)
        else:
            self._render_camera.type = mujoco.mjtCamera.mjCAMERA_FIXED

    @property
    def width(self) -> int:
        """Image width in pixels."""
        return self._width

    @property
    def height(self) -> int:
        """Image height in pixels."""
        return self._height

    @property
    def option(self) -> mujoco.MjvOption:
        """The camera's visualisation options (`mujoco.MjvOption`)."""
        return self._scene_option

    @property
    def scene(self) -> mujoco.MjvScene:
        """The camera's `mujoco.MjvScene`."""
        return self._scene

    def matrices(self) -> CameraMatrices:
        """The factors of the camera matrix for the current state (the free camera's
        position and axes are the mean of its two stereo eyes after `update`)."""
        physics = self._physics
        camera_id = self._render_camera.fixedcamid
        if camera_id == -1:
            self.update()
            eyes = [self._scene.camera[i] for i in range(2)]
            position = np.mean([eye.pos for eye in eyes], axis=0)
            z_axis = -np.mean([eye.forward for eye in eyes], axis=0)
            y_axis = np.mean([eye.up for eye in eyes], axis=0)
            rotation_3 = np.vstack((np.cross(y_axis, z_axis), y_axis, z_axis))
            fovy_degrees = physics.model.vis.global_.fovy
        else:
            position = physics.data.cam_xpos[camera_id]
            rotation_3 = physics.data.cam_xmat[camera_id].reshape(3, 3).T
            fovy_degrees = physics.model.cam_fovy[camera_id]
        translation = np.eye(4)
        translation[0:3, 3] = -position
        rotation = np.eye(4)
        rotation[0:3, 0:3] = rotation_3
        focal_scaling = (1.0 / np.tan(np.deg2rad(fovy_degrees) / 2)) * self._height / 2.0
        focal = np.diag([-focal_scaling, focal_scaling, 1.0, 0])[0:3, :]
        image = np.eye(3)
        image[0, 2] = (self._width - 1) / 2.0
        image[1, 2] = (self._height - 1) / 2.0
        return CameraMatrices(image=image, focal=focal, rotation=rotation, translation=translation)

    @property
    def matrix(self) -> np.ndarray:
        """The 3x4 camera matrix: homogeneous world points (metres) to homogeneous
        pixel coordinates."""
        image, focal, rotation, translation = self.matrices()
        return image @ focal @ rotation @ translation

    def update(self, scene_option: mujoco.MjvOption | None = None) -> None:
        """Updates the scene's geometry from the physics' current state (with
        `scene_option`, or the camera's own options)."""
        mujoco.mjv_updateScene(
            self._physics.model,
            self._physics.data,
            scene_option or self._scene_option,
            self._perturb,
            self._render_camera,
            mujoco.mjtCatBit.mjCAT_ALL,
            self._scene,
        )

    def render(
        self,
        overlays: Sequence[TextOverlay] = (),
        depth: bool = False,
        segmentation: bool = False,
        scene_option: mujoco.MjvOption | None = None,
        render_flag_overrides: Mapping[str | int, bool] | None = None,
    ) -> np.ndarray:
        """The camera's view, a new array, top row first.

        Args:
          overlays: `TextOverlay`s drawn over an RGB image.
          depth: a (height, width) float32 image of distances along the camera axis
            in metres (dm_control's conversion, `dm_control_depth`).
          segmentation: a (height, width, 2) int32 image of (object id, object
            type) per pixel, (-1, -1) for the background.
          scene_option: options for this image instead of the camera's own.
          render_flag_overrides: rendering flags for this RGB image, keyed by
            lowercase name ("wireframe") or `mujoco.mjtRndFlag`.

        Returns:
          (height, width, 3) uint8 RGB unless depth or segmentation is asked.

        Raises:
          ValueError: overlays or flag overrides with depth or segmentation, or
            depth and segmentation together.
        """
        check_image_kind(overlays, depth, segmentation, render_flag_overrides)
        overrides = render_flags(render_flag_overrides or {})
        if segmentation:
            overrides[int(mujoco.mjtRndFlag.mjRND_SEGMENT)] = True
            overrides[int(mujoco.mjtRndFlag.mjRND_IDCOLOR)] = True
        physics = self._physics
        model = physics.model
        self.update(scene_option)
        if self._scene_callback is not None:
            self._scene_callback(physics, self._scene)
        renderer = cached_renderer(physics._renderers, model, self._height, self._width)  # noqa: SLF001
        # The renderer's GL and rendering contexts draw this camera's scene; they
        # are private to mujoco.Renderer (see dm_control_depth).
        gl_context = renderer._gl_context  # noqa: SLF001
        context = renderer._mjr_context  # noqa: SLF001
        if gl_context:
            gl_context.make_current()
        rect = mujoco.MjrRect(0, 0, self._width, self._height)
        flags = self._scene.flags
        saved = flags.copy()
        rgb = np.empty((self._height, self._width, 3), dtype=np.uint8)
        depth_buffer = np.empty((self._height, self._width), dtype=np.float32)
        try:
            for flag, value in overrides.items():
                flags[flag] = value
            mujoco.mjr_setBuffer(mujoco.mjtFramebuffer.mjFB_OFFSCREEN, context)
            mujoco.mjr_render(rect, self._scene, context)
            if not depth:
                for overlay in overlays:
                    overlay.draw(context, rect)
            mujoco.mjr_readPixels(
                None if depth else rgb, depth_buffer if depth else None, rect, context
            )
        finally:
            np.copyto(flags, saved)
        if depth:
            image = _depth_in_metres(depth_buffer, model, bool(self._scene.camera[0].orthographic))
        elif segmentation:
            image = self._segmentation(rgb)
        else:
            image = rgb
        # The GL buffer's first row is the image's bottom row.
        return np.ascontiguousarray(np.flipud(image)) if gl_context else image

    def _segmentation(self, rgb: np.ndarray) -> np.ndarray:
        # The scene drawn with segment colours encodes each pixel's geom's segid + 1
        # in its red, green and blue bytes (0 is the background).
        channels = rgb.astype(np.uint32)
        segment = channels[..., 0] + channels[..., 1] * 2**8 + channels[..., 2] * 2**16
        scene = self._scene
        table = np.full((scene.ngeom + 1, 2), fill_value=-1, dtype=np.int32)
        for index in range(scene.ngeom):
            geom = scene.geoms[index]
            if geom.segid != -1:
                table[geom.segid + 1] = (geom.objid, geom.objtype)
        return table[segment]

    def select(self, cursor_position: tuple[float, float]) -> Selected:
        """What lies under `cursor_position`, (x, y) in [0, 1] from the image's
        bottom-left corner: body, geom, flex and skin ids and the world point hit."""
        self.update()
        physics = self._physics
        cursor_x, cursor_y = cursor_position
        point = np.empty(3, np.double)
        geom_id = np.array([-1], dtype=np.intc)
        flex_id = np.array([-1], dtype=np.intc)
        skin_id = np.array([-1], dtype=np.intc)
        body_id = mujoco.mjv_select(
            physics.model,
            physics.data,
            self._scene_option,
            self._width / self._height,
            cursor_x,
            cursor_y,
            self._scene,
            point,
            geom_id,
            flex_id,
            skin_id,
        )
        body, geom, flex, skin = (
            int(value) if value != -1 else None
            for value in (body_id, geom_id[0], flex_id[0], skin_id[0])
        )
        world_position = None if body is None and geom is None and skin is None else point
        return Selected(body=body, geom=geom, flex=flex, skin=skin, world_position=world_position)


class MovableCamera(Camera):
    """The free camera, posed by `set_pose` (dm_control's `mujoco.MovableCamera`)."""

    def __init__(
        self,
        physics: "Physics",
        height: int = 240,
        width: int = 320,
        max_geom: int | None = None,
        scene_callback: Callable[["Physics", mujoco.MjvScene], None] | None = None,
    ) -> None:
        super().__init__(
            physics,
            height=height,
            width=width,
            camera_id=-1,
            max_geom=max_geom,
            scene_callback=scene_callback,
        )

    def get_pose(self) -> Pose:
        """The camera's pose (its `lookat` is a view of the camera's own)."""
        camera = self._render_camera
        return Pose(camera.lookat, camera.distance, camera.azimuth, camera.elevation)

    def set_pose(self, lookat: Any, distance: float, azimuth: float, elevation: float) -> None:
        """Looks at `lookat` (world, metres) from `distance` metres at `azimuth` and
        `elevation` degrees."""
        camera = self._render_camera
        np.copyto(camera.lookat, lookat)
        camera.distance = distance
        camera.azimuth = azimuth
        camera.elevation = elevation
