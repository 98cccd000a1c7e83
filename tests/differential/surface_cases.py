"""Table-driven differential tests of dm_control's public surface: one program per
test module runs every case on both sides once, and each case is its own test.

A surface program starts with `PRELUDE`, which defines `case(name)`: a decorator
that runs the decorated function at once with `put(key, value)`, recording
`name/key`, and records `name/raised` (the exception's class and message) when
the function raises, so one failing case leaves the others' records intact.
`assert_case` then fails a test when dm_control recorded nothing for its case,
when either side raised in it, or when any of its values differ.
"""

from __future__ import annotations

from tests.differential.harness import Comparison

PRELUDE = """
def case(name):
    def run(function):
        def put(key, value):
            record(f"{name}/{key}", value)
        try:
            function(put)
        except Exception as error:
            record(f"{name}/raised", f"{type(error).__name__}: {error}")
        return function
    return run

"""


def assert_case(comparison: Comparison, name: str) -> None:
    """Fails listing the case's differences, or saying that it recorded nothing."""
    prefix = name + "/"
    theirs = [key for key, _ in comparison.theirs.records if key.startswith(prefix)]
    if not theirs:
        raise AssertionError(
            f"dm_control recorded nothing for case {name!r}"
            + (
                f"; its program failed:\n{comparison.theirs.error}"
                if comparison.theirs.error
                else ""
            )
        )
    problems = [str(d) for d in comparison.differences if d.key.startswith(prefix)]
    for side, records in (
        ("here", comparison.ours.records),
        ("dm_control", comparison.theirs.records),
    ):
        raised = dict(records).get(prefix + "raised")
        if raised is not None:
            problems.append(f"case {name!r} raised {side}: {raised}")
    if problems:
        raise AssertionError(
            f"case {name!r}: {len(problems)} problems in {len(theirs)} dm_control values\n"
            + "\n".join(problems)
        )
