"""Name scopes: which model an element belongs to, and finding elements by name.

Each `RootElement` is a name scope. In the compiled model an element's name is the
prefixes of the models it sits in, then its own name (`"creature/leg0/hip"`).
`find(namespace, identifier)` looks up `identifier` relative to a model;
`find_all(namespace)` lists a kind of element in PyMJCF's document order.
"""

from __future__ import annotations

import warnings
import weakref
from typing import TYPE_CHECKING, Any, Literal, overload

import mujoco

if TYPE_CHECKING:
    from composer_tasks.mjcf.defaults import DefaultClass
    from composer_tasks.mjcf.element import Element
    from composer_tasks.mjcf.root import RootElement


# The spec collection and MuJoCo object type of each namespace.
_COLLECTIONS = {
    "body": "bodies",
    "geom": "geoms",
    "site": "sites",
    "joint": "joints",
    "camera": "cameras",
    "light": "lights",
    "texture": "textures",
    "material": "materials",
    "mesh": "meshes",
    "hfield": "hfields",
    "actuator": "actuators",
    "sensor": "sensors",
    "pair": "pairs",
    "exclude": "excludes",
    "equality": "equalities",
    "key": "keys",
    "tendon": "tendons",
    "numeric": "numerics",
    "text": "texts",
    "tuple": "tuples",
    "deformable": "skins",
    "plugin": "plugins",
}
_TREE_OBJECTS = {
    "body": mujoco.mjtObj.mjOBJ_BODY,
    "geom": mujoco.mjtObj.mjOBJ_GEOM,
    "site": mujoco.mjtObj.mjOBJ_SITE,
    "joint": mujoco.mjtObj.mjOBJ_JOINT,
    "camera": mujoco.mjtObj.mjOBJ_CAMERA,
    "light": mujoco.mjtObj.mjOBJ_LIGHT,
}
# PyMJCF's namespaces (dm_control's schema.FINDABLE_NAMESPACES): <pair> and <exclude>
# are both "contact" (so "pair" and "exclude" are not namespaces, as there); an
# attachment frame is found by "attachment_frame" (its model's name) and listed with
# the bodies; "composite", "flexcomp" and "skin" are accepted and name nothing (their
# elements are expanded at parse, a skin is "deformable").
_NAMELESS = ("composite", "flexcomp", "skin")
NAMESPACES = (
    *(namespace for namespace in _COLLECTIONS if namespace not in ("pair", "exclude")),
    "contact",
    "attachment_frame",
    *_NAMELESS,
    "default",
)


class NameScope:
    """The name scope of a model: its name, its model and its full prefix."""

    def __init__(self, model: RootElement) -> None:
        self._model = model

    @property
    def name(self) -> str:
        return self._model.model

    @property
    def mjcf_model(self) -> RootElement:
        return self._model

    @property
    def parent(self) -> NameScope | None:
        parent = self._model._parent_scope
        return None if parent is None else parent.namescope

    @property
    def full_prefix(self) -> str:
        return self._model._full_prefix()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, NameScope) and other._model is self._model

    def __hash__(self) -> int:
        return id(self._model)

    def __repr__(self) -> str:
        return f"NameScope({self.name!r})"


def check_namespace(namespace: object) -> None:
    """Raises ValueError unless `namespace` is one PyMJCF's `find` and `find_all` accept."""
    if not isinstance(namespace, str):
        # ValueError, as PyMJCF raises it.
        raise ValueError(f"`namespace` should be a string: got {namespace!r}")  # noqa: TRY004
    if namespace not in NAMESPACES:
        raise ValueError(f"{namespace!r} is not a valid namespace. Available: {list(NAMESPACES)}")


def find(
    where: Element | RootElement, namespace: str, identifier: str
) -> Element | DefaultClass | None:
    """The element named `identifier` (relative to `where`'s model) below `where`, or None."""
    check_namespace(namespace)
    if not isinstance(identifier, str):
        raise ValueError(f"`identifier` should be a string: got {identifier!r}")  # noqa: TRY004
    scope = where.root
    full_name = scope._full_prefix() + identifier
    if namespace in _NAMELESS:
        return None
    if namespace == "attachment_frame":
        attached = enter_scope(scope, identifier)
        if attached is None or attached._attachment_body is None:
            return None
        frame = attached._attachment_body
        if where is not scope and where.tag != "worldbody" and not _is_below(frame, where._mjs):
            return None
        return scope._wrap(frame)
    if namespace == "default":
        from composer_tasks.mjcf import defaults

        if identifier == "main":
            return None  # the top class is unnamed in PyMJCF (`model.default`)
        found = scope._lookup("default", full_name)
        return (
            None
            if found is None
            else defaults.DefaultClass(found, owner_scope(scope._top(), found))
        )
    found = scope._lookup(namespace, full_name)
    if found is None:
        return None
    if where is not scope and where.tag != "worldbody" and not _is_below(found, where._mjs):
        return None
    handle = scope._wrap(found)
    return handle if handle.spec_namespace == namespace else None


@overload
def find_all(
    where: Element | RootElement,
    namespace: Literal["default"],
    immediate_children_only: bool = False,
    exclude_attachments: bool = False,
) -> list[DefaultClass]: ...


@overload
def find_all(
    where: Element | RootElement,
    namespace: str,
    immediate_children_only: bool = False,
    exclude_attachments: bool = False,
) -> list[Element]: ...


def find_all(
    where: Element | RootElement,
    namespace: str,
    immediate_children_only: bool = False,
    exclude_attachments: bool = False,
) -> list[Element] | list[DefaultClass]:
    """Every element of kind `namespace` below `where`, in PyMJCF's document order.

    That is the order the elements were written in (`order`): a body's elements and
    child bodies interleaved as added, an attachment frame right after its site, a
    model's section elements before those of the models attached to it.
    """
    check_namespace(namespace)
    scope = where.root
    if namespace in _NAMELESS or namespace == "attachment_frame":
        # PyMJCF lists attachment frames with the bodies, never under their own name.
        return []
    if namespace == "default":
        if where is not scope:
            return []  # a <default> element's own find_all lists its classes
        return [
            scope.default,
            *(
                []
                if immediate_children_only
                else scope.default.find_all("default", exclude_attachments=exclude_attachments)
            ),
        ]
    top = scope._top()
    if namespace in _TREE_OBJECTS:
        body: Any = scope._worldbody_spec() if where is scope else where._mjs
        if where is not scope and where.tag not in ("body", "worldbody"):
            return []
        written = order(top)
        collection = _COLLECTIONS[namespace]
        if immediate_children_only:
            members = [
                item
                for item, is_body in _ordered_children(body, collection, written)
                if not is_body or collection == "bodies"
            ]
        else:
            # Walked here: MjSpec's own `find_all` refuses to run while a keyframe has
            # the wrong sizes, which a model being built may have.
            members = below(body, collection, written)
        owners = [owner_scope(top, member) for member in members]
    elif where is not scope:
        return []  # a section's kind below an element of the worldbody: none, as PyMJCF
    else:
        if namespace == "deformable":  # dm_control's one namespace for flexes and skins
            listed = [*top._spec.flexes, *top._spec.skins]
        elif namespace == "contact":  # pairs and excludes, ordered as written below
            listed = [*top._spec.pairs, *top._spec.excludes]
        else:
            listed = list(getattr(top._spec, _COLLECTIONS[namespace]))
        owned = [(owner_scope(top, member), member) for member in listed]
        ranks = {id(model): rank for rank, model in enumerate(top._all_scopes())}
        # A model's own elements, then each attached model's (attach order, depth
        # first), each in the order added: PyMJCF's merged section. The stable sort
        # keeps MjSpec's order, which is the order added, within a model.
        owned.sort(key=lambda pair: ranks[id(pair[0])])
        owners = [owner for owner, _ in owned]
        members = [member for _, member in owned]
    found = []
    for owner, member in zip(owners, members):
        if owner is scope or (not exclude_attachments and is_scope_below(owner, scope)):
            found.append(scope._wrap(member))
    if namespace == "contact":
        return in_written_order(top, found)
    return found


# The position of a written element: (its model's rank, depth first from the top
# model; its place in the model's records; 1 for an attachment frame at a site, which
# comes after the site; the order attachments were made).
Position = tuple[int, float, int, int]


def order(top: RootElement) -> dict[Any, Position]:
    """Where each element of the models under `top` that has a record (made through
    this API or parsed from text) was written, by record key (see
    `RootElement._written`); remade after an edit.

    Records are made as elements are added (or, parsed, in the text's order), so a
    record's place in its model's dict is the element's place in PyMJCF's document.
    """
    cached = top._order_cache
    if cached is not None and cached[0] == top._revision:
        return cached[1]
    positions: dict[Any, Position] = {}
    scopes = list(top._all_scopes())
    for rank, model in enumerate(scopes):
        for place, key in enumerate(model._written):
            positions[key] = (rank, place, 0, 0)
    for rank, model in enumerate(scopes):
        for child in model._child_scopes:
            frame = child._attachment_body
            site = child._attachment_site
            at_site = positions.get(site) if site is not None else None
            if at_site is not None:
                # PyMJCF puts the frame right after its site (after earlier frames there).
                positions[frame] = (at_site[0], at_site[1], 1, child._attach_number)
            elif frame not in positions:
                # A frame made without a record (an entity's): where it was made.
                positions[frame] = (rank, child._frame_place - 0.5, 0, 0)
    top._order_cache = (top._revision, positions)
    return positions


def in_written_order(top: RootElement, handles: list[Element]) -> list[Element]:
    """`handles` (elements of the models under `top`) in the order they were written
    (`order`) when every one has a record, else as given."""
    if len(handles) < 2:
        return handles
    written = order(top)
    found = [written.get(handle._record_key()) for handle in handles]
    positions = [position for position in found if position is not None]
    if len(positions) < len(handles):
        return handles
    ranked = sorted(range(len(handles)), key=lambda index: positions[index])
    return [handles[index] for index in ranked]


def _ordered_children(
    body: Any, collection: str, written: dict[Any, Position]
) -> list[tuple[Any, bool]]:
    """The elements of `collection` and the child bodies of `body`, each with whether it
    is a body: in the order written when every one has a record, else (a model built
    with MjSpec directly) MjSpec's order, the elements before the bodies."""
    members = [] if collection == "bodies" else list(getattr(body, collection))
    items = [(member, False) for member in members]
    items.extend((child, True) for child in body.bodies)
    if len(items) < 2:
        return items
    found = [written.get(item) for item, _ in items]
    positions = [position for position in found if position is not None]
    if len(positions) < len(items):
        return items
    ranked = sorted(range(len(items)), key=lambda index: positions[index])
    return [items[index] for index in ranked]


def below(body: Any, collection: str, written: dict[Any, Position] | None = None) -> list[Any]:
    """The elements of `collection` below `body` (not `body` itself), depth first: in
    the order written (`order`) where known, else a body's own elements, then its
    child bodies' (MjSpec's `find_all` order)."""
    found: list[Any] = []
    stack = [iter(_ordered_children(body, collection, written or {}))]
    while stack:
        for item, is_body in stack[-1]:
            if not is_body:
                found.append(item)
                continue
            if collection == "bodies":
                found.append(item)
            stack.append(iter(_ordered_children(item, collection, written or {})))
            break
        else:
            stack.pop()
    return found


class SectionOrderWarning(UserWarning):
    """The compiled model lists a section's elements (actuators, sensors, ...) in
    another order than PyMJCF would: MuJoCo's order is the order the elements joined
    the root's spec, PyMJCF's a model's own before those of the models attached to it."""


# The spec lists whose compiled order PyMJCF merges model by model.
_SECTION_COLLECTIONS = (
    "textures", "materials", "meshes", "hfields", "actuators", "sensors", "pairs",
    "excludes", "equalities", "tendons", "numerics", "texts", "tuples", "flexes", "skins",
)  # fmt: skip


def collection_of(mjs: Any) -> str | None:
    """The section list of the root spec that spec element `mjs` is in (None for an
    element of the body tree or a keyframe)."""
    return _SECTION_TYPES.get(type(mjs).__name__)


_SECTION_TYPES = {
    "MjsTexture": "textures", "MjsMaterial": "materials", "MjsMesh": "meshes",
    "MjsHField": "hfields", "MjsActuator": "actuators", "MjsSensor": "sensors",
    "MjsPair": "pairs", "MjsExclude": "excludes", "MjsEquality": "equalities",
    "MjsTendon": "tendons", "MjsNumeric": "numerics", "MjsText": "texts",
    "MjsTuple": "tuples", "MjsFlex": "flexes", "MjsSkin": "skins",
}  # fmt: skip


def warn_if_out_of_order(
    top: RootElement,
    models: list[RootElement],
    collections: tuple[str, ...] = _SECTION_COLLECTIONS,
    last_only: bool = False,
    stacklevel: int = 3,
) -> None:
    """Warns (`SectionOrderWarning`) when an element of `models` (a model just
    attached and those attached to it, or with `last_only`, the model of the element
    just added, the last of its list) sits in a list of the root spec of `top` after an element of a model that PyMJCF lists later (one
    attached to it, or after it): the compiled order, and so the action vector and
    `sensordata`, then differ from dm_control's.

    MjSpec's lists only append, and an element cannot be moved without deleting it,
    which would leave every handle to it dangling; so the order is reported, not
    changed.
    """
    first = models[0]
    if (not last_only or not first._child_scopes) and _last_in_tree(first):
        return  # no model comes after it in PyMJCF's order: nothing can precede it wrongly
    ranks = {id(model): (rank, model) for rank, model in enumerate(top._all_scopes())}
    checked = {id(model) for model in models}
    for collection in collections:
        members = list(getattr(top._spec, collection))
        if last_only:
            # The one just added, after the first element PyMJCF would list after it.
            if not members:
                continue
            rank, owner = ranks[id(owner_scope(top, members[-1]))]
            for member in members[:-1]:
                later, later_owner = ranks[id(owner_scope(top, member))]
                if later > rank:
                    _warn(collection, members[-1], owner, member, later_owner, stacklevel + 1)
                    break
            continue
        # Each attached element, after the first element of a model PyMJCF lists later.
        latest: tuple[int, Any, RootElement] | None = None
        for member in members:
            rank, owner = ranks[id(owner_scope(top, member))]
            if id(owner) in checked and latest is not None and rank < latest[0]:
                _warn(collection, member, owner, latest[1], latest[2], stacklevel + 1)
                break
            if latest is None or rank > latest[0]:
                latest = (rank, member, owner)


def _last_in_tree(model: RootElement) -> bool:
    """Whether no model outside `model`'s own tree comes after it in PyMJCF's order
    (it and each model it sits in are the last attached to their parent)."""
    while model._parent_scope is not None:
        if model._parent_scope._child_scopes[-1] is not model:
            return False
        model = model._parent_scope
    return True


# (owner model, collection, earlier model) already warned about: one warning per pair
# of models and section, not one per element (a maze adds hundreds of materials per
# episode after its walker's).
_WARNED: "weakref.WeakKeyDictionary[RootElement, set[tuple[str, int]]]" = (
    weakref.WeakKeyDictionary()
)


def _warn(
    collection: str,
    member: Any,
    owner: RootElement,
    before: Any,
    before_owner: RootElement,
    stacklevel: int,
) -> None:
    warned = _WARNED.setdefault(owner, set())
    key = (collection, id(before_owner))
    if key in warned:
        return
    warned.add(key)
    kind = "equality" if collection == "equalities" else collection[:-1]
    warnings.warn(
        f"{kind} {member.name or '(unnamed)'!r} of model {owner.model!r} compiles after "
        f"{before.name or '(unnamed)'!r} of model {before_owner.model!r}, which PyMJCF lists "
        f"after it (a model's own {collection}, then those of the models attached to it, in "
        "the order attached): the compiled order differs from dm_control's. Add a model's "
        "elements before attaching models to it to keep dm_control's order (warned once "
        "per pair of models and section)",
        SectionOrderWarning,
        stacklevel=stacklevel,
    )


def enter_scope(scope: RootElement, scope_identifier: str) -> RootElement | None:
    """The attached model at `scope_identifier` below `scope`, or None."""
    current = scope
    for part in scope_identifier.strip("/").split("/"):
        for child in current._child_scopes:
            if child.model == part:
                current = child
                break
        else:
            return None
    return current


def owner_scope(top: RootElement, mjs: Any) -> RootElement:
    """The model (a RootElement under `top`) that spec element `mjs` belongs to."""
    scope = top
    while scope._child_scopes:
        for child in scope._child_scopes:
            if _belongs_to(child, mjs):
                scope = child
                break
        else:
            return scope
    return scope


def _belongs_to(scope: RootElement, mjs: Any) -> bool:
    if isinstance(mjs, mujoco.MjsBody) and mjs == scope._attachment_body:
        return False
    parent = getattr(mjs, "parent", None)
    if isinstance(mjs, mujoco.MjsJoint) and parent == scope._attachment_body:
        return False  # the joints of an attachment frame are the parent model's
    name = getattr(mjs, "name", "")
    if name:
        return name.startswith(scope._full_prefix())
    if isinstance(parent, mujoco.MjsBody) or isinstance(mjs, mujoco.MjsBody):
        body = mjs if isinstance(mjs, mujoco.MjsBody) else parent
        while body is not None and body.name != "world":
            if body == scope._attachment_body:
                return True
            body = body.parent
        return False
    for collection in _COLLECTIONS.values():
        if any(member == mjs for member in getattr(scope._spec, collection, ())):
            return True
    return False


def is_scope_below(scope: RootElement | None, ancestor: RootElement) -> bool:
    """Whether `scope` is `ancestor` or a model attached below it (at any depth)."""
    while scope is not None:
        if scope is ancestor:
            return True
        scope = scope._parent_scope
    return False


def _is_below(mjs: Any, body: Any) -> bool:
    parent = getattr(mjs, "parent", None)
    while parent is not None:
        if parent == body:
            return True
        if parent.name == "world":
            return False
        parent = parent.parent
    return False
