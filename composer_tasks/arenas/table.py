"""Table: the manipulation suite's workspace, a stiff ground plane 2 m x 2 m.

dm_control's manipulation arena (`manipulation/shared/arenas.py` of dm-control
1.0.50) is a plane that plays the table top; its numbers carry over: half-size
1 m, sliding friction 0.4, solimp (0.95, 0.99, 0.001) and solref (0.002, 1) for
contacts harder than MuJoCo's defaults, a light 1.5 m above the origin, and the
Composer arena's solver options (elliptic friction cones, 5 noslip iterations,
noslip tolerance 0, physics timestep 0.002 s; dm_control composer/arena.xml).
"""

from collections.abc import Sequence
from typing import Any

import mujoco
import numpy as np
from numpy.typing import ArrayLike

from composer_tasks import composer, mjcf

# dm_control composer/arena.xml and manipulation/shared/arenas.py (numbers).
PHYSICS_TIMESTEP_S = 0.002
NOSLIP_ITERATIONS = 5
_HALF_SIZE_M = 1.0
_FRICTION = 0.4
_SOLIMP = (0.95, 0.99, 0.001)
_SOLREF = (0.002, 1.0)
_LIGHT_HEIGHT_M = 1.5
_SKYBOX_TEXELS = 100


class Table(composer.Arena):
    """The manipulation workspace: a ground plane centred at the origin, z up.

    Args:
      name: the arena's name.
    """

    def _build(self, name: str = "arena") -> None:
        spec = mujoco.MjSpec()
        spec.modelname = name
        spec.compiler.degree = False  # Angles (joint ranges) are in radians.
        spec.option.timestep = PHYSICS_TIMESTEP_S
        spec.option.cone = mujoco.mjtCone.mjCONE_ELLIPTIC
        spec.option.noslip_iterations = NOSLIP_ITERATIONS
        spec.option.noslip_tolerance = 0.0
        spec.visual.map.znear = 0.01
        spec.visual.headlight.diffuse = [0.6, 0.6, 0.6]
        spec.visual.headlight.ambient = [0.3, 0.3, 0.3]
        spec.visual.headlight.specular = [0.0, 0.0, 0.0]
        spec.stat.center = [0.0, 0.0, 0.0]
        # Unnamed, as dm_control's arena.xml has them: compiled as PyMJCF names them
        # ("//unnamed_texture_0", "//unnamed_light_0").
        spec.add_texture(
            type=mujoco.mjtTexture.mjTEXTURE_SKYBOX,
            builtin=mujoco.mjtBuiltin.mjBUILTIN_GRADIENT,
            rgb1=[0.4, 0.6, 0.8],
            rgb2=[0.0, 0.0, 0.0],
            width=_SKYBOX_TEXELS,
            height=_SKYBOX_TEXELS,
        )
        spec.add_texture(
            name="groundplane",
            type=mujoco.mjtTexture.mjTEXTURE_2D,
            builtin=mujoco.mjtBuiltin.mjBUILTIN_CHECKER,
            rgb1=[0.2, 0.3, 0.4],
            rgb2=[0.1, 0.2, 0.3],
            mark=mujoco.mjtMark.mjMARK_EDGE,
            markrgb=[0.8, 0.8, 0.8],
            width=300,
            height=300,
        )
        material = spec.add_material(
            name="groundplane", texrepeat=[5.0, 5.0], texuniform=True, reflectance=0.2
        )
        material.textures[mujoco.mjtTextureRole.mjTEXROLE_RGB] = "groundplane"
        self._ground = spec.worldbody.add_geom(
            name="ground",
            type=mujoco.mjtGeom.mjGEOM_PLANE,
            size=[_HALF_SIZE_M, _HALF_SIZE_M, 0.1],
            material="groundplane",
            friction=[_FRICTION, 0.005, 0.0001],
            solimp=[*_SOLIMP, 0.5, 2.0],
            solref=list(_SOLREF),
        )
        spec.worldbody.add_light(
            pos=[0.0, 0.0, _LIGHT_HEIGHT_M],
            dir=[0.0, 0.0, -1.0],
            diffuse=[0.7, 0.7, 0.7],
            specular=[0.3, 0.3, 0.3],
            castshadow=True,
        )
        self._spec = spec

    @property
    def ground_geom(self) -> mjcf.Element:
        return self._handle(self._ground)

    def attach_offset(
        self, child: composer.Entity, offset: ArrayLike, attach_site: Any = None
    ) -> Any:
        """Attaches `child` (fixed) with its origin at `offset` (3,), metres, from the
        attachment site (`attach_site`, as `Entity.attach` takes it; default the
        world body's origin). Returns the attachment frame."""
        offset = np.asarray(offset, dtype=np.float64)
        if offset.shape != (3,) or not np.all(np.isfinite(offset)):
            raise ValueError(f"offset must be 3 finite numbers in metres, got {offset!r}")
        frame = self.attach(child, attach_site=attach_site)
        body = child.attachment_body
        assert body is not None  # Set by `attach`.
        body.pos = offset
        return frame

    def add_camera(
        self, name: str, pos: Sequence[float], xyaxes: Sequence[float], fovy: float = 45.0
    ) -> mujoco.MjsCamera:
        """Adds a fixed camera to the world body (position in metres, world frame)."""
        return self._spec.worldbody.add_camera(
            name=name, pos=list(pos), xyaxes=list(xyaxes), fovy=fovy
        )

    def add_site(self, **kwargs: Any) -> mujoco.MjsSite:
        """Adds a site to the world body (task markers: targets, spawn regions)."""
        return self._spec.worldbody.add_site(**kwargs)


# dm_control's name for this arena (manipulation/shared/arenas.py).
Standard = Table
