"""Published returns for the Control Suite's 28 benchmarking tasks, with their sources.

Data only: one `Reference` per (task, source), each stating the value (or why there
is none), the agent, the budget it was measured at and where it comes from. Read by
benchmarks/suite_results.py, which puts them beside its measured rows and draws the
stated ones as horizontal lines.

What the sources available to this project state (checked 2026-11-27):

* Barth-Maron et al. 2018, "Distributed Distributional Deterministic Policy
  Gradients" (shared/papers/d4pg_barth_maron2018.txt), section 4.1 and Figure 2:
  learning curves of D4PG, its ablations and DDPG on 16 Control Suite panels,
  against training time (0 to 12 hours) with K = 32 actors. The text gives the
  panel titles and axis labels ("Episode Returns", "Training Time (Hours)") but no
  tick values and no final return in words, so no number can be read from it:
  every Figure 2 entry is `NOT_LEGIBLE`. The figure's "Cheetah(Walk)" panel names
  no benchmarking task (the suite has cheetah run), so it is not mapped to one.
* Tassa et al. 2020, "dm_control: Software and Tasks for Continuous Control"
  (shared/papers/dm_control_software_and_tasks.txt), section "Control Suite
  Benchmarking": refers to the 2018 Control Suite report (Tassa et al. 2018,
  arXiv:1801.00690) for its A3C, DDPG and D4PG results and states none itself. The
  2018 report is not in shared/papers and its tables could not be read with this
  project's search tools, so those entries are `NOT_IN_SHARED_PAPERS`; the issue
  that asked for them (issue 34) states their budget, 1e8 environment steps.
* mujoco_playground's Brax PPO: the per-task budgets are in
  mujoco_playground/config/dm_control_suite_params.py `brax_ppo_config` (commit
  0b06a5977c4bfc12e758ad46d0ba176c6e0b46c4): 60M environment steps, 100M for the
  acrobot swing-ups, the swimmer and walker run. The returns reached are published
  in the MuJoCo Playground paper (Zakka et al. 2025, arXiv:2502.08844) as figures;
  no per-task table of numbers was found with this project's search tools, so the
  entries are `NOT_FOUND`. Playground registers 25 of the 28 benchmarking tasks
  (mujoco_playground/_src/dm_control_suite/__init__.py, commit
  50f06407c507f78c4bec1622be1641060541dbc9); fish upright, manipulator bring_ball
  and swimmer15 are `NOT_REGISTERED`.

A value is never guessed: where a source's number cannot be read, the entry says
so and `value` is None. Filling one in takes the number, read from the source,
and the source's location in `citation`.
"""

import dataclasses
from collections.abc import Mapping
from types import MappingProxyType

# Why an entry has no value.
STATED = "stated"
NOT_LEGIBLE = "plotted, no value stated in the text"
NOT_IN_SHARED_PAPERS = "not in shared/papers; not read"
NOT_FOUND = "no per-task table found"
NOT_REGISTERED = "task not in the source"
NOT_PLOTTED = "no panel for this task"

D4PG_PAPER = "Barth-Maron et al. 2018 (D4PG), section 4.1, Figure 2"
CONTROL_SUITE_REPORT = "Tassa et al. 2018 (Control Suite report, arXiv:1801.00690)"
PLAYGROUND = "mujoco_playground Brax PPO (Zakka et al. 2025, arXiv:2502.08844)"
PLAYGROUND_PARAMS = (
    "mujoco_playground/config/dm_control_suite_params.py brax_ppo_config, "
    "commit 0b06a5977c4bfc12e758ad46d0ba176c6e0b46c4"
)

# The 28 tasks of suites.suite's BENCHMARKING tag (Tassa et al. 2020, section 6),
# as agents.environments names.
BENCHMARKING_TASKS = (
    "acrobot:swingup",
    "acrobot:swingup_sparse",
    "ball_in_cup:catch",
    "cartpole:balance",
    "cartpole:balance_sparse",
    "cartpole:swingup",
    "cartpole:swingup_sparse",
    "cheetah:run",
    "finger:spin",
    "finger:turn_easy",
    "finger:turn_hard",
    "fish:upright",
    "fish:swim",
    "hopper:stand",
    "hopper:hop",
    "humanoid:stand",
    "humanoid:walk",
    "humanoid:run",
    "manipulator:bring_ball",
    "pendulum:swingup",
    "point_mass:easy",
    "reacher:easy",
    "reacher:hard",
    "swimmer:swimmer6",
    "swimmer:swimmer15",
    "walker:stand",
    "walker:walk",
    "walker:run",
)


@dataclasses.dataclass(frozen=True)
class Reference:
    """One published result for one task.

    Attributes:
      task: the agents.environments name, e.g. 'cartpole:swingup'.
      source: the publication (one of the module's source names).
      agent: the agent the result is of, e.g. 'D4PG', 'PPO', 'A3C'.
      value: the undiscounted episode return (1000-step episodes, rewards in
        [0, 1]), or None where the source states none readable (`status`).
      status: `STATED`, or why `value` is None.
      budget: what the result was measured after, in the source's own terms.
      budget_steps: that budget in environment steps, or None where the source
        measures time instead (D4PG's Figure 2: hours of 32 actors).
      citation: where in the source the value (or its absence) was checked.
    """

    task: str
    source: str
    agent: str
    value: float | None
    status: str
    budget: str
    budget_steps: int | None
    citation: str

    def __post_init__(self):
        if (self.value is None) != (self.status != STATED):
            raise ValueError(
                f"{self.task} {self.source} {self.agent}: value {self.value!r} with status "
                f"{self.status!r}; a value goes with status {STATED!r} and only then."
            )


# Figure 2's panel titles (section 4.1), as task names; "Cheetah(Walk)" is left out.
_D4PG_FIGURE_2_TASKS = frozenset(
    {
        "acrobot:swingup",
        "acrobot:swingup_sparse",
        "cartpole:swingup",
        "cartpole:swingup_sparse",
        "finger:turn_easy",
        "finger:turn_hard",
        "fish:swim",
        "fish:upright",
        "hopper:stand",
        "humanoid:run",
        "humanoid:stand",
        "humanoid:walk",
        "manipulator:bring_ball",
        "swimmer:swimmer15",
        "swimmer:swimmer6",
    }
)

# Playground's names for the benchmarking tasks it registers.
_PLAYGROUND_NAMES = MappingProxyType(
    {
        "acrobot:swingup": "AcrobotSwingup",
        "acrobot:swingup_sparse": "AcrobotSwingupSparse",
        "ball_in_cup:catch": "BallInCup",
        "cartpole:balance": "CartpoleBalance",
        "cartpole:balance_sparse": "CartpoleBalanceSparse",
        "cartpole:swingup": "CartpoleSwingup",
        "cartpole:swingup_sparse": "CartpoleSwingupSparse",
        "cheetah:run": "CheetahRun",
        "finger:spin": "FingerSpin",
        "finger:turn_easy": "FingerTurnEasy",
        "finger:turn_hard": "FingerTurnHard",
        "fish:swim": "FishSwim",
        "hopper:hop": "HopperHop",
        "hopper:stand": "HopperStand",
        "humanoid:stand": "HumanoidStand",
        "humanoid:walk": "HumanoidWalk",
        "humanoid:run": "HumanoidRun",
        "pendulum:swingup": "PendulumSwingup",
        "point_mass:easy": "PointMass",
        "reacher:easy": "ReacherEasy",
        "reacher:hard": "ReacherHard",
        "swimmer:swimmer6": "SwimmerSwimmer6",
        "walker:run": "WalkerRun",
        "walker:stand": "WalkerStand",
        "walker:walk": "WalkerWalk",
    }
)
# brax_ppo_config's num_timesteps: 60M unless one of its `if env_name` lines says 100M.
_PLAYGROUND_100M = frozenset(
    {"AcrobotSwingup", "AcrobotSwingupSparse", "SwimmerSwimmer6", "WalkerRun"}
)


def _d4pg_paper(task: str) -> Reference:
    if task in _D4PG_FIGURE_2_TASKS:
        status, citation = NOT_LEGIBLE, "Figure 2 panel; shared/papers text has no axis ticks"
    else:
        status, citation = NOT_PLOTTED, "Figure 2 has no panel for this task"
    return Reference(
        task=task,
        source=D4PG_PAPER,
        agent="D4PG",
        value=None,
        status=status,
        budget="12 hours of training, K = 32 actors (Figure 2's axis; steps not stated)",
        budget_steps=None,
        citation=citation,
    )


def _control_suite_report(task: str, agent: str) -> Reference:
    return Reference(
        task=task,
        source=CONTROL_SUITE_REPORT,
        agent=agent,
        value=None,
        status=NOT_IN_SHARED_PAPERS,
        budget="1e8 environment steps (as issue 34 states)",
        budget_steps=100_000_000,
        citation=(
            "Tassa et al. 2020, section 'Control Suite Benchmarking', refers to this "
            "report and states no numbers"
        ),
    )


def _playground(task: str) -> Reference:
    name = _PLAYGROUND_NAMES.get(task)
    if name is None:
        return Reference(
            task=task,
            source=PLAYGROUND,
            agent="PPO",
            value=None,
            status=NOT_REGISTERED,
            budget="-",
            budget_steps=None,
            citation="mujoco_playground/_src/dm_control_suite/__init__.py, commit 50f06407",
        )
    steps = 100_000_000 if name in _PLAYGROUND_100M else 60_000_000
    return Reference(
        task=task,
        source=PLAYGROUND,
        agent="PPO",
        value=None,
        status=NOT_FOUND,
        budget=f"{steps // 1_000_000}M environment steps ({name})",
        budget_steps=steps,
        citation=f"budget from {PLAYGROUND_PARAMS}",
    )


def _build() -> Mapping[str, tuple[Reference, ...]]:
    table = {}
    for task in BENCHMARKING_TASKS:
        table[task] = (
            _playground(task),
            _d4pg_paper(task),
            *(_control_suite_report(task, agent) for agent in ("A3C", "DDPG", "D4PG")),
        )
    return MappingProxyType(table)


REFERENCES: Mapping[str, tuple[Reference, ...]] = _build()


def for_task(task: str) -> tuple[Reference, ...]:
    """The references of `task` (an agents.environments name, 'domain:task').

    Raises:
      ValueError: `task` is not one of the 28 benchmarking tasks.
    """
    if task not in REFERENCES:
        raise ValueError(
            f"task {task!r} is not a benchmarking task; expected one of {list(REFERENCES)}."
        )
    return REFERENCES[task]


def stated(task: str) -> tuple[Reference, ...]:
    """The references of `task` that state a value."""
    return tuple(reference for reference in for_task(task) if reference.value is not None)


def playground_ppo(task: str) -> Reference:
    """mujoco_playground's PPO entry for `task`."""
    (reference,) = (ref for ref in for_task(task) if ref.source == PLAYGROUND)
    return reference
