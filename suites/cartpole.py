"""Cart-pole domain: swing up and balance an unactuated pole by pushing its cart.

Tasks, reward definitions, initial-state distributions, timesteps and observation
keys are those of dm_control 1.0.50's `suite/cartpole.py` (Tassa et al. 2018, §6.2:
state 4, action 1, observation 5 for one pole).
"""

import threading

import numpy as np

from composer_tasks import array_namespace
from composer_tasks import physics as physics_lib
from composer_tasks import rewards
from mjcf_models import cartpole as cartpole_model
from suites import base, common

# suite/cartpole.py: 10 s episodes of 0.01 s control steps (one physics step each).
_DEFAULT_TIME_LIMIT = 10
_CONTROL_TIMESTEP = 0.01
# Sparse reward: the cart within 0.25 m of the centre and every pole within
# arccos(0.995) ~ 5.7 degrees of upright.
_CART_RANGE_M = (-0.25, 0.25)
_ANGLE_COSINE_RANGE = (0.995, 1.0)

SUITE = base.Registry()


@SUITE.add("benchmarking")
def balance(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
    """Keep a nearly upright pole balanced; smooth reward."""
    task = Balance(swing_up=False, sparse=False)
    return base.make_environment(task, time_limit, random, environment_kwargs)


@SUITE.add("benchmarking")
def balance_sparse(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
    """Keep a nearly upright pole balanced; reward 1 inside the target region, else 0."""
    task = Balance(swing_up=False, sparse=True)
    return base.make_environment(task, time_limit, random, environment_kwargs)


@SUITE.add("benchmarking")
def swingup(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
    """Swing a hanging pole up and balance it; smooth reward."""
    task = Balance(swing_up=True, sparse=False)
    return base.make_environment(task, time_limit, random, environment_kwargs)


@SUITE.add("benchmarking")
def swingup_sparse(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
    """Swing a hanging pole up and balance it; reward 1 inside the target region, else 0."""
    task = Balance(swing_up=True, sparse=True)
    return base.make_environment(task, time_limit, random, environment_kwargs)


@SUITE.add()
def two_poles(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
    """Swing up and balance a chain of two poles; smooth reward."""
    task = Balance(swing_up=True, sparse=False, num_poles=2)
    return base.make_environment(task, time_limit, random, environment_kwargs)


@SUITE.add()
def three_poles(
    time_limit=_DEFAULT_TIME_LIMIT, random=None, num_poles=3, sparse=False, environment_kwargs=None
):
    """Swing up and balance a chain of `num_poles` (default three) poles."""
    task = Balance(swing_up=True, sparse=sparse, num_poles=num_poles)
    return base.make_environment(task, time_limit, random, environment_kwargs)


def get_model_and_assets(num_poles=1):
    """dm_control's `cartpole.get_model_and_assets`: the MJCF text (bytes) of the
    domain's model with `num_poles` poles and the suite's shared assets, for
    `Physics.from_xml_string(*get_model_and_assets(num_poles))` and dm_control's
    `control.Environment(physics, task)` (the text compiles to the model this domain's
    tasks build, bit for bit: `composer_tasks.physics.spec_xml`)."""
    return physics_lib.spec_xml(cartpole_model.make_spec(num_poles)), common.ASSETS


class Physics(physics_lib.Physics):
    """Cart-pole physics with named quantities.

    Positions in metres along world x, angles in radians from upright, velocities
    in m/s and rad/s. Array quantities may be views of `data`/`model` (the observation machinery
    copies them); copy one before keeping it across steps.
    """

    def _model_changed(self):
        model = self.model
        self._slider_qposadr = int(model.joint("slider").qposadr[0])
        first_pole = model.body("pole_1").id
        num_poles = model.nbody - first_pole
        # The poles are the last bodies, in chain order, so a slice reaches them
        # all as a view.
        self._poles = slice(first_pole, first_pole + num_poles)
        self._hinge_dofs = slice(int(model.joint("hinge_1").dofadr[0]), model.nv)

    def cart_position(self):
        """Position of the cart along the rail (world x), in metres."""
        return self.data.qpos[..., self._slider_qposadr][()]

    def angular_vel(self):
        """Angular velocities of the hinges (rad/s), one per pole."""
        return self.data.qvel[..., self._hinge_dofs]

    def pole_angle_cosine(self):
        """Cosine of each pole's angle from upright (world frame), one per pole."""
        return self.data.xmat[..., self._poles, base.ZZ]

    def bounded_position(self):
        """Cart position, then per pole the cosine and sine of its angle from upright."""
        xmat = self.data.xmat
        cart = self.data.qpos[..., self._slider_qposadr]
        cosine, sine = xmat[..., self._poles, base.ZZ], xmat[..., self._poles, base.XZ]
        if array_namespace.namespace(xmat) is np:
            # One new array written in place: on NumPy a fraction of the cost of
            # stacking and joining (measured: 9 against 30 us for 256 copies).
            position = np.empty(cosine.shape[:-1] + (1 + 2 * cosine.shape[-1],))
            position[..., 0] = cart
            position[..., 1::2] = cosine
            position[..., 2::2] = sine
            return position
        return array_namespace.concatenate_last_axis(
            cart, array_namespace.interleave_last_axis(cosine, sine)
        )


class Balance(base.SuiteTask):
    """Balance the pole(s) upright over the centre of the rail.

    With `swing_up` the episode starts with the cart centred and the pole hanging
    down; otherwise from a random near-upright pose. Either way a small random
    velocity breaks the symmetry.
    """

    physics_class = Physics
    # Quantities, observations and rewards broadcast over a leading copies axis.
    vectorized_callbacks = True

    def __init__(self, swing_up, sparse, random=None, *, num_poles=1):
        self._swing_up = swing_up
        self._sparse = sparse
        super().__init__(
            cartpole_model.make_spec(num_poles),
            "cartpole",
            control_timestep=_CONTROL_TIMESTEP,
            random=random,
        )
        self.set_observations(position=Physics.bounded_position, velocity=Physics.velocity)

    def initialize_episode(self, physics, random_state):
        """Samples the initial pose and velocity (suite/cartpole.py distributions,
        drawn in the same order, so a seed gives the published initial state)."""
        qpos, qvel = physics.data.qpos, physics.data.qvel
        nv = physics.model.nv
        if self._swing_up:
            qpos[0] = 0.01 * random_state.randn()
            qpos[1] = np.pi + 0.01 * random_state.randn()
            qpos[2:] = 0.1 * random_state.randn(nv - 2)
        else:
            qpos[0] = random_state.uniform(-0.1, 0.1)
            qpos[1:] = random_state.uniform(-0.034, 0.034, nv - 1)
        qvel[:] = 0.01 * random_state.randn(nv)

    def get_reward(self, physics):
        if self._sparse:
            cart_in_bounds = rewards.tolerance(physics.cart_position(), _CART_RANGE_M)
            angle_in_bounds = rewards.tolerance(physics.pole_angle_cosine(), _ANGLE_COSINE_RANGE)
            angle_in_bounds = base.prod_last_axis(angle_in_bounds)
            return cart_in_bounds * angle_in_bounds
        cosine = physics.pole_angle_cosine()
        cart, control = physics.cart_position(), physics.control()
        angular_vel = physics.angular_vel()
        batched = _smooth_reward_of_numpy_batch(cosine, cart, control, angular_vel)
        if batched is not None:
            return batched
        upright = (cosine + 1) / 2
        centered = (1 + rewards.tolerance(cart, margin=_CART_MARGIN_M)) / 2
        small_control = rewards.tolerance(
            control, margin=_CONTROL_MARGIN, value_at_margin=0, sigmoid="quadratic"
        )[..., 0]
        small_control = (4 + small_control) / 5
        small_velocity = base.min_last_axis(
            rewards.tolerance(angular_vel, margin=_ANGULAR_VEL_MARGIN_RAD_S)
        )
        small_velocity = (1 + small_velocity) / 2
        return base.mean_last_axis(upright) * small_control * small_velocity * centered


# The smooth reward's margins (suite/cartpole.py's `_get_reward`).
_CART_MARGIN_M = 2.0
_CONTROL_MARGIN = 1.0
_ANGULAR_VEL_MARGIN_RAD_S = 5.0
# rewards.py's gaussian scale for its default value_at_margin (0.1): sqrt(-2 ln 0.1).
_GAUSSIAN_SCALE = float(np.sqrt(-2.0 * np.log(0.1)))


def _smooth_reward_of_numpy_batch(cosine, cart, control, angular_vel):
    """The smooth reward of a NumPy batch, bit for bit what `Balance.get_reward`'s
    general expression gives, or None for any other operands (one environment's, JAX's).

    The general expression makes three `rewards.tolerance` calls and a dozen array
    operations, each a new array: about 25 us for 64 copies, a third of what a batch
    step may cost beyond raw `mujoco.batch`'s. Here the same floating-point operations,
    in the same order on each entry, run on one scratch array that holds every
    operand side by side (`_SmoothRewardScratch`), so each operation is one ufunc call
    over all of them, with array constants (a Python float costs a conversion per call).

    Args:
      cosine: (N, P) float64, each pole's angle cosine.
      cart: (N,) float64, the cart position (m).
      control: (N, A) float64, the controls; the reward uses the first.
      angular_vel: (N, P) float64, the hinges' angular velocities (rad/s).

    Returns:
      (N,) float64 rewards, a new array, or None.
    """
    if not (
        type(cosine) is np.ndarray
        and type(cart) is np.ndarray
        and type(control) is np.ndarray
        and type(angular_vel) is np.ndarray
        and cosine.ndim == 2
        and control.ndim == 2
        # NumPy's native float64 dtype is one object; any other takes the general path.
        and cosine.dtype is _FLOAT64
        and cart.dtype is _FLOAT64
        and control.dtype is _FLOAT64
        and angular_vel.dtype is _FLOAT64
    ):
        return None
    num_envs, num_poles = shape = cosine.shape
    if cart.shape != (num_envs,) or angular_vel.shape != shape or control.shape[0] != num_envs:
        return None
    if control.shape[1] < 1:
        return None
    scratches = getattr(_PER_THREAD, "scratches", None)
    if scratches is None:
        scratches = _PER_THREAD.scratches = {}
    scratch = scratches.get(shape)
    if scratch is None:
        scratch = scratches[shape] = _SmoothRewardScratch(num_envs, num_poles)
    (
        whole,
        small_control,
        centered,
        small_velocity,
        upright,
        tolerances,
        gaussians,
        margin,
        scale,
        offset,
        divisor,
    ) = scratch.operands
    # Distances to the targets (all three are 0 with bounds (0, 0)): |x|.
    np.absolute(control[:, 0], small_control)
    np.absolute(cart, centered)
    if num_poles == 1:
        np.absolute(angular_vel[:, 0], small_velocity)
        upright[...] = cosine[:, 0]
    else:
        np.absolute(angular_vel, small_velocity)
        upright[...] = cosine
    # tolerance's sigmoid argument, distance / margin * scale, and its square.
    np.divide(tolerances, margin, tolerances)
    np.multiply(tolerances, scale, tolerances)
    np.multiply(tolerances, tolerances, tolerances)
    # gaussian: exp(-0.5 * s^2); quadratic: fmax(1 - s^2, 0) (a NaN s gives 0).
    np.multiply(_MINUS_HALF, gaussians, gaussians)
    np.exp(gaussians, gaussians)
    np.subtract(_ONE, small_control, small_control)
    np.fmax(small_control, _ZERO, out=small_control)
    # (4 + control) / 5, (1 + centred) / 2, (1 + velocity) / 2 and (cosine + 1) / 2,
    # addition being commutative to the bit.
    np.add(offset, whole, whole)
    np.divide(whole, divisor, whole)
    if num_poles == 1:
        # The mean and the minimum over one pole: `np.minimum.reduce` of one entry is
        # that entry and `np.add.reduce` of one is 0.0 + it, which changes only -0.0,
        # and (cosine + 1) / 2 is never -0.0; the division by 1 is exact.
        reward = np.multiply(upright, small_control)
        reward *= small_velocity
    else:
        reward = np.multiply(np.add.reduce(upright, axis=-1) / num_poles, small_control)
        reward *= np.minimum.reduce(small_velocity, axis=-1)
    reward *= centered
    return reward


_FLOAT64 = np.dtype(np.float64)


class _SmoothRewardScratch:
    """The smooth reward's scratch array for N copies of P poles, its operands' views
    of it and the per-entry constants (read-only) of the operations on them.

    The scratch holds the controls (N), cart positions (N), angular velocities
    (N * P) and pole cosines (N * P), in that order; the velocities' and cosines'
    views are (N, P) where P > 1, else (N,).
    """

    def __init__(self, num_envs, num_poles):
        per_pole = num_envs * num_poles
        whole = np.empty(2 * num_envs + 2 * per_pole)
        pole_shape = (num_envs,) if num_poles == 1 else (num_envs, num_poles)
        velocity_start = 2 * num_envs
        cosine_start = velocity_start + per_pole
        self.operands = (
            whole,
            whole[:num_envs],
            whole[num_envs:velocity_start],
            whole[velocity_start:cosine_start].reshape(pole_shape),
            whole[cosine_start:].reshape(pole_shape),
            whole[:cosine_start],  # the three tolerances' operands
            whole[num_envs:cosine_start],  # the two gaussian ones
            _constant(
                (num_envs, _CONTROL_MARGIN),
                (num_envs, _CART_MARGIN_M),
                (per_pole, _ANGULAR_VEL_MARGIN_RAD_S),
            ),
            # quadratic's scale at value_at_margin 0 is sqrt(1 - 0) = 1.
            _constant((num_envs, 1.0), (num_envs + per_pole, _GAUSSIAN_SCALE)),
            _constant((num_envs, 4.0), (num_envs + 2 * per_pole, 1.0)),
            _constant((num_envs, 5.0), (num_envs + 2 * per_pole, 2.0)),
        )


def _constant(*runs):
    """A read-only float64 array of `(count, value)` runs, in order."""
    array = np.concatenate([np.full(count, value, dtype=np.float64) for count, value in runs])
    array.flags.writeable = False
    return array


# The constants that every entry shares, as read-only 0-d arrays (as fast as whole rows).
_MINUS_HALF, _ONE, _ZERO = (_constant((1, value)).reshape(()) for value in (-0.5, 1.0, 0.0))


# Scratches by (N, P), one set per thread: a batch has one shape, and a thread's
# scratch is overwritten by its next call only.
_PER_THREAD = threading.local()
