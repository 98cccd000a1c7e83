"""The dm_control API coverage table (docs/dm_control_api_coverage.md): current,
its unexplained rows bounded, and the pieces that build it."""

import json
import os
import subprocess

import pytest

from tests.differential import api_reasons, coverage, harness

# The number of dm_control names with neither a covering differential test nor a
# documented reason, when this test was written. It may only go down: lower it as
# tests and reasons land (the lead does, after each merge); a change that raises the
# count (a new surface name, a lost marker) fails here.
UNEXPLAINED_CEILING = 0


@pytest.fixture(scope="module")
def generated():
    return coverage.generate()


def test_doc_is_current(generated):
    text, _, _ = generated
    with open(coverage.DOC_PATH, encoding="utf-8") as handle:
        committed = handle.read()
    assert committed == text, (
        "docs/dm_control_api_coverage.md is stale: run `python -m tests.differential.coverage --write`"
    )


def test_unexplained_names_do_not_grow(generated):
    _, rows, _ = generated
    unexplained = [row.name for row in rows if row.status == "unexplained"]
    print(f"{len(unexplained)} of {len(rows)} dm_control names unexplained")
    assert len(unexplained) <= UNEXPLAINED_CEILING, (
        f"{len(unexplained)} unexplained names, ceiling {UNEXPLAINED_CEILING}; "
        f"first ones: {unexplained[:20]}"
    )


def test_every_marker_names_a_dm_control_name(generated):
    _, _, unknown = generated
    assert unknown == [], f"dm_control_api markers naming no dm_control name: {unknown}"


def test_every_reason_names_dm_control_names():
    names = [row["name"] for row in coverage.load_surface()["rows"]]
    stale = [
        prefix
        for prefix in api_reasons.REASONS
        if not any(coverage.reason_for(name, {prefix: "r"}) for name in names)
    ]
    assert stale == [], f"reasons for names dm_control does not have: {stale}"


def test_surface_rows_are_unique_and_typed():
    surface = coverage.load_surface()
    assert surface["dm_control"] == "1.0.50"
    names = [row["name"] for row in surface["rows"]]
    assert len(names) == len(set(names))
    kinds = {row["kind"] for row in surface["rows"]}
    assert kinds <= {
        "class",
        "function",
        "method",
        "classmethod",
        "staticmethod",
        "property",
        "constant",
        "task",
        "section",
    }
    assert "mjcf.Physics.bind" in names
    assert "mjcf.Element.attach" in names and "mjcf.RootElement.worldbody" in names
    assert "suite.ALL_TASKS:cartpole.swingup" in names


def test_surface_matches_the_reference_venv():
    reference = harness.reference_python()
    if reference is None:
        if harness.required():
            pytest.fail("no dm-control 1.0.50 reference venv")
        pytest.skip("no dm-control 1.0.50 reference venv")
    script = os.path.join(coverage.HERE, "api_surface_dm.py")
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    environment.setdefault("MUJOCO_GL", "egl")
    output = subprocess.run(
        [reference, script],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
        env=environment,
        cwd=coverage.REPO_ROOT,
    ).stdout
    assert json.loads(output) == coverage.load_surface(), (
        "dm_control_api_surface.json is stale: rerun api_surface_dm.py in the reference venv"
    )


# --- the pieces ---------------------------------------------------------------------------

MARKED = """
import pytest

pytestmark = [pytest.mark.slow, pytest.mark.dm_control_api("suite.load")]


@pytest.mark.dm_control_api("mjcf.Physics.bind", "mjcf.Physics.named")
def test_bind():
    pass


@pytest.mark.dm_control_api("composer.Environment")
class TestEnvironment:
    @pytest.mark.dm_control_api("composer.Environment.step")
    def test_step(self):
        pass


@pytest.mark.parametrize("x", [1])
def test_unmarked(x):
    pass


@pytest.mark.dm_control_api("mjcf.Physics.bind")
@pytest.mark.xfail(strict=True, reason="differs")
def test_known_divergence():
    pass


CASES = [
    pytest.param("a", marks=pytest.mark.dm_control_api("suite.ALL_TASKS:cartpole.swingup"), id="a"),
    pytest.param(
        "b",
        marks=[pytest.mark.dm_control_api("suite.ALL_TASKS:walker.walk"), pytest.mark.xfail(strict=True)],
        id="b",
    ),
    pytest.param("c", marks=(pytest.mark.slow, pytest.mark.dm_control_api("suite.EASY"))),
    "d",
]


@pytest.mark.parametrize("case", CASES)
def test_table(case):
    pass


@pytest.mark.parametrize(
    "case", [pytest.param(1, marks=pytest.mark.dm_control_api("suite.HARD"), id="one")]
)
def test_inline_table(case):
    pass
"""


def test_scan_markers():
    assert coverage.scan_markers(MARKED, "test_x.py") == {
        "suite.load": ["test_x.py"],
        "mjcf.Physics.bind": ["test_x.py::test_bind", "test_x.py::test_known_divergence (xfail)"],
        "mjcf.Physics.named": ["test_x.py::test_bind"],
        "composer.Environment": ["test_x.py::TestEnvironment"],
        "composer.Environment.step": ["test_x.py::TestEnvironment::test_step"],
        "suite.ALL_TASKS:cartpole.swingup": ["test_x.py::test_table[a]"],
        "suite.ALL_TASKS:walker.walk": ["test_x.py::test_table[b] (xfail)"],
        "suite.EASY": ["test_x.py::test_table[2]"],
        "suite.HARD": ["test_x.py::test_inline_table[one]"],
    }


def test_scan_markers_refuses_computed_names():
    source = "import pytest\n\n@pytest.mark.dm_control_api(NAME)\ndef test_a():\n    pass\n"
    with pytest.raises(
        ValueError, match=r"line 3: dm_control_api takes string literals .*, got NAME"
    ):
        coverage.scan_markers(source, "test_y.py")
    starred = "import pytest\n\n@pytest.mark.dm_control_api(*NAMES)\ndef test_a():\n    pass\n"
    with pytest.raises(ValueError, match=r"got \*NAMES"):
        coverage.scan_markers(starred, "test_y.py")
    defined = 'NAMES = ("suite.load", "suite.ALL_TASKS")\n' + starred
    assert coverage.scan_markers(defined, "test_y.py") == {
        "suite.load": ["test_y.py::test_a"],
        "suite.ALL_TASKS": ["test_y.py::test_a"],
    }


def test_collect_markers_reads_every_test_file(tmp_path):
    (tmp_path / "test_a.py").write_text(MARKED)
    (tmp_path / "helper.py").write_text(MARKED.replace("suite.load", "suite.EXTRA"))
    markers = coverage.collect_markers(str(tmp_path))
    assert markers["suite.load"] == ["test_a.py"]
    assert "suite.EXTRA" not in markers


ROWS = {
    "composer.Entity": {"name": "composer.Entity", "aliases": [], "bases": []},
    "composer.Entity.attach": {"name": "composer.Entity.attach", "aliases": []},
    "locomotion.walkers.Ant.observables": {
        "name": "locomotion.walkers.Ant.observables",
        "aliases": [],
    },
    "locomotion.walkers.Ant": {
        "name": "locomotion.walkers.Ant",
        "aliases": ["locomotion.walkers.ant.Ant"],
        "bases": ["composer.Entity"],
    },
}


def test_resolve_markers_through_aliases_and_bases():
    resolved, unknown = coverage.resolve_markers(
        {
            "locomotion.walkers.ant.Ant": ["t1"],
            "locomotion.walkers.Ant.attach": ["t2"],
            "locomotion.walkers.ant.Ant.attach": ["t3"],
            "composer.Entity.attach": ["t4"],
            "composer.Entity.nope": ["t5"],
            "locomotion.walkers.ant.Ant.observables": ["t7"],
            "nothing": ["t6"],
        },
        ROWS,
    )
    assert resolved == {
        "locomotion.walkers.Ant": ["t1"],
        "composer.Entity.attach": ["t2", "t3", "t4"],
        "locomotion.walkers.Ant.observables": ["t7"],
    }
    assert unknown == ["composer.Entity.nope", "nothing"]


def test_status_of_a_row():
    def row(covered_by, reason=None):
        return coverage.Row("n", "function", "yes", "same", covered_by, reason)

    assert row(["t.py::a (xfail)", "t.py::b"]).status == "covered"
    assert row(["t.py::a (xfail)"], "why").status == "known divergence"
    assert row([], "why").status == "reason"
    assert row([]).status == "unexplained"


def test_reason_for_takes_the_longest_prefix():
    reasons = {"suite.wrappers": "wide", "suite.wrappers.pixels": "narrow"}
    assert coverage.reason_for("suite.wrappers.pixels.Wrapper.step", reasons) == "narrow"
    assert coverage.reason_for("suite.wrappers.action_scale.Wrapper", reasons) == "wide"
    assert coverage.reason_for("suite.wrappers", reasons) == "wide"
    assert coverage.reason_for("suite.wrappersX", reasons) is None
    assert coverage.reason_for("suite.ALL_TASKS:cartpole.swingup", {"suite.ALL_TASKS": "r"}) == "r"


def test_compare_parameters():
    ours = [["x", "POSITIONAL_OR_KEYWORD", None], ["margin", "POSITIONAL_OR_KEYWORD", "0.0"]]
    assert coverage.compare_parameters(ours, ours) == "same"
    theirs = [["x", "POSITIONAL_OR_KEYWORD", None], ["margin", "POSITIONAL_OR_KEYWORD", "1.0"]]
    assert (
        coverage.compare_parameters(ours, theirs)
        == "here (x, margin=0.0); dm_control (x, margin=1.0)"
    )
    variadic = [["args", "VAR_POSITIONAL", None], ["kwargs", "VAR_KEYWORD", None]]
    assert coverage.compare_parameters(ours, variadic) == (
        "here (x, margin=0.0); dm_control (*args, **kwargs)"
    )
    assert coverage.compare_parameters(None, theirs) == "no signature here"
    assert coverage.compare_parameters(ours, None) == "n/a"


def _row(name, module, qualname, kind, parameters=None, aliases=()):
    return {
        "name": name,
        "module": module,
        "qualname": qualname,
        "kind": kind,
        "signature": None,
        "parameters": parameters,
        "aliases": list(aliases),
    }


TOLERANCE = [
    ["x", "POSITIONAL_OR_KEYWORD", None],
    ["bounds", "POSITIONAL_OR_KEYWORD", "(0.0, 0.0)"],
    ["margin", "POSITIONAL_OR_KEYWORD", "0.0"],
    ["sigmoid", "POSITIONAL_OR_KEYWORD", "'gaussian'"],
    ["value_at_margin", "POSITIONAL_OR_KEYWORD", "0.1"],
]


def test_build_rows_looks_each_name_up_here():
    surface = {
        "dm_control": "1.0.50",
        "mujoco": "3.17.0",
        "rows": [
            _row(
                "utils.rewards.tolerance",
                "dm_control.utils.rewards",
                "tolerance",
                "function",
                TOLERANCE,
            ),
            _row("utils.rewards.nope", "dm_control.utils.rewards", "nope", "function", []),
            _row("gui.launch", "dm_control.gui", "launch", "function", []),
            _row("mjcf.nowhere.x", "dm_control.mjcf.nowhere", "x", "constant"),
            _row(
                "suite.ALL_TASKS:cartpole.swingup", "dm_control.suite", "cartpole.swingup", "task"
            ),
            _row("suite.ALL_TASKS:cartpole.fly", "dm_control.suite", "cartpole.fly", "task"),
            _row(
                "utils.rewards.alias_only",
                "dm_control.utils.rewards",
                "alias_only",
                "function",
                TOLERANCE,
                aliases=["utils.rewards.tolerance"],
            ),
        ],
    }
    rows, unknown = coverage.build_rows(
        surface,
        {"utils.rewards.tolerance": ["test_rewards.py::test_t"], "gui.nope": ["t"]},
        reasons={"gui": "no gui module by design"},
    )
    assert unknown == ["gui.nope"]
    table = {row.name: (row.here, row.signature, row.status) for row in rows}
    assert table == {
        "utils.rewards.tolerance": ("yes", "same", "covered"),
        "utils.rewards.nope": ("missing", "n/a", "unexplained"),
        "gui.launch": ("no module mapping", "n/a", "reason"),
        "mjcf.nowhere.x": ("module composer_tasks.mjcf.nowhere missing", "n/a", "unexplained"),
        "suite.ALL_TASKS:cartpole.swingup": ("yes", "n/a", "unexplained"),
        "suite.ALL_TASKS:cartpole.fly": ("missing", "n/a", "unexplained"),
        "utils.rewards.alias_only": (
            "only as `utils.rewards.tolerance` (missing here)",
            "same",
            "unexplained",
        ),
    }
    text = coverage.render(surface, rows, unknown)
    assert "| unexplained | 5 |" in text
    assert "| unexplained, here but untested | 2 |" in text
    assert "| unexplained, missing here | 3 |" in text
    assert "`gui.nope`" in text
    assert (
        "| `utils.rewards.tolerance` | function | yes | same | covered | `test_rewards.py::test_t` |"
        in text
    )
