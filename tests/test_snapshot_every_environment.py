"""Every registered environment snapshots, restores into a freshly built instance and
continues bit for bit.

The environments come from the registries themselves: the Control Suite's
`suite.ALL_TASKS` and every module of `suites` with an `ALL` tuple of names and a
`load(name, seed=...)` (locomotion today; a new registry is picked up when it
follows that convention). A few representatives run by default; the rest are
marked slow (`pytest -m slow`).
"""

import collections
import enum
import importlib
import pickle
import pkgutil

import numpy as np
import pytest

import suites
from composer_tasks import composer
from composer_tasks import physics as physics_module
from composer_tasks.composer.observation import observable
from suites import suite

_STEPS_BEFORE = 20
_STEPS_COMPARED = 200
# Steps an instance takes in an episode of its own before a snapshot is restored into it.
_USED_STEPS = 3
# Steps compared after both environments reset.
_STEPS_AFTER_RESET = 5
# Run by default: a cheap model, contact-rich suite models and a locomotion task
# with Python-side termination state; everything else is slow.
_DEFAULT_RUN = {
    "suite:cartpole/swingup",
    "suite:walker/walk",
    "suite:hopper/hop",
    "locomotion:walker_run_gaps",
}


def _registries():
    """{registry name: (names, load(name, seed))} of every registry in `suites`."""
    registries = {
        "suite": (
            [f"{domain}/{task}" for domain, task in suite.ALL_TASKS],
            lambda name, seed: suite.load(*name.split("/"), task_kwargs={"random": seed}),
        )
    }
    for module_info in pkgutil.iter_modules(suites.__path__):
        if module_info.name.startswith("_"):
            continue  # `__main__` defines command-line flags when imported
        module = importlib.import_module(f"suites.{module_info.name}")
        names, load = getattr(module, "ALL", None), getattr(module, "load", None)
        if module is suite or not callable(load) or not isinstance(names, tuple) or not names:
            continue
        if not all(isinstance(name, str) for name in names):
            continue
        registries[module_info.name] = (
            list(names),
            lambda name, seed, load=load: load(name, seed=seed),
        )
    return registries


_REGISTRIES = _registries()

# Known failures, each with its cause (a strict xfail, so that a fix shows up here).
_KNOWN_FAILURES = {}


def _marks(case_id):
    marks = [] if case_id in _DEFAULT_RUN else [pytest.mark.slow]
    if case_id in _KNOWN_FAILURES:
        marks.append(pytest.mark.xfail(reason=_KNOWN_FAILURES[case_id], strict=True))
    return marks


_CASES = [
    pytest.param(registry, name, id=f"{registry}:{name}", marks=_marks(f"{registry}:{name}"))
    for registry, (names, _) in _REGISTRIES.items()
    for name in names
]


def test_the_registries_are_found():
    assert {"suite", "locomotion"} <= set(_REGISTRIES)
    assert _DEFAULT_RUN <= {case.id for case in _CASES}


def _actions(spec, count, seed):
    low = np.where(np.isfinite(spec.minimum), spec.minimum, -1.0)
    high = np.where(np.isfinite(spec.maximum), spec.maximum, 1.0)
    return np.random.RandomState(seed).uniform(low, high, size=(count,) + tuple(spec.shape))


def _comparable(value, path, seen, out):
    """Adds to `out` {path: a value comparable with ==} for `value` and, for the
    project's own plain objects and containers, for what they hold. Entities are
    left out (each is compared on its own), and so is what differs between instances
    built alike without being state: MuJoCo objects (specs, models, data), the
    observables (readers bound to one model) and functions."""
    if value is None or isinstance(value, (bool, int, float, complex, str, bytes, np.generic)):
        out[path] = ("scalar", repr(value))
    elif isinstance(value, enum.Enum):
        out[path] = ("enum", repr(value))
    elif isinstance(value, np.ndarray):
        if value.dtype != object:
            out[path] = ("array", value.shape, value.dtype.str, value.tobytes())
        else:
            for index, item in enumerate(value.ravel()):
                _comparable(item, f"{path}[{index}]", seen, out)
    elif isinstance(value, np.random.RandomState):
        kind, keys, position, has_gauss, gauss = value.get_state()
        out[path] = ("random", kind, keys.tobytes(), position, has_gauss, gauss)
    elif isinstance(value, (list, tuple, collections.deque)):
        out[path] = ("length", len(value))
        for index, item in enumerate(value):
            _comparable(item, f"{path}[{index}]", seen, out)
    elif isinstance(value, (set, frozenset)):
        out[path] = ("set", sorted(repr(item) for item in value))
    elif isinstance(value, dict):
        keys = [_key(key) for key in value]
        out[path] = ("keys", keys)
        for key, item in zip(keys, value.values()):
            _comparable(item, f"{path}[{key}]", seen, out)
    elif _is_plain_project_object(value) and id(value) not in seen:
        seen.add(id(value))
        for name, item in vars(value).items():
            _comparable(item, f"{path}.{name}", seen, out)


def _key(key):
    """A dict key as text that is the same in instances built alike: MuJoCo's objects
    (the spec elements that keep a model's bookkeeping) by kind and name, not by
    their address."""
    if isinstance(key, tuple):
        return "(" + ", ".join(_key(item) for item in key) + ")"
    if type(key).__module__.startswith("mujoco"):
        return f"<{type(key).__name__} {getattr(key, 'name', '')!r}>"
    return repr(key)


def _is_plain_project_object(value):
    module = type(value).__module__
    return (
        module.split(".")[0] in ("composer_tasks", "suites", "mjcf_models")
        and hasattr(value, "__dict__")
        and not callable(value)
        and not isinstance(value, (composer.Entity, observable.Observable, physics_module.Physics))
    )


def _python_state(env):
    """{attribute path: comparable value} of the task and every entity, as the
    Environment keys their snapshot states."""
    out = {}
    owners = [("task", env.task)] + [
        (entity.prefix.rstrip("/") or entity.name, entity)
        for entity in env.task.root_entity.iter_entities()
    ]
    for path, owner in owners:
        seen = set()
        for name, value in vars(owner).items():
            _comparable(value, f"{path}.{name}", seen, out)
    return out


def _assert_same_python_state(got, want, registry, name):
    differing = sorted(path for path in set(got) | set(want) if got.get(path) != want.get(path))
    assert not differing, (
        f"{registry}:{name}: after the first step after the restore, Python attributes of the "
        f"task or entities differ from the original's: {differing[:10]}; a task or entity "
        "that keeps Python state across steps needs snapshot_state()/restore_state() "
        "(composer.Environment.snapshot)"
    )


@pytest.mark.parametrize("registry, name", _CASES)
def test_snapshot_restore_into_a_fresh_instance_continues_bit_for_bit(registry, name):
    load = _REGISTRIES[registry][1]
    env = load(name, 0)
    actions = _actions(env.action_spec(), _STEPS_BEFORE + _STEPS_COMPARED, seed=1)
    env.reset()
    for action in actions[:_STEPS_BEFORE]:
        env.step(action)
    snapshot = pickle.loads(pickle.dumps(env.snapshot()))
    expected = [env.step(actions[_STEPS_BEFORE])]
    after_first_step = _python_state(env)
    expected += [env.step(action) for action in actions[_STEPS_BEFORE + 1 :]]
    fresh = load(name, 1)
    fresh.restore(snapshot)
    for step, (action, want) in enumerate(zip(actions[_STEPS_BEFORE:], expected)):
        _assert_same_timestep(fresh.step(action), want, f"step {step}")
    # A resumed run crosses episode boundaries: what a task reads from the model at a
    # reset (a brick's own mass, say) must be right in the restored instance too.
    _assert_same_timestep(fresh.reset(), env.reset(), "the next reset")
    for step, action in enumerate(actions[:_STEPS_AFTER_RESET]):
        _assert_same_timestep(fresh.step(action), env.step(action), f"step {step} after the reset")
    # Python state a snapshot loses shows in the attributes even when the steps
    # compared happen not to depend on it (a push not yet due, a target not yet
    # reached, a corridor's length). They are compared in an instance that ran an
    # episode of its own first, so that caches of the model that a freshly built
    # instance resolves only at its first reset are there on both sides.
    used = load(name, 1)
    used.reset()
    for action in actions[:_USED_STEPS]:
        used.step(action)
    used.restore(snapshot)
    _assert_same_timestep(used.step(actions[_STEPS_BEFORE]), expected[0], "used instance")
    _assert_same_python_state(_python_state(used), after_first_step, registry, name)


def _assert_same_timestep(got, want, when):
    assert got.step_type == want.step_type, when
    assert got.reward == want.reward, when
    assert got.discount == want.discount, when
    for key, value in want.observation.items():
        np.testing.assert_array_equal(got.observation[key], value, err_msg=f"{when}: {key}")
