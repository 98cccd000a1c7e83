"""MuJoCo 4.0's lists of structs crash the interpreter on a key that is not an
integer or a slice; importing composer_tasks makes them raise TypeError instead
(composer_tasks/mujoco_guards.py). Each case runs in a child process, so that a
missing guard shows as a crash of the child, not of the test run."""

import subprocess
import sys

import pytest

PROGRAM = """
import mujoco
import numpy as np
import composer_tasks  # installs the guards

model = mujoco.MjModel.from_xml_string(
    '<mujoco><worldbody><geom type="plane" size="1 1 1"/>'
    '<body pos="0 0 0.05"><freejoint/><geom size=".1"/></body></worldbody></mujoco>')
data = mujoco.MjData(model)
mujoco.mj_step(model, data)
lists = {{'contact': data.contact, 'warning': data.warning, 'timer': data.timer,
          'solver': data.solver}}
items = lists[{kind!r}]
try:
    items[{key}]
except TypeError as error:
    assert 'indices must be integers or slices' in str(error), error
    print('TypeError')
# Integers, NumPy integers, enums and slices still read.
assert items[np.int64(0)] is not None and items[0:1] is not None
if {kind!r} == 'warning':
    assert items[mujoco.mjtWarning.mjWARN_INERTIA].number == 0
"""


@pytest.mark.parametrize("kind", ["contact", "warning", "timer", "solver"])
@pytest.mark.parametrize("key", ["'geom1'", "1.5", "None", "[0]", "(0,)", "np.array([0])"])
def test_a_bad_key_into_a_struct_list_raises_type_error(kind, key):
    result = subprocess.run(
        [sys.executable, "-c", PROGRAM.format(kind=kind, key=key)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, (result.returncode, result.stderr[-2000:])
    assert result.stdout.strip() == "TypeError"


def test_the_guard_is_installed_once():
    from mujoco import _structs

    from composer_tasks import mujoco_guards

    before = _structs._MjContactList.__getitem__
    mujoco_guards.install()
    assert _structs._MjContactList.__getitem__ is before
