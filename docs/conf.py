"""Sphinx configuration: the narrative documents of docs/ as chapters, and an API
reference generated from the docstrings of composer_tasks, suites and agents.

Build (CI runs the same, warnings as errors):
    python -m sphinx -W --keep-going -b html docs docs/_build/html
"""

import io
import os
import sys

import docutils.core

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import composer_tasks  # noqa: E402  (after the path above, so the checkout is documented)

project = "composer_tasks"
version = release = composer_tasks.__version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.napoleon",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build"]

autosummary_generate = True
autosummary_imported_members = False
autodoc_default_options = {"members": True, "show-inheritance": True}
autodoc_member_order = "bysource"
autodoc_typehints = "none"
napoleon_google_docstring = True
napoleon_numpy_docstring = False
# "Attributes:" sections become fields of their class, not second descriptions of
# the members autodoc documents already.
napoleon_use_ivar = True
# A "Returns:" section's "names: text" is prose, not a type to cross-reference.
napoleon_use_rtype = False

myst_heading_anchors = 3
# The chapters link to files beside the documentation (README.md, benchmarks/,
# examples/, source files), which are not pages of this book: those links stay as
# written for readers of the repository, and are not cross-references here.
suppress_warnings = ["myst.xref_missing"]

html_theme = "alabaster"
html_static_path: list[str] = []
html_title = f"composer_tasks {release}"


def _parses_cleanly(text: str) -> bool:
    """Whether docutils reads `text` as reStructuredText without a warning."""
    stream = io.StringIO()
    try:
        docutils.core.publish_doctree(
            text,
            settings_overrides={"report_level": 2, "halt_level": 5, "warning_stream": stream},
        )
    except Exception:  # noqa: BLE001  (a directive of Sphinx's needs its build environment)
        return False
    return not stream.getvalue()


# Docstrings as written, by (object type, name), kept before napoleon rewrites them.
_written: dict[tuple[str, str], list[str]] = {}


def _keep_as_written(app, what, name, obj, options, lines) -> None:
    _written[(what, name)] = list(lines)


def _verbatim_unless_rest(app, what, name, obj, options, lines) -> None:
    """Shows a docstring as written when napoleon's reading of it is not valid
    reStructuredText.

    The docstrings are written to be read as plain text (in `help()`, an editor):
    Google-style sections, which napoleon renders, around prose with ASCII
    formulas (`|x|`, `a*b`) and aligned tables that reStructuredText would misread.
    Such a docstring is shown verbatim, as a literal block, rather than mangled;
    the others are rendered by napoleon as usual.
    """
    if not lines or _parses_cleanly("\n".join(lines)):
        return
    original = _written.get((what, name), list(lines))
    lines[:] = ["::", ""] + [f"    {line}" if line else "" for line in original]


def setup(app) -> None:
    # Napoleon rewrites the docstring at priority 500: keep the text before, check
    # the result after.
    app.connect("autodoc-process-docstring", _keep_as_written, priority=400)
    app.connect("autodoc-process-docstring", _verbatim_unless_rest, priority=600)
