"""Attaching one model into another at a site (PyMJCF's `site.attach(model)`).

The child's spec is attached by reference (`MjSpec.attach`) under the prefix
`child.model + "/"`, inside an attachment frame: a body of the parent named like
the prefix, at the site's pose, which holds the child's bodies. Joints added to the
frame (`frame.add("freejoint")`) move the whole child, as in PyMJCF.

As in PyMJCF, a model attached next to one of the same name is renamed `name_1`
(`name_2`, ...), compiler settings merge into the one `<compiler>` of the root, and
the child's physics options into the root's (`merge_options`).
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING, Any

import mujoco
import numpy as np

from composer_tasks.mjcf import attributes as attributes_module
from composer_tasks.mjcf import element as element_module
from composer_tasks.mjcf import namescope
from composer_tasks.mjcf.root import UNNAMED_MODEL

if TYPE_CHECKING:
    from composer_tasks.mjcf.element import Element
    from composer_tasks.mjcf.root import RootElement


def attach(where: Element, child: RootElement) -> Element:
    """Attaches model `child` at the site (or worldbody) `where`; returns the frame."""
    from composer_tasks.mjcf.root import RootElement

    if not isinstance(child, RootElement):
        raise TypeError(f"expected a mjcf.RootElement to attach, got {type(child).__name__}")
    if child._detached:
        child._check_attached_alive()
    parent = where.root
    if child is parent or child is parent._top():
        raise ValueError(
            f"Cannot merge a model to itself: model {child.model!r} is (or holds) the model "
            "it would be attached to"
        )
    if child._parent_scope is not None:
        raise ValueError(
            f"model {child.model!r} is already attached to {child._parent_scope.model!r}"
        )
    if child._spec.parent is not None:
        raise ValueError(
            f"model {child.model!r} was attached before (MuJoCo consumed its spec); build it again"
        )
    if not child.model:
        child._spec.modelname = UNNAMED_MODEL
    # The attached models' names, from their prefixes (`model + "/"`).
    original_name = child.model
    siblings = {sibling._prefix[:-1] for sibling in parent._child_scopes}
    if child.model in siblings:
        # PyMJCF's renaming: the first free `name_<n>`.
        number = 1
        while f"{child.model}_{number}" in siblings:
            number += 1
        child._spec.modelname = f"{child.model}_{number}"
    # Records from a pending parsed text are matched to the spec before attaching
    # changes it (as `remove` does): after, the text no longer matches the spec.
    for model in (*parent._top()._all_scopes(), *child._all_scopes()):
        model._written  # noqa: B018
    merge_compiler(parent._top_spec(), child)
    top = parent._top()
    before = {field: np.copy(getattr(top._spec.option, field)) for field in _MERGED_OPTION_NAMES}
    merge_options(top._spec, child._spec)
    merge_statistic(top._spec, child._spec)
    _record_merged(top, "option", before)
    merge_sizes(top, child)
    prefix = parent._full_prefix() + child.model + "/"
    frame_record: dict[str, Any] = {}
    if where.tag == "site":
        site = where._mjs
        # Fields set one by one: the bindings take add_body's keywords slower.
        body = site.parent.add_body()
        body.name = prefix
        body.pos = site.pos
        # The frame takes the site's orientation as written (euler, axis-angle, ...),
        # so MuJoCo resolves it with the root's compiler settings, as PyMJCF does.
        copy_orientation(site, body)
        # PyMJCF's frame has the site's pose attributes, as they were written.
        site_record = where._record()
        if site_record is not None:
            frame_record = {
                name: form for name, form in site_record.items() if name in _FRAME_ATTRIBUTES
            }
    else:
        body = where._mjs.add_body()
        body.name = prefix
    parent._written[body] = frame_record
    frame = body.add_frame()
    try:
        # Positionally (child, prefix, suffix, site, frame): keywords cost the bindings more.
        parent._top_spec().attach(child._spec, prefix, None, None, frame)
    except ValueError as error:
        # A failed attach leaves both models as they were.
        parent._written.pop(body, None)
        element_module.delete(parent._top_spec(), body, fresh=True)
        child._spec.modelname = original_name
        raise ValueError(
            f"MuJoCo could not attach model {original_name!r} to {where!r}: {error}"
        ) from error
    link(parent, child, body, where._mjs if where.tag == "site" else None)
    parent._edited()
    return element_module.new_handle(body, parent, "body")


# The pose attributes a site's attachment frame takes from it.
_FRAME_ATTRIBUTES = ("pos", "quat", "euler", "axisangle", "xyaxes", "zaxis")

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
    """Merges the compiler settings of model `child` with those of the root model's
    spec `top_spec`, as PyMJCF's single <compiler> does.

    A setting the child did not set takes the root's value (so a creature attached
    to an `Arena` reads its angles in radians, as in dm_control); one the child set
    and the root did not becomes the whole model's (a model in radians attached to
    one with no angle setting switches it to radians); one both set differently
    raises, as PyMJCF's conflict check. A setting counts as set when it was written
    through this API (or, for a model without that record, differs from MuJoCo's
    default). Only models authored through `composer_tasks.mjcf` (built or parsed)
    merge; specs built with MjSpec directly keep their own settings.
    """
    from composer_tasks.mjcf.root import root_of

    if len(child._spec.plugins):
        # Before anything changes: this runs ahead of every attach of a model.
        raise NotImplementedError(
            f"model {child.model!r} has plugin instances ({[p.name for p in child._spec.plugins]})"
            ": MjSpec's attach does not carry plugin instances into the model it attaches to "
            "(MuJoCo 4); declare the plugin and its instances in the root model instead"
        )
    if not child._authored:
        return
    top = root_of(top_spec)
    root_values = _compiler_values(top_spec.compiler)
    child_values = _compiler_values(child._spec.compiler)
    child_record = child._written.get(("struct", "compiler"))
    if child_values != root_values or child_record:  # else the common case: nothing to merge
        root_set = (
            _set_fields(top, root_values) if top is not None else set(_MERGED_COMPILER_FIELDS)
        )
        child_set = _set_fields(child, child_values)
        adopted = child_set - root_set
        for index, field in enumerate(_MERGED_COMPILER_FIELDS):
            child_value, root_value = child_values[index], root_values[index]
            if child_value != root_value and field in root_set and field in child_set:
                raise ValueError(
                    f"model {child.model!r} sets compiler {_MJCF_NAMES[field]}="
                    f"{_shown(field, child_value)!r} but the model it is attached to has "
                    f"{_shown(field, root_value)!r}; a model has one compiler setting"
                )
        if adopted and top is not None:
            # The child's settings become the whole model's, as if the root had set them.
            # (A root spec without a RootElement counts every field as set.)
            new_root = [
                child_values[index] if field in adopted else root_values[index]
                for index, field in enumerate(_MERGED_COMPILER_FIELDS)
            ]
            if new_root != root_values:
                for scope in top._all_scopes():
                    compiler = scope._spec.compiler
                    _write_compiler(compiler, new_root, _compiler_values(compiler))
                root_values = new_root
            record = top._written.get(("struct", "compiler"))
            if record is None and top._records_complete:
                record = top._written[("struct", "compiler")] = {}
            if record is not None:
                for field in adopted:
                    record[_MJCF_NAMES[field]] = None
    # Elements keep reading the compiler of the spec they were made in, so models
    # attached into the child earlier change along with it.
    if child_values != root_values:
        _write_compiler(child._spec.compiler, root_values, child_values)
    if child._child_scopes:
        for scope in child._all_scopes():
            values = _compiler_values(scope._spec.compiler)
            if values != root_values:
                _write_compiler(scope._spec.compiler, root_values, values)


# The MJCF attribute of each merged compiler field.
_MJCF_NAMES = {field: field for field in _MERGED_COMPILER_FIELDS} | {"degree": "angle"}


def _shown(field: str, value: Any) -> Any:
    if field == "degree":
        return "degree" if value else "radian"
    return value


def _set_fields(scope: RootElement, values: list[Any]) -> set[str]:
    """The merged compiler fields model `scope` set."""
    record = scope._written.get(("struct", "compiler"))
    if record is None and scope._records_complete:
        record = {}
    if record is not None:
        return {field for field in _MERGED_COMPILER_FIELDS if _MJCF_NAMES[field] in record}
    return {
        field
        for field, value in zip(_MERGED_COMPILER_FIELDS, values, strict=True)
        if value != _DEFAULT_COMPILER[field]
    }


def _write_compiler(compiler: Any, values: list[Any], current: list[Any]) -> None:
    """Writes the merged fields of `values` that differ from `current` into `compiler`."""
    for field, value, old in zip(_MERGED_COMPILER_FIELDS, values, current, strict=True):
        if value != old:
            setattr(compiler, field, value)


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


# PyMJCF's merge of an attached model's <option> into the root's (dm_control's
# schema.xml: conflict_behavior "min" and "max"); a <flag> the child sets applies
# to the root too (see `merge_options`).
_OPTION_MIN_FIELDS = ("timestep", "tolerance", "ls_tolerance", "noslip_tolerance", "ccd_tolerance")
_OPTION_MAX_FIELDS = (
    "iterations",
    "ls_iterations",
    "noslip_iterations",
    "ccd_iterations",
    "sdf_iterations",
    "sdf_initpoints",
)
_OPTION_KEPT_FIELDS = ("disableflags", "enableflags", "disableactuator")
_DEFAULT_OPTION = mujoco.MjSpec().option


def merge_options(top_spec: Any, child_spec: Any) -> None:
    """Merges the physics options the attached spec `child_spec` sets (those that
    differ from MuJoCo's defaults) into the root spec `top_spec`, as PyMJCF merges
    an attached model's <option>: the smaller timestep and tolerances, the larger
    iteration counts, and any other setting where the root has MuJoCo's default
    (a creature in other units brings its gravity, a flyer its air). A merged
    setting goes back to the default in the child, which the root now carries,
    so MuJoCo reports no conflict at compile time; a setting both models give
    different non-default values stays the root's (MuJoCo warns of it).

    The root's mass and inertia bounds (`compiler.boundmass`, `boundinertia`)
    also bound a child built with MjSpec that sets none, as PyMJCF's single
    <compiler> does (models authored through this API merge theirs in
    `merge_compiler`).
    """
    for bound in ("boundmass", "boundinertia"):
        if getattr(child_spec.compiler, bound) == 0 and getattr(top_spec.compiler, bound) > 0:
            setattr(child_spec.compiler, bound, getattr(top_spec.compiler, bound))
    child, root = child_spec.option, top_spec.option
    # A flag the child turns off (on) is turned off (on) in the whole model, as
    # PyMJCF merges <flag> attributes (dm_control's Duplo brick turns off native
    # convex collision this way); MjSpec's attach would drop it.
    for field in ("disableflags", "enableflags"):
        setattr(root, field, getattr(root, field) | getattr(child, field))
        setattr(child, field, 0)
    for field in dir(_DEFAULT_OPTION):
        if field.startswith("_") or field in _OPTION_KEPT_FIELDS:
            continue
        default = getattr(_DEFAULT_OPTION, field)
        if callable(default):
            continue
        child_value = getattr(child, field)
        if np.array_equal(child_value, default):
            continue
        root_value = getattr(root, field)
        if field in _OPTION_MIN_FIELDS:
            merged = min(root_value, child_value)
        elif field in _OPTION_MAX_FIELDS:
            merged = max(root_value, child_value)
        elif np.array_equal(root_value, default) or np.array_equal(root_value, child_value):
            merged = child_value
        else:
            continue
        setattr(root, field, merged)
        setattr(child, field, default)


# The <option> attributes `merge_options` may change that `model.option` reads.
_MERGED_OPTION_NAMES = tuple(
    name
    for name in attributes_module.OPTION
    if hasattr(_DEFAULT_OPTION, name) and not callable(getattr(_DEFAULT_OPTION, name))
)


def _record_merged(top: RootElement, tag: str, before: dict[str, Any]) -> None:
    """Records as set on the root model `top` the `<tag>` attributes that a merge
    changed from `before`, so that they read back as PyMJCF's merged values (a
    timestep an attached model brought reads as set on the root)."""
    struct = getattr(top._spec, tag)
    changed = [
        name for name, value in before.items() if not np.array_equal(value, getattr(struct, name))
    ]
    if not changed:
        return
    record = top._written.get(("struct", tag))
    if record is None and top._records_complete:
        record = top._written[("struct", tag)] = {}
    if record is not None:
        for name in changed:
            record[name] = None


# <size> attributes PyMJCF merges by the larger value (dm_control's schema.xml:
# conflict_behavior "max", and "max_bytes" for `memory`); -1 is MuJoCo's "unset".
_SIZE_MAX_FIELDS = ("njmax", "nconmax", "memory")


_STATISTIC_FIELDS = ("meaninertia", "meanmass", "meansize", "extent", "center")


def merge_statistic(top_spec: Any, child_spec: Any) -> None:
    """Merges the attached spec's <statistic> into the root spec's, as PyMJCF merges an
    attached model's: a value the child sets and the root does not is the root's
    from then on (MjSpec's attach drops the child's, so a walker's `meansize` would
    be lost); MuJoCo computes the values neither sets.

    Raises:
      ValueError: both set a value and they differ (PyMJCF's error).
    """
    for field in _STATISTIC_FIELDS:
        child = np.array(getattr(child_spec.stat, field), dtype=np.float64)
        if np.all(np.isnan(child.ravel()[:1])):
            continue
        root = np.array(getattr(top_spec.stat, field), dtype=np.float64)
        if np.all(np.isnan(root.ravel()[:1])):
            setattr(top_spec.stat, field, child.tolist() if child.ndim else float(child))
        elif not np.array_equal(root, child):
            raise ValueError(
                f"Conflicting values for attribute `{field}`: {root.tolist()} vs {child.tolist()}"
            )


def merge_sizes(top: RootElement, child: RootElement) -> None:
    """Gives the root model `top` and the attached model `child` the larger of their
    <size> memory and constraint counts, as PyMJCF merges an attached model's <size>
    (both then read the merged value). A merged `memory` reads as its number of bytes
    (`"1048576"` for `"1M"`), as in PyMJCF."""
    models = (top, child)
    records = []
    for model in models:
        record = model._written.get(("struct", "size"))
        if record is None and model._records_complete:
            record = model._written[("struct", "size")] = {}
        records.append(record)
    for field in _SIZE_MAX_FIELDS:
        values = [getattr(model._spec, field) for model in models]
        merged = max(values)
        if merged == -1:
            continue
        # Set on both: the number of bytes; set on one: as that one wrote it.
        form: attributes_module.WrittenForm = None
        if field == "memory":
            if -1 in values:
                setter = records[values.index(merged)]
                form = setter.get(field) if setter is not None else None
            else:
                form = str(merged)
        for model, record, value in zip(models, records, values):
            if value != merged:
                setattr(model._spec, field, merged)
            if record is not None and (value != merged or field == "memory"):
                record[field] = form


def link(parent: RootElement, child: RootElement, attachment_body: Any, site: Any = None) -> None:
    """Records that model `child` now sits in `parent`, held by `attachment_body` made
    at spec site `site` (None: at a worldbody); attaching entities uses it too."""
    child._parent_scope = parent
    child._prefix = child.model + "/"
    child._attachment_body = attachment_body
    child._attachment_site = site
    # Its place among the parent's attachments (orders frames made at one site); the
    # same in every instance built the same way, so snapshots of equal models agree.
    child._attach_number = len(parent._child_scopes)
    child._frame_place = len(parent._written)
    parent._child_scopes.append(child)
    child._update_tree()
    # The models' default classes are in the root spec under the new prefix now.
    prefix = child._full_prefix()
    for scope in child._all_scopes():
        scope._default_children = {
            prefix + name: [prefix + nested for nested in classes]
            for name, classes in scope._default_children.items()
        }
    namescope.warn_if_out_of_order(parent._top(), list(child._all_scopes()), stacklevel=5)


# Numbers attachments in the order they were made.


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
    child._attachment_site = None
    child._update_tree()


# The sections whose elements a detached model takes with it.
_DETACHED_SECTIONS = ("asset", "custom", "contact", "equality", "tendon", "actuator", "sensor")


def detach(child: RootElement) -> None:
    """Deletes `child`'s elements from the model it is attached to.

    MuJoCo deletes them with the attachment frame (a spec attaches once), so the
    detached model and its handles cannot be used again: they raise
    `RemovedElementError`, where PyMJCF's model could be attached again.
    """
    if child._parent_scope is None:
        raise RuntimeError(f"model {child.model!r} is not attached to anything")
    parent = child._parent_scope
    top = parent._top()
    for model in top._all_scopes():
        model._written  # noqa: B018  (records from a pending parsed text, before the edit)
    # The elements of the detached models that no body holds and that refer to none
    # of its bodies (assets, custom data, a clock sensor) stay when the frame goes;
    # PyMJCF's detach drops them too.
    loose = [
        handle._mjs
        for model in child._all_scopes()
        for section in _DETACHED_SECTIONS
        for handle in getattr(model, section)._own_children()
    ]
    frame = child._attachment_body
    gone: list[Any] = []
    if frame not in parent._removed:  # (else it went with a body that held it)
        gone = element_module.delete(top._spec, frame, keep_referrers=False)
        element_module.mark_removed(top, gone)
    went = set(gone)
    loose = [element for element in loose if element not in went]
    if loose:
        gone = element_module.delete(top._spec, loose, keep_referrers=False)
        element_module.mark_removed(top, gone)
    unlink(child)
    child._mark_detached()
    parent._edited()


def get_attachment_frame(model: RootElement) -> Element:
    """The attachment frame (a body handle) holding `model`.

    Raises AttributeError for a model that is not attached, as PyMJCF does.
    """
    model._check_attached_alive()
    if model._parent_scope is None:
        raise AttributeError(f"model {model.model!r} is not attached, so it has no frame")
    return element_module.Element(model._attachment_body, model._parent_scope, "body")


def get_frame_freejoint(model: RootElement) -> Element | None:
    """The free joint of the attachment frame of `model` (an attached model), or None."""
    from composer_tasks.mjcf.root import RootElement

    if not isinstance(model, RootElement):
        # AttributeError, as PyMJCF raises it for anything but a model.
        raise AttributeError(
            f"get_frame_freejoint takes the attached model (a mjcf.RootElement), got {model!r}"
        )
    return get_freejoint(get_attachment_frame(model))


def get_freejoint(element: Element) -> Element | None:
    """The free joint directly in `element` (a body), or None (also for a non-body)."""
    if element.tag != "body":
        return None
    for joint in element.spec_element.joints:
        if joint.type == mujoco.mjtJoint.mjJNT_FREE:
            return element_module.Element(joint, element.root, "freejoint")
    return None


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


def get_frame_joints(model: RootElement) -> list[Element]:
    """The joints (free joints included) of the attachment frame holding `model`, in
    order; an empty list for a frame without joints.

    Raises AttributeError for a model that is not attached, as PyMJCF does.
    """
    return get_attachment_frame(model).find_all("joint", immediate_children_only=True)
