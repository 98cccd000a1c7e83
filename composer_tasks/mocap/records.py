"""The records a fitted motion-capture trajectory is made of.

dm_control keeps a trajectory as a protocol buffer (`mocap_pb2.FittedTrajectory`);
here it is plain dataclasses with the same field names, in the same order, and
the same enum numbers (dm_control's `mocap.proto`: walker models UNSPECIFIED 0,
CMU_2019 1, CMU_2020 4; prop shapes UNSPECIFIED 0, SPHERE 1, BOX 2), so code that
reads or modifies `trajectory._proto` the dm_control way (`proto.timesteps[t]
.walkers[0].position[2] += dz`) works unchanged. Repeated numbers are float64
arrays, repeated strings are lists of `str`.

Units: metres, seconds, kilograms, radians; quaternions are w-x-y-z. A walker
pose's position and quaternion are those of the walker's root frame in dm_control
(its free joint's qpos), velocities are its free joint's qvel (linear in the
world frame, angular in the root frame).
"""

from __future__ import annotations

import dataclasses

import numpy as np


def _floats() -> np.ndarray:
    return np.zeros(0, dtype=np.float64)


@dataclasses.dataclass
class Marker:
    """A motion-capture marker: its name, the body it sits on and its pose there."""

    name: str = ""
    parent: str = ""
    position: np.ndarray = dataclasses.field(default_factory=_floats)
    quaternion: np.ndarray = dataclasses.field(default_factory=_floats)


@dataclasses.dataclass
class Markers:
    marker: list[Marker] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class SubtreeScaling:
    """How the subtree under `body_name`'s parent is rescaled to fit the data."""

    body_name: str = ""
    parent_length: float = 0.0
    size_factor: float = 0.0


@dataclasses.dataclass
class WalkerScaling:
    subtree: list[SubtreeScaling] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class Walker:
    """The walker a trajectory was fitted to."""

    UNSPECIFIED = 0
    CMU_2019 = 1
    CMU_2020 = 4
    MODEL_NAMES = {0: "UNSPECIFIED", 1: "CMU_2019", 4: "CMU_2020"}

    name: str = ""
    model: int = 0
    scaling: WalkerScaling = dataclasses.field(default_factory=WalkerScaling)
    markers: Markers = dataclasses.field(default_factory=Markers)
    mass: float = 0.0
    end_effector_names: list[str] = dataclasses.field(default_factory=list)
    appendage_names: list[str] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class Prop:
    """A prop of the trajectory: its shape, MuJoCo geom size (m) and mass (kg)."""

    UNSPECIFIED = 0
    SPHERE = 1
    BOX = 2

    name: str = ""
    shape: int = 0
    size: np.ndarray = dataclasses.field(default_factory=_floats)
    mass: float = 0.0


@dataclasses.dataclass
class WalkerPose:
    """One walker's state at one time step (flattened repeated vectors)."""

    position: np.ndarray = dataclasses.field(default_factory=_floats)
    quaternion: np.ndarray = dataclasses.field(default_factory=_floats)
    joints: np.ndarray = dataclasses.field(default_factory=_floats)
    center_of_mass: np.ndarray = dataclasses.field(default_factory=_floats)
    end_effectors: np.ndarray = dataclasses.field(default_factory=_floats)
    velocity: np.ndarray = dataclasses.field(default_factory=_floats)
    angular_velocity: np.ndarray = dataclasses.field(default_factory=_floats)
    joints_velocity: np.ndarray = dataclasses.field(default_factory=_floats)
    appendages: np.ndarray = dataclasses.field(default_factory=_floats)
    body_positions: np.ndarray = dataclasses.field(default_factory=_floats)
    body_quaternions: np.ndarray = dataclasses.field(default_factory=_floats)


@dataclasses.dataclass
class PropPose:
    """One prop's state at one time step."""

    position: np.ndarray = dataclasses.field(default_factory=_floats)
    quaternion: np.ndarray = dataclasses.field(default_factory=_floats)
    velocity: np.ndarray = dataclasses.field(default_factory=_floats)
    angular_velocity: np.ndarray = dataclasses.field(default_factory=_floats)


@dataclasses.dataclass
class TimestepData:
    walkers: list[WalkerPose] = dataclasses.field(default_factory=list)
    props: list[PropPose] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class FittedTrajectory:
    """A clip: its identifier, date, step `dt` (s), walkers, props and time steps."""

    identifier: str = ""
    year: int = 0
    month: int = 0
    day: int = 0
    dt: float = 0.0
    walkers: list[Walker] = dataclasses.field(default_factory=list)
    props: list[Prop] = dataclasses.field(default_factory=list)
    timesteps: list[TimestepData] = dataclasses.field(default_factory=list)


def field_names(record: type) -> tuple[str, ...]:
    """The fields of a record class, in declaration order."""
    return tuple(field.name for field in dataclasses.fields(record))
