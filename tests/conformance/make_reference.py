"""Records reference data from the published Control Suite (dm-control 1.0.50).

Run with the reference virtual environment's interpreter, never the project's:

    benchmarks/reference_envs/make_dm_control_venv.sh
    MUJOCO_GL=disable .venvs/dm_control/bin/python tests/conformance/make_reference.py

This script imports nothing of this project, so it runs where dm-control and
MuJoCo 3 are installed. It writes one `<domain>-<task>.npz` per benchmarking task
(or per task named with `--tasks`, or per extra task with `--extra`) into
`tests/conformance/reference/`; README.md beside this file documents the format
and `conformance.py` reads it. Quadruped escape redraws its terrain through a
rendering context, so record it with MUJOCO_GL=egl (or osmesa), not disable.

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
* "Episode arrays": whole model arrays not divided into named elements that a
  task writes per episode (`EPISODE_ARRAYS`, e.g. quadruped escape's terrain in
  `hfield_data`). They are too large to store per state, so they are recorded once
  per recorded episode (states name their episode) and summarised (mean, std,
  max) at each sampled episode start.
* "One control step": the task's `before_step` with the recorded action, then
  `n_sub_steps` physics steps, then `after_step`, as `control.Environment.step`
  does, from the state as defined above.
* Recorded states come from three sources (column `states/source`): 0, the
  initial state and STATES_PER_EPISODE random steps of each seeded
  random-action episode; 1, the REWARDING_STATES visited states with the
  highest reward; 2, SCATTERED_STATES contact-free states with the joints spread
  over their ranges, half of them chosen for high reward (models without free
  or ball joints only).
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
from dm_control.rl import control

# Seeds of the recorded data; changing one changes every reference file.
TRAJECTORY_TASK_SEED = 20240601
ACTION_SEED = 7
INITIAL_STATE_TASK_SEED = 11
NUM_INITIAL_STATES = 100
# One entry per recorded episode: how many control steps each uniformly random
# action is held. Held actions push the system further from its resting state
# than independent ones, so the recorded states cover more of the reward range.
ACTION_HOLD_STEPS = (1, 10, 1, 25)
# States recorded per episode besides its initial state.
STATES_PER_EPISODE = 4
# Visited states with the highest reward, recorded so that reward checks of
# sparse tasks see more than zeros.
REWARDING_STATES = 4
# Contact-free states with joints spread over their ranges (models without
# ball or free joints only): up to SCATTER_CANDIDATES are drawn in at most
# SCATTER_ATTEMPTS draws (a draw that touches anything or diverges within one
# control step is rejected); the SCATTERED_STATES recorded are the most
# rewarding half and a random half of the rest.
SCATTERED_STATES = 8
SCATTER_CANDIDATES = 64
SCATTER_ATTEMPTS = 400

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
# Tasks without a time limit (lqr) record episodes cut after this many control
# steps unless they terminate earlier; their spec says episode_steps = None.
UNBOUNDED_EPISODE_STEPS = 1000
# Random actions are uniform between the action bounds; bounds at or beyond this
# magnitude (the published +-mjMAXVAL of unlimited controls) are replaced by +-1.
UNLIMITED_ACTION_BOUND = 1e10

# Model arrays not divided into named elements that a task may rewrite at each
# episode start; recorded per episode when a reset changes them.
EPISODE_ARRAYS = ("hfield_data",)

# Fields that change only what a camera sees, never the dynamics, reward or
# observations of the benchmarking tasks.
_APPEARANCE_MARKERS = ("rgba", "matid", "group", "emission", "specular", "shininess", "reflectance")

# Per element kind: (count attribute, object type, fields recorded as model facts).
# Fields holding element ids are stored as the names of those elements.
_MODEL_FACTS = {
    "body": (
        "nbody",
        mujoco.mjtObj.mjOBJ_BODY,
        (
            "body_parentid",
            "body_mass",
            "body_inertia",
            "body_pos",
            "body_quat",
            "body_ipos",
            "body_iquat",
            "body_mocapid",
            "body_jntnum",
            "body_geomnum",
            "body_gravcomp",
        ),
    ),
    "joint": (
        "njnt",
        mujoco.mjtObj.mjOBJ_JOINT,
        (
            "jnt_type",
            "jnt_qposadr",
            "jnt_dofadr",
            "jnt_bodyid",
            "jnt_pos",
            "jnt_axis",
            "jnt_range",
            "jnt_limited",
            "jnt_stiffness",
            "jnt_margin",
            "jnt_solref",
            "jnt_solimp",
            "jnt_group",
        ),
    ),
    "dof": (
        "nv",
        None,
        (
            "dof_jntid",
            "dof_bodyid",
            "dof_damping",
            "dof_armature",
            "dof_frictionloss",
            "dof_solref",
            "dof_solimp",
        ),
    ),
    "geom": (
        "ngeom",
        mujoco.mjtObj.mjOBJ_GEOM,
        (
            "geom_type",
            "geom_bodyid",
            "geom_size",
            "geom_pos",
            "geom_quat",
            "geom_friction",
            "geom_contype",
            "geom_conaffinity",
            "geom_condim",
            "geom_priority",
            "geom_solmix",
            "geom_solref",
            "geom_solimp",
            "geom_margin",
            "geom_gap",
            "geom_fluid",
        ),
    ),
    "site": (
        "nsite",
        mujoco.mjtObj.mjOBJ_SITE,
        ("site_type", "site_bodyid", "site_size", "site_pos", "site_quat"),
    ),
    "actuator": (
        "nu",
        mujoco.mjtObj.mjOBJ_ACTUATOR,
        (
            "actuator_trntype",
            "actuator_trnid",
            "actuator_gear",
            "actuator_ctrlrange",
            "actuator_ctrllimited",
            "actuator_forcerange",
            "actuator_forcelimited",
            "actuator_dyntype",
            "actuator_gaintype",
            "actuator_biastype",
            "actuator_dynprm",
            "actuator_gainprm",
            "actuator_biasprm",
            "actuator_actadr",
            "actuator_actnum",
        ),
    ),
    "tendon": (
        "ntendon",
        mujoco.mjtObj.mjOBJ_TENDON,
        (
            "tendon_adr",
            "tendon_num",
            "tendon_range",
            "tendon_limited",
            "tendon_stiffness",
            "tendon_damping",
            "tendon_frictionloss",
            "tendon_lengthspring",
        ),
    ),
    "wrap": ("nwrap", None, ("wrap_type", "wrap_objid", "wrap_prm")),
    "sensor": (
        "nsensor",
        mujoco.mjtObj.mjOBJ_SENSOR,
        (
            "sensor_type",
            "sensor_objtype",
            "sensor_objid",
            "sensor_reftype",
            "sensor_refid",
            "sensor_dim",
            "sensor_adr",
            "sensor_cutoff",
            "sensor_noise",
        ),
    ),
    "camera": ("ncam", mujoco.mjtObj.mjOBJ_CAMERA, ("cam_mode", "cam_bodyid")),
    "light": ("nlight", mujoco.mjtObj.mjOBJ_LIGHT, ("light_bodyid",)),
    "equality": (
        "neq",
        mujoco.mjtObj.mjOBJ_EQUALITY,
        ("eq_type", "eq_obj1id", "eq_obj2id", "eq_data", "eq_solref", "eq_solimp"),
    ),
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
    "timestep",
    "gravity",
    "wind",
    "magnetic",
    "density",
    "viscosity",
    "impratio",
    "tolerance",
    "ls_tolerance",
    "noslip_tolerance",
    "integrator",
    "cone",
    "jacobian",
    "solver",
    "iterations",
    "ls_iterations",
    "noslip_iterations",
    "disableflags",
    "enableflags",
    "o_margin",
    "o_solref",
    "o_solimp",
)
_COUNT_FIELDS = (
    "nq",
    "nv",
    "nu",
    "na",
    "nbody",
    "njnt",
    "ngeom",
    "nsite",
    "ntendon",
    "nwrap",
    "nsensor",
    "nsensordata",
    "ncam",
    "nlight",
    "nmocap",
    "neq",
)


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
            names.append(
                joint_name if joint_dofs.size == 1 else f"{joint_name}:{dof - joint_dofs[0]}"
            )
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
            [_name(model, obj_type, i) for i in range(count)]
            if obj_type is not None
            else _row_names(model, fields[0])
            if count
            else [],
            dtype=str,
        )
        for field in fields:
            if not hasattr(model, field):
                continue
            value = np.array(getattr(model, field))
            target = _ID_FIELD_TARGETS.get(field)
            if target is not None:
                value = np.array(
                    [_name(model, target, i) if i >= 0 else "" for i in value], dtype=str
                )
            elif field == "actuator_trnid":
                value = np.array(
                    [[_trn_target_name(model, u, int(i)) for i in value[u]] for u in range(count)],
                    dtype=str,
                ).reshape(count, 2)
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
        self.physics = env.physics.copy(share_model=True)
        self._n_sub_steps = int(round(env.control_timestep() / env.physics.timestep()))

    def _load(self, qpos, qvel, act, time):
        model, data = self.physics.model.ptr, self.physics.data.ptr
        mujoco.mj_resetData(model, data)
        data.qpos[:] = qpos
        data.qvel[:] = qvel
        data.act[:] = act
        data.time = time
        self.physics.forward()

    def _readout(self):
        data = self.physics.data
        observation = {
            k: np.array(v, dtype=np.float64)
            for k, v in self._task.get_observation(self.physics).items()
        }
        return (
            float(self._task.get_reward(self.physics)),
            observation,
            np.array(data.qpos),
            np.array(data.qvel),
            np.array(data.act),
            float(data.time),
        )

    def evaluate(self, qpos, qvel, act, time, action):
        self._load(qpos, qvel, act, time)
        here = self._readout()
        self._task.before_step(action, self.physics)
        self.physics.step(self._n_sub_steps)
        self._task.after_step(self.physics)
        return here, self._readout()


def _task_state_rows(model, task_fields):
    """{field: (num_rows, width) array} of the task-state rows of `model`."""
    return {
        field: np.array(getattr(model, field))[rows].reshape(len(rows), -1)
        for field, (rows, _) in task_fields.items()
    }


def _write_task_state_rows(model, task_fields, rows_by_field):
    for field, (rows, _) in task_fields.items():
        array = getattr(model, field)
        array[rows] = rows_by_field[field].reshape(array[rows].shape)
    for field in EPISODE_ARRAYS:
        if field in rows_by_field:
            getattr(model, field)[:] = rows_by_field[field]


def array_summary(values):
    """(mean, std, max) of an episode array, in float64: what is recorded of it at
    each sampled episode start."""
    values = np.asarray(values, dtype=np.float64)
    return np.array([values.mean(), values.std(), values.max()])


def _changed_episode_arrays(model, fresh_arrays):
    return [
        field
        for field, fresh in fresh_arrays.items()
        if not np.array_equal(getattr(model, field), fresh)
    ]


def _initial_state_statistics(domain, task, fresh, candidates):
    """Samples initial states; also finds which model rows and episode arrays the
    task randomises.

    Returns:
      qpos (S, nq), qvel (S, nv), the task-state fields, their samples, and
      {episode array field: (S, 3) summaries} of the arrays that resets change.
    """
    env = suite.load(domain, task, task_kwargs={"random": INITIAL_STATE_TASK_SEED})
    model = env.physics.model.ptr
    fresh_arrays = {
        field: np.array(getattr(model, field))
        for field in EPISODE_ARRAYS
        if np.size(getattr(model, field))
    }
    qpos, qvel, changed, model_states, summaries = [], [], {}, [], []
    changed_arrays = set()
    for _ in range(NUM_INITIAL_STATES):
        env.reset()
        qpos.append(np.array(env.physics.data.qpos))
        qvel.append(np.array(env.physics.data.qvel))
        changed_arrays.update(_changed_episode_arrays(model, fresh_arrays))
        summaries.append({field: array_summary(getattr(model, field)) for field in fresh_arrays})
        for field, rows in _changed_rows(fresh, model).items():
            changed.setdefault(field, set()).update(rows)
        model_states.append(_snapshot(model, candidates))
    task_fields = {}
    for field in sorted(changed):
        rows = sorted(changed[field])
        task_fields[field] = (rows, [_row_names(model, field)[r] for r in rows])
    samples = {
        field: np.stack([s[field][rows].reshape(len(rows), -1) for s in model_states])
        for field, (rows, _) in task_fields.items()
    }
    array_summaries = {
        field: np.stack([s[field] for s in summaries]) for field in sorted(changed_arrays)
    }
    return np.array(qpos), np.array(qvel), task_fields, samples, array_summaries


def _unexpected_changes(fresh, model, task_fields):
    """{field: rows} changed from `fresh` outside the known task-state rows."""
    unexpected = {}
    for field, rows in _changed_rows(fresh, model).items():
        extra = rows - set(task_fields.get(field, ((), ()))[0])
        if extra:
            unexpected[field] = sorted(extra)
    return unexpected


def _run_episodes(env, fresh, task_fields, episode_arrays, random_state):
    """Runs the seeded random-action episodes and keeps every visited state.

    Returns a dict of per-step arrays (the state before each step, the action,
    the reward the environment returned for that step), the task-state rows of
    each episode (including the `episode_arrays` fields, whole), and the episode
    length and discounts.
    """
    model = env.physics.model.ptr
    action_spec = env.action_spec()
    low, high = _action_sampling_bounds(action_spec)
    # control.Environment keeps its step limit private; inf means no time limit.
    unbounded = np.isinf(env._step_limit)
    steps = {
        name: []
        for name in ("episode", "step", "qpos", "qvel", "act", "time", "action", "env_reward")
    }
    episode_rows, episode_lengths, last_discounts, mid_discounts = [], [], set(), set()
    for episode, hold_steps in enumerate(ACTION_HOLD_STEPS):
        time_step = env.reset()
        unexpected = _unexpected_changes(fresh, model, task_fields)
        if unexpected:
            raise RuntimeError(
                f"reset changed model rows {unexpected} that the initial-state "
                "sampling did not see; raise NUM_INITIAL_STATES"
            )
        rows = _task_state_rows(model, task_fields)
        rows.update({field: np.array(getattr(model, field)) for field in episode_arrays})
        episode_rows.append(rows)
        step = 0
        while not time_step.last() and not (unbounded and step == UNBOUNDED_EPISODE_STEPS):
            if step % hold_steps == 0:
                action = random_state.uniform(low, high)
            data = env.physics.data
            for name, value in (
                ("episode", episode),
                ("step", step),
                ("qpos", data.qpos),
                ("qvel", data.qvel),
                ("act", data.act),
                ("time", data.time),
                ("action", action),
            ):
                steps[name].append(np.array(value))
            time_step = env.step(action)
            steps["env_reward"].append(time_step.reward)
            (last_discounts if time_step.last() else mid_discounts).add(float(time_step.discount))
            step += 1
        episode_lengths.append(step)
        after = _task_state_rows(model, task_fields)
        after.update({field: np.array(getattr(model, field)) for field in episode_arrays})
        if _unexpected_changes(fresh, model, task_fields) or any(
            not np.array_equal(rows[f], v) for f, v in after.items()
        ):
            raise RuntimeError("the model changed during an episode")
    if unbounded:
        if len(mid_discounts) != 1:
            raise RuntimeError(f"mid-episode discounts differ: {mid_discounts}")
        episode_facts = {
            "episode_steps": None,
            "discount_mid": mid_discounts.pop(),
            "discount_last": None,
        }
        return {k: np.array(v) for k, v in steps.items()}, episode_rows, episode_facts
    if len(set(episode_lengths)) != 1 or len(last_discounts) != 1 or len(mid_discounts) != 1:
        raise RuntimeError(
            f"episodes differ in length or discount: {episode_lengths}, "
            f"{last_discounts}, {mid_discounts}"
        )
    episode_facts = {
        "episode_steps": episode_lengths[0],
        "discount_mid": mid_discounts.pop(),
        "discount_last": last_discounts.pop(),
    }
    return {k: np.array(v) for k, v in steps.items()}, episode_rows, episode_facts


def _action_sampling_bounds(action_spec):
    """Bounds of the uniform random actions: the spec's, with unlimited ones +-1."""
    low = np.broadcast_to(action_spec.minimum, action_spec.shape).astype(float)
    high = np.broadcast_to(action_spec.maximum, action_spec.shape).astype(float)
    low = np.where(low <= -UNLIMITED_ACTION_BOUND, -1.0, low)
    high = np.where(high >= UNLIMITED_ACTION_BOUND, 1.0, high)
    return low, high


def _scattered_state(model, visited, random_state):
    """A state off the trajectories: joints spread over their whole range.

    Limited hinges and slides are uniform within their limits, unlimited hinges
    uniform in [-pi, pi); unlimited slides keep the value of a visited state.
    Velocities are those of a visited state plus Gaussian noise of half the
    visited spread. Returns None for models with ball or free joints, whose
    random poses would mostly interpenetrate.
    """
    if np.any(np.isin(model.jnt_type, (mujoco.mjtJoint.mjJNT_FREE, mujoco.mjtJoint.mjJNT_BALL))):
        return None
    source = random_state.randint(len(visited["qpos"]))
    qpos = visited["qpos"][source].copy()
    for joint in range(model.njnt):
        address = model.jnt_qposadr[joint]
        if model.jnt_limited[joint]:
            low, high = model.jnt_range[joint]
            qpos[address] = random_state.uniform(low, high)
        elif model.jnt_type[joint] == mujoco.mjtJoint.mjJNT_HINGE:
            qpos[address] = random_state.uniform(-np.pi, np.pi)
    spread = visited["qvel"].std(axis=0)
    qvel = visited["qvel"][source] + random_state.normal(0.0, 0.5 * spread)
    return source, qpos, qvel


def _select_states(model, probe, visited, load_task_state, action_spec, random_state):
    """The states to record.

    Returns a list of (source, visited index, qpos, qvel, action): `source` is 0
    for a state sampled along a trajectory, 1 for one of the most rewarding
    visited states, 2 for a scattered contact-free state (whose visited index
    names the state that lent it the unlimited slides, act, time and task state).
    """
    episodes, steps = visited["episode"], visited["step"]
    chosen = []
    for episode in range(len(ACTION_HOLD_STEPS)):
        indices = np.flatnonzero(episodes == episode)
        others = random_state.choice(indices[1:], STATES_PER_EPISODE, replace=False)
        chosen.extend([int(indices[0])] + sorted(int(i) for i in others))
    sources = [0] * len(chosen)
    # The reward of step k is that of the state before step k + 1; ties are
    # broken at random so sparse tasks do not always pick the first steps.
    reward_after = np.full(len(steps), -np.inf)
    follows = np.flatnonzero(steps[1:] > 0) + 1
    reward_after[follows] = visited["env_reward"][follows - 1]
    order = np.lexsort((random_state.permutation(len(steps)), -reward_after))
    top = [int(i) for i in order if int(i) not in chosen][:REWARDING_STATES]
    chosen.extend(top)
    sources.extend([1] * len(top))
    picks = [
        (source, i, visited["qpos"][i], visited["qvel"][i], visited["action"][i])
        for source, i in zip(sources, chosen)
    ]
    data = probe.physics.data.ptr
    candidates, rewards = [], []
    for _ in range(SCATTER_ATTEMPTS):
        scattered = _scattered_state(model, visited, random_state)
        if scattered is None or len(candidates) == SCATTER_CANDIDATES:
            break
        index, qpos, qvel = scattered
        load_task_state(int(visited["episode"][index]))
        mujoco.mj_resetData(model, data)
        data.qpos[:], data.qvel[:] = qpos, qvel
        mujoco.mj_forward(model, data)
        if data.ncon:
            continue
        action = random_state.uniform(*_action_sampling_bounds(action_spec))
        try:
            (reward, *_), _ = probe.evaluate(
                qpos, qvel, visited["act"][index], visited["time"][index], action
            )
        except control.PhysicsError:
            continue
        candidates.append((2, index, qpos, qvel, action))
        rewards.append(reward)
    # Half the scattered states are the most rewarding candidates, half are
    # drawn at random from the rest.
    order = np.lexsort((random_state.permutation(len(rewards)), -np.array(rewards)))
    best = [int(i) for i in order[: SCATTERED_STATES // 2]]
    rest = [int(i) for i in order[SCATTERED_STATES // 2 :]]
    drawn = random_state.choice(rest, min(len(rest), SCATTERED_STATES - len(best)), replace=False)
    picks.extend(candidates[i] for i in best + sorted(int(i) for i in drawn))
    return picks


def record_task(domain, task):
    """Returns the arrays of one reference file."""
    env = suite.load(domain, task, task_kwargs={"random": TRAJECTORY_TASK_SEED})
    model = env.physics.model.ptr
    candidates = _task_state_candidates(model)
    fresh = _snapshot(model, candidates)
    fresh_options = _options(model)
    facts = _model_facts(model)

    (initial_qpos, initial_qvel, task_fields, initial_task_state, array_summaries) = (
        _initial_state_statistics(domain, task, fresh, candidates)
    )

    random_state = np.random.RandomState(ACTION_SEED)
    visited, episode_rows, episode_facts = _run_episodes(
        env, fresh, task_fields, sorted(array_summaries), random_state
    )
    for option, value in _options(model).items():
        if not np.array_equal(value, fresh_options[option]):
            raise RuntimeError(
                f"the task changed opt.{option}, which this recorder does not store as task state"
            )

    probe = _StateProbe(env)
    action_spec = env.action_spec()

    def load_task_state(episode):
        _write_task_state_rows(model, task_fields, episode_rows[episode])

    picks = _select_states(model, probe, visited, load_task_state, action_spec, random_state)
    columns = {
        name: []
        for name in (
            "source",
            "episode",
            "step",
            "qpos",
            "qvel",
            "act",
            "time",
            "action",
            "reward",
            "next_qpos",
            "next_qvel",
            "next_act",
            "next_time",
            "next_reward",
        )
    }
    observations, next_observations = [], []
    task_state = {field: [] for field in task_fields}
    for source, index, qpos, qvel, action in picks:
        episode = int(visited["episode"][index])
        rows = episode_rows[episode]
        load_task_state(episode)
        step = int(visited["step"][index]) if source != 2 else -1
        here, after = probe.evaluate(
            qpos, qvel, visited["act"][index], visited["time"][index], action
        )
        reward, observation, qpos, qvel, act, time = here
        next_reward, next_observation, next_qpos, next_qvel, next_act, next_time = after
        for name, value in (
            ("source", source),
            ("episode", episode),
            ("step", step),
            ("qpos", qpos),
            ("qvel", qvel),
            ("act", act),
            ("time", time),
            ("action", action),
            ("reward", reward),
            ("next_qpos", next_qpos),
            ("next_qvel", next_qvel),
            ("next_act", next_act),
            ("next_time", next_time),
            ("next_reward", next_reward),
        ):
            columns[name].append(value)
        observations.append(observation)
        next_observations.append(next_observation)
        for field in task_fields:
            task_state[field].append(rows[field])

    spec = _spec_record(env)
    spec.update(episode_facts)
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
    for field, summaries in array_summaries.items():
        arrays[f"episode_arrays/{field}"] = np.stack([rows[field] for rows in episode_rows])
        arrays[f"initial/episode_arrays/{field}"] = summaries
    arrays["initial/qpos"] = initial_qpos
    arrays["initial/qvel"] = initial_qvel
    arrays["initial/qpos_mean"] = initial_qpos.mean(axis=0)
    arrays["initial/qpos_std"] = initial_qpos.std(axis=0)
    arrays["initial/qvel_mean"] = initial_qvel.mean(axis=0)
    arrays["initial/qvel_std"] = initial_qvel.std(axis=0)
    arrays["meta"] = np.array(
        json.dumps(
            {
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
                "rewarding_states": REWARDING_STATES,
                "scattered_states": SCATTERED_STATES,
            }
        )
    )
    return arrays


def main(argv=None):
    default_output = os.path.join(os.path.dirname(os.path.abspath(__file__)), "reference")
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--output_dir",
        default=default_output,
        help="where to write <domain>-<task>.npz (default: %(default)s)",
    )
    parser.add_argument(
        "--tasks",
        nargs="*",
        default=None,
        metavar="DOMAIN-TASK",
        help="record only these tasks, benchmarking or extra (default: all benchmarking tasks)",
    )
    parser.add_argument(
        "--extra", action="store_true", help="record every extra (non-benchmarking) task instead"
    )
    args = parser.parse_args(argv)

    benchmarking = [f"{d}-{t}" for d, t in suite.BENCHMARKING]
    published = [f"{d}-{t}" for d, t in suite.ALL_TASKS]
    if args.extra and args.tasks is not None:
        parser.error("give either --tasks or --extra")
    if args.extra:
        selected = [name for name in published if name not in benchmarking]
    else:
        selected = benchmarking if args.tasks is None else args.tasks
    unknown = sorted(set(selected) - set(published))
    if unknown:
        parser.error(f"unknown tasks {unknown}; expected some of {published}")
    os.makedirs(args.output_dir, exist_ok=True)
    for name in selected:
        domain, task = name.split("-")
        arrays = record_task(domain, task)
        path = os.path.join(args.output_dir, f"{name}.npz")
        np.savez_compressed(path, **arrays)
        print(
            f"{name}: {len(arrays['states/time'])} states, task state "
            f"{arrays['task_state/fields'].tolist()}, {os.path.getsize(path)} bytes",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
