"""`utils.transformations` against dm_control's: random rotations from a fixed seed
(single and batched), poles, the identity, half turns and bad input, every Euler
ordering, compared at 1e-12."""

import numpy as np
import pytest

# Inputs shared by the programs: random unit quaternions and Euler triples, plus the
# special rotations where the conventions (signs, branches, poles) matter.
_INPUTS = """
import numpy as np
from dm_control.utils import transformations as tr

rng = np.random.RandomState(7)
quats = rng.normal(size=(12, 4))
quats /= np.linalg.norm(quats, axis=1, keepdims=True)
half_turns = np.array([[0.0, 1, 0, 0], [0.0, 0, 1, 0], [0.0, 0, 0, 1], [0.0, 0.6, 0.8, 0],
                       [-1.0, 0, 0, 0]])
special = np.concatenate([np.array([[1.0, 0, 0, 0], [np.cos(1e-6), np.sin(1e-6), 0, 0]]),
                          half_turns, -quats[:3]])
all_quats = np.concatenate([quats, special])
eulers = rng.uniform(-np.pi, np.pi, size=(10, 3))
ORDERINGS = ("XYZ", "XYX", "ZYX", "XZY", "YZX", "ZXY", "YXZ")
"""

_EULER_PROGRAM = (
    _INPUTS
    + """
for ordering in ORDERINGS + ("ZXZ", "XXY"):
    check(f"rmat/{ordering}/batch", tr.euler_to_rmat, eulers, ordering=ordering)
    check(f"rmat/{ordering}/full", tr.euler_to_rmat, eulers[:3], ordering=ordering, full=True)
    check(f"rmat/{ordering}/one_row", tr.euler_to_rmat, eulers[:1], ordering=ordering)
    for i, euler in enumerate(eulers):
        check(f"rmat/{ordering}/{i}", tr.euler_to_rmat, euler, ordering)
        check(f"quat/{ordering}/{i}", tr.euler_to_quat, euler, ordering)
check("rmat/default", tr.euler_to_rmat, eulers[0])
check("rmat/list", tr.euler_to_rmat, [0.1, -0.2, 0.3], "XYZ")
check("rmat/bad_letter", tr.euler_to_rmat, eulers[0], "XYW")
check("quat/default", tr.euler_to_quat, eulers[0])

# Matrix -> Euler angles: random rotations, and the poles (the middle angle at
# +-pi/2, or for XYX at 0 and pi) approached from both sides.
for ordering in ORDERINGS:
    for i, quat in enumerate(all_quats):
        check(f"euler/{ordering}/{i}", tr.quat_to_euler, quat, ordering)
        mat = tr.quat_to_mat(quat)
        check(f"rmat_to_euler/{ordering}/{i}", tr.rmat_to_euler, mat[:3, :3], ordering)
        check(f"rmat_to_euler4/{ordering}/{i}", tr.rmat_to_euler, mat, ordering)
    poles = (0.0, np.pi) if ordering == "XYX" else (np.pi / 2, -np.pi / 2)
    for pole in poles:
        for offset in (0.0, 1e-9, -1e-9, 1e-3, -1e-3):
            euler = np.array([0.3, pole + offset, -0.7])
            mat = tr.euler_to_rmat(euler, ordering)
            check(f"pole/{ordering}/{pole}/{offset}", tr.rmat_to_euler, mat, ordering)
    for i, euler in enumerate(eulers):
        mat = tr.euler_to_rmat(euler, ordering)
        check(f"roundtrip/{ordering}/{i}", tr.rmat_to_euler, mat, ordering)
check("rmat_to_euler/default", tr.rmat_to_euler, np.eye(3))
check("quat_to_euler/default", tr.quat_to_euler, all_quats[0])
check("quat_to_euler/unknown", tr.quat_to_euler, all_quats[0], "ABC")
"""
)

_QUATERNION_PROGRAM = (
    _INPUTS
    + """
check("conj/batch", tr.quat_conj, all_quats)
check("conj/list", tr.quat_conj, [1, 2, 3, 4])
check("conj/nested", tr.quat_conj, all_quats.reshape(-1, 1, 4)[:6])
check("inv/batch", tr.quat_inv, 2.5 * all_quats)
check("inv/list", tr.quat_inv, [1.0, 2.0, 3.0, 4.0])
check("mul/batch", tr.quat_mul, all_quats, all_quats[::-1])
check("mul/broadcast", tr.quat_mul, all_quats[0], all_quats)
check("mul/broadcast2", tr.quat_mul, all_quats[:4, None], all_quats[None, :5])
check("mul/int", lambda: tr.quat_mul(np.array([1, 2, 3, 4]), np.array([0, 1, 0, 0])))
check("mul/int_dtype", lambda: tr.quat_mul(np.array([1, 2, 3, 4]), np.array([0, 1, 0, 0])).dtype.kind)
for i, quat in enumerate(all_quats):
    check(f"mul/{i}", tr.quat_mul, quat, all_quats[-1 - i])
    check(f"diff/{i}", tr.quat_diff, quat, all_quats[-1 - i])
check("diff/batch", tr.quat_diff, all_quats, all_quats[::-1])
check("log/batch", tr.quat_log, all_quats)


def caught_as(function, *args):
    # The exception classes a caller can catch (ours is a ValueError that is also
    # dm_control's TypeError).
    try:
        function(*args)
    except Exception as error:  # noqa: BLE001
        return [isinstance(error, TypeError), isinstance(error, ValueError)]
    return None


check("log/scaled_is_type_error", lambda: caught_as(tr.quat_log, 3.0 * quats)[0])
check("log/tol", tr.quat_log, quats, tol=1e-6)
check("log/identity", tr.quat_log, np.array([1.0, 0, 0, 0]))
check("log/list", tr.quat_log, [0.5, 0.5, 0.5, 0.5])
check("log/out_of_range_is_type_error", lambda: caught_as(tr.quat_log, np.array([1.5, 0, 0, 0]))[0])
check("dist/batch", tr.quat_dist, all_quats, all_quats[::-1])
check("dist/same", tr.quat_dist, quats, quats)
check("dist/one", tr.quat_dist, quats[0], quats[1])
for i, quat in enumerate(all_quats):
    check(f"rotate/{i}", tr.quat_rotate, quat, np.array([0.3, -1.2, 2.0]))
    check(f"axisangle/{i}", tr.quat_to_axisangle, quat)
    check(f"mat/{i}", tr.quat_to_mat, quat)
    check(f"mat_to_quat/{i}", tr.mat_to_quat, tr.quat_to_mat(quat))
    check(f"mat3_to_quat/{i}", tr.mat_to_quat, tr.quat_to_mat(quat)[:3, :3])
check("rotate/list", tr.quat_rotate, np.array([0.0, 1, 0, 0]), [1, 2, 3])
check("axisangle/tiny", tr.quat_to_axisangle, np.array([1.0, 1e-12, 0, 0]))
check("axisangle/out_of_range", tr.quat_to_axisangle, np.array([1.1, 0, 0, 0]))
check("axisangle/slightly_over", tr.quat_to_axisangle, np.array([1.0 + 1e-11, 0, 0, 0]))
check("mat/zero", tr.quat_to_mat, np.zeros(4))
check("mat/unnormalised", tr.quat_to_mat, np.array([2.0, 1.0, -3.0, 0.5]))
check("mat/list", tr.quat_to_mat, [1, 0, 0, 0])
# mat_to_quat's branches: positive trace, and each diagonal entry the largest.
for i, mat in enumerate([np.eye(3), np.diag([1.0, -1, -1]), np.diag([-1.0, 1, -1]),
                         np.diag([-1.0, -1, 1]), tr.euler_to_rmat([0.1, 3.0, 0.2], "XYZ")]):
    check(f"mat_to_quat/branch{i}", tr.mat_to_quat, mat)
check("mat_to_quat/scaled_homogeneous", tr.mat_to_quat, 2.0 * np.eye(4))
for i, vector in enumerate(rng.normal(size=(6, 3))):
    check(f"aa_to_quat/{i}", tr.axisangle_to_quat, vector)
check("aa_to_quat/batch", tr.axisangle_to_quat, rng.normal(size=(5, 3)))
check("aa_to_quat/zero", tr.axisangle_to_quat, np.zeros(3))
check("aa_to_quat/tol", tr.axisangle_to_quat, np.array([[1e-4, 0, 0], [0.5, 0, 0]]), tol=1e-3)
check("aa_to_quat/list", tr.axisangle_to_quat, [0.0, 0.0, np.pi])
check("aa_to_quat/nested", tr.axisangle_to_quat, rng.normal(size=(2, 3, 3)))
"""
)

_AXIS_PROGRAM = """
import numpy as np
from dm_control.utils import transformations as tr

angles = np.linspace(-4.0, 4.0, 9)
for name in ("rotation_x_axis", "rotation_y_axis", "rotation_z_axis"):
    function = getattr(tr, name)
    check(f"{name}/scalar", function, 0.7)
    check(f"{name}/scalar_full", function, 0.7, full=True)
    check(f"{name}/numpy_scalar", function, np.float64(-1.3))
    check(f"{name}/batch", function, angles)
    check(f"{name}/batch_full", function, angles, True)
    check(f"{name}/one", function, [0.25])
    check(f"{name}/list", function, [0.25, 0.5])
check("2d/scalar", tr.rotation_matrix_2d, 0.3)
check("2d/batch", tr.rotation_matrix_2d, angles)
"""


@pytest.mark.dm_control_api(
    "utils.transformations.euler_to_rmat",
    "utils.transformations.euler_to_quat",
    "utils.transformations.rmat_to_euler",
    "utils.transformations.quat_to_euler",
)
def test_euler_conversions_match_dm_control(differential):
    differential.assert_same(_EULER_PROGRAM, "transformations_euler", rtol=1e-12, atol=1e-12)


@pytest.mark.dm_control_api(
    "utils.transformations.quat_conj",
    "utils.transformations.quat_inv",
    "utils.transformations.quat_mul",
    "utils.transformations.quat_diff",
    "utils.transformations.quat_log",
    "utils.transformations.quat_dist",
    "utils.transformations.quat_rotate",
    "utils.transformations.quat_to_axisangle",
    "utils.transformations.quat_to_mat",
    "utils.transformations.mat_to_quat",
    "utils.transformations.axisangle_to_quat",
)
def test_quaternion_functions_match_dm_control(differential):
    differential.assert_same(_QUATERNION_PROGRAM, "transformations_quat", rtol=1e-12, atol=1e-12)


@pytest.mark.dm_control_api(
    "utils.transformations.rotation_x_axis",
    "utils.transformations.rotation_y_axis",
    "utils.transformations.rotation_z_axis",
    "utils.transformations.rotation_matrix_2d",
)
def test_axis_rotations_match_dm_control(differential):
    differential.assert_same(_AXIS_PROGRAM, "transformations_axes", rtol=1e-12, atol=1e-12)


def test_pole_warning_is_logged(caplog):
    from composer_tasks.utils import transformations as tr

    with caplog.at_level("WARNING", logger=tr.__name__):
        tr.rmat_to_euler(tr.euler_to_rmat([0.1, -np.pi / 2, 0.2], "ZYX"), "ZYX")
    assert "Angle at North Pole" in caplog.text  # ZYX: y = -pi/2 is its north pole


def test_batches_where_dm_control_takes_one_rotation_raise():
    from composer_tasks.utils import transformations as tr

    two = np.array([[1.0, 0, 0, 0], [0.0, 1, 0, 0]])
    for function, args in (
        (tr.quat_to_mat, (two,)),
        (tr.quat_to_axisangle, (two,)),
        (tr.quat_rotate, (two, np.zeros(3))),
        (tr.quat_rotate, (two[0], np.zeros((2, 3)))),
        (tr.mat_to_quat, (np.stack([np.eye(3)] * 5),)),
        (tr.euler_to_rmat, (np.zeros((2, 4)),)),
        (tr.rotation_x_axis, (np.zeros((2, 2)),)),
    ):
        with pytest.raises(ValueError, match="shape"):
            function(*args)
    with pytest.raises(IndexError, match="three letters"):
        tr.euler_to_rmat(np.zeros(3), "XY")
