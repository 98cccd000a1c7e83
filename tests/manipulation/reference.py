"""Reads the facts recorded from dm-control 1.0.50 by make_reference.py."""

import functools
import json
import os

_PATH = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "reference", "manipulation_reference.json"
)


@functools.lru_cache(maxsize=None)
def facts():
    with open(_PATH) as f:
        return json.load(f)
