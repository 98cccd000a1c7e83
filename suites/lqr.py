"""LQR domain: drive a chain of springs to rest with a quadratic cost.

Tasks, the procedurally generated model, reward, termination, timesteps and
observations are those of dm_control 1.0.50 `suite/lqr.py`. `suites.lqr_solver`
gives the optimal policy.
"""

import math

import dm_env
import numpy as np

from composer_tasks import array_namespace
from composer_tasks import physics as physics_lib
from mjcf_models import lqr as lqr_model
from suites import base, common

# suite/lqr.py: no time limit; the control step is one physics step (0.03 s).
_DEFAULT_TIME_LIMIT = float("inf")
_CONTROL_COST_COEF = 0.1
# Episodes end (discount 0) once the norm of (qpos, qvel) falls below this.
_TERMINAL_TOLERANCE = 1e-6
# `get_evaluation` is 1 once the state's norm is at most this.
_EVALUATION_TOLERANCE = 0.01
# Initial positions lie on the sphere of this radius (m) in qpos space.
_INITIAL_RADIUS = np.sqrt(2)
# The published action spec bounds unlimited controls by MuJoCo's mjMAXVAL.
_UNLIMITED_CONTROL = 1e10

SUITE = base.Registry()


def _environment(num_bodies, num_actuators, time_limit, random, environment_kwargs):
    # The model's stiffnesses and the episodes share one random stream, as published.
    random_state = (
        random if isinstance(random, np.random.RandomState) else (np.random.RandomState(random))
    )
    task = LqrLevel(num_bodies, num_actuators, _CONTROL_COST_COEF, random_state)
    return base.make_environment(task, time_limit, random_state, environment_kwargs)


@SUITE.add()
def lqr_2_1(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
    """Two bodies, the first actuated."""
    return _environment(2, 1, time_limit, random, environment_kwargs)


@SUITE.add()
def lqr_6_2(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
    """Six bodies, the first two actuated."""
    return _environment(6, 2, time_limit, random, environment_kwargs)


# numpy's add.reduce adds fewer than 8 numbers one after another (its pairwise
# summation starts at 8 terms), as the loop below does: the same bits as the batch's
# row-wise reduction (tests/suites/test_lqr.py checks it), at a fifth of the cost of a
# reduction's call on the 1-6 numbers of these models, the step's largest cost here.
_SEQUENTIAL_SUM_MAX = 7


def _sum_of_squares(x: np.ndarray) -> float | np.ndarray:
    """x . x over the last axis: for one environment's vector of up to 7 numbers, in
    Python floats; for longer vectors and a batch's (N, n) rows, numpy's reduction."""
    xp = array_namespace.namespace(x)
    if xp is not np:
        return xp.sum(x * x, axis=-1)
    if x.ndim == 1 and x.shape[0] <= _SEQUENTIAL_SUM_MAX:
        total = 0.0
        for value in x.tolist():
            total += value * value
        return total
    return np.add.reduce(x * x, axis=-1)


def _least_square_reaching(tolerance: float) -> float:
    """The least double s with sqrt(s) >= tolerance (a positive double)."""
    square = tolerance * tolerance
    while math.sqrt(square) >= tolerance:
        square = math.nextafter(square, 0.0)
    while math.sqrt(square) < tolerance:
        square = math.nextafter(square, math.inf)
    return square


# sqrt(s) < _TERMINAL_TOLERANCE exactly when s < this: sqrt is correctly rounded and
# non-decreasing, so the squared norms whose root is below the tolerance are those
# below the least one whose root reaches it (NaN fails both comparisons). Comparing
# the squared norm spares a square root per step (one NumPy call on a batch).
_TERMINAL_SQUARED_NORM = _least_square_reaching(_TERMINAL_TOLERANCE)


def _reward(position_squares, control_squares, control_cost_coef):
    """1 - (|qpos|^2 / 2 + control_cost_coef |ctrl|^2 / 2), from the two sums of squares
    (floats, or a batch's (N,) arrays), in the published order of operations."""
    state_cost = 0.5 * position_squares
    control_cost = 0.5 * control_squares
    reward = 1 - (state_cost + control_cost * control_cost_coef)
    # One environment's reward is a NumPy float64, as dm_control's (made from np.dot).
    return np.float64(reward) if type(reward) is float else reward


class Physics(physics_lib.Physics):
    """LQR physics: positions in m along world y, velocities in m/s; quantities
    also work on a batch's (N, ...) arrays."""

    def state_norm(self) -> np.ndarray:
        """Euclidean norm of (qpos, qvel)."""
        squared_norm = self.squared_state_norm()
        return array_namespace.namespace(squared_norm).sqrt(squared_norm)

    def squared_state_norm(self) -> float | np.ndarray:
        """|qpos|^2 + |qvel|^2."""
        data = self.data
        return _sum_of_squares(data.qpos) + _sum_of_squares(data.qvel)


class LqrLevel(base.SuiteTask):
    """Reward 1 - (|qpos|^2 / 2 + control_cost_coef |ctrl|^2 / 2), the negated LQR
    cost plus one (so 0 at the start of an episode without control; it is not
    bounded below, as published). The episode ends, with discount 0, once the
    state's norm is below 1e-6.

    Args:
      num_bodies, num_actuators: the chain's size and its actuated prefix.
      control_cost_coef: the control cost's weight, > 0.
      random_state: draws the model's stiffnesses now (and nothing else here).
    """

    physics_class = Physics
    vectorized_callbacks = True
    # Each copy draws its own stiffnesses; nothing else of the model differs.
    batch_model_fields = ("jnt_stiffness",)

    def __init__(
        self,
        num_bodies: int,
        num_actuators: int,
        control_cost_coef: float,
        random_state: np.random.RandomState,
    ):
        self._init(
            lqr_model.make_spec(num_bodies, num_actuators, random_state),
            control_cost_coef,
            random_state,
        )

    def _init(self, spec, control_cost_coef, random):
        if not control_cost_coef > 0:
            raise ValueError(f"control_cost_coef must be positive, got {control_cost_coef!r}")
        self._control_cost_coef = control_cost_coef
        super().__init__(spec, "lqr", random=random)
        self.set_observations(position=Physics.position, velocity=Physics.velocity)

    @property
    def control_cost_coef(self) -> float:
        return self._control_cost_coef

    def action_spec(self, physics: Physics) -> dm_env.specs.BoundedArray:
        """The motors are unlimited; as published, their bounds are +-1e10."""
        spec = super().action_spec(physics)
        return spec.replace(
            minimum=np.maximum(spec.minimum, -_UNLIMITED_CONTROL),
            maximum=np.minimum(spec.maximum, _UNLIMITED_CONTROL),
        )

    def initialize_episode(self, physics, random_state):
        """qpos uniform on the sphere of radius sqrt(2), at rest."""
        unit = random_state.randn(physics.model.nq)
        physics.data.qpos[:] = _INITIAL_RADIUS * unit / np.linalg.norm(unit)

    def get_reward(self, physics):
        data = physics.data
        return _reward(
            _sum_of_squares(data.qpos), _sum_of_squares(data.ctrl), self._control_cost_coef
        )

    def get_evaluation(self, physics):
        """dm_control's sparse evaluation (not the reward): 1.0 once the state's
        norm is at most 0.01, else 0.0."""
        return float(physics.state_norm() <= _EVALUATION_TOLERANCE)

    def should_terminate_episode(self, physics):
        """physics.state_norm() < 1e-6, compared squared."""
        return physics.squared_state_norm() < _TERMINAL_SQUARED_NORM

    def get_discount(self, physics):
        # dm_control's lqr ends with discount 0 when the state reaches the origin.
        # (Written to work on a batch's (N,) arrays too: the task is vectorised.)
        return 1.0 - self.should_terminate_episode(physics)

    def get_outcome(self, physics):
        """The three above with |qpos|^2 computed once (reward and termination share
        it) and the termination once (the discount is 1 - it).

        |qpos|^2 + |qvel|^2 < b implies |qpos|^2 < b (a rounded sum of non-negative
        numbers is at least each of them), so on a batch where no copy's |qpos|^2 is
        below b, none terminates and |qvel|^2 is not needed: 11 NumPy calls on
        (N, n) arrays then, instead of the 24 of the three methods.
        """
        data = physics.data
        position_squares = _sum_of_squares(data.qpos)
        reward = _reward(position_squares, _sum_of_squares(data.ctrl), self._control_cost_coef)
        near_origin = position_squares < _TERMINAL_SQUARED_NORM
        if isinstance(near_origin, np.ndarray) and not np.count_nonzero(near_origin):
            return reward, False, 1.0
        terminated = position_squares + _sum_of_squares(data.qvel) < _TERMINAL_SQUARED_NORM
        return reward, terminated, 1.0 - terminated


class LQRLevel(LqrLevel):
    """dm_control's `lqr.LQRLevel(control_cost_coef, random)`: `LqrLevel` for
    dm_control's form, whose model comes from `get_model_and_assets`:

        random = np.random.RandomState(seed)
        physics = lqr.Physics.from_xml_string(*lqr.get_model_and_assets(2, 1, random))
        task = lqr.LQRLevel(0.1, random=random)
        env = control.Environment(physics, task)

    (the model's stiffnesses and then the episodes drawn from one stream, as
    published). Run without a physics (`control.Environment(task)`), the task uses
    a model of `n_bodies` bodies, the first `n_actuators` actuated, whose
    stiffnesses are drawn from a copy of `random` (so the task's own draws start
    where `random` stood).
    """

    def __init__(
        self,
        control_cost_coef: float,
        random: int | np.random.RandomState | None = None,
        *,
        n_bodies: int = 2,
        n_actuators: int = 1,
    ):
        if not isinstance(random, np.random.RandomState):
            random = np.random.RandomState(random)
        model_random = np.random.RandomState()
        model_random.set_state(random.get_state())
        self._init(
            lqr_model.make_spec(n_bodies, n_actuators, model_random), control_cost_coef, random
        )


def get_model_and_assets(n_bodies, n_actuators, random):
    """dm_control's `lqr.get_model_and_assets`: the MJCF text (bytes) of a chain of
    `n_bodies` bodies, the first `n_actuators` actuated, whose stiffnesses are drawn
    from `random` (an `np.random.RandomState`, advanced by the draws), and the
    suite's shared assets (the text compiles to that model bit for bit:
    `composer_tasks.physics.spec_xml`)."""
    return physics_lib.spec_xml(lqr_model.make_spec(n_bodies, n_actuators, random)), common.ASSETS
