"""Rescaling a walker's lengths, sizes and mass (dm-control 1.0.50,
`locomotion/walkers/rescale.py`): positions scale by one factor, sizes by another,
and a segment given by `fromto` keeps its centre scaled as a position and its
half-extent scaled as a size. Works on PyMJCF handles (`composer_tasks.mjcf`).
"""

from typing import Any

import numpy as np

from composer_tasks import mjcf

# The kinds of element under a body that have positions or sizes (dm_control scales
# every child that has `pos`, `size` or `fromto`; sensors live outside bodies).
_PLACED_CHILDREN = ("geom", "site", "joint", "camera", "light")


def rescale_subtree(body: Any, position_factor: float, size_factor: float) -> None:
    """Scales, in place, the positions (by `position_factor`) and sizes (by
    `size_factor`) of everything under `body` (a body handle, the worldbody, or a
    `mjcf.RootElement`, meaning its worldbody), recursively.

    Only attributes that were given are touched, as in dm_control: an element whose
    position MuJoCo derives (a `fromto` geom) keeps it derived.
    """
    if isinstance(body, mjcf.RootElement):
        body = body.worldbody
    if getattr(body, "tag", None) not in ("body", "worldbody"):
        raise TypeError(f"rescale_subtree needs a body, worldbody or RootElement, got {body!r}")
    for tag in _PLACED_CHILDREN:
        for child in body.find_all(tag, immediate_children_only=True):
            _rescale_element(child, position_factor, size_factor)
    for child in body.find_all("body", immediate_children_only=True):
        _rescale_element(child, position_factor, size_factor)
        rescale_subtree(child, position_factor, size_factor)


def _rescale_element(element: Any, position_factor: float, size_factor: float) -> None:
    fromto = getattr(element, "fromto", None)
    if fromto is not None:
        fromto = np.asarray(fromto, dtype=np.float64)
        centre = position_factor * 0.5 * (fromto[3:] + fromto[:3])
        half = size_factor * 0.5 * (fromto[3:] - fromto[:3])
        element.fromto = np.concatenate([centre - half, centre + half])
    position = getattr(element, "pos", None)
    if position is not None:
        element.pos = np.asarray(position, dtype=np.float64) * position_factor
    size = getattr(element, "size", None)
    if size is not None:
        element.size = np.asarray(size, dtype=np.float64) * size_factor


def rescale_humanoid(
    walker: Any,
    position_factor: float,
    size_factor: float | None = None,
    mass: float | None = None,
) -> None:
    """Rescales a humanoid whose root body is named "root": lengths by
    `position_factor`, sizes by `size_factor` (default: `position_factor`), and,
    with `mass` (kg), every body's explicit mass and every geom's mass (or density,
    1000 kg/m^3 if unset) by the factor that makes the root's subtree weigh `mass`.

    Raises:
      ValueError: if the walker has no body named "root".
    """
    root = walker.mjcf_model.find("body", "root")
    if root is None:
        raise ValueError(f"rescale_humanoid: walker {walker!r} has no body named 'root'")
    if size_factor is None:
        size_factor = position_factor
    rescale_subtree(root.parent, position_factor, size_factor)
    if mass is None:
        return
    physics = mjcf.Physics.from_mjcf_model(walker.mjcf_model.root_model)
    mass_factor = mass / float(np.asarray(physics.bind(walker.root_body).subtreemass))
    for body in walker.root_body.find_all("body"):
        spec_body = body.spec_element
        if spec_body.explicitinertial:
            spec_body.mass *= mass_factor
    for geom in walker.root_body.find_all("geom"):
        # An unset mass reads None (dm_control) or NaN (an MjSpec geom's default).
        if geom.mass is not None and not np.isnan(geom.mass):
            geom.mass = geom.mass * mass_factor
        else:
            density = geom.density if geom.density is not None else 1000.0
            geom.density = density * mass_factor
