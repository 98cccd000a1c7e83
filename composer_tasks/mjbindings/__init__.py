"""dm_control's `mujoco.wrapper.mjbindings` names, over MuJoCo's official bindings.

dm_control code reaches MuJoCo's C functions, enums and header constants through

    from dm_control.mujoco.wrapper import mjbindings
    mjlib = mjbindings.mjlib
    mjlib.mj_fwdPosition(physics.model.ptr, physics.data.ptr)
    mjlib.mju_quat2Mat(xmat, quat)
    mjbindings.enums.mjtObj.mjOBJ_BODY  # 1, a plain int

In dm-control 1.0.50 `mjlib` is already the `mujoco` module (its ctypes era is
over), so it is the `mujoco` module here too, and `physics.model.ptr` /
`physics.data.ptr` are `mujoco.MjModel` / `mujoco.MjData`, the structs its functions
take. `enums` holds one namedtuple of plain ints per MuJoCo enum type and
`constants` MuJoCo's header constants, as dm_control's generated modules do, but
read from the MuJoCo this project runs (4.x), not written out from MuJoCo 3.17's
headers: where 4.x added an enum member or constant it is here too, and the
header version (`constants.mjVERSION_HEADER`) is 4.x's.

Not here: dm_control's `sizes` (the array-shape table of its old ctypes struct
wrappers; `mujoco`'s structs carry their own shapes) and the constants of MuJoCo's
C user interface and include guards (`mjKEY_*`, `mjMAXUI*`, `MUJOCO_*_H_`), which
the official Python bindings do not export.
"""

from composer_tasks.mjbindings import constants, enums, functions
from composer_tasks.mjbindings.functions import mjlib

__all__ = ["constants", "enums", "functions", "mjlib"]
