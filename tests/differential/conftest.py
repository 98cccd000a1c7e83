"""The `differential` fixture: one pair of workers (dm-control 1.0.50 and this
project) per test process."""

import pytest

from tests.differential import harness


@pytest.fixture(scope="session")
def differential():
    reference = harness.reference_python()
    if reference is None:
        message = (
            "no dm-control 1.0.50 reference venv (benchmarks/reference_envs/"
            "make_dm_control_venv.sh, or DM_CONTROL_PYTHON)"
        )
        if harness.required():
            pytest.fail(message)
        pytest.skip(message)
    pair = harness.Differential(reference)
    yield pair
    pair.close()
