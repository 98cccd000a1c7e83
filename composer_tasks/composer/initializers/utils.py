"""What the initializers share: drawing values, the bodies and geoms of an entity,
and contact tests."""

import collections.abc
from typing import Any

import mujoco
import numpy as np

from composer_tasks.composer import entity as entity_module
from composer_tasks.composer.variation import base as variation_base
from composer_tasks.physics import Physics

IDENTITY_QUATERNION = np.array([1.0, 0.0, 0.0, 0.0])

# A value an initializer draws: an array or number, or a `Variation`, callable or
# nested structure of them that `variation.evaluate` turns into one (hence Any).
Sampled = Any


def evaluate_as_array(
    value: Sampled,
    random_state: np.random.RandomState,
    initial_value: np.ndarray | None = None,
    current_value: np.ndarray | None = None,
) -> np.ndarray:
    """A sampled value (a variation, callable or constant) evaluated as a float64 array."""
    return np.asarray(
        variation_base.evaluate(
            value,
            initial_value=initial_value,
            current_value=current_value,
            random_state=random_state,
        ),
        dtype=np.float64,
    )


def entity_body_ids(physics: Physics, entity: entity_module.Entity) -> np.ndarray:
    """Ids of the attachment body of `entity` and every body below it."""
    model = physics.model
    if entity.attachment_body is None:
        return np.arange(model.nbody)
    top = physics.bind(entity.attachment_body).id
    ids = [body for body in range(model.nbody) if body == top or is_descendant(model, body, top)]
    return np.array(ids, dtype=np.int64)


def is_descendant(model: mujoco.MjModel, body: int, ancestor: int) -> bool:
    """Whether body `body` lies below body `ancestor` in the model's tree."""
    while body > 0:
        body = model.body_parentid[body]
        if body == ancestor:
            return True
    return False


def geoms_of(physics: Physics, entity: entity_module.Entity) -> np.ndarray:
    """Ids of the geoms on the bodies of `entity` (attachment body and below)."""
    bodies = entity_body_ids(physics, entity)
    return np.flatnonzero(np.isin(physics.model.geom_bodyid, bodies))


def qpos_size(joint_type: int) -> int:
    """The number of qpos entries of a joint of type `joint_type` (mjtJoint)."""
    return {int(mujoco.mjtJoint.mjJNT_FREE): 7, int(mujoco.mjtJoint.mjJNT_BALL): 4}.get(
        int(joint_type), 1
    )


def penetrates(physics: Physics, geoms: np.ndarray) -> bool:
    """True if any active contact with penetration (dist <= 0) involves `geoms`."""
    contact = physics.data.contact
    if len(contact.dist) == 0:
        return False
    touching = contact.dist <= 0
    involved = np.isin(contact.geom1, geoms) | np.isin(contact.geom2, geoms)
    return bool(np.any(touching & involved))


class JointStaticIsolator:
    """Keeps every joint of a model other than `joints` still: made, it notes the
    positions and velocities of the other joints; leaving its `with` block puts
    them back (dm_control's `initializers.utils.JointStaticIsolator`).

    Args:
      physics: the model's `mjcf.Physics`.
      joints: a `mjcf` joint element, or an iterable of them, all of one root model,
        free to move inside the `with` block.

    Raises:
      ValueError: the joints belong to different root models.
    """

    def __init__(self, physics: Any, joints: Any) -> None:
        if not isinstance(joints, collections.abc.Iterable):
            joints = [joints]
        joints = list(joints)
        roots = {id(joint.root.root_model) for joint in joints}
        if len(roots) != 1:
            raise ValueError("entities do not all belong to the same root model")
        others = [
            joint for joint in joints[0].root.root_model.find_all("joint") if joint not in joints
        ]
        self._others = physics.bind(others) if others else None
        if self._others is not None:
            self._qpos = np.array(self._others.qpos)
            self._qvel = np.array(self._others.qvel)

    def __enter__(self) -> None:
        return None

    def __exit__(self, exc_type: Any, exc_value: Any, traceback: Any) -> None:
        if self._others is not None:
            self._others.qpos = self._qpos
            self._others.qvel = self._qvel
