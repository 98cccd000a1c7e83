"""Records what each dm_control-style program sees under dm-control 1.0.50.

Run in the reference environment (dm-control 1.0.50, MuJoCo 3.x), from the
repository root:

    MUJOCO_GL=disable <dm_control venv>/bin/python tests/dm_control_programs/record_reference.py

It imports nothing of this project: the programs import dm_control, and
`trace.py` only NumPy. The records go to `reference/<program>.json`.
"""

import importlib.util
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAMS = tuple(sys.argv[1:]) or ("creature_button", "go_to_target", "robot_from_file")
SEED = 7


def _load(name):
    spec = importlib.util.spec_from_file_location(
        f"dm_program_{name}", os.path.join(HERE, f"{name}.py")
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main():
    sys.path.insert(0, HERE)
    import trace as trace_module

    import dm_control
    import mujoco

    for name in PROGRAMS:
        program = _load(name)
        environment, root = program.make_environment(SEED)
        record = trace_module.trace(environment, root)
        record["recorded_with"] = {
            "dm_control": getattr(dm_control, "__version__", "1.0.50"),
            "mujoco": mujoco.__version__,
            "seed": SEED,
        }
        with open(os.path.join(HERE, "reference", f"{name}.json"), "w") as handle:
            json.dump(record, handle, indent=1)
        print(name, record["sizes"], list(record["observation_spec"]))


if __name__ == "__main__":
    main()
