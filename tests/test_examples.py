"""The example scripts run and write what they say."""

import os
import subprocess
import sys

_REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_domain_randomization_example_writes_returns_and_plot(tmp_path):
    result = subprocess.run(
        [
            sys.executable,
            os.path.join(_REPOSITORY, "examples", "domain_randomization.py"),
            "--num_envs",
            "4",
            "--episodes",
            "1",
            "--out",
            str(tmp_path),
        ],
        cwd=_REPOSITORY,
        capture_output=True,
        text=True,
        timeout=300,
        env=dict(os.environ, MPLBACKEND="Agg"),
    )
    assert result.returncode == 0, result.stderr
    rows = (tmp_path / "returns.csv").read_text().splitlines()
    assert rows[0] == "pole_mass_kg,episode_return" and len(rows) == 1 + 4
    masses = [float(row.split(",")[0]) for row in rows[1:]]
    assert masses == sorted(masses) and all(0.05 <= mass <= 30.0 for mass in masses)
    assert (tmp_path / "return_vs_mass.png").stat().st_size > 0


def test_domain_randomization_example_rejects_a_bad_mass_range(tmp_path):
    result = subprocess.run(
        [
            sys.executable,
            os.path.join(_REPOSITORY, "examples", "domain_randomization.py"),
            "--mass_range",
            "3,1",
            "--out",
            str(tmp_path),
        ],
        cwd=_REPOSITORY,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode != 0 and "--mass_range" in result.stderr
