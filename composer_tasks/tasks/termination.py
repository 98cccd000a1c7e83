"""When a walker has fallen: the termination conditions of the locomotion tasks.

The dm_control paper's locomotion tasks (arXiv:2006.12983, §7) end an episode
when a geom of the walker other than its feet touches the ground, or when an end
effector drops below a height (the walker fell into a gap). `FallDetector`
implements both, plus an optional minimum height of the walker's root body, with
numpy over MuJoCo's contact arrays so that the check costs microseconds.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import numpy as np

from composer_tasks.tasks import walker_state

if TYPE_CHECKING:
    import mujoco

    from composer_tasks import composer
    from composer_tasks.physics import Physics
    from composer_tasks.walkers.base import Walker


def ground_geoms_of(arena: composer.Entity) -> tuple[mujoco.MjsGeom, ...]:
    """The geoms of `arena` that count as ground (its `ground_geoms`, or the
    single `ground_geom` of a plain `Floor`)."""
    geoms = getattr(arena, "ground_geoms", None)
    if geoms is None:
        geom = getattr(arena, "ground_geom", None)
        if geom is None:
            raise TypeError(
                f"arena {type(arena).__name__} has neither ground_geoms nor ground_geom; "
                "locomotion tasks need to know which geoms are ground"
            )
        geoms = (geom,)
    return tuple(geoms)


def walker_body_ids(physics: Physics, walker: Walker) -> np.ndarray:
    """Ids of every body of `walker` in the compiled model (its attachment body's
    tree: walkers hang from the world body)."""
    model = physics.model
    root_id = physics.bind(walker_state.spec_element(walker.root_body)).id
    return np.flatnonzero(model.body_rootid == model.body_rootid[root_id])


def subtree_body_ids(physics: Physics, bodies: Iterable[mujoco.MjsBody]) -> np.ndarray:
    """Ids of `bodies` (spec bodies) and of all their descendants."""
    model = physics.model
    selected = np.zeros(model.nbody, dtype=bool)
    selected[[physics.bind(body).id for body in walker_state.spec_elements(bodies)]] = True
    # Parents precede children in MuJoCo's body order, so one pass suffices.
    for body_id in range(1, model.nbody):
        if selected[model.body_parentid[body_id]]:
            selected[body_id] = True
    return np.flatnonzero(selected)


def foot_geom_ids(physics: Physics, walker: Walker) -> np.ndarray:
    """Ids of the geoms allowed to touch the ground: the walker's
    `ground_contact_geoms` if it names them, else every geom of its end effectors'
    subtrees."""
    geoms = getattr(walker, "ground_contact_geoms", None)
    if geoms is not None:
        return np.array(
            [physics.bind(geom).id for geom in walker_state.spec_elements(geoms)], dtype=int
        )
    bodies = subtree_body_ids(physics, walker.end_effectors)
    return np.flatnonzero(np.isin(physics.model.geom_bodyid, bodies))


class FallDetector:
    """Decides, after each control step, whether the walker has fallen.

    Args:
      walker: the walker (`root_body`, `end_effectors`, optionally
        `ground_contact_geoms`).
      arena: the arena; its `ground_geoms` are the ground.
      contact_termination: a fall is any contact between a ground geom and a
        walker geom that is not a foot geom.
      min_end_effector_height: a fall is an end effector's world z (metres) below
        this; -0.5 m catches falling into a gap. None disables it.
      min_root_height: a fall is the root body's world z (metres) below this.
        None disables it.
    """

    def __init__(
        self,
        walker: Walker,
        arena: composer.Entity,
        contact_termination: bool = True,
        min_end_effector_height: float | None = -0.5,
        min_root_height: float | None = None,
    ) -> None:
        self._walker = walker
        self._arena = arena
        self._contact_termination = bool(contact_termination)
        self._min_end_effector_height = _optional_height(
            min_end_effector_height, "min_end_effector_height"
        )
        self._min_root_height = _optional_height(min_root_height, "min_root_height")
        self._model = None

    def reset(self, physics: Physics) -> None:
        """Resolves geom and body ids of `physics.model`; call it in `initialize_episode`.

        `has_fallen` resolves them too when the model is not the one they were
        resolved for: an environment restored from a snapshot steps without a reset.
        """
        model = physics.model
        if self._model is model:
            return
        foot = np.zeros(model.ngeom, dtype=bool)
        foot[foot_geom_ids(physics, self._walker)] = True
        walker_geoms = np.isin(model.geom_bodyid, walker_body_ids(physics, self._walker))
        self._nonfoot = walker_geoms & ~foot
        self._ground = np.zeros(model.ngeom, dtype=bool)
        self._ground[
            [physics.bind(g).id for g in walker_state.spec_elements(ground_geoms_of(self._arena))]
        ] = True
        self._end_effector_ids = np.array(
            [
                physics.bind(body).id
                for body in walker_state.spec_elements(self._walker.end_effectors)
            ],
            dtype=int,
        )
        self._root_id = physics.bind(walker_state.spec_element(self._walker.root_body)).id
        self._model = model

    def has_fallen(self, physics: Physics) -> bool:
        if self._model is not physics.model:
            self.reset(physics)
        data = physics.data
        if self._contact_termination and data.ncon:
            contact = data.contact
            first, second = contact.geom1, contact.geom2
            if np.any(
                (self._nonfoot[first] & self._ground[second])
                | (self._ground[first] & self._nonfoot[second])
            ):
                return True
        if (
            self._min_end_effector_height is not None
            and self._end_effector_ids.size
            and np.min(data.xpos[self._end_effector_ids, 2]) < self._min_end_effector_height
        ):
            return True
        if (
            self._min_root_height is not None
            and data.xpos[self._root_id, 2] < self._min_root_height
        ):
            return True
        return False


def _optional_height(value: float | None, name: str) -> float | None:
    if value is None:
        return None
    value = float(value)
    if not np.isfinite(value):
        raise ValueError(f"{name} must be a finite height in metres or None, got {value!r}")
    return value
