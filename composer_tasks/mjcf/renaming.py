"""Renaming an attached model (PyMJCF's `model.model = "new"` after attaching).

In PyMJCF a model's name is its namespace, so renaming an attached model renames
everything in it: "rat1/torso" becomes "rat3/torso", and every reference to its
elements follows (dm_control's rodent_test attaches two rats and renames both).
Here an attached model's elements live in the root's MjSpec under their full,
prefixed names, and references between elements are names too; renaming
rewrites the old prefix to the new one in every name and name reference of the
root's spec (elements and default classes), then updates the prefixes this
package keeps for the model and those attached below it.

Tendon paths are the exception: MuJoCo keeps a wrap's target by name and offers
no way to change it. A tendon that wraps a renamed element is therefore made
anew with the same attributes and path (and so is every tendon after it, which
keeps the tendons' order); the `mujoco.MjsTendon` objects of the old ones are
deleted, so code that holds them must look them up again by name
(`spec.tendon(name)`), as `walkers.rodent.Rat` does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import mujoco

if TYPE_CHECKING:
    from composer_tasks.mjcf.root import RootElement

# MjSpec's lists of elements, all of which carry names or name references.
_ELEMENT_LISTS = (
    "bodies",
    "frames",
    "joints",
    "geoms",
    "sites",
    "cameras",
    "lights",
    "actuators",
    "sensors",
    "tendons",
    "equalities",
    "excludes",
    "pairs",
    "materials",
    "textures",
    "meshes",
    "hfields",
    "skins",
    "keys",
    "numerics",
    "texts",
    "tuples",
    "flexes",
    "plugins",
)
# Attributes that hold no element names (free text, or objects handled apart).
_NOT_NAMES = frozenset(("info", "signature", "classname", "default", "parent", "path", "file"))
# A tendon's settable attributes (MjsTendon's properties with a setter).
_TENDON_FIELDS = tuple(
    field
    for field in dir(mujoco.MjsTendon)
    if not field.startswith("_")
    and isinstance(getattr(mujoco.MjsTendon, field), property)
    and getattr(mujoco.MjsTendon, field).fset is not None
)
_GEOM_WRAPS = (mujoco.mjtWrap.mjWRAP_SPHERE, mujoco.mjtWrap.mjWRAP_CYLINDER)


def _renamed(value: str, old: str, new: str) -> str:
    return new + value[len(old) :] if value.startswith(old) else value


def _rename_fields(element: Any, old: str, new: str) -> None:
    """Rewrites `old` to `new` at the start of every string (or list of strings)
    attribute of `element`."""
    for field in dir(element):
        if field.startswith("_") or field in _NOT_NAMES:
            continue
        value = getattr(element, field)
        if isinstance(value, str):
            if value.startswith(old):
                setattr(element, field, _renamed(value, old, new))
        elif type(value).__name__ == "MjStringVec":
            strings = list(value)
            if any(s.startswith(old) for s in strings):
                setattr(element, field, [_renamed(s, old, new) for s in strings])


def _wrap_targets(spec: Any) -> list[list[str | None]]:
    """The target name of each wrap of each tendon of `spec` (None for pulleys),
    compiling `spec` first if MuJoCo has not resolved them yet (it resolves a
    wrap's target only when compiling)."""
    if any(
        wrap.target is None and wrap.type != mujoco.mjtWrap.mjWRAP_PULLEY
        for tendon in spec.tendons
        for wrap in tendon.path
    ):
        try:
            spec.compile()
        except ValueError as error:
            raise ValueError(
                f"cannot rename a model whose tendons wrap its elements while the model does "
                f"not compile (MuJoCo names a wrap's target only when compiling): {error}"
            ) from error
    return [
        [None if wrap.target is None else wrap.target.name for wrap in tendon.path]
        for tendon in spec.tendons
    ]


def _side_site(wrap: Any) -> str:
    """The name of a geom wrap's side site ("" for none)."""
    site = wrap.sidesite
    return "" if site is None else site.name


def _remake_tendons(spec: Any, old: str, new: str) -> None:
    """Makes anew, in order, the tendons from the first one whose path wraps an
    element named under `old`, with their names and path targets renamed."""
    targets = _wrap_targets(spec)
    tendons = list(spec.tendons)
    first = next(
        (
            index
            for index, names in enumerate(targets)
            if any(name is not None and name.startswith(old) for name in names)
            or any(_side_site(wrap).startswith(old) for wrap in tendons[index].path)
        ),
        None,
    )
    if first is None:
        return
    copies = []
    for tendon, names in zip(tendons[first:], targets[first:]):
        fields = {field: getattr(tendon, field) for field in _TENDON_FIELDS}
        path = [
            (wrap.type, name, wrap.coef, wrap.divisor, _side_site(wrap))
            for wrap, name in zip(tendon.path, names)
        ]
        copies.append((tendon.default(), fields, path))
    for tendon in tendons[first:]:
        spec.delete(tendon)
    for default, fields, path in copies:
        tendon = spec.add_tendon(default=default)
        for field, value in fields.items():
            setattr(tendon, field, _renamed(value, old, new) if field == "name" else value)
        for wrap_type, name, coef, divisor, sidesite in path:
            target = "" if name is None else _renamed(name, old, new)
            if wrap_type == mujoco.mjtWrap.mjWRAP_JOINT:
                tendon.wrap_joint(target, coef)
            elif wrap_type == mujoco.mjtWrap.mjWRAP_SITE:
                tendon.wrap_site(target)
            elif wrap_type in _GEOM_WRAPS:
                tendon.wrap_geom(target, _renamed(sidesite, old, new))
            elif wrap_type == mujoco.mjtWrap.mjWRAP_PULLEY:
                tendon.wrap_pulley(divisor)
            else:
                raise ValueError(
                    f"tendon {fields['name']!r} has a wrap of unknown type {wrap_type}"
                )


def _local_class_names(model: RootElement) -> set[str]:
    """The names (without any prefix) of the default classes `model` knows of."""
    names = {"main"}
    for parent, children in model._default_children.items():
        for name in (parent, *children):
            names.add(name.rsplit("/", 1)[-1])
    return names


def rename_attached(model: RootElement, name: str) -> None:
    """Renames `model`, attached to another, to `name`, with everything in it.

    Raises:
      ValueError: `name` is empty, holds "/", or names another model attached to
        the same parent.
    """
    parent = model._parent_scope
    assert parent is not None
    if not name or "/" in name:
        raise ValueError(f"a model name must be non-empty and without '/', got {name!r}")
    if name == model.model:
        return
    siblings = {sibling.model for sibling in parent._child_scopes if sibling is not model}
    if name in siblings:
        raise ValueError(
            f"cannot rename model {model.model!r} to {name!r}: another model attached to "
            f"{parent.model!r} has that name"
        )
    old = model._full_prefix()
    new = parent._full_prefix() + name + "/"
    spec = model._top_spec()
    _remake_tendons(spec, old, new)
    # Default classes first, found by their old names, for this model and those
    # attached below it.
    for scope in model._all_scopes():
        scope._written  # noqa: B018  (a parsed text's classes are read with it)
        scope_prefix = scope._full_prefix()
        for local in _local_class_names(scope):
            found = spec.find_default(scope_prefix + local)
            if found is not None:
                found.name = _renamed(found.name, old, new)
    for list_name in _ELEMENT_LISTS:
        for element in getattr(spec, list_name):
            _rename_fields(element, old, new)
            # A class this package does not list, found through an element using it.
            dclass: Any = getattr(element, "classname", None)
            if isinstance(dclass, mujoco.MjsDefault):
                class_name = str(dclass.name)
                if class_name.startswith(old):
                    dclass.name = _renamed(class_name, old, new)
    model._spec.modelname = name
    model._prefix = name + "/"
    model._update_tree()
    model._edited()
