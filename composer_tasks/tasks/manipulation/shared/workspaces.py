"""Workspaces: the regions from which hand and prop poses are drawn, and sites that
show them (dm-control 1.0.50, manipulation/shared/workspaces.py)."""

import collections
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from composer_tasks.composer import initializers
from composer_tasks.composer.variation import distributions
from composer_tasks.composer.variation import rotations
from composer_tasks.tasks.manipulation.shared import constants

# Sites are at least this large (metres) in every dimension: MuJoCo needs sizes > 0.
_MIN_SITE_DIMENSION = 1e-6

DOWN_QUATERNION = initializers.DOWN_QUATERNION

BoundingBox = collections.namedtuple("BoundingBox", ["lower", "upper"])

# A rotation about the world z axis, uniform in [-pi, pi): one variation object,
# shared, as in dm_control.
uniform_z_rotation = rotations.QuaternionFromAxisAngle(
    axis=(0.0, 0.0, 1.0), angle=distributions.Uniform(-np.pi, np.pi, single_sample=True)
)


def add_bbox_site(
    body: Any, lower: ArrayLike, upper: ArrayLike, visible: bool = False, **kwargs: Any
) -> Any:
    """Adds to `body` (an `mjcf` body or world body) a box site spanning
    [lower, upper] (x, y, z in metres); hidden in `constants.TASK_SITE_GROUP`
    unless `visible`. Other keywords are the site's attributes. Returns the site."""
    lower, upper = np.asarray(lower, dtype=float), np.asarray(upper, dtype=float)
    if lower.shape != (3,) or upper.shape != (3,):
        raise ValueError(f"lower and upper must be 3 numbers each, got {lower!r} and {upper!r}")
    size = np.maximum((upper - lower) / 2.0, _MIN_SITE_DIMENSION)
    group = None if visible else constants.TASK_SITE_GROUP
    return body.add("site", type="box", pos=(upper + lower) / 2.0, size=size, group=group, **kwargs)


def add_target_site(body: Any, radius: float, visible: bool = False, **kwargs: Any) -> Any:
    """Adds to `body` a sphere site of `radius` metres; hidden unless `visible`.
    Other keywords are the site's attributes. Returns the site."""
    group = None if visible else constants.TASK_SITE_GROUP
    return body.add("site", type="sphere", size=[radius], group=group, **kwargs)
