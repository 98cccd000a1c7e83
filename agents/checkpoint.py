"""Checkpoint files: data, never code; checksummed; replaced atomically.

A checkpoint is one `.npz` file (a zip archive, readable with
`np.load(path, allow_pickle=False)`) holding:

  manifest.json   the format and version, the versions of Python, numpy, JAX and
                  optax that wrote it, the payload's structure as JSON (every
                  container, number and string, with each array replaced by its
                  name), and each array's dtype, shape and SHA-256.
  NAME.npy        one member per array, named by its path in the payload
                  (`agent_state/learner/actor/0/w`).

The archive's comment is `sha256:` and the SHA-256 of every byte before it, so a
flipped or lost byte anywhere gives a clear error naming the file instead of a
quietly different checkpoint. Nothing in a checkpoint is executed when it is
read: the manifest is JSON, the arrays are read with `allow_pickle=False`, and a
named container (a NamedTuple or dataclass, such as an optax state or the loop's
counters) comes back as a `Record` of its fields, which `restore` rebuilds into
the program's own type by matching it against a template the program made (the
agent's fresh `state_dict()`): a type is never looked up from the file. The
exceptions are `dm_env.TimeStep` and `dm_env.StepType`, fixed here.

A payload holds None, bools, ints, floats, strings, bytes, numpy arrays and
scalars (not of dtype object), JAX arrays (read back as numpy arrays), lists,
tuples, dicts, OrderedDicts, deques, NamedTuples, dataclasses and `Record`s of
them. Anything else is refused with a TypeError naming its path before any file
is touched.

`save` writes to a temporary file in the same directory, flushes and fsyncs it,
then `os.replace`s it over the old checkpoint, so a crash at any moment leaves
either the previous complete checkpoint or the new complete one, never a torn
file.

Checkpoints of earlier versions were pickles, which can run code when read; they
are refused with a message naming the conversion command,

    python -m agents.checkpoint convert OLD NEW --trust

which unpickles OLD only with `--trust` (say so only for a file whose source you
trust) and writes NEW in this format. `python -m agents.checkpoint show PATH`
prints a checkpoint's manifest.

Every file of a run directory (checkpoint, metrics, config) gets the mode of a
newly created file under the process's umask (`new_file_mode`), whichever way it
was written.
"""

import argparse
import collections
import dataclasses
import enum
import hashlib
import importlib.metadata
import io
import json
import math
import os
import platform
import re
import sys
import tempfile
import zipfile
from collections.abc import Callable, Mapping
from typing import IO, Any

import dm_env
import jax
import numpy as np

FORMAT = "agents-checkpoint"
VERSION = 3
MANIFEST_MEMBER = "manifest.json"
CONVERT_COMMAND = "python -m agents.checkpoint convert OLD NEW --trust"
_TRAILER_PREFIX = b"sha256:"
_TRAILER_BYTES = len(_TRAILER_PREFIX) + 64
_ZIP_MAGIC = b"PK\x03\x04"
# Version 2 files began with this line (then a digest and a pickle); version 1 files
# were bare pickles, which begin with the PROTO opcode.
_PICKLE_HEADER_PREFIX = b"agents-checkpoint "
_PICKLE_PROTO = b"\x80"
_SAFE_NAME = re.compile(r"[A-Za-z0-9_.\-]+")
# The named types a checkpoint may name and get back as themselves.
_FIXED_TYPES: dict[str, type] = {
    f"{cls.__module__}.{cls.__qualname__}": cls for cls in (dm_env.TimeStep, dm_env.StepType)
}
_VERSIONED_DISTRIBUTIONS = ("numpy", "jax", "jaxlib", "optax", "dm-env")


class LegacyCheckpointError(ValueError):
    """A pickle checkpoint of an earlier version: refused, never unpickled."""


def new_file_mode() -> int:
    """The mode `open(path, 'w')` would give a new file: 0o666 under the umask."""
    # The umask can only be read by setting it; set it straight back.
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


def _replace_atomically(path: str | os.PathLike, write: Callable[[IO[bytes]], None]) -> None:
    """Calls `write(file)` on a temporary file beside `path`, fsyncs it, and
    `os.replace`s it over `path`; on any error the temporary file is removed."""
    path = os.fspath(path)
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    handle, temporary = tempfile.mkstemp(
        dir=directory, prefix=f".{os.path.basename(path)}.", suffix=".tmp"
    )
    try:
        # mkstemp creates 0600 files; give the run's files one consistent mode.
        os.fchmod(handle, new_file_mode())
        with os.fdopen(handle, "w+b") as file:
            write(file)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise
    # Make the rename itself durable; not every platform lets a directory be opened.
    try:
        directory_handle = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(directory_handle)
    except OSError:
        pass
    finally:
        os.close(directory_handle)


def write_atomically(path: str | os.PathLike, data: bytes) -> None:
    """Writes `data` to `path` through a fsynced temporary file and `os.replace`."""

    def write(file: IO[bytes]) -> None:
        file.write(data)

    _replace_atomically(path, write)


# ----------------------------------------------------------------------------- records


class Record:
    """A NamedTuple or dataclass read from a checkpoint: its type's name and fields.

    Fields read as attributes (`record.env_steps`) or through `fields`. `restore`
    turns a record into the program's own type; nothing else does, so a file
    cannot make this process build an object of a type the program did not choose.
    """

    __slots__ = ("type_name", "kind", "fields")

    def __init__(self, type_name: str, kind: str, fields: Mapping[str, Any]) -> None:
        if kind not in ("namedtuple", "dataclass"):
            raise ValueError(f"record kind {kind!r}; expected 'namedtuple' or 'dataclass'.")
        self.type_name = type_name
        self.kind = kind
        self.fields = dict(fields)

    def __getattr__(self, name: str) -> Any:
        fields = object.__getattribute__(self, "fields")
        if name in fields:
            return fields[name]
        type_name = object.__getattribute__(self, "type_name")
        raise AttributeError(f"the checkpoint's {type_name} has no field {name!r}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Record):
            return NotImplemented
        return (self.type_name, self.kind, list(self.fields)) == (
            other.type_name,
            other.kind,
            list(other.fields),
        ) and all(_same_value(self.fields[name], other.fields[name]) for name in self.fields)

    __hash__ = None  # type: ignore[assignment]  # Mutable fields: not hashable.

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={value!r}" for name, value in self.fields.items())
        return f"Record({self.type_name}: {fields})"


def _same_value(value: Any, other: Any) -> bool:
    if isinstance(value, np.ndarray) or isinstance(other, np.ndarray):
        return (
            isinstance(value, np.ndarray)
            and isinstance(other, np.ndarray)
            and value.dtype == other.dtype
            and np.array_equal(value, other, equal_nan=value.dtype.kind in "fc")
        )
    return bool(value == other)


jax.tree_util.register_pytree_node(
    Record,
    lambda record: (
        list(record.fields.values()),
        (record.type_name, record.kind, tuple(record.fields)),
    ),
    lambda aux, children: Record(aux[0], aux[1], dict(zip(aux[2], children))),
)


def _type_name(value: Any) -> str:
    cls = type(value)
    return f"{cls.__module__}.{cls.__qualname__}"


def _is_namedtuple(value: Any) -> bool:
    return isinstance(value, tuple) and hasattr(type(value), "_fields")


def _is_dataclass_instance(value: Any) -> bool:
    return dataclasses.is_dataclass(value) and not isinstance(value, type)


def _named_fields(value: Any) -> dict[str, Any]:
    if _is_namedtuple(value):
        return dict(zip(type(value)._fields, value))
    return {field.name: getattr(value, field.name) for field in dataclasses.fields(value)}


# ----------------------------------------------------------------------------- encoding


class _Encoder:
    """Turns a payload into (JSON tree, {name: array}); see the module docstring."""

    def __init__(self) -> None:
        self.arrays: dict[str, np.ndarray] = {}

    def _array_name(self, path: tuple[str, ...]) -> str:
        name = "/".join(path) or "root"
        if not all(_SAFE_NAME.fullmatch(part) for part in path) or name in self.arrays:
            name = f"array_{len(self.arrays)}"
        return name

    def _store(self, array: np.ndarray, path: tuple[str, ...], where: str) -> str:
        if array.dtype.hasobject:
            raise TypeError(
                f"checkpoint payload {where} is an array of dtype object, which is not data; "
                "store numbers (or a list of the objects' data) instead."
            )
        name = self._array_name(path)
        self.arrays[name] = _contiguous(array)
        return name

    def encode(self, value: Any, path: tuple[str, ...] = ()) -> Any:
        where = "at the top" if not path else "at " + "/".join(path)
        if value is None or isinstance(value, (bool, str)):
            return value
        if isinstance(value, enum.Enum):
            return {"enum": _type_name(value), "value": self.encode(value.value, path)}
        if isinstance(value, int):
            return int(value)
        if isinstance(value, float):
            if math.isfinite(value):
                return float(value)
            return {"float": repr(float(value))}
        if isinstance(value, np.generic):
            return {"scalar": self._store(np.asarray(value), path, where)}
        if isinstance(value, np.ndarray):
            return {"array": self._store(value, path, where)}
        if isinstance(value, jax.Array):
            return {"array": self._store(np.asarray(jax.device_get(value)), path, where)}
        if isinstance(value, (bytes, bytearray)):
            return {"bytes": self._store(np.frombuffer(bytes(value), np.uint8), path, where)}
        if isinstance(value, Record):
            return self._record(value.type_name, value.kind, value.fields, path)
        if _is_namedtuple(value):
            return self._record(_type_name(value), "namedtuple", _named_fields(value), path)
        if _is_dataclass_instance(value):
            return self._record(_type_name(value), "dataclass", _named_fields(value), path)
        if type(value) in (dict, collections.OrderedDict):
            return self._mapping(value, path)
        if type(value) in (list, tuple):
            kind = "list" if isinstance(value, list) else "tuple"
            return {kind: [self.encode(item, (*path, str(i))) for i, item in enumerate(value)]}
        if type(value) is collections.deque:
            return {
                "deque": [self.encode(item, (*path, str(i))) for i, item in enumerate(value)],
                "maxlen": value.maxlen,
            }
        raise TypeError(
            f"checkpoint payload {where} is a {_type_name(value)}, which is not data: a "
            "checkpoint holds numbers, strings, arrays and containers of them (see "
            "agents/checkpoint.py)."
        )

    def _record(
        self, type_name: str, kind: str, fields: Mapping[str, Any], path: tuple[str, ...]
    ) -> dict:
        return {
            "record": type_name,
            "kind": kind,
            "fields": {name: self.encode(value, (*path, name)) for name, value in fields.items()},
        }

    def _mapping(self, value: Mapping, path: tuple[str, ...]) -> dict:
        ordered = isinstance(value, collections.OrderedDict)
        if all(isinstance(key, str) for key in value):
            node: dict[str, Any] = {
                "dict": {key: self.encode(item, (*path, key)) for key, item in value.items()}
            }
        else:
            node = {
                "items": [
                    [self.encode(key, (*path, f"key{i}")), self.encode(item, (*path, str(key)))]
                    for i, (key, item) in enumerate(value.items())
                ]
            }
        if ordered:
            node["ordered"] = True
        return node


class _Decoder:
    """Rebuilds a payload from the manifest's JSON tree and the checked arrays."""

    def __init__(self, arrays: Mapping[str, np.ndarray], source: str) -> None:
        self.arrays = arrays
        self.source = source

    def _fail(self, detail: str) -> ValueError:
        return ValueError(f"checkpoint {self.source} is malformed: {detail}.")

    def _array(self, name: Any) -> np.ndarray:
        if not isinstance(name, str) or name not in self.arrays:
            raise self._fail(f"it refers to an array {name!r} that it does not hold")
        return self.arrays[name]

    def decode(self, node: Any) -> Any:
        if node is None or isinstance(node, (bool, int, float, str)):
            return node
        if not isinstance(node, dict) or not node:
            raise self._fail(f"a node of its payload is {type(node).__name__}")
        kind = next(iter(node))
        if kind == "float" and node["float"] in ("nan", "inf", "-inf"):
            return float(node["float"])
        if kind == "array":
            return self._array(node["array"])
        if kind == "scalar":
            return self._array(node["scalar"])[()]
        if kind == "bytes":
            return self._array(node["bytes"]).tobytes()
        if kind in ("list", "tuple", "deque") and isinstance(node[kind], list):
            items = [self.decode(item) for item in node[kind]]
            if kind == "deque":
                maxlen = node.get("maxlen")
                if maxlen is not None and (not isinstance(maxlen, int) or maxlen < 0):
                    raise self._fail(f"a deque has maxlen {maxlen!r}")
                return collections.deque(items, maxlen)
            return items if kind == "list" else tuple(items)
        if kind == "dict" and isinstance(node["dict"], dict):
            items = [(key, self.decode(item)) for key, item in node["dict"].items()]
            return self._mapping(items, node)
        if kind == "items" and isinstance(node["items"], list):
            pairs = []
            for pair in node["items"]:
                if not isinstance(pair, list) or len(pair) != 2:
                    raise self._fail("a dict item is not a [key, value] pair")
                pairs.append((self.decode(pair[0]), self.decode(pair[1])))
            return self._mapping(pairs, node)
        if kind == "enum":
            cls = _FIXED_TYPES.get(node["enum"])
            if cls is None or not issubclass(cls, enum.Enum):
                raise self._fail(
                    f"it names the enum {node['enum']!r}, which is not one it may hold"
                )
            return cls(self.decode(node.get("value")))
        if kind == "record" and isinstance(node.get("fields"), dict):
            if node.get("kind") not in ("namedtuple", "dataclass"):
                raise self._fail(f"a record has the kind {node.get('kind')!r}")
            fields = {name: self.decode(value) for name, value in node["fields"].items()}
            cls = _FIXED_TYPES.get(node["record"])
            if cls is not None and node.get("kind") == "namedtuple":
                try:
                    return cls(**fields)
                except TypeError as error:
                    raise self._fail(f"its {node['record']} has other fields ({error})") from error
            return Record(str(node["record"]), str(node.get("kind")), fields)
        raise self._fail(f"a node of its payload has the unknown form {sorted(node)}")

    def _mapping(self, pairs: list[tuple[Any, Any]], node: dict) -> dict:
        try:
            if node.get("ordered"):
                return collections.OrderedDict(pairs)
            return dict(pairs)
        except TypeError as error:
            raise self._fail(f"a dict key is not hashable ({error})") from error


def _versions() -> dict[str, str]:
    versions = {"python": platform.python_version()}
    for distribution in _VERSIONED_DISTRIBUTIONS:
        try:
            versions[distribution] = importlib.metadata.version(distribution)
        except importlib.metadata.PackageNotFoundError:
            continue
    return versions


def _contiguous(array: np.ndarray) -> np.ndarray:
    """`array` in C order, 0-d kept 0-d (np.ascontiguousarray makes it 1-d)."""
    return array if array.flags.c_contiguous else array.copy(order="C")


def _array_digest(array: np.ndarray) -> str:
    return hashlib.sha256(_contiguous(array).tobytes()).hexdigest()


def _write_archive(file: IO[bytes], manifest: bytes, arrays: Mapping[str, np.ndarray]) -> None:
    """Writes the zip archive, then puts the SHA-256 of all its bytes in its comment."""
    with zipfile.ZipFile(file, "w", zipfile.ZIP_STORED, allowZip64=True) as archive:
        archive.comment = _TRAILER_PREFIX + b"0" * 64
        archive.writestr(MANIFEST_MEMBER, manifest)
        for name, array in arrays.items():
            with archive.open(f"{name}.npy", "w", force_zip64=True) as member:
                np.lib.format.write_array(member, array, allow_pickle=False)
    end = file.tell()
    file.seek(0)
    digest = hashlib.sha256()
    remaining = end - 64
    while remaining:
        chunk = file.read(min(remaining, 1 << 20))
        digest.update(chunk)
        remaining -= len(chunk)
    file.seek(end - 64)
    file.write(digest.hexdigest().encode())


def save(path: str | os.PathLike, payload: dict) -> None:
    """Writes `payload` to `path` atomically (creating the directory if needed).

    Raises:
      TypeError: `payload` is not a dict, or holds something that is not data
        (the message names its path); no file is touched then.
    """
    if not isinstance(payload, dict):
        raise TypeError(f"payload is {type(payload).__name__}; expected a dict.")
    # Encoded before any file is touched: a payload that is not data leaves the
    # previous checkpoint as it was.
    encoder = _Encoder()
    tree = encoder.encode(payload)
    manifest = {
        "format": FORMAT,
        "version": VERSION,
        "versions": _versions(),
        "payload": tree,
        "arrays": {
            name: {
                "dtype": array.dtype.str,
                "shape": list(array.shape),
                "sha256": _array_digest(array),
            }
            for name, array in encoder.arrays.items()
        },
    }
    manifest_bytes = json.dumps(manifest, indent=1, allow_nan=False).encode()
    _replace_atomically(path, lambda file: _write_archive(file, manifest_bytes, encoder.arrays))


def check_data(value: Any) -> None:
    """Raises TypeError naming the path of the first thing in `value` that a
    checkpoint cannot hold (see the module docstring); writes nothing."""
    _Encoder().encode(value)


def _legacy_message(path: str, what: str) -> str:
    return (
        f"{path!r} is {what}: agents checkpoints before version {VERSION} were pickles, "
        "and unpickling a file can run any code it holds, so it is not loaded. If you "
        f"trust its source, convert it once: {CONVERT_COMMAND.replace('OLD', repr(path))}"
    )


def _read_verified(path: str) -> bytes:
    """The file's bytes once its trailer digest matches; errors name the file."""
    if not os.path.isfile(path):
        raise FileNotFoundError(f"no checkpoint file at {path!r}.")
    with open(path, "rb") as file:
        data = file.read()
    if data.startswith(_PICKLE_HEADER_PREFIX):
        raise LegacyCheckpointError(_legacy_message(path, "a pickle checkpoint of version 2"))
    if data.startswith(_PICKLE_PROTO):
        raise LegacyCheckpointError(
            _legacy_message(path, "a pickle (a version 1 checkpoint, or another file)")
        )
    if not data.startswith(_ZIP_MAGIC):
        raise ValueError(
            f"{path!r} is not a readable checkpoint (an .npz archive written by "
            f"agents.checkpoint.save); a pickle checkpoint of an older version is converted "
            f"with: {CONVERT_COMMAND}"
        )
    trailer = data[-_TRAILER_BYTES:]
    if len(data) < _TRAILER_BYTES or not trailer.startswith(_TRAILER_PREFIX):
        raise ValueError(
            f"checkpoint {path!r} is corrupted: its SHA-256 trailer is missing or damaged "
            "(the file was cut short or changed after it was written); use another copy."
        )
    # A view, not a slice: a replay buffer's checkpoint is not copied to be hashed.
    if (
        hashlib.sha256(memoryview(data)[:-64]).hexdigest().encode()
        != trailer[len(_TRAILER_PREFIX) :]
    ):
        raise ValueError(
            f"checkpoint {path!r} is corrupted: its SHA-256 checksum does not match its "
            "contents (the file was damaged after it was written); use another copy."
        )
    return data


def read_manifest(path: str | os.PathLike) -> dict:
    """The checkpoint's manifest (format, versions, payload structure, array digests),
    after the file's checksum is verified; no array is read."""
    path = os.fspath(path)
    data = _read_verified(path)
    return _manifest(path, zipfile.ZipFile(io.BytesIO(data)))


def _manifest(path: str, archive: zipfile.ZipFile) -> dict:
    try:
        manifest = json.loads(archive.read(MANIFEST_MEMBER))
    except (KeyError, ValueError, zipfile.BadZipFile) as error:
        raise ValueError(f"checkpoint {path!r} has no readable manifest: {error}") from error
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise ValueError(f"{path!r} is not an agents checkpoint (no {FORMAT!r} marker).")
    if manifest.get("version") != VERSION:
        raise ValueError(
            f"{path!r} has checkpoint version {manifest.get('version')}; this code reads {VERSION}."
        )
    if not isinstance(manifest.get("arrays"), dict):
        raise ValueError(f"checkpoint {path!r} is malformed: its manifest lists no arrays.")
    return manifest


def load(path: str | os.PathLike) -> dict:
    """Reads a checkpoint written by `save`, verifies its checksums, returns its payload.

    Named containers come back as `Record`s (but dm_env's TimeStep and StepType);
    `restore` rebuilds them into the program's types.

    Raises:
      FileNotFoundError: no file at `path`.
      LegacyCheckpointError (a ValueError): a pickle checkpoint of an earlier
        version; the message names the conversion command. It is never unpickled.
      ValueError: not a checkpoint, a damaged one, or one of another version.
    """
    path = os.fspath(path)
    data = _read_verified(path)
    archive = zipfile.ZipFile(io.BytesIO(data))
    manifest = _manifest(path, archive)
    listed = manifest["arrays"]
    members = set(archive.namelist()) - {MANIFEST_MEMBER}
    if members != {f"{name}.npy" for name in listed}:
        raise ValueError(
            f"checkpoint {path!r} is malformed: its members {sorted(members)} are not the "
            f"arrays its manifest lists."
        )
    arrays = {}
    with np.load(io.BytesIO(data), allow_pickle=False) as archive_arrays:
        for name, entry in listed.items():
            array = archive_arrays[name]
            if (
                not isinstance(array, np.ndarray)
                or not isinstance(entry, dict)
                or array.dtype.str != entry.get("dtype")
                or list(array.shape) != entry.get("shape")
                or _array_digest(array) != entry.get("sha256")
            ):
                raise ValueError(
                    f"checkpoint {path!r} is corrupted: array {name!r} does not match its "
                    "manifest's dtype, shape or SHA-256."
                )
            arrays[name] = array
    try:
        payload = _Decoder(arrays, repr(path)).decode(manifest.get("payload"))
    except RecursionError as error:
        raise ValueError(
            f"checkpoint {path!r} is malformed: its payload nests too deeply."
        ) from error
    if not isinstance(payload, dict):
        raise ValueError(f"checkpoint {path!r} is malformed: its payload is not a dict.")
    return payload


# ----------------------------------------------------------------------------- restoring

_MISSING = object()


def restore(template: Any, value: Any) -> Any:
    """`value` (from `load`) with every `Record` rebuilt as the type the template has
    in the same place.

    `template` is a value of the program's own making with the structure the
    checkpoint should have (an agent's fresh `state_dict()`, a default dataclass).
    Containers of `value` are walked alongside it: dict entries by key, sequence items
    by position (where the lengths agree), record fields by name. Only named
    containers need the template; everything else is returned as loaded.

    Raises:
      ValueError: a record with no template beside it, or one whose type name or
        fields differ from the template's (the message names the path).
    """
    return _restore(template, value, "")


def _describe(template: Any) -> str:
    if template is _MISSING:
        return "nothing"
    return f"a {_type_name(template)}"


def _restore(template: Any, value: Any, path: str) -> Any:
    where = path or "the top"
    if isinstance(value, Record):
        named = _is_namedtuple(template) or _is_dataclass_instance(template)
        if template is _MISSING or not named or _type_name(template) != value.type_name:
            raise ValueError(
                f"the checkpoint holds a {value.type_name} at {where} where this program "
                f"has {_describe(template)}: it was written by other code or for another "
                "configuration."
            )
        template_fields = _named_fields(template)
        if list(template_fields) != list(value.fields):
            raise ValueError(
                f"the checkpoint's {value.type_name} at {where} has the fields "
                f"{list(value.fields)}; this program's has {list(template_fields)}."
            )
        fields = {
            name: _restore(template_fields[name], item, f"{path}.{name}")
            for name, item in value.fields.items()
        }
        return type(template)(**fields)
    if _is_namedtuple(value):
        same = type(template) is type(value)
        return type(value)(
            *(
                _restore(template[i] if same else _MISSING, item, f"{path}.{name}")
                for i, (name, item) in enumerate(zip(type(value)._fields, value))
            )
        )
    if isinstance(value, dict):
        inner = template if isinstance(template, Mapping) else {}
        return type(value)(
            (key, _restore(inner.get(key, _MISSING), item, f"{path}[{key!r}]"))
            for key, item in value.items()
        )
    if isinstance(value, (list, tuple, collections.deque)):
        same_length = (
            isinstance(template, (list, tuple, collections.deque))
            and not _is_namedtuple(template)
            and len(template) == len(value)
        )
        items = [
            _restore(template[i] if same_length else _MISSING, item, f"{path}[{i}]")
            for i, item in enumerate(value)
        ]
        if isinstance(value, collections.deque):
            return collections.deque(items, value.maxlen)
        return type(value)(items)
    return value


# ----------------------------------------------------------------------------- conversion


def _unpickle_legacy(path: str) -> dict:
    """The payload of a pickle checkpoint (version 1 or 2). Runs the file's code:
    called only by `convert` with trust given."""
    import pickle  # pylint: disable=import-outside-toplevel

    with open(path, "rb") as file:
        data = file.read()
    header = f"{FORMAT} 2 sha256\n".encode()
    if data.startswith(header):
        digest = data[len(header) : len(header) + 65]
        body = data[len(header) + 65 :]
        if digest != hashlib.sha256(body).hexdigest().encode() + b"\n":
            raise ValueError(
                f"checkpoint {path!r} is corrupted: its SHA-256 checksum does not match its "
                "contents; it is not converted."
            )
        payload = pickle.loads(body)
    else:
        wrapper = pickle.loads(data)
        if not isinstance(wrapper, dict) or wrapper.get("format") != FORMAT:
            raise ValueError(f"{path!r} is not an agents checkpoint (no {FORMAT!r} marker).")
        if wrapper.get("version") != 1:
            raise ValueError(f"{path!r} has pickle checkpoint version {wrapper.get('version')}.")
        payload = wrapper["payload"]
    if not isinstance(payload, dict):
        raise ValueError(f"{path!r} holds a {type(payload).__name__}, not a checkpoint payload.")
    return payload


def convert(old_path: str | os.PathLike, new_path: str | os.PathLike, trust: bool) -> list[str]:
    """Rewrites a pickle checkpoint of an earlier version in this format.

    Unpickling runs whatever code the old file holds: `trust` must be True, which
    says its source is trusted. An environment pickled whole (those checkpoints
    held one where the environment could be pickled) is an object, not data: it is
    dropped, and a run resumed from the new file starts new episodes; an
    environment snapshot is kept. Returns notes on what was dropped.

    Raises:
      PermissionError: `trust` is not True.
      ValueError: OLD is not a pickle checkpoint, or is damaged.
    """
    old_path, new_path = os.fspath(old_path), os.fspath(new_path)
    if trust is not True:
        raise PermissionError(
            f"converting {old_path!r} unpickles it, which runs any code the file holds; "
            "pass trust=True (--trust) only for a file whose source you trust."
        )
    payload = _unpickle_legacy(old_path)
    notes = []
    import pickle  # pylint: disable=import-outside-toplevel

    if payload.get("env") is not None:
        notes.append(
            "the environment pickled in the checkpoint is an object, not data: dropped "
            "(a resumed run starts new episodes)"
        )
    payload.pop("env", None)
    if isinstance(payload.get("env_snapshot"), bytes):
        payload["env_snapshot"] = pickle.loads(payload["env_snapshot"])
    save(new_path, payload)
    return notes


def _main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m agents.checkpoint",
        description="Inspect a checkpoint, or convert a pickle checkpoint of an earlier version.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    show = commands.add_parser("show", help="print a checkpoint's manifest")
    show.add_argument("path")
    converting = commands.add_parser(
        "convert", help="rewrite a pickle checkpoint (runs its code: needs --trust)"
    )
    converting.add_argument("old")
    converting.add_argument("new")
    converting.add_argument(
        "--trust",
        action="store_true",
        help="unpickle OLD, running any code it holds: only for a file you trust",
    )
    arguments = parser.parse_args(argv)
    if arguments.command == "show":
        print(json.dumps(read_manifest(arguments.path), indent=1))
        return 0
    if not arguments.trust:
        print(
            f"refusing to convert {arguments.old!r}: converting unpickles it, which runs any "
            "code the file holds. Add --trust only if you trust the file's source.",
            file=sys.stderr,
        )
        return 2
    for note in convert(arguments.old, arguments.new, trust=True):
        print(f"note: {note}", file=sys.stderr)
    print(f"wrote {arguments.new}")
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
