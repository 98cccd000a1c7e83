"""The README's Python example runs as written."""

import os
import re

_README = os.path.join(os.path.dirname(os.path.dirname(__file__)), "README.md")


def test_readme_python_blocks_run():
    with open(_README) as handle:
        blocks = re.findall(r"```python\n(.*?)```", handle.read(), flags=re.S)
    assert blocks
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})
