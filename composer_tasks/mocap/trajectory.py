"""One fitted motion-capture clip, restricted to a window of its time steps.

As dm_control's `locomotion.mocap.trajectory.Trajectory` (1.0.50): the window is
[start_step, end_step) of the clip's steps (`dt` seconds apart); `as_dict` gives
read-only arrays of every walker and prop field over the window, keyed
`walker/<field>` (`walker_<i>/` with several walkers) and `prop/<field>`
(`prop_<i>/`); `get_timestep_data(time)` the record at a time (s) from the
window's start. dm_control's quirks are kept: a step or time of 0 counts as "not
given", and the `end_step` setter clips to the last step index.
"""

from __future__ import annotations

import collections.abc
import copy
from collections.abc import Iterable
from typing import Any

import numpy as np

from composer_tasks.mocap import props as mocap_props
from composer_tasks.mocap import records
from composer_tasks.mocap import walkers as mocap_walkers

# How far (in steps) a time may be from a multiple of dt (dm_control's value).
STEP_TIME_TOLERANCE = 1e-4

# Fields stored flat that hold stacked 3-vectors or quaternions.
_REPEATED_POSITION_FIELDS = ("end_effectors", "appendages", "body_positions")
_REPEATED_QUATERNION_FIELDS = ("body_quaternions",)


def _zero_velocities(timestep: records.TimestepData) -> records.TimestepData:
    copied = copy.deepcopy(timestep)
    for pose in [*copied.walkers, *copied.props]:
        pose.velocity = np.zeros_like(pose.velocity)
        pose.angular_velocity = np.zeros_like(pose.angular_velocity)
    for walker_pose in copied.walkers:
        walker_pose.joints_velocity = np.zeros_like(walker_pose.joints_velocity)
    return copied


def _walker_field(pose: records.WalkerPose, name: str) -> np.ndarray:
    values = np.asarray(getattr(pose, name), dtype=np.float64)
    if name in _REPEATED_POSITION_FIELDS:
        return values.reshape(-1, 3)
    if name in _REPEATED_QUATERNION_FIELDS:
        return values.reshape(-1, 4)
    return values


class Trajectory:
    """A clip's record (`proto`, a `records.FittedTrajectory`) and a window of it.

    Args:
      proto: the clip.
      start_time, end_time: the window in seconds (default: the whole clip); the
        end is inclusive.
      start_step, end_step: the window in step indices instead (not with the
        corresponding time); the end is inclusive.
      zero_out_velocities: give the window's last step zero velocities (a still
        end pose) in `get_timestep_data`.

    Raises:
      ValueError: both a time and a step are given for the same end, or a time is
        not a multiple of `dt`.
    """

    def __init__(
        self,
        proto: records.FittedTrajectory,
        start_time: float | None = None,
        end_time: float | None = None,
        start_step: int | None = None,
        end_step: int | None = None,
        zero_out_velocities: bool = True,
    ) -> None:
        self._proto = proto
        self._zero_out_velocities = zero_out_velocities
        if (start_time and start_step) or (end_time and end_step):
            raise ValueError(
                "Trajectory: give either start and end times or start and end steps, not both "
                f"(start_time={start_time}, start_step={start_step}, end_time={end_time}, "
                f"end_step={end_step})"
            )
        if start_step:
            start_time = start_step * self._proto.dt
        if end_step:
            end_time = end_step * self._proto.dt
        self._set_start_time(start_time or 0.0)
        self._set_end_time(end_time or (len(self._proto.timesteps) * self._proto.dt))
        self._walkers_info = tuple(mocap_walkers.WalkerInfo(walker) for walker in proto.walkers)
        self._dict: dict[str, np.ndarray] | None = None

    def as_dict(self) -> dict[str, np.ndarray]:
        """Every field over the window: (steps, ...) read-only float64 arrays."""
        if self._dict is None:
            self._dict = {}
            timesteps = self._proto.timesteps
            if timesteps:
                first = timesteps[0]
                walker_count = len(first.walkers)
                for index in range(walker_count):
                    prefix = f"walker_{index}/" if walker_count > 1 else "walker/"
                    for name in records.field_names(records.WalkerPose):
                        self._dict[prefix + name] = np.stack(
                            [_walker_field(step.walkers[index], name) for step in timesteps]
                        )
                prop_count = len(first.props)
                for index in range(prop_count):
                    prefix = f"prop_{index}/" if prop_count > 1 else "prop/"
                    for name in records.field_names(records.PropPose):
                        self._dict[prefix + name] = np.stack(
                            [
                                np.asarray(getattr(step.props[index], name), dtype=np.float64)
                                for step in timesteps
                            ]
                        )
                for array in self._dict.values():
                    array.flags.writeable = False
        return {key: value[self._start_step : self._end_step] for key, value in self._dict.items()}

    def _get_quantized_time(self, time: float) -> int:
        if time == float("inf"):
            return len(self._proto.timesteps) - 1
        divided = time / self._proto.dt
        quantized = int(np.round(divided))
        if np.abs(quantized - divided) > STEP_TIME_TOLERANCE:
            raise ValueError(f"`time` should be a multiple of dt = {self._proto.dt}: got {time}")
        return quantized

    def _get_step_id(self, time: float) -> int:
        quantized = self._get_quantized_time(time)
        return int(np.clip(quantized + self._start_step, self._start_step, self._end_step - 1))

    def get_modified_trajectory(self, proto_modifier: Any, random_state: Any = None) -> Trajectory:
        """A new trajectory of a copy of the clip changed by `proto_modifier` (a
        callable or an iterable of them, called with `random_state`), same window."""
        modified = copy.deepcopy(self._proto)
        modifiers = (
            proto_modifier
            if isinstance(proto_modifier, collections.abc.Iterable)
            else (proto_modifier,)
        )
        for modifier in modifiers:
            modifier(modified, random_state=random_state)
        return type(self)(modified, self.start_time, self.end_time)

    @property
    def identifier(self) -> str:
        return self._proto.identifier

    @property
    def start_time(self) -> float:
        return self._start_step * self._proto.dt

    @start_time.setter
    def start_time(self, value: float) -> None:
        self._set_start_time(value)

    def _set_start_time(self, value: float) -> None:
        last = len(self._proto.timesteps) - 1
        self._start_step = int(np.clip(self._get_quantized_time(value), 0, last))

    @property
    def start_step(self) -> int:
        return self._start_step

    @start_step.setter
    def start_step(self, value: int) -> None:
        self._start_step = int(np.clip(int(value), 0, len(self._proto.timesteps) - 1))

    @property
    def end_step(self) -> int:
        """One past the window's last step."""
        return self._end_step

    @end_step.setter
    def end_step(self, value: int) -> None:
        self._end_step = int(np.clip(int(value), 0, len(self._proto.timesteps) - 1))

    @property
    def end_time(self) -> float:
        """Time (s) of the window's last step."""
        return (self._end_step - 1) * self._proto.dt

    @end_time.setter
    def end_time(self, value: float) -> None:
        self._set_end_time(value)

    def _set_end_time(self, value: float) -> None:
        last = len(self._proto.timesteps) - 1
        self._end_step = 1 + int(np.clip(self._get_quantized_time(value), 0, last))
        final = self._proto.timesteps[self._end_step - 1]
        self._last_timestep = _zero_velocities(final) if self._zero_out_velocities else final

    @property
    def clip_end_time(self) -> float:
        """Time (s) of the whole clip's last step."""
        return (len(self._proto.timesteps) - 1) * self._proto.dt

    @property
    def duration(self) -> float:
        return self.end_time - self.start_time

    @property
    def num_steps(self) -> int:
        return self._end_step - self._start_step

    @property
    def dt(self) -> float:
        return self._proto.dt

    def configure_walkers(self, walkers: Any) -> None:
        """Rescales each walker (one or an iterable) to the clip's and adds its
        marker sites (`walkers.WalkerInfo`)."""
        try:
            walker_iterator = iter(walkers)
        except TypeError:
            walker_iterator = iter((walkers,))
        for walker, walker_info in zip(walker_iterator, self._walkers_info):
            walker_info.rescale_walker(walker)
            walker_info.add_marker_sites(walker)

    def create_props(
        self,
        proto_modifier: Any = None,
        priority_friction: bool = False,
        prop_factory: Any = None,
    ) -> tuple:
        """One entity per prop of the clip, made by `prop_factory(prop_record,
        priority_friction=...)` (default `props.Prop`)."""
        proto = self._proto
        factory = prop_factory or mocap_props.Prop
        if proto_modifier is not None:
            proto = copy.copy(proto)
            proto_modifier(proto)
        return tuple(factory(prop, priority_friction=priority_friction) for prop in proto.props)

    def get_timestep_data(self, time: float) -> records.TimestepData:
        """The record at `time` seconds after the window's start (clipped to it)."""
        step = self._get_step_id(time)
        if step == self._end_step - 1:
            return self._last_timestep
        return self._proto.timesteps[step]

    def set_walker_poses(self, physics: Any, walkers: Iterable[Any]) -> None:
        """Poses each walker (root and mocap joints) as the clip at `physics.time()`."""
        timestep = self._proto.timesteps[self._get_step_id(physics.time())]
        for walker, pose in zip(walkers, timestep.walkers):
            mocap_walkers.set_root_pose(physics, walker, pose.position, pose.quaternion)
            physics.bind(walker.mocap_joints).qpos = pose.joints

    def set_prop_poses(self, physics: Any, props: Iterable[Any]) -> None:
        """Poses each prop as the clip at `physics.time()`."""
        timestep = self._proto.timesteps[self._get_step_id(physics.time())]
        for prop, pose in zip(props, timestep.props):
            prop.set_pose(physics, position=pose.position, quaternion=pose.quaternion)
