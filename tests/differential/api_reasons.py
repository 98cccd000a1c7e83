"""Why a dm_control public name has no differential test: name or prefix -> reason.

Read by `tests/differential/coverage.py`; a prefix covers every name under it
(`"suite.wrappers.mujoco_profiling"` covers its `Wrapper.step`). Write a reason
only where it is true: a name that is an implementation detail in spite of having
no underscore, or one with no counterpart by design (say which design). A name
that merely lacks a test stays "unexplained" in the table until a test covers it.
"""

_OWN_GL_CONTEXTS = (
    "dm_control's own OpenGL and MjrContext holders; rendering here goes through "
    "MuJoCo's official mujoco.Renderer by design (ARCHITECTURE.md decision 1)"
)

_DEBUG_STACKS = (
    "the Python stacks that PyMJCF's debug mode (mjcf.debugging) keeps for each element and "
    "attribute of its XML tree; PyMJCF here is an API over MjSpec with no XML tree by design "
    "(ARCHITECTURE.md decision 1), and a model that fails to compile names the element, its "
    "entity and the Python line that created it instead (ARCHITECTURE.md, Errors)"
)
_SCHEMA_SPEC = (
    "dm_control's `spec` is the element's entry in its MJCF XML schema (a schema.ElementSpec "
    "object of its XML object model); elements here are handles over MjSpec elements, with no "
    "schema objects by design (ARCHITECTURE.md decision 1: no XML DOM, the MjSpec is the one "
    "source of truth), so `RootElement.spec` here is the mujoco.MjSpec itself"
)

REASONS: dict[str, str] = {
    "mjcf.Element.get_init_stack": _DEBUG_STACKS,
    "mjcf.Element.get_last_modified_stacks_for_all_attributes": _DEBUG_STACKS,
    "mjcf.RootElement.get_init_stack": _DEBUG_STACKS,
    "mjcf.RootElement.get_last_modified_stacks_for_all_attributes": _DEBUG_STACKS,
    "mjcf.Element.spec": _SCHEMA_SPEC,
    "mjcf.RootElement.spec": _SCHEMA_SPEC,
    "mujoco.engine.Physics.contexts": _OWN_GL_CONTEXTS,
    "locomotion.tasks.reference_pose.mocap_playback.main": (
        "a command-line entry point that opens dm_control.viewer's interactive window; "
        "dm_control.viewer's application has no counterpart by design (composer_tasks.viewer "
        "is its own, out of scope in tests/differential/dm_control_tests.py; only "
        "`viewer.launch` ports), so `main` here opens composer_tasks.viewer on the same "
        "`mocap_playback_env`, which is compared"
    ),
    # The type of `Physics.contexts` (its `gl` and `mujoco` holders): the same design.
    "mujoco.engine.Contexts": _OWN_GL_CONTEXTS,
}
