"""DeepMind Lab's maze textures as entities (dm_control's
`locomotion.arenas.labmaze_textures`).

The images are the ones the `labmaze` package installs (its `assets` module
gives their paths); an entity here holds only texture assets and is attached to
a maze arena (`mazes.MazeWithTargets`), which makes materials from them. Each
entity's model is named "labmaze_<style>".
"""

from __future__ import annotations

import mujoco
from labmaze import assets as labmaze_assets

from composer_tasks import composer


def _new_spec(style: str) -> mujoco.MjSpec:
    if not isinstance(style, str) or not style:
        raise ValueError(f"style must be the name of a labmaze texture style, got {style!r}")
    spec = mujoco.MjSpec()
    spec.modelname = "labmaze_" + style
    return spec


def _add_2d_textures(spec: mujoco.MjSpec, paths: dict[str, str]) -> list[mujoco.MjsTexture]:
    return [
        spec.add_texture(name=name, type=mujoco.mjtTexture.mjTEXTURE_2D, file=path)
        for name, path in paths.items()
    ]


class SkyBox(composer.Entity):
    """A skybox texture ("texture") of a labmaze sky style, e.g. "sky_03".

    Args:
      style: a labmaze sky style.
    """

    def _build(self, style: str) -> None:
        spec = _new_spec(style)
        faces = labmaze_assets.get_sky_texture_paths(style)
        # MuJoCo's cube faces in its order: right, left, up, down, front, back.
        self._texture = spec.add_texture(
            name="texture",
            type=mujoco.mjtTexture.mjTEXTURE_SKYBOX,
            cubefiles=[faces.right, faces.left, faces.up, faces.down, faces.front, faces.back],
        )
        self._spec = spec

    @property
    def texture(self) -> mujoco.MjsTexture:
        return self._texture


class WallTextures(composer.Entity):
    """The wall textures of a labmaze style (e.g. "style_01"), one per colour name.

    Args:
      style: a labmaze texture style.
    """

    def _build(self, style: str) -> None:
        spec = _new_spec(style)
        self._textures = _add_2d_textures(spec, labmaze_assets.get_wall_texture_paths(style))
        self._spec = spec

    @property
    def textures(self) -> list[mujoco.MjsTexture]:
        return list(self._textures)


class FloorTextures(composer.Entity):
    """The floor textures of a labmaze style (e.g. "style_01"), one per colour name.

    Args:
      style: a labmaze texture style.
    """

    def _build(self, style: str) -> None:
        spec = _new_spec(style)
        self._textures = _add_2d_textures(spec, labmaze_assets.get_floor_texture_paths(style))
        self._spec = spec

    @property
    def textures(self) -> list[mujoco.MjsTexture]:
        return list(self._textures)
