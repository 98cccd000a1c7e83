"""`suite.utils.parse_amc` on both sides: a CMU `.amc` clip with random angles (and
the header lines, blank lines and frame markers the parser has rules for) parsed
and converted for `humanoid_CMU`'s physics at two timesteps."""

import pytest

PARSE_AMC_PROGRAM = """
import os
import tempfile

import numpy as np
from dm_control.suite import humanoid_CMU
from dm_control.suite.utils import parse_amc

BONES = [("root", 6), ("lowerback", 3), ("upperback", 3), ("thorax", 3), ("lowerneck", 3),
         ("upperneck", 3), ("head", 3), ("rclavicle", 2), ("rhumerus", 3), ("rradius", 1),
         ("rwrist", 1), ("rhand", 2), ("rfingers", 1), ("rthumb", 2), ("lclavicle", 2),
         ("lhumerus", 3), ("lradius", 1), ("lwrist", 1), ("lhand", 2), ("lfingers", 1),
         ("lthumb", 2), ("rfemur", 3), ("rtibia", 1), ("rfoot", 2), ("rtoes", 1),
         ("lfemur", 3), ("ltibia", 1), ("lfoot", 2), ("ltoes", 1)]
random = np.random.RandomState(4)
lines = ["# a clip for the differential test", ":FULLY-SPECIFIED", ":DEGREES"]
for frame in range(1, 13):
    lines.append(str(frame))
    for bone, count in BONES:
        values = random.uniform(-40, 40, size=count)
        if bone == "root":
            values[:3] = [3 * frame, 17.5 + random.uniform(), -2 * frame]
        lines.append(bone + " " + " ".join(f"{v:.6f}" for v in values))
    if frame == 6:
        lines.append("")  # a blank line ends a frame; parsing goes on at the next number
directory = tempfile.mkdtemp()
path = os.path.join(directory, "clip.amc")
with open(path, "w") as handle:
    handle.write("\\n".join(lines) + "\\n")

frames = parse_amc.parse(path)
record("frames", [len(frames), [frame.shape for frame in frames]])
record("frame3", frames[3])

env = humanoid_CMU.stand()
for scale in (1.0, 0.5, 0.37):
    timestep = scale * env.control_timestep()
    converted = parse_amc.convert(path, env.physics, timestep)
    record(f"type{scale}", [type(converted).__name__, list(converted._fields)])
    record(f"qpos{scale}", converted.qpos)
    record(f"qvel{scale}", converted.qvel)
    record(f"time{scale}", converted.time)

index2joint = {}
axis = env.physics.named.data.qpos.axes.row
for name in axis.names:
    index = axis.convert_key_item(name)
    for i in (range(index.start, index.stop) if isinstance(index, slice) else [index]):
        index2joint[i] = name
to_qpos = parse_amc.Amcvals2qpos(index2joint, parse_amc._CMU_MOCAP_JOINT_ORDER)
record("transform", to_qpos.amc2qpos_transform)
record("frame_qpos", to_qpos(frames[5]))
record("constants", [parse_amc.MOCAP_DT, parse_amc.CONVERSION_LENGTH])

# A clip whose first frame is marked "1" directly after the header, and whose end
# is a blank line.
with open(path, "w") as handle:
    handle.write("\\n".join(lines[:3] + lines[3:3 + 2 * (len(BONES) + 1)]) + "\\n\\n")
record("two_frames", parse_amc.parse(path))
"""


@pytest.mark.dm_control_api(
    "suite.utils.parse_amc.parse",
    "suite.utils.parse_amc.convert",
    "suite.utils.parse_amc.Converted",
    "suite.utils.parse_amc.Converted.qpos",
    "suite.utils.parse_amc.Converted.qvel",
    "suite.utils.parse_amc.Converted.time",
    "suite.utils.parse_amc.Amcvals2qpos",
    "suite.utils.parse_amc.MOCAP_DT",
    "suite.utils.parse_amc.CONVERSION_LENGTH",
)
def test_amc_clips_convert_to_the_same_trajectories(differential):
    differential.assert_same(PARSE_AMC_PROGRAM, "suite_parse_amc", rtol=1e-9, atol=1e-10)
