"""What agents know of an environment: its dm_env specs, turned into flat vectors.

Observations are flattened in a fixed key order: the order of the keys of the
observation spec (for composer tasks, the order the observables were declared,
which for Control Suite tasks is the published order). The order is stored in
checkpoints, and a checkpoint refuses an environment whose order differs.

Networks act in unit action space [-1, 1]^A; `ActionBounds` maps to and from the
environment's own bounds at the boundary.
"""

import dataclasses
from collections.abc import Mapping

import numpy as np
from dm_env import specs

# MuJoCo's mjMAXVAL (agents import no MuJoCo).
_MJMAXVAL = 1e10


@dataclasses.dataclass(frozen=True)
class ObservationLayout:
    """How a (dict) observation becomes one float32 vector.

    Attributes:
      keys: observation keys in flattening order, or None when the observation is
        a single array rather than a dict.
      shapes: the per-key (or single) array shapes, without a batch dimension.
    """

    keys: tuple[str, ...] | None
    shapes: tuple[tuple[int, ...], ...]

    @property
    def size(self) -> int:
        return int(sum(int(np.prod(shape)) for shape in self.shapes))


def observation_layout(observation_spec) -> ObservationLayout:
    """The flattening layout of a dm_env observation spec (an Array or a dict of them)."""
    if isinstance(observation_spec, specs.Array):
        return ObservationLayout(keys=None, shapes=(tuple(observation_spec.shape),))
    if isinstance(observation_spec, Mapping):
        if not observation_spec:
            raise ValueError("observation_spec is an empty dict; expected at least one array.")
        for key, spec in observation_spec.items():
            if not isinstance(spec, specs.Array):
                raise TypeError(
                    f"observation_spec[{key!r}] is {type(spec).__name__}; expected a "
                    "dm_env.specs.Array (nested dicts are not supported)."
                )
        return ObservationLayout(
            keys=tuple(observation_spec.keys()),
            shapes=tuple(tuple(spec.shape) for spec in observation_spec.values()),
        )
    raise TypeError(
        f"observation_spec is {type(observation_spec).__name__}; expected a "
        "dm_env.specs.Array or a dict of them."
    )


def flatten_observation(layout: ObservationLayout, observation, batch_size: int) -> np.ndarray:
    """Concatenates a batched observation into a (batch_size, layout.size) float32 array.

    Args:
      layout: from `observation_layout`.
      observation: a dict of arrays of shape (batch_size, *shape), or one such array.
      batch_size: the leading dimension every array must have.
    """
    if layout.keys is None:
        parts = [observation]
        names = ["observation"]
    else:
        if not isinstance(observation, Mapping):
            raise TypeError(
                f"observation is {type(observation).__name__}; expected a dict with keys "
                f"{list(layout.keys)}."
            )
        missing = [key for key in layout.keys if key not in observation]
        if missing:
            raise ValueError(
                f"observation lacks keys {missing}; expected keys {list(layout.keys)}."
            )
        parts = [observation[key] for key in layout.keys]
        names = list(layout.keys)
    flat = []
    for name, part, shape in zip(names, parts, layout.shapes):
        array = np.asarray(part, dtype=np.float32)
        if array.shape != (batch_size, *shape):
            raise ValueError(
                f"observation {name!r} has shape {array.shape}; expected "
                f"{(batch_size, *shape)} (batch of {batch_size})."
            )
        flat.append(array.reshape(batch_size, -1))
    return np.concatenate(flat, axis=1)


@dataclasses.dataclass(frozen=True, eq=False)
class ActionBounds:
    """The environment's action box, and the maps between it and [-1, 1]^A.

    Attributes:
      minimum, maximum: float64 arrays of shape (A,), in the environment's units: the
        spec's bounds exactly (float32 copies would round some bounds outward, and an
        action on such a bound would then fail the environment's bounds check).
      shape: the action shape of one environment copy (the spec's shape).
      dtype: the spec's dtype, which `to_env` returns.
    """

    minimum: np.ndarray
    maximum: np.ndarray
    shape: tuple[int, ...]
    dtype: np.dtype

    @property
    def size(self) -> int:
        return int(self.minimum.size)

    def to_env(self, unit_actions: np.ndarray) -> np.ndarray:
        """Maps (N, A) actions in [-1, 1] to (N, *shape) actions in the environment's box."""
        unit_actions = np.clip(np.asarray(unit_actions, dtype=np.float64), -1.0, 1.0)
        actions = self.minimum + 0.5 * (unit_actions + 1.0) * (self.maximum - self.minimum)
        actions = np.clip(actions, self.minimum, self.maximum)
        cast = actions.astype(self.dtype)
        # Casting to a narrower dtype may round a value on a bound to just outside it:
        # step those back to the dtype's nearest value inside the box.
        high = cast.astype(np.float64) > self.maximum
        low = cast.astype(np.float64) < self.minimum
        if high.any() or low.any():
            inward_high = np.nextafter(cast, np.array(-np.inf, dtype=self.dtype))
            inward_low = np.nextafter(cast, np.array(np.inf, dtype=self.dtype))
            cast = np.where(high, inward_high, np.where(low, inward_low, cast))
        return cast.reshape(unit_actions.shape[0], *self.shape)

    def to_unit(self, env_actions: np.ndarray) -> np.ndarray:
        """Maps (N, *shape) environment actions to (N, A) actions in [-1, 1]."""
        env_actions = np.asarray(env_actions, dtype=np.float64)
        flat = env_actions.reshape(env_actions.shape[0], -1)
        unit = 2.0 * (flat - self.minimum) / (self.maximum - self.minimum) - 1.0
        return unit.astype(np.float32)


def action_bounds(action_spec) -> ActionBounds:
    """Validates a continuous, bounded action spec and returns its bounds."""
    if not isinstance(action_spec, specs.BoundedArray):
        raise TypeError(
            f"action_spec is {type(action_spec).__name__}; expected a "
            "dm_env.specs.BoundedArray (continuous actions with finite bounds)."
        )
    if not np.issubdtype(action_spec.dtype, np.floating):
        raise TypeError(
            f"action_spec has dtype {action_spec.dtype}; expected a floating dtype "
            "(these agents act in continuous action spaces)."
        )
    shape = tuple(action_spec.shape)
    minimum = np.broadcast_to(action_spec.minimum, shape).astype(np.float64).reshape(-1)
    maximum = np.broadcast_to(action_spec.maximum, shape).astype(np.float64).reshape(-1)
    if minimum.size == 0:
        raise ValueError(f"action_spec has shape {shape}; expected at least one action.")
    # +-1e10 (MuJoCo's mjMAXVAL) is how dm_control bounds an actuator without a control
    # range: an agent scaling its actions to it would act with forces of that size.
    unbounded = 0.99 * _MJMAXVAL
    if not (np.all(np.abs(minimum) < unbounded) and np.all(np.abs(maximum) < unbounded)):
        raise ValueError(
            f"action_spec bounds [{minimum}, {maximum}] are not finite (or are MuJoCo's "
            "mjMAXVAL, 1e10, dm_control's bound of an actuator without a ctrlrange); "
            "expected finite bounds: give the actuators a ctrlrange."
        )
    if np.any(minimum >= maximum):
        raise ValueError(f"action_spec has minimum {minimum} not below maximum {maximum}.")
    return ActionBounds(
        minimum=minimum, maximum=maximum, shape=shape, dtype=np.dtype(action_spec.dtype)
    )


def batch_size(layout: ObservationLayout, observation) -> int:
    """The leading dimension of a batched observation (dict or single array)."""
    first = observation if layout.keys is None else observation[layout.keys[0]]
    shape = np.shape(first)
    if not shape:
        raise ValueError("observation has no batch dimension; expected arrays of shape (N, ...).")
    return int(shape[0])


@dataclasses.dataclass(frozen=True, eq=False)
class Boundary:
    """Where an environment's observations and actions meet the networks' flat arrays.

    Every policy of every agent crosses it the same way: `observations` flattens a
    batched observation into (N, D) float32, `actions` maps (N, A) unit actions to
    (N, *action_shape) actions in the environment's units.
    """

    layout: ObservationLayout
    bounds: ActionBounds

    def observations(self, observation, num_envs: int | None = None) -> np.ndarray:
        """(N, layout.size) float32; N is checked against `num_envs` when it is given."""
        if num_envs is None:
            num_envs = batch_size(self.layout, observation)
        return flatten_observation(self.layout, observation, num_envs)

    def actions(self, unit_actions) -> np.ndarray:
        """Unit-space actions (N, A), as numpy or JAX arrays, in the environment's units."""
        return self.bounds.to_env(np.asarray(unit_actions))


def boundary(observation_spec, action_spec) -> Boundary:
    """The `Boundary` of an environment with these dm_env specs (validated)."""
    return Boundary(observation_layout(observation_spec), action_bounds(action_spec))
