"""RootElement: a whole MJCF model, i.e. one `mujoco.MjSpec`, and its sections.

A `RootElement` is also a name scope: its elements' names carry, in the compiled
model, the prefix of every model it is attached into (`"creature/leg0/"`). Once
attached, its elements live in the root model's spec (MuJoCo moves them there);
the `RootElement` keeps its place in the tree of models (parent, prefix,
attachment body) to name and find them.

Lifetime: a spec finds its `RootElement` again (`RootElement._for_spec`, a
`Physics` compiled from it, an entity's `mjcf_model`) through `_ROOTS`, which holds
the RootElements weakly. A model therefore lives as long as something holds its
`RootElement`: the user, an element handle of it, the model it is attached to, an
`Entity` built on it (the entity keeps the RootElement made while it was built) or
a `Physics` compiled from it; once none does, the model and its spec are freed. A
bare `mujoco.MjSpec` alone does not keep its RootElement: wrapping such a spec again
(e.g. `ModelWrapperEntity(spec)`) makes a new RootElement that treats the spec as
built outside this API (no PyMJCF compiler merging; names found by their full
prefixed names).
"""

from __future__ import annotations

import contextlib
import os
import weakref
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Literal, NoReturn, overload

import mujoco

from composer_tasks.composer import spec_edits
from composer_tasks.mjcf import attributes as attributes_module
from composer_tasks.mjcf import defaults as defaults_module
from composer_tasks.mjcf import element as element_module
from composer_tasks.mjcf import element_api, writer
from composer_tasks.mjcf import namescope as namescope_module
from composer_tasks.mjcf.element_api import RootElementMethods

# One RootElement per live MjSpec, by the spec's id, so that handles of the same model
# share their scope. The values are weak references whose callback removes the entry
# when the RootElement goes: a RootElement holds its spec, so while an entry lives its
# id cannot be reused by another spec (`root_of` still checks). Keyed by the spec
# itself with the RootElement as value, no entry could ever go: the value would keep
# its own key alive. (A WeakValueDictionary does the same with a Python-level
# reference class per entry, a measurable part of making a model.)
_ROOTS: dict[int, weakref.ReferenceType[RootElement]] = {}


def _remember(key: int, root: RootElement) -> None:
    def forget(reference: weakref.ReferenceType[RootElement]) -> None:
        if _ROOTS.get(key) is reference:  # not a newer entry under a reused id
            del _ROOTS[key]

    _ROOTS[key] = weakref.ref(root, forget)


# The RootElements made inside each `keep_roots_made` block in progress (nested).
_KEEPERS: list[list[RootElement]] = []


def root_of(spec: Any) -> RootElement | None:
    """The live RootElement over `spec`, or None."""
    reference = _ROOTS.get(id(spec))
    root = reference() if reference is not None else None
    return root if root is not None and root._spec is spec else None


@contextlib.contextmanager
def keep_roots_made() -> Iterator[list[RootElement]]:
    """Holds every RootElement made inside the block in the yielded list.

    An entity's `_build` may make its model as a local `RootElement` and keep only
    its spec; the entity runs `_build` in this block and then holds the RootElement
    of its spec, so that state kept on the RootElement (attached models, default
    classes, edit count) is not lost when the local goes.
    """
    made: list[RootElement] = []
    _KEEPERS.append(made)
    try:
        yield made
    finally:
        _KEEPERS.pop()


_LOOKUPS = {
    "body": "body",
    "geom": "geom",
    "site": "site",
    "joint": "joint",
    "camera": "camera",
    "light": "light",
    "texture": "texture",
    "material": "material",
    "mesh": "mesh",
    "hfield": "hfield",
    "actuator": "actuator",
    "sensor": "sensor",
    "pair": "pair",
    "exclude": "exclude",
    "equality": "equality",
    "key": "key",
    "tendon": "tendon",
    "numeric": "numeric",
    "text": "text",
    "tuple": "tuple",
    "deformable": "skin",
    "plugin": "plugin",
}


# The kinds whose unnamed elements `to_xml_string` and compiling name (PyMJCF writes
# their identifiers): every namespace of the model's elements ("contact" holds the
# pairs and excludes).
_NAMED_IN_TEXT = (
    "body",
    "geom",
    "site",
    "joint",
    "camera",
    "light",
    "actuator",
    "sensor",
    "tendon",
    "equality",
    "contact",
    "mesh",
    "hfield",
    "texture",
    "material",
    "skin",
    "key",
)


def unnamed_identifiers(top: RootElement) -> list[tuple[Any, str]]:
    """(spec element, `full_identifier`) of each unnamed element of `_NAMED_IN_TEXT`
    in `top` and the models attached to it; each model's elements of a kind are listed
    once (an element's own `full_identifier` lists them for it alone)."""
    found = []
    for namespace in _NAMED_IN_TEXT:
        places: dict[int, dict[Any, int]] = {}  # id(model) -> {spec element: place}
        try:
            handles = top.find_all(namespace)
        except ValueError:
            # A kind holding an element these handles do not cover (an equality
            # type MjSpec has and PyMJCF had not): PyMJCF could not have named it.
            continue
        for handle in handles:
            if getattr(handle._mjs, "name", "named"):
                continue
            if namespace == "joint" and handle._is_frame_joint():
                # An attachment frame's unnamed joint: PyMJCF names it after the frame.
                found.append((handle._mjs, handle._mjs.parent.name))
                continue
            scope = handle._scope
            place = places.get(id(scope))
            if place is None:
                siblings = scope.find_all(namespace, exclude_attachments=True)
                place = places[id(scope)] = {s._mjs: i for i, s in enumerate(siblings)}
            prefix = scope._full_prefix() or element_module.PREFIX_SEPARATOR
            identifier = (
                f"{element_module.PREFIX_SEPARATOR}unnamed_{namespace}_{place[handle._mjs]}"
            )
            found.append((handle._mjs, prefix + identifier))
    return found


# Actuator tags whose elements MjSpec's fields do not tell apart (a <general> with a
# motor's parameters, a <motor> whose gain was changed): the tag made is recorded.
_ACTUATOR_TAGS = ("general", "motor", "position", "velocity", "cylinder")


class RootElement(RootElementMethods):
    """An MJCF model (PyMJCF's `mjcf.RootElement`), backed by a `mujoco.MjSpec`.

    Args:
      model: the model's name; it is the prefix of its elements once attached.
      model_dir: the folder relative asset paths (meshes, textures) resolve against.
      assets: `{file name: bytes}` of assets the model refers to by name.
      allow_paths_outside_model_dir: let `get_assets` read asset files outside
        `model_dir` (absolute paths, or through ".."), refused by default since a
        shared model could otherwise read any file on disk.
    """

    _spec: Any
    _authored: bool
    _parent_scope: RootElement | None
    _prefix: str
    _attachment_body: Any
    _child_scopes: list[RootElement]
    _revision: int
    _default_children: dict[str, list[str]]
    _own_default: Any
    # The top model and this model's full prefix, kept current by `_update_tree`
    # (attaching and detaching call it): every added element and attribute reads them.
    _top_scope: RootElement
    _prefix_in_top: str
    # Per element (and `(body, "inertial")`, `(default class, tag)`, `("struct", tag)`),
    # the attributes set through this API and how (`attributes.WrittenForm`): read and
    # written through `_written`.
    _records: dict[Any, dict[str, Any]]
    # The MJCF text of a parsed model whose records are made from it on first use (in
    # `_written`, before any edit): most parsed models are compiled without a read.
    _pending_text: str | None
    # Parsed with `resolve_references=False`: the text's references read as names.
    _keep_reference_names: bool
    # Whether every element, class and settings struct of this model has a record (a
    # model built with this API, or parsed from text whose attributes were matched);
    # otherwise an element without one reads the spec's values.
    _records_complete: bool
    # The spec elements of this model that were removed (their handles raise). Weakly:
    # an entry lasts as long as a handle holds the element's wrapper, so a model that
    # removes elements every episode does not grow.
    _removed: weakref.WeakSet[Any]
    # Set once this model was detached: its spec is gone with it.
    _detached: bool
    # Whether `get_assets` may read files outside the model's folder.
    _allow_paths_outside_model_dir: bool
    # The plugins this model declares in its <extension> section, in order.
    _plugins: list[str]
    # Attached: the site its frame was made at (None at a worldbody), the number of the
    # attachment (counted over all models) and how many records its parent had then;
    # they place the frame in PyMJCF's document order (`namescope.order`).
    _attachment_site: Any
    _attach_number: int
    _frame_place: int
    # `namescope.order`'s positions, with the revision they were made at.
    _order_cache: tuple[int, dict[Any, Any]] | None

    def __init__(
        self,
        model: str | None = None,
        model_dir: str | os.PathLike[str] = "",
        assets: Mapping[str, bytes] | None = None,
        *,
        allow_paths_outside_model_dir: bool = False,
    ) -> None:
        spec = mujoco.MjSpec()
        if model is not None and not isinstance(model, str):
            raise TypeError(f"model must be a string, got {type(model).__name__}")
        # PyMJCF's name for a model made without one (MjSpec's is "MuJoCo Model").
        spec.modelname = model or UNNAMED_MODEL
        if model_dir:
            spec.meshdir = spec.meshdir or model_dir
            spec.texturedir = spec.texturedir or model_dir
        self._init(spec, assets, authored=True)
        self._records_complete = True
        self._allow_paths_outside_model_dir = allow_paths_outside_model_dir

    def _init(
        self, spec: Any, assets: Mapping[str, bytes] | None = None, authored: bool = False
    ) -> None:
        self._spec = spec
        # Built or parsed through this API (dm_control's compiler merging applies),
        # rather than a spec an entity built with MjSpec directly.
        self._authored = authored
        self._parent_scope = None
        # The <mujoco model=...> attribute when `set_attributes` or `include_copy` set
        # it apart from the model's name (None: the name), as PyMJCF keeps them.
        self._model_attribute: str | None = None
        self._prefix = ""
        self._attachment_body = None
        self._attachment_site = None
        self._attach_number = 0
        self._frame_place = 0
        self._order_cache = None
        self._child_scopes = []
        self._revision = 0
        self._default_children = {}
        self._top_scope = self
        self._prefix_in_top = ""
        self._records = {}
        self._pending_text = None
        self._keep_reference_names = False
        self._records_complete = False
        self._removed = weakref.WeakSet()
        self._detached = False
        self._allow_paths_outside_model_dir = False
        self._plugins = []
        if assets:
            spec.assets = {**spec.assets, **assets}
        # The MjsDefault of the model's own top class, read once: `_main_default`.
        self._own_default = spec.default
        _remember(id(spec), self)
        if _KEEPERS:
            _KEEPERS[-1].append(self)

    @classmethod
    def _for_spec(cls, spec: Any, authored: bool = False) -> RootElement:
        """The RootElement of `spec` (made on first use, then always the same)."""
        root = root_of(spec)
        if root is None:
            root = cls.__new__(cls)
            root._init(spec, authored=authored)
        return root

    # Identity.

    @property
    def spec(self) -> mujoco.MjSpec:
        """The `mujoco.MjSpec` of this model (the root's, once attached)."""
        if self._detached:
            self._check_attached_alive()
        return self._spec

    @property
    def model(self) -> str:
        return self._spec.modelname

    @model.setter
    def model(self, name: str) -> None:
        if not isinstance(name, str):
            raise TypeError(f"model must be a string, got {type(name).__name__}")
        self._model_attribute = None
        if self._parent_scope is not None:
            # The name is the attached model's prefix: renaming renames its elements.
            from composer_tasks.mjcf import renaming

            renaming.rename_attached(self, name)
            return
        self._spec.modelname = name
        self._edited()

    @property
    def tag(self) -> str:
        return "mujoco"

    @property
    def root(self) -> "RootElement":
        return self

    @property
    def namescope(self) -> namescope_module.NameScope:
        return namescope_module.NameScope(self)

    @property
    def parent_model(self) -> RootElement | None:
        """The model this one is attached to, or None."""
        return self._parent_scope

    @property
    def root_model(self) -> "RootElement":
        return self._top()

    @property
    def full_identifier(self) -> str:
        return self._full_prefix()

    def __str__(self) -> str:
        """PyMJCF's `str` of a model: `<mujoco model="name">...</mujoco>`."""
        from composer_tasks.mjcf import element_api

        return element_api.self_only_text("mujoco", self.get_attributes(), self, True)

    def __repr__(self) -> str:
        return "MJCF Element: " + str(self)

    # Sections.

    @property
    def worldbody(self) -> element_module.Element:
        if self._detached:
            self._check_attached_alive()
        return element_module.new_handle(self._worldbody_spec(), self, "worldbody")

    @property
    def default(self) -> defaults_module.DefaultClass:
        """The model's top default class (MuJoCo's "main" class of this model)."""
        if self._detached:
            self._check_attached_alive()
        return defaults_module.DefaultClass(self._main_default(), self)

    @property
    def compiler(self) -> defaults_module.Struct:
        return defaults_module.Struct(
            self, "compiler", lambda: self._spec.compiler, attributes_module.COMPILER
        )

    @property
    def option(self) -> defaults_module.OptionStruct:
        return defaults_module.OptionStruct(self)

    @property
    def size(self) -> defaults_module.Struct:
        return defaults_module.Struct(self, "size", lambda: self._spec, attributes_module.SIZE)

    @property
    def visual(self) -> defaults_module.VisualStruct:
        return defaults_module.VisualStruct(self)

    @property
    def statistic(self) -> defaults_module.GenericStruct:
        return defaults_module.GenericStruct(self, "statistic", lambda: self._spec.stat)

    # The sections, as properties: reaching an attribute through `__getattr__` costs
    # Python a raised and caught AttributeError first (`Section.add` checks that the
    # model was not detached).
    @property
    def asset(self) -> element_module.Section:
        return element_module.Section(self, "asset")

    @property
    def actuator(self) -> element_module.Section:
        return element_module.Section(self, "actuator")

    @property
    def sensor(self) -> element_module.Section:
        return element_module.Section(self, "sensor")

    @property
    def contact(self) -> element_module.Section:
        return element_module.Section(self, "contact")

    @property
    def equality(self) -> element_module.Section:
        return element_module.Section(self, "equality")

    @property
    def keyframe(self) -> element_module.Section:
        return element_module.Section(self, "keyframe")

    @property
    def extension(self) -> element_module.Section:
        """The <extension> section: plugins the model uses
        (`extension.add("plugin", plugin="mujoco.pid")`), their instances
        (`plugin.add("instance", name=...)`) and those's settings
        (`instance.add("config", key=..., value=...)`). A model with plugin instances
        cannot be attached to another (MjSpec's attach leaves them behind)."""
        return element_module.Section(self, "extension")

    def _declare_plugin(self, attributes: Mapping[str, Any]) -> element_module.Element:
        """Adds <plugin plugin=...> to the <extension> section: activates the plugin."""
        for name in attributes:
            if name != "plugin":
                raise AttributeError(
                    f"{name!r} is not a valid attribute for <plugin> (adding to <extension> of "
                    f"model {self.model!r}); valid attributes: ['plugin']"
                )
        plugin = attributes.get("plugin")
        if not isinstance(plugin, str) or not plugin:
            raise ValueError(
                f"a <plugin> of <extension> needs plugin= (the plugin's name, e.g. "
                f"'mujoco.pid'), got {plugin!r} (model {self.model!r})"
            )
        if plugin in self._plugins:
            raise ValueError(f"model {self.model!r} already declares plugin {plugin!r}")
        self._top_spec().activate_plugin(plugin)
        self._plugins.append(plugin)
        handle = self._plugin_declaration(plugin)
        self._written[handle._mjs] = {"plugin": None}
        self._edited()
        return handle

    def _plugin_declaration(self, plugin: str) -> element_module.Element:
        """The handle of this model's <extension><plugin plugin=`plugin`>."""
        declaration = attributes_module.PluginDeclaration(id(self), plugin)
        return element_module.new_handle(declaration, self, "extension_plugin")

    @property
    def deformable(self) -> element_module.Section:
        """The <deformable> section: skins (`deformable.add("skin", vertex=, face=,
        file=, ...)` and their bones, `skin.add("bone", body=, bindpos=, bindquat=,
        vertid=, vertweight=)`) and flexes (`deformable.add("flex", dim=, body=,
        vertex=, element=, ...)`, with `flex.contact`, `flex.edge`, `flex.elasticity`)."""
        return element_module.Section(self, "deformable")

    @property
    def custom(self) -> element_module.Section:
        """The <custom> section: `custom.add("numeric", name=, size=, data=)`,
        `("text", name=, data=)`, `("tuple", name=)` and its entries
        (`tuple.add("element", objtype=, objname=, prm=)`)."""
        return element_module.Section(self, "custom")

    @property
    def tendon(self) -> element_module.Section:
        """The <tendon> section: `tendon.add("spatial" or "fixed", ...)`, then the
        tendon's path (`spatial.add("site", site=...)`, `fixed.add("joint", joint=...,
        coef=...)`)."""
        return element_module.Section(self, "tendon")

    def __getattr__(self, name: str) -> NoReturn:
        if name.startswith("_"):
            raise AttributeError(name)
        raise AttributeError(
            f"'RootElement' object has no attribute {name!r}: it is not a child or attribute "
            f"of <mujoco> (model {self.model!r})"
        )

    def __setattr__(self, name: str, value: Any) -> None:
        # As PyMJCF's elements: a name that is not an attribute of <mujoco> (its only
        # one is `model`) is refused rather than stored on the Python object, where a
        # misspelt setting would be lost silently.
        if name.startswith("_"):
            object.__setattr__(self, name, value)
            return
        found = getattr(type(self), name, None)
        if isinstance(found, property) and found.fset is not None:
            found.fset(self, value)
            return
        what = "a child element" if isinstance(found, property) else "not an attribute"
        raise AttributeError(
            f"can't set attribute {name!r} of <mujoco> (model {self.model!r}): it is {what}; "
            "the one attribute of <mujoco> is `model`"
        )

    def __delattr__(self, name: str) -> None:
        if name.startswith("_"):
            object.__delattr__(self, name)
            return
        raise AttributeError(
            f"'RootElement' object has no attribute {name!r} to delete: <mujoco> (model "
            f"{self.model!r}) keeps its attributes and children (remove an element with "
            "`remove()`)"
        )

    # Finding and attaching.

    def find(
        self, namespace: str, identifier: str
    ) -> element_module.Element | defaults_module.DefaultClass | None:
        """The element of kind `namespace` named `identifier` (relative to this model)."""
        if self._detached:
            self._check_attached_alive()
        return namescope_module.find(self, namespace, identifier)

    @overload
    def find_all(
        self,
        namespace: Literal["default"],
        immediate_children_only: bool = False,
        exclude_attachments: bool = False,
    ) -> list[defaults_module.DefaultClass]: ...

    @overload
    def find_all(
        self,
        namespace: str,
        immediate_children_only: bool = False,
        exclude_attachments: bool = False,
    ) -> list[element_module.Element]: ...

    def find_all(
        self,
        namespace: str,
        immediate_children_only: bool = False,
        exclude_attachments: bool = False,
    ) -> list[element_module.Element] | list[defaults_module.DefaultClass]:
        """Every element of kind `namespace` in this model and (unless excluded) the
        models attached to it, in model order (its default classes, top class first,
        for "default")."""
        if self._detached:
            self._check_attached_alive()
        return namescope_module.find_all(
            self, namespace, immediate_children_only, exclude_attachments
        )

    def enter_scope(self, scope_identifier: str) -> RootElement | None:
        """The attached model at path `scope_identifier` (`"leg0"`, `"creature/leg0"`), or None."""
        return namescope_module.enter_scope(self, scope_identifier)

    def attach(self, child_model: RootElement) -> element_module.Element:
        """Attaches `child_model` to this model's worldbody; returns the attachment frame."""
        return self.worldbody.attach(child_model)

    def detach(self) -> None:
        """Removes this model from the model it is attached to."""
        from composer_tasks.mjcf import attachment

        attachment.detach(self)

    # Serialising.

    def to_xml(
        self,
        prefix_root: Any = None,
        debug_context: Any = None,
        *,
        precision: int = element_api.XML_DEFAULT_PRECISION,
        zero_threshold: float = 0,
        filename_with_hash: bool = True,
    ) -> Any:
        """The model as an XML tree in PyMJCF's form (see `to_xml_string`): an lxml
        element, as PyMJCF's. A model with parts made with MjSpec directly has no such
        tree: ValueError."""
        self._check_writable(debug_context)
        if not writer.pymjcf_written(self):
            raise ValueError(
                f"model {self.model!r} has parts made with MjSpec directly, whose set "
                "attributes are not recorded; to_xml_string() writes it with MuJoCo's writer"
            )
        return writer.as_lxml(
            writer.model_tree(self, prefix_root, precision, zero_threshold, filename_with_hash)
        )

    def to_xml_string(
        self,
        prefix_root: Any = None,
        self_only: bool = False,
        pretty_print: bool = True,
        debug_context: Any = None,
        *,
        precision: int | None = None,
        zero_threshold: float = 0,
        filename_with_hash: bool = True,
    ) -> str:
        """The model as MJCF text, as PyMJCF writes it: the attributes that were set,
        numbers with `precision` significant digits (17 by default; those below
        `zero_threshold` written 0), each unnamed element named by its
        `full_identifier` (`//unnamed_geom_0`), default classes `/` and `child/`,
        attached models under their prefixes, files by their names in `get_assets()`.
        Written without compiling, as there: a model that does not compile yet can be
        printed.

        A model with parts made with MjSpec directly (this package's walkers, arenas
        and most props) has no record of which attributes were set: it is written by
        MuJoCo's own writer instead (`MjSpec.to_xml`: six significant digits, which
        `Physics.from_xml_string` compiles exactly from the model it was written
        from, and it compiles the model first; `precision`, `zero_threshold`,
        `prefix_root` and `self_only` are refused there).
        """
        self._check_writable(debug_context)
        if writer.pymjcf_written(self):
            tree = writer.model_tree(
                self,
                prefix_root,
                element_api.XML_DEFAULT_PRECISION if precision is None else precision,
                zero_threshold,
                filename_with_hash,
            )
            return writer.to_string(tree, self_only, pretty_print)
        if prefix_root is not None or self_only or zero_threshold:
            raise ValueError(
                f"model {self.model!r} has parts made with MjSpec directly and is written "
                "by MuJoCo's writer, which takes no prefix_root, self_only or zero_threshold"
            )
        from composer_tasks.mjcf import parser

        unnamed = unnamed_identifiers(self._top())
        try:
            for mjs, identifier in unnamed:
                mjs.name = identifier
            text = parser.to_xml_string(self, precision)
        finally:
            for mjs, _ in unnamed:
                mjs.name = ""
        if not pretty_print:
            return "".join(line.strip() for line in text.splitlines())
        return text

    def _check_writable(self, debug_context: Any) -> None:
        if self._detached:
            self._check_attached_alive()
        element_api.refuse_debug_context(debug_context)

    def get_assets(self) -> dict:
        """`{file name: bytes}` of the assets the model's files refer to."""
        from composer_tasks.mjcf import parser

        return parser.get_assets(self)

    # Scope internals.

    @property
    def _written(self) -> dict[Any, dict[str, Any]]:
        """The records of written attributes (see `_records`), made from the parsed
        text first if they are still pending."""
        if self._pending_text is not None:
            from composer_tasks.mjcf import parser

            text, self._pending_text = self._pending_text, None
            # The text's nested classes come before any added through the API since.
            # The text's class names, with the prefix the model has in the root spec now.
            prefix = self._full_prefix()
            added, self._default_children = (
                self._default_children,
                {
                    prefix + parent: [prefix + child for child in children]
                    for parent, children in parser.default_classes(text).items()
                },
            )
            for parent, children in added.items():
                self._default_children.setdefault(parent, []).extend(children)
            records = parser.attributes_written(self._spec, text, self._keep_reference_names)
            if records is not None:
                self._records = records
                self._records_complete = True
        return self._records

    def _top(self) -> RootElement:
        return self._top_scope

    def _top_spec(self) -> Any:
        if self._detached:
            self._check_attached_alive()
        return self._top_scope._spec

    def _check_attached_alive(self) -> None:
        if self._detached:
            raise element_module.RemovedElementError(
                f"model {self.model!r} was detached: MuJoCo deleted its elements with the "
                "attachment (a spec attaches once); build the model again to use it"
            )

    def _mark_detached(self) -> None:
        """Makes this model and those attached to it unusable (their elements were
        deleted with their attachment frame): every handle of them raises."""
        for scope in self._all_scopes():
            scope._detached = True
            scope._removed.add(_DETACHED)

    def _all_scopes(self) -> Iterator[RootElement]:
        """This model and every model attached below it."""
        yield self
        for child in list(self._child_scopes):
            yield from child._all_scopes()

    def _full_prefix(self) -> str:
        return self._prefix_in_top

    def _update_tree(self) -> None:
        """Recomputes the top model and full prefix of this model and those attached
        to it, after it was attached or detached."""
        parent = self._parent_scope
        if parent is None:
            self._top_scope, self._prefix_in_top = self, ""
        else:
            self._top_scope = parent._top_scope
            self._prefix_in_top = parent._prefix_in_top + self._prefix
        for child in self._child_scopes:
            child._update_tree()

    def _edited(self) -> None:
        self._top_scope._revision += 1
        spec_edits.mark_spec_changed()

    def _worldbody_spec(self) -> Any:
        if self._attachment_body is not None:
            return self._attachment_body
        return self._spec.worldbody

    def _main_default(self) -> Any:
        if self._parent_scope is None:
            return self._own_default
        found = self._top_spec().find_default(self._full_prefix() + "main")
        return found if found is not None else self._spec.default

    def _find_default(self, dclass: Any) -> Any:
        if isinstance(dclass, defaults_module.DefaultClass):
            # A class handle, as dm_control accepts (`dclass=model.default.add(...)`).
            if dclass._scope is not self:
                raise ValueError(
                    f"dclass {dclass!r} is a default class of model {dclass._scope.model!r}, "
                    f"not of {self.model!r}"
                )
            return dclass._mjs
        if not isinstance(dclass, str):
            raise TypeError(f"dclass must be a class name, got {type(dclass).__name__}")
        if self._parent_scope is None and dclass == "main":
            return self._own_default
        found = self._top_spec().find_default(self._full_prefix() + dclass)
        if found is None:
            raise ValueError(f"model {self.model!r} has no default class {dclass!r}")
        return found

    def _lookup(self, namespace: str, full_name: str) -> Any:
        if namespace == "default":
            return self._top_spec().find_default(full_name)
        if namespace == "deformable":  # dm_control's one namespace for flexes and skins
            spec = self._top_spec()
            return spec.flex(full_name) or spec.skin(full_name)
        if namespace == "contact":  # PyMJCF's one namespace for pairs and excludes
            spec = self._top_spec()
            return spec.pair(full_name) or spec.exclude(full_name)
        lookup = _LOOKUPS.get(namespace)
        # None for kinds this API has no handles for (tendons): their names read as text.
        return None if lookup is None else getattr(self._top_spec(), lookup)(full_name)

    def _wrap(self, mjs: Any, tag: str | None = None) -> element_module.Element:
        """A handle on spec element `mjs` of this model tree, in the model it belongs to."""
        scope = namescope_module.owner_scope(self._top(), mjs)
        if isinstance(mjs, mujoco.MjsTendon) and scope._pending_text is not None:
            scope._written  # noqa: B018  (matching the parsed text tells its tendons' kinds)
        if isinstance(mjs, mujoco.MjsBody) and tag is None and mjs == scope._worldbody_spec():
            return element_module.new_handle(mjs, scope, "worldbody")
        if tag is None and isinstance(mjs, mujoco.MjsActuator):
            record = scope._written.get(mjs)
            if record is not None:
                tag = record.get(attributes_module.TAG_KEY)
        return element_module.new_handle(mjs, scope, tag or element_module.tag_of(mjs))

    def _wrap_body(self, body: Any) -> element_module.Element:
        if body == self._top_spec().worldbody:
            return self._top().worldbody
        return self._wrap(body)

    def _wrap_by_full_name(self, namespace: str, full_name: str) -> element_module.Element | None:
        found = self._lookup(namespace, full_name)
        return None if found is None else self._wrap(found)

    def _create(
        self,
        tag: str,
        attributes: Mapping[str, Any],
        creator: Callable[[Any, Any], Any],
        owner: Any,
        parent: element_module.Element | None,
    ) -> element_module.Element:
        """Adds an element: checks every attribute, creates it in its class
        (`creator(owner, default class)`, `owner` the MjsBody or MjSpec it goes in),
        sets them."""
        table = attributes_module.ELEMENT_ATTRIBUTES[tag]
        dclass = None
        if "dclass" in attributes or "class" in attributes:
            attributes = dict(attributes)
            dclass = attributes.pop("dclass", None)
            if "class" in attributes:
                if dclass is not None:
                    raise ValueError("give dclass or class, not both")
                dclass = attributes.pop("class")
        for name in attributes:
            if name not in table:
                raise AttributeError(
                    f"{name!r} is not a valid attribute for <{_shown(tag)}> (adding to "
                    f"{self._where(parent)}); valid attributes: {sorted(set(table) | {'dclass'})}"
                )
        if dclass is not None:
            if tag == "freejoint":
                raise AttributeError(
                    "'dclass' is not a valid attribute for <freejoint> (adding to "
                    f"{self._where(parent)})"
                )
            default = self._find_default(dclass)
        elif parent is None:
            default = self._main_default()
        else:
            default = None
        mjs = creator(owner, default)
        handle = element_module.new_handle(mjs, self, tag)
        name = ""
        written: dict[str, Any] = {}
        if dclass is not None:
            written["dclass"] = (
                attributes_module.CLASS_HANDLE_FORM
                if isinstance(dclass, defaults_module.DefaultClass)
                else None
            )
        try:
            for name, value in attributes.items():
                attribute = table[name]
                if attribute is None:
                    handle._set_name(value, check_unique=False)
                    written[name] = None
                elif value is not None:  # None: not set, as PyMJCF
                    written[name] = attribute.set(handle, value)
        except BaseException as error:
            # Whatever failed (a bad value, an overflow, a raising `__float__`), the
            # element goes: a failed add leaves the model as it was.
            element_module.delete(self._top_scope._spec, mjs, fresh=True)
            context = (
                f"during initialization of attribute {name!r} of <{_shown(tag)}> (adding to "
                f"{self._where(parent)})"
            )
            if isinstance(error, Exception):
                raise attributes_module.with_context(error, context) from error
            raise
        if tag in _ACTUATOR_TAGS:  # MjSpec keeps no trace of the shortcut used
            written[attributes_module.TAG_KEY] = tag
        # `_written` without its property's call, for a model with no pending text.
        (self._records if self._pending_text is None else self._written)[mjs] = written
        self._top_scope._revision += 1  # `_edited`, inline: once per added element
        spec_edits.mark_spec_changed()
        return handle

    def _where(self, parent: element_module.Element | None) -> str:
        """Where an element is being added, for error messages."""
        return parent._path() if parent is not None else f"model {self.model!r}"


# PyMJCF's name for a model made or parsed without one.
UNNAMED_MODEL = "unnamed_model"


# Marks a detached model's set of removed elements, so that the one check handles make
# (`_removed` is not empty) covers detached models too.
class _Detached:
    """The type of `_DETACHED` (a WeakSet holds only what can be referred to weakly)."""


_DETACHED = _Detached()


def _shown(tag: str) -> str:
    """The MJCF tag of an internal tag name (a joint equality is `equality_joint`)."""
    return element_module._SHOWN_TAGS.get(tag, tag)
