"""dm-control 1.0.50's own unit tests, run against this project.

    python -m tests.differential.dm_control_tests REPORT_DIR [--only PATH ...] [--timeout S]

Copies the wheel's `*_test.py` files (and the test helpers and asset files beside
them) out of the reference venv into a temporary directory, never into this
repository; rewrites their imports with `composer_tasks.porting` (the project's
`MODULE_MAP`, extended by `TEST_MODULE_MAP` for dm_control's test helpers, which
are copied too); runs each file with pytest in this project's interpreter (one
subprocess a file, with a timeout a file and `PER_TEST_TIMEOUT_S` a test); and writes `REPORT_DIR/dm_control_tests.json`
and `.md`: per file passed, failed, errors, skipped, or out of scope with the
reason, and the in-scope pass rate.

Scope. A file is out of scope when `OUT_OF_SCOPE` lists it (or its folder) with a
reason (a test of dm_control's private internals, or of a module with no
counterpart here by design), or when one of its imports has no counterpart in the
mapping table (the reason names the import). Every other file is in scope, and a
file that fails here at collection counts all its tests as errors.

A single test may be listed in `DOCUMENTED_DIFFERENCES` (`"path::Class::test"`) with
the reason it cannot pass here by design (it reads PyMJCF's XML schema objects, or
checks only an error message's wording): it is not run (pytest `--deselect`), is
counted apart as documented, and leaves the denominator.

The denominator of the pass rate is the number of tests dm_control itself collects
in each in-scope file (pytest `--collect-only` in the reference venv), so a file
that stops at collection here counts every test it has, not one. A file that
dm_control's own pytest cannot collect in the reference venv (a test dependency
missing there, such as `mock`) is reported apart and measures nothing.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import importlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ElementTree
from typing import Any

from composer_tasks import porting
from tests.differential import harness

# The package the copies live in (a name dm_control code never uses).
PACKAGE = "dm_control_port"

# dm_control's test helpers (not test files, not API): copied with the tests and
# imported from the copy. `mujoco/testing/assets` reads the XML, mesh and texture
# files beside it, which `stage` copies into the same temporary folder.
TEST_HELPERS = (
    "composer/hooks_test_utils.py",
    "composer/observation/fake_physics.py",
    "mujoco/testing/assets/__init__.py",
)


def _helper_module(path: str) -> str:
    """The dotted module of a helper file relative to dm_control/ (a package's
    `__init__.py` is the package)."""
    module = path[: -len(".py")].replace("/", ".")
    return module[: -len(".__init__")] if module.endswith(".__init__") else module


TEST_MODULE_MAP: dict[str, str] = {
    "dm_control." + _helper_module(path): PACKAGE + "." + _helper_module(path)
    for path in TEST_HELPERS
}

_PRIVATE_MJCF = (
    "PyMJCF's XML object model (attributes, schema, copier, debugging, XML validation); "
    "here PyMJCF is an API over MjSpec with no XML tree (ARCHITECTURE.md decision 1)"
)
# Test file or folder (relative to dm_control/) -> why it is out of scope.
OUT_OF_SCOPE: dict[str, str] = {
    "_render": "private: dm_control's OpenGL context back ends (rendering here is mujoco.Renderer)",
    "viewer": "dm_control.viewer has no counterpart: this project's viewer "
    "(composer_tasks.viewer) is its own application with another API",
    "mujoco/wrapper": "private: dm_control's ctypes-era wrapper of MuJoCo's structs",
    "mujoco/testing": "private: dm_control's own test decorators and image utilities",
    "mujoco/thread_safety_test.py": "private: thread safety of dm_control's wrapper",
    "mjcf/attribute_test.py": _PRIVATE_MJCF,
    "mjcf/schema_test.py": _PRIVATE_MJCF,
    "mjcf/copier_test.py": _PRIVATE_MJCF,
    "mjcf/debugging_test.py": _PRIVATE_MJCF,
    "mjcf/code_for_debugging_test.py": _PRIVATE_MJCF,
    "mjcf/xml_validation_test.py": _PRIVATE_MJCF,
}

_WORDING_ONLY = (
    "checks only the wording of PhysicsError's message: `step` and `forward` raise this "
    "project's message (MuJoCo's text of the warning and the step's start time, shared with "
    "the batch's copies) where dm_control lists the warning's name; `check_invalid_state` "
    "raises dm_control's message"
)
_NO_COMPOSITE = (
    "MuJoCo 4 has no <composite> element (MuJoCo's cable is built with <replicate> or "
    "<flexcomp> now); the model of the test does not compile here"
)

_SCHEMA = (
    "reads PyMJCF's XML schema objects (`element.spec.attributes`/`.children`, "
    "`element._spec`); here an element is a handle on an MjSpec element with no schema "
    "object (ARCHITECTURE.md decision 1)"
)
_JACO_FINGERTIPS = (
    "closes the Jaco hand's fingers to their joint limit (1.35 rad): dm_control's fingertip "
    "meshes of fingers 1 and 3 just meet there (-0.04 mm); this project's Jaco hand is made "
    "of primitive shapes (by design, docs/manipulation.md) and its fingertip boxes meet at "
    "1.25 rad, so the fingers stop short. Ranges, servo gains, force limits, damping and "
    "armature are dm_control's (opening, test_finger_travel_time0, passes)"
)
# Test id ("path::Class::test", path relative to dm_control/) -> why it cannot pass here.
DOCUMENTED_DIFFERENCES: dict[str, str] = {
    "entities/manipulators/kinova/kinova_test.py::JacoHandTest::test_finger_travel_time1": (
        _JACO_FINGERTIPS
    ),
    "mujoco/engine_test.py::MujocoEngineTest::testNanControl": _WORDING_ONLY,
    "mujoco/engine_test.py::MujocoEngineTest::testSuppressPhysicsError": _WORDING_ONLY
    + "; it also patches absl's deprecated `logging.warn`, which dm_control calls (here "
    "the same warning goes through the standard library's `logging.warning`)",
    "mujoco/engine_test.py::MujocoEngineTest::testSetGetPhysicsStateWithPlugin": _NO_COMPOSITE,
    "mjcf/physics_test.py::PhysicsTest::test_plugins_elasticity": _NO_COMPOSITE,
    "mjcf/element_test.py::ElementTest::testAttributeError": _SCHEMA,
    "mjcf/element_test.py::ElementTest::testProperties": _SCHEMA,
    "mjcf/element_test.py::ElementTest::testAttributes": _SCHEMA,
    "mjcf/element_test.py::ElementTest::testChildren": _SCHEMA,
    "mjcf/element_test.py::ElementTest::testAdd": _SCHEMA,
    "mjcf/element_test.py::ElementTest::testAttach": _SCHEMA,
    "mjcf/element_test.py::ElementTest::testSetAndGetAttributes": _SCHEMA
    + "; also reads `namescope.get`, PyMJCF's private name table, and checks the wording "
    "'no more than 3 entries'",
    "mjcf/element_test.py::ElementTest::testInvalidAttr": "checks the wording of every "
    "element's errors ('object has no attribute', \"can't set attribute\") down to the "
    "settings structs (`model.compiler`, ...), which here are attribute tables over MjSpec's "
    "fields, not elements with children; a misspelt attribute raises AttributeError here too",
    "mjcf/element_test.py::ElementTest::testDeletion": "deletes the <option> and <contact> "
    "elements (`del model.option`, `option.remove()`): here settings are MjSpec's own fields "
    "and sections its lists, which cannot be removed (their elements can)",
    "mjcf/element_test.py::ElementTest::testDetach": "attaches a model again after "
    "detaching it: MuJoCo attaches a spec once and deletes its elements with the frame, so "
    "a detached model raises RemovedElementError (docs/mjcf.md); the text after detaching "
    "equals the text before attaching, as the test's first half checks",
    "mjcf/element_test.py::ElementTest::testFindAllFrameJoints": "adds two unnamed joints to "
    "one attachment frame; PyMJCF names both after the frame ('submodel/'), a name MjSpec "
    "holds once (the second raises, asking for a name)",
    "mjcf/element_test.py::ElementTest::testInsert": "inserts a body before existing bodies: "
    "MjSpec appends an element after those of its kind, so the compiled order could not be "
    "the one asked for (insert raises, naming the element in the way)",
    "mjcf/element_test.py::ElementTest::testResolveReferences": "compares handles with `is`: "
    "handles are made on demand over MjSpec elements, so `==` holds for the same element "
    "but `is` does not",
}

DEFAULT_TIMEOUT_S = 600.0
# Seconds one test may run. A test past it fails alone (the staged conftest.py stops it
# with SIGALRM), so that a file with one endless loop here (a `while` waiting for a
# state this project's model never reaches) still reports its other tests, rather
# than the whole file timing out.
PER_TEST_TIMEOUT_S = 300
_CONFTEST = """\
import os
import signal

import pytest

try:
    # dm_control's mjcf/element_test reads `lxml.etree` as an attribute of `lxml`, which
    # exists there only because dm_control.mjcf imported the submodule first.
    import lxml.etree
except ImportError:
    pass

# The runner's documented differences in this file: not run (exact node ids; pytest's
# own --deselect takes prefixes, and testAdd would take testAddWithInvalidAttribute).
_DOCUMENTED = set(filter(None, os.environ.get("DM_CONTROL_TESTS_DOCUMENTED", "").split("\\n")))


def pytest_collection_modifyitems(config, items):
    documented = [item for item in items if item.nodeid in _DOCUMENTED]
    if documented:
        config.hook.pytest_deselected(items=documented)
        items[:] = [item for item in items if item.nodeid not in _DOCUMENTED]


class RunnerTimeout(Exception):
    pass


def _expire(signum, frame):
    raise RunnerTimeout("stopped after {limit} s by the runner's per-test limit")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    previous = signal.signal(signal.SIGALRM, _expire)
    signal.alarm({limit})
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
"""
REPORT_NAME = "dm_control_tests"
# The environment variable that hands the staged conftest.py the documented differences
# (the conftest's text names it too).
_DOCUMENTED_VARIABLE = "DM_CONTROL_TESTS_DOCUMENTED"


@dataclasses.dataclass
class FileResult:
    path: str  # relative to dm_control/
    # "ran", "collection error", "timeout", "out of scope", "not collected by dm_control"
    status: str
    reason: str = ""
    tests: int = 0  # dm_control's own count of tests in the file
    passed: int = 0
    failed: int = 0
    errors: int = 0
    skipped: int = 0
    documented: int = 0  # tests not run: DOCUMENTED_DIFFERENCES lists them
    seconds: float = 0.0


def dm_control_root(python: str) -> str:
    """dm_control's package folder in the reference venv."""
    code = "import os, dm_control; print(os.path.dirname(dm_control.__file__))"
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    folder = subprocess.run(
        [python, "-c", code], capture_output=True, text=True, check=True, env=environment
    ).stdout.strip()
    # Resolved: pytest names tests relative to a root only if the paths agree textually.
    return os.path.realpath(folder)


def test_files(root: str) -> list[str]:
    """Every `*_test.py` under `root`, relative, sorted."""
    found = []
    for folder, _, names in os.walk(root):
        for name in names:
            if name.endswith("_test.py"):
                found.append(os.path.relpath(os.path.join(folder, name), root))
    return sorted(found)


def scope_reason(path: str, table: dict[str, str] = OUT_OF_SCOPE) -> str | None:
    """The reason `path` (relative to dm_control/) is out of scope, or None."""
    best = None
    for prefix, reason in table.items():
        if path == prefix or path.startswith(prefix.rstrip("/") + "/"):
            if best is None or len(prefix) > len(best[0]):
                best = (prefix, reason)
    return best[1] if best else None


def mapping_table() -> dict[str, str]:
    return {**porting.MODULE_MAP, **TEST_MODULE_MAP}


def port(source: str, table: dict[str, str]) -> str:
    """`source` with its imports rewritten; raises porting.PortingError."""
    return porting.rewrite_imports(source, table)


def imported_modules(source: str) -> set[str]:
    """The dotted names a source imports: modules, and `module.name` for from-imports."""
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def stage(root: str, destination: str, paths: list[str], table: dict[str, str]) -> dict[str, str]:
    """Copies the asset files, the test helpers and the ported `paths` under
    `destination/PACKAGE` (and writes the per-test limit's `destination/conftest.py`);
    returns {path: reason} for the files that cannot be ported."""
    package = os.path.join(destination, PACKAGE)
    with open(os.path.join(destination, "conftest.py"), "w", encoding="utf-8") as handle:
        handle.write(_CONFTEST.format(limit=PER_TEST_TIMEOUT_S))
    shutil.copytree(
        root,
        package,
        ignore=lambda folder, names: [
            n for n in names if n.endswith((".py", ".pyc")) or n == "__pycache__"
        ],
    )
    for folder, _, _ in os.walk(package):
        open(os.path.join(folder, "__init__.py"), "a").close()
    # The rewriter turns `from dm_control.x import helper` into an import of the
    # helper's copy only if it finds that module: the copies are importable meanwhile.
    sys.path.insert(0, destination)
    importlib.invalidate_caches()
    try:
        return _port_files(root, package, paths, table)
    finally:
        sys.path.remove(destination)
        for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def _port_files(root: str, package: str, paths: list[str], table: dict[str, str]) -> dict[str, str]:
    blocked = {}  # test helper module -> why it cannot be ported
    unportable = {}
    for path in [*TEST_HELPERS, *paths]:
        with open(os.path.join(root, path), encoding="utf-8") as handle:
            source = handle.read()
        used = sorted(imported_modules(source) & set(blocked))
        try:
            if used:
                raise porting.PortingError(
                    f"uses the test helper {used[0]}, which {blocked[used[0]]}"
                )
            ported = port(source, table)
        except porting.PortingError as error:
            reason = str(error)
            if not used:
                reason = f"imports a module with no counterpart here ({error})"
            if path in TEST_HELPERS:
                blocked["dm_control." + _helper_module(path)] = reason
            else:
                unportable[path] = reason
            continue
        with open(os.path.join(package, path), "w", encoding="utf-8") as handle:
            handle.write(ported)
    return unportable


def _pytest_command(python: str, destination: str, extra: list[str]) -> list[str]:
    config = os.path.join(destination, "pytest.ini")
    if not os.path.exists(config):
        with open(config, "w", encoding="utf-8") as handle:
            handle.write("[pytest]\n")
    return [
        python,
        "-m",
        "pytest",
        "-c",
        config,
        "--rootdir",
        destination,
        "-p",
        "no:cacheprovider",
        *extra,
    ]


def dm_control_counts(
    python: str, root: str, paths: list[str], timeout_s: float
) -> tuple[dict[str, int], dict[str, str]]:
    """({path: the number of tests dm_control's pytest collects in it}, {path: why
    dm_control's pytest could not collect it}), in the reference venv."""
    if not paths:
        return {}, {}
    with tempfile.TemporaryDirectory() as scratch:
        # Run from dm_control/ with relative paths: pytest names each test
        # "path/relative/to/it.py::..." and each collection error by that path.
        command = _pytest_command(python, scratch, ["--collect-only", "-q"])
        command[command.index("--rootdir") + 1] = root
        command.append("--continue-on-collection-errors")
        environment = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        environment.setdefault("MUJOCO_GL", "egl")
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        output = subprocess.run(
            command + paths,
            capture_output=True,
            text=True,
            env=environment,
            timeout=timeout_s,
            cwd=root,
        ).stdout
    counts = {path: 0 for path in paths}
    errors = {}
    collecting = None
    for line in output.splitlines():
        path = line.split("::", 1)[0]
        header = re.fullmatch(r"_+ ERROR collecting (\S+) _+", line.strip())
        if "::" in line and path in counts:
            counts[path] += 1
        elif header:
            collecting = header.group(1)
        elif collecting in counts and line.startswith("E "):
            errors[collecting] = line[1:].strip()
    return counts, errors


def run_file(destination: str, path: str, timeout_s: float) -> FileResult:
    """Runs one ported test file with pytest here; its counts from the JUnit XML."""
    junit = os.path.join(destination, "junit", path.replace("/", "__") + ".xml")
    os.makedirs(os.path.dirname(junit), exist_ok=True)
    documented = [t for t in DOCUMENTED_DIFFERENCES if t.split("::", 1)[0] == path]
    command = _pytest_command(sys.executable, destination, ["-q", f"--junitxml={junit}"])
    environment = dict(os.environ)
    environment.setdefault("MUJOCO_GL", "egl")
    environment["PYTHONPATH"] = os.pathsep.join([destination, harness.REPO_ROOT])
    # Node ids relative to the root directory, for the staged conftest.py to deselect.
    environment[_DOCUMENTED_VARIABLE] = "\n".join(f"{PACKAGE}/{test}" for test in documented)
    start = time.monotonic()
    try:
        subprocess.run(
            command + [os.path.join(destination, PACKAGE, path)],
            capture_output=True,
            text=True,
            env=environment,
            timeout=timeout_s,
            cwd=destination,
        )
    except subprocess.TimeoutExpired:
        return FileResult(path, "timeout", f"over {timeout_s:.0f} s", seconds=timeout_s)
    seconds = time.monotonic() - start
    if not os.path.exists(junit):
        return FileResult(path, "collection error", "pytest wrote no report", seconds=seconds)
    suites = ElementTree.parse(junit).getroot()
    suite = suites if suites.tag == "testsuite" else suites.find("testsuite")
    assert suite is not None
    # Counted by test case: the suite's own totals also count each `subTest` of
    # pytest's subtests as a test, which dm_control's collection count does not.
    outcomes = [
        {child.tag for child in case} & {"error", "failure", "skipped"}
        for case in suite.iter("testcase")
    ]
    total = len(outcomes)
    errors = sum("error" in tags for tags in outcomes)
    failed = sum("failure" in tags and "error" not in tags for tags in outcomes)
    skipped = sum(tags == {"skipped"} for tags in outcomes)
    collection_error = total == errors and any(
        case.get("name") in ("", None) or case.get("classname", "") == ""
        for case in suite.iter("testcase")
    )
    return FileResult(
        path,
        "collection error" if collection_error else "ran",
        _first_error(suite)
        if collection_error
        else (f"{len(documented)} documented differences" if documented else ""),
        passed=total - failed - errors - skipped,
        failed=failed,
        errors=errors,
        skipped=skipped,
        documented=len(documented),
        seconds=seconds,
    )


def _first_error(suite: ElementTree.Element) -> str:
    """The last line of the first error's traceback (the exception and its message)."""
    for case in suite.iter("testcase"):
        for child in case:
            if child.tag in ("error", "failure"):
                lines = [
                    line.lstrip("E ").strip()
                    for line in (child.text or child.get("message") or "").splitlines()
                    if line.strip()
                ]
                return lines[-1][:300] if lines else ""
    return ""


def run(
    report_dir: str,
    only: list[str] | None = None,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    reference: str | None = None,
) -> dict[str, Any]:
    """Runs the files (all, or `only`), writes the report, returns it."""
    reference = reference or harness.reference_python()
    if reference is None:
        raise RuntimeError("no dm-control 1.0.50 reference venv (DM_CONTROL_PYTHON)")
    root = dm_control_root(reference)
    paths = test_files(root)
    if only:
        unknown = sorted(set(only) - set(paths))
        if unknown:
            raise ValueError(f"not dm_control test files: {unknown}")
        paths = [p for p in paths if p in only]
    results: dict[str, FileResult] = {}
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="dm_control_tests_") as destination:
        listed = {p: scope_reason(p) for p in paths}
        candidates = [p for p in paths if listed[p] is None]
        unportable = stage(root, destination, candidates, mapping_table())
        for path in paths:
            reason = listed[path] or unportable.get(path)
            if reason:
                results[path] = FileResult(path, "out of scope", reason)
        in_scope = [p for p in paths if p not in results]
        counts, uncollected = dm_control_counts(reference, root, in_scope, timeout_s)
        for path in in_scope:
            if path in uncollected:
                # A file the reference venv itself cannot load measures nothing here.
                why = f"dm_control's own pytest cannot collect it: {uncollected[path]}"
                results[path] = FileResult(path, "not collected by dm_control", why)
                continue
            result = run_file(destination, path, timeout_s)
            result.tests = max(counts.get(path, 0) - result.documented, 0)
            if result.status in ("collection error", "timeout"):
                result.errors = max(
                    result.tests - result.passed - result.failed - result.skipped, 0
                )
            results[path] = result
    report = summarise([results[p] for p in paths], time.monotonic() - start)
    write_report(report, report_dir)
    return report


def summarise(results: list[FileResult], seconds: float) -> dict[str, Any]:
    measured = ("ran", "collection error", "timeout")
    in_scope = [r for r in results if r.status in measured]
    tests = sum(max(r.tests, r.passed + r.failed + r.errors + r.skipped) for r in in_scope)
    passed = sum(r.passed for r in in_scope)
    return {
        "dm_control_files": len(results),
        "in_scope_files": len(in_scope),
        "out_of_scope_files": sum(r.status == "out of scope" for r in results),
        "not_collected_by_dm_control_files": sum(
            r.status == "not collected by dm_control" for r in results
        ),
        "in_scope_tests": tests,
        "passed": passed,
        "failed": sum(r.failed for r in in_scope),
        "errors": sum(r.errors for r in in_scope),
        "skipped": sum(r.skipped for r in in_scope),
        "documented_differences": sum(r.documented for r in in_scope),
        "pass_rate": passed / tests if tests else 0.0,
        "seconds": round(seconds, 1),
        "files": [dataclasses.asdict(r) for r in results],
    }


def render(report: dict[str, Any]) -> str:
    lines = [
        "# dm-control 1.0.50's own tests, run here",
        "",
        f"{report['passed']} of {report['in_scope_tests']} in-scope tests pass "
        f"({100 * report['pass_rate']:.1f}%); {report['failed']} fail, {report['errors']} "
        f"errors, {report['skipped']} skipped; {report.get('documented_differences', 0)} more are "
        "documented differences, not run. "
        f"{report['in_scope_files']} of "
        f"{report['dm_control_files']} test files in scope; "
        f"{report['not_collected_by_dm_control_files']} more that dm_control's own pytest "
        f"cannot collect in the reference venv; run took {report['seconds']} s.",
        "",
        "| file | status | dm_control tests | passed | failed | errors | skipped | "
        "documented | reason |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in report["files"]:
        reason = r["reason"].replace("|", "\\|").replace("\n", " ")
        lines.append(
            f"| `{r['path']}` | {r['status']} | {r['tests']} | {r['passed']} | {r['failed']} | "
            f"{r['errors']} | {r['skipped']} | {r.get('documented', 0)} | {reason} |"
        )
    paths = {r["path"] for r in report["files"] if r.get("documented")}
    listed = [t for t in sorted(DOCUMENTED_DIFFERENCES) if t.split("::", 1)[0] in paths]
    if listed:
        lines += ["", "Documented differences (not run):", ""]
        for test in listed:
            lines.append(f"- `{test}`: {DOCUMENTED_DIFFERENCES[test]}")
    return "\n".join(lines) + "\n"


def write_report(report: dict[str, Any], report_dir: str) -> None:
    os.makedirs(report_dir, exist_ok=True)
    with open(os.path.join(report_dir, REPORT_NAME + ".json"), "w", encoding="utf-8") as handle:
        json.dump(report, handle, indent=1)
    with open(os.path.join(report_dir, REPORT_NAME + ".md"), "w", encoding="utf-8") as handle:
        handle.write(render(report))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("report_dir")
    parser.add_argument(
        "--only",
        nargs="*",
        action="extend",
        help="test files, relative to dm_control/ (repeatable: `--only a --only b` runs both)",
    )
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT_S, help="seconds a file")
    arguments = parser.parse_args(argv[1:])
    report = run(arguments.report_dir, arguments.only, arguments.timeout)
    print(render(report).split("\n\n")[1])
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
