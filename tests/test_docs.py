"""Every ```python block of README.md and docs/*.md runs, each file's blocks in order
in one namespace, headless and with no environment variable set by hand.

Sybil finds the blocks (its Markdown code-block parser, which takes a block whose
info string is exactly `python`); one test per document runs them all, so that a
block may use the names of the blocks before it and pytest-xdist never splits a
document across processes. A block that cannot run in CI (a window, hours of
training) is fenced as ```python no-ci and the text just above it says how long it
takes or what it needs; `test_blocks_not_run_say_why` holds every document to that.
"""

import importlib
import importlib.util
import inspect
import os
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import pytest
from sybil import Sybil
from sybil.parsers.markdown import PythonCodeBlockParser

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md")])
# The info string of a Python block that CI does not run.
NOT_RUN = "python no-ci"
# Words that say how long a block takes or why it cannot run headless.
_WHY_NOT_RUN = re.compile(r"\b(minutes?|hours?|seconds|window|display|GPU)\b")
_FENCE = re.compile(r"^```([^\n`]*)$", re.MULTILINE)

_RUNNER = """
import sys
from pathlib import Path
from sybil import Sybil
from sybil.parsers.markdown import PythonCodeBlockParser

document = Sybil(parsers=[PythonCodeBlockParser()]).parse(Path(sys.argv[1]))
for example in document:
    example.evaluate()
print(f"ran {len(list(document))} blocks")
"""


def _python_documents() -> list[Path]:
    parser = Sybil(parsers=[PythonCodeBlockParser()])
    return [path for path in DOCUMENTS if list(parser.parse(path))]


def test_every_document_is_checked():
    # A new document is picked up by the glob; this guards the glob itself.
    names = {path.name for path in DOCUMENTS}
    assert {"README.md", "composer.md", "batch.md", "observables.md", "variations.md"} <= names


@pytest.mark.parametrize("path", _python_documents(), ids=lambda path: path.name)
def test_python_blocks_run_in_order(path, tmp_path):
    # A fresh interpreter per document, in a scratch directory (blocks write videos
    # and runs), with the environment of a user's shell: no MUJOCO_GL, no DISPLAY.
    environment = {
        name: value
        for name, value in os.environ.items()
        if name not in ("MUJOCO_GL", "PYOPENGL_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY")
    }
    environment["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT), *filter(None, [environment.get("PYTHONPATH")])]
    )
    completed = subprocess.run(
        [sys.executable, "-c", _RUNNER, str(path)],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert completed.returncode == 0, (
        f"{path.name}: a python block failed\n{completed.stdout[-4000:]}"
        f"\n{completed.stderr[-8000:]}"
    )
    # The blocks' own output comes first; the runner's count is the last line.
    assert completed.stdout.strip().splitlines()[-1].startswith("ran ")


def test_blocks_not_run_say_why():
    for path in DOCUMENTS:
        text = path.read_text()
        fences = list(_FENCE.finditer(text))
        # Fences alternate opening and closing; only openings carry an info string.
        for opening in fences[::2]:
            info = opening.group(1).strip()
            if not info.startswith("python") or info == "python":
                continue
            assert info == NOT_RUN, (
                f"{path.name}: block fenced ```{info}; a Python block is ```python "
                f"(run in CI) or ```{NOT_RUN}"
            )
            before = text[max(0, opening.start() - 400) : opening.start()]
            assert _WHY_NOT_RUN.search(before), (
                f"{path.name}: the text above the ```{NOT_RUN} block at offset "
                f"{opening.start()} does not say how long it takes or what it needs"
            )


def test_fence_check_catches_an_unexplained_block(tmp_path, monkeypatch):
    document = tmp_path / "bad.md"
    document.write_text("Some text.\n\n```python no-ci\nprint(1)\n```\n")
    monkeypatch.setattr(sys.modules[__name__], "DOCUMENTS", [document])
    with pytest.raises(AssertionError, match="does not say how long"):
        test_blocks_not_run_say_why()
    document.write_text("Text.\n\n```python skip\nprint(1)\n```\n")
    with pytest.raises(AssertionError, match="fenced ```python skip"):
        test_blocks_not_run_say_why()


def test_a_failing_block_fails_its_document(tmp_path):
    document = tmp_path / "bad.md"
    document.write_text("```python\nx = 1\n```\n\n```python\nassert x == 2, 'x is 1'\n```\n")
    with pytest.raises(AssertionError, match="x is 1"):
        test_python_blocks_run_in_order(document, tmp_path)


PACKAGES = ("composer_tasks", "suites", "agents")


def public_names_without_docstring(package_names=PACKAGES) -> tuple[int, list[str]]:
    """Every public module of the packages and every public class and function a
    module defines (the names the API reference lists); returns how many were
    checked and those without a docstring."""
    checked, missing = 0, []
    for package_name in package_names:
        package = importlib.import_module(package_name)
        module_names = [package_name] + [
            info.name for info in pkgutil.walk_packages(package.__path__, f"{package_name}.")
        ]
        for module_name in module_names:
            if any(part.startswith("_") for part in module_name.split(".")[1:]):
                continue
            module = importlib.import_module(module_name)
            checked += 1
            if not inspect.getdoc(module):
                missing.append(module_name)
            for name, value in vars(module).items():
                if name.startswith("_") or getattr(value, "__module__", None) != module_name:
                    continue
                if inspect.isclass(value) or inspect.isfunction(value):
                    checked += 1
                    if not (value.__doc__ or "").strip():
                        missing.append(f"{module_name}.{name}")
    return checked, missing


def test_every_public_name_has_a_docstring():
    checked, missing = public_names_without_docstring()
    assert checked > 500
    assert not missing, f"public names without a docstring: {missing}"


def test_docstring_check_finds_a_missing_docstring(tmp_path, monkeypatch):
    package = tmp_path / "undocumented_package"
    package.mkdir()
    (package / "__init__.py").write_text('"""A package."""\n')
    (package / "module.py").write_text('"""A module."""\n\n\ndef bare():\n    return 1\n')
    monkeypatch.syspath_prepend(str(tmp_path))
    checked, missing = public_names_without_docstring(("undocumented_package",))
    assert checked == 3 and missing == ["undocumented_package.module.bare"]


def test_api_reference_lists_the_three_packages():
    text = (ROOT / "docs" / "api.rst").read_text()
    assert all(f"   {package}\n" in text for package in PACKAGES) and ":recursive:" in text


def _sphinx_conf():
    spec = importlib.util.spec_from_file_location("docs_conf", ROOT / "docs" / "conf.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_api_reference_shows_a_non_rest_docstring_verbatim():
    conf = _sphinx_conf()
    valid = ["One line.", "", "Args:", "  x: metres."]
    lines = list(valid)
    conf._verbatim_unless_rest(None, "function", "f", None, {}, lines)
    assert lines == valid
    # The check reads napoleon's output; the fallback shows the docstring as written.
    formula = ["The norm |x| of *x, as written.", "   indented", "unindented"]
    conf._keep_as_written(None, "function", "g", None, {}, list(formula))
    lines = [*formula, "", ":returns: the norm"]
    conf._verbatim_unless_rest(None, "function", "g", None, {}, lines)
    assert lines == ["::", "", *(f"    {line}" for line in formula)]


@pytest.mark.slow
def test_api_reference_builds_without_a_warning(tmp_path):
    # The README's command with the output elsewhere; 2-5 minutes on two cores.
    completed = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "-b", "html", "docs", str(tmp_path / "html")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert completed.returncode == 0, completed.stderr[-4000:]
    assert (tmp_path / "html" / "api" / "composer_tasks.props.html").exists()
