"""File access under dm_control's resource names (dm_control's `utils.io`, 1.0.50).

dm_control routes its file reads through these so that a build system can swap in
another resource loader; in its open-source release, as here, a resource name is
a file path.

    from composer_tasks.utils import io as resources

    xml_bytes = resources.GetResource("model.xml")          # bytes
    text = resources.GetResource("model.xml", mode="r")     # str
"""

import os
from collections.abc import Iterator
from typing import Any

# dm_control's names are CamelCase (Google's resource-loader API).
# ruff: noqa: N802


def GetResource(name: str | os.PathLike, mode: str = "rb") -> Any:
    """The whole content of file `name`: bytes in mode "rb" (the default), str in "r".

    Raises:
      FileNotFoundError: there is no such file.
    """
    with open(name, mode=mode) as resource:
        return resource.read()


def GetResourceFilename(name: str | os.PathLike, mode: str = "rb") -> str | os.PathLike:
    """The path of resource `name`: `name` itself (`mode` is accepted and unused, as
    in dm_control)."""
    del mode
    return name


def WalkResources(path: str | os.PathLike) -> Iterator[tuple[str, list[str], list[str]]]:
    """`os.walk(path)`: (folder, subfolders, files) for every folder under `path`."""
    return os.walk(path)


# A resource opened as a file object: the built-in `open`, as in dm_control.
GetResourceAsFile = open
