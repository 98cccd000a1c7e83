"""Checks an environment of this project against recorded Control Suite data.

The reference files (`reference/<domain>-<task>.npz`, written by
`make_reference.py` from dm-control 1.0.50 on MuJoCo 3.17; README.md beside this
file documents their format) hold the specs, model facts, initial-state samples
and states with their reward, observations, an action and the state one control
step later. The functions here compare one of our environments with one such
file and return structured results instead of asserting, so that tests assert
on them and `table.py` prints them.

The environment is a `composer.Environment` (a `dm_env.Environment` with
`.physics` and `.task`), whose `physics.model` / `physics.data` are MuJoCo's
`MjModel` / `MjData`. Recorded states are put into it through an episode reset:
`env.physics.reset_context` is wrapped for one `reset()` so that, after the task
and its entities have initialised the episode their own way, the recorded state
and task state overwrite it, and an actuated `mj_forward` (as the reference's)
closes it. The observation
that `reset()` returns is then the observation at the recorded state, as a user
of the environment would see it.

Elements are matched by name: a reference name matches an element of the same
name, or failing that the only element whose name ends in `/<name>` (so models
that are attached under a prefix still match). Units are those of MuJoCo:
metres, radians, seconds, kilograms.
"""

import contextlib
import dataclasses
import json
import os

import mujoco
import numpy as np

from composer_tasks.physics import PhysicsError

REFERENCE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "reference")

_ELEMENT_OBJECTS = {
    "body": mujoco.mjtObj.mjOBJ_BODY,
    "joint": mujoco.mjtObj.mjOBJ_JOINT,
    "geom": mujoco.mjtObj.mjOBJ_GEOM,
    "site": mujoco.mjtObj.mjOBJ_SITE,
    "actuator": mujoco.mjtObj.mjOBJ_ACTUATOR,
    "tendon": mujoco.mjtObj.mjOBJ_TENDON,
    "sensor": mujoco.mjtObj.mjOBJ_SENSOR,
    "camera": mujoco.mjtObj.mjOBJ_CAMERA,
    "light": mujoco.mjtObj.mjOBJ_LIGHT,
    "equality": mujoco.mjtObj.mjOBJ_EQUALITY,
    "pair": mujoco.mjtObj.mjOBJ_PAIR,
}
# Model-array prefixes of task-state fields and the element kind naming their rows.
_FIELD_PREFIX_KINDS = {
    "body_": "body",
    "jnt_": "joint",
    "dof_": "dof",
    "geom_": "geom",
    "site_": "site",
    "actuator_": "actuator",
    "tendon_": "tendon",
    "sensor_": "sensor",
    "eq_": "equality",
    "pair_": "pair",
    "wrap_": "wrap",
}
_ID_FIELD_KINDS = {
    "body_parentid": "body",
    "jnt_bodyid": "body",
    "dof_jntid": "joint",
    "dof_bodyid": "body",
    "geom_bodyid": "body",
    "site_bodyid": "body",
    "cam_bodyid": "body",
    "light_bodyid": "body",
}
_TRANSMISSION_KINDS = {
    int(mujoco.mjtTrn.mjTRN_JOINT): "joint",
    int(mujoco.mjtTrn.mjTRN_JOINTINPARENT): "joint",
    int(mujoco.mjtTrn.mjTRN_TENDON): "tendon",
    int(mujoco.mjtTrn.mjTRN_SITE): "site",
    int(mujoco.mjtTrn.mjTRN_SLIDERCRANK): "site",
    int(mujoco.mjtTrn.mjTRN_BODY): "body",
}


@dataclasses.dataclass(frozen=True)
class Tolerances:
    """Largest absolute differences accepted.

    Attributes:
        reward: reward at the same state (unitless, rewards lie in [0, 1]).
        observation: every observation element at the same state.
        next_qpos: generalized positions one control step later (m or rad).
        next_qvel: generalized velocities one control step later (m/s or rad/s).
        next_act: actuator activations one control step later.
        timestep: control and physics timesteps (s).
        next_time: simulation time one control step later (s).
        constant_initial: initial-state coordinates the reference never varies.
        initial_mean_z: initial-state means, in standard errors of their difference.
        initial_ks_alpha: significance level of the two-sample Kolmogorov-Smirnov
            test per initial-state coordinate (the chance that a coordinate
            drawn from the same distribution fails).
        model_field: model facts differing by more than this are listed by
            `TaskConformance.differing_model_fields`.
    """

    reward: float = 1e-4
    observation: float = 1e-4
    next_qpos: float = 1e-4
    next_qvel: float = 1e-3
    next_act: float = 1e-4
    timestep: float = 1e-12
    next_time: float = 1e-9
    constant_initial: float = 1e-6
    initial_mean_z: float = 5.0
    initial_ks_alpha: float = 1e-4
    model_field: float = 1e-9


@dataclasses.dataclass
class Reference:
    """One reference file, loaded.

    Attributes:
        name: '<domain>-<task>'.
        domain, task: the suite names.
        spec: observation keys, shapes and dtypes, action shape and bounds,
            timesteps (s), n_sub_steps, episode_steps, discounts (see README.md).
        meta: versions and seeds the file was recorded with.
        model: model facts, 'model/<kind>/<field>' -> array (see README.md).
        states: per-state arrays: source, episode, step, qpos, qvel, act, time,
            action, reward and next_qpos, next_qvel, next_act, next_time,
            next_reward; first axis indexes states.
        observations, next_observations: key -> (num_states, *shape) array.
        task_state: field -> (element names, (num_states, num_elements, width) values).
        initial: 'qpos', 'qvel' -> (num_samples, n) arrays and field ->
            (num_samples, num_elements, width) task-state samples of episode starts.
        episode_arrays: field -> (num_episodes, size) whole model arrays a task
            rewrites per episode (e.g. 'hfield_data'), one row per recorded
            episode (`states['episode']` indexes them); empty for most tasks.
        initial_array_summaries: field -> (num_samples, 3) (mean, std, max) of
            that array at each sampled episode start.
    """

    name: str
    domain: str
    task: str
    spec: dict
    meta: dict
    model: dict
    states: dict
    observations: dict
    next_observations: dict
    task_state: dict
    initial: dict
    episode_arrays: dict = dataclasses.field(default_factory=dict)
    initial_array_summaries: dict = dataclasses.field(default_factory=dict)

    @property
    def num_states(self):
        return len(self.states["time"])


def reference_paths(directory=REFERENCE_DIR):
    """Sorted paths of the reference files in `directory`."""
    return sorted(os.path.join(directory, f) for f in os.listdir(directory) if f.endswith(".npz"))


def load_reference(path):
    """Reads one reference file written by make_reference.py."""
    with np.load(path, allow_pickle=False) as archive:
        arrays = {key: archive[key] for key in archive.files}
    meta = json.loads(str(arrays["meta"]))
    spec = json.loads(str(arrays["spec"]))
    states = {
        k.split("/", 1)[1]: v
        for k, v in arrays.items()
        if k.startswith("states/") and k.count("/") == 1
    }
    fields = [str(f) for f in arrays["task_state/fields"]]
    return Reference(
        name=f"{meta['domain']}-{meta['task']}",
        domain=meta["domain"],
        task=meta["task"],
        spec=spec,
        meta=meta,
        model={k: v for k, v in arrays.items() if k.startswith("model/")},
        states=states,
        observations={k: arrays[f"states/obs/{k}"] for k in spec["observation_keys"]},
        next_observations={k: arrays[f"states/next_obs/{k}"] for k in spec["observation_keys"]},
        task_state={
            f: ([str(n) for n in arrays[f"task_state/{f}/names"]], arrays[f"task_state/{f}/values"])
            for f in fields
        },
        initial={
            "qpos": arrays["initial/qpos"],
            "qvel": arrays["initial/qvel"],
            **{f: arrays[f"initial/task_state/{f}"] for f in fields},
        },
        episode_arrays={
            k.split("/", 1)[1]: v for k, v in arrays.items() if k.startswith("episode_arrays/")
        },
        initial_array_summaries={
            k.split("/", 2)[2]: v
            for k, v in arrays.items()
            if k.startswith("initial/episode_arrays/")
        },
    )


def array_summary(values):
    """(mean, std, max) of an episode array in float64, as make_reference.py
    summarises it at each episode start."""
    values = np.asarray(values, dtype=np.float64)
    return np.array([values.mean(), values.std(), values.max()])


# Name resolution.


def _names(model, kind):
    """Names of all elements of `kind` in `model`, in index order ('' if unnamed)."""
    count = {
        "body": model.nbody,
        "joint": model.njnt,
        "geom": model.ngeom,
        "site": model.nsite,
        "actuator": model.nu,
        "tendon": model.ntendon,
        "sensor": model.nsensor,
        "camera": model.ncam,
        "light": model.nlight,
        "equality": model.neq,
        "pair": model.npair,
    }[kind]
    return [mujoco.mj_id2name(model, _ELEMENT_OBJECTS[kind], i) or "" for i in range(count)]


def _matches(our_name, reference_name):
    return our_name == reference_name or our_name.endswith("/" + reference_name)


def _resolve(model, kind, reference_name):
    """Index in `model` of the element of `kind` the reference calls `reference_name`.

    Raises:
        KeyError: with a message naming the element, if nothing (or more than one
            prefixed element) matches.
    """
    if reference_name.startswith("#"):
        return int(reference_name[1:])
    if kind in _ELEMENT_OBJECTS:
        index = mujoco.mj_name2id(model, _ELEMENT_OBJECTS[kind], reference_name)
        if index >= 0:
            return index
        candidates = [
            i for i, n in enumerate(_names(model, kind)) if n.endswith("/" + reference_name)
        ]
        if len(candidates) == 1:
            return candidates[0]
        raise KeyError(
            f"no single {kind} named {reference_name!r} (or '<prefix>/"
            f"{reference_name}') in the model; candidates: {candidates}"
        )
    if kind == "dof":
        joint_name, _, offset = reference_name.partition(":")
        joint = _resolve(model, "joint", joint_name)
        return int(model.jnt_dofadr[joint]) + int(offset or 0)
    raise KeyError(f"cannot resolve a {kind} by name ({reference_name!r})")


def _field_kind(field):
    for prefix, kind in _FIELD_PREFIX_KINDS.items():
        if field.startswith(prefix):
            return kind
    raise KeyError(f"task-state field {field!r} has no known element prefix")


# Specs.


def check_specs(env, reference, tolerances=Tolerances()):
    """Compares the environment's specs and timesteps with the reference.

    Returns:
        A list of mismatch descriptions; empty when everything matches.
    """
    spec = reference.spec
    mismatches = []
    observation_spec = env.observation_spec()
    our_keys = list(observation_spec.keys())
    if our_keys != spec["observation_keys"]:
        mismatches.append(f"observation keys {our_keys} != reference {spec['observation_keys']}")
    for key, shape, dtype in zip(
        spec["observation_keys"], spec["observation_shapes"], spec["observation_dtypes"]
    ):
        if key not in observation_spec:
            continue
        ours = observation_spec[key]
        if tuple(ours.shape) != tuple(shape):
            mismatches.append(f"observation {key!r} shape {tuple(ours.shape)} != {tuple(shape)}")
        if np.dtype(ours.dtype) != np.dtype(dtype):
            mismatches.append(
                f"observation {key!r} dtype {np.dtype(ours.dtype)} != {np.dtype(dtype)}"
            )
    action_spec = env.action_spec()
    if tuple(action_spec.shape) != tuple(spec["action_shape"]):
        mismatches.append(
            f"action shape {tuple(action_spec.shape)} != {tuple(spec['action_shape'])}"
        )
    else:
        if np.dtype(action_spec.dtype) != np.dtype(spec["action_dtype"]):
            mismatches.append(
                f"action dtype {np.dtype(action_spec.dtype)} != {np.dtype(spec['action_dtype'])}"
            )
        for bound in ("minimum", "maximum"):
            ours = np.broadcast_to(getattr(action_spec, bound), action_spec.shape)
            if not np.array_equal(ours, spec[f"action_{bound}"]):
                mismatches.append(f"action {bound} {ours.tolist()} != {spec[f'action_{bound}']}")
    for name, ours in (("reward", env.reward_spec()), ("discount", env.discount_spec())):
        if tuple(ours.shape) != tuple(spec[f"{name}_shape"]):
            mismatches.append(f"{name} shape {tuple(ours.shape)} != {spec[f'{name}_shape']}")
        if np.dtype(ours.dtype) != np.dtype(spec[f"{name}_dtype"]):
            mismatches.append(
                f"{name} dtype {np.dtype(ours.dtype)} != {np.dtype(spec[f'{name}_dtype'])}"
            )
    discount_spec = env.discount_spec()
    for bound in ("minimum", "maximum"):
        ours = float(getattr(discount_spec, bound, np.nan))
        if ours != spec[f"discount_{bound}"]:
            mismatches.append(f"discount {bound} {ours} != {spec[f'discount_{bound}']}")
    control_timestep = float(env.task.control_timestep)
    physics_timestep = float(env.physics.model.opt.timestep)
    for name, ours in (
        ("control_timestep", control_timestep),
        ("physics_timestep", physics_timestep),
    ):
        if abs(ours - spec[name]) > tolerances.timestep:
            mismatches.append(f"{name} {ours} s != {spec[name]} s")
    n_sub_steps = int(round(control_timestep / physics_timestep))
    if n_sub_steps != spec["n_sub_steps"]:
        mismatches.append(f"n_sub_steps {n_sub_steps} != {spec['n_sub_steps']}")
    return mismatches


# Steps an episode of a task without a time limit must run without ending.
UNBOUNDED_CHECK_STEPS = 200


def check_episode(env, reference):
    """Runs one episode with the midpoint action and checks its length and discounts.

    Stops after ten times the reference length if the episode has not ended. For
    a task without a time limit (`episode_steps` None in the reference) it runs
    `UNBOUNDED_CHECK_STEPS` steps, none of which may end the episode.

    Returns:
        A list of mismatch descriptions; empty when the episode lasts
        `episode_steps` control steps with the reference's discounts.
    """
    spec = reference.spec
    action_spec = env.action_spec()
    action = (
        np.broadcast_to(action_spec.minimum, action_spec.shape)
        + np.broadcast_to(action_spec.maximum, action_spec.shape)
    ) / 2
    action = action.astype(action_spec.dtype)
    env.reset()
    mid_discounts, steps = set(), 0
    if spec["episode_steps"] is None:
        for _ in range(UNBOUNDED_CHECK_STEPS):
            time_step = env.step(action)
            if time_step.last():
                return [
                    f"the episode ended after {steps + 1} control steps; the reference "
                    "has no time limit"
                ]
            steps += 1
            mid_discounts.add(float(time_step.discount))
        if mid_discounts - {spec["discount_mid"]}:
            return [f"mid-episode discounts {sorted(mid_discounts)} != {spec['discount_mid']}"]
        return []
    while steps < 10 * spec["episode_steps"]:
        time_step = env.step(action)
        steps += 1
        if time_step.last():
            break
        mid_discounts.add(float(time_step.discount))
    mismatches = []
    if not time_step.last():
        mismatches.append(
            f"no episode end after {steps} control steps; expected {spec['episode_steps']}"
        )
    elif steps != spec["episode_steps"]:
        mismatches.append(f"episode lasted {steps} control steps, expected {spec['episode_steps']}")
    elif float(time_step.discount) != spec["discount_last"]:
        mismatches.append(f"last discount {time_step.discount} != {spec['discount_last']}")
    if mid_discounts - {spec["discount_mid"]}:
        mismatches.append(
            f"mid-episode discounts {sorted(mid_discounts)} != {spec['discount_mid']}"
        )
    return mismatches


# Model structure and facts.


def check_structure(model, reference):
    """Checks the layout a state vector depends on.

    Sizes (nq, nv, nu, na), joint names, types and qpos/dof addresses in order,
    and actuator names in order must equal the reference's, or recorded states
    mean something else here.

    Returns:
        A list of mismatch descriptions; empty when the layout matches.
    """
    facts = reference.model
    mismatches = []
    for count in ("nq", "nv", "nu", "na"):
        if int(getattr(model, count)) != int(facts[f"model/count/{count}"]):
            mismatches.append(
                f"{count} {getattr(model, count)} != {int(facts[f'model/count/{count}'])}"
            )
    for kind, fields in (("joint", ("jnt_type", "jnt_qposadr", "jnt_dofadr")), ("actuator", ())):
        reference_names = [str(n) for n in facts[f"model/{kind}/name"]]
        our_names = _names(model, kind)
        if len(our_names) != len(reference_names) or not all(
            _matches(o, r) for o, r in zip(our_names, reference_names)
        ):
            mismatches.append(f"{kind}s in order {our_names} != reference {reference_names}")
            continue
        for field in fields:
            ours = np.asarray(getattr(model, field))
            if not np.array_equal(ours, facts[f"model/{kind}/{field}"]):
                mismatches.append(
                    f"{field} {ours.tolist()} != {facts[f'model/{kind}/{field}'].tolist()}"
                )
    return mismatches


@dataclasses.dataclass
class FieldComparison:
    """One model field compared element by element.

    Attributes:
        field: the MjModel attribute ('geom_size', 'opt.timestep', ...).
        max_error: largest absolute difference over matched elements (0 for equal
            names or enums; inf when a name or enum differs).
        worst_element: the reference name of the element with `max_error`.
        missing: reference element names with no element here.
    """

    field: str
    max_error: float
    worst_element: str
    missing: list


def compare_model(model, reference):
    """Compares the model field by field with the reference's model facts.

    Element rows are matched by name, so element order does not matter here
    (`check_structure` checks the order of joints and actuators). Fields holding
    element ids are compared as the names of those elements. Rows that are task
    state (set per episode) are skipped; `check_initial_states` covers them.
    Informational: a re-authored model may differ in fields that change no
    recorded quantity.

    Returns:
        A list of `FieldComparison`, one per recorded field, in file order.
    """
    facts = reference.model
    comparisons = []
    for key, value in facts.items():
        parts = key.split("/")
        if parts[1] == "opt":
            ours = np.asarray(getattr(model.opt, parts[2]))
            comparisons.append(FieldComparison(f"opt.{parts[2]}", _difference(ours, value), "", []))
            continue
        if parts[1] == "count":
            error = 0.0 if int(getattr(model, parts[2])) == int(value) else np.inf
            comparisons.append(FieldComparison(parts[2], error, "", []))
            continue
        if len(parts) == 2:
            comparisons.append(
                FieldComparison(parts[1], _difference(getattr(model, parts[1]), value), "", [])
            )
            continue
        if parts[2] == "name" or not hasattr(model, parts[2]):
            continue
        kind, field = parts[1], parts[2]
        reference_names = [str(n) for n in facts[f"model/{kind}/name"]]
        per_episode = set(reference.task_state.get(field, ((), None))[0])
        max_error, worst, missing = 0.0, "", []
        for row, name in enumerate(reference_names):
            if name in per_episode:
                continue
            try:
                index = _resolve(model, kind, name)
            except KeyError:
                missing.append(name)
                continue
            error = _difference(_our_fact(model, kind, field, index), value[row])
            if error > max_error:
                max_error, worst = error, name
        comparisons.append(FieldComparison(field, max_error, worst, missing))
    return comparisons


def _our_fact(model, kind, field, index):
    value = np.asarray(getattr(model, field))[index]
    target_kind = _ID_FIELD_KINDS.get(field)
    if target_kind is not None:
        return _element_name(model, target_kind, int(value))
    if field == "actuator_trnid":
        target_kind = _TRANSMISSION_KINDS[int(model.actuator_trntype[index])]
        return np.array([_element_name(model, target_kind, int(i)) for i in value])
    return value


def _element_name(model, kind, index):
    if index < 0:
        return ""
    name = mujoco.mj_id2name(model, _ELEMENT_OBJECTS[kind], index) or f"#{index}"
    return name.rsplit("/", 1)[-1]


def _difference(ours, reference):
    """Largest absolute difference; inf for mismatched shapes or strings."""
    ours, reference = np.asarray(ours), np.asarray(reference)
    if ours.dtype.kind in "US" or reference.dtype.kind in "US":
        return 0.0 if np.array_equal(ours.astype(str), reference.astype(str)) else np.inf
    if ours.size != reference.size:
        return np.inf
    if ours.size == 0:
        return 0.0
    return float(
        np.max(np.abs(ours.astype(np.float64).ravel() - reference.astype(np.float64).ravel()))
    )


# States.


@dataclasses.dataclass
class StateResult:
    """Our environment at one recorded state.

    Attributes:
        index: the state's row in the reference file.
        source: 0 trajectory sample, 1 rewarding visited state, 2 scattered state.
        reward_error: |our reward - reference reward| at the state.
        observation_errors: key -> largest absolute difference (inf if the key
            is missing or the sizes differ).
        next_errors: 'qpos', 'qvel', 'act', 'time' -> largest absolute
            difference one control step later.
        next_reward_error: the same for the reward returned by the step
            (carries the next-state difference).
        next_observation_errors: the same for the observations returned by the
            step (carry the next-state difference).
    """

    index: int
    source: int
    reward_error: float
    observation_errors: dict
    next_errors: dict
    next_reward_error: float
    next_observation_errors: dict


@dataclasses.dataclass
class StatesResult:
    """All recorded states of one task; `setup_errors` says why none ran."""

    setup_errors: list
    states: list

    def max_reward_error(self):
        return max((s.reward_error for s in self.states), default=np.nan)

    def max_observation_errors(self):
        """Key -> largest error over the states."""
        return _max_by_key(s.observation_errors for s in self.states)

    def max_next_errors(self):
        """'qpos', 'qvel', 'act', 'time' -> largest error over the states."""
        return _max_by_key(s.next_errors for s in self.states)

    def max_next_reward_error(self):
        return max((s.next_reward_error for s in self.states), default=np.nan)

    def max_next_observation_errors(self):
        return _max_by_key(s.next_observation_errors for s in self.states)


def _max_by_key(dicts):
    result = {}
    for errors in dicts:
        for key, error in errors.items():
            result[key] = max(result.get(key, 0.0), error)
    return result


def _resolve_task_state(model, reference):
    """[(field, row indices, values)] for the task state, or raises KeyError.

    Fields are looked up by name on whichever model is current when used, since
    an environment may recompile its model on reset.
    """
    resolved = []
    for field, (names, values) in reference.task_state.items():
        if not hasattr(model, field):
            raise KeyError(f"the model has no field {field!r} (task state)")
        kind = _field_kind(field)
        rows = [_resolve(model, kind, name) for name in names]
        width = int(np.prod(getattr(model, field).shape[1:], dtype=int))
        if width != values.shape[2]:
            raise KeyError(
                f"{field} rows have {width} values here, {values.shape[2]} in the reference"
            )
        resolved.append((field, rows, values))
    return resolved


def _state_installer(reference, index, task_state):
    """A function of physics that writes recorded state `index` into it."""
    states = reference.states

    def install(physics):
        model, data = physics.model, physics.data
        for field, rows, values in task_state:
            array = getattr(model, field)
            array[rows] = values[index].reshape(array[rows].shape)
        for field, values in reference.episode_arrays.items():
            getattr(model, field)[:] = values[int(states["episode"][index])]
        data.qpos[:] = states["qpos"][index]
        data.qvel[:] = states["qvel"][index]
        data.act[:] = states["act"][index]
        data.time = states["time"][index]
        # The reference evaluates each state from reset data: no control,
        # applied force or solver warm start carries over.
        data.ctrl[:] = 0.0
        data.qfrc_applied[:] = 0.0
        data.xfrc_applied[:] = 0.0
        data.qacc_warmstart[:] = 0.0
        mujoco.mj_forward(model, data)

    return install


class _InjectedReset:
    """Makes the next `env.reset()` end in a given state (see the module docstring).

    The Environment initialises an episode inside `physics.reset_context()`
    (data reset on entry, `mj_forward` with actuation disabled on exit). For one
    reset that context is replaced by one that resets the same way and runs
    `install(physics)` after every `initialize_episode` callback, then an actuated
    `physics.forward()` as the reference did.
    """

    def __init__(self, env, install):
        self._physics = env.physics
        self._install = install
        self.called = False

    def __enter__(self):
        physics, install = self._physics, self._install
        self._shadowed = vars(physics).get("reset_context")

        # The reference evaluated each state after an `mj_forward` with actuation
        # on (make_reference.py), where `reset_context` closes with dm_control's
        # actuation-disabled `after_reset`: the injected reset closes with the
        # reference's forward instead.
        @contextlib.contextmanager
        def reset_context():
            try:
                physics.reset()
            except PhysicsError:
                pass
            yield physics
            install(physics)
            physics.forward()
            self.called = True

        physics.reset_context = reset_context
        return self

    def __exit__(self, *exc_info):
        if self._shadowed is None:
            del self._physics.reset_context
        else:
            self._physics.reset_context = self._shadowed


def _observation_errors(ours, reference_values, index):
    errors = {}
    for key, values in reference_values.items():
        if key not in ours:
            errors[key] = np.inf
            continue
        errors[key] = _difference(ours[key], values[index])
    return errors


def check_states(env, reference):
    """Puts every recorded state into the environment and compares.

    For each state: reset with the state injected, compare the reward
    (`env.task.get_reward(env.physics)`) and the observation `reset()` returned,
    then `env.step(action)` and compare qpos, qvel, act and time, plus the
    reward and observation that step returned.

    Returns:
        A `StatesResult`.
    """
    physics = env.physics
    structure = check_structure(physics.model, reference)
    if structure:
        return StatesResult(["state layout differs: " + "; ".join(structure)], [])
    try:
        task_state = _resolve_task_state(physics.model, reference)
    except KeyError as error:
        return StatesResult([f"task state cannot be set: {error.args[0]}"], [])
    states = reference.states
    results = []
    for index in range(reference.num_states):
        install = _state_installer(reference, index, task_state)
        with _InjectedReset(env, install) as injected:
            time_step = env.reset()
        if not injected.called:
            return StatesResult(
                [
                    "env.reset() did not use env.physics.reset_context(), so no "
                    "state could be injected"
                ],
                results,
            )
        physics = env.physics
        held = np.array_equal(physics.data.qpos, states["qpos"][index]) and np.array_equal(
            physics.data.qvel, states["qvel"][index]
        )
        if not held:
            return StatesResult(
                [
                    "env.reset() changed the state after physics.reset_context(); "
                    "states cannot be injected"
                ],
                results,
            )
        reward = float(env.task.get_reward(physics))
        observation_errors = _observation_errors(
            time_step.observation, reference.observations, index
        )
        next_step = env.step(np.asarray(states["action"][index], dtype=env.action_spec().dtype))
        data = env.physics.data
        next_errors = {
            name: _difference(getattr(data, name), states[f"next_{name}"][index])
            for name in ("qpos", "qvel", "act", "time")
        }
        results.append(
            StateResult(
                index=index,
                source=int(states["source"][index]),
                reward_error=abs(reward - float(states["reward"][index])),
                observation_errors=observation_errors,
                next_errors=next_errors,
                next_reward_error=abs(
                    float(next_step.reward) - float(states["next_reward"][index])
                ),
                next_observation_errors=_observation_errors(
                    next_step.observation, reference.next_observations, index
                ),
            )
        )
    return StatesResult([], results)


# Initial states.


@dataclasses.dataclass
class InitialStateResult:
    """Episode-start statistics compared coordinate by coordinate.

    Unlimited hinges are compared as (cos, sin) of the angle and quaternions
    with their sign chosen so that w >= 0, so equivalent parametrisations agree.

    Attributes:
        num_samples: resets sampled here.
        coordinates: names, e.g. 'qpos[root:3]', 'qvel[hinge]', 'geom_pos[target][0]'.
        reference_mean, reference_std, our_mean, our_std: per coordinate.
        ks_statistic: per coordinate, the largest distance between the two
            empirical distribution functions.
        mismatches: descriptions of coordinates outside the tolerances.
        setup_errors: why no comparison could be made.
    """

    num_samples: int
    coordinates: list
    reference_mean: np.ndarray
    reference_std: np.ndarray
    our_mean: np.ndarray
    our_std: np.ndarray
    ks_statistic: np.ndarray
    mismatches: list
    setup_errors: list


def _initial_features(model_facts, qpos, qvel):
    """Comparable coordinates of (num_samples, nq) / (num_samples, nv) samples."""
    names = [str(n) for n in model_facts["model/joint/name"]]
    types = model_facts["model/joint/jnt_type"]
    limited = model_facts["model/joint/jnt_limited"]
    qpos_addresses = model_facts["model/joint/jnt_qposadr"]
    dof_names = [str(n) for n in model_facts["model/dof/name"]]
    columns, labels = [], []
    for name, joint_type, is_limited, address in zip(names, types, limited, qpos_addresses):
        if joint_type == mujoco.mjtJoint.mjJNT_HINGE and not is_limited:
            columns += [np.cos(qpos[:, address]), np.sin(qpos[:, address])]
            labels += [f"cos(qpos[{name}])", f"sin(qpos[{name}])"]
            continue
        width = {mujoco.mjtJoint.mjJNT_FREE: 7, mujoco.mjtJoint.mjJNT_BALL: 4}.get(
            mujoco.mjtJoint(int(joint_type)), 1
        )
        values = qpos[:, address : address + width].copy()
        if width > 1:
            quaternion = values[:, -4:]
            quaternion *= np.where(quaternion[:, :1] < 0, -1.0, 1.0)
        columns += list(values.T)
        labels += [f"qpos[{name}]"] if width == 1 else [f"qpos[{name}:{i}]" for i in range(width)]
    columns += list(qvel.T)
    labels += [f"qvel[{name}]" for name in dof_names]
    return labels, np.stack(columns, axis=1)


def check_initial_states(env, reference, num_samples=None, tolerances=Tolerances()):
    """Compares the distribution of episode starts with the reference's samples.

    Resets the environment `num_samples` times (default: as many as the
    reference) and compares, per coordinate of qpos, qvel and the task state,
    the means (|difference| <= `initial_mean_z` standard errors) and the whole
    distributions (two-sample Kolmogorov-Smirnov test at `initial_ks_alpha`,
    which stays reliable for the heavy-tailed velocities left by tasks that let
    the model settle). Coordinates the reference never varies must equal it
    within `constant_initial` here.

    Returns:
        An `InitialStateResult`.
    """
    reference_qpos, reference_qvel = reference.initial["qpos"], reference.initial["qvel"]
    num_samples = num_samples or len(reference_qpos)
    model = env.physics.model
    structure = check_structure(model, reference)
    empty = InitialStateResult(num_samples, [], *(np.zeros(0),) * 5, [], [])
    if structure:
        empty.setup_errors.append("state layout differs: " + "; ".join(structure))
        return empty
    try:
        task_state = _resolve_task_state(model, reference)
    except KeyError as error:
        empty.setup_errors.append(f"task state cannot be read: {error.args[0]}")
        return empty
    qpos, qvel, task_values = [], [], []
    for _ in range(num_samples):
        env.reset()
        model, data = env.physics.model, env.physics.data
        qpos.append(np.array(data.qpos))
        qvel.append(np.array(data.qvel))
        task_values.append(
            np.concatenate(
                [
                    np.asarray(getattr(model, field)[rows]).reshape(-1)
                    for field, rows, _ in task_state
                ]
                + [
                    array_summary(getattr(model, field))
                    for field in reference.initial_array_summaries
                ]
                or [np.zeros(0)]
            )
        )
    labels, reference_features = _initial_features(reference.model, reference_qpos, reference_qvel)
    _, our_features = _initial_features(reference.model, np.array(qpos), np.array(qvel))
    reference_task = [
        reference.initial[f].reshape(len(reference_qpos), -1) for f in reference.task_state
    ]
    for field, (names, values) in reference.task_state.items():
        width = values.shape[2]
        labels += [f"{field}[{name}][{i}]" for name in names for i in range(width)]
    for field, summaries in reference.initial_array_summaries.items():
        reference_task.append(summaries)
        labels += [f"{statistic}({field})" for statistic in ("mean", "std", "max")]
    reference_features = np.concatenate([reference_features] + reference_task, axis=1)
    our_features = np.concatenate([our_features, np.array(task_values)], axis=1)

    reference_mean, reference_std = reference_features.mean(0), reference_features.std(0)
    our_mean, our_std = our_features.mean(0), our_features.std(0)
    num_reference = len(reference_features)
    ks = np.array(
        [_ks_statistic(reference_features[:, i], our_features[:, i]) for i in range(len(labels))]
    )
    ks_limit = np.sqrt(-np.log(tolerances.initial_ks_alpha / 2) / 2) * np.sqrt(
        (num_reference + num_samples) / (num_reference * num_samples)
    )
    mismatches = []
    for i, label in enumerate(labels):
        if reference_std[i] == 0.0:
            deviation = max(abs(our_mean[i] - reference_mean[i]), our_std[i])
            if deviation > tolerances.constant_initial:
                mismatches.append(
                    f"{label}: always {reference_mean[i]:.6g} in the reference, "
                    f"here mean {our_mean[i]:.6g} std {our_std[i]:.3g}"
                )
            continue
        standard_error = (
            np.sqrt(reference_std[i] ** 2 / num_reference + our_std[i] ** 2 / num_samples)
            + tolerances.constant_initial
        )
        z = abs(our_mean[i] - reference_mean[i]) / standard_error
        if z > tolerances.initial_mean_z or ks[i] > ks_limit:
            mismatches.append(
                f"{label}: mean {our_mean[i]:.4g} std {our_std[i]:.4g} here, "
                f"{reference_mean[i]:.4g} / {reference_std[i]:.4g} in the "
                f"reference (mean z {z:.1f}, limit {tolerances.initial_mean_z:g}; KS "
                f"{ks[i]:.2f}, limit {ks_limit:.2f})"
            )
    return InitialStateResult(
        num_samples, labels, reference_mean, reference_std, our_mean, our_std, ks, mismatches, []
    )


def _ks_statistic(a, b):
    """Two-sample Kolmogorov-Smirnov statistic: max |ECDF_a - ECDF_b|."""
    a, b = np.sort(a), np.sort(b)
    points = np.concatenate([a, b])
    cdf_a = np.searchsorted(a, points, side="right") / len(a)
    cdf_b = np.searchsorted(b, points, side="right") / len(b)
    return float(np.max(np.abs(cdf_a - cdf_b)))


# Everything for one task.


@dataclasses.dataclass
class TaskConformance:
    """All checks of one task against its reference file.

    `failures()` lists what is outside the tolerances; `model_fields` is
    informational (see `compare_model`).
    """

    name: str
    tolerances: Tolerances
    spec_mismatches: list
    episode_mismatches: list
    structure_mismatches: list
    states: StatesResult
    initial_states: InitialStateResult
    model_fields: list

    def reward_holds(self):
        return (
            not self.states.setup_errors
            and bool(self.states.states)
            and self.states.max_reward_error() <= self.tolerances.reward
        )

    def observations_hold(self):
        errors = self.states.max_observation_errors()
        return (
            not self.states.setup_errors
            and bool(errors)
            and max(errors.values()) <= self.tolerances.observation
        )

    def _next_state_limits(self):
        t = self.tolerances
        return {"qpos": t.next_qpos, "qvel": t.next_qvel, "act": t.next_act, "time": t.next_time}

    def next_state_holds(self):
        errors = self.states.max_next_errors()
        return (
            not self.states.setup_errors
            and bool(errors)
            and all(errors[k] <= limit for k, limit in self._next_state_limits().items())
        )

    def differing_model_fields(self):
        """Model fields beyond `model_field` or with missing elements: [(field, error, element)]."""
        return [
            (c.field, c.max_error, c.worst_element or ",".join(c.missing))
            for c in self.model_fields
            if c.max_error > self.tolerances.model_field or c.missing
        ]

    def failures(self):
        """Descriptions of every check outside its tolerance; empty if all hold."""
        failures = [f"spec: {m}" for m in self.spec_mismatches]
        failures += [f"episode: {m}" for m in self.episode_mismatches]
        failures += [f"structure: {m}" for m in self.structure_mismatches]
        failures += [f"states: {m}" for m in self.states.setup_errors]
        if self.states.states:
            if not self.reward_holds():
                failures.append(
                    f"reward error {self.states.max_reward_error():.3g} > {self.tolerances.reward}"
                )
            if not self.observations_hold():
                bad = {
                    k: float(f"{v:.3g}")
                    for k, v in self.states.max_observation_errors().items()
                    if v > self.tolerances.observation
                }
                failures.append(f"observation errors {bad} > {self.tolerances.observation}")
            if not self.next_state_holds():
                limits = self._next_state_limits()
                bad = {
                    k: float(f"{v:.3g}")
                    for k, v in self.states.max_next_errors().items()
                    if v > limits[k]
                }
                failures.append(f"next-state errors {bad} exceed {limits}")
        failures += [f"initial states: {m}" for m in self.initial_states.setup_errors]
        failures += [f"initial states: {m}" for m in self.initial_states.mismatches]
        return failures


def check_task(env, reference, tolerances=Tolerances(), num_initial_samples=None):
    """Runs every check of `env` against `reference` (a `Reference` or a path).

    The environment is reset and stepped many times; its random state advances.

    Returns:
        A `TaskConformance`.
    """
    if not isinstance(reference, Reference):
        reference = load_reference(reference)
    model_fields = compare_model(env.physics.model, reference)
    return TaskConformance(
        name=reference.name,
        tolerances=tolerances,
        spec_mismatches=check_specs(env, reference, tolerances),
        episode_mismatches=check_episode(env, reference),
        structure_mismatches=check_structure(env.physics.model, reference),
        states=check_states(env, reference),
        initial_states=check_initial_states(env, reference, num_initial_samples, tolerances),
        model_fields=model_fields,
    )


# Domains whose model itself is drawn from the environment's seed (lqr's spring
# stiffnesses). The recorder sees the stiffnesses of its trajectory seed's model
# as task state, constant over episodes, and its initial states come from another
# seed's model.
MODEL_DRAWN_FROM_SEED = ("lqr",)


def check_suite_task(env_factory, reference, tolerances=Tolerances(), num_initial_samples=None):
    """`check_task` on `env_factory(seed)` environments, seeded to suit the task.

    Most tasks are checked on one environment seeded 0. A task of
    `MODEL_DRAWN_FROM_SEED` is checked on environments seeded as the reference's
    initial states were, a fresh one for the initial states (the state checks
    install the trajectory seed's model draw), so that the models agree.
    """
    if not isinstance(reference, Reference):
        reference = load_reference(reference)
    if reference.domain not in MODEL_DRAWN_FROM_SEED:
        return check_task(env_factory(0), reference, tolerances, num_initial_samples)
    seed = int(reference.meta["initial_state_task_seed"])
    result = check_task(env_factory(seed), reference, tolerances, num_initial_samples)
    return dataclasses.replace(
        result,
        initial_states=check_initial_states(
            env_factory(seed), reference, num_initial_samples, tolerances
        ),
    )


def check_seeded_initial_states(env_factory, reference, num_samples=20):
    """The first `num_samples` initial states of an environment seeded as the
    reference's were, compared element by element (qpos, qvel, task state and the
    summaries of episode arrays such as a redrawn terrain).

    The published tasks draw their initial states in a fixed order, so an
    implementation drawing in the same order reproduces them bit for bit.

    Args:
        env_factory: `env_factory(seed)` returns a new environment seeded with `seed`.

    Returns:
        The largest absolute difference over every compared value.
    """
    if not isinstance(reference, Reference):
        reference = load_reference(reference)
    env = env_factory(int(reference.meta["initial_state_task_seed"]))
    task_state = _resolve_task_state(env.physics.model, reference)
    worst = 0.0
    for index in range(min(num_samples, len(reference.initial["qpos"]))):
        env.reset()
        model, data = env.physics.model, env.physics.data
        worst = max(
            worst,
            float(np.max(np.abs(data.qpos - reference.initial["qpos"][index]), initial=0.0)),
            float(np.max(np.abs(data.qvel - reference.initial["qvel"][index]), initial=0.0)),
        )
        for field, rows, _ in task_state:
            ours = np.asarray(getattr(model, field)[rows]).reshape(-1)
            theirs = np.asarray(reference.initial[field][index]).reshape(-1)
            worst = max(worst, float(np.max(np.abs(ours - theirs), initial=0.0)))
        for field, summaries in reference.initial_array_summaries.items():
            ours = array_summary(getattr(model, field))
            worst = max(worst, float(np.max(np.abs(ours - summaries[index]))))
    return worst
