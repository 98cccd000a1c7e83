"""Physics.render's level of detail: the tessellation of round shapes for small images.

The rendering tests need an OpenGL backend; conftest.py selects MUJOCO_GL=egl.
"""

import gc

import mujoco
import numpy as np
import pytest

from composer_tasks import rendering
from composer_tasks.composer.observation import observable
from composer_tasks.physics import Physics
from suites import suite
from suites.wrappers import pixels

# Round shapes of several sizes on a lit, textured floor, seen by a fixed camera.
_SCENE = """
<mujoco>
  <asset>
    <texture name="grid" type="2d" builtin="checker" width="64" height="64"
             rgb1=".1 .2 .3" rgb2=".2 .3 .4"/>
    <material name="grid" texture="grid" texrepeat="1 1" texuniform="true"/>
  </asset>
  <worldbody>
    <light name="top" pos="0 0 3"/>
    <camera name="front" pos="0 -2.5 1" xyaxes="1 0 0 0 0.4 1"/>
    <geom name="floor" type="plane" size="20 20 .2" material="grid"/>
    <body name="body" pos="0 0 0.6">
      <freejoint/>
      <geom type="capsule" fromto="-0.6 0 0 0.6 0 0.2" size="0.12" rgba=".8 .6 .4 1"/>
      <geom type="sphere" pos="0 0 0.4" size="0.25" rgba=".7 .5 .3 1"/>
      <geom type="ellipsoid" pos="0.5 0 -0.3" size="0.1 0.2 0.3" rgba=".6 .6 .7 1"/>
      <geom type="cylinder" pos="-0.5 0 -0.3" size="0.08 0.25" rgba=".5 .7 .5 1"/>
    </body>
  </worldbody>
</mujoco>
"""

_AGENT_CAMERA = dict(camera_id="front", shadows=False, reflections=False, antialias=False)


def _scene():
    return Physics.from_xml_string(_SCENE)


def _half_pixel_outline(slices, radius_px):
    """Whether a regular polygon of `slices` sides strays at most half a pixel from
    its circumscribed circle of `radius_px` pixels."""
    return radius_px * (1 - np.cos(np.pi / slices)) <= 0.5


def test_auto_tessellation_is_the_fewest_slices_within_half_a_pixel():
    quality = mujoco.MjModel.from_xml_string("<mujoco/>").vis.quality
    assert (quality.numslices, quality.numstacks) == (28, 16)  # MuJoCo's defaults.
    assert rendering.tessellation(quality, 64, 64, "auto") == (18, 10)
    assert rendering.tessellation(quality, 84, 84, "auto") == (21, 12)
    previous = (0, 0)
    for size in range(1, 400):
        slices, stacks = rendering.tessellation(quality, size, size, "auto")
        radius_px = size / 2
        assert slices >= 8 and stacks >= 4 and stacks % 2 == 0
        if slices < 28:
            assert _half_pixel_outline(slices, radius_px), size
            # Fewest: one slice less would stray further, unless the octagon floor holds.
            assert slices == 8 or not _half_pixel_outline(slices - 1, radius_px), size
            # Stacks step through the same angle as slices (pole to pole is half a turn).
            assert stacks >= slices / 2
        assert (slices, stacks) >= previous
        previous = (slices, stacks)
    # From 160 pixels up the model's own tessellation is fine enough; never finer.
    assert rendering.tessellation(quality, 160, 160, "auto") == (28, 16)
    assert rendering.tessellation(quality, 480, 640, "auto") == (28, 16)
    assert rendering.tessellation(quality, 48, 160, "auto") == (28, 16)


def test_full_detail_and_coarse_models_keep_the_models_tessellation():
    model = mujoco.MjModel.from_xml_string(
        '<mujoco><visual><quality numslices="12" numstacks="6"/></visual></mujoco>'
    )
    quality = model.vis.quality
    assert rendering.tessellation(quality, 64, 64, "full") == (12, 6)
    assert rendering.tessellation(quality, 64, 64, "auto") == (12, 6)
    assert rendering.tessellation(quality, 16, 16, "auto") == (9, 6)


@pytest.mark.parametrize("level_of_detail", ["low", None, 1, "AUTO"])
def test_unknown_level_of_detail_is_rejected(level_of_detail):
    physics = _scene()
    with pytest.raises(ValueError, match=r"level_of_detail must be one of \('auto', 'full'\)"):
        physics.render(64, 64, level_of_detail=level_of_detail)
    with pytest.raises(ValueError, match="MujocoCamera: level_of_detail must be 'auto' or 'full'"):
        observable.MujocoCamera("front", level_of_detail=level_of_detail)
    assert not physics._renderers


@pytest.mark.parametrize("height, width", [(0, 64), (64, -1)])
def test_image_size_must_be_positive_pixels(height, width):
    with pytest.raises(ValueError, match="must be a positive number of pixels"):
        _scene().render(height, width)


@pytest.mark.parametrize("height, width", [(64.0, 64), (True, 64)])
def test_image_size_must_be_an_int(height, width):
    # TypeError, as dm_control raises for a size that is not an integer.
    with pytest.raises(TypeError, match="must be an int number of pixels"):
        _scene().render(height, width)


def test_the_model_is_unchanged_by_making_renderers():
    physics = _scene()
    quality = physics.model.vis.quality
    before = (quality.numslices, quality.numstacks, quality.offsamples)
    physics.render(64, 64, **_AGENT_CAMERA)
    physics.render(64, 64, camera_id="front")
    assert (quality.numslices, quality.numstacks, quality.offsamples) == before


def test_the_model_is_unchanged_when_a_renderer_cannot_be_made(monkeypatch):
    def no_backend(*args, **kwargs):
        raise mujoco.FatalError("an OpenGL platform library has not been loaded")

    monkeypatch.setattr(mujoco, "Renderer", no_backend)
    physics = _scene()
    quality = physics.model.vis.quality
    before = (quality.numslices, quality.numstacks, quality.offsamples)
    with pytest.raises(RuntimeError, match="could not create a renderer"):
        physics.render(64, 64, **_AGENT_CAMERA)
    assert (quality.numslices, quality.numstacks, quality.offsamples) == before
    assert not physics._renderers


def test_renderers_are_cached_per_size_flags_and_tessellation():
    physics = _scene()
    for _ in range(2):
        physics.render(64, 64, **_AGENT_CAMERA)
        physics.render(64, 64, level_of_detail="full", **_AGENT_CAMERA)
        physics.render(64, 64, camera_id="front")
        # At 240x320 "auto" is the model's tessellation: one renderer serves both.
        physics.render(240, 320, **_AGENT_CAMERA)
        physics.render(240, 320, level_of_detail="full", **_AGENT_CAMERA)
    assert sorted(physics._renderers) == [
        (64, 64, False, 18, 10),
        (64, 64, False, 28, 16),
        (64, 64, True, 18, 10),
        (240, 320, False, 28, 16),
    ]


def test_renderers_are_freed_on_close_recompile_and_collection():
    spec = mujoco.MjSpec.from_string(_SCENE)
    physics = Physics.from_spec(spec)
    physics.render(64, 64, **_AGENT_CAMERA)
    physics.render(64, 64, level_of_detail="full", **_AGENT_CAMERA)
    renderers = list(physics._renderers.values())
    physics.close()
    assert not physics._renderers
    assert all(renderer._mjr_context is None for renderer in renderers)

    physics.render(64, 64, **_AGENT_CAMERA)
    (renderer,) = physics._renderers.values()
    physics.recompile()
    assert not physics._renderers and renderer._mjr_context is None

    physics.render(64, 64, **_AGENT_CAMERA)
    (renderer,) = physics._renderers.values()
    del physics
    gc.collect()
    assert renderer._mjr_context is None


def test_the_renderer_cache_is_bounded_least_recently_used_first():
    physics = _scene()
    first_key = (16, 16, False, 9, 6)
    physics.render(16, 16, **_AGENT_CAMERA)
    first = physics._renderers[first_key]
    sizes = range(17, 17 + rendering.MAX_CACHED_RENDERERS + 4)
    made = []
    for size in sizes:
        # Using the first renderer again keeps it; the others are evicted in turn.
        physics.render(16, 16, **_AGENT_CAMERA)
        physics.render(size, size, **_AGENT_CAMERA)
        made.append(physics._renderers[next(reversed(physics._renderers))])
        assert len(physics._renderers) <= rendering.MAX_CACHED_RENDERERS
    assert len(physics._renderers) == rendering.MAX_CACHED_RENDERERS
    assert physics._renderers[first_key] is first and first._mjr_context is not None
    evicted = made[: len(made) - (rendering.MAX_CACHED_RENDERERS - 1)]
    kept = made[len(evicted) :]
    assert all(renderer._mjr_context is None for renderer in evicted)
    assert all(renderer._mjr_context is not None for renderer in kept)
    # An evicted kind of image is made again, and is drawn the same.
    again = physics.render(17, 17, **_AGENT_CAMERA)
    assert again.shape == (17, 17, 3)
    assert len(physics._renderers) == rendering.MAX_CACHED_RENDERERS


def test_auto_detail_is_deterministic():
    first, second = _scene(), _scene()
    images = []
    for physics in (first, second, first):
        physics.data.qpos[:3] = [0.1, 0.2, 0.3]
        physics.forward()
        images.append(physics.render(64, 64, **_AGENT_CAMERA))
    np.testing.assert_array_equal(images[0], images[1])
    np.testing.assert_array_equal(images[0], images[2])


@pytest.mark.parametrize(
    "options",
    [_AGENT_CAMERA, dict(camera_id="front")],
    ids=["agent camera", "physics.render defaults"],
)
def test_small_images_differ_only_along_silhouettes(options):
    physics = _scene()
    rng = np.random.default_rng(0)
    differences = []
    for _ in range(10):
        physics.data.qpos[:3] = rng.uniform(-0.2, 0.2, size=3)
        physics.data.qpos[3:7] = rng.normal(size=4)
        physics.data.qpos[3:7] /= np.linalg.norm(physics.data.qpos[3:7])
        physics.forward()
        auto = physics.render(64, 64, **options).astype(np.int16)
        full = physics.render(64, 64, level_of_detail="full", **options).astype(np.int16)
        differences.append(np.abs(auto - full))
    difference = np.array(differences)
    changed = difference.max(axis=-1) > 0
    # The coarser shapes are drawn (some pixels differ) ...
    assert changed.any()
    # ... but the image is the same but for a few pixels along round outlines.
    assert difference.mean() < 0.5, difference.mean()
    assert np.mean(difference.max(axis=-1) > 16) < 0.005


def test_large_images_are_drawn_at_full_detail():
    physics = _scene()
    physics.data.qpos[:3] = [0.1, 0.0, 0.2]
    physics.forward()
    np.testing.assert_array_equal(
        physics.render(160, 160, **_AGENT_CAMERA),
        physics.render(160, 160, level_of_detail="full", **_AGENT_CAMERA),
    )


def test_depth_and_segmentation_use_the_same_detail():
    physics = _scene()
    depth = physics.render(64, 64, depth=True, **_AGENT_CAMERA)
    full_depth = physics.render(64, 64, depth=True, level_of_detail="full", **_AGENT_CAMERA)
    assert depth.shape == (64, 64) and depth.dtype == np.float32
    # Depth differs by the facets' sag (millimetres here) inside round shapes, and
    # by more only where an outline moved by a fraction of a pixel.
    assert np.mean(np.abs(depth - full_depth) > 0.01) < 0.005
    segmentation = physics.render(64, 64, segmentation=True, **_AGENT_CAMERA)
    assert segmentation.shape == (64, 64, 2)
    assert len(physics._renderers) == 2


def test_pixels_wrapper_and_camera_observable_pass_the_level_of_detail_on():
    env = suite.load("humanoid", "run", task_kwargs={"random": 0})
    size = dict(height=64, width=64, camera_id=0)
    # The wrapper renders with physics.render's own defaults, as dm_control's does.
    auto = pixels.Wrapper(env, render_kwargs=size)
    full = pixels.Wrapper(env, render_kwargs=dict(size, level_of_detail="full"))
    auto_image = auto.reset().observation["pixels"]
    np.testing.assert_array_equal(auto_image, env.physics.render(**size))
    full_image = full.step(np.zeros(env.action_spec().shape)).observation["pixels"]
    np.testing.assert_array_equal(full_image, env.physics.render(level_of_detail="full", **size))
    # One renderer per level of detail (antialiased: physics.render's default).
    assert (64, 64, True, 18, 10) in env.physics._renderers
    assert (64, 64, True, 28, 16) in env.physics._renderers
    with pytest.raises(ValueError, match="level_of_detail"):
        pixels.Wrapper(env, render_kwargs=dict(size, level_of_detail="fine"))

    physics = _scene()
    for level_of_detail in ("auto", "full"):
        camera = observable.MujocoCamera("front", 64, 64, level_of_detail=level_of_detail)
        reader = camera._raw_reader(physics)
        # physics.render's defaults otherwise (shadows, reflections, multisampling on),
        # as dm_control's camera observables render.
        np.testing.assert_array_equal(
            reader(), physics.render(64, 64, camera_id=0, level_of_detail=level_of_detail)
        )
    env.close()
