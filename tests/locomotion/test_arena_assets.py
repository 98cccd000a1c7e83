"""The arena styles' images are the ones `make_textures.py` draws, and load."""

import numpy as np

from composer_tasks.arenas import assets
from composer_tasks.arenas.assets import make_textures


def test_committed_images_are_what_the_script_draws():
    assert make_textures.main(["--check"]) == 0


def test_png_writer_round_trips_through_mujoco():
    import mujoco

    image = np.arange(4 * 6 * 3, dtype=np.uint8).reshape(4, 6, 3) * 3
    spec = mujoco.MjSpec()
    spec.assets = {"t.png": make_textures.png_bytes(image)}
    spec.add_texture(name="t", file="t.png", type=mujoco.mjtTexture.mjTEXTURE_2D)
    model = spec.compile()
    assert (model.tex_width[0], model.tex_height[0]) == (6, 4)
    assert np.array_equal(model.tex_data.reshape(4, 6, 3), image)


def test_style_textures_compile_with_the_styles_layout():
    import mujoco

    spec = mujoco.MjSpec()
    material = assets.add_style(spec, "outdoor_natural")
    spec.worldbody.add_geom(
        type=mujoco.mjtGeom.mjGEOM_PLANE, size=[1, 1, 1], material=material.name
    )
    model = spec.compile()
    assert [model.texture(i).name for i in range(model.ntex)] == [
        "aesthetic_texture",
        "aesthetic_skybox",
    ]
    # A sky box's six square faces, stacked.
    assert model.tex_height[1] == 6 * model.tex_width[1]
