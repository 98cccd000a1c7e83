"""The dm_control API coverage table: every public name of dm-control 1.0.50, whether
it exists here, whether its signature matches, and which differential test covers
it or why none does.

    python -m tests.differential.coverage            # prints the summary
    python -m tests.differential.coverage --write    # rewrites docs/dm_control_api_coverage.md

Inputs: `dm_control_api_surface.json` (dm_control's surface, written in the
reference venv by `api_surface_dm.py`; committed, so the table regenerates
without that venv), `composer_tasks.porting.MODULE_MAP` (where each name lives
here), the `@pytest.mark.dm_control_api(...)` markers of
`tests/differential/test_*.py` (read by AST, nothing is imported), and
`api_reasons.REASONS` (why a name has no test). Each name is looked up by
importing this project's module and following the attribute path; a signature
matches when its parameter names, kinds and defaults match.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import glob
import importlib
import inspect
import json
import os
import re
import sys
from typing import Any

from composer_tasks import porting
from tests.differential.api_reasons import REASONS

HERE = os.path.dirname(os.path.abspath(__file__))
REPO_ROOT = os.path.dirname(os.path.dirname(HERE))
SURFACE_PATH = os.path.join(HERE, "dm_control_api_surface.json")
DOC_PATH = os.path.join(REPO_ROOT, "docs", "dm_control_api_coverage.md")
MARKER = "dm_control_api"
XFAIL = " (xfail)"


@dataclasses.dataclass
class Row:
    name: str
    kind: str
    here: str  # "yes", "only as `alias`", or why not: "no module mapping", "module X missing", "missing"
    signature: str  # "same", "n/a" or what differs
    covered_by: list[str]
    reason: str | None

    @property
    def is_here(self) -> bool:
        """Whether the name exists here, under its own name or another of dm_control's."""
        return self.here == "yes" or self.here.startswith("only as")

    @property
    def status(self) -> str:
        if any(not test.endswith(XFAIL) for test in self.covered_by):
            return "covered"
        if self.covered_by:
            return "known divergence"
        if self.reason:
            return "reason"
        return "unexplained"


# --- markers -----------------------------------------------------------------------


def _string_tuples(tree: ast.Module) -> dict[str, list[str]]:
    """Module-level `NAME = ("a", "b", ...)` assignments of string literals."""
    found = {}
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, (ast.Tuple, ast.List))
            and all(
                isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.value.elts
            )
        ):
            found[node.targets[0].id] = [e.value for e in node.value.elts]
    return found


def _marker_names(decorator: ast.expr, constants: dict[str, list[str]]) -> list[str] | None:
    """The names of a `pytest.mark.dm_control_api("a", "b", *NAMES)` decorator, else
    None; `*NAMES` must be a module-level tuple of string literals (`constants`)."""
    if not isinstance(decorator, ast.Call):
        return None
    function = decorator.func
    if not (isinstance(function, ast.Attribute) and function.attr == MARKER):
        return None
    names = []
    for argument in decorator.args:
        if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
            names.append(argument.value)
        elif (
            isinstance(argument, ast.Starred)
            and isinstance(argument.value, ast.Name)
            and argument.value.id in constants
        ):
            names.extend(constants[argument.value.id])
        else:
            raise ValueError(
                f"line {decorator.lineno}: dm_control_api takes string literals (or *NAME "
                f"of a module-level tuple of them), got {ast.unparse(argument)}"
            )
    return names


def _is_xfail(decorator: ast.expr) -> bool:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    return isinstance(target, ast.Attribute) and target.attr == "xfail"


def _marks_of(value: ast.expr) -> list[ast.expr]:
    return list(value.elts) if isinstance(value, (ast.List, ast.Tuple)) else [value]


def _module_sequences(tree: ast.Module) -> dict[str, ast.expr]:
    """Module-level `NAME = [...]` / `NAME = (...)` assignments, by name."""
    return {
        node.targets[0].id: node.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
        and isinstance(node.value, (ast.List, ast.Tuple))
    }


def _parametrized_cases(
    decorator: ast.expr, sequences: dict[str, ast.expr]
) -> list[tuple[str, list[ast.expr]]]:
    """(case id, marks) of each `pytest.param(..., marks=..., id=...)` in the argument
    values of a `pytest.mark.parametrize(names, values)` decorator; `values` is a
    literal list or tuple, or the name of a module-level one. A case without `id=`
    is named by its index, as pytest names it."""
    if not (
        isinstance(decorator, ast.Call)
        and isinstance(decorator.func, ast.Attribute)
        and decorator.func.attr == "parametrize"
        and len(decorator.args) >= 2
    ):
        return []
    values = decorator.args[1]
    if isinstance(values, ast.Name):
        values = sequences.get(values.id, values)
    if not isinstance(values, (ast.List, ast.Tuple)):
        return []
    cases = []
    for index, value in enumerate(values.elts):
        if not (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Attribute)
            and value.func.attr == "param"
        ):
            continue
        keywords = {keyword.arg: keyword.value for keyword in value.keywords}
        case_id = keywords.get("id")
        label = (
            case_id.value
            if isinstance(case_id, ast.Constant) and isinstance(case_id.value, str)
            else str(index)
        )
        marks = _marks_of(keywords["marks"]) if "marks" in keywords else []
        cases.append((label, marks))
    return cases


def scan_markers(source: str, filename: str) -> dict[str, list[str]]:
    """{dm_control name: [test ids]} for the markers in one test file's source."""
    tree = ast.parse(source, filename)
    constants = _string_tuples(tree)
    sequences = _module_sequences(tree)
    found: dict[str, list[str]] = {}

    def add(names: list[str] | None, test_id: str) -> None:
        for name in names or []:
            found.setdefault(name, [])
            if test_id not in found[name]:
                found[name].append(test_id)

    def visit(nodes: list[ast.stmt], prefix: str) -> None:
        for node in nodes:
            if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets
            ):
                for mark in _marks_of(node.value):
                    add(_marker_names(mark, constants), prefix.rstrip(":") or filename)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                test_id = f"{prefix}{node.name}"
                # A test expected to fail records a divergence; it covers nothing.
                label = test_id + (XFAIL if any(map(_is_xfail, node.decorator_list)) else "")
                for decorator in node.decorator_list:
                    add(_marker_names(decorator, constants), label)
                    # A table-driven test's cases: each `pytest.param` may carry its own
                    # markers, and its own xfail.
                    for case, marks in _parametrized_cases(decorator, sequences):
                        case_label = f"{test_id}[{case}]"
                        if label.endswith(XFAIL) or any(map(_is_xfail, marks)):
                            case_label += XFAIL
                        for mark in marks:
                            add(_marker_names(mark, constants), case_label)
                if isinstance(node, ast.ClassDef):
                    visit(node.body, f"{test_id}::")

    visit(tree.body, f"{filename}::")
    return found


def collect_markers(directory: str = HERE) -> dict[str, list[str]]:
    """{dm_control name: [test ids]} over every tests/differential/test_*.py."""
    markers: dict[str, list[str]] = {}
    for path in sorted(glob.glob(os.path.join(directory, "test_*.py"))):
        with open(path, encoding="utf-8") as handle:
            found = scan_markers(handle.read(), os.path.basename(path))
        for name, tests in found.items():
            markers.setdefault(name, []).extend(tests)
    return markers


# --- this project's side ---------------------------------------------------------------


def _default_text(default: Any) -> str | None:
    if default is inspect.Parameter.empty:
        return None
    return re.sub(r" at 0x[0-9a-fA-F]+", "", repr(default))


def _parameters(obj: Any) -> list[list[str | None]] | None:
    # As api_surface_dm.py: an entity class's parameters are those of its `_build`.
    build = getattr(obj, "_build", None) if isinstance(obj, type) else None
    try:
        signature = inspect.signature(build if callable(build) else obj)
    except (TypeError, ValueError):
        return None
    if callable(build):
        signature = signature.replace(parameters=list(signature.parameters.values())[1:])
    return [[p.name, p.kind.name, _default_text(p.default)] for p in signature.parameters.values()]


def _format(parameters: list) -> str:
    marks = {"VAR_POSITIONAL": "*", "VAR_KEYWORD": "**"}
    texts = []
    for name, kind, default in parameters:
        text = marks.get(kind, "") + name
        texts.append(text if default is None else f"{text}={default}")
    return "(" + ", ".join(texts) + ")"


def compare_parameters(ours: list | None, theirs: list | None) -> str:
    """ "same", or both parameter lists when names, kinds or defaults differ."""
    if theirs is None:
        return "n/a"
    if ours is None:
        return "no signature here"
    if [tuple(p) for p in ours] == [tuple(p) for p in theirs]:
        return "same"
    return f"here {_format(ours)}; dm_control {_format(theirs)}"


_CALLABLE_KINDS = ("class", "function", "method", "classmethod", "staticmethod")


def _alternatives(row: dict[str, Any], rows: dict[str, dict[str, Any]]) -> list[tuple[str, str]]:
    """(module, qualname) of the other names dm_control reaches this row by: its own
    aliases, and its owner class's (`walkers.Ant.observables` is also
    `walkers.ant.Ant.observables`)."""
    head, _, rest = row["qualname"].partition(".")
    owner = rows.get(row["module"][len("dm_control.") :] + "." + head)
    found = []
    for alias in row["aliases"]:
        module, attribute = alias.rsplit(".", 1)
        found.append(("dm_control." + module, attribute))
    if rest and owner is not None:
        for alias in owner["aliases"]:
            module, attribute = alias.rsplit(".", 1)
            found.append(("dm_control." + module, f"{attribute}.{rest}"))
    return found


def _lookup_anywhere(
    row: dict[str, Any], rows: dict[str, dict[str, Any]], table: dict[str, str]
) -> tuple[str, str]:
    """`_lookup` at the row's own name, else at the first alias that exists here."""
    here, signature = _lookup(row, table)
    if here == "yes":
        return here, signature
    for module, qualname in _alternatives(row, rows):
        alternative = dict(row, module=module, qualname=qualname)
        found, alternative_signature = _lookup(alternative, table)
        if found == "yes":
            name = module[len("dm_control.") :] + "." + qualname
            return f"only as `{name}` ({here} here)", alternative_signature
    return here, signature


def _lookup(row: dict[str, Any], table: dict[str, str]) -> tuple[str, str]:
    """(here, signature) for one surface row."""
    target = porting.map_module(row["module"], table)
    if target is None:
        return "no module mapping", "n/a"
    try:
        value: Any = importlib.import_module(target)
    except ImportError:
        return f"module {target} missing", "n/a"
    if row["kind"] == "task":
        collection, task = row["name"].split(":", 1)
        registry = getattr(value, collection.rsplit(".", 1)[-1], None)
        if registry is None:
            return "missing", "n/a"
        if collection.endswith("ALL_TASKS"):
            present = tuple(task.split(".", 1)) in {tuple(entry) for entry in registry}
        else:
            present = task in registry
        return ("yes" if present else "missing"), "n/a"
    owner: Any = None
    for part in row["qualname"].split("."):
        owner = value
        try:
            value = inspect.getattr_static(value, part)
        except AttributeError:
            return "missing", "n/a"
        if isinstance(value, (classmethod, staticmethod)):
            value = getattr(owner, part)
    if row["kind"] in _CALLABLE_KINDS:
        if not callable(value):
            return "yes", f"not callable here ({type(value).__name__})"
        return "yes", compare_parameters(_parameters(value), row["parameters"])
    if row["kind"] == "property" and callable(value) and not isinstance(value, type):
        if not hasattr(value, "__get__") or inspect.isfunction(value):
            return "yes", "a method here, a property in dm_control"
    return "yes", "n/a"


def resolve_markers(
    markers: dict[str, list[str]], rows: dict[str, dict[str, Any]]
) -> tuple[dict[str, list[str]], list[str]]:
    """Markers keyed by row name, and the marker names that name no row.

    A marker may name a row, one of its aliases, or a member inherited through a
    class (`locomotion.walkers.Ant.attach` is the row `composer.Entity.attach`)."""
    alias_of = {alias: row["name"] for row in rows.values() for alias in row["aliases"]}
    resolved: dict[str, list[str]] = {}
    unknown = []
    for name, tests in markers.items():
        target = name if name in rows else alias_of.get(name)
        if target is None and "." in name:
            owner, member = name.rsplit(".", 1)
            owner = owner if owner in rows else alias_of.get(owner, owner)
            for base in [owner, *rows.get(owner, {}).get("bases", [])]:
                if f"{base}.{member}" in rows:
                    target = f"{base}.{member}"
                    break
        if target is None:
            unknown.append(name)
            continue
        resolved.setdefault(target, []).extend(tests)
    return resolved, sorted(unknown)


def reason_for(name: str, reasons: dict[str, str] = REASONS) -> str | None:
    """The documented reason of the longest prefix of `name` in `reasons`."""
    best = None
    for prefix, reason in reasons.items():
        if name == prefix or name.startswith(prefix + ".") or name.startswith(prefix + ":"):
            if best is None or len(prefix) > len(best[0]):
                best = (prefix, reason)
    return best[1] if best else None


def load_surface(path: str = SURFACE_PATH) -> dict[str, Any]:
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def build_rows(
    surface: dict[str, Any],
    markers: dict[str, list[str]],
    reasons: dict[str, str] = REASONS,
    table: dict[str, str] | None = None,
) -> tuple[list[Row], list[str]]:
    """The table's rows, and the marker names that name no dm_control row."""
    rows = {row["name"]: row for row in surface["rows"]}
    resolved, unknown = resolve_markers(markers, rows)
    result = []
    for row in surface["rows"]:
        here, signature = _lookup_anywhere(
            row, rows, dict(table if table is not None else porting.MODULE_MAP)
        )
        result.append(
            Row(
                name=row["name"],
                kind=row["kind"],
                here=here,
                signature=signature,
                covered_by=sorted(set(resolved.get(row["name"], []))),
                reason=reason_for(row["name"], reasons),
            )
        )
    return result, unknown


def summary(rows: list[Row]) -> dict[str, int]:
    return {
        "names": len(rows),
        "here": sum(row.here == "yes" for row in rows),
        "here under another dm_control name only": sum(
            row.here.startswith("only as") for row in rows
        ),
        "signature same": sum(row.signature == "same" for row in rows),
        "signature differs": sum(row.signature not in ("same", "n/a") for row in rows),
        "covered by a test": sum(row.status == "covered" for row in rows),
        "known divergence (an xfail test records it)": sum(
            row.status == "known divergence" for row in rows
        ),
        "reason documented": sum(row.status == "reason" for row in rows),
        "unexplained": sum(row.status == "unexplained" for row in rows),
        "unexplained, here but untested": sum(
            row.status == "unexplained" and row.is_here for row in rows
        ),
        "unexplained, missing here": sum(
            row.status == "unexplained" and not row.is_here for row in rows
        ),
    }


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render(surface: dict[str, Any], rows: list[Row], unknown: list[str]) -> str:
    counts = summary(rows)
    lines = [
        "# dm_control API coverage",
        "",
        f"Every public name of dm-control {surface['dm_control']} (MuJoCo {surface['mujoco']}) "
        "that issue 32 lists, here or not, with the differential test that covers it or the "
        "reason none does. Generated by `python -m tests.differential.coverage --write` from "
        "`tests/differential/dm_control_api_surface.json` (written in the reference venv by "
        "`tests/differential/api_surface_dm.py`), `composer_tasks.porting.MODULE_MAP`, the "
        "`@pytest.mark.dm_control_api` markers of `tests/differential/test_*.py` and "
        "`tests/differential/api_reasons.py`; `tests/differential/test_coverage.py` fails when "
        "this file is stale. Do not edit it by hand.",
        "",
        "Columns: *here* is `yes` when the name exists in this project's counterpart module "
        "(or why not); *signature* compares parameter names, kinds and defaults (`n/a` for "
        "properties, constants and names missing here); *status* is `covered` (a passing "
        "test names it), `known divergence` (only tests expected to fail name it: each "
        "records a difference with its reason), `reason` (documented why no test does) or "
        "`unexplained`; the summary splits the unexplained rows into those here but untested "
        "(a test is owed) and those missing here (the name is owed first).",
        "",
        "| count | |",
        "|---|---|",
    ]
    lines += [f"| {key} | {value} |" for key, value in counts.items()]
    if unknown:
        lines += [
            "",
            "Marker names that name no dm_control row (a typo, or a name outside the "
            "enumerated surface): " + ", ".join(f"`{name}`" for name in unknown) + ".",
        ]
    lines += [
        "",
        "| name | kind | here | signature | status | covered by / reason |",
        "|---|---|---|---|---|---|",
    ]
    for row in rows:
        detail = ", ".join(f"`{test}`" for test in row.covered_by) or row.reason or ""
        lines.append(
            f"| `{row.name}` | {row.kind} | {_cell(row.here)} | {_cell(row.signature)} | "
            f"{row.status} | {_cell(detail)} |"
        )
    return "\n".join(lines) + "\n"


def generate() -> tuple[str, list[Row], list[str]]:
    """(markdown, rows, unknown marker names) from the committed inputs."""
    surface = load_surface()
    rows, unknown = build_rows(surface, collect_markers())
    return render(surface, rows, unknown), rows, unknown


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help=f"rewrite {DOC_PATH}")
    arguments = parser.parse_args(argv[1:])
    text, rows, unknown = generate()
    for key, value in summary(rows).items():
        print(f"{key}: {value}")
    if unknown:
        print("markers naming no dm_control row: " + ", ".join(unknown))
    if arguments.write:
        with open(DOC_PATH, "w", encoding="utf-8") as handle:
            handle.write(text)
        print(f"wrote {DOC_PATH}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
