"""Running statistics against numpy on the concatenated data."""

import numpy as np
import pytest

from agents import normalizer


@pytest.mark.parametrize("offset", [0.0, 1e6])
def test_running_statistics_match_numpy(offset):
    rng = np.random.default_rng(0)
    batches = [offset + rng.normal(size=(size, 3)) * [1.0, 1e-3, 10.0] for size in (1, 7, 100, 2)]
    statistics = normalizer.RunningMeanStd((3,))
    for batch in batches:
        statistics.update(batch)
    everything = np.concatenate(batches)
    assert statistics.count == len(everything)
    np.testing.assert_allclose(statistics.mean, everything.mean(axis=0), rtol=1e-12)
    np.testing.assert_allclose(statistics.variance, everything.var(axis=0), rtol=1e-7)


def test_normalize_standardises_and_clips():
    statistics = normalizer.RunningMeanStd((1,))
    np.testing.assert_array_equal(statistics.variance, [1.0])
    statistics.update(np.array([[1.0], [3.0]]))
    np.testing.assert_allclose(
        statistics.normalize(np.array([[2.0], [4.0]]), clip=5.0), [[0.0], [2.0]], rtol=1e-6
    )
    assert statistics.normalize(np.array([[1e3]]), clip=5.0)[0, 0] == 5.0


def test_update_rejects_wrong_shapes_and_nan():
    statistics = normalizer.RunningMeanStd((2,))
    with pytest.raises(ValueError, match="shape"):
        statistics.update(np.zeros((3, 3)))
    with pytest.raises(ValueError, match="NaN"):
        statistics.update(np.array([[0.0, np.nan]]))


def test_state_round_trip():
    statistics = normalizer.RunningMeanStd((2,))
    statistics.update(np.arange(6.0).reshape(3, 2))
    restored = normalizer.RunningMeanStd((2,))
    restored.load_state_dict(statistics.state_dict())
    assert restored.count == 3
    np.testing.assert_array_equal(restored.mean, statistics.mean)
    np.testing.assert_array_equal(restored.variance, statistics.variance)


def test_return_scale_tracks_discounted_returns_per_copy():
    scale = normalizer.DiscountedReturnScale(num_envs=2, discount=0.5)
    started = np.array([True, True])
    valid = np.array([True, True])
    scale.scale(np.array([1.0, 2.0]), started, valid)
    scale.scale(np.array([1.0, 2.0]), ~started, valid)
    # Copy 1 is resetting at this step: its return and the statistics skip it.
    scaled = scale.scale(np.array([1.0, 99.0]), ~started, np.array([True, False]))
    seen = np.array([1.0, 2.0, 1.5, 3.0, 1.75])
    np.testing.assert_allclose(scale.returns, [1.75, 3.0])
    assert scale.statistics.count == 5
    np.testing.assert_allclose(scale.statistics.variance, seen.var(), rtol=1e-12)
    np.testing.assert_allclose(scaled, [1.0 / np.sqrt(seen.var() + 1e-8), 0.0], rtol=1e-6)
