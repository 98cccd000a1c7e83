"""Walkers: bodies that move over arenas (Heess et al. 2017; dm_control paper §7)."""

from composer_tasks.walkers.base import Walker
from composer_tasks.walkers.base import WalkerObservables
from composer_tasks.walkers.humanoid import Humanoid
from composer_tasks.walkers.planar_walker import PlanarWalker
from composer_tasks.walkers.quadruped import Quadruped
from composer_tasks.walkers.cmu_humanoid import CMUHumanoid
