"""Locomotion tasks: corridors, parkour courses, go-to-target, escape, maze
foraging, and the run and flagrun tasks of Liang et al. 2018.

Each module holds one task (and what only it needs); `termination`,
`walker_state`, `exteroception` and `perturbations` hold what several share. The named,
ready-made environments built from them are in `suites.locomotion`.
"""

from composer_tasks.tasks.corridors import RunThroughCorridor
from composer_tasks.tasks.escape import Bowl
from composer_tasks.tasks.escape import Escape
from composer_tasks.tasks.flagrun import LiangReward
from composer_tasks.tasks.flagrun import TargetRun
from composer_tasks.tasks.go_to_target import GoToTarget
from composer_tasks.tasks.parkour import ForwardProgress
from composer_tasks.tasks.parkour import HeadHeightTermination
from composer_tasks.tasks.parkour import HumanoidReward
from composer_tasks.tasks.parkour import PlanarWalkerReward
from composer_tasks.tasks.parkour import QuadrupedReward
from composer_tasks.tasks.parkour import TorsoPose
from composer_tasks.tasks.parkour import TorsoPoseTermination
from composer_tasks.tasks.parkour import UnitForwardVelocityReward
from composer_tasks.tasks.perturbations import RandomPushes
from composer_tasks.tasks.random_goal_maze import ManyGoalsMaze
from composer_tasks.tasks.random_goal_maze import ManyHeterogeneousGoalsMaze
from composer_tasks.tasks.random_goal_maze import NullGoalMaze
from composer_tasks.tasks.random_goal_maze import RepeatSingleGoalMaze
from composer_tasks.tasks.random_goal_maze import RepeatSingleGoalMazeAugmentedWithTargets
from composer_tasks.tasks.reach import TwoTouch
