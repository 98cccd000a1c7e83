"""composer_tasks.utils.containers.TaggedTasks."""

import pytest

from composer_tasks.utils import containers


def test_names_tags_order_and_intersection():
    tasks = containers.TaggedTasks()

    @tasks.add("easy", "benchmarking")
    def walk():
        return "walk"

    @tasks.add("hard")
    def run():
        return "run"

    @tasks.add("easy")
    def stand():
        return "stand"

    assert list(tasks) == ["walk", "run", "stand"] and len(tasks) == 3
    assert tasks["run"]() == "run" and tasks.tags() == ["easy", "benchmarking", "hard"]
    assert list(tasks.tagged("easy")) == ["walk", "stand"]
    assert list(tasks.tagged("easy", "benchmarking")) == ["walk"]
    assert tasks.tagged() == {} and tasks.tagged("easy", "missing") == {}


def test_a_taken_name_raises_unless_overriding_is_allowed():
    tasks = containers.TaggedTasks()

    def walk():
        return 1

    tasks.add("easy")(walk)
    with pytest.raises(ValueError, match="'walk' is already registered"):
        tasks.add()(walk)
    tasks.allow_overriding_keys = True

    def replacement():
        return 2

    replacement.__name__ = "walk"
    tasks.add("hard")(replacement)
    # As dm_control: the new factory, with the old tags kept and the new added.
    assert tasks["walk"]() == 2 and list(tasks.tagged("easy", "hard")) == ["walk"]
