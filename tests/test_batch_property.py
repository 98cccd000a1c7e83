"""Property: under random per-copy model variations, some of which make the physics
diverge, a batch on its vectorised path gives each copy exactly the step types,
rewards, discounts, observations and errors of a single environment with the same
model values and seeds."""

import numpy as np
import pytest

from composer_tasks import seeding
from composer_tasks.batch import BatchEnvironment
from composer_tasks.composer import Environment
from composer_tasks.physics import PhysicsError
from suites import cartpole

_NUM_ENVS = 4
_STEPS = 40
_TIME_LIMIT_S = 0.15  # 15 control steps: episodes end by time, termination and divergence.
_DIVERGING_FRACTION = 0.15
_HUGE_GEAR = 1e13  # The cart's first acceleration is not finite (issue 14, item 1).


class _Leaving(cartpole.Balance):
    """Balance that also terminates when the cart leaves |x| <= 0.2 m, with a
    per-copy discount: every branch of the episode outcome is exercised."""

    # Its outcome works on (N,) arrays: it says so (a subclass that overrides the
    # outcome is looped over copies otherwise).
    vectorized_callbacks = True

    def __init__(self):
        super().__init__(swing_up=False, sparse=False)

    def should_terminate_episode(self, physics):
        return np.abs(physics.cart_position()) > 0.2

    def get_discount(self, physics):
        return 0.5 + 0.5 * np.tanh(physics.cart_position())


def _gear(initial_value, current_value, random_state):
    gear = np.array(initial_value, dtype=float)
    gear[0] = (
        _HUGE_GEAR
        if random_state.uniform() < _DIVERGING_FRACTION
        else random_state.uniform(2.0, 40.0)
    )
    return gear


def _pole_mass(initial_value, current_value, random_state):
    return random_state.uniform(0.02, 1.0, size=np.shape(initial_value))


_VARIATIONS = {("actuator", "slide", "gear"): _gear, ("body", "pole_1", "mass"): _pole_mass}


class _Single:
    """Copy i alone: its task seed and model-variation stream as the batch derives them."""

    def __init__(self, seed, index, raise_on_error):
        self.env = Environment(
            _Leaving(),
            time_limit=_TIME_LIMIT_S,
            random_state=seeding.derive_seed(seed, index),
            raise_exception_on_physics_error=raise_on_error,
        )
        self._variation_random = np.random.RandomState(seeding.derive_seed(seed, index, 1))
        # Where the batch draws its variations: after the reset puts the compiled
        # model's values back, before the episode's callbacks.
        self.env._before_initialize_episode = lambda physics: self._vary()

    def _vary(self):
        model = self.env.physics.model
        for (kind, name, attribute), variation in _VARIATIONS.items():
            element = getattr(model, kind)(name)
            current = np.array(getattr(element, attribute))
            setattr(
                element,
                attribute,
                variation(
                    initial_value=current,
                    current_value=current,
                    random_state=self._variation_random,
                ),
            )

    def reset(self):
        return self.env.reset()

    def step(self, action):
        if self.env.needs_reset:
            return self.reset()
        return self.env.step(action)


def _outcome(step):
    try:
        return step(), None
    except PhysicsError as error:
        return None, str(error)


@pytest.mark.parametrize("raise_on_error", [False, True])
@pytest.mark.parametrize("seed", range(5))
def test_vectorised_batch_agrees_with_single_environments(seed, raise_on_error):
    batch = BatchEnvironment(
        _Leaving,
        _NUM_ENVS,
        num_threads=1,
        seed=seed,
        time_limit=_TIME_LIMIT_S,
        model_variations=_VARIATIONS,
        raise_exception_on_physics_error=raise_on_error,
    )
    assert batch.vectorized
    singles = [_Single(seed, index, raise_on_error) for index in range(_NUM_ENVS)]
    actions = np.random.RandomState(seed).uniform(-1.0, 1.0, size=(_STEPS, _NUM_ENVS, 1))
    batched = batch.reset()
    alone = [single.reset() for single in singles]
    seen = set()
    for step in range(_STEPS + 1):
        for index, timestep in enumerate(alone):
            assert batched.step_type[index] == timestep.step_type, (step, index)
            assert batched.reward[index] == (0.0 if timestep.reward is None else timestep.reward)
            assert batched.discount[index] == (
                1.0 if timestep.discount is None else timestep.discount
            )
            for name, value in timestep.observation.items():
                np.testing.assert_array_equal(batched.observation[name][index], value, err_msg=name)
            if timestep.last():
                seen.add(
                    "diverged" if timestep.discount == 0.0 and timestep.reward == 0.0 else "ended"
                )
        if step == _STEPS:
            break
        batched, batch_error = _outcome(lambda: batch.step(actions[step]))
        results = [
            _outcome(lambda i=i: singles[i].step(actions[step, i])) for i in range(_NUM_ENVS)
        ]
        errors = [(index, error) for index, (_, error) in enumerate(results) if error is not None]
        if errors or batch_error is not None:
            # The batch raises for the first copy that failed, with that copy's message.
            index, error = errors[0]
            assert batch_error == f"copy {index}: {error}"
            return
        alone = [timestep for timestep, _ in results]
    if not raise_on_error:
        assert seen, "no episode ended: the property was not exercised"


def test_some_draws_diverge():
    """The variations above do make copies diverge (the property covers errors)."""
    random_state = np.random.RandomState(0)
    draws = [_gear(np.zeros(6), np.zeros(6), random_state)[0] for _ in range(200)]
    assert 0 < sum(draw == _HUGE_GEAR for draw in draws) < 200
    env = Environment(_Leaving(), random_state=0)
    # After the reset: a reset puts the compiled model's values back, as
    # dm_control's recompiling reset does.
    env.reset()
    env.physics.model.actuator("slide").gear[0] = _HUGE_GEAR
    with pytest.raises(PhysicsError, match="diverged"):
        env.step(np.ones(1))
