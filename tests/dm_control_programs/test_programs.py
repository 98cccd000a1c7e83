"""dm_control-style programs run here with only their imports changed, and see what
they see under dm-control 1.0.50 (names, sizes, specs, rewards and observations
along a fixed action sequence, to 1e-3).

The references were recorded by `record_reference.py` in the dm_control venv.
"""

import json
import os
import re
import sys
import types

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import trace as trace_module  # noqa: E402  (this folder is put on the path above)

PROGRAMS = ("creature_button", "go_to_target", "robot_from_file")
SEED = 7
TOLERANCE = 1e-3

# The only change a program needs: its dm_control imports become composer_tasks ones.
_DM_CONTROL_IMPORT = re.compile(r"^(from|import) dm_control\b", re.MULTILINE)


def load_ported(name):
    """The program `name` with `dm_control` imports replaced by `composer_tasks` ones."""
    path = os.path.join(HERE, f"{name}.py")
    with open(path) as handle:
        source = handle.read()
    ported = _DM_CONTROL_IMPORT.sub(r"\1 composer_tasks", source)
    assert ported != source and not re.search(r"^\s*(from|import) dm_control", ported, re.MULTILINE)
    module = types.ModuleType(f"ported_{name}")
    module.__file__ = path
    # Running the program's own source, imports rewritten, is what the test is about.
    exec(compile(ported, path, "exec"), module.__dict__)  # noqa: S102
    return module


def _reference(name):
    with open(os.path.join(HERE, "reference", f"{name}.json")) as handle:
        return json.load(handle)


@pytest.fixture(scope="module", params=PROGRAMS)
def traces(request):
    program = load_ported(request.param)
    environment, root = program.make_environment(SEED)
    return request.param, trace_module.trace(environment, root), _reference(request.param)


def test_names_sizes_and_specs_match_dm_control(traces):
    name, ours, reference = traces
    assert ours["names"] == reference["names"], name
    assert ours["sizes"] == reference["sizes"], name
    assert ours["observation_spec"] == reference["observation_spec"], name
    assert ours["action_spec"] == reference["action_spec"], name


def test_rewards_and_observations_match_dm_control(traces):
    name, ours, reference = traces
    assert len(ours["episodes"]) == len(reference["episodes"])
    for episode, (mine, theirs) in enumerate(zip(ours["episodes"], reference["episodes"])):
        np.testing.assert_allclose(
            mine["rewards"],
            theirs["rewards"],
            atol=TOLERANCE,
            err_msg=f"{name} episode {episode} rewards",
        )
        np.testing.assert_array_equal(mine["discounts"], theirs["discounts"])
        for step, (observed, expected) in enumerate(
            zip(mine["observations"], theirs["observations"])
        ):
            assert list(observed) == list(expected)
            for key in expected:
                np.testing.assert_allclose(
                    observed[key],
                    expected[key],
                    atol=TOLERANCE,
                    err_msg=f"{name} episode {episode} step {step} {key}",
                )


def test_episodes_differ_because_the_model_edit_recompiles(traces):
    """Each program edits its model in initialize_episode_mjcf (button, target or
    dock moved): the first observations of two episodes differ."""
    name, ours, _ = traces
    first, second = (episode["observations"][0] for episode in ours["episodes"])
    assert any(not np.allclose(first[key], second[key]) for key in first), name
