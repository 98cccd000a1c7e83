"""Why a dm_control public name has no differential test: name or prefix -> reason.

Read by `tests/differential/coverage.py`; a prefix covers every name under it
(`"suite.wrappers.mujoco_profiling"` covers its `Wrapper.step`). Write a reason
only where it is true: a name that is an implementation detail in spite of having
no underscore, or one with no counterpart by design (say which design). A name
that merely lacks a test stays "unexplained" in the table until a test covers it.
"""

REASONS: dict[str, str] = {}
