"""Attaching one model into another at a site (PyMJCF's `site.attach(model)`).

The child's spec is attached by reference (`MjSpec.attach`) under the prefix
`child.model + "/"`, inside an attachment frame: a body of the parent named like
the prefix, at the site's pose, which holds the child's bodies. Joints added to the
frame (`frame.add("freejoint")`) move the whole child, as in PyMJCF.
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING, Any

import mujoco

from composer_tasks.mjcf import attributes as attributes_module
from composer_tasks.mjcf import element as element_module

if TYPE_CHECKING:
    from composer_tasks.mjcf.element import Element
    from composer_tasks.mjcf.root import RootElement


# PyMJCF's name for a model attached without a name.
_UNNAMED_MODEL = "unnamed_model"


def attach(where: Element, child: RootElement) -> Element:
    """Attaches model `child` at the site (or worldbody) `where`; returns the frame."""
    from composer_tasks.mjcf.root import RootElement

    if not isinstance(child, RootElement):
        raise TypeError(f"expected a mjcf.RootElement to attach, got {type(child).__name__}")
    parent = where.root
    if child is parent or child is parent._top():
        raise ValueError("cannot attach a model to itself")
    if child._parent_scope is not None:
        raise ValueError(
            f"model {child.model!r} is already attached to {child._parent_scope.model!r}"
        )
    if child._spec.parent is not None:
        raise ValueError(
            f"model {child.model!r} was attached before (MuJoCo consumed its spec); build it again"
        )
    if not child.model:
        child._spec.modelname = _UNNAMED_MODEL
    child_prefix = child.model + "/"
    for sibling in parent._child_scopes:
        if sibling._prefix == child_prefix:
            raise ValueError(
                f"model {parent.model!r} already has an attached model named {child.model!r}"
            )
    prefix = parent._full_prefix() + child.model + "/"
    if where.tag == "site":
        site = where._mjs
        # Fields set one by one: the bindings take add_body's keywords slower.
        body = site.parent.add_body()
        body.name = prefix
        body.pos = site.pos
        # The frame takes the site's orientation as written (euler, axis-angle, ...),
        # so MuJoCo resolves it with the root's compiler settings, as PyMJCF does.
        copy_orientation(site, body)
    else:
        body = where._mjs.add_body()
        body.name = prefix
    frame = body.add_frame()
    merge_compiler(parent._top_spec(), child)
    # Positionally (child, prefix, suffix, site, frame): keywords cost the bindings more.
    parent._top_spec().attach(child._spec, prefix, None, None, frame)
    link(parent, child, body)
    parent._edited()
    return element_module.new_handle(body, parent, "body")


# Compiler settings that PyMJCF takes from the root model for the whole model
# (its MJCF text has one <compiler>); MjSpec keeps them per attached spec.
_MERGED_COMPILER_FIELDS = (
    "degree",
    "eulerseq",
    "boundmass",
    "boundinertia",
    "balanceinertia",
    "inertiafromgeom",
    "autolimits",
)


def merge_compiler(top_spec: Any, child: RootElement) -> None:
    """Gives model `child` the root's compiler settings, as PyMJCF's single <compiler> does.

    Settings the child left at MuJoCo's defaults take the root's value (so a creature
    attached to an `Arena` reads its angles in radians, as in dm_control); a setting
    the child changed that differs from the root's raises, as PyMJCF's conflict check.
    Only models authored through `composer_tasks.mjcf` (built or parsed) merge; specs
    built with MjSpec directly keep their own settings.
    """
    if not child._authored:
        return
    root_values = _compiler_values(top_spec.compiler)
    # Elements keep reading the compiler of the spec they were made in, so models
    # attached into the child earlier change along with it.
    scopes = [child]
    for scope in scopes:
        scopes.extend(scope._child_scopes)
    for scope in scopes:
        compiler = scope._spec.compiler
        values = _compiler_values(compiler)
        if values == root_values:  # the common case: nothing to merge
            continue
        for field, child_value, root_value in zip(_MERGED_COMPILER_FIELDS, values, root_values):
            if child_value == root_value:
                continue
            if child_value != _DEFAULT_COMPILER[field] and scope is child:
                raise ValueError(
                    f"model {child.model!r} sets compiler {field}={child_value!r} but the model "
                    f"it is attached to has {root_value!r}; a model has one compiler setting"
                )
            setattr(compiler, field, root_value)


_READ_MERGED_COMPILER_FIELDS = operator.attrgetter(*_MERGED_COMPILER_FIELDS)
_EULERSEQ = _MERGED_COMPILER_FIELDS.index("eulerseq")


def _compiler_values(compiler: Any) -> list[Any]:
    """The merged fields of an `MjsCompiler`, comparably (in `_MERGED_COMPILER_FIELDS`'
    order), read in one call."""
    values = list(_READ_MERGED_COMPILER_FIELDS(compiler))
    # MjSpec gives the Euler sequence as a vector of characters.
    values[_EULERSEQ] = attributes_module.text(values[_EULERSEQ])
    return values


_DEFAULT_COMPILER = dict(
    zip(_MERGED_COMPILER_FIELDS, _compiler_values(mujoco.MjSpec().compiler), strict=True)
)


def link(parent: RootElement, child: RootElement, attachment_body: Any) -> None:
    """Records that model `child` now sits in `parent`, held by `attachment_body`
    (attaching entities uses it too)."""
    child._parent_scope = parent
    child._prefix = child.model + "/"
    child._attachment_body = attachment_body
    parent._child_scopes.append(child)
    child._update_tree()


def unlink(child: RootElement) -> None:
    """Forgets that `child` is attached (its parent scope and attachment body).

    Raises:
      RuntimeError: `child` is not attached to anything.
    """
    if child._parent_scope is None:
        raise RuntimeError(f"model {child.model!r} is not attached to anything")
    child._parent_scope._child_scopes.remove(child)
    child._parent_scope = None
    child._attachment_body = None
    child._update_tree()


def detach(child: RootElement) -> None:
    """Deletes `child`'s elements from the model it is attached to."""
    if child._parent_scope is None:
        raise RuntimeError(f"model {child.model!r} is not attached to anything")
    parent = child._parent_scope
    parent._top_spec().delete(child._attachment_body)
    unlink(child)
    parent._edited()


def get_attachment_frame(model: RootElement) -> Element | None:
    """The attachment frame (a body handle) holding `model`, or None if unattached."""
    if model._parent_scope is None:
        return None
    return element_module.Element(model._attachment_body, model._parent_scope, "body")


def get_frame_freejoint(frame: Element) -> Element | None:
    """The free joint of an attachment frame, or None."""
    for joint in frame._mjs.joints:
        if joint.type == mujoco.mjtJoint.mjJNT_FREE:
            return element_module.Element(joint, frame.root, "freejoint")
    return None


def get_freejoint(element: Element) -> Element | None:
    """The free joint directly in `element` (a body), or None."""
    return get_frame_freejoint(element)


def copy_orientation(source: Any, target: Any) -> None:
    """Gives `target` (a body) the orientation of `source` (a site or frame) as written:
    its quaternion, or the alternative (euler, axis-angle, ...) its `alt.type` names,
    the only one MuJoCo reads."""
    alt = source.alt
    kind = alt.type
    if kind == mujoco.mjtOrientation.mjORIENTATION_QUAT:
        target.quat = source.quat  # the setter copies the values
        return
    target_alt = target.alt
    target_alt.type = kind
    field = _ALTERNATIVE_FIELDS[kind]
    setattr(target_alt, field, getattr(alt, field))


# The field of `MjsOrientation` each alternative orientation type is written in.
_ALTERNATIVE_FIELDS = {
    mujoco.mjtOrientation.mjORIENTATION_EULER: "euler",
    mujoco.mjtOrientation.mjORIENTATION_AXISANGLE: "axisangle",
    mujoco.mjtOrientation.mjORIENTATION_XYAXES: "xyaxes",
    mujoco.mjtOrientation.mjORIENTATION_ZAXIS: "zaxis",
}
