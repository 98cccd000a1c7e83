"""`RootElement.remove`: empties a model, as PyMJCF's `remove` of the root element
does (dm_control/mjcf/element.py): every body, section element and nested default
class goes, and every setting (compiler, option, size, statistic, visual, the top
default class) is unset again.

MjSpec has no "unset" state for a value: an unset setting is given MuJoCo's default
(the value a fresh `MjSpec` has) and its record of being written is dropped, so it
reads None again, as in PyMJCF, and compiles as MuJoCo's default.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from composer_tasks.mjcf.root import RootElement

_SECTIONS = (
    "asset",
    "deformable",
    "contact",
    "tendon",
    "equality",
    "actuator",
    "sensor",
    "custom",
    "keyframe",
)
_SETTINGS = ("compiler", "option", "size", "statistic")
_VISUAL_PARTS = ("global_", "quality", "headlight", "map", "scale", "rgba")


def remove_model(model: RootElement, affect_attachments: bool) -> None:
    """Empties `model` (see the module docstring).

    Raises:
      ValueError: models are attached to `model` and not `affect_attachments` (the
        message is PyMJCF's). With it, the attached models go with their frames
        (here they are detached, as removing a frame's body detaches them).
    """
    from composer_tasks.mjcf import defaults as defaults_module
    from composer_tasks.mjcf.copying import nested_classes
    from composer_tasks.mjcf.root import RootElement

    if model._detached:
        model._check_attached_alive()
    if model._child_scopes and not affect_attachments:
        raise ValueError(
            "please use remove(affect_attachments=True) as this will affect some attributes "
            "and/or children belonging to an attached model"
        )
    for child in model.worldbody.all_children():
        if not child.is_removed:
            child.remove(affect_attachments=True)
    for tag in _SECTIONS:
        for element in getattr(model, tag)._own_children():
            if not element.is_removed:
                element.remove(affect_attachments=True)
    spec = model._top_spec()
    pending = nested_classes(model.default)
    while pending:
        cls = pending.pop()
        pending.extend(nested_classes(cls))
        spec.delete(cls._mjs)
    model._default_children.clear()
    fresh = RootElement(model=model.model)
    records = model._written
    for tag in defaults_module._DEFAULT_TAGS:
        _unset(getattr(model.default, tag), getattr(fresh.default, tag), tag_table=True)
    for key in [key for key in records if isinstance(key, tuple) and key[:1] == ("default",)]:
        del records[key]
    if model._parent_scope is None:  # an attached model's settings are its root's
        for tag in _SETTINGS:
            _unset(getattr(model, tag), getattr(fresh, tag), tag_table=False)
        # The <flag> settings are bits of two option fields.
        spec.option.disableflags = fresh.spec.option.disableflags
        spec.option.enableflags = fresh.spec.option.enableflags
        for part in _VISUAL_PARTS:
            _unset(getattr(model.visual, part), getattr(fresh.visual, part), tag_table=False)
        for key in [key for key in records if isinstance(key, tuple) and key[:1] == ("struct",)]:
            del records[key]
    model._edited()


def _unset(target: Any, fresh: Any, tag_table: bool) -> None:
    """Gives every attribute of `target` (a settings struct, or a tag's defaults) the
    value it has in `fresh` (the same struct of a new model)."""
    from composer_tasks.mjcf import attributes as attributes_module

    table = target._table() if tag_table else target._table
    for attribute in table.values():
        source, destination = attribute.target(fresh), attribute.target(target)
        for field in attribute.written_fields:
            # (An orientation attribute names fields a class's struct does not have: it
            # cannot be set there, so there is nothing to unset.)
            if hasattr(source, field):
                value = attributes_module._copied(getattr(source, field))
                setattr(destination, field, value)
