"""dm_control's `suite.utils.parse_amc`: CMU motion capture (`.amc`) clips as
`humanoid_CMU` joint positions and velocities.

    converted = parse_amc.convert("clip.amc", env.physics, env.control_timestep())
    converted.qpos   # (nq, T): root position (m), root quaternion, joint angles (rad)
    converted.qvel   # (nv, T - 1): finite differences of qpos over `timestep`
    converted.time   # (T,): seconds from the clip's first frame

An `.amc` file (Acclaim motion capture) is a header (lines starting with `#` or
`:`) then frames, each a line holding its number (1, 2, ...) followed by one
line per bone: the bone's name and its degrees of freedom in degrees (the root:
position in the skeleton's length unit, then Euler angles in degrees). The clips
are sampled at 120 Hz. The reading rules, the resampling (an interpolating cubic
spline per coordinate, through scipy's `splrep`/`splev`) and the unit conversion
are dm-control 1.0.50's, quirks included: a clip's first frame is found by a line
that starts with "1", the later ones by lines equal to their number; a blank line
ends the current frame, and a blank line where a frame number or header line is
expected ends the clip.
"""

from __future__ import annotations

import collections
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np
from scipy import interpolate

from composer_tasks import mujoco_math

# Seconds between two frames of a CMU clip (the database records at 120 Hz;
# dm_control's MOCAP_DT).
MOCAP_DT = 1.0 / 120.0
# Metres per length unit of the CMU skeleton's root position (dm_control's
# CONVERSION_LENGTH).
CONVERSION_LENGTH = 0.056444

# The degrees of freedom of one `.amc` frame in file order, named as the
# humanoid_CMU model's joints ("<bone>r<axis>"); the root's six (position, then
# Euler angles) are `root0`..`root5`, which no model joint is called. The order is
# the CMU skeleton's bone order (dm_control's _CMU_MOCAP_JOINT_ORDER).
_BONE_DOFS = (
    ("root", ("0", "1", "2", "3", "4", "5")),
    ("lowerback", ("rx", "ry", "rz")),
    ("upperback", ("rx", "ry", "rz")),
    ("thorax", ("rx", "ry", "rz")),
    ("lowerneck", ("rx", "ry", "rz")),
    ("upperneck", ("rx", "ry", "rz")),
    ("head", ("rx", "ry", "rz")),
    ("rclavicle", ("ry", "rz")),
    ("rhumerus", ("rx", "ry", "rz")),
    ("rradius", ("rx",)),
    ("rwrist", ("ry",)),
    ("rhand", ("rx", "rz")),
    ("rfingers", ("rx",)),
    ("rthumb", ("rx", "rz")),
    ("lclavicle", ("ry", "rz")),
    ("lhumerus", ("rx", "ry", "rz")),
    ("lradius", ("rx",)),
    ("lwrist", ("ry",)),
    ("lhand", ("rx", "rz")),
    ("lfingers", ("rx",)),
    ("lthumb", ("rx", "rz")),
    ("rfemur", ("rx", "ry", "rz")),
    ("rtibia", ("rx",)),
    ("rfoot", ("rx", "rz")),
    ("rtoes", ("rx",)),
    ("lfemur", ("rx", "ry", "rz")),
    ("ltibia", ("rx",)),
    ("lfoot", ("rx", "rz")),
    ("ltoes", ("rx",)),
)
_CMU_MOCAP_JOINT_ORDER = tuple(bone + dof for bone, dofs in _BONE_DOFS for dof in dofs)

# The CMU skeleton's root position axes (x, y up, z) as the model's (x, -z, y) with
# z up, scaled to metres.
_ROOT_POSITION_TO_WORLD = np.array([[1, 0, 0], [0, 0, -1], [0, 1, 0]]) * CONVERSION_LENGTH
# The same change of axes for the root's orientation: a quarter turn about x, in
# degrees as `euler2quat` takes them.
_ROOT_ROTATION_TO_WORLD_DEG = (90, 0, 0)

Converted = collections.namedtuple("Converted", ["qpos", "qvel", "time"])
Converted.__doc__ = """A converted clip: `qpos` (nq, T), `qvel` (nv, T - 1) and `time` (T,)
seconds, resampled every `timestep` seconds."""


def convert(file_name: str, physics: Any, timestep: float) -> Converted:
    """The clip in `file_name` as `physics`'s joint positions and velocities,
    resampled every `timestep` seconds.

    Args:
      file_name: path of an `.amc` file of the CMU database.
      physics: a physics of the `humanoid_CMU` model (its `named.data.qpos` rows
        name the joints the clip's degrees of freedom map to).
      timestep: seconds between two output frames.

    Returns:
      `Converted(qpos, qvel, time)`: `qpos` (nq, T) with the root position in
      metres, its quaternion and the joint angles in radians; `qvel` (nv, T - 1)
      the forward differences of consecutive columns of `qpos` over `timestep`
      (the root's angular velocity from their quaternions); `time` (T,) the
      output times in seconds, from 0 and no later than the clip's last frame.

    Raises:
      ValueError: `timestep` is not a positive number.
    """
    if not np.isfinite(timestep) or timestep <= 0:
        raise ValueError(f"timestep must be a positive number of seconds, got {timestep!r}")
    frames = parse(file_name)
    to_qpos = Amcvals2qpos(_qpos_owners(physics), _CMU_MOCAP_JOINT_ORDER)
    qpos_frames = np.stack([to_qpos(frame) for frame in frames])  # (frames, nq)

    frame_times = np.arange(0, len(frames) * MOCAP_DT - 1e-8, MOCAP_DT)
    times = np.arange(0, len(frames) * MOCAP_DT, timestep)
    # The output never reaches past the clip's last frame.
    times = times[: np.searchsorted(times, frame_times[-1], side="right")]
    # One cubic spline through each coordinate's frames (the quaternion's entries
    # too, one by one, as dm_control).
    qpos = np.stack(
        [
            interpolate.splev(times, interpolate.splrep(frame_times, coordinate))
            for coordinate in qpos_frames.T
        ]
    )

    velocities = []
    for before, after in zip(qpos.T[:-1], qpos.T[1:]):
        turn = mujoco_math.mj_quatdiff(before[3:7], after[3:7])
        velocities.append(
            np.concatenate(
                [
                    (after[:3] - before[:3]) / timestep,
                    mujoco_math.mj_quat2vel(turn, timestep),
                    (after[7:] - before[7:]) / timestep,
                ]
            )
        )
    qvel = np.vstack(velocities).T
    return Converted(qpos, qvel, times)


def _qpos_owners(physics: Any) -> dict[int, str]:
    """{qpos index: the name of the joint it belongs to}, from `physics.named`."""
    axis = physics.named.data.qpos.axes.row
    owners = {}
    for name in axis.names:
        index = axis.convert_key_item(name)
        if isinstance(index, slice):
            indices = range(index.start, index.stop)
        else:
            indices = [int(index)]
        for qpos_index in indices:
            owners[qpos_index] = name
    return owners


def _lines(file_name: str) -> Iterator[str]:
    """The stripped lines of `file_name`, then empty strings forever (the file's end
    reads as blank lines, as `readline` gives it)."""
    with open(file_name, encoding="utf-8") as handle:
        for line in handle:
            yield line.strip()
    while True:
        yield ""


def parse(file_name: str) -> list[np.ndarray]:
    """The frames of the `.amc` file `file_name`, each a float64 array of its
    values in file order (every bone line's numbers, its name dropped).

    Raises:
      IndexError: the file's first line is blank (dm_control's parser indexes its
        first character).
    """
    lines = _lines(file_name)
    line = next(lines)
    if not line:
        raise IndexError(f"{file_name}: the first line is blank; an .amc file starts with a header")
    frames: list[np.ndarray] = []
    number = 1
    while True:
        # Before the first frame any line starting with "1" opens it; afterwards a
        # frame opens at a line equal to its number.
        opens_frame = line.startswith("1") if number == 1 else line == str(number)
        if not opens_frame:
            line = next(lines)
            if not line:
                return frames
            continue
        number += 1
        values: list[str] = []
        line = next(lines)
        while line and line != str(number):
            values.extend(line.split()[1:])
            line = next(lines)
        frames.append(np.array(values, dtype=float))


class Amcvals2qpos:
    """Turns one `.amc` frame into a qpos vector of the humanoid_CMU model.

    Args:
      index2joint: {qpos index: joint name} for every index 0..nq-1.
      joint_order: the joint name of each of a frame's values, in file order
        (root values first, named so that no model joint matches them).

    Calling it with a frame (degrees, the root position in skeleton units) gives
    qpos (nq,): each joint angle in radians at the index of the model joint of
    the same name (the names must contain "rx", "ry" or "rz"; indices no value
    maps to are 0), the root position in metres in the model's axes at 0:3 and
    the root orientation quaternion at 3:7.
    """

    def __init__(self, index2joint: Mapping[int, str], joint_order: Sequence[str]) -> None:
        nq = len(index2joint)
        self.qpos_root_xyz_ind = [0, 1, 2]
        self.qpos_root_quat_ind = [3, 4, 5, 6]
        # dm_control's (misspelt) attribute name, kept for code that reads it.
        self.root_xyz_ransform = _ROOT_POSITION_TO_WORLD.copy()
        self.amc2qpos_transform = np.zeros((nq, len(joint_order)))
        for row in range(nq):
            joint = index2joint[row]
            if not any(axis in joint for axis in ("rx", "ry", "rz")):
                continue
            for column, name in enumerate(joint_order):
                if name == joint:
                    self.amc2qpos_transform[row, column] = 1

    def __call__(self, amc_val: np.ndarray) -> np.ndarray:
        """qpos (nq,) of the frame `amc_val` (see the class docstring)."""
        values = np.asarray(amc_val, dtype=float)
        qpos = self.amc2qpos_transform @ np.deg2rad(values)
        qpos[self.qpos_root_xyz_ind] = self.root_xyz_ransform @ values[:3]
        orientation = mujoco_math.euler2quat(values[3], values[4], values[5])
        qpos[self.qpos_root_quat_ind] = mujoco_math.mj_quatprod(
            mujoco_math.euler2quat(*_ROOT_ROTATION_TO_WORLD_DEG), orientation
        )
        return qpos
