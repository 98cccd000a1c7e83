"""Replay: ring buffer, sum tree, prioritised sampling and the N-step writer."""

import numpy as np
import pytest

from agents import replay


def _transitions(values, observation_size=2, action_size=1):
    values = np.asarray(values, np.float32)
    count = values.shape[0]
    return replay.Transitions(
        observation=np.repeat(values[:, None], observation_size, axis=1),
        action=np.repeat(values[:, None], action_size, axis=1),
        reward=values,
        discount=np.ones((count,), np.float32),
        next_observation=np.repeat(values[:, None] + 0.5, observation_size, axis=1),
    )


def test_ring_buffer_overwrites_oldest_first():
    buffer = replay.ReplayBuffer(3, 2, 1)
    assert list(buffer.add(_transitions([0, 1]))) == [0, 1]
    assert list(buffer.add(_transitions([2, 3, 4]))) == [2, 0, 1]
    assert len(buffer) == 3
    np.testing.assert_array_equal(buffer.get(np.arange(3)).reward, [3, 4, 2])


def test_uniform_sample_covers_only_filled_slots_with_unit_weights():
    buffer = replay.ReplayBuffer(10, 2, 1)
    buffer.add(_transitions([5, 6, 7]))
    batch, indices, weights = buffer.sample(1000, np.random.default_rng(0))
    assert set(indices.tolist()) == {0, 1, 2}
    np.testing.assert_array_equal(batch.reward, np.array([5, 6, 7])[indices])
    np.testing.assert_array_equal(weights, np.ones(1000, np.float32))


def test_sample_needs_a_generator_and_data():
    buffer = replay.ReplayBuffer(4, 2, 1)
    with pytest.raises(ValueError, match="empty"):
        buffer.sample(2, np.random.default_rng(0))
    buffer.add(_transitions([1]))
    with pytest.raises(TypeError, match="Generator"):
        buffer.sample(2, np.random.RandomState(0))


def test_buffer_state_round_trip():
    buffer = replay.ReplayBuffer(4, 2, 1)
    buffer.add(_transitions([1, 2, 3]))
    buffer.add(_transitions([4, 5]))
    restored = replay.ReplayBuffer(4, 2, 1)
    restored.load_state_dict(buffer.state_dict())
    assert len(restored) == 4
    for mine, theirs in zip(restored.get(np.arange(4)), buffer.get(np.arange(4))):
        np.testing.assert_array_equal(mine, theirs)
    np.testing.assert_array_equal(restored.add(_transitions([9])), buffer.add(_transitions([9])))


def test_sum_tree_finds_prefix_sums_and_skips_zero_leaves():
    tree = replay.SumTree(5)
    tree.set(np.arange(5), [1.0, 0.0, 2.0, 0.0, 3.0])
    assert tree.total == 6.0
    targets = np.array([0.0, 0.999, 1.0, 2.999, 3.0, np.nextafter(6.0, 0.0)])
    np.testing.assert_array_equal(tree.find(targets), [0, 0, 2, 2, 4, 4])
    tree.set(np.array([4]), [0.5])
    assert tree.total == 3.5
    np.testing.assert_array_equal(tree.get(np.array([0, 4])), [1.0, 0.5])


def test_sum_tree_rejects_bad_writes():
    tree = replay.SumTree(3)
    with pytest.raises(ValueError, match="outside"):
        tree.set(np.array([3]), [1.0])
    with pytest.raises(ValueError, match="non-negative"):
        tree.set(np.array([0]), [-1.0])


@pytest.mark.parametrize("alpha", [1.0, 0.5])
def test_prioritised_probabilities_follow_priorities_to_the_alpha(alpha):
    buffer = replay.PrioritizedReplay(
        4, 2, 1, priority_exponent=alpha, importance_exponent=0.4, epsilon=1e-6
    )
    indices = buffer.add(_transitions([0, 1, 2, 3]))
    priorities = np.array([1.0, 2.0, 3.0, 4.0])
    buffer.update_priorities(indices, priorities)
    expected = (priorities + 1e-6) ** alpha / np.sum((priorities + 1e-6) ** alpha)
    np.testing.assert_allclose(buffer.probabilities(indices), expected, rtol=1e-12)

    counts = np.zeros(4)
    rng = np.random.default_rng(1)
    for _ in range(200):
        _, sampled, _ = buffer.sample(64, rng)
        counts += np.bincount(sampled, minlength=4)
    np.testing.assert_allclose(counts / counts.sum(), expected, atol=0.01)


def test_importance_weights_are_normalised_inverse_probabilities():
    buffer = replay.PrioritizedReplay(
        8, 2, 1, priority_exponent=1.0, importance_exponent=0.5, epsilon=1e-6
    )
    indices = buffer.add(_transitions([0, 1, 2, 3, 4]))
    buffer.update_priorities(indices, np.array([1.0, 2.0, 4.0, 8.0, 16.0]))
    _, sampled, weights = buffer.sample(32, np.random.default_rng(0))
    raw = (5 * buffer.probabilities(sampled)) ** -0.5
    np.testing.assert_allclose(weights, raw / raw.max(), rtol=1e-6)
    assert weights.dtype == np.float32 and weights.max() == 1.0


def test_new_items_get_the_largest_priority_seen():
    buffer = replay.PrioritizedReplay(
        4, 2, 1, priority_exponent=1.0, importance_exponent=0.4, epsilon=1e-6
    )
    first = buffer.add(_transitions([0]))
    buffer.update_priorities(first, np.array([5.0]))
    second = buffer.add(_transitions([1]))
    np.testing.assert_allclose(buffer.probabilities(second), buffer.probabilities(first))


def test_prioritised_state_round_trip_samples_identically():
    buffer = replay.PrioritizedReplay(4, 2, 1, priority_exponent=0.6, importance_exponent=0.4)
    indices = buffer.add(_transitions([0, 1, 2]))
    buffer.update_priorities(indices, np.array([0.1, 3.0, 1.0]))
    restored = replay.PrioritizedReplay(4, 2, 1, priority_exponent=0.6, importance_exponent=0.4)
    restored.load_state_dict(buffer.state_dict())
    _, mine, my_weights = restored.sample(16, np.random.default_rng(3))
    _, theirs, their_weights = buffer.sample(16, np.random.default_rng(3))
    np.testing.assert_array_equal(mine, theirs)
    np.testing.assert_array_equal(my_weights, their_weights)


def test_n_step_return_by_hand():
    total, bootstrap = replay.n_step_return([1.0, 2.0, 3.0], [1.0, 1.0, 1.0], 0.9)
    assert total == pytest.approx(1 + 0.9 * 2 + 0.81 * 3)
    assert bootstrap == pytest.approx(0.729)
    # A discount of 0.5 from the environment halves everything after it.
    total, bootstrap = replay.n_step_return([1.0, 2.0], [0.5, 1.0], 0.9)
    assert total == pytest.approx(1 + 0.9 * 0.5 * 2)
    assert bootstrap == pytest.approx(0.81 * 0.5)


def _feed(writer, step, reward, discount=1.0, valid=True, ended=False):
    """One step of a single copy whose observation before the step is `step`."""
    return writer.add(
        observation=np.array([[step]], np.float32),
        action=np.array([[step]], np.float32),
        reward=np.array([reward]),
        discount=np.array([discount]),
        next_observation=np.array([[step + 1]], np.float32),
        valid=np.array([valid]),
        episode_ended=np.array([ended]),
    )


def test_n_step_writer_emits_after_n_steps_and_flushes_on_termination():
    writer = replay.NStepWriter(num_envs=1, n_step=3, gamma=0.9)
    assert _feed(writer, 0, 1.0).reward.shape == (0,)
    assert _feed(writer, 1, 2.0).reward.shape == (0,)
    third = _feed(writer, 2, 3.0)
    np.testing.assert_allclose(third.reward, [1 + 0.9 * 2 + 0.81 * 3], rtol=1e-6)
    np.testing.assert_allclose(third.discount, [0.729], rtol=1e-6)
    np.testing.assert_array_equal(third.observation, [[0]])
    np.testing.assert_array_equal(third.next_observation, [[3]])
    fourth = _feed(writer, 3, 4.0)
    np.testing.assert_allclose(fourth.reward, [2 + 0.9 * 3 + 0.81 * 4], rtol=1e-6)
    # Termination: reward 5 with discount 0; the three open steps all end at s5.
    last = _feed(writer, 4, 5.0, discount=0.0, ended=True)
    np.testing.assert_array_equal(last.observation[:, 0], [2, 3, 4])
    np.testing.assert_allclose(last.reward, [3 + 0.9 * 4 + 0.81 * 5, 4 + 0.9 * 5, 5], rtol=1e-6)
    np.testing.assert_array_equal(last.discount, [0, 0, 0])
    np.testing.assert_array_equal(last.next_observation[:, 0], [5, 5, 5])
    # The automatic-reset step carries no transition.
    assert _feed(writer, 5, 0.0, valid=False).reward.shape == (0,)


def test_n_step_writer_bootstraps_after_a_time_limit():
    writer = replay.NStepWriter(num_envs=1, n_step=5, gamma=0.5)
    _feed(writer, 0, 1.0)
    last = _feed(writer, 1, 1.0, discount=1.0, ended=True)
    np.testing.assert_allclose(last.reward, [1.5, 1.0])
    np.testing.assert_allclose(last.discount, [0.25, 0.5])


def test_n_step_writer_keeps_copies_apart():
    writer = replay.NStepWriter(num_envs=2, n_step=2, gamma=1.0)
    step = dict(
        action=np.zeros((2, 1), np.float32),
        discount=np.ones(2),
        valid=np.array([True, True]),
        episode_ended=np.array([False, False]),
    )
    writer.add(
        observation=np.array([[0.0], [10.0]]),
        reward=np.array([1.0, 100.0]),
        next_observation=np.array([[1.0], [11.0]]),
        **step,
    )
    out = writer.add(
        observation=np.array([[1.0], [11.0]]),
        reward=np.array([2.0, 200.0]),
        next_observation=np.array([[2.0], [12.0]]),
        **step,
    )
    np.testing.assert_array_equal(out.observation[:, 0], [0, 10])
    np.testing.assert_array_equal(out.reward, [3, 300])
    np.testing.assert_array_equal(out.next_observation[:, 0], [2, 12])
    restored = replay.NStepWriter(num_envs=2, n_step=2, gamma=1.0)
    restored.load_state_dict(writer.state_dict())
    again = restored.add(
        observation=np.array([[2.0], [12.0]]),
        reward=np.array([4.0, 400.0]),
        next_observation=np.array([[3.0], [13.0]]),
        **step,
    )
    np.testing.assert_array_equal(again.reward, [6, 600])
