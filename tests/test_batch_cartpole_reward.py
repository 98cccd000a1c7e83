"""Cart-pole's smooth reward on a NumPy batch (one fused pass over a scratch array) gives,
for every copy, the bits of the single-environment reward and of the general array
expression, on random quantities with NaN, infinities, signed zeros, the margins
exactly and subnormals among them."""

import numpy as np
import pytest

from suites import cartpole

# Entries that take each branch's edge: NaN, infinities, signed zeros, subnormals,
# values whose squares overflow, the targets' bounds and the margins exactly.
_SPECIAL = np.array(
    [np.nan, np.inf, -np.inf, 0.0, -0.0, 5e-324, -5e-324, 1e-160, 1e300, -1e300]
    + [1.0, -1.0, 2.0, -2.0, 5.0, -5.0, 0.5, np.nextafter(1.0, 2.0)]
)


class _Quantities:
    """The four quantities the smooth reward reads, as a physics gives them."""

    def __init__(self, cosine, cart, control, angular_vel):
        self._values = cosine, cart, control, angular_vel

    def pole_angle_cosine(self):
        return self._values[0]

    def cart_position(self):
        return self._values[1]

    def control(self):
        return self._values[2]

    def angular_vel(self):
        return self._values[3]


def _draw(random_state, shape):
    scale = random_state.choice([1e-3, 0.3, 1.0, 4.0, 40.0], size=shape)
    values = random_state.standard_normal(shape) * scale
    special = random_state.uniform(size=shape) < 0.2
    values[special] = random_state.choice(_SPECIAL, size=int(special.sum()))
    return values


def _batch(random_state, num_envs, num_poles, num_actuators):
    # Views laid out as the batch's are: strided columns of state arrays.
    qpos = _draw(random_state, (num_envs, 1 + num_poles))
    qvel = _draw(random_state, (num_envs, 1 + num_poles))
    xmat = _draw(random_state, (num_envs, 2 + num_poles, 9))
    control = _draw(random_state, (num_envs, num_actuators))
    return xmat[..., 2:, 8], qpos[..., 0][()], control, qvel[..., 1:]


@pytest.fixture(scope="module")
def task():
    return cartpole.Balance(swing_up=True, sparse=False)


@pytest.mark.parametrize("num_poles", [1, 2, 3])
@pytest.mark.parametrize("num_envs", [1, 3, 6, 64])
def test_fused_reward_equals_single_environments_and_the_general_path(task, num_envs, num_poles):
    random_state = np.random.RandomState(num_envs * 10 + num_poles)
    for trial in range(40):
        operands = _batch(random_state, num_envs, num_poles, 1 + trial % 2)
        with np.errstate(all="ignore"):
            fused = cartpole._smooth_reward_of_numpy_batch(*operands)
            assert fused is not None
            assert task.get_reward(_Quantities(*operands)).tobytes() == fused.tobytes()
            # Big-endian operands are not the native float64: the general expression.
            general = task.get_reward(_Quantities(*(x.astype(">f8") for x in operands)))
            assert general.dtype == np.float64
            assert general.tobytes() == fused.tobytes()
            cosine, cart, control, angular_vel = operands
            for index in range(num_envs):
                alone = task.get_reward(
                    _Quantities(cosine[index], cart[index][()], control[index], angular_vel[index])
                )
                assert np.float64(alone).tobytes() == fused[index].tobytes(), index


def test_fused_reward_is_a_new_array_each_call(task):
    operands = _batch(np.random.RandomState(0), 8, 1, 1)
    with np.errstate(all="ignore"):
        first = task.get_reward(_Quantities(*operands))
        kept = first.copy()
        second = task.get_reward(_Quantities(*_batch(np.random.RandomState(1), 8, 1, 1)))
    assert not np.shares_memory(first, second)
    np.testing.assert_array_equal(first, kept)
    for operand in operands:
        assert not np.shares_memory(first, operand)


def test_fused_reward_leaves_its_operands_unchanged():
    operands = _batch(np.random.RandomState(2), 16, 2, 1)
    before = [x.copy() for x in operands]
    with np.errstate(all="ignore"):
        cartpole._smooth_reward_of_numpy_batch(*operands)
    for operand, kept in zip(operands, before):
        np.testing.assert_array_equal(operand, kept)


def test_other_operands_take_the_general_expression():
    cosine, cart, control, angular_vel = _batch(np.random.RandomState(3), 4, 1, 1)
    fused = cartpole._smooth_reward_of_numpy_batch
    # One environment's quantities, float32 ones and mismatched copies counts.
    assert fused(cosine[0], cart[0][()], control[0], angular_vel[0]) is None
    assert fused(cosine.astype(np.float32), cart, control, angular_vel) is None
    assert fused(cosine, cart[:3], control, angular_vel) is None
    assert fused(cosine, cart, control[:, :0], angular_vel) is None
    assert fused(cosine, cart, control, list(angular_vel)) is None
