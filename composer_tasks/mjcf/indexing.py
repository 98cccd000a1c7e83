"""Where an element's quantity lives in MuJoCo's arrays: the basis of `bind` and `named`.

For a kind of element and an attribute name, `locate` finds the `MjData` or
`MjModel` array and the entries of it that belong to given elements, with the
shape PyMJCF gives them:

* per-element rows (`xpos` of bodies, `geom_size`, `ctrl`, `body_mass`): one
  element gives its row (`(3,)`, or `()` for a scalar row), a list of n elements
  `(n, *row)`;
* address-indexed quantities of varying width (`qpos`, `qvel` and other
  per-degree-of-freedom arrays of joints, `sensordata`, `act`): one element gives
  its slice (`(1,)` for a hinge's qpos, `(7,)` for a free joint's), a list gives the
  slices concatenated.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import mujoco
import numpy as np
from numpy.typing import ArrayLike, DTypeLike

if TYPE_CHECKING:
    from composer_tasks.mjcf.physics import Physics


KINDS = {
    "body": (mujoco.mjtObj.mjOBJ_BODY, "nbody"),
    "joint": (mujoco.mjtObj.mjOBJ_JOINT, "njnt"),
    "geom": (mujoco.mjtObj.mjOBJ_GEOM, "ngeom"),
    "site": (mujoco.mjtObj.mjOBJ_SITE, "nsite"),
    "camera": (mujoco.mjtObj.mjOBJ_CAMERA, "ncam"),
    "light": (mujoco.mjtObj.mjOBJ_LIGHT, "nlight"),
    "actuator": (mujoco.mjtObj.mjOBJ_ACTUATOR, "nu"),
    "sensor": (mujoco.mjtObj.mjOBJ_SENSOR, "nsensor"),
    "tendon": (mujoco.mjtObj.mjOBJ_TENDON, "ntendon"),
    "mesh": (mujoco.mjtObj.mjOBJ_MESH, "nmesh"),
    "material": (mujoco.mjtObj.mjOBJ_MATERIAL, "nmat"),
    "texture": (mujoco.mjtObj.mjOBJ_TEXTURE, "ntex"),
    "hfield": (mujoco.mjtObj.mjOBJ_HFIELD, "nhfield"),
    "equality": (mujoco.mjtObj.mjOBJ_EQUALITY, "neq"),
    "pair": (mujoco.mjtObj.mjOBJ_PAIR, "npair"),
    "exclude": (mujoco.mjtObj.mjOBJ_EXCLUDE, "nexclude"),
    "key": (mujoco.mjtObj.mjOBJ_KEY, "nkey"),
}

# Name prefixes of per-element arrays, in MjModel and in MjData.
_MODEL_PREFIXES = {
    "body": "body_",
    "joint": "jnt_",
    "geom": "geom_",
    "site": "site_",
    "camera": "cam_",
    "light": "light_",
    "actuator": "actuator_",
    "sensor": "sensor_",
    "tendon": "tendon_",
    "mesh": "mesh_",
    "material": "mat_",
    "texture": "tex_",
    "hfield": "hfield_",
    "equality": "eq_",
    "pair": "pair_",
    "exclude": "exclude_",
    "key": "key_",
}
_DATA_PREFIXES = {
    "body": "",
    "geom": "geom_",
    "site": "site_",
    "camera": "cam_",
    "light": "light_",
    "actuator": "actuator_",
    "tendon": "ten_",
    "joint": "",
}
_JOINT_WIDTHS = {
    int(mujoco.mjtJoint.mjJNT_FREE): (7, 6),
    int(mujoco.mjtJoint.mjJNT_BALL): (4, 3),
    int(mujoco.mjtJoint.mjJNT_SLIDE): (1, 1),
    int(mujoco.mjtJoint.mjJNT_HINGE): (1, 1),
}

# Column names for `named` indexing with a second key (`named.data.xpos["torso", "z"]`).
_XYZ = ("x", "y", "z")
_QUATERNION = ("qw", "qx", "qy", "qz")
_MATRIX = ("xx", "xy", "xz", "yx", "yy", "yz", "zx", "zy", "zz")


class Location:
    """Entries of one MuJoCo array: the array, flat positions into it, output shape.

    `contiguous` tells that the positions are one run, so a view can be read.
    """

    __slots__ = ("array", "name", "positions", "shape", "struct")

    def __init__(
        self,
        array: np.ndarray,
        positions: np.ndarray,
        shape: tuple[int, ...],
        struct: str,
        name: str,
    ) -> None:
        self.array = array
        self.positions = positions
        self.shape = shape
        self.struct = struct
        self.name = name

    @property
    def contiguous(self) -> bool:
        positions = self.positions
        return (
            positions.size > 0 and bool(np.all(np.diff(positions) == 1))
            if positions.size > 1
            else positions.size == 1
        )

    def view(self) -> np.ndarray:
        """A view (writes reach the simulation); needs `contiguous`."""
        flat = self.array.reshape(-1)
        start = int(self.positions[0])
        return flat[start : start + self.positions.size].reshape(self.shape)

    def read(self) -> np.ndarray:
        """A new array with the values."""
        return self.array.reshape(-1)[self.positions].reshape(self.shape)

    def write(self, value: ArrayLike) -> None:
        flat = self.array.reshape(-1)
        flat[self.positions] = np.broadcast_to(np.asarray(value), self.shape).reshape(-1)


def _address(
    model: Any, kind: str, attribute: str | None, array_name: str, struct_name: str
) -> tuple[np.ndarray, np.ndarray]:
    """(address array, width array) when `attribute` is address-indexed for `kind`."""
    if kind == "joint":
        types = model.jnt_type
        if array_name in ("qpos", "qpos0", "qpos_spring"):
            widths = np.array([_JOINT_WIDTHS[int(t)][0] for t in types], dtype=int)
            return model.jnt_qposadr, widths
        widths = np.array([_JOINT_WIDTHS[int(t)][1] for t in types], dtype=int)
        return model.jnt_dofadr, widths
    if kind == "sensor" and array_name == "sensordata":
        return model.sensor_adr, model.sensor_dim
    if kind == "actuator" and array_name == "act":
        return model.actuator_actadr, np.where(model.actuator_actadr >= 0, model.actuator_actnum, 0)
    raise AssertionError(f"{array_name} of a {kind} is not indexed by address")


def _candidates(
    model: Any, data: Any, kind: str, attribute: str
) -> list[tuple[str, Any, str, str]]:
    """(struct name, struct, array name, how) candidates for an attribute, best first.

    `how` is "rows" or "address".
    """
    out = []
    if data is not None:
        if kind == "joint":
            if attribute == "qpos":
                out.append(("data", data, "qpos", "address"))
            elif attribute in ("xanchor", "xaxis"):
                out.append(("data", data, attribute, "rows"))
            elif isinstance(getattr(data, attribute, None), np.ndarray) and (
                getattr(data, attribute).shape[:1] == (model.nv,)
            ):
                out.append(("data", data, attribute, "address"))
        elif kind == "sensor" and attribute in ("sensordata", "data"):
            out.append(("data", data, "sensordata", "address"))
        elif kind == "actuator" and attribute == "act":
            out.append(("data", data, "act", "address"))
        elif kind == "actuator" and attribute == "ctrl":
            out.append(("data", data, "ctrl", "rows"))
        elif kind in _DATA_PREFIXES:
            prefix = _DATA_PREFIXES[kind]
            for name in dict.fromkeys((prefix + attribute, attribute)):
                out.append(("data", data, name, "rows"))
    if kind == "joint":
        if attribute in ("qpos0", "qpos_spring"):
            out.append(("model", model, attribute, "address"))
        out.append(("model", model, "jnt_" + attribute, "rows"))
        out.append(("model", model, "dof_" + attribute, "address"))
    elif kind in _MODEL_PREFIXES:
        out.append(("model", model, _MODEL_PREFIXES[kind] + attribute, "rows"))
    return out


def locate(
    model: Any, data: Any, kind: str, ids: ArrayLike, attribute: str, is_sequence: bool
) -> Location:
    """The entries of elements `ids` (of `kind`) for `attribute`.

    Raises:
      AttributeError: neither MjData nor MjModel has `attribute` for `kind`.
    """
    _, count_name = KINDS[kind]
    count = getattr(model, count_name)
    ids = np.asarray(ids, dtype=int).reshape(-1)
    for struct_name, struct, array_name, how in _candidates(model, data, kind, attribute):
        array = getattr(struct, array_name, None)
        if not isinstance(array, np.ndarray):
            continue
        if how == "address":
            address, widths = _address(model, kind, attribute, array_name, struct_name)
            pieces = [
                np.arange(int(address[i]), int(address[i] + widths[i])) * _row_size(array)
                for i in ids
            ]
            if _row_size(array) != 1:
                pieces = [
                    np.concatenate([np.arange(p, p + _row_size(array)) for p in piece])
                    if piece.size
                    else piece
                    for piece in pieces
                ]
            positions = np.concatenate(pieces) if pieces else np.zeros(0, dtype=int)
            return Location(
                array, positions.astype(int), (positions.size,), struct_name, array_name
            )
        if array.ndim == 0 or array.shape[0] != count:
            continue
        row_shape = array.shape[1:]
        row_size = _row_size(array)
        positions = (ids[:, None] * row_size + np.arange(row_size)[None, :]).reshape(-1)
        shape = ((len(ids),) if is_sequence else ()) + row_shape
        return Location(array, positions.astype(int), shape, struct_name, array_name)
    raise AttributeError(f"neither MjData nor MjModel has an attribute {attribute!r} for a {kind}")


def _row_size(array: np.ndarray) -> int:
    return int(np.prod(array.shape[1:], dtype=int)) if array.ndim > 1 else 1


def element_ids(model: Any, kind: str, mjs_elements: Iterable[Any]) -> list[int]:
    """Ids in the compiled `model` of spec elements (all of one kind)."""
    ids = []
    for element in mjs_elements:
        ids.append(model.bind(element).id)
    return ids


def kind_of(mjs: Any) -> str:
    """The kind (`"body"`, `"joint"`, ...) of a spec element."""
    try:
        return _KIND_BY_TYPE[type(mjs)]
    except KeyError:
        raise TypeError(f"cannot bind a {type(mjs).__name__}") from None


_KIND_BY_TYPE = {
    mujoco.MjsBody: "body",
    mujoco.MjsJoint: "joint",
    mujoco.MjsGeom: "geom",
    mujoco.MjsSite: "site",
    mujoco.MjsCamera: "camera",
    mujoco.MjsLight: "light",
    mujoco.MjsActuator: "actuator",
    mujoco.MjsSensor: "sensor",
    mujoco.MjsTendon: "tendon",
    mujoco.MjsMesh: "mesh",
    mujoco.MjsMaterial: "material",
    mujoco.MjsTexture: "texture",
    mujoco.MjsHField: "hfield",
    mujoco.MjsEquality: "equality",
    mujoco.MjsPair: "pair",
    mujoco.MjsExclude: "exclude",
    mujoco.MjsKey: "key",
}


# Named indexing.


def _array_kind(
    model: Any, struct_name: str, name: str, array: np.ndarray
) -> tuple[str, str] | None:
    """(kind, how) of a named array, or None if its rows are not per element."""
    if struct_name == "data":
        if name == "qpos":
            return "joint", "address"
        if name in ("xanchor", "xaxis"):
            return "joint", "rows"
        if name == "sensordata":
            return "sensor", "address"
        if name == "act":
            return "actuator", "address"
        if name == "ctrl":
            return "actuator", "rows"
        if name.startswith("mocap_"):
            return "mocap", "rows"
        for kind, prefix in (
            ("geom", "geom_"),
            ("site", "site_"),
            ("camera", "cam_"),
            ("light", "light_"),
            ("actuator", "actuator_"),
            ("tendon", "ten_"),
        ):
            if name.startswith(prefix) and array.shape[:1] == (getattr(model, KINDS[kind][1]),):
                return kind, "rows"
        if array.shape[:1] == (model.nv,) and name.startswith("q"):
            return "joint", "address"
        if array.shape[:1] == (model.nbody,):
            return "body", "rows"
        return None
    if name in ("qpos0", "qpos_spring"):
        return "joint", "address"
    if name.startswith("dof_"):
        return "joint", "address"
    for kind, prefix in _MODEL_PREFIXES.items():
        if name.startswith(prefix) and array.shape[:1] == (getattr(model, KINDS[kind][1]),):
            return kind, "rows"
    return None


class NamedIndexer:
    """`physics.named`: `.model.<array>` and `.data.<array>` indexed by element names."""

    def __init__(self, physics: Physics) -> None:
        self._physics = physics

    @property
    def model(self) -> _NamedStruct:
        return _NamedStruct(self._physics, "model")

    @property
    def data(self) -> _NamedStruct:
        return _NamedStruct(self._physics, "data")


def named_field(model: Any, data: Any, struct_name: str, name: str) -> "FieldIndexer":
    """Array `name` of `model` or `data` (`struct_name` "model" or "data") indexed by names."""
    struct = model if struct_name == "model" else data
    array = getattr(struct, name, None)
    if not isinstance(array, np.ndarray):
        raise AttributeError(  # noqa: TRY004  (a missing attribute, as getattr raises)
            f"{struct_name}.{name} is not an array of MuJoCo's {struct_name}"
        )
    kind = _array_kind(model, struct_name, name, array)
    return FieldIndexer(model, name, array, kind)


class _NamedStruct:
    def __init__(self, physics: Physics, struct_name: str) -> None:
        self._physics = physics
        self._struct_name = struct_name

    def __getattr__(self, name: str) -> FieldIndexer:
        if name.startswith("_"):
            raise AttributeError(name)
        physics = self._physics
        physics._check_current()
        return named_field(physics.model, physics.data, self._struct_name, name)

    def __dir__(self) -> list[str]:
        physics = self._physics
        struct = physics.model if self._struct_name == "model" else physics.data
        return [
            name
            for name in dir(struct)
            if not name.startswith("_") and isinstance(getattr(struct, name, None), np.ndarray)
        ]


class FieldIndexer:
    """One MuJoCo array indexed by element names (`["leg0/hip"]`, `[["a", "b"]]`), by
    numbers as NumPy does, and by (row, column) with column names x/y/z, qw/qx/qy/qz
    or xx..zz where the row has 3, 4 or 9 entries."""

    def __init__(
        self, model: Any, name: str, array: np.ndarray, kind: tuple[str, str] | None
    ) -> None:
        self._model = model
        self._name = name
        self._array = array
        self._kind = kind

    @property
    def array(self) -> np.ndarray:
        return self._array

    def _ids(self, names: Sequence[str], kind: str) -> list[int]:
        obj = mujoco.mjtObj.mjOBJ_BODY if kind == "mocap" else KINDS[kind][0]
        ids = []
        for name in names:
            index = mujoco.mj_name2id(self._model, obj, name)
            if index < 0:
                raise KeyError(
                    f"{self._name}: no {kind if kind != 'mocap' else 'body'} named {name!r}"
                )
            if kind == "mocap":
                index = int(self._model.body_mocapid[index])
                if index < 0:
                    raise KeyError(f"{self._name}: body {name!r} is not a mocap body")
            ids.append(index)
        return ids

    def _row_index(self, key: Any) -> Any:
        if isinstance(key, str) or (
            isinstance(key, list) and key and all(isinstance(k, str) for k in key)
        ):
            if self._kind is None:
                raise KeyError(f"{self._name} is not indexed by element names")
            kind, how = self._kind
            names = [key] if isinstance(key, str) else list(key)
            ids = self._ids(names, kind)
            if how == "rows":
                return ids[0] if isinstance(key, str) else np.array(ids)
            address, widths = _address(
                self._model,
                kind,
                None,
                self._name,
                "data" if self._name in ("qpos", "sensordata", "act") else "",
            )
            if isinstance(key, str):
                start = int(address[ids[0]])
                return slice(start, start + int(widths[ids[0]]))
            return np.concatenate([np.arange(address[i], address[i] + widths[i]) for i in ids])
        return key

    def _column_index(self, key: Any) -> Any:
        if isinstance(key, str) or (
            isinstance(key, list) and key and all(isinstance(k, str) for k in key)
        ):
            width = self._array.shape[1] if self._array.ndim > 1 else 1
            names = {3: _XYZ, 4: _QUATERNION, 9: _MATRIX}.get(width)
            keys = [key] if isinstance(key, str) else list(key)
            if names is None or any(k not in names for k in keys):
                raise KeyError(f"{self._name}: no column named {key!r} (columns: {names})")
            columns = [names.index(k) for k in keys]
            return columns[0] if isinstance(key, str) else np.array(columns)
        return key

    def _index(self, key: Any) -> Any:
        # As in PyMJCF: a tuple is (rows, columns); several names are a list.
        if isinstance(key, tuple):
            if len(key) != 2:
                raise KeyError(
                    f"{self._name}: index with a name, a list of names or "
                    f"(rows, columns), got {key!r}"
                )
            return self._row_index(key[0]), self._column_index(key[1])
        return self._row_index(key)

    def __getitem__(self, key: Any) -> Any:
        return self._array[self._index(key)]

    def __setitem__(self, key: Any, value: Any) -> None:
        self._array[self._index(key)] = value

    def __len__(self) -> int:
        return len(self._array)

    def __array__(self, dtype: DTypeLike | None = None, copy: bool | None = None) -> np.ndarray:
        return np.array(self._array, dtype=dtype)

    def __repr__(self) -> str:
        return f"FieldIndexer({self._name}): {self._array!r}"
