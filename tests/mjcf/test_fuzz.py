"""The fuzzer of `composer_tasks.mjcf` (tests/mjcf/fuzz_mjcf.py), run in a subprocess so
that a crash of the process inside MuJoCo is a failure here, not a dead test run."""

import os
import subprocess
import sys

import pytest

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _fuzz(seed: int, cases: int, timeout_s: float) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "tests.mjcf.fuzz_mjcf", "--seed", str(seed), "--cases", str(cases)],
        cwd=_ROOT,
        capture_output=True,
        text=True,
        timeout=timeout_s,
        env={**os.environ, "MUJOCO_GL": "disable"},
        check=False,
    )
    last_case = (result.stderr.strip().splitlines() or ["(none)"])[-1]
    assert result.returncode == 0, (
        f"the fuzzer exited with {result.returncode} (negative: killed by that signal) "
        f"at {last_case}:\n{result.stdout[-6000:]}\n{result.stderr[-2000:]}"
    )
    assert f"{cases} of {cases} cases passed" in result.stdout


def test_random_programs_and_texts_never_crash_nor_leave_anything_behind():
    _fuzz(seed=0, cases=300, timeout_s=120)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(1, 9))
def test_many_more_random_programs_and_texts(seed):
    _fuzz(seed=seed, cases=2000, timeout_s=600)


def test_a_crash_of_the_fuzzed_process_fails_the_test(monkeypatch):
    # The subprocess's exit status is what catches a segmentation fault: check that a
    # process killed by a signal fails `_fuzz`, naming where it stopped.
    def crashed(*args, **kwargs):
        return subprocess.CompletedProcess(args, -11, stdout="", stderr="case 0/7\n")

    monkeypatch.setattr(subprocess, "run", crashed)
    with pytest.raises(AssertionError, match=r"exited with -11 .* at case 0/7"):
        _fuzz(seed=0, cases=10, timeout_s=1)
