"""Records reference data from the published Control Suite (dm-control 1.0.50).

Run with the reference virtual environment's interpreter, never the project's:

    benchmarks/reference_envs/make_dm_control_venv.sh
    MUJOCO_GL=disable .venvs/dm_control/bin/python tests/conformance/make_reference.py

This script imports nothing of this project, so it runs where dm-control and
MuJoCo 3 are installed. It writes one `<domain>-<task>.npz` per benchmarking task
into `tests/conformance/reference/`; README.md beside this file documents the
format and `conformance.py` reads it.

Definitions the files rely on:

* "State": (qpos, qvel, act, time) plus the task state (below). Every quantity
  recorded "at a state" is computed from that state alone: the data is reset
  (`mj_resetData`: ctrl, applied forces and the solver warm start are zero),
  the state is written, and `mj_forward` runs. Touch sensors and other
  acceleration-stage quantities therefore see zero control, exactly as right
  after an episode reset.
* "Task state": rows of model fields that the task's `initialize_episode`
  writes. They are found by comparing every named-element array of the model
  after reset with the freshly compiled model, over many resets; every row
  (element) that ever differs is recorded, by field and element name, at every
  state. Fields that only change appearance (colours, materials, lights,
  cameras) are left out.
* "One control step": the task's `before_step` with the recorded action, then
  `n_sub_steps` physics steps, then `after_step`, as `control.Environment.step`
  does, from the state as defined above.
"""

import argparse
import importlib.metadata
import json
import os
import platform
import sys

import mujoco
import numpy as np
from dm_control import suite

# Seeds of the recorded data; changing one changes every reference file.
TRAJECTORY_TASK_SEED = 20240601
ACTION_SEED = 7
INITIAL_STATE_TASK_SEED = 11
NUM_INITIAL_STATES = 50
# One entry per recorded episode: how many control steps each uniformly random
# action is held. Held actions push the system further from its resting state
# than independent ones, so the recorded states cover more of the reward range.
ACTION_HOLD_STEPS = (1, 10, 1, 25)
# States recorded per episode besides its initial state.
STATES_PER_EPISODE = 4

# Model array prefixes that belong to named elements and can carry task state,
# with the object type that names their rows. `dof_` rows are named by joint.
_ELEMENT_PREFIXES = {
    "body_": mujoco.mjtObj.mjOBJ_BODY,
    "jnt_": mujoco.mjtObj.mjOBJ_JOINT,
    "dof_": None,
    "geom_": mujoco.mjtObj.mjOBJ_GEOM,
    "site_": mujoco.mjtObj.mjOBJ_SITE,
    "actuator_": mujoco.mjtObj.mjOBJ_ACTUATOR,
    "tendon_": mujoco.mjtObj.mjOBJ_TENDON,
    "sensor_": mujoco.mjtObj.mjOBJ_SENSOR,
    "eq_": mujoco.mjtObj.mjOBJ_EQUALITY,
    "pair_": mujoco.mjtObj.mjOBJ_PAIR,
    "wrap_": None,
}
# Fields that change only what a camera sees, never the dynamics, reward or
# observations of the benchmarking tasks.
_APPEARANCE_MARKERS = ("rgba", "matid", "group", "emission", "specular", "shininess",
                       "reflectance")

# Per element kind: (count attribute, object type, fields recorded as model facts).
# Fields holding element ids are stored as the names of those elements.
_MODEL_FACTS = {
    "body": ("nbody", mujoco.mjtObj.mjOBJ_BODY, (
        "body_parentid", "body_mass", "body_inertia", "body_pos", "body_quat", "body_ipos",
        "body_iquat", "body_mocapid", "body_jntnum", "body_geomnum", "body_gravcomp")),
    "joint": ("njnt", mujoco.mjtObj.mjOBJ_JOINT, (
        "jnt_type", "jnt_qposadr", "jnt_dofadr", "jnt_bodyid", "jnt_pos", "jnt_axis",
        "jnt_range", "jnt_limited", "jnt_stiffness", "jnt_margin", "jnt_solref",
        "jnt_solimp", "jnt_group")),
    "dof": ("nv", None, (
        "dof_jntid", "dof_bodyid", "dof_damping", "dof_armature", "dof_frictionloss",
        "dof_solref", "dof_solimp")),
    "geom": ("ngeom", mujoco.mjtObj.mjOBJ_GEOM, (
        "geom_type", "geom_bodyid", "geom_size", "geom_pos", "geom_quat", "geom_friction",
        "geom_contype", "geom_conaffinity", "geom_condim", "geom_priority", "geom_solmix",
        "geom_solref", "geom_solimp", "geom_margin", "geom_gap", "geom_fluid")),
    "site": ("nsite", mujoco.mjtObj.mjOBJ_SITE, (
        "site_type", "site_bodyid", "site_size", "site_pos", "site_quat")),
    "actuator": ("nu", mujoco.mjtObj.mjOBJ_ACTUATOR, (
        "actuator_trntype", "actuator_trnid", "actuator_gear", "actuator_ctrlrange",
        "actuator_ctrllimited", "actuator_forcerange", "actuator_forcelimited",
        "actuator_dyntype", "actuator_gaintype", "actuator_biastype", "actuator_dynprm",
        "actuator_gainprm", "actuator_biasprm", "actuator_actadr", "actuator_actnum")),
    "tendon": ("ntendon", mujoco.mjtObj.mjOBJ_TENDON, (
        "tendon_adr", "tendon_num", "tendon_range", "tendon_limited", "tendon_stiffness",
        "tendon_damping", "tendon_frictionloss", "tendon_lengthspring")),
    "wrap": ("nwrap", None, ("wrap_type", "wrap_objid", "wrap_prm")),
    "sensor": ("nsensor", mujoco.mjtObj.mjOBJ_SENSOR, (
        "sensor_type", "sensor_objtype", "sensor_objid", "sensor_reftype", "sensor_refid",
        "sensor_dim", "sensor_adr", "sensor_cutoff", "sensor_noise")),
    "camera": ("ncam", mujoco.mjtObj.mjOBJ_CAMERA, ("cam_mode", "cam_bodyid")),
    "light": ("nlight", mujoco.mjtObj.mjOBJ_LIGHT, ("light_bodyid",)),
    "equality": ("neq", mujoco.mjtObj.mjOBJ_EQUALITY, ("eq_type", "eq_obj1id", "eq_obj2id",
                                                       "eq_data", "eq_solref", "eq_solimp")),
}
_ID_FIELD_TARGETS = {
    "body_parentid": mujoco.mjtObj.mjOBJ_BODY,
    "jnt_bodyid": mujoco.mjtObj.mjOBJ_BODY,
    "dof_jntid": mujoco.mjtObj.mjOBJ_JOINT,
    "dof_bodyid": mujoco.mjtObj.mjOBJ_BODY,
    "geom_bodyid": mujoco.mjtObj.mjOBJ_BODY,
    "site_bodyid": mujoco.mjtObj.mjOBJ_BODY,
    "cam_bodyid": mujoco.mjtObj.mjOBJ_BODY,
    "light_bodyid": mujoco.mjtObj.mjOBJ_BODY,
}
_OPTION_FIELDS = (
    "timestep", "gravity", "wind", "magnetic", "density", "viscosity", "impratio",
    "tolerance", "ls_tolerance", "noslip_tolerance", "integrator", "cone", "jacobian",
    "solver", "iterations", "ls_iterations", "noslip_iterations", "disableflags",
    "enableflags", "o_margin", "o_solref", "o_solimp")
_COUNT_FIELDS = (
    "nq", "nv", "nu", "na", "nbody", "njnt", "ngeom", "nsite", "ntendon", "nwrap", "nsensor",
    "nsensordata", "ncam", "nlight", "nmocap", "neq")


def _name(model, obj_type, index):
    """The element's name, or '#<index>' for an unnamed element."""
    name = mujoco.mj_id2name(model, obj_type, int(index)) if obj_type is not None else None
    return name if name else f"#{int(index)}"


def _row_names(model, field):
    """Names of the rows of a named-element model array (see `_ELEMENT_PREFIXES`)."""
    prefix = next(p for p in _ELEMENT_PREFIXES if field.startswith(p))
    rows = getattr(model, field).shape[0]
    if prefix == "dof_":
        names = []
        for dof in range(rows):
            joint = int(model.dof_jntid[dof])
            joint_name = _name(model, mujoco.mjtObj.mjOBJ_JOINT, joint)
            joint_dofs = np.flatnonzero(model.dof_jntid == joint)
            names.append(joint_name if joint_dofs.size == 1
                         else f"{joint_name}:{dof - joint_dofs[0]}")
        return names
    return [_name(model, _ELEMENT_PREFIXES[prefix], i) for i in range(rows)]


def _task_state_candidates(model):
    """Names of the model arrays whose rows may hold per-episode task state."""
    fields = []
    for field in dir(model):
        if not any(field.startswith(p) for p in _ELEMENT_PREFIXES):
            continue
        if any(marker in field for marker in _APPEARANCE_MARKERS):
            continue
        value = getattr(model, field)
        if isinstance(value, np.ndarray) and value.ndim >= 1 and value.shape[0] > 0:
            fields.append(field)
    return sorted(fields)


def _snapshot(model, fields):
    return {field: np.array(getattr(model, field)) for field in fields}


def _options(model):
    return {f: np.array(getattr(model.opt, f)) for f in _OPTION_FIELDS if hasattr(model.opt, f)}


def _changed_rows(fresh, model):
    """{field: set of row indices} where `model` differs from the `fresh` snapshot."""
    changed = {}
    for field, original in fresh.items():
        current = np.asarray(getattr(model, field)).reshape(original.shape[0], -1)
        differs = current != original.reshape(current.shape)
        if np.issubdtype(current.dtype, np.floating):
            differs &= ~(np.isnan(current) & np.isnan(original.reshape(current.shape)))
        rows = np.flatnonzero(np.any(differs, axis=1))
        if rows.size:
            changed[field] = set(int(r) for r in rows)
    return changed


def _model_facts(model):
    """Arrays describing the compiled model, keyed 'model/<kind>/<field>'."""
    facts = {f"model/count/{c}": np.array(getattr(model, c)) for c in _COUNT_FIELDS}
    for option, value in _options(model).items():
        facts[f"model/opt/{option}"] = value
    facts["model/qpos0"] = np.array(model.qpos0)
    for kind, (count_attr, obj_type, fields) in _MODEL_FACTS.items():
        count = getattr(model, count_attr)
        facts[f"model/{kind}/name"] = np.array(
            [_name(model, obj_type, i) for i in range(count)] if obj_type is not None
            else _row_names(model, fields[0]) if count else [], dtype=str)
        for field in fields:
            if not hasattr(model, field):
                continue
            value = np.array(getattr(model, field))
            target = _ID_FIELD_TARGETS.get(field)
            if target is not None:
                value = np.array([_name(model, target, i) if i >= 0 else "" for i in value],
                                 dtype=str)
            elif field == "actuator_trnid":
                value = np.array([[_trn_target_name(model, u, int(i)) for i in value[u]]
                                  for u in range(count)], dtype=str).reshape(count, 2)
            facts[f"model/{kind}/{field}"] = value
    return facts


def _trn_target_name(model, actuator, index):
    if index < 0:
        return ""
    trn_type = model.actuator_trntype[actuator]
    obj_type = {
        mujoco.mjtTrn.mjTRN_JOINT: mujoco.mjtObj.mjOBJ_JOINT,
        mujoco.mjtTrn.mjTRN_JOINTINPARENT: mujoco.mjtObj.mjOBJ_JOINT,
        mujoco.mjtTrn.mjTRN_TENDON: mujoco.mjtObj.mjOBJ_TENDON,
        mujoco.mjtTrn.mjTRN_SITE: mujoco.mjtObj.mjOBJ_SITE,
        mujoco.mjtTrn.mjTRN_SLIDERCRANK: mujoco.mjtObj.mjOBJ_SITE,
        mujoco.mjtTrn.mjTRN_BODY: mujoco.mjtObj.mjOBJ_BODY,
    }[mujoco.mjtTrn(int(trn_type))]
    return _name(model, obj_type, index)


def _spec_record(env):
    physics = env.physics
    action_spec = env.action_spec()
    observation_spec = env.observation_spec()
    control_timestep = env.control_timestep()
    physics_timestep = float(physics.model.opt.timestep)
    return {
        "observation_keys": list(observation_spec.keys()),
        "observation_shapes": [list(s.shape) for s in observation_spec.values()],
        "observation_dtypes": [np.dtype(s.dtype).str for s in observation_spec.values()],
        "action_shape": list(action_spec.shape),
        "action_dtype": np.dtype(action_spec.dtype).str,
        "action_minimum": np.broadcast_to(action_spec.minimum, action_spec.shape).tolist(),
        "action_maximum": np.broadcast_to(action_spec.maximum, action_spec.shape).tolist(),
        "reward_shape": list(env.reward_spec().shape),
        "reward_dtype": np.dtype(env.reward_spec().dtype).str,
        "discount_shape": list(env.discount_spec().shape),
        "discount_dtype": np.dtype(env.discount_spec().dtype).str,
        "discount_minimum": float(env.discount_spec().minimum),
        "discount_maximum": float(env.discount_spec().maximum),
        "control_timestep": control_timestep,
        "physics_timestep": physics_timestep,
        "n_sub_steps": int(round(control_timestep / physics_timestep)),
    }


class _StateProbe:
    """Evaluates reward, observations and one control step from a bare state.

    Works on its own copy of the data (the model, and with it the task state, is
    shared with the environment), so the recorded trajectory is not disturbed.
    """

    def __init__(self, env):
        self._task = env.task
        self._physics = env.physics.copy(share_model=True)
        self._n_sub_steps = int(round(env.control_timestep() / env.physics.timestep()))

    def _load(self, qpos, qvel, act, time):
        model, data = self._physics.model.ptr, self._physics.data.ptr
        mujoco.mj_resetData(model, data)
        data.qpos[:] = qpos
        data.qvel[:] = qvel
        data.act[:] = act
        data.time = time
        self._physics.forward()

    def _readout(self):
        data = self._physics.data
        observation = {k: np.array(v, dtype=np.float64)
                       for k, v in self._task.get_observation(self._physics).items()}
        return (float(self._task.get_reward(self._physics)), observation,
                np.array(data.qpos), np.array(data.qvel), np.array(data.act), float(data.time))

    def evaluate(self, qpos, qvel, act, time, action):
        self._load(qpos, qvel, act, time)
        here = self._readout()
        self._task.before_step(action, self._physics)
        self._physics.step(self._n_sub_steps)
        self._task.after_step(self._physics)
        return here, self._readout()


def _random_actions(action_spec, num_steps, hold_steps, random_state):
    """Uniform actions within the bounds, each held for `hold_steps` control steps."""
    num_draws = -(-num_steps // hold_steps)
    draws = random_state.uniform(action_spec.minimum, action_spec.maximum,
                                 size=(num_draws,) + action_spec.shape)
    return np.repeat(draws, hold_steps, axis=0)[:num_steps]


def _task_state_rows(model, task_fields):
    """{field: (num_rows, width) array} of the task-state rows of `model`."""
    return {field: np.array(getattr(model, field))[rows].reshape(len(rows), -1)
            for field, (rows, _) in task_fields.items()}


def _initial_state_statistics(domain, task, fresh, candidates):
    """Samples initial states; also finds which model rows the task randomises."""
    env = suite.load(domain, task, task_kwargs={"random": INITIAL_STATE_TASK_SEED})
    model = env.physics.model.ptr
    qpos, qvel, changed, model_states = [], [], {}, []
    for _ in range(NUM_INITIAL_STATES):
        env.reset()
        qpos.append(np.array(env.physics.data.qpos))
        qvel.append(np.array(env.physics.data.qvel))
        for field, rows in _changed_rows(fresh, model).items():
            changed.setdefault(field, set()).update(rows)
        model_states.append(_snapshot(model, candidates))
    task_fields = {}
    for field in sorted(changed):
        rows = sorted(changed[field])
        task_fields[field] = (rows, [_row_names(model, field)[r] for r in rows])
    samples = {field: np.stack([s[field][rows].reshape(len(rows), -1) for s in model_states])
               for field, (rows, _) in task_fields.items()}
    return np.array(qpos), np.array(qvel), task_fields, samples


def record_task(domain, task):
    """Returns the arrays of one reference file."""
    env = suite.load(domain, task, task_kwargs={"random": TRAJECTORY_TASK_SEED})
    model = env.physics.model.ptr
    candidates = _task_state_candidates(model)
    fresh = _snapshot(model, candidates)
    fresh_options = _options(model)
    facts = _model_facts(model)

    initial_qpos, initial_qvel, task_fields, initial_task_state = _initial_state_statistics(
        domain, task, fresh, candidates)

    action_spec = env.action_spec()
    action_random = np.random.RandomState(ACTION_SEED)
    probe = _StateProbe(env)
    columns = {name: [] for name in (
        "episode", "step", "qpos", "qvel", "act", "time", "action", "reward", "next_qpos",
        "next_qvel", "next_act", "next_time", "next_reward")}
    observations, next_observations = [], []
    task_state = {field: [] for field in task_fields}
    episode_lengths, last_discounts, mid_discounts = [], [], set()

    for episode, hold_steps in enumerate(ACTION_HOLD_STEPS):
        time_step = env.reset()
        unexpected = set(_changed_rows(fresh, model)) - set(task_fields)
        if unexpected:
            raise RuntimeError(f"{domain}-{task}: reset changed fields {sorted(unexpected)} that "
                               "the initial-state sampling did not see; raise "
                               "NUM_INITIAL_STATES")
        rows_now = _task_state_rows(model, task_fields)
        actions = _random_actions(action_spec, 10_000, hold_steps, action_random)
        sample_steps = {0} | set(
            action_random.choice(np.arange(1, 1000), STATES_PER_EPISODE, replace=False).tolist())
        step = 0
        while True:
            data = env.physics.data
            action = actions[step]
            if step in sample_steps:
                here, after = probe.evaluate(data.qpos, data.qvel, data.act, data.time, action)
                reward, observation, qpos, qvel, act, time = here
                next_reward, next_observation, next_qpos, next_qvel, next_act, next_time = after
                for name, value in (
                        ("episode", episode), ("step", step), ("qpos", qpos), ("qvel", qvel),
                        ("act", act), ("time", time), ("action", action), ("reward", reward),
                        ("next_qpos", next_qpos), ("next_qvel", next_qvel),
                        ("next_act", next_act), ("next_time", next_time),
                        ("next_reward", next_reward)):
                    columns[name].append(value)
                observations.append(observation)
                next_observations.append(next_observation)
                for field in task_fields:
                    task_state[field].append(rows_now[field])
            time_step = env.step(action)
            step += 1
            if time_step.last():
                last_discounts.append(float(time_step.discount))
                break
            mid_discounts.add(float(time_step.discount))
        episode_lengths.append(step)
        if _changed_rows(fresh, model).keys() - task_fields.keys() or any(
                not np.array_equal(rows_now[f], v)
                for f, v in _task_state_rows(model, task_fields).items()):
            raise RuntimeError(f"{domain}-{task}: the model changed during the episode")
        for option, value in _options(model).items():
            if not np.array_equal(value, fresh_options[option]):
                raise RuntimeError(f"{domain}-{task}: the task changed opt.{option}, which this "
                                   "recorder does not store as task state")

    spec = _spec_record(env)
    if len(set(episode_lengths)) != 1 or len(set(last_discounts)) != 1 or len(mid_discounts) != 1:
        raise RuntimeError(f"{domain}-{task}: episodes differ in length or discount: "
                           f"{episode_lengths}, {last_discounts}, {mid_discounts}")
    spec["episode_steps"] = episode_lengths[0]
    spec["discount_mid"] = mid_discounts.pop()
    spec["discount_last"] = last_discounts[0]

    arrays = dict(facts)
    arrays["spec"] = np.array(json.dumps(spec))
    for name, values in columns.items():
        arrays[f"states/{name}"] = np.array(values)
    for key in spec["observation_keys"]:
        arrays[f"states/obs/{key}"] = np.stack([o[key] for o in observations])
        arrays[f"states/next_obs/{key}"] = np.stack([o[key] for o in next_observations])
    arrays["task_state/fields"] = np.array(sorted(task_fields), dtype=str)
    for field, (_, names) in task_fields.items():
        arrays[f"task_state/{field}/names"] = np.array(names, dtype=str)
        arrays[f"task_state/{field}/values"] = np.stack(task_state[field])
        arrays[f"initial/task_state/{field}"] = initial_task_state[field]
    arrays["initial/qpos"] = initial_qpos
    arrays["initial/qvel"] = initial_qvel
    arrays["initial/qpos_mean"] = initial_qpos.mean(axis=0)
    arrays["initial/qpos_std"] = initial_qpos.std(axis=0)
    arrays["initial/qvel_mean"] = initial_qvel.mean(axis=0)
    arrays["initial/qvel_std"] = initial_qvel.std(axis=0)
    arrays["meta"] = np.array(json.dumps({
        "domain": domain,
        "task": task,
        "dm_control_version": importlib.metadata.version("dm-control"),
        "mujoco_version": mujoco.__version__,
        "numpy_version": np.__version__,
        "python_version": platform.python_version(),
        "trajectory_task_seed": TRAJECTORY_TASK_SEED,
        "action_seed": ACTION_SEED,
        "initial_state_task_seed": INITIAL_STATE_TASK_SEED,
        "num_initial_states": NUM_INITIAL_STATES,
        "action_hold_steps": list(ACTION_HOLD_STEPS),
        "states_per_episode": STATES_PER_EPISODE,
    }))
    return arrays


def main(argv=None):
    default_output = os.path.join(os.path.dirname(os.path.abspath(__file__)), "reference")
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output_dir", default=default_output,
                        help="where to write <domain>-<task>.npz (default: %(default)s)")
    parser.add_argument("--tasks", nargs="*", default=None, metavar="DOMAIN-TASK",
                        help="record only these tasks (default: all benchmarking tasks)")
    args = parser.parse_args(argv)

    benchmarking = [f"{d}-{t}" for d, t in suite.BENCHMARKING]
    selected = benchmarking if args.tasks is None else args.tasks
    unknown = sorted(set(selected) - set(benchmarking))
    if unknown:
        parser.error(f"unknown tasks {unknown}; expected some of {benchmarking}")
    os.makedirs(args.output_dir, exist_ok=True)
    for name in selected:
        domain, task = name.split("-")
        arrays = record_task(domain, task)
        path = os.path.join(args.output_dir, f"{name}.npz")
        np.savez_compressed(path, **arrays)
        print(f"{name}: {len(arrays['states/time'])} states, task state "
              f"{list(arrays['task_state/fields'])}, {os.path.getsize(path)} bytes",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
