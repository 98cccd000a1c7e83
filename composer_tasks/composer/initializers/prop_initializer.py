"""`PropPlacer`: places free props at sampled poses, rejecting poses in which a
prop penetrates anything (rejection sampling), and optionally lets them settle
under gravity while every other joint stays where it was (dm_control's
`composer.initializers.prop_initializer`)."""

from typing import Optional, Sequence

import numpy as np

from composer_tasks.composer import entity as entity_module
from composer_tasks.composer.environment import EpisodeInitializationError
from composer_tasks.composer.initializer import Initializer
from composer_tasks.composer.initializers import utils
from composer_tasks.composer.initializers.utils import Sampled
from composer_tasks.physics import Physics, PhysicsError

# dm_control's defaults: settled when every prop joint moves slower than 1e-3
# (m/s or rad/s) and accelerates less than 1e-2, within 2 s of simulated time.
_SETTLE_QVEL_TOL = 1e-3
_SETTLE_QACC_TOL = 1e-2

# The message when rejection sampling gives up on a prop; formatted with the prop's
# model name and the number of attempts (dm_control's tests format its own template
# with these two keys and compare the message to it).
_REJECTION_SAMPLING_FAILED = (
    "no collision-free pose for prop {model_name!r} in {max_attempts} attempts; "
    "try a wider position or quaternion distribution, a larger `max_attempts_per_prop`, "
    "or `ignore_collisions=True`"
)


class PropPlacer(Initializer):
    """Places free props at sampled poses without interpenetration.

    Args:
      props: the entities to place, each attached with `add_free_entity` (or
        attached fixed: then its attachment body moves).
      position: a (3,) position in metres (world frame) or a variation drawing one.
      quaternion: a unit quaternion (w, x, y, z) or a variation drawing one.
      ignore_collisions: accept the first sample whatever it touches.
      max_attempts_per_prop: samples per prop before `EpisodeInitializationError`.
      settle_physics: afterwards, simulate until the props are at rest (every
        other joint is held at its position and velocity meanwhile).
      max_qvel_tol, max_qacc_tol: "at rest" thresholds of the props' joints.
      min_settle_physics_time, max_settle_physics_time: bounds (s) on settling.
      max_settle_physics_attempts: how many times to re-place when settling fails.
      raise_exception_on_settle_failure: raise instead of accepting unsettled props.
    """

    def __init__(
        self,
        props: Sequence[entity_module.Entity],
        position: Sampled,
        quaternion: Sampled = None,
        ignore_collisions: bool = False,
        max_qvel_tol: float = _SETTLE_QVEL_TOL,
        max_qacc_tol: float = _SETTLE_QACC_TOL,
        max_attempts_per_prop: int = 20,
        settle_physics: bool = False,
        min_settle_physics_time: float = 0.0,
        max_settle_physics_time: float = 2.0,
        max_settle_physics_attempts: int = 1,
        raise_exception_on_settle_failure: bool = False,
    ) -> None:
        props = list(props)
        if not props or not all(isinstance(p, entity_module.Entity) for p in props):
            raise TypeError(f"props must be a non-empty sequence of Entity, got {props!r}")
        for name, value in (
            ("max_attempts_per_prop", max_attempts_per_prop),
            ("max_settle_physics_attempts", max_settle_physics_attempts),
        ):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
                raise ValueError(f"{name} must be an integer >= 1, got {value!r}")
        if not 0 <= min_settle_physics_time <= max_settle_physics_time:
            raise ValueError(
                "settling times must satisfy 0 <= min_settle_physics_time <= "
                f"max_settle_physics_time, got {min_settle_physics_time!r}, "
                f"{max_settle_physics_time!r}"
            )
        self._props = props
        self._position = position
        self._quaternion = utils.IDENTITY_QUATERNION if quaternion is None else quaternion
        self._ignore_collisions = bool(ignore_collisions)
        self._max_attempts_per_prop = int(max_attempts_per_prop)
        self._settle_physics = bool(settle_physics)
        self._max_qvel_tol = float(max_qvel_tol)
        self._max_qacc_tol = float(max_qacc_tol)
        self._min_settle_time = float(min_settle_physics_time)
        self._max_settle_time = float(max_settle_physics_time)
        self._max_settle_attempts = int(max_settle_physics_attempts)
        self._raise_on_settle_failure = bool(raise_exception_on_settle_failure)
        self._cache_model = None

    def _prepare(self, physics: Physics) -> None:
        """Geom ids, their contact bits and the props' dofs (cached per model)."""
        if self._cache_model is physics.model:
            return
        model = physics.model
        self._prop_geoms = [utils.geoms_of(physics, prop) for prop in self._props]
        self._prop_dofs = np.concatenate(
            [
                np.flatnonzero(np.isin(model.dof_bodyid, utils.entity_body_ids(physics, prop)))
                for prop in self._props
            ]
        ).astype(np.int64)
        self._prop_qpos = (
            np.concatenate(
                [
                    np.arange(
                        model.jnt_qposadr[j],
                        model.jnt_qposadr[j] + utils.qpos_size(model.jnt_type[j]),
                    )
                    for j in range(model.njnt)
                    if model.jnt_dofadr[j] in set(self._prop_dofs.tolist())
                ]
            ).astype(np.int64)
            if len(self._prop_dofs)
            else np.zeros(0, np.int64)
        )
        self._cache_model = model

    def __call__(
        self,
        physics: Physics,
        random_state: np.random.RandomState,
        ignore_contacts_with_entities: Optional[Sequence[entity_module.Entity]] = None,
    ) -> None:
        """Samples and sets the props' poses.

        Args:
          physics: the task's `Physics`.
          random_state: a `np.random.RandomState`.
          ignore_contacts_with_entities: entities (placed later) whose contacts
            do not count as collisions now.

        Raises:
          EpisodeInitializationError: when a prop found no collision-free pose.
        """
        self._prepare(physics)
        model = physics.model
        ignored = [utils.geoms_of(physics, e) for e in (ignore_contacts_with_entities or ())]
        all_geoms = (
            np.concatenate(self._prop_geoms + ignored)
            if self._prop_geoms
            else np.zeros(0, np.int64)
        )
        saved = (model.geom_contype[all_geoms].copy(), model.geom_conaffinity[all_geoms].copy())
        # Unplaced props and ignored entities take no part in contacts meanwhile.
        model.geom_contype[all_geoms] = 0
        model.geom_conaffinity[all_geoms] = 0
        try:
            for _ in range(self._max_settle_attempts):
                self._place(physics, random_state, all_geoms, saved)
                if not self._settle_physics or self._settle(physics):
                    return
            if self._raise_on_settle_failure:
                raise EpisodeInitializationError(
                    f"props {[p.name for p in self._props]} did not settle within "
                    f"{self._max_settle_time} s in {self._max_settle_attempts} attempt(s)"
                )
        finally:
            model.geom_contype[all_geoms] = saved[0]
            model.geom_conaffinity[all_geoms] = saved[1]

    def _place(
        self,
        physics: Physics,
        random_state: np.random.RandomState,
        all_geoms: np.ndarray,
        saved: tuple[np.ndarray, np.ndarray],
    ) -> None:
        model = physics.model
        index = {geom: i for i, geom in enumerate(all_geoms.tolist())}
        for prop, geoms in zip(self._props, self._prop_geoms):
            rows = [index[g] for g in geoms.tolist()]
            model.geom_contype[geoms] = saved[0][rows]
            model.geom_conaffinity[geoms] = saved[1][rows]
            initial_position, initial_quaternion = prop.get_pose(physics)
            position, quaternion = initial_position, initial_quaternion
            for _ in range(self._max_attempts_per_prop):
                position = utils.evaluate_as_array(
                    self._position, random_state, initial_position, position
                )
                quaternion = utils.evaluate_as_array(
                    self._quaternion, random_state, initial_quaternion, quaternion
                )
                prop.set_pose(physics, position, quaternion)
                try:
                    physics.forward()
                except PhysicsError:
                    continue
                if self._ignore_collisions or not utils.penetrates(physics, geoms):
                    break
            else:
                raise EpisodeInitializationError(
                    _REJECTION_SAMPLING_FAILED.format(
                        model_name=prop.mjcf_model.model,
                        max_attempts=self._max_attempts_per_prop,
                    )
                )

    def _settle(self, physics: Physics) -> bool:
        """Steps until the props rest; other joints are held. True if they rested."""
        data = physics.data
        model = physics.model
        others_qpos = np.setdiff1d(np.arange(model.nq), self._prop_qpos)
        others_dof = np.setdiff1d(np.arange(model.nv), self._prop_dofs)
        held_qpos = data.qpos[others_qpos].copy()
        held_qvel = data.qvel[others_dof].copy()
        start_time = data.time
        try:
            while data.time - start_time < self._max_settle_time:
                # One step per check, as dm_control settles.
                physics.step()
                if others_qpos.size:
                    data.qpos[others_qpos] = held_qpos
                    data.qvel[others_dof] = held_qvel
                    # dm_control restores the held joints through a binding, which
                    # marks its physics dirty, so its next read (the props' qacc)
                    # runs `forward()` first: the rest test reads the accelerations
                    # at the restored state, and the next step starts from there.
                    physics.forward()
                if len(self._prop_dofs) == 0:
                    return True
                rested = (
                    np.max(np.abs(data.qvel[self._prop_dofs])) < self._max_qvel_tol
                    and np.max(np.abs(data.qacc[self._prop_dofs])) < self._max_qacc_tol
                )
                if rested and data.time - start_time > self._min_settle_time:
                    return True
            return False
        finally:
            # As dm_control: only the time is restored.
            data.time = start_time
