"""`utils.inverse_kinematics` against dm_control's: `qpos_from_site_pose` on PyMJCF
arms (hinge chains, a ball joint, a free body) for position, orientation and both,
joint subsets, in place or not, failures and bad arguments, compared value by
value (qpos, err_norm, steps, success); `nullspace_method` on random Jacobians."""

import numpy as np
import pytest

_ARMS = """
import numpy as np
from dm_control import mjcf
from dm_control.utils import inverse_kinematics as ik


def hinge_arm(links=4):
    # A chain of capsules with alternating hinge axes and a site at the tip.
    root = mjcf.RootElement(model="arm")
    body = root.worldbody.add("body", name="base", pos=[0, 0, 0.1])
    for i in range(links):
        axis = [0, 0, 1] if i % 2 == 0 else [0, 1, 0]
        body.add("joint", name=f"joint_{i}", type="hinge", axis=axis, range=[-3, 3])
        body.add("geom", type="capsule", fromto=[0, 0, 0, 0.25, 0, 0], size=[0.03])
        body = body.add("body", name=f"link_{i}", pos=[0.25, 0, 0])
    body.add("site", name="tip", pos=[0.05, 0, 0])
    return root


def ball_arm():
    # A hinge, a ball joint (three dofs, a quaternion in qpos) and a slide.
    root = mjcf.RootElement(model="ball_arm")
    base = root.worldbody.add("body", name="base")
    base.add("joint", name="yaw", type="hinge", axis=[0, 0, 1])
    base.add("geom", type="sphere", size=[0.05])
    upper = base.add("body", name="upper", pos=[0, 0, 0.2])
    upper.add("joint", name="shoulder", type="ball")
    upper.add("geom", type="capsule", fromto=[0, 0, 0, 0.3, 0, 0], size=[0.03])
    lower = upper.add("body", name="lower", pos=[0.3, 0, 0])
    lower.add("joint", name="extend", type="slide", axis=[1, 0, 0], range=[-0.1, 0.2])
    lower.add("geom", type="capsule", fromto=[0, 0, 0, 0.2, 0, 0], size=[0.02])
    lower.add("site", name="hand", pos=[0.2, 0, 0], quat=[0.9, 0.1, 0.3, 0.2])
    return root


def free_body():
    root = mjcf.RootElement(model="free")
    body = root.worldbody.add("body", name="box", pos=[0, 0, 0.5])
    body.add("freejoint", name="free")
    body.add("geom", type="box", size=[0.1, 0.1, 0.1])
    body.add("site", name="corner", pos=[0.1, 0.1, 0.1])
    return root


def solve(key, physics, *args, **kwargs):
    before = physics.data.qpos.copy()
    try:
        result = ik.qpos_from_site_pose(physics, *args, **kwargs)
    except Exception as error:
        record(key, error)
        return
    # Without regularisation the redundant arm's J^T J is singular: lstsq with
    # rcond=-1 (dm_control's) inverts its rounding noise, so which of the many
    # solutions is reached is decided by the Jacobian's last bits (MuJoCo 3.17 against
    # 4.0, the BLAS build), and so is the number of steps to it: there, the site
    # reached stands for the joint angles, and the steps are not compared.
    steps = result.steps
    if kwargs.get("regularization_threshold") == np.inf:
        steps = None
        solved = physics.named.data.site_xpos[args[0]].copy()
        if not kwargs.get("inplace"):
            saved = physics.data.qpos.copy()
            physics.data.qpos[:] = result.qpos
            physics.forward()
            solved = physics.named.data.site_xpos[args[0]].copy()
            physics.data.qpos[:] = saved
            physics.forward()
        first = solved
    else:
        first = np.array(result.qpos)
    record(key, [first, result.err_norm, steps, result.success,
                 type(result).__name__, list(result._fields)])
    record(key + "/physics_qpos_moved", not np.array_equal(before, physics.data.qpos))
    record(key + "/view", np.shares_memory(result.qpos, physics.data.qpos))
"""

_HINGE_PROGRAM = (
    _ARMS
    + """
physics = mjcf.Physics.from_mjcf_model(hinge_arm())
rng = np.random.RandomState(3)
quat = np.array([0.0, 1.0, 0.0, 1.0]) / np.sqrt(2)
targets = [
    ("pos", dict(target_pos=np.array([0.5, 0.2, 0.4]))),
    ("pos_list", dict(target_pos=[0.3, -0.3, 0.5])),
    ("quat", dict(target_quat=quat)),
    ("both", dict(target_pos=np.array([0.4, 0.1, 0.3]), target_quat=quat)),
    ("both_rot_weight", dict(target_pos=np.array([0.4, 0.1, 0.3]), target_quat=quat,
                             rot_weight=0.3)),
    ("unreachable", dict(target_pos=np.array([3.0, 0.0, 0.1]))),
    ("few_steps", dict(target_pos=np.array([0.5, 0.2, 0.4]), max_steps=3)),
    ("one_step", dict(target_pos=np.array([0.5, 0.2, 0.4]), max_steps=1)),
    ("loose", dict(target_pos=np.array([0.5, 0.2, 0.4]), tol=1e-3)),
    ("no_regularisation", dict(target_pos=np.array([0.2, 0.5, 0.3]),
                               regularization_threshold=np.inf)),
    ("strong_regularisation", dict(target_pos=np.array([0.2, 0.5, 0.3]),
                                   regularization_strength=1.0)),
    ("small_updates", dict(target_pos=np.array([0.2, 0.5, 0.3]), max_update_norm=0.05)),
    ("impatient", dict(target_pos=np.array([0.2, 0.5, 0.3]), progress_thresh=0.5)),
]
for start in range(3):
    qpos0 = rng.uniform(-1.5, 1.5, size=physics.model.nq)
    for name, kwargs in targets:
        physics.data.qpos[:] = qpos0
        solve(f"{start}/{name}", physics, "tip", **kwargs)
    for joints in (["joint_0", "joint_1"], ("joint_1", "joint_2", "joint_3"),
                   np.array(["joint_3", "joint_0", "joint_2"]), ["joint_2"], []):
        physics.data.qpos[:] = qpos0
        solve(f"{start}/joints/{list(joints)}", physics, "tip",
              target_pos=np.array([0.3, 0.3, 0.3]), joint_names=joints)
    physics.data.qpos[:] = qpos0
    solve(f"{start}/inplace", physics, "tip", target_pos=np.array([0.4, -0.2, 0.3]),
          inplace=True)
    record(f"{start}/inplace/site_after", physics.named.data.site_xpos["tip"].copy())
physics.data.qpos[:] = 0.3
solve("no_target", physics, "tip")
solve("bad_joint_names_type", physics, "tip", target_pos=np.zeros(3), joint_names="joint_0")
solve("bad_joint_names_set", physics, "tip", target_pos=np.zeros(3), joint_names={"joint_0"})
solve("unknown_joint", physics, "tip", target_pos=np.zeros(3), joint_names=["nope"])
solve("unknown_site", physics, "nope", target_pos=np.zeros(3))
solve("bad_target_pos", physics, "tip", target_pos=np.zeros(4))
"""
)

_BALL_PROGRAM = (
    _ARMS
    + """
physics = mjcf.Physics.from_mjcf_model(ball_arm())
rng = np.random.RandomState(5)
for start in range(3):
    qpos0 = np.zeros(physics.model.nq)
    qpos0[0] = rng.uniform(-1, 1)
    shoulder = rng.normal(size=4)
    qpos0[1:5] = shoulder / np.linalg.norm(shoulder)
    for name, kwargs in [
        ("pos", dict(target_pos=np.array([0.2, 0.3, 0.5]))),
        ("quat", dict(target_quat=np.array([0.5, 0.5, -0.5, 0.5]))),
        ("both", dict(target_pos=np.array([0.1, -0.3, 0.4]),
                      target_quat=np.array([0.0, 0.0, 0.0, 1.0]))),
        ("shoulder_only", dict(target_pos=np.array([0.3, 0.1, 0.3]), joint_names=["shoulder"])),
        ("yaw_extend", dict(target_pos=np.array([0.3, 0.3, 0.2]),
                            joint_names=["yaw", "extend"])),
    ]:
        physics.data.qpos[:] = qpos0
        solve(f"{start}/{name}", physics, "hand", **kwargs)

physics = mjcf.Physics.from_mjcf_model(free_body())
for name, kwargs in [
    ("pos", dict(target_pos=np.array([0.5, -0.2, 1.0]), inplace=True)),
    ("quat", dict(target_quat=np.array([0.3, 0.4, 0.5, 0.6]) / np.sqrt(0.86))),
    ("both", dict(target_pos=np.array([0.0, 0.0, 0.0]),
                  target_quat=np.array([0.0, 1.0, 0.0, 0.0]))),
]:
    physics.reset()
    solve(f"free/{name}", physics, "corner", **kwargs)
    record(f"free/{name}/site", physics.named.data.site_xpos["corner"].copy())
"""
)

_NULLSPACE_PROGRAM = """
import numpy as np
from dm_control.utils import inverse_kinematics as ik

rng = np.random.RandomState(11)
for rows, columns in ((3, 5), (6, 7), (6, 4), (3, 3), (6, 1)):
    jacobian = rng.normal(size=(rows, columns))
    delta = rng.normal(size=rows)
    check(f"{rows}x{columns}/plain", ik.nullspace_method, jacobian, delta)
    check(f"{rows}x{columns}/damped", ik.nullspace_method, jacobian, delta, 3e-2)
    check(f"{rows}x{columns}/negative", ik.nullspace_method, jacobian, delta,
          regularization_strength=-1.0)
singular = np.zeros((3, 4))
singular[:, 0] = [1.0, 2.0, 3.0]
check("singular", ik.nullspace_method, singular, np.array([1.0, 0.0, 0.0]))
check("empty", ik.nullspace_method, np.zeros((3, 0)), np.ones(3))
check("fields", lambda: list(ik.IKResult._fields))
check("construct", lambda: list(ik.IKResult(qpos=np.zeros(2), err_norm=0.5, steps=3,
                                            success=False)))
check("by_name", lambda: ik.IKResult(np.ones(2), 0.5, 3, True).steps)
"""

# The solves run on MuJoCo 3.17 there and 4.0 here, whose Jacobians may differ in
# the last bits; Newton steps carry such differences along, so qpos agrees to 1e-10
# and an err_norm near the 1e-14 tolerance to 1e-13 absolute. A free body's
# position-only solve is underdetermined (six dofs, three equations): once the
# error is below the regularisation threshold, the least-squares step on its
# rank-3 normal matrix turns last-bit differences into 1e-8 ones in the
# orientation it ends at (the first steps agree bit for bit), so that record is
# compared to 1e-7, with the site's position and the step count exact.
_TOLERANCES = dict(rtol=1e-10, atol=1e-13, tolerances=[(r"^free/pos$", 1e-7, 1e-7)])


@pytest.mark.dm_control_api(
    "utils.inverse_kinematics.qpos_from_site_pose",
    "utils.inverse_kinematics.IKResult",
    "utils.inverse_kinematics.IKResult.qpos",
    "utils.inverse_kinematics.IKResult.err_norm",
    "utils.inverse_kinematics.IKResult.steps",
    "utils.inverse_kinematics.IKResult.success",
)
def test_qpos_from_site_pose_on_a_hinge_arm_matches_dm_control(differential):
    differential.assert_same(_HINGE_PROGRAM, "ik_hinge_arm", **_TOLERANCES)


@pytest.mark.dm_control_api("utils.inverse_kinematics.qpos_from_site_pose")
def test_qpos_from_site_pose_with_ball_and_free_joints_matches_dm_control(differential):
    differential.assert_same(_BALL_PROGRAM, "ik_ball_arm", **_TOLERANCES)


@pytest.mark.dm_control_api(
    "utils.inverse_kinematics.nullspace_method",
    "utils.inverse_kinematics.IKResult",
)
def test_nullspace_method_matches_dm_control(differential):
    differential.assert_same(_NULLSPACE_PROGRAM, "ik_nullspace", rtol=1e-12, atol=1e-12)


def test_max_steps_below_one_is_a_clear_error():
    from composer_tasks import mjcf
    from composer_tasks.utils import inverse_kinematics as ik

    root = mjcf.RootElement(model="arm")
    body = root.worldbody.add("body", name="link")
    body.add("joint", name="hinge", type="hinge", axis=[0, 0, 1])
    body.add("geom", type="capsule", fromto=[0, 0, 0, 0.3, 0, 0], size=[0.02])
    body.add("site", name="tip", pos=[0.3, 0, 0])
    physics = mjcf.Physics.from_mjcf_model(root)
    with pytest.raises(ValueError, match="max_steps must be at least 1, got 0"):
        ik.qpos_from_site_pose(physics, "tip", target_pos=np.zeros(3), max_steps=0)
