"""Why a dm_control public name has no differential test: name or prefix -> reason.

Read by `tests/differential/coverage.py`; a prefix covers every name under it
(`"suite.wrappers.mujoco_profiling"` covers its `Wrapper.step`). Write a reason
only where it is true: a name that is an implementation detail in spite of having
no underscore, or one with no counterpart by design (say which design). A name
that merely lacks a test stays "unexplained" in the table until a test covers it.
"""

_NO_XML_TREE = (
    "returns the element as an lxml tree; PyMJCF here is an API over MjSpec with no XML "
    "tree by design (ARCHITECTURE.md decision 1); to_xml_string() gives the XML"
)
_OWN_GL_CONTEXTS = (
    "dm_control's own OpenGL and MjrContext holders; rendering here goes through "
    "MuJoCo's official mujoco.Renderer by design (ARCHITECTURE.md decision 1)"
)

REASONS: dict[str, str] = {
    "mjcf.Element.to_xml": _NO_XML_TREE,
    "mjcf.RootElement.to_xml": _NO_XML_TREE,
    "mujoco.engine.Physics.contexts": _OWN_GL_CONTEXTS,
}
