"""What a dm_control-style program's environment shows: names, sizes, specs and a trajectory.

Imports only NumPy, so that the same function records the reference under
dm_control (`record_reference.py`) and checks this project (`test_programs.py`).
"""

import numpy as np

# Kinds of named elements listed through the PyMJCF API of the root model.
NAMESPACES = ("body", "joint", "geom", "site", "actuator", "sensor")
# Model sizes compared between the two.
SIZES = ("nq", "nv", "nu", "na", "nbody", "njnt", "ngeom", "nsite", "nsensor", "nsensordata")


def fixed_action(spec, step):
    """A deterministic action inside the spec's bounds (unbounded entries: +-1)."""
    minimum = np.where(np.isfinite(spec.minimum), spec.minimum, -1.0)
    maximum = np.where(np.isfinite(spec.maximum), spec.maximum, 1.0)
    phase = 0.5 + 0.5 * np.sin(0.35 * step + 1.3 * np.arange(spec.shape[0]))
    return (minimum + (maximum - minimum) * phase).astype(spec.dtype)


def _names(root, namespace):
    names = []
    for element in root.find_all(namespace):
        name = element.full_identifier
        # dm_control names unnamed elements "//unnamed_<kind>_<n>"; they are left out.
        if name and "unnamed" not in name:
            names.append(name)
    return names


def trace(environment, root_model, episodes=2, steps=25):
    """A JSON-ready record of `environment` (whose root model is `root_model`)."""
    action_spec = environment.action_spec()
    observation_spec = environment.observation_spec()
    record = {
        "names": {namespace: _names(root_model, namespace) for namespace in NAMESPACES},
        "sizes": {size: int(getattr(environment.physics.model, size)) for size in SIZES},
        "action_spec": {
            "shape": list(action_spec.shape),
            "minimum": np.broadcast_to(action_spec.minimum, action_spec.shape).tolist(),
            "maximum": np.broadcast_to(action_spec.maximum, action_spec.shape).tolist(),
        },
        "observation_spec": {
            name: {"shape": list(spec.shape), "dtype": str(np.dtype(spec.dtype))}
            for name, spec in observation_spec.items()
        },
        "episodes": [],
    }
    for _ in range(episodes):
        timestep = environment.reset()
        episode = {
            "observations": [_observation(timestep.observation)],
            "rewards": [],
            "discounts": [],
        }
        for step in range(steps):
            timestep = environment.step(fixed_action(action_spec, step))
            episode["observations"].append(_observation(timestep.observation))
            episode["rewards"].append(float(timestep.reward))
            episode["discounts"].append(float(timestep.discount))
        record["episodes"].append(episode)
    return record


def _observation(observation):
    return {
        name: np.asarray(value, dtype=np.float64).tolist() for name, value in observation.items()
    }
