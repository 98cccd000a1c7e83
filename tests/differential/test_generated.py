"""Generated PyMJCF programs (generated.py) on dm-control 1.0.50 and here.

The default run checks 200 programs with fixed seeds (0-199) in batches; the slow
run 3,000 more. A failure names each differing value under its seed; rerun one
with `python -m tests.differential.generated SEED --compare`.
"""

import ast
import dataclasses

import pytest

from composer_tasks import porting
from tests.differential import generated, worker

BATCH = 25
API = (
    "mjcf.RootElement",
    "mjcf.Element.add",
    "mjcf.Element.attach",
    "mjcf.RootElement.attach",
    "mjcf.RootElement.find_all",
    "mjcf.RootElement.default",
    "mjcf.RootElement.worldbody",
    "mjcf.RootElement.actuator",
    "mjcf.RootElement.sensor",
    "mjcf.RootElement.compiler",
    "mjcf.RootElement.option",
    "mjcf.Element.full_identifier",
    "mjcf.Physics.from_mjcf_model",
    "mjcf.Physics.bind",
    "mujoco.engine.Physics.named",
    "mujoco.engine.Physics.model",
    "mujoco.engine.Physics.data",
    "mujoco.engine.Physics.set_control",
    "mujoco.engine.Physics.step",
    "composer.ModelWrapperEntity",
    "composer.Task",
    "composer.Environment",
    "composer.Environment.reset",
    "composer.Environment.step",
    "composer.Environment.observation_spec",
    "composer.Environment.action_spec",
    "composer.observation.observable.MJCFFeature",
    "composer.variation.MJCFVariator",
    "composer.variation.MJCFVariator.bind_attributes",
    "composer.variation.MJCFVariator.apply_variations",
    "composer.variation.distributions.Uniform",
)


def _check_seeds(differential, seeds):
    problems = []
    ran = 0
    for start in range(0, len(seeds), BATCH):
        chunk = seeds[start : start + BATCH]
        comparison = differential.compare(
            generated.batch(chunk), f"generated_{chunk[0]}", tolerances=generated.TOLERANCES
        )
        for side, result in (("dm_control", comparison.theirs), ("here", comparison.ours)):
            if result.error:
                problems.append(f"batch {chunk[0]}..{chunk[-1]} failed {side}:\n{result.error}")
        ran += sum(
            value is None for key, value in comparison.theirs.records if key.endswith("/raises")
        )
        problems.extend(str(difference) for difference in comparison.differences)
    return ran, problems


def _assert_seeds_agree(differential, seeds):
    ran, problems = _check_seeds(differential, seeds)
    assert not problems, (
        f"{len(problems)} differences (rerun one: python -m tests.differential.generated "
        "SEED --compare)\n" + "\n".join(problems[:50])
    )
    # The comparison means something only if most programs run to the end under
    # dm_control (a few raise PhysicsError on an unstable random model; both sides
    # must then raise the same).
    assert ran >= 0.95 * len(seeds), f"only {ran} of {len(seeds)} programs ran under dm_control"


@pytest.mark.dm_control_api(*API)
def test_generated_programs_match_dm_control(differential):
    _assert_seeds_agree(differential, list(range(200)))


@pytest.mark.slow
@pytest.mark.dm_control_api(*API)
def test_many_generated_programs_match_dm_control(differential):
    _assert_seeds_agree(differential, list(range(200, 3200)))


# --- the generator itself, without the reference venv -------------------------------


def test_programs_are_deterministic_and_distinct():
    assert generated.program(5) == generated.program(5)
    assert generated.program(5) != generated.program(6)


def test_programs_run_here_and_record_what_they_promise():
    # Seeds whose models stay stable for 20 steps (seed 2's diverges, on both sides).
    seeds = (0, 1, 3)
    reply = worker.run_program("generated", generated.batch(list(seeds)), porting.rewrite_imports)
    assert reply["error"] is None
    keys = [key for key, _ in reply["records"]]
    for seed in seeds:
        assert [f"{seed}/size/{field}" for field in ("nq", "nv", "nu")] == [
            key
            for key in keys
            if key.startswith(f"{seed}/size/n") and key[-2:] in ("nq", "nv", "nu")
        ]
        assert f"{seed}/names/body" in keys
        assert any(key.startswith(f"{seed}/bind/geom/") for key in keys)
        assert f"{seed}/dyn/qpos/19" in keys
        assert dict(reply["records"])[f"{seed}/raises"] is None


def test_batch_records_a_models_exception_and_goes_on():
    source = generated.batch([3, 4]).replace(
        "def model_3():\n", "def model_3():\n    raise KeyError('x')\n", 1
    )
    reply = worker.run_program("generated", source, porting.rewrite_imports)
    records = dict(reply["records"])
    assert records["3/raises"] == {"__raises__": "KeyError"}
    assert records["4/raises"] is None


def test_programs_parse_and_import_only_dm_control_and_numpy():
    tree = ast.parse(generated.batch(list(range(20))))
    imported = {
        alias.name if isinstance(node, ast.Import) else node.module
        for node in ast.walk(tree)
        if isinstance(node, (ast.Import, ast.ImportFrom))
        for alias in node.names
    }
    assert "numpy" in imported and "dm_control" in imported
    assert all(name == "numpy" or name.split(".")[0] == "dm_control" for name in imported)


def _all_programs(features):
    return "".join(generated.program(seed, features) for seed in range(40))


def test_features_switch_content_off():
    everything = _all_programs(generated.Features())
    for feature, text in (
        ("cylinder", "type='cylinder'"),
        ("ball", "type='ball'"),
        ("free", "'freejoint', name="),
        ("tendons", ".tendon.add("),
        ("position", ".add('position'"),
        ("attach_freejoint", ".add('freejoint')"),
        ("defaults", ".default.add("),
        ("floor", "name='floor'"),
        ("accelerometer", "'accelerometer'"),
        ("composer", "composer.Environment("),
    ):
        assert text in everything, feature
        without = _all_programs(dataclasses.replace(generated.Features(), **{feature: False}))
        assert text not in without, feature
    assert "flag.contact = 'disable'" not in everything
    assert "flag.contact = 'disable'" in _all_programs(generated.Features(contacts=False))


def test_default_features_avoid_the_recorded_divergences():
    features = generated.default_features()
    for name in generated.AVOID:
        assert getattr(features, name) is False
    assert features.hinge and features.sites


def test_tolerances_are_looser_for_dynamics_only():
    (dynamics, dyn_rtol, _), (anything, rtol, atol) = generated.TOLERANCES
    assert dynamics == r"/dyn/" and anything == r"."
    assert dyn_rtol > rtol and (rtol, atol) == (1e-6, 1e-8)


def test_command_line(capsys):
    assert generated.main(["generated", "7"]) == 0
    assert capsys.readouterr().out == generated.program(7)
    assert generated.main(["generated", "seven"]) == 2
