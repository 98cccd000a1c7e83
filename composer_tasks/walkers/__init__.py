"""Walkers: bodies that move over arenas (Heess et al. 2017; dm_control paper §7)."""

from composer_tasks.walkers.base import Walker
from composer_tasks.walkers.base import WalkerObservables
from composer_tasks.walkers.base import WalkerPose
from composer_tasks.walkers.humanoid import Humanoid
from composer_tasks.walkers.planar_walker import PlanarWalker
from composer_tasks.walkers.quadruped import Quadruped
from composer_tasks.walkers.cmu_humanoid import CMUHumanoid
from composer_tasks.walkers.cmu_humanoid import CMUHumanoidPositionControlled
from composer_tasks.walkers.cmu_humanoid import CMUHumanoidPositionControlledV2020
from composer_tasks.walkers.ant import Ant
from composer_tasks.walkers.jumping_ball import JumpingBallWithHead
from composer_tasks.walkers.jumping_ball import RollingBallWithHead
from composer_tasks.walkers.rodent import Rat

__all__ = [
    "Ant",
    "CMUHumanoid",
    "CMUHumanoidPositionControlled",
    "CMUHumanoidPositionControlledV2020",
    "Humanoid",
    "JumpingBallWithHead",
    "PlanarWalker",
    "Quadruped",
    "Rat",
    "RollingBallWithHead",
    "Walker",
    "WalkerObservables",
    "WalkerPose",
]
from composer_tasks.walkers.fruitfly_v2 import FruitFly
