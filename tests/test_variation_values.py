"""Tests for noises, colors, rotations and deterministic variations."""

import colorsys
import math

import numpy as np
import pytest

from composer_tasks.composer.variation import colors
from composer_tasks.composer.variation import deterministic
from composer_tasks.composer.variation import distributions
from composer_tasks.composer.variation import noises
from composer_tasks.composer.variation import rotations

Constant = deterministic.Constant

_N = 10000


# Noises.


def test_additive_and_multiplicative_use_initial_or_current_value():
    assert noises.Additive(Constant(1.0))(initial_value=2.0, current_value=5.0) == 3.0
    assert (
        noises.Additive(Constant(1.0), cumulative=True)(initial_value=2.0, current_value=5.0) == 6.0
    )
    assert noises.Multiplicative(Constant(3.0))(initial_value=2.0, current_value=5.0) == 6.0
    assert (
        noises.Multiplicative(Constant(3.0), cumulative=True)(initial_value=2.0, current_value=5.0)
        == 15.0
    )
    np.testing.assert_array_equal(
        noises.Additive([1.0, 2.0])(initial_value=np.array([10.0, 20.0])), [11.0, 22.0]
    )


def test_noise_as_observation_corruptor():
    observation = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    corruptor = noises.Additive(distributions.Normal(0.0, 0.01))
    random_state = np.random.RandomState(0)
    noisy = corruptor(observation, random_state=random_state)
    assert noisy.shape == (5,)
    noise = noisy - observation
    assert len(np.unique(noise)) == 5
    assert np.all(np.abs(noise) < 0.05)
    # The same draws as a direct normal sample of the observation's shape.
    expected = np.random.RandomState(0).normal(0.0, 0.01, size=5)
    np.testing.assert_allclose(noise, expected, rtol=0.0, atol=1e-15)

    scaled = noises.Multiplicative(distributions.LogNormal(0.0, 0.01))(
        observation, random_state=random_state
    )
    np.testing.assert_allclose(scaled / observation, 1.0, atol=0.05)


def test_cumulative_noise_walks():
    walk = noises.Additive(distributions.Normal(0.0, 1.0), cumulative=True)
    random_state = np.random.RandomState(0)
    value = 0.0
    steps = []
    for _ in range(3):
        new_value = walk(initial_value=0.0, current_value=value, random_state=random_state)
        steps.append(new_value - value)
        value = new_value
    expected = np.random.RandomState(0).normal(0.0, 1.0, size=3)
    np.testing.assert_allclose(steps, expected, rtol=1e-12)


def test_noise_without_base_value_raises():
    with pytest.raises(ValueError, match="initial_value"):
        noises.Additive(1.0)()
    with pytest.raises(ValueError, match="current_value"):
        noises.Multiplicative(1.0, cumulative=True)(initial_value=1.0)


# Colors.


@pytest.mark.parametrize(
    "hsv, rgb",
    [
        ((0.0, 1.0, 1.0), (1.0, 0.0, 0.0)),
        ((1.0 / 3.0, 1.0, 1.0), (0.0, 1.0, 0.0)),
        ((2.0 / 3.0, 1.0, 1.0), (0.0, 0.0, 1.0)),
        ((1.0 / 6.0, 1.0, 1.0), (1.0, 1.0, 0.0)),
        ((1.0, 1.0, 1.0), (1.0, 0.0, 0.0)),
        # Sector 3 (h = 0.5): (p, q, v) with p = v (1 - s), q = v.
        ((0.5, 0.5, 0.8), (0.4, 0.8, 0.8)),
        ((0.3, 0.0, 0.25), (0.25, 0.25, 0.25)),
    ],
)
def test_hsv_variation_known_colours(hsv, rgb):
    h, s, v = hsv
    np.testing.assert_allclose(
        colors.HsvVariation(h, s, v, alpha=0.5)(), list(rgb) + [0.5], atol=1e-12
    )


def test_hsv_round_trip_matches_the_standard_library():
    random_state = np.random.RandomState(0)
    for rgb in random_state.uniform(size=(100, 3)):
        hsv = colors.rgb_to_hsv(*rgb)
        np.testing.assert_allclose(hsv, colorsys.rgb_to_hsv(*rgb), atol=1e-12)
        np.testing.assert_allclose(colors.hsv_to_rgb(*hsv), rgb, atol=1e-12)


def test_rgb_and_gray_variations():
    random_state = np.random.RandomState(0)
    rgba = colors.RgbVariation(distributions.Uniform(), 0.5, 0.25)(random_state=random_state)
    assert rgba.shape == (4,)
    assert 0.0 <= rgba[0] < 1.0
    np.testing.assert_array_equal(rgba[1:], [0.5, 0.25, 1.0])
    np.testing.assert_array_equal(colors.GrayVariation(0.3, alpha=0.7)(), [0.3, 0.3, 0.3, 0.7])


def test_channels_vary_the_initial_colour_in_their_own_space():
    initial = np.array([0.8, 0.4, 0.0, 1.0], dtype=np.float32)
    random_state = np.random.RandomState(0)
    # An RGBA initial value: each channel sees its own channel, one draw each.
    rgba = colors.RgbVariation(
        r=noises.Multiplicative(0.5),
        g=noises.Additive(0.1),
        b=distributions.Uniform(0.0, 0.1),
        alpha=noises.Additive(-0.5),
        channel_values=True,
    )(initial, random_state=random_state)
    np.testing.assert_allclose(rgba[[0, 1, 3]], [0.4, 0.5, 0.5], atol=1e-6)
    assert 0.0 <= rgba[2] < 0.1
    # Halving the HSV value keeps hue and saturation.
    darker = colors.HsvVariation(
        h=noises.Additive(0.0),
        s=noises.Additive(0.0),
        v=noises.Multiplicative(0.5),
        channel_values=True,
    )(initial)
    np.testing.assert_allclose(darker, [0.4, 0.2, 0.0, 1.0], atol=1e-6)
    gray = colors.GrayVariation(noises.Multiplicative(0.5), channel_values=True)(initial)
    np.testing.assert_allclose(gray, [0.4, 0.4, 0.4, 1.0], atol=1e-6)


def test_channels_see_the_whole_value_by_default():
    # As dm_control: every channel is evaluated with the whole RGBA value, so a
    # distribution draws 4 values and the channels do not combine.
    with pytest.raises(ValueError):
        colors.RgbVariation(distributions.Uniform(), 0.5, 0.5)(
            np.zeros(4), random_state=np.random.RandomState(0)
        )
    rgba = colors.RgbVariation(distributions.Uniform(single_sample=True), 0.5, 0.25)(
        np.zeros(4), random_state=np.random.RandomState(0)
    )
    np.testing.assert_array_equal(rgba, [np.random.RandomState(0).uniform(), 0.5, 0.25, 1.0])


def test_bad_channels_raise():
    with pytest.raises(ValueError, match="channel g"):
        colors.RgbVariation(0.0, 1.5, 0.0, channel_values=True)()
    with pytest.raises(ValueError, match="channel alpha"):
        colors.HsvVariation(0.0, 0.0, 0.0, alpha=-0.1, channel_values=True)()
    with pytest.raises(ValueError, match="channel r.*scalar"):
        colors.RgbVariation(distributions.Uniform(shape=3), 0.0, 0.0, channel_values=True)(
            random_state=np.random.RandomState(0)
        )


# Rotations.


def _quat_multiply(a, b):
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return np.array(
        [
            aw * bw - ax * bx - ay * by - az * bz,
            aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw,
        ]
    )


def test_quaternion_from_axis_angle():
    half = math.sqrt(0.5)
    np.testing.assert_allclose(
        rotations.QuaternionFromAxisAngle([0.0, 0.0, 2.0], math.pi / 2)(),
        [half, 0.0, 0.0, half],
        atol=1e-12,
    )
    np.testing.assert_allclose(
        rotations.QuaternionFromAxisAngle([1.0, 0.0, 0.0], math.pi)(),
        [0.0, 1.0, 0.0, 0.0],
        atol=1e-12,
    )
    random_state = np.random.RandomState(0)
    random_axis = rotations.QuaternionFromAxisAngle(
        distributions.UniformPointOnSphere(), distributions.Uniform(0.0, math.pi)
    )
    quat = random_axis(random_state=random_state)
    assert np.linalg.norm(quat) == pytest.approx(1.0)


def test_quaternion_pre_multiply():
    quarter_turn_z = rotations.QuaternionFromAxisAngle([0.0, 0.0, 1.0], math.pi / 2)
    quarter_turn_x = rotations.QuaternionFromAxisAngle([1.0, 0.0, 0.0], math.pi / 2)()
    pre_multiply = rotations.QuaternionPreMultiply(quarter_turn_z)
    np.testing.assert_allclose(
        pre_multiply(initial_value=quarter_turn_x, current_value=[0.0, 0.0, 0.0, 1.0]),
        _quat_multiply(quarter_turn_z(), quarter_turn_x),
        atol=1e-12,
    )
    cumulative = rotations.QuaternionPreMultiply(quarter_turn_z, cumulative=True)
    value = rotations.IDENTITY_QUATERNION
    for _ in range(2):
        value = cumulative(initial_value=rotations.IDENTITY_QUATERNION, current_value=value)
    # Two quarter turns about z: a half turn, (0, 0, 0, 1) up to sign.
    np.testing.assert_allclose(np.abs(value), [0.0, 0.0, 0.0, 1.0], atol=1e-12)


def test_quaternion_rotate():
    quarter_turn_z = rotations.QuaternionFromAxisAngle([0.0, 0.0, 1.0], math.pi / 2)
    rotate = rotations.QuaternionRotate(quarter_turn_z)
    np.testing.assert_allclose(rotate(initial_value=[1.0, 0.0, 0.0]), [0.0, 1.0, 0.0], atol=1e-12)
    np.testing.assert_allclose(
        rotations.QuaternionRotate(quarter_turn_z, cumulative=True)(
            initial_value=[1.0, 0.0, 0.0], current_value=[0.0, 1.0, 2.0]
        ),
        [-1.0, 0.0, 2.0],
        atol=1e-12,
    )
    np.testing.assert_allclose(
        rotations.QuaternionRotate(quarter_turn_z, vec=[0.0, 2.0, 0.0])(),
        [-2.0, 0.0, 0.0],
        atol=1e-12,
    )


def test_uniform_quaternion_statistics():
    uniform = rotations.UniformQuaternion()
    random_state = np.random.RandomState(0)
    quats = np.array([uniform(random_state=random_state) for _ in range(_N)])
    np.testing.assert_allclose(np.linalg.norm(quats, axis=1), 1.0, rtol=1e-12)
    # Uniform on the 3-sphere: each component has mean 0 and variance 1/4.
    np.testing.assert_allclose(quats.mean(axis=0), 0.0, atol=0.03)
    np.testing.assert_allclose(quats.std(axis=0), 0.5, rtol=0.05)
    # Rotating a fixed vector by a uniform rotation gives a uniform direction.
    rotate = rotations.QuaternionRotate(uniform, vec=[0.0, 0.0, 1.0])
    directions = np.array([rotate(random_state=random_state) for _ in range(_N)])
    np.testing.assert_allclose(directions.mean(axis=0), 0.0, atol=0.03)


def test_bad_rotation_inputs_raise():
    with pytest.raises(ValueError, match="axis"):
        rotations.QuaternionFromAxisAngle([0.0, 0.0, 0.0], 1.0)()
    with pytest.raises(ValueError, match="axis"):
        rotations.QuaternionFromAxisAngle([0.0, 1.0], 1.0)()
    with pytest.raises(ValueError, match="angle"):
        rotations.QuaternionFromAxisAngle([0.0, 0.0, 1.0], [1.0, 2.0])()
    with pytest.raises(ValueError, match="quat"):
        rotations.QuaternionPreMultiply([1.0, 0.0, 0.0])(initial_value=[1.0, 0, 0, 0])
    with pytest.raises(ValueError, match="initial_value"):
        rotations.QuaternionPreMultiply([1.0, 0.0, 0.0, 0.0])()
    with pytest.raises(ValueError, match="vec"):
        rotations.QuaternionRotate([1.0, 0.0, 0.0, 0.0])(initial_value=[1.0, 2.0])


# Deterministic.


def test_constant_and_sequence():
    value = [1, 2]
    assert Constant(value)(initial_value=5, random_state=None) is value
    sequence = deterministic.Sequence([1, Constant(2), noises.Additive(3)])
    assert [sequence(initial_value=10) for _ in range(7)] == [1, 2, 13, 1, 2, 13, 1]
    sequence.reset()
    assert sequence(initial_value=10) == 1
    with pytest.raises(ValueError, match="values"):
        deterministic.Sequence([])
