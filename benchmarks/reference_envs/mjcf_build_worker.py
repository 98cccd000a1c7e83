"""Times the PyMJCF program of mjcf_build_program.py in one environment; prints JSON.

    python mjcf_build_worker.py dm_control|composer_tasks HUMANOID_XML REPEATS

With `dm_control` it imports the program as written (dm_control's PyMJCF); with
`composer_tasks` it runs the same file with its dm_control imports pointed at
`composer_tasks` (this project must be on PYTHONPATH). Each case is built and
compiled REPEATS times after one warm-up; the medians of the process's CPU time
(`time.process_time`, which the other programs sharing the machine do not
inflate) and of the wall time are printed, and the least CPU time (the build
least disturbed by other programs' use of the shared caches and cores).
"""

import json
import os
import re
import statistics
import sys
import time
import types

HERE = os.path.dirname(os.path.abspath(__file__))


def load_program(framework):
    path = os.path.join(HERE, "mjcf_build_program.py")
    with open(path) as handle:
        source = handle.read()
    if framework == "composer_tasks":
        source = re.sub(
            r"^(from|import) dm_control\b", r"\1 composer_tasks", source, flags=re.MULTILINE
        )
    elif framework != "dm_control":
        raise ValueError(f"framework must be dm_control or composer_tasks, got {framework!r}")
    module = types.ModuleType("mjcf_build_program")
    # The same program file, imports rewritten for this project: what is compared.
    exec(compile(source, path, "exec"), module.__dict__)  # noqa: S102
    return module


def median_seconds(function, repeats):
    """(median CPU seconds, median wall seconds, least CPU seconds) of `repeats` calls
    after a warm-up."""
    function()
    cpu, wall = [], []
    for _ in range(repeats):
        start_cpu, start_wall = time.process_time(), time.perf_counter()
        function()
        cpu.append(time.process_time() - start_cpu)
        wall.append(time.perf_counter() - start_wall)
    return statistics.median(cpu), statistics.median(wall), min(cpu)


def main():
    framework, humanoid_xml, repeats = sys.argv[1], sys.argv[2], int(sys.argv[3])
    program = load_program(framework)
    physics = program.build_creature()
    sizes = {
        "creature_nq": int(physics.model.nq),
        "creature_nu": int(physics.model.nu),
        "creature_nsensor": int(physics.model.nsensor),
    }
    physics = program.build_from_file(humanoid_xml)
    sizes.update(
        humanoid_nq=int(physics.model.nq),
        humanoid_nu=int(physics.model.nu),
        humanoid_nbody=int(physics.model.nbody),
    )
    creature_cpu, creature_wall, creature_least = median_seconds(program.build_creature, repeats)
    humanoid_cpu, humanoid_wall, humanoid_least = median_seconds(
        lambda: program.build_from_file(humanoid_xml), repeats
    )
    result = {
        "creature_cpu_s": creature_cpu,
        "creature_wall_s": creature_wall,
        "creature_least_cpu_s": creature_least,
        "humanoid_file_cpu_s": humanoid_cpu,
        "humanoid_file_wall_s": humanoid_wall,
        "humanoid_file_least_cpu_s": humanoid_least,
        **sizes,
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
