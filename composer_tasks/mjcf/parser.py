"""Reading MJCF text and files into models, and writing models back to MJCF text.

Parsing is MuJoCo's own (`MjSpec.from_string` / `from_file`, which also follows
`<include>`); the result is a `RootElement` over the parsed spec. Writing is
`MjSpec.to_xml` of the root model.

Two checks come first, since models are shared: text with a NUL character is
refused (MuJoCo's parser would silently stop reading there), and so are
`<include>` files and asset files (meshes, textures, heightfields) outside the
model's folder, unless `allow_paths_outside_model_dir=True`.

The attributes the text sets are recorded per element, as for a model built with
this API, so that reading one the text did not set gives None, as in PyMJCF
(`attributes_written` below). Where the text cannot be matched to the spec element
by element (it has `<include>`s, `<replicate>`, `<composite>`, ...), the model's
elements read the spec's values instead (defaults applied).
"""

from __future__ import annotations

import hashlib
import os
import re
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterator, Mapping
from typing import IO, Any

import mujoco
import numpy as np

from composer_tasks import physics as physics_module

from composer_tasks.mjcf import assets as assets_module
from composer_tasks.mjcf import attributes as attributes_module
from composer_tasks.mjcf import defaults as defaults_module
from composer_tasks.mjcf import element as element_module
from composer_tasks.mjcf import namescope as namescope_module
from composer_tasks.mjcf.root import UNNAMED_MODEL, RootElement

# MjSpec's name for a model whose text has no `model` attribute.
_MUJOCO_UNNAMED = "MuJoCo Model"


def from_xml_string(
    xml_string: str | bytes,
    escape_separators: bool = False,
    model_dir: str | os.PathLike[str] = "",
    resolve_references: bool = True,
    assets: Mapping[str, bytes] | None = None,
    *,
    allow_paths_outside_model_dir: bool = False,
) -> RootElement:
    """Parses MJCF text into a model.

    Args:
      xml_string: the MJCF text (`bytes` are read as UTF-8).
      escape_separators: True reads a text whose names contain "/" (which PyMJCF
        refuses otherwise) as PyMJCF does: each "/" in an attribute (but paths and
        free text) becomes a backslash, each backslash two (`left/cube` is named
        `left\\cube`).
      model_dir: the folder that relative asset paths resolve against.
      resolve_references: False keeps the references the text makes as the names
        written (strings) until `model.resolve_references()`, as PyMJCF; True reads
        them as the elements they name.
      assets: `{file name: bytes}` for files the text refers to.
      allow_paths_outside_model_dir: allow `<include>` and asset files outside
        `model_dir` (the current folder when none is given): absolute paths or
        paths through "..". Refused by default, since a shared model could otherwise
        read any file on disk (`get_assets` returns their contents).

    Raises:
      ValueError: the text is not valid MJCF (MuJoCo's message), has a NUL
        character, or names a file outside the model's folder.
      FileNotFoundError: an `<include>`d file is neither in `assets` nor in
        `model_dir`.
    """
    if isinstance(xml_string, bytes):  # as PyMJCF, UTF-8 bytes are text too
        xml_string = xml_string.decode("utf-8")
    if not isinstance(xml_string, str):
        raise TypeError(f"xml_string must be a string, got {type(xml_string).__name__}")
    if escape_separators:
        xml_string = escape_separators_in(xml_string, "the MJCF text")
    folder = os.fspath(model_dir) if model_dir else ""
    _check_text(xml_string, "the MJCF text")
    if not allow_paths_outside_model_dir:
        _check_includes(xml_string, "the MJCF text", folder or ".", folder or ".")
    top_level = _without_top_level_includes(xml_string)
    if top_level is not None:
        main_text, included_files = top_level
        return _with_included(
            from_xml_string(
                main_text,
                model_dir=model_dir,
                resolve_references=False,
                assets=assets,
                allow_paths_outside_model_dir=allow_paths_outside_model_dir,
            ),
            included_files,
            folder,
            assets,
            resolve_references,
            allow_paths_outside_model_dir,
        )
    try:
        spec = mujoco.MjSpec.from_string(xml_string, assets=dict(assets or {}))
    except ValueError as error:
        # MjSpec reads an `<include>`d file neither from `assets` nor relative to
        # `model_dir` (it has no folder for text): the text with the files spliced in.
        expanded = _inline_includes(xml_string, folder, assets)
        if expanded is None:
            # As PyMJCF, a file that cannot be found is an OSError.
            raise FileNotFoundError(
                f"an <include>d file of the MJCF text is neither in `assets` nor in "
                f"{folder or 'the current folder'!r}: {str(error).strip()}"
            ) from error
        if expanded == xml_string:
            raise _parse_error(error) from error
        try:
            spec = mujoco.MjSpec.from_string(expanded, assets=dict(assets or {}))
        except ValueError as second:
            raise _parse_error(second) from second
    if model_dir:
        spec.modelfiledir = folder
    return _model(
        spec, xml_string, allow_paths_outside_model_dir, folder, assets, resolve_references
    )


def from_path(
    path: str | os.PathLike[str],
    escape_separators: bool = False,
    resolve_references: bool = True,
    assets: Mapping[str, bytes] | None = None,
    *,
    allow_paths_outside_model_dir: bool = False,
) -> RootElement:
    """Loads an MJCF file; its assets resolve relative to the file's folder (and
    must lie in it unless `allow_paths_outside_model_dir`, as `from_xml_string`)."""
    path = os.fspath(path)
    if not os.path.exists(path):
        raise FileNotFoundError(f"no MJCF file at {path!r}")
    with open(path, "rb") as handle:
        text = handle.read().decode("utf-8")
    if escape_separators:
        # The escaped text, read as from the file's folder.
        return from_xml_string(
            escape_separators_in(text, repr(path)),
            model_dir=os.path.dirname(os.path.abspath(path)),
            resolve_references=resolve_references,
            assets=assets,
            allow_paths_outside_model_dir=allow_paths_outside_model_dir,
        )
    _check_text(text, repr(path))
    folder = os.path.dirname(os.path.abspath(path))
    if not allow_paths_outside_model_dir:
        _check_includes(text, repr(path), folder, folder)
    if _without_top_level_includes(text) is not None:
        # PyMJCF's includes (below): the text from the file's folder.
        return from_xml_string(
            text,
            model_dir=folder,
            resolve_references=resolve_references,
            assets=assets,
            allow_paths_outside_model_dir=allow_paths_outside_model_dir,
        )
    try:
        spec = mujoco.MjSpec.from_file(path, assets=dict(assets or {}))
    except ValueError as error:
        raise _parse_error(error) from error
    return _model(spec, text, allow_paths_outside_model_dir, folder, assets, resolve_references)


def from_file(
    file_handle: IO[Any],
    escape_separators: bool = False,
    model_dir: str | os.PathLike[str] = "",
    resolve_references: bool = True,
    assets: Mapping[str, bytes] | None = None,
    *,
    allow_paths_outside_model_dir: bool = False,
) -> RootElement:
    """Parses MJCF text read from an open file (text or bytes)."""
    text = file_handle.read()
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    return from_xml_string(
        text,
        escape_separators,
        model_dir,
        resolve_references,
        assets,
        allow_paths_outside_model_dir=allow_paths_outside_model_dir,
    )


class MalformedXmlError(ValueError, SyntaxError):
    """MJCF text that is not well-formed XML: a `SyntaxError` as dm_control's (lxml's
    `XMLSyntaxError` is one) and a `ValueError`."""


class UnknownAttributeError(ValueError, AttributeError):
    """An attribute MJCF does not have: an `AttributeError` as dm_control's and a
    `ValueError` (MuJoCo's parser's)."""


class UnknownElementError(ValueError, KeyError):
    """An element MJCF does not have: a `KeyError` as dm_control's and a `ValueError`
    (MuJoCo's parser's)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


def _parse_error(error: ValueError) -> ValueError:
    """MuJoCo's parse error as the class dm_control raises for the same mistake."""
    message = str(error)
    if "unrecognized attribute" in message:
        return UnknownAttributeError(message)
    if "unrecognized element" in message:
        return UnknownElementError(message)
    if "XML parse error" in message:
        return MalformedXmlError(message)
    return error


def _check_text(text: str, source: str) -> None:
    nul = text.find("\x00")
    if nul >= 0:
        raise ValueError(
            f"{source} has a NUL character at offset {nul}; MuJoCo's parser would ignore "
            "everything after it"
        )
    _check_identifiers(text, source)


# A name or a default class with a "/" somewhere in the text (checked further if so).
_SLASHED_IDENTIFIER = re.compile(r"""\b(?:name|class)\s*=\s*["'][^"']*/""")


def _check_identifiers(text: str, source: str) -> None:
    """Refuses a name (or a default class) with a "/", as PyMJCF does: "/" separates
    an attached model's prefix from its names."""
    if not _SLASHED_IDENTIFIER.search(text):
        return
    for element in parse_tree(text, source).iter():
        if not isinstance(element.tag, str):
            continue
        for attribute in ("name", "class") if element.tag == "default" else ("name",):
            value = element.get(attribute)
            if value is not None and "/" in value:
                raise ValueError(
                    f"{source}: error while parsing element <{element.tag}>: during "
                    f"initialization of attribute {attribute!r} of element <{element.tag}>: "
                    "An identifier cannot contain a '/', as this is reserved for scoping "
                    f"purposes: got {value!r}"
                )


def parse_tree(text: str, source: str) -> ElementTree.Element:
    """The XML tree of MJCF text (which MuJoCo's parser has accepted, or will check)."""
    try:
        return ElementTree.fromstring(text)
    except ElementTree.ParseError as error:
        raise MalformedXmlError(f"{source} is not well-formed XML: {error}") from None


# The root tag's `model` attribute, to tell a model named "MuJoCo Model" from an unnamed one.
_MODEL_ATTRIBUTE = re.compile(r"<mujoco\b[^>]*\smodel\s*=")


def _without_top_level_includes(text: str) -> tuple[str, list[str]] | None:
    """(the text without them, their files) when `<mujoco>` has `<include>`s of its
    own, else None. PyMJCF reads those as dm_control/mjcf/parser.py does: the model
    without them first, then each included file's model copied into it
    (`include_copy`), so that the included elements come after the model's own in
    every section (MuJoCo's parser splices them where they stand) and conflicting
    settings raise as there."""
    if "include" not in text:
        return None
    tree = parse_tree(text, "the MJCF text")
    includes = [child for child in tree if child.tag == "include"]
    if not includes:
        return None
    for include in includes:
        tree.remove(include)
    return ElementTree.tostring(tree, encoding="unicode"), [
        include.get("file", "") for include in includes
    ]


def _with_included(
    model: RootElement,
    files: list[str],
    folder: str,
    assets: Mapping[str, bytes] | None,
    resolve_references: bool,
    allow_outside: bool,
) -> RootElement:
    """`model` with each included file's model copied in, in order (PyMJCF's parser:
    a file from `assets` by name, else from `folder`); then its references resolved
    unless `resolve_references` is False."""
    for name in files:
        if assets is not None and name in assets:
            contents = assets[name]
            included = from_xml_string(
                contents.decode("utf-8") if isinstance(contents, bytes) else contents,
                model_dir=folder,
                resolve_references=False,
                assets=assets,
                allow_paths_outside_model_dir=allow_outside,
            )
        else:
            path = os.path.join(folder or ".", name)
            if not os.path.exists(path):
                raise FileNotFoundError(
                    f"the <include>d file {name!r} is neither in `assets` nor in "
                    f"{folder or 'the current folder'!r}"
                )
            included = from_path(
                path,
                resolve_references=False,
                assets=assets,
                allow_paths_outside_model_dir=allow_outside,
            )
        # PyMJCF names the included model after the model (whose name it may
        # otherwise have taken, an unnamed one's).
        included.model = model.model
        model.include_copy(included)
    if resolve_references:
        model.resolve_references()
    return model


def _inline_includes(
    text: str, folder: str, assets: Mapping[str, bytes] | None, depth: int = 0
) -> str | None:
    """`text` with each `<include file=...>` replaced by the children of the included
    file's `<mujoco>`, as MuJoCo's parser splices them (files from `assets` by name,
    else from `folder`), or None when an included file cannot be read here."""
    if "include" not in text:
        return text
    tree = parse_tree(text, "the MJCF text")

    def expand(parent: ElementTree.Element) -> bool:
        for index, child in reversed(list(enumerate(parent))):
            if child.tag != "include":
                if not expand(child):
                    return False
                continue
            name = child.get("file", "")
            if assets is not None and name in assets:
                included = assets[name]
            else:
                try:
                    with open(os.path.join(folder or ".", name), "rb") as handle:
                        included = handle.read()
                except OSError:
                    return False
            inner_text = included.decode("utf-8") if isinstance(included, bytes) else included
            inner = _inline_includes(inner_text, folder, assets, depth + 1) if depth < 16 else None
            if inner is None:
                return False
            parent.remove(child)
            for offset, element in enumerate(parse_tree(inner, repr(name))):
                parent.insert(index + offset, element)
        return True

    return ElementTree.tostring(tree, encoding="unicode") if expand(tree) else None


def _model(
    spec: Any,
    text: str,
    allow_outside: bool,
    folder: str = "",
    assets: Mapping[str, bytes] | None = None,
    resolve_references: bool = True,
) -> RootElement:
    if spec.modelname == _MUJOCO_UNNAMED and not _MODEL_ATTRIBUTE.search(text):
        spec.modelname = UNNAMED_MODEL  # PyMJCF's name for an unnamed model
    model = RootElement._for_spec(spec, authored=True)
    model._allow_paths_outside_model_dir = allow_outside
    if not allow_outside:
        for name, path in _asset_files(model):
            _check_inside(path, spec.modelfiledir or ".", f"asset file {name!r}")
    # Matched to the spec on first use (most parsed models are compiled unread); the
    # `<include>`d files' elements in their places, as MuJoCo read them.
    model._pending_text = _inline_includes(text, folder, assets)
    model._keep_reference_names = not resolve_references
    return model


def _inside(path: str, folder: str) -> bool:
    real_folder = os.path.realpath(folder)
    real_path = os.path.realpath(os.path.join(folder, path))
    return os.path.commonpath([real_folder, real_path]) == real_folder


def _check_inside(path: str, folder: str, what: str) -> None:
    if not _inside(path, folder):
        raise ValueError(
            f"{what} is outside the model's folder {os.path.realpath(folder)!r}; pass "
            "allow_paths_outside_model_dir=True to allow it"
        )


def _check_includes(text: str, source: str, folder: str, model_folder: str) -> None:
    """Refuses `<include>` files outside `model_folder`, and checks those inside in turn."""
    if "include" not in text:
        return
    for include in parse_tree(text, source).iter("include"):
        name = include.get("file", "")
        path = os.path.join(folder, name)
        _check_inside(path, model_folder, f"<include file={name!r}>")
        if os.path.isfile(path):
            with open(path, "rb") as handle:
                included = handle.read().decode("utf-8", errors="replace")
            _check_includes(included, repr(path), os.path.dirname(path), model_folder)


# The spec collections whose elements name files, and the compiler folder each is in.
_FILE_COLLECTIONS = (
    ("meshes", "meshdir"),
    ("textures", "texturedir"),
    ("hfields", "meshdir"),
    ("skins", "meshdir"),
)


def _asset_files(model: RootElement) -> Iterator[tuple[str, str]]:
    """`(file name, path relative to the model's folder)` of each asset named by file."""
    spec = model._top_spec()
    for collection, folder_field in _FILE_COLLECTIONS:
        folder = getattr(spec, folder_field)
        for element in getattr(spec, collection):
            name = getattr(element, "file", "")
            if name:
                yield name, os.path.join(folder or "", name)


def _vfs_name(name: str, prefix: str, contents: bytes, with_hash: bool = True) -> str:
    """PyMJCF's name of an asset file in MuJoCo's virtual file system: the file's own
    name, a `-` and the SHA-1 of its contents (`deepmind-57ed...png`), without folders
    or its model's prefix; an `mjcf.Asset`'s name (already so made) is kept."""
    if prefix and name.startswith(prefix):
        name = name[len(prefix) :]
    base = os.path.basename(name)
    stem, extension = os.path.splitext(base)
    digest = hashlib.sha1(contents).hexdigest()
    if stem == digest or stem.endswith("-" + digest):
        return base
    return assets_module.Asset(contents, extension, prefix=stem).get_vfs_filename(with_hash)


def file_names(model: RootElement, with_hash: bool = True) -> dict[Any, str]:
    """`{spec element: VFS file name}` of the elements of `model` and of the models
    attached below it that name a file (as `get_assets()` names them; without the
    contents' SHA-1 unless `with_hash`), those whose file can be read."""
    return {
        element: name
        for _, element, name, _ in _file_assets(model, skip_missing=True, with_hash=with_hash)
    }


def _file_assets(
    model: RootElement, skip_missing: bool = False, with_hash: bool = True
) -> list[tuple[str, Any, str, bytes]]:
    """`(spec collection, spec element, VFS file name, contents)` of each element
    (mesh, texture, heightfield, skin) of `model` and of the models attached below it
    that names a file: the contents from the model's assets or, relative to its
    folder, disk.

    Raises:
      ValueError: a file is outside the model's folder (unless the model was parsed
        with `allow_paths_outside_model_dir=True`).
      FileNotFoundError: a file is neither in the assets nor on disk (unless
        `skip_missing`: then it is left out).
    """
    top = model._top()
    spec = top._spec
    folder = spec.modelfiledir or ""
    found = []
    for collection, folder_field in _FILE_COLLECTIONS:
        for element in getattr(spec, collection):
            name = element.file
            if not name:
                continue
            owner = namescope_module.owner_scope(top, element)
            if not namescope_module.is_scope_below(owner, model):
                continue
            contents = spec.assets.get(name)
            if contents is None:
                relative = os.path.join(getattr(spec, folder_field) or "", name)
                if not top._allow_paths_outside_model_dir:
                    _check_inside(relative, folder or ".", f"asset file {name!r}")
                path = os.path.join(folder, relative)
                if not os.path.exists(path):
                    if skip_missing:
                        continue
                    raise FileNotFoundError(
                        f"asset {name!r} is neither in the model's assets nor at {path!r}"
                    )
                with open(path, "rb") as handle:
                    contents = handle.read()
            contents = bytes(contents)
            found.append(
                (
                    collection,
                    element,
                    _vfs_name(name, owner._full_prefix(), contents, with_hash),
                    contents,
                )
            )
    return found


def to_xml_string(model: RootElement, precision: int | None = None) -> str:
    """The root model of `model` as MJCF text (MuJoCo's writer, which validates it),
    its asset files named as in `get_assets()` (PyMJCF's `name-<sha1>.ext`, with no
    folders), so that the text and `get_assets()` load the model.

    MuJoCo's writer prints numbers with six significant digits (PyMJCF's default
    precision is 17). `Physics.from_xml_string` (this project's, and `mjcf.Physics`'s)
    compiles the text from the spec it was written from, exactly, as dm_control's
    17 digits do; other loaders (`mujoco.MjModel.from_xml_string`, `mjcf.from_xml_string`)
    read the rounded numbers, up to about 1e-6 (relative) away.

    Raises:
      ValueError: the model does not compile. MuJoCo 4's writer (`MjSpec.to_xml`)
        compiles the spec first and writes from the compiled model, so a model that
        cannot compile (an actuator whose joint was removed, a moving body with no
        mass) cannot be written, where PyMJCF writes its XML tree without compiling.
        Also when `precision` is given: MuJoCo's writer has one precision.
    """
    if precision is not None:
        raise ValueError(
            f"precision={precision!r} is not supported: MuJoCo's writer prints six "
            "significant digits (Physics.from_xml_string compiles the text it wrote "
            "exactly; an element's own to_xml_string takes a precision)"
        )
    top = model._top()
    spec = top._spec
    # A file that cannot be read keeps its name (MuJoCo's compile then names it).
    files = _file_assets(top, skip_missing=True)
    # Written from a copy: the files are renamed there, and a compile that fails leaves
    # its spec's error set, after which MuJoCo's bindings raise it from that spec's
    # empty child lists (a body's `bodies`) until a compile succeeds, which would break
    # the handles' reads.
    copied = spec.copy()
    if files:
        places = {
            collection: {
                id(element): index for index, element in enumerate(getattr(spec, collection))
            }
            for collection, _ in _FILE_COLLECTIONS
        }
        copies = {
            collection: list(getattr(copied, collection)) for collection, _ in _FILE_COLLECTIONS
        }
        for collection, element, vfs_name, _ in files:
            copies[collection][places[collection][id(element)]].file = vfs_name
        copied.meshdir = ""
        copied.texturedir = ""
        copied.assets = {**copied.assets, **{name: data for _, _, name, data in files}}
    try:
        text = copied.to_xml()
    except ValueError as error:
        raise ValueError(
            f"cannot write model {top.model!r} as MJCF text: MuJoCo's XML writer "
            "(MjSpec.to_xml) compiles the model first, and it does not compile: "
            f"{str(error).strip()}. (dm_control's PyMJCF writes its XML tree without "
            "compiling; here the model must compile. An element's own "
            "`to_xml_string()` is written from the handles, without compiling.)"
        ) from error
    # The text keeps six significant digits; `Physics.from_xml_string` compiles it
    # from the spec it was written from (exactly, as PyMJCF's 17 digits do).
    physics_module.remember_written_text(text, copied)
    # The spec itself compiled too (it compiles, as its copy did): MuJoCo's writer
    # compiled it when it wrote it, and a model compiled from the text written then
    # binds its elements (`physics.bind`: the same signature), as in dm_control.
    spec.compile()
    return text


def get_assets(model: RootElement) -> dict:
    """`{VFS file name: bytes}` of the files that the meshes, textures, heightfields
    and skins of `model` and of the models attached below it name, as PyMJCF's
    `get_assets`: each named `name-<sha1 of its contents>.ext` (an `mjcf.Asset` by its
    own VFS name), the names `to_xml_string()` writes. The contents come from the
    model's asset dictionary or, relative to the model's folder, disk.

    A file outside the model's folder raises ValueError unless the model was parsed
    with `allow_paths_outside_model_dir=True`.
    """
    return {name: contents for _, _, name, contents in _file_assets(model)}


def export_with_assets(
    mjcf_model: RootElement, out_dir: str | os.PathLike[str], out_file_name: str | None = None
) -> None:
    """Writes the model's MJCF text and its asset files into `out_dir` (made if
    missing), as PyMJCF's `export_with_assets`: the text as `out_file_name`
    (default: the model's name + ".xml"), each asset under its file name beside it.

    Raises:
      ValueError: `out_file_name` does not end in ".xml", or an asset's file name
        would leave `out_dir`.
    """
    if out_file_name is None:
        out_file_name = mjcf_model.model + ".xml"
    elif not isinstance(out_file_name, str) or not out_file_name.lower().endswith(".xml"):
        raise ValueError(f"out_file_name must end with '.xml', got {out_file_name!r}")
    files = _export_files(mjcf_model, out_file_name)
    out_dir = os.fspath(out_dir)
    os.makedirs(out_dir, exist_ok=True)
    for name, contents in files.items():
        path = os.path.join(out_dir, name)
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        with open(path, "wb") as handle:
            handle.write(contents)


def export_with_assets_as_zip(
    mjcf_model: RootElement, out_dir: str | os.PathLike[str], model_name: str | None = None
) -> str:
    """Writes the model and its assets into `out_dir/<model_name>.zip`, under a folder
    `model_name` (default: the model's name), as PyMJCF's `export_with_assets_as_zip`;
    returns the zip file's path."""
    import zipfile

    if model_name is None:
        model_name = mjcf_model.model
    if not isinstance(model_name, str) or not model_name:
        raise ValueError(f"model_name must be a non-empty string, got {model_name!r}")
    files = _export_files(mjcf_model, model_name + ".xml")
    out_dir = os.fspath(out_dir)
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, model_name + ".zip")
    with zipfile.ZipFile(path, "w") as archive:
        for name, contents in files.items():
            archive.writestr(os.path.join(model_name, name), contents)
    return path


def _export_files(model: RootElement, xml_name: str) -> dict[str, bytes]:
    """The files an export writes: the assets by file name, and the text (written with
    the mesh and texture folders cleared, since the assets sit beside it)."""
    assets = model.get_assets()
    for name in assets:
        if os.path.isabs(name) or ".." in name.replace("\\", "/").split("/"):
            raise ValueError(f"asset file name {name!r} would be written outside the export")
    if xml_name in assets:
        raise ValueError(f"an asset is named {xml_name!r}, the name of the model's file")
    # The assets' names have no folders (`get_assets`), so they sit beside the text.
    return {**assets, xml_name: model.to_xml_string().encode()}


# The attributes PyMJCF's `escape_separators` leaves as written (paths and free text;
# dm_control/mjcf/parser.py's list).
_UNESCAPED_ATTRIBUTES = frozenset(
    (
        "data", "file", "meshdir", "assetdir", "texturedir", "content_type", "fileleft",
        "fileright", "fileback", "filefront", "plugin", "key", "value",
    )
)  # fmt: skip
# dm_control/mjcf/constants.py: PREFIX_SEPARATOR_ESCAPE.
_SEPARATOR_ESCAPE = "\\"


def escape_separators_in(text: str, source: str) -> str:
    """MJCF text with every "/" in its elements' attributes (but paths and free text)
    replaced by a backslash and every backslash doubled, as PyMJCF's
    `escape_separators=True` reads a file whose names contain "/" (`left/cube` is
    named `left\\cube`); the model's own name is kept."""
    tree = parse_tree(text, source)
    for element in tree.iter():
        if element is tree or not isinstance(element.tag, str):
            continue
        for name, value in element.attrib.items():
            if name not in _UNESCAPED_ATTRIBUTES:
                escaped = value.replace(_SEPARATOR_ESCAPE, 2 * _SEPARATOR_ESCAPE)
                element.set(name, escaped.replace("/", _SEPARATOR_ESCAPE))
    return ElementTree.tostring(tree, encoding="unicode")


# Matching the parsed text to the spec, element by element, for the records of the
# attributes it sets.

# The spec collection of each element tag that can be a body's child.
_BODY_KINDS = {
    "body": "bodies",
    "geom": "geoms",
    "site": "sites",
    "joint": "joints",
    "freejoint": "joints",
    "camera": "cameras",
    "light": "lights",
}
# The spec collection each child tag of a section fills (None: the section's own).
_SECTION_KINDS = {
    "actuator": "actuators",
    "sensor": "sensors",
    "equality": "equalities",
    "keyframe": "keys",
    "tendon": "tendons",
}
_ASSET_KINDS = {
    "texture": "textures",
    "material": "materials",
    "mesh": "meshes",
    "hfield": "hfields",
    "skin": "skins",
}
_CONTACT_KINDS = {"pair": "pairs", "exclude": "excludes"}
_CUSTOM_KINDS = {"numeric": "numerics", "text": "texts", "tuple": "tuples"}
# Settings sections: their struct's record key and attribute table.
_SETTINGS = {
    "compiler": attributes_module.COMPILER,
    "option": attributes_module.OPTION,
    "size": attributes_module.SIZE,
}
# The internal tags (attributes.py) of a tendon's path elements, by MJCF tag.
_PATH_TAGS = {
    "site": "tendon_site",
    "geom": "tendon_geom",
    "pulley": "pulley",
    "joint": "tendon_joint",
}
# Sections that hold nothing this API reads attributes of.
_IGNORED_SECTIONS = {"extension", "deformable"}


class _Mismatch(Exception):
    """The text does not line up with the spec element by element."""


def attributes_written(
    spec: Any, text: str, keep_names: bool = False
) -> dict[Any, dict[str, Any]] | None:
    """The record of the attributes the MJCF `text` sets, per spec element, class and
    settings struct of `spec` (see `RootElement._written`), or None when the text cannot
    be matched to the spec element by element. With `keep_names`, references read back
    as the names written (PyMJCF's `resolve_references=False`)."""
    try:
        tree = parse_tree(text, "the MJCF text")
    except ValueError:
        return None
    records: dict[Any, dict[str, Any]] = {}
    sections = _Members(spec)
    world = _Members(spec.worldbody)
    try:
        for section in tree:
            tag = section.tag
            if not isinstance(tag, str):
                continue  # a comment
            if tag == "worldbody":
                _match_body(section, world, records, keep_names, is_world=True)
            elif tag == "default":
                _match_default(section, "main", records, spec)
            elif tag in _SETTINGS:
                records[("struct", tag)] = _forms(section, _SETTINGS[tag])
                for part in section:
                    if part.tag == "flag":  # the flags the text sets
                        records[("struct", "flag")] = dict(part.attrib)
            elif tag == "statistic":
                records[("struct", tag)] = _generic_forms(section, spec.stat)
            elif tag == "visual":
                for part in section:
                    if isinstance(part.tag, str):
                        struct = getattr(spec.visual, _VISUAL_FIELDS.get(part.tag, part.tag), None)
                        records[("struct", part.tag)] = _generic_forms(part, struct)
            elif tag in _SECTION_KINDS or tag in ("asset", "contact", "custom"):
                for child in section:
                    if not isinstance(child.tag, str):
                        continue
                    if tag == "asset":
                        kind = _ASSET_KINDS.get(child.tag)
                    elif tag == "contact":
                        kind = _CONTACT_KINDS.get(child.tag)
                    elif tag == "custom":
                        kind = _CUSTOM_KINDS.get(child.tag)
                    else:
                        kind = _SECTION_KINDS[tag]
                    if kind is None:
                        raise _Mismatch(child.tag)
                    member = sections.next(kind)
                    if tag == "tendon":
                        if child.tag not in ("spatial", "fixed"):
                            raise _Mismatch(child.tag)
                        # MjSpec does not list the parsed path (its wraps): the text's.
                        element_module.remember_tendon(member, child.tag, path_known=False)
                        parts = [part for part in child if isinstance(part.tag, str)]
                        if any(part.tag not in _PATH_TAGS for part in parts):
                            raise _Mismatch(child.tag)
                        path = [(part.tag, dict(part.attrib)) for part in parts]
                        wraps = element_module.remember_parsed_path(member, path)
                        for wrap, part in zip(wraps, parts):
                            table = attributes_module.ELEMENT_ATTRIBUTES[_PATH_TAGS[part.tag]]
                            records[wrap] = _forms(part, table, keep_names)
                    _record_element(child, member, records, keep_names)
                    if child.tag == "tuple":
                        # A tuple's <element>s are entries of its lists, not elements.
                        table = attributes_module.ELEMENT_ATTRIBUTES["tuple_element"]
                        entries = [part for part in child if isinstance(part.tag, str)]
                        if any(part.tag != "element" for part in entries):
                            raise _Mismatch(child.tag)
                        for index, part in enumerate(entries):
                            entry = attributes_module.TupleEntry(member, index)
                            records[entry] = _forms(part, table, keep_names)
            elif tag not in _IGNORED_SECTIONS:
                raise _Mismatch(tag)  # include, sensor plugins, ...
        sections.check_all_matched()
        world.check_all_matched()
    except _Mismatch:
        return None
    return records


class _Members:
    """The elements of each kind of one body or spec, listed once (the bindings make a
    new list at every read), and how many of each the text has matched."""

    def __init__(self, owner: Any) -> None:
        self.owner = owner
        self.lists: dict[str, list[Any]] = {}
        self.counts: dict[str, int] = {}

    def next(self, kind: str) -> Any:
        members = self.lists.get(kind)
        if members is None:
            members = self.lists[kind] = list(getattr(self.owner, kind))
        index = self.counts.get(kind, 0)
        if index >= len(members):
            raise _Mismatch(kind)
        self.counts[kind] = index + 1
        return members[index]

    def check_all_matched(self) -> None:
        """Every element of the kinds the text has is matched. (Kinds the text lacks
        have none: only tags this matcher knows make elements.)"""
        for kind, members in self.lists.items():
            if len(members) != self.counts[kind]:
                raise _Mismatch(kind)


def _match_body(
    xml: ElementTree.Element,
    members: _Members,
    records: dict[Any, dict[str, Any]],
    keep_names: bool = False,
    is_world: bool = False,
) -> None:
    body = members.owner
    if not is_world:
        _record_element(xml, body, records, keep_names)
    for child in xml:
        tag = child.tag
        if not isinstance(tag, str):
            continue
        if tag == "frame":
            if child.attrib:
                raise _Mismatch("frame")  # a frame's pose is not an attribute of its children
            _match_body(child, members, records, keep_names, is_world=True)
        elif tag == "inertial":
            records[(body, "inertial")] = _forms(
                child, attributes_module.ELEMENT_ATTRIBUTES["inertial"]
            )
        elif tag in _BODY_KINDS:
            mjs = members.next(_BODY_KINDS[tag])
            if tag == "body":
                _match_body(child, _Members(mjs), records, keep_names)
            else:
                _record_element(child, mjs, records, keep_names)
        else:
            raise _Mismatch(tag)
    if not is_world:
        members.check_all_matched()


# The actuator tags that make a spec actuator of the same kind, told apart by the text.
_ACTUATOR_TAGS = ("general", "motor", "position", "velocity", "cylinder")


def _record_element(
    xml: ElementTree.Element,
    mjs: Any,
    records: dict[Any, dict[str, Any]],
    keep_names: bool = False,
) -> None:
    try:
        tag = element_module.tag_of(mjs)
    except (KeyError, ValueError):
        return  # an element this API does not cover: nothing reads its attributes
    # An actuator is the tag the text gives it (MjSpec's actuator does not tell a
    # <general> with a motor's parameters from a <motor>, nor a cylinder).
    shortcut = xml.tag in _ACTUATOR_TAGS and tag in _ACTUATOR_TAGS
    if shortcut:
        tag = xml.tag
    table = attributes_module.ELEMENT_ATTRIBUTES.get(tag, {})
    forms = records[mjs] = _forms(xml, table, keep_names)
    _keep_exact_numbers(xml, table, mjs, forms)
    if shortcut:
        records[mjs][attributes_module.TAG_KEY] = tag


def _match_default(
    xml: ElementTree.Element,
    dclass: str,
    records: dict[Any, dict[str, Any]],
    spec: mujoco.MjSpec | None = None,
) -> None:
    default = spec.find_default(dclass) if spec is not None else None
    for child in xml:
        tag = child.tag
        if not isinstance(tag, str):
            continue
        if tag == "default":
            _match_default(child, child.get("class", ""), records, spec)
        elif tag in defaults_module.DEFAULT_TABLES:
            key = defaults_module.record_key(dclass, tag)
            table = defaults_module.DEFAULT_TABLES[tag]
            forms = records[key] = _forms(child, table)
            if default is not None:
                target = getattr(default, defaults_module.DEFAULT_FIELDS[tag], None)
                if target is not None:
                    _keep_exact_numbers(child, table, target, forms)
        # Other tags' defaults (cylinder, muscle, ...) have no handle here to read.


def _forms(
    xml: ElementTree.Element, table: Mapping[str, Any], keep_names: bool = False
) -> dict[str, Any]:
    """How the text writes each attribute of `table` it sets (`attributes.WrittenForm`);
    with `keep_names`, a reference as the name written."""
    forms: dict[str, Any] = {}
    for name, text in xml.attrib.items():
        # PyMJCF resolves the class references a text makes: a parsed `class` or
        # `childclass` reads back as the default class element (one written from
        # Python as a name reads back as that name).
        if name == "class":
            forms["dclass"] = attributes_module.CLASS_HANDLE_FORM
            continue
        if name not in table:
            continue
        if name == "childclass":
            forms[name] = attributes_module.CLASS_HANDLE_FORM
            continue
        attribute = table[name]
        if keep_names and getattr(attribute, "is_reference", False):
            forms[name] = text  # read back as written until `resolve_references()`
            continue
        # References read back as the elements they name (PyMJCF resolves them).
        # A list of numbers reads back as long as written (MjSpec pads a <numeric>'s
        # data to its size when it parses it).
        listed = isinstance(attribute, (attributes_module.Vector, attributes_module.FlatArray))
        forms[name] = len(text.split()) if listed else None
    return forms


def _keep_exact_numbers(
    xml: ElementTree.Element, table: Mapping[str, Any], mjs: Any, forms: dict[str, Any]
) -> None:
    """Records the text's numbers where the spec keeps them in single precision
    (`rgba=".1 .2 .3 1"`), so that they read back as written (`attributes.Exact`)."""
    for name, text in xml.attrib.items():
        attribute = table.get(name)
        if not isinstance(attribute, (attributes_module.Vector, attributes_module.Number)):
            continue
        if attribute.integer or type(attribute).target is not attributes_module.Attribute.target:
            continue
        stored = getattr(mjs, attribute.field, None)
        if not (
            type(stored) is float or (isinstance(stored, np.ndarray) and stored.dtype == np.float32)
        ):
            continue
        try:
            values = [float(part) for part in text.split()]
        except ValueError:
            continue
        if isinstance(stored, np.ndarray):
            if values and len(values) <= stored.size:
                forms[name] = attributes_module.written_exactly(values, len(values), stored)
        elif len(values) == 1:
            forms[name] = attributes_module.written_exactly(values[0], None, stored)


def _generic_forms(xml: ElementTree.Element, struct: Any = None) -> dict[str, Any]:
    """`_forms` for a settings struct whose attributes are its fields (visual,
    statistic); numbers the `struct` keeps in single precision (the visual settings)
    read back as written (`attributes.Exact`), as `_keep_exact_numbers` keeps them."""
    forms: dict[str, Any] = {}
    for name, text in xml.attrib.items():
        parts = text.split()
        forms[name] = len(parts) if len(parts) > 1 else None
        stored = getattr(struct, name, None) if struct is not None else None
        try:
            values = [float(part) for part in parts]
        except ValueError:
            continue
        if isinstance(stored, np.ndarray) and stored.dtype == np.float32:
            if values and len(values) <= stored.size:
                forms[name] = attributes_module.written_exactly(values, len(values), stored)
        elif type(stored) is float and len(values) == 1:
            forms[name] = attributes_module.written_exactly(values[0], None, stored)
    return forms


# The MjSpec field of each <visual> part whose name differs from the tag.
_VISUAL_FIELDS = {"global": "global_"}


__all__ = [
    "export_with_assets",
    "export_with_assets_as_zip",
    "from_file",
    "from_path",
    "from_xml_string",
    "get_assets",
    "to_xml_string",
]


def default_classes(text: str) -> dict[str, list[str]]:
    """The nested default classes MJCF text defines: the name of each class ("main" for
    the top one) -> the names of the classes made directly from it, in order (what
    `RootElement._default_children` holds for classes added through the API)."""
    try:
        root = ElementTree.fromstring(text)
    except ElementTree.ParseError:
        return {}
    tree: dict[str, list[str]] = {}

    def walk(node: ElementTree.Element, name: str) -> None:
        for child in node.findall("default"):
            child_name = child.get("class")
            if child_name:
                tree.setdefault(name, []).append(child_name)
                walk(child, child_name)

    for top in root.findall("default"):
        walk(top, "main")
    return tree
