"""Records reference data for the extra dog and humanoid_CMU tasks of the
published Control Suite (dm-control 1.0.50), in make_reference.py's format.

Run with the reference virtual environment's interpreter, from the repository root:

    MUJOCO_GL=disable .venvs/dm_control/bin/python \
        tests/conformance/make_reference_dog_cmu.py --tasks humanoid_CMU-stand dog-walk

`make_reference.py` records the benchmarking tasks only; this script reuses its
`record_task` (same seeds, same states, same file layout, README.md) for the
extra tasks of these two domains. Like it, it imports nothing of this project.
"""

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_reference  # A sibling script, not a package module.

TASKS = ("humanoid_CMU-stand", "humanoid_CMU-walk", "humanoid_CMU-run", "dog-stand",
         "dog-walk", "dog-trot", "dog-run", "dog-fetch")


def main(argv=None):
    default_output = os.path.join(os.path.dirname(os.path.abspath(__file__)), "reference")
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output_dir", default=default_output,
                        help="where to write <domain>-<task>.npz (default: %(default)s)")
    parser.add_argument("--tasks", nargs="*", default=list(TASKS), metavar="DOMAIN-TASK",
                        help="record only these tasks (default: all of %(default)s)")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.tasks) - set(TASKS))
    if unknown:
        parser.error(f"unknown tasks {unknown}; expected some of {list(TASKS)}")
    os.makedirs(args.output_dir, exist_ok=True)
    for name in args.tasks:
        domain, task = name.split("-")
        arrays = make_reference.record_task(domain, task)
        path = os.path.join(args.output_dir, f"{name}.npz")
        np.savez_compressed(path, **arrays)
        print(f"{name}: {len(arrays['states/time'])} states, task state "
              f"{arrays['task_state/fields'].tolist()}, {os.path.getsize(path)} bytes",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
