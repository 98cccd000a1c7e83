"""composer_tasks.registry: suites register named environments, tools look them up."""

import numpy as np
import pytest

from composer_tasks import registry


def test_suite_and_locomotion_names_are_registered_through_entry_points():
    assert "suite" in registry.collections() and "locomotion" in registry.collections()
    assert "humanoid stand" in registry.names("suite")
    assert "walker_parkour_hurdles" in registry.names("locomotion")
    assert set(registry.names("suite")) | set(registry.names("locomotion")) <= set(registry.names())


def test_load_is_seeded_like_the_suites_own_loaders():
    from suites import suite

    by_name = registry.load("cartpole swingup", seed=3)
    by_words = registry.load(["cartpole", "swingup"], seed=3)
    direct = suite.load("cartpole", "swingup", task_kwargs={"random": 3})
    observations = [env.reset().observation["position"] for env in (by_name, by_words, direct)]
    np.testing.assert_array_equal(observations[0], observations[2])
    np.testing.assert_array_equal(observations[1], observations[2])


def test_unknown_names_list_the_close_ones():
    with pytest.raises(
        registry.UnknownEnvironmentError,
        match="names starting with 'cartpole': cartpole balance, .*cartpole swingup",
    ):
        registry.load("cartpole cartwheel")
    with pytest.raises(ValueError, match="registered names by collection: .*suite: acrobot"):
        registry.load("moonwalk")


def test_registration_errors():
    with pytest.raises(ValueError, match="words separated by single spaces"):
        registry.register("cartpole  swingup", lambda seed: None, collection="test")
    with pytest.raises(ValueError, match="collection must be a non-empty string"):
        registry.register("test_registry_name", lambda seed: None, collection="")
    with pytest.raises(TypeError, match="loader must be callable"):
        registry.register("test_registry_name", "not a loader", collection="test")
    with pytest.raises(ValueError, match="registered by collection 'suite' already"):
        registry.register("cartpole swingup", lambda seed: None, collection="test")
    with pytest.raises(TypeError, match="name must be a string or a sequence of strings"):
        registry.load(["cartpole", 1])
