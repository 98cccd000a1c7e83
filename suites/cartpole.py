"""Cart-pole domain: swing up and balance an unactuated pole by pushing its cart.

Tasks, reward definitions, initial-state distributions, timesteps and observation
keys are those of dm_control 1.0.50's `suite/cartpole.py` (Tassa et al. 2018, §6.2:
state 4, action 1, observation 5 for one pole).
"""

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
        upright = (physics.pole_angle_cosine() + 1) / 2
        centered = (1 + rewards.tolerance(physics.cart_position(), margin=2)) / 2
        small_control = rewards.tolerance(
            physics.control(), margin=1, value_at_margin=0, sigmoid="quadratic"
        )[..., 0]
        small_control = (4 + small_control) / 5
        small_velocity = base.min_last_axis(rewards.tolerance(physics.angular_vel(), margin=5))
        small_velocity = (1 + small_velocity) / 2
        return base.mean_last_axis(upright) * small_control * small_velocity * centered
