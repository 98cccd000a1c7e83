"""A whole model as MJCF text in PyMJCF's form, written from the handles.

dm_control's `model.to_xml_string()` writes its XML tree without compiling: the
attributes that were set (numbers with 17 significant digits), each element named
by its `full_identifier` when it has no name (`//unnamed_geom_0`), the model's top
default class written `class="/"` and each attached model's classes, elements and
attachment frame under its prefix (`child/`), the empty sections left out. This
module writes the same text from this package's handles (the elements' own
`to_xml_string` writes each element of it: `element_api._xml_tree`), for the global
settings, the default classes, the sections and the model.

A model with parts made with MjSpec directly (walkers, arenas, props here are built
that way) has no record of which attributes were set; those parts would read every
attribute as set. `pymjcf_written` says whether a model is made only of handles'
work; `RootElement.to_xml_string` writes such a model here and any other with
MuJoCo's writer (`parser.to_xml_string`).
"""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from typing import TYPE_CHECKING, Any

import numpy as np

from composer_tasks.mjcf import attributes as attributes_module
from composer_tasks.mjcf import element_api

if TYPE_CHECKING:
    from composer_tasks.mjcf.defaults import DefaultClass
    from composer_tasks.mjcf.root import RootElement

# The attributes of the global settings in PyMJCF's order (dm_control/mjcf/schema.xml).
_SETTINGS_ORDER_TEXT = {
    "compiler": "autolimits boundmass boundinertia settotalmass balanceinertia strippath "
    "coordinate angle fitaabb eulerseq meshdir texturedir discardvisual usethread fusestatic "
    "inertiafromgeom inertiagrouprange saveinertial savecompiled savecanonical assetdir "
    "alignfree",
    "option": "timestep impratio tolerance ls_tolerance noslip_tolerance ccd_tolerance "
    "sleep_tolerance gravity wind magnetic density viscosity o_margin o_solref o_solimp "
    "o_friction integrator cone jacobian solver iterations ls_iterations noslip_iterations "
    "ccd_iterations sdf_iterations sdf_initpoints actuatorgroupdisable",
    "flag": "constraint equality frictionloss limit contact spring damper gravity clampctrl "
    "warmstart filterparent actuation refsafe sensor midphase eulerdamp autoreset nativeccd "
    "island multiccd override energy fwdinv invdiscrete sleep diagexact ipc",
    "size": "memory njmax nconmax nstack nuserdata nkey nuser_body nuser_jnt nuser_geom "
    "nuser_site nuser_cam nuser_tendon nuser_actuator nuser_sensor",
    "statistic": "meaninertia meanmass meansize extent center",
    "global": "cameraid orthographic fovy ipd azimuth elevation linewidth glow offwidth "
    "offheight realtime ellipsoidinertia bvactive",
    "quality": "shadowsize offsamples numslices numstacks numquads",
    "headlight": "ambient diffuse specular active",
    "map": "stiffness stiffnessrot force torque alpha fogstart fogend znear zfar haze "
    "shadowclip shadowscale actuatortendon",
    "scale": "forcewidth contactwidth contactheight connect com camera light selectpoint "
    "jointlength jointwidth actuatorlength actuatorwidth framelength framewidth constraint "
    "slidercrank frustum",
    "rgba": "fog haze force inertia joint actuator actuatornegative actuatorpositive com "
    "camera light selectpoint connect contactpoint contactforce contactfriction "
    "contacttorque contactgap rangefinder constraint slidercrank crankbroken frustum bv "
    "bvactive",
}
_SETTINGS_ORDER = {
    tag: {name: place for place, name in enumerate(text.split())}
    for tag, text in _SETTINGS_ORDER_TEXT.items()
}
# The compiler's folders, which PyMJCF does not write: its files are written by
# their names in the virtual file system, from no folder.
_FOLDERS = ("meshdir", "texturedir", "assetdir")
_VISUAL_PARTS = ("global", "quality", "headlight", "map", "scale", "rgba")
# The tags of a default class in PyMJCF's order; its nested classes come after them.
_DEFAULT_TAG_ORDER = (
    "mesh", "texture", "material", "joint", "geom", "site", "camera", "light", "pair",
    "equality", "tendon", "general", "motor", "position", "velocity", "intvelocity",
    "orientation", "damper", "cylinder", "muscle", "adhesion",
)  # fmt: skip
# MjSpec's lists of elements, each of which a model made only through the handles
# has a record for.
_SPEC_LISTS = (
    "bodies", "geoms", "joints", "sites", "cameras", "lights", "frames", "actuators",
    "sensors", "tendons", "equalities", "pairs", "excludes", "keys", "numerics", "texts",
    "tuples", "meshes", "textures", "materials", "hfields", "skins", "flexes",
)  # fmt: skip


class _Options:
    """How numbers, names and files are written."""

    __slots__ = ("prefix_root", "precision", "zero_threshold", "with_hash")

    def __init__(
        self, prefix_root: Any, precision: int, zero_threshold: float, with_hash: bool
    ) -> None:
        self.prefix_root = prefix_root
        self.precision = precision
        self.zero_threshold = zero_threshold
        self.with_hash = with_hash


def pymjcf_written(model: RootElement) -> bool:
    """Whether every element of `model` and of the models attached below it was made
    through the handles (added, parsed or attached), so that the records say which of
    its attributes were set."""
    recorded: set[Any] = set()
    frames: set[Any] = set()  # the attachment frames' bodies
    for scope in model._top()._all_scopes():
        recorded.update(key for key in scope._written if not isinstance(key, tuple))
        if scope._parent_scope is not None:
            frames.add(scope._attachment_body)
    spec = model._top()._spec
    world = spec.worldbody
    for collection in _SPEC_LISTS:
        for element in getattr(spec, collection):
            if element == world:
                continue
            if collection == "frames":
                # MjSpec's own frame of an attachment, where the attached model sits.
                written = (
                    element.parent in frames
                    and not np.any(element.pos)
                    and np.array_equal(element.quat, [1, 0, 0, 0])
                )
            else:
                written = element in recorded
            if not written and (model._parent_scope is None or _in_scope(model, element)):
                return False
    return True


def _in_scope(model: RootElement, element: Any) -> bool:
    """Whether a spec element of the top model belongs to `model` or below it (by its
    name's prefix; unnamed elements are counted in)."""
    name = getattr(element, "name", "")
    return not name or name.startswith(model._full_prefix())


def model_tree(
    model: RootElement, prefix_root: Any, precision: int, zero_threshold: float, with_hash: bool
) -> ElementTree.Element:
    """`<mujoco model=...>` and the parts of `model` that hold anything, as PyMJCF's
    `RootElement.to_xml`."""
    options = _Options(prefix_root or model.namescope, precision, zero_threshold, with_hash)
    tree = ElementTree.Element("mujoco")
    tree.set("model", model.get_attributes()["model"])
    for tag in element_api._ROOT_CHILDREN:
        part = part_tree(model, tag, options)
        if part.attrib or len(part):
            tree.append(part)
    return tree


def part_tree(model: RootElement, tag: str, options: _Options) -> ElementTree.Element:
    """One child of <mujoco> (a setting, <visual>, <default>, a section, <worldbody>)."""
    if tag == "worldbody":
        return _element_tree(model.worldbody, options)
    return getattr(model, tag)._xml_part(options)


class PartWriting:
    """PyMJCF's `to_xml` and `to_xml_string` for the parts of a model that are not
    `Element`s here (sections, global settings, default classes and their tags); each
    gives its tree for `_Options` in `_xml_part`."""

    __slots__ = ()
    _scope: RootElement

    def _xml_part(self, options: _Options) -> ElementTree.Element:
        raise NotImplementedError

    def to_xml(
        self,
        prefix_root: Any = None,
        debug_context: Any = None,
        *,
        precision: int = element_api.XML_DEFAULT_PRECISION,
        zero_threshold: float = 0,
        filename_with_hash: bool = True,
    ) -> Any:
        """This part as an XML tree in PyMJCF's form (an lxml element, as PyMJCF's)."""
        return as_lxml(
            self._tree(prefix_root, debug_context, precision, zero_threshold, filename_with_hash)
        )

    def _tree(
        self,
        prefix_root: Any,
        debug_context: Any,
        precision: int,
        zero_threshold: float,
        filename_with_hash: bool,
    ) -> ElementTree.Element:
        scope = self._scope
        scope._check_writable(debug_context)
        options = _Options(
            prefix_root or scope.namescope, precision, zero_threshold, filename_with_hash
        )
        return self._xml_part(options)

    def to_xml_string(
        self,
        prefix_root: Any = None,
        self_only: bool = False,
        pretty_print: bool = True,
        debug_context: Any = None,
        *,
        precision: int = element_api.XML_DEFAULT_PRECISION,
        zero_threshold: float = 0,
        filename_with_hash: bool = True,
    ) -> str:
        """This part as MJCF text, as PyMJCF writes it (the attributes set on it,
        numbers with `precision` significant digits; "..." for what it holds when
        `self_only`)."""
        tree = self._tree(prefix_root, debug_context, precision, zero_threshold, filename_with_hash)
        return to_string(tree, self_only, pretty_print)


def section_tree(section: Any, options: _Options) -> ElementTree.Element:
    """A section and its elements, this model's then the attached models'."""
    from composer_tasks.mjcf import parser

    tree = ElementTree.Element(section.tag)
    files = None
    for child in section.all_children():
        if files is None and child.tag in element_api._FILE_TAGS:
            files = parser.file_names(section._scope._top(), options.with_hash)
        tree.append(_element_tree(child, options, files))
    return tree


def settings_tree(tag: str, struct: Any, options: _Options) -> ElementTree.Element:
    """A global setting (`<compiler angle="radian"/>`): the attributes set, in
    PyMJCF's order."""
    tree = ElementTree.Element(tag)
    values = struct.get_attributes()
    places = _SETTINGS_ORDER.get(tag, {})
    for name in sorted(values, key=lambda name: places.get(name, len(places))):
        if tag == "compiler" and name in _FOLDERS:
            continue
        text = _text(values[name], struct._scope, options)
        if text is not None:
            tree.set(name, text)
    return tree


def option_tree(option: Any, options: _Options) -> ElementTree.Element:
    """<option>, with its <flag> when a flag is set."""
    tree = settings_tree("option", option, options)
    flags = settings_tree("flag", option.flag, options)
    if flags.attrib:
        tree.append(flags)
    return tree


def visual_tree(visual: Any, options: _Options) -> ElementTree.Element:
    """<visual> and those of its parts that have something set."""
    tree = ElementTree.Element("visual")
    for part in _VISUAL_PARTS:
        child = settings_tree(part, getattr(visual, part), options)
        if child.attrib:
            tree.append(child)
    return tree


def defaults_tree(model: RootElement, options: _Options) -> ElementTree.Element:
    """<default>: the model's top class, then the top class of each model attached
    below it, depth first in the order attached (as PyMJCF's root <default>)."""
    tree = ElementTree.Element("default")
    for scope in model._all_scopes():
        tree.append(class_tree(scope.default, options))
    return tree


def class_tree(cls: DefaultClass, options: _Options) -> ElementTree.Element:
    """A default class: `class="..."` (the model's top class "/" or "child/"), its
    tags' defaults in PyMJCF's order, then the classes made from it."""
    from composer_tasks.mjcf import defaults as defaults_module

    scope = cls._scope
    prefix = element_api._scope_prefix(scope, options.prefix_root)
    tree = ElementTree.Element("default")
    tree.set("class", prefix + cls.dclass if cls.dclass is not None else prefix or "/")
    for tag in _DEFAULT_TAG_ORDER:
        if hasattr(type(cls), tag):
            child = default_tag_tree(defaults_module.DefaultTag(cls, tag), options)
            if child.attrib:
                tree.append(child)
    scope._written  # noqa: B018  (the nested classes of a parsed text)
    spec = scope._top_spec()
    for name in scope._default_children.get(cls.full_identifier, []):
        nested = defaults_module.DefaultClass(spec.find_default(name), scope)
        tree.append(class_tree(nested, options))
    return tree


def default_tag_tree(defaults: Any, options: _Options) -> ElementTree.Element:
    """One tag's defaults in a class (`<geom rgba="1 0 0 1"/>`); references by their
    names as seen from `prefix_root`."""
    scope = defaults._scope
    prefix = element_api._scope_prefix(scope, options.prefix_root)
    tree = ElementTree.Element(defaults.tag)
    table = defaults._table()
    for name, value in defaults.get_attributes().items():
        if isinstance(value, str) and isinstance(table.get(name), attributes_module.Reference):
            text: str | None = prefix + value
        else:
            text = _text(value, scope, options)
        if text is not None:
            tree.set(name, text)
    return tree


def _element_tree(
    handle: Any, options: _Options, files: dict[Any, str] | None = None
) -> ElementTree.Element:
    return element_api._xml_tree(
        handle,
        options.prefix_root,
        options.precision,
        options.zero_threshold,
        options.with_hash,
        files,
    )


def _text(value: Any, scope: RootElement, options: _Options) -> str | None:
    return element_api._xml_text(
        value, scope, options.prefix_root, options.precision, options.zero_threshold
    )


def as_lxml(tree: ElementTree.Element) -> Any:
    """The same tree as lxml's element, the type PyMJCF's `to_xml()` returns (with
    lxml's API: `getchildren()`, `etree.tostring(tree, pretty_print=True)`)."""
    import lxml.etree

    return lxml.etree.fromstring(ElementTree.tostring(tree, encoding="unicode"))


def to_string(tree: ElementTree.Element, self_only: bool, pretty_print: bool) -> str:
    """The text of a tree, as PyMJCF's `to_xml_string` prints it: "..." for what the
    element holds when `self_only`, two spaces of indent and a last newline when
    `pretty_print`."""
    if self_only and len(tree):
        for child in list(tree):
            tree.remove(child)
        tree.text = "..."
    if pretty_print:
        ElementTree.indent(tree, space="  ")
    text = ElementTree.tostring(tree, encoding="unicode").replace(" />", "/>")
    return text + "\n" if pretty_print else text
