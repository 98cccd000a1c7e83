"""Loading fitted motion-capture clips, and modifiers applied to them on load.

The HDF5 layout read here is dm_control's (dm-control 1.0.50,
`locomotion/mocap/loader.py`, the CMU files of `cmu_mocap_data`): one group per
clip, named by its identifier, with the clip's scalar fields (`dt`, `num_steps`,
`year`, ...) as attributes, and groups `walkers/walker_<i>` and `props/prop_<i>`.
A walker group has its description as attributes, the subgroups
`scaling/subtree_<j>` and `markers/marker_<j>` (attributes only), and one dataset
per pose field (`position`, `joints`, ...) shaped (field size, number of steps);
a prop group likewise.

h5py is an optional dependency (`pip install "composer-tasks[mocap]"`): it is
imported when an `HDF5TrajectoryLoader` is made.
"""

from __future__ import annotations

import abc
import collections.abc
import dataclasses
import numbers
import operator
import os
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from composer_tasks.composer import variation
from composer_tasks.mocap import records
from composer_tasks.mocap import trajectory as trajectory_module
from composer_tasks.mocap import transformations as tr

ProtoModifier = Callable[..., Any]


class TrajectoryLoader(metaclass=abc.ABCMeta):
    """Base class of loaders: finds a clip's record by key and wraps it in a trajectory.

    Args:
      trajectory_class: the class that wraps a loaded record
        (`trajectory.Trajectory`).
      proto_modifier: a callable, or an iterable of callables, each called with
        the record (`records.FittedTrajectory`) to change it in place after loading;
        None means none.

    Raises:
      ValueError: an entry of `proto_modifier` is not callable.
    """

    def __init__(
        self,
        trajectory_class: type = trajectory_module.Trajectory,
        proto_modifier: ProtoModifier | Iterable[ProtoModifier] | None = (),
    ) -> None:
        self._trajectory_class = trajectory_class
        if proto_modifier is None:
            proto_modifier = ()
        elif not isinstance(proto_modifier, collections.abc.Iterable):
            proto_modifier = (proto_modifier,)
        modifiers = tuple(proto_modifier)
        for modifier in modifiers:
            if not callable(modifier):
                raise ValueError(f"proto_modifier entries must be callable, got {modifier!r}")
        self._proto_modifiers = modifiers

    @abc.abstractmethod
    def keys(self) -> tuple:
        """The identifiers of the loadable clips."""

    @abc.abstractmethod
    def _get_proto_for_key(self, key: str | bytes) -> records.FittedTrajectory:
        """The record of the clip named `key`."""

    def get_trajectory(
        self,
        key: str | bytes,
        start_time: float | None = None,
        end_time: float | None = None,
        start_step: int | None = None,
        end_step: int | None = None,
        zero_out_velocities: bool = True,
    ) -> Any:
        """The clip named `key`, modified by the loader's modifiers, as a trajectory
        restricted to the given times (s) or steps (see `trajectory.Trajectory`)."""
        proto = self._get_proto_for_key(key)
        for modifier in self._proto_modifiers:
            modifier(proto)
        return self._trajectory_class(
            proto,
            start_time=start_time,
            end_time=end_time,
            start_step=start_step,
            end_step=end_step,
            zero_out_velocities=zero_out_velocities,
        )


def _decoded(value: Any) -> Any:
    if isinstance(value, (bytes, np.bytes_)):
        return bytes(value).decode("utf-8")
    return value


def _fill_fields(record: Any, attributes: Any, skip: tuple[str, ...] = ()) -> None:
    """Copies the scalar and repeated-scalar fields of `record` found in `attributes`."""
    for field in dataclasses.fields(record):
        if field.name in skip or field.name not in attributes:
            continue
        current = getattr(record, field.name)
        if dataclasses.is_dataclass(current):
            continue
        value = attributes[field.name]
        if isinstance(current, np.ndarray):
            setattr(record, field.name, np.array(value, dtype=np.float64).ravel())
        elif isinstance(current, list):
            setattr(record, field.name, [_decoded(item) for item in np.ravel(value)])
        else:
            setattr(record, field.name, type(current)(_decoded(value)))


class HDF5TrajectoryLoader(TrajectoryLoader):
    """Loads clips from an HDF5 file in dm_control's layout (this module's docstring).

    Args:
      path: the HDF5 file (e.g. `cmu_mocap_data.get_path_for_cmu()`).
      trajectory_class, proto_modifier: as `TrajectoryLoader`.

    Raises:
      ImportError: h5py is not installed.
      FileNotFoundError: there is no file at `path`.
    """

    def __init__(
        self,
        path: str,
        trajectory_class: type = trajectory_module.Trajectory,
        proto_modifier: ProtoModifier | Iterable[ProtoModifier] | None = (),
    ) -> None:
        try:
            import h5py
        except ImportError as error:
            raise ImportError(
                "HDF5TrajectoryLoader needs h5py, an optional dependency: "
                'pip install "composer-tasks[mocap]" (or pip install h5py)'
            ) from error
        if not os.path.isfile(path):
            raise FileNotFoundError(f"HDF5TrajectoryLoader: no mocap file at {path!r}")
        self._h5_file: Any = h5py.File(path, mode="r")
        self._keys = tuple(sorted(self._h5_file.keys()))
        super().__init__(trajectory_class=trajectory_class, proto_modifier=proto_modifier)

    def keys(self) -> tuple:
        return self._keys

    def _get_proto_for_key(self, key: str | bytes) -> records.FittedTrajectory:
        name = key.decode("utf-8") if isinstance(key, bytes) else str(key)
        if name not in self._h5_file:
            raise KeyError(
                f"no clip {name!r} in {self._h5_file.filename} ({len(self._keys)} clips, "
                f"e.g. {list(self._keys[:3])})"
            )
        group: Any = self._h5_file[name]
        num_steps = int(group.attrs["num_steps"])
        proto = records.FittedTrajectory(identifier=name)
        _fill_fields(proto, group.attrs, skip=("identifier",))
        proto.timesteps = [records.TimestepData() for _ in range(num_steps)]

        walkers = group["walkers"]
        for walker_id in range(len(walkers)):
            walker_group = walkers[f"walker_{walker_id}"]
            walker = records.Walker()
            _fill_fields(walker, walker_group.attrs)
            for item in _numbered(walker_group["scaling"], "subtree"):
                subtree = records.SubtreeScaling()
                _fill_fields(subtree, item.attrs)
                walker.scaling.subtree.append(subtree)
            for item in _numbered(walker_group["markers"], "marker"):
                marker = records.Marker()
                _fill_fields(marker, item.attrs)
                walker.markers.marker.append(marker)
            proto.walkers.append(walker)
            _fill_poses(proto, walker_group, records.WalkerPose, "walkers")

        props = group["props"]
        for prop_id in range(len(props)):
            prop_group = props[f"prop_{prop_id}"]
            prop = records.Prop()
            _fill_fields(prop, prop_group.attrs)
            proto.props.append(prop)
            _fill_poses(proto, prop_group, records.PropPose, "props")
        return proto


def _numbered(container: Any, prefix: str) -> list:
    return [container[f"{prefix}_{index}"] for index in range(len(container))]


def _fill_poses(
    proto: records.FittedTrajectory, group: Any, pose_class: type, attribute: str
) -> None:
    """Appends one `pose_class` record per time step, read from `group`'s datasets."""
    columns = {
        name: np.asarray(group[name], dtype=np.float64) for name in records.field_names(pose_class)
    }
    for step, timestep in enumerate(proto.timesteps):
        pose = pose_class(**{name: column[:, step].copy() for name, column in columns.items()})
        getattr(timestep, attribute).append(pose)


class PropMassLimiter:
    """A modifier that caps every prop's mass at `max_mass` (kg)."""

    def __init__(self, max_mass: float) -> None:
        self._max_mass = max_mass

    def __call__(self, proto: records.FittedTrajectory, random_state: Any = None) -> None:
        for prop in proto.props:
            prop.mass = min(prop.mass, self._max_mass)


class PropResizer:
    """A modifier that scales (`size_factor`) or grows (`size_delta`) every prop's
    size and sets its mass; each may be a variation, drawn per prop from
    `random_state`.

    Raises:
      ValueError: both `size_factor` and `size_delta` are given.
      TypeError: (when applied) the mass is not a number (None: `mass` not given).
    """

    def __init__(self, size_factor: Any = None, size_delta: Any = None, mass: Any = None) -> None:
        if size_factor and size_delta:
            raise ValueError("Only one of `size_factor` or `size_delta` can be specified.")
        if size_factor:
            self._size_variation, self._size_op = size_factor, operator.mul
        else:
            self._size_variation, self._size_op = size_delta, operator.add
        self._mass = mass

    def __call__(self, proto: records.FittedTrajectory, random_state: Any = None) -> None:
        for prop in proto.props:
            change = variation.evaluate(self._size_variation, random_state=random_state)
            if not np.shape(change):
                change = np.full(len(prop.size), change)
            for index in range(len(prop.size)):
                prop.size[index] = self._size_op(prop.size[index], change[index])
            mass = variation.evaluate(self._mass, random_state=random_state)
            if not isinstance(mass, numbers.Real):
                # dm_control's prop record (a protocol buffer) refuses it here too.
                raise TypeError(
                    f"PropResizer: a prop's mass must be a real number, not {mass!r} "
                    "(pass `mass`, a number or a variation giving one)"
                )
            prop.mass = float(mass)


class ZOffsetter:
    """A modifier that raises every walker and prop position by `z_offset` metres."""

    def __init__(self, z_offset: float = 0.0) -> None:
        self._z_offset = z_offset

    def _add_z_offset(self, values: np.ndarray) -> None:
        if len(values) % 3:
            raise ValueError(f"ZOffsetter: {len(values)} values are not 3-vectors")
        for index in range(2, len(values), 3):
            values[index] += self._z_offset

    def __call__(self, proto: records.FittedTrajectory, random_state: Any = None) -> None:
        for timestep in proto.timesteps:
            for walker_pose in timestep.walkers:
                self._add_z_offset(walker_pose.position)
                self._add_z_offset(walker_pose.body_positions)
                self._add_z_offset(walker_pose.center_of_mass)
            for prop_pose in timestep.props:
                self._add_z_offset(prop_pose.position)


class AppendageFixer:
    """A modifier that expresses each walker's appendages in its root frame
    (relative to the root position, rotated into the root's orientation)."""

    def __call__(self, proto: records.FittedTrajectory, random_state: Any = None) -> None:
        for timestep in proto.timesteps:
            for walker_pose in timestep.walkers:
                rotation = tr.quat_to_mat(walker_pose.quaternion)
                appendages = np.reshape(walker_pose.appendages, (-1, 3))
                relative = (appendages - np.asarray(walker_pose.position)) @ rotation
                walker_pose.appendages[:] = np.ravel(relative)
