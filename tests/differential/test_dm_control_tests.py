"""The runner of dm_control's own tests (dm_control_tests.py): its scope table, its
porting of test files and helpers, and its report, on a small fixed subset."""

import json
import os
import subprocess
import sys

import pytest

from composer_tasks import porting
from tests.differential import dm_control_tests, harness

# Small and fast, and one of each outcome: a file that runs (rewards), one out of
# scope by the table (viewer), one whose import MODULE_MAP does not cover (mocap),
# one whose import has no counterpart by design (mujoco.index's test reads dm_control's
# size table, in NO_COUNTERPART).
SUBSET = [
    "utils/rewards_test.py",
    "viewer/util_test.py",
    "locomotion/mocap/loader_test.py",
    "mujoco/index_test.py",
]


@pytest.fixture(scope="module")
def reference():
    python = harness.reference_python()
    if python is None:
        if harness.required():
            pytest.fail("no dm-control 1.0.50 reference venv")
        pytest.skip("no dm-control 1.0.50 reference venv")
    return python


def test_report_on_a_fixed_subset(reference, tmp_path):
    report = dm_control_tests.run(str(tmp_path), SUBSET, timeout_s=300, reference=reference)
    with open(tmp_path / "dm_control_tests.json", encoding="utf-8") as handle:
        assert json.load(handle) == report
    markdown = (tmp_path / "dm_control_tests.md").read_text()
    files = {entry["path"]: entry for entry in report["files"]}
    assert sorted(files) == sorted(SUBSET)
    rewards = files["utils/rewards_test.py"]
    assert rewards["status"] == "ran"
    assert rewards["tests"] > 20
    assert (
        rewards["passed"] + rewards["failed"] + rewards["errors"] + rewards["skipped"]
        == (rewards["tests"])
    )
    assert files["viewer/util_test.py"]["status"] == "out of scope"
    assert "dm_control.viewer has no counterpart" in files["viewer/util_test.py"]["reason"]
    mocap = files["locomotion/mocap/loader_test.py"]
    assert mocap["status"] == "out of scope"
    assert porting.NO_COUNTERPART["dm_control.locomotion.mocap.mocap_pb2"] in mocap["reason"]
    index = files["mujoco/index_test.py"]
    assert index["status"] == "out of scope"
    assert porting.NO_COUNTERPART["dm_control.mujoco.wrapper.mjbindings.sizes"] in index["reason"]
    assert report["in_scope_files"] == 1 and report["out_of_scope_files"] == 3
    assert report["in_scope_tests"] == rewards["tests"]
    assert report["pass_rate"] == rewards["passed"] / rewards["tests"]
    assert "| `utils/rewards_test.py` | ran |" in markdown
    assert markdown.startswith("# dm-control 1.0.50's own tests, run here")


def test_unknown_file_is_refused(reference, tmp_path):
    with pytest.raises(ValueError, match=r"not dm_control test files: \['nope_test.py'\]"):
        dm_control_tests.run(str(tmp_path), ["nope_test.py"], reference=reference)


def test_files_and_helpers_are_ported_outside_the_repository(reference, tmp_path):
    root = dm_control_tests.dm_control_root(reference)
    destination = tmp_path / "staged"
    destination.mkdir()
    paths = ["utils/rewards_test.py", "composer/environment_hooks_test.py"]
    unportable = dm_control_tests.stage(
        root, str(destination), paths, dm_control_tests.mapping_table()
    )
    assert unportable == {}
    ported = (destination / dm_control_tests.PACKAGE / "utils" / "rewards_test.py").read_text()
    assert "import composer_tasks.rewards as rewards" in ported
    hooks = destination / dm_control_tests.PACKAGE / "composer" / "environment_hooks_test.py"
    assert "import dm_control_port.composer.hooks_test_utils as hooks_test_utils" in (
        hooks.read_text()
    )
    assert "from dm_control" not in ported
    assert not os.path.exists(os.path.join(harness.REPO_ROOT, dm_control_tests.PACKAGE))


def test_the_assets_helper_reads_the_staged_copy_of_dm_controls_files(reference, tmp_path):
    # inverse_kinematics_test imports mujoco.testing.assets (a package helper, its
    # XML files beside it) and mjbindings (mapped); utils.io is this project's.
    root = dm_control_tests.dm_control_root(reference)
    paths = ["utils/inverse_kinematics_test.py"]
    unportable = dm_control_tests.stage(
        root, str(tmp_path), paths, dm_control_tests.mapping_table()
    )
    assert unportable == {}
    package = tmp_path / dm_control_tests.PACKAGE
    ported = (package / "utils" / "inverse_kinematics_test.py").read_text()
    assert "import dm_control_port.mujoco.testing.assets as assets" in ported
    assert "import composer_tasks.mjbindings as mjbindings" in ported
    helper = (package / "mujoco" / "testing" / "assets" / "__init__.py").read_text()
    assert "import composer_tasks.utils.io as resources" in helper
    assert (package / "mujoco" / "testing" / "assets" / "arm.xml").is_file()
    assert not (package / "utils" / "io.py").exists()


def test_a_file_using_a_test_helper_that_cannot_be_ported_is_out_of_scope(reference, tmp_path):
    # fake_physics imports dm_control.rl.control: without its mapping the helper is
    # blocked, and so is every test file that imports the helper.
    root = dm_control_tests.dm_control_root(reference)
    table = dm_control_tests.mapping_table()
    del table["dm_control.rl.control"]
    unportable = dm_control_tests.stage(
        root, str(tmp_path), ["composer/observation/updater_test.py"], table
    )
    reason = unportable["composer/observation/updater_test.py"]
    assert "test helper dm_control.composer.observation.fake_physics" in reason
    assert "from dm_control.rl import control" in reason


# --- the pieces, without the reference venv ------------------------------------------


def test_scope_reason_takes_the_longest_prefix():
    table = {"mujoco": "wide", "mujoco/engine_test.py": "narrow"}
    assert dm_control_tests.scope_reason("mujoco/engine_test.py", table) == "narrow"
    assert dm_control_tests.scope_reason("mujoco/index_test.py", table) == "wide"
    assert dm_control_tests.scope_reason("mujocox/a_test.py", table) is None
    assert dm_control_tests.scope_reason("viewer/gui/base_test.py") is not None
    assert dm_control_tests.scope_reason("composer/entity_test.py") is None


def test_test_helpers_map_into_the_copied_package():
    table = dm_control_tests.mapping_table()
    assert table["dm_control.composer.hooks_test_utils"] == (
        "dm_control_port.composer.hooks_test_utils"
    )
    assert porting.map_module("dm_control.composer.hooks_test_utils", table) == (
        "dm_control_port.composer.hooks_test_utils"
    )
    assert table["dm_control.mujoco.testing.assets"] == "dm_control_port.mujoco.testing.assets"
    for module, target in porting.MODULE_MAP.items():
        assert table[module] == target


def test_a_test_past_the_per_test_limit_fails_alone(tmp_path):
    (tmp_path / "conftest.py").write_text(dm_control_tests._CONFTEST.format(limit=1))
    (tmp_path / "loop_test.py").write_text(
        "def test_endless():\n    while True:\n        pass\n\n\n"
        "def test_quick():\n    assert True\n"
    )
    junit = tmp_path / "junit.xml"
    command = dm_control_tests._pytest_command(
        sys.executable, str(tmp_path), ["-q", f"--junitxml={junit}", str(tmp_path)]
    )
    completed = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert "RunnerTimeout: stopped after 1 s by the runner's per-test limit" in completed.stdout
    assert "1 failed, 1 passed" in completed.stdout


def test_documented_differences_are_deselected_by_exact_id(tmp_path):
    (tmp_path / "conftest.py").write_text(dm_control_tests._CONFTEST.format(limit=60))
    (tmp_path / "x_test.py").write_text(
        "def test_add():\n    assert False\n\n\ndef test_add_more():\n    assert True\n"
    )
    command = dm_control_tests._pytest_command(sys.executable, str(tmp_path), ["-q", str(tmp_path)])
    environment = {**os.environ, dm_control_tests._DOCUMENTED_VARIABLE: "x_test.py::test_add"}
    completed = subprocess.run(
        command, capture_output=True, text=True, timeout=120, cwd=tmp_path, env=environment
    )
    # Not by prefix, as pytest's --deselect: test_add_more runs.
    assert "1 passed, 1 deselected" in completed.stdout


def test_a_documented_difference_is_not_run_and_leaves_the_count(tmp_path, monkeypatch):
    # As staged by the runner: the conftest.py that deselects documented differences.
    (tmp_path / "conftest.py").write_text(dm_control_tests._CONFTEST.format(limit=60))
    package = tmp_path / dm_control_tests.PACKAGE / "area"
    package.mkdir(parents=True)
    (package / "probe_test.py").write_text(
        "def test_kept():\n    assert True\n\n\ndef test_documented():\n    assert False\n"
    )
    monkeypatch.setattr(
        dm_control_tests,
        "DOCUMENTED_DIFFERENCES",
        {"area/probe_test.py::test_documented": "a reason"},
    )
    result = dm_control_tests.run_file(str(tmp_path), "area/probe_test.py", 120)
    assert (result.passed, result.failed, result.documented) == (1, 0, 1)


def test_imported_modules():
    source = "import os\nfrom dm_control.composer import hooks_test_utils as h, mjcf\n"
    assert dm_control_tests.imported_modules(source) == {
        "os",
        "dm_control.composer",
        "dm_control.composer.hooks_test_utils",
        "dm_control.composer.mjcf",
    }


def test_summary_counts_collection_errors_by_dm_controls_test_count():
    results = [
        dm_control_tests.FileResult("a_test.py", "ran", tests=4, passed=3, failed=1),
        dm_control_tests.FileResult("b_test.py", "collection error", "E", tests=6, errors=6),
        dm_control_tests.FileResult("c_test.py", "out of scope", "why"),
        dm_control_tests.FileResult("d_test.py", "not collected by dm_control", "no mock"),
    ]
    report = dm_control_tests.summarise(results, 1.0)
    assert (report["in_scope_tests"], report["passed"], report["errors"]) == (10, 3, 6)
    assert report["pass_rate"] == 0.3
    assert (report["in_scope_files"], report["out_of_scope_files"]) == (2, 1)
    assert report["not_collected_by_dm_control_files"] == 1
    text = dm_control_tests.render(report)
    assert "3 of 10 in-scope tests pass (30.0%)" in text
    assert "| `c_test.py` | out of scope | 0 | 0 | 0 | 0 | 0 | 0 | why |" in text
    assert "1 more that dm_control's own pytest cannot collect" in text


@pytest.mark.slow
def test_documented_differences_are_not_run_and_leave_the_denominator(reference, tmp_path):
    path = "mjcf/physics_test.py"
    listed = [t for t in dm_control_tests.DOCUMENTED_DIFFERENCES if t.startswith(path + "::")]
    assert listed == ["mjcf/physics_test.py::PhysicsTest::test_plugins_elasticity"]
    report = dm_control_tests.run(str(tmp_path), [path], timeout_s=600, reference=reference)
    (result,) = report["files"]
    root = dm_control_tests.dm_control_root(reference)
    counts, _ = dm_control_tests.dm_control_counts(reference, root, [path], 600)
    assert result["documented"] == 1 == report["documented_differences"]
    assert result["tests"] == counts[path] - 1
    ran = result["passed"] + result["failed"] + result["errors"] + result["skipped"]
    assert ran == result["tests"]
    text = (tmp_path / "dm_control_tests.md").read_text()
    assert f"- `{listed[0]}`: MuJoCo 4 has no <composite> element" in text


def test_every_documented_difference_names_a_test_dm_control_collects(reference):
    root = dm_control_tests.dm_control_root(reference)
    paths = sorted({test.split("::", 1)[0] for test in dm_control_tests.DOCUMENTED_DIFFERENCES})
    output = subprocess.run(
        [reference, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *paths],
        capture_output=True,
        text=True,
        cwd=root,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
        timeout=600,
    ).stdout
    collected = set(output.split())
    assert sorted(set(dm_control_tests.DOCUMENTED_DIFFERENCES) - collected) == []
