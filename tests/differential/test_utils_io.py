"""`utils.io` against dm_control's: reading, naming and walking resources in a
temporary folder, and the errors for missing ones."""

import pytest

_PROGRAM = """
import os
import tempfile
from dm_control.utils import io as resources

with tempfile.TemporaryDirectory() as root:
    os.makedirs(os.path.join(root, "models", "assets"))
    for relative, content in (("models/arm.xml", "<mujoco model='arm'/>\\n"),
                              ("models/assets/grid.png", "\\x89PNG-ish"),
                              ("notes.txt", "caf\\u00e9\\n")):
        with open(os.path.join(root, relative), "w", encoding="utf-8") as file:
            file.write(content)
    arm = os.path.join(root, "models", "arm.xml")
    check("bytes", lambda: repr(resources.GetResource(arm)))
    check("text", lambda: resources.GetResource(arm, mode="r"))
    check("text_utf8", lambda: repr(resources.GetResource(os.path.join(root, "notes.txt"))))
    check("filename", lambda: resources.GetResourceFilename(arm) == arm)
    check("filename_mode", lambda: resources.GetResourceFilename(arm, "r") == arm)
    check("filename_missing", lambda: resources.GetResourceFilename("no/such/file"))
    check("missing", resources.GetResource, os.path.join(root, "missing.xml"))
    check("folder", resources.GetResource, os.path.join(root, "models"))
    check("bad_mode", resources.GetResource, arm, "q")

    def walk():
        return sorted(
            (os.path.relpath(folder, root), sorted(folders), sorted(files))
            for folder, folders, files in resources.WalkResources(root)
        )

    check("walk", walk)
    check("walk_missing", lambda: list(resources.WalkResources(os.path.join(root, "nope"))))

    def as_file():
        with resources.GetResourceAsFile(arm) as file:
            return file.read()

    check("as_file", as_file)
    check("as_file_missing", resources.GetResourceAsFile, os.path.join(root, "missing.xml"))
"""


@pytest.mark.dm_control_api(
    "utils.io.GetResource", "utils.io.GetResourceFilename", "utils.io.WalkResources"
)
def test_resources_match_dm_control(differential):
    differential.assert_same(_PROGRAM, "utils_io")
