"""The Control Suite's planar stacker: the manipulator's arm and arena with two to
four boxes and a target ghost box.

Facts are those of dm_control 1.0.50 `suite/stacker.xml`: the arm, arena,
tendons, coupling, touch sensors and motors are the manipulator's (built by
`mjcf_models.manipulator.make_arm_spec`), with the stacker's softer default
contact (solref 0.01 s instead of 0.005 s); the published file holds four boxes
and the tasks delete those they do not use, so `make_spec(num_boxes)` adds the
first `num_boxes` in the published order. Lengths in metres.
"""

import mujoco

from mjcf_models import manipulator

_GEOM_SOLREF = (0.01, 1)
MAX_BOXES = 4
# Half-size (m) of the cubic boxes and of the target ghost.
BOX_HALF_SIZE = 0.022
# Box i starts at x = 0.5 - 0.1 i, z = 0.4 (the slide joints' reference positions).
_BOX_START_X = (0.5, 0.4, 0.3, 0.2)
_BOX_START_Z = 0.4


def make_spec(num_boxes):
    """Returns the stacker model with `num_boxes` boxes (`box0` ... ).

    The qpos layout is the arm's eight joints, then per box `box<i>_x`, `box<i>_z`
    (slides, world metres) and `box<i>_y` (hinge, radians). The `target` ghost box
    (no contacts) sits 1 mm behind the plane of motion; tasks move it per episode.

    Raises:
      ValueError: unless 1 <= num_boxes <= 4.
    """
    if (
        isinstance(num_boxes, bool)
        or not isinstance(num_boxes, int)
        or not (1 <= num_boxes <= MAX_BOXES)
    ):
        raise ValueError(f"num_boxes must be an int in [1, {MAX_BOXES}], got {num_boxes!r}")
    spec = manipulator.make_arm_spec("planar stacker", _GEOM_SOLREF)
    world = spec.worldbody
    box = mujoco.mjtGeom.mjGEOM_BOX
    sphere = mujoco.mjtGeom.mjGEOM_SPHERE
    slide = mujoco.mjtJoint.mjJNT_SLIDE
    half = [BOX_HALF_SIZE] * 3
    for index in range(num_boxes):
        name = f"box{index}"
        x = _BOX_START_X[index]
        body = world.add_body(name=name, pos=[x, 0, _BOX_START_Z], childclass="object")
        body.add_joint(name=f"{name}_x", type=slide, axis=[1, 0, 0], ref=x)
        body.add_joint(name=f"{name}_z", type=slide, axis=[0, 0, 1], ref=_BOX_START_Z)
        body.add_joint(name=f"{name}_y", type=mujoco.mjtJoint.mjJNT_HINGE, axis=[0, 1, 0])
        body.add_geom(name=name, type=box, size=half)
        body.add_site(name=name, type=sphere)
    target = world.add_body(name="target", pos=[0, 0.001, BOX_HALF_SIZE], childclass="ghost")
    target.add_geom(name="target", type=box, size=half)
    target.add_site(name="target", type=sphere)
    return spec
