"""tutorial.ipynb runs top to bottom, is committed without outputs, and writes nothing
outside its temporary directory."""

import os

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

_REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_NOTEBOOK = os.path.join(_REPO_ROOT, "tutorial.ipynb")


def _read():
    return nbformat.read(_NOTEBOOK, as_version=4)


def test_the_committed_notebook_has_no_outputs():
    notebook = _read()
    nbformat.validate(notebook)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, cell.source[:80]


def test_the_notebook_executes(tmp_path, monkeypatch):
    # The kernel starts in an empty directory, so that anything written to the
    # working directory (MuJoCo writes MUJOCO_LOG.TXT there on warnings) shows up.
    monkeypatch.setenv(
        "PYTHONPATH", os.pathsep.join(filter(None, [_REPO_ROOT, os.environ.get("PYTHONPATH")]))
    )
    before = set(os.listdir(_REPO_ROOT))
    notebook = _read()
    client = nbclient.NotebookClient(
        notebook,
        timeout=300,
        kernel_name="python3",
        resources={"metadata": {"path": str(tmp_path)}},
    )
    client.execute()
    errors = [
        output
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.outputs
        if output.output_type == "error"
    ]
    assert not errors
    images = [
        output
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.outputs
        if "image/png" in output.get("data", {})
    ]
    assert len(images) >= 8
    videos = [
        output
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.outputs
        if "<video" in output.get("data", {}).get("text/html", "")
    ]
    assert len(videos) == 1
    assert os.listdir(tmp_path) == []
    assert set(os.listdir(_REPO_ROOT)) == before
