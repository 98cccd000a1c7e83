"""Prints a markdown table of how each Control Suite task conforms to dm-control 1.0.50.

From the repository root:

    python -m tests.conformance.table [--tasks DOMAIN-TASK ...] [--details]

Columns: specs (observation/action specs, timesteps, episode length and
discounts), layout (nq, nv, nu, na, joint and actuator order), the largest
reward and observation errors at the recorded states, the largest qpos / qvel
errors one control step later, the largest reward and observation errors of
the TimeStep that step returned (informational: they carry the next-state
error), the initial-state distribution, and the model fields whose values
differ from the reference's (informational). A cell reads
'yes' or 'no' with the number behind it; tolerances are in the header.
`--details` prints every failure under the table.
"""

import argparse
import os
import sys

from suites import suite

from . import conformance


def _factory(name):
    """`seed -> environment` of task `name` from `suites.suite`, or a reason it is absent."""
    domain, task = name.split("-")
    if (domain, task) not in suite.ALL_TASKS:
        return None, "not implemented in suites yet"
    return (lambda seed: suite.load(domain, task, task_kwargs={"random": seed})), None


def _verdict(holds, value):
    return f"{'yes' if holds else '**no**'} {value}"


def _error(value):
    return f"{value:.1e}"


def _row(result):
    states = result.states
    specs_hold = not (result.spec_mismatches or result.episode_mismatches)
    layout_holds = not result.structure_mismatches
    if states.setup_errors or not states.states:
        reward = observations = next_state = after_step = "not run"
    else:
        reward = _verdict(result.reward_holds(), _error(states.max_reward_error()))
        observation_errors = states.max_observation_errors()
        worst_key = max(observation_errors, key=observation_errors.get)
        observations = _verdict(
            result.observations_hold(), f"{_error(observation_errors[worst_key])} ({worst_key})"
        )
        next_errors = states.max_next_errors()
        next_state = _verdict(
            result.next_state_holds(),
            f"{_error(next_errors['qpos'])} / {_error(next_errors['qvel'])}",
        )
        after_step = (
            f"{_error(states.max_next_reward_error())} / "
            f"{_error(max(states.max_next_observation_errors().values()))}"
        )
    initial = result.initial_states
    if initial.setup_errors:
        initial_cell = "not run"
    else:
        initial_cell = _verdict(
            not initial.mismatches, f"{len(initial.mismatches)}/{len(initial.coordinates)} off"
        )
    differing = result.differing_model_fields()
    model_cell = ", ".join(field for field, _, _ in differing) if differing else "none"
    return [
        result.name,
        "yes" if specs_hold else "**no**",
        "yes" if layout_holds else "**no**",
        reward,
        observations,
        next_state,
        after_step,
        initial_cell,
        model_cell,
    ]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--tasks",
        nargs="*",
        default=None,
        metavar="DOMAIN-TASK",
        help="only these tasks (default: every reference file)",
    )
    parser.add_argument(
        "--details", action="store_true", help="print every failure under the table"
    )
    args = parser.parse_args(argv)

    paths = {os.path.basename(p)[: -len(".npz")]: p for p in conformance.reference_paths()}
    names = sorted(paths) if args.tasks is None else args.tasks
    unknown = sorted(set(names) - set(paths))
    if unknown:
        parser.error(f"no reference file for {unknown}; expected some of {sorted(paths)}")

    t = conformance.Tolerances()
    header = [
        "task",
        "specs",
        "layout",
        f"reward (≤{t.reward:g})",
        f"observations (≤{t.observation:g})",
        f"next qpos / qvel (≤{t.next_qpos:g} / {t.next_qvel:g})",
        "after the step: reward / observations (info)",
        "initial states",
        "model fields differing",
    ]
    rows, details = [], []
    for name in names:
        factory, absent = _factory(name)
        if factory is None:
            rows.append([name, absent] + [""] * (len(header) - 2))
            continue
        result = conformance.check_suite_task(factory, paths[name])
        rows.append(_row(result))
        details += [f"{name}: {failure}" for failure in result.failures()]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for row in rows:
        print("| " + " | ".join(row) + " |")
    if args.details and details:
        print()
        for line in details:
            print(f"- {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
