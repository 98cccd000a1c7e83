"""Rescale actions: the agent acts in [minimum, maximum], the wrapped environment
receives the affine image of that range in its own bounds (dm_control's
`suite.wrappers.action_scale`).

    env = action_scale.Wrapper(suite.load("cartpole", "swingup"), minimum=0.0, maximum=2.0)
"""

from suites.wrappers import base
import numpy as np
from dm_env import specs

# The messages of the errors (module constants as dm_control's, whose tests format them).
_ACTION_SPEC_MUST_BE_BOUNDED_ARRAY = (
    "action_scale needs an action spec that is one specs.BoundedArray, got {!r}"
)
_MUST_BE_FINITE = "{name} must be finite, got {bounds!r}"
_MUST_BROADCAST = "{name} {bounds!r} does not broadcast to the action shape {shape}"


class Wrapper(base.EnvironmentWrapper):
    """Maps actions in [minimum, maximum] linearly onto the wrapped action spec's bounds.

    Args:
      env: a `dm_env.Environment` whose action spec is one `BoundedArray` with
        finite bounds.
      minimum, maximum: the new bounds, scalars or arrays broadcastable to the
        action shape, finite. The new spec keeps the wrapped spec's shape and
        name, with these bounds and the dtype `np.result_type(minimum, maximum,
        wrapped dtype)`; actions are converted back to the wrapped dtype.

    Raises:
      ValueError: the wrapped action spec is not a `BoundedArray`, a bound (new or
        wrapped) is not finite, or a new bound does not broadcast to the action shape.
    """

    def __init__(self, env, minimum, maximum):
        action_spec = env.action_spec()
        if not isinstance(action_spec, specs.BoundedArray):
            raise ValueError(_ACTION_SPEC_MUST_BE_BOUNDED_ARRAY.format(action_spec))
        minimum, maximum = np.array(minimum), np.array(maximum)
        shape = action_spec.shape
        for bounds, name in (
            (minimum, "minimum"),
            (maximum, "maximum"),
            (action_spec.minimum, "env.action_spec().minimum"),
            (action_spec.maximum, "env.action_spec().maximum"),
        ):
            if not np.all(np.isfinite(bounds)):
                raise ValueError(_MUST_BE_FINITE.format(name=name, bounds=bounds))
            try:
                np.broadcast_to(bounds, shape)
            except ValueError:
                raise ValueError(
                    _MUST_BROADCAST.format(name=name, bounds=bounds, shape=shape)
                ) from None
        self._wrapped_minimum = action_spec.minimum
        self._wrapped_dtype = action_spec.dtype
        self._minimum = minimum
        self._scale = (action_spec.maximum - action_spec.minimum) / (maximum - minimum)
        self._action_spec = action_spec.replace(
            minimum=minimum,
            maximum=maximum,
            dtype=np.result_type(minimum, maximum, action_spec.dtype),
        )
        self._env = env

    def _transform(self, action):
        wrapped = self._wrapped_minimum + self._scale * (action - self._minimum)
        return wrapped.astype(self._wrapped_dtype, copy=False)

    def step(self, action):
        return self._env.step(self._transform(action))

    def action_spec(self):
        return self._action_spec
