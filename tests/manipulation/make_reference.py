"""Records reference facts of dm-control 1.0.50's manipulation suite.

Run with the reference virtual environment's interpreter, never the project's:

    MUJOCO_GL=egl .venvs/dm_control/bin/python tests/manipulation/make_reference.py

This script imports nothing of this project. It writes
`tests/manipulation/reference/manipulation_reference.json` with:

* `tasks`: per environment name, the observation spec (name -> shape, dtype)
  and the order of its keys,
  the action spec (shape, minimum, maximum), the control and physics timesteps,
  the time limit, nq, nv, nu and the solver options.
* `robot`: per body of the Jaco arm and hand (names without the entity prefix),
  the compiled mass, diagonal inertia, inertial-frame position and orientation,
  and the body's position and orientation in its parent; per joint, its range,
  limitedness, armature, damping and frictionloss; per actuator, its gains,
  control range and force range. Taken from `lift_brick_features`.
* `kinematics`: world positions of the arm's and hand's bodies and sites at
  the joint configuration `KINEMATICS_QPOS`, in `reach_site_features`.
* `initial_states`: for a few tasks, the pinch-site positions and prop positions
  after `reset()` over 20 seeds, summarised by their minimum and maximum.
"""

import json
import os

from dm_control import manipulation
import numpy as np

_OUT = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "reference", "manipulation_reference.json"
)
_INITIAL_STATE_TASKS = (
    "reach_site_features",
    "reach_duplo_features",
    "lift_brick_features",
    "place_brick_features",
    "stack_2_bricks_features",
)
_INITIAL_STATE_SEEDS = 20


def _spec(array_spec):
    return {"shape": list(array_spec.shape), "dtype": str(array_spec.dtype)}


def _task_facts(name):
    env = manipulation.load(name, seed=0)
    physics = env.physics
    action_spec = env.action_spec()
    model = physics.model
    return {
        "observations": {key: _spec(value) for key, value in env.observation_spec().items()},
        "observation_order": list(env.observation_spec()),
        "action": {
            "shape": list(action_spec.shape),
            "minimum": np.asarray(action_spec.minimum).tolist(),
            "maximum": np.asarray(action_spec.maximum).tolist(),
            "actuators": [model.id2name(i, "actuator") for i in range(model.nu)],
        },
        "control_timestep": env.control_timestep(),
        "physics_timestep": float(model.opt.timestep),
        "time_limit": env._time_limit,
        "nq": int(model.nq),
        "nv": int(model.nv),
        "nu": int(model.nu),
        "cone": int(model.opt.cone),
        "noslip_iterations": int(model.opt.noslip_iterations),
        "impratio": float(model.opt.impratio),
        "bodies": [model.id2name(i, "body") for i in range(model.nbody)],
    }


def _strip(name, prefixes=("jaco_arm/", "jaco_hand/")):
    for prefix in prefixes:
        name = name.replace(prefix, "")
    return name


def _robot_facts():
    env = manipulation.load("lift_brick_features", seed=0)
    model = env.physics.model
    bodies = {}
    for i in range(model.nbody):
        name = model.id2name(i, "body")
        if not name or not name.startswith("jaco_arm/"):
            continue
        bodies[_strip(name)] = {
            "mass": float(model.body_mass[i]),
            "inertia": model.body_inertia[i].tolist(),
            "ipos": model.body_ipos[i].tolist(),
            "iquat": model.body_iquat[i].tolist(),
            "pos": model.body_pos[i].tolist(),
            "quat": model.body_quat[i].tolist(),
        }
    joints = {}
    for i in range(model.njnt):
        name = model.id2name(i, "joint")
        if not name.startswith("jaco_arm/"):
            continue
        dof = model.jnt_dofadr[i]
        joints[_strip(name)] = {
            "range": model.jnt_range[i].tolist(),
            "limited": bool(model.jnt_limited[i]),
            "armature": float(model.dof_armature[dof]),
            "damping": float(model.dof_damping[dof]),
            "frictionloss": float(model.dof_frictionloss[dof]),
        }
    actuators = {}
    for i in range(model.nu):
        actuators[_strip(model.id2name(i, "actuator"))] = {
            "gainprm0": float(model.actuator_gainprm[i, 0]),
            "biasprm": model.actuator_biasprm[i, :3].tolist(),
            "ctrlrange": model.actuator_ctrlrange[i].tolist(),
            "forcerange": model.actuator_forcerange[i].tolist(),
            "forcelimited": bool(model.actuator_forcelimited[i]),
        }
    sites = {}
    for i in range(model.nsite):
        name = model.id2name(i, "site")
        if name.endswith(("pinchsite", "gripsite", "wristsite")):
            sites[_strip(name)] = {
                "pos": model.site_pos[i].tolist(),
                "quat": model.site_quat[i].tolist(),
            }
    return {"bodies": bodies, "joints": joints, "actuators": actuators, "sites": sites}


def _duplo_facts():
    env = manipulation.load("lift_brick_features", seed=0)
    model = env.physics.model
    masses = {}
    for i in range(model.nbody):
        name = model.id2name(i, "body")
        if name.startswith("duplo") or name.startswith("box"):
            masses[name] = float(model.body_subtreemass[i])
    return {"subtree_masses": masses}


# A joint configuration (6 arm angles, 3 finger angles; rad) at which the
# kinematics are recorded.
KINEMATICS_QPOS = (0.3, 2.5, 1.7, -0.8, 1.2, 0.4, 0.5, 0.7, 0.9)


def _kinematics():
    env = manipulation.load("reach_site_features", seed=0)
    physics = env.physics
    physics.data.qpos[:9] = KINEMATICS_QPOS
    physics.forward()
    sites = {}
    for name in (
        "jaco_arm/jaco_hand/pinchsite",
        "jaco_arm/jaco_hand/gripsite",
        "jaco_arm/wristsite",
    ):
        sites[_strip(name)] = {
            "xpos": physics.named.data.site_xpos[name].tolist(),
            "xmat": physics.named.data.site_xmat[name].tolist(),
        }
    bodies = {}
    for i in range(physics.model.nbody):
        name = physics.model.id2name(i, "body")
        if name.startswith("jaco_arm/b_") or "finger" in name or name.endswith("/hand"):
            bodies[_strip(name)] = physics.data.xpos[i].tolist()
    return {"qpos": list(KINEMATICS_QPOS), "sites": sites, "body_xpos": bodies}


def _initial_states(name):
    pinch, props = [], []
    for seed in range(_INITIAL_STATE_SEEDS):
        env = manipulation.load(name, seed=seed)
        env.reset()
        # Some tasks recompile at reset (which bricks are free is sampled), so the
        # model is read after it.
        model, data = env.physics.model, env.physics.data
        pinch_id = [
            i for i in range(model.nsite) if model.id2name(i, "site").endswith("pinchsite")
        ][0]
        pinch.append(np.array(data.site_xpos[pinch_id]))
        free = [j for j in range(model.njnt) if model.jnt_type[j] == 0]
        props.append(
            [np.array(data.qpos[model.jnt_qposadr[j] : model.jnt_qposadr[j] + 3]) for j in free]
        )
    pinch = np.array(pinch)
    result = {"pinch_site_min": pinch.min(0).tolist(), "pinch_site_max": pinch.max(0).tolist()}
    if props and props[0]:
        props = np.array(props)
        result["prop_positions_min"] = props.min(0).tolist()
        result["prop_positions_max"] = props.max(0).tolist()
    return result


def main():
    import dm_control
    import mujoco

    facts = {
        "dm_control_version": getattr(dm_control, "__version__", "1.0.50"),
        "mujoco_version": mujoco.__version__,
        "all": list(manipulation.ALL),
        "tasks": {name: _task_facts(name) for name in manipulation.ALL},
        "robot": _robot_facts(),
        "duplo": _duplo_facts(),
        "kinematics": _kinematics(),
        "initial_states": {name: _initial_states(name) for name in _INITIAL_STATE_TASKS},
    }
    os.makedirs(os.path.dirname(_OUT), exist_ok=True)
    with open(_OUT, "w") as f:
        json.dump(facts, f, indent=1, sort_keys=True)
    print(f"wrote {_OUT}")


if __name__ == "__main__":
    main()
