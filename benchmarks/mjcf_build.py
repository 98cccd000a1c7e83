"""Building and compiling large models with PyMJCF: composer_tasks.mjcf against dm_control.

The same PyMJCF program (benchmarks/reference_envs/mjcf_build_program.py) builds
and compiles (1) a creature of 20 legs, each a model of its own with two hinges,
two position actuators and three sensors, on an arena with a free joint, and (2)
an MJCF file of the CMU humanoid's size (56 hinges and actuators, 31 bodies, 17
sensors) loaded with `from_path` and attached to an arena. It runs as written
under dm-control 1.0.50 (MuJoCo 3.x, in its own venv, made by
benchmarks/reference_envs/make_dm_control_venv.sh) and with its dm_control
imports pointed at `composer_tasks` here, one after the other in the same run.

Times are medians of the process's CPU time over the repeats, and the least CPU
time of one build (the machine is shared: wall times are printed too but swing
with other load, and CPU times rise with it too, through the shared caches and
cores; the least is the build least disturbed).

    python benchmarks/mjcf_build.py [--repeats 10]

Writes benchmarks/results/mjcf_build.csv.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

_HERE = os.path.dirname(os.path.abspath(__file__))
_ROOT = os.path.dirname(_HERE)
sys.path.insert(0, _HERE)
import _timing  # noqa: E402  (benchmarks/ is put on the path above)

_WORKER = os.path.join(_HERE, "reference_envs", "mjcf_build_worker.py")


def _run(python, framework, humanoid_xml, repeats, extra_env):
    environment = dict(os.environ, MUJOCO_GL="disable", **extra_env)
    output = subprocess.run(
        [python, _WORKER, framework, humanoid_xml, str(repeats)],
        capture_output=True,
        text=True,
        env=environment,
        check=True,
    )
    return json.loads(output.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=10)
    parser.add_argument(
        "--dm_control_python", default=os.path.join(_ROOT, ".venvs/dm_control/bin/python")
    )
    parser.add_argument("--output", default=os.path.join(_HERE, "results", "mjcf_build.csv"))
    args = parser.parse_args()
    sys.path.insert(0, os.path.join(_HERE, "reference_envs"))
    import mjcf_build_worker

    with tempfile.TemporaryDirectory() as folder:
        humanoid_xml = os.path.join(folder, "humanoid_sized.xml")
        mjcf_build_worker.load_program("composer_tasks").write_humanoid_sized_file(humanoid_xml)
        ours = _run(
            sys.executable, "composer_tasks", humanoid_xml, args.repeats, {"PYTHONPATH": _ROOT}
        )
        if not os.path.exists(args.dm_control_python):
            print(f"no dm_control venv at {args.dm_control_python}: only this project measured")
            reference = None
        else:
            reference = _run(args.dm_control_python, "dm_control", humanoid_xml, args.repeats, {})
    rows = []
    print(
        f"{'case':<16}{'ours ms (cpu)':>15}{'dm_control ms':>15}{'speedup':>9}"
        f"{'least: ours':>13}{'dm_control':>12}{'speedup':>9}{'ours wall':>11}{'dm wall':>9}"
    )
    for case in ("creature", "humanoid_file"):
        mine = ours[f"{case}_cpu_s"] * 1e3
        rows.append((f"{case}_ms_composer_tasks_cpu", round(mine, 2)))
        rows.append((f"{case}_ms_composer_tasks_wall", round(ours[f"{case}_wall_s"] * 1e3, 2)))
        if reference is None:
            print(f"{case:<16}{mine:>15.1f}{'-':>15}{'-':>9}")
            continue
        theirs = reference[f"{case}_cpu_s"] * 1e3
        rows.append((f"{case}_ms_dm_control_cpu", round(theirs, 2)))
        rows.append((f"{case}_ms_dm_control_wall", round(reference[f"{case}_wall_s"] * 1e3, 2)))
        rows.append((f"{case}_speedup_cpu", round(theirs / mine, 2)))
        least_mine = ours[f"{case}_least_cpu_s"] * 1e3
        least_theirs = reference[f"{case}_least_cpu_s"] * 1e3
        rows.append((f"{case}_least_ms_composer_tasks_cpu", round(least_mine, 2)))
        rows.append((f"{case}_least_ms_dm_control_cpu", round(least_theirs, 2)))
        rows.append((f"{case}_speedup_least_cpu", round(least_theirs / least_mine, 2)))
        print(
            f"{case:<16}{mine:>15.1f}{theirs:>15.1f}{theirs / mine:>8.1f}x"
            f"{least_mine:>13.1f}{least_theirs:>12.1f}{least_theirs / least_mine:>8.1f}x"
            f"{ours[f'{case}_wall_s'] * 1e3:>10.1f}{reference[f'{case}_wall_s'] * 1e3:>9.1f}"
        )
    for name in (
        "creature_nq",
        "creature_nu",
        "creature_nsensor",
        "humanoid_nq",
        "humanoid_nu",
        "humanoid_nbody",
    ):
        rows.append((name, ours[name]))
        if reference is not None and reference[name] != ours[name]:
            raise RuntimeError(f"the two builds differ: {name} {ours[name]} vs {reference[name]}")
    _timing.write_measures(args.output, rows)
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
