"""Props: small entities placed in arenas.

A prop's own elements are what its `_build` made (a `Primitive`'s `geom`, a
`Button`'s geom and touch sensor, ...). Once attached (`Arena.add_free_entity`,
`Entity.attach`), the body that holds it in its parent is `prop.attachment_body`
and, for a free prop, its free joint is `prop.free_joint`.
"""

from composer_tasks.props.bricks import Duplo

# dm_control's name of the Duplo brick's module (`props.duplo.Duplo`).
from composer_tasks.props import bricks as duplo  # noqa: E402, I001
from composer_tasks.props.button import Button
from composer_tasks.props.pedestal import Pedestal, SphereCradle
from composer_tasks.props.position_detector import PositionDetector
from composer_tasks.props.manipulation import (
    Box,
    BoxWithSites,
    Capsule,
    Cylinder,
    Ellipsoid,
    Sphere,
)
from composer_tasks.props.primitive import Primitive
from composer_tasks.props.soccer_ball import SoccerBall
from composer_tasks.props.target_sphere import TargetSphere, TargetSphereTwoTouch

__all__ = [
    "Box",
    "BoxWithSites",
    "Button",
    "Capsule",
    "Cylinder",
    "Duplo",
    "Ellipsoid",
    "Pedestal",
    "PositionDetector",
    "Primitive",
    "SoccerBall",
    "Sphere",
    "SphereCradle",
    "TargetSphere",
    "TargetSphereTwoTouch",
]
