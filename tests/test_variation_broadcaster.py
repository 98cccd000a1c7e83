"""VariationBroadcaster: every proxy sees the wrapped variation's values in order."""

import gc

import numpy as np

from composer_tasks.composer.variation import deterministic
from composer_tasks.composer.variation import distributions
from composer_tasks.composer.variation.variation_broadcaster import VariationBroadcaster


def test_one_round_gives_every_proxy_the_same_draw():
    broadcaster = VariationBroadcaster(distributions.Uniform(0.0, 1.0))
    proxies = [broadcaster.get_proxy() for _ in range(3)]
    random_state = np.random.RandomState(7)
    values = [proxy(random_state=random_state) for proxy in proxies]
    expected = np.random.RandomState(7).uniform(0.0, 1.0)
    assert values == [expected] * 3


def test_a_proxy_ahead_of_the_others_leaves_its_values_queued_for_them():
    broadcaster = VariationBroadcaster(deterministic.Sequence([10, 20, 30]))
    first, second = broadcaster.get_proxy(), broadcaster.get_proxy()
    assert [first(), first(), first()] == [10, 20, 30]
    assert [second(), second(), second(), second()] == [10, 20, 30, 10]
    assert first() == 10


def test_a_late_proxy_starts_at_the_next_value():
    broadcaster = VariationBroadcaster(deterministic.Sequence([1, 2, 3]))
    early = broadcaster.get_proxy()
    assert early() == 1
    late = broadcaster.get_proxy()
    assert late() == 2
    assert early() == 2


def test_a_dropped_proxy_stops_collecting_values():
    broadcaster = VariationBroadcaster(deterministic.Sequence([1, 2]))
    kept = broadcaster.get_proxy()
    dropped = broadcaster.get_proxy()
    del dropped
    gc.collect()
    assert kept() == 1
    assert len(broadcaster._queues) == 1
