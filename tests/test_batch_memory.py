"""The batch's memory estimate: within 20% of the resident memory its copies really
take, and an N that cannot fit refused before the copies are allocated."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from composer_tasks import batch_memory
from suites import suite

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

pytestmark = pytest.mark.skipif(
    batch_memory.resident_bytes() is None, reason="resident memory is read from /proc (Linux)"
)

# Run in a fresh process per task, so that no memory freed earlier is reused.
_MEASURE = """
import json, sys
import numpy as np
from composer_tasks import batch_memory
from suites import suite

results = {}
for name in sys.argv[2:]:
    domain, task = name.split(":")
    suite.load_batch(domain, task, 2, seed=0).reset()  # imports and one-time caches
    batch_memory.release_free_memory()
    before = batch_memory.resident_bytes()
    batch = suite.load_batch(domain, task, int(sys.argv[1]), seed=0)
    batch.reset()
    batch.step(np.zeros((batch.num_envs,) + batch.action_spec().shape))
    batch_memory.release_free_memory()
    grown = batch_memory.resident_bytes() - before
    results[name] = [batch.bytes_per_copy, grown / batch.num_envs]
    del batch
print(json.dumps(results))
"""


def test_the_estimate_is_within_a_fifth_of_the_measured_resident_memory():
    # dog: its first control step brings it down onto the floor, which the probe's
    # step from its episode's start state must see (0.74 of measured before).
    for name in ["cartpole:swingup", "walker:walk", "humanoid:run", "dog:run"]:
        output = subprocess.run(
            [sys.executable, "-c", _MEASURE, "64", name],
            capture_output=True,
            text=True,
            check=True,
            cwd=_ROOT,
            env=dict(os.environ, PYTHONPATH=_ROOT, MUJOCO_GL="disable"),
        )
        estimate, measured = json.loads(output.stdout.strip().splitlines()[-1])[name]
        assert abs(estimate - measured) <= 0.2 * measured, (name, estimate, measured)


def test_an_absurd_number_of_copies_is_refused_before_it_is_allocated():
    before = batch_memory.resident_bytes()
    with pytest.raises(
        ValueError, match=r"num_envs=1000000000 copies need at least .* lower bound"
    ):
        suite.load_batch("cartpole", "swingup", 10**9, seed=0)
    available = batch_memory.available_bytes()
    assert available is not None
    # Fits the lower bound (an MjData buffer per copy), not the measured cost.
    lower_bound = batch_memory.lower_bound_per_copy(suite.load("cartpole", "swingup").physics.model)
    num_envs = int(available / lower_bound / 2)
    with pytest.raises(
        ValueError, match=rf"num_envs={num_envs} copies need about .* KiB per copy, measured"
    ):
        suite.load_batch("cartpole", "swingup", num_envs, seed=0)
    assert batch_memory.resident_bytes() - before < 200 * 2**20


def test_simulation_bytes_measures_a_stepped_persistent_simulation():
    model = suite.load("humanoid", "run").physics.model
    per_simulation = batch_memory.simulation_bytes(model)
    assert per_simulation is not None
    assert per_simulation >= batch_memory.lower_bound_per_copy(model)


def test_simulation_bytes_steps_from_a_given_start_state():
    env = suite.load("dog", "run", environment_kwargs={"textures": False})
    env.reset()
    start = {name: np.array(getattr(env.physics.data, name)) for name in ("qpos", "qvel")}
    default = batch_memory.simulation_bytes(env.physics.model)
    from_start = batch_memory.simulation_bytes(
        env.physics.model, start, env.task.physics_steps_per_control_step
    )
    assert default is not None and from_start is not None
    # One control step from the episode's start reaches the floor's contacts.
    assert from_start > default + 32 * 2**10, (from_start, default)
