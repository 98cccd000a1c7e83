"""Variations: randomised or scheduled values for model attributes and more.

    from composer_tasks.composer import variation
    from composer_tasks.composer.variation import distributions, noises

    variator = variation.MJCFVariator()
    variator.bind_attributes(
        geom, size=noises.Multiplicative(distributions.Uniform(0.9, 1.1)))
    # in initialize_episode_mjcf(self, random_state):
    variator.apply_variations(random_state)

See docs/variations.md for the full picture.
"""

from composer_tasks.composer.variation import colors
from composer_tasks.composer.variation import deterministic
from composer_tasks.composer.variation import distributions
from composer_tasks.composer.variation import math
from composer_tasks.composer.variation import noises
from composer_tasks.composer.variation import rotations
from composer_tasks.composer.variation import variation_broadcaster
from composer_tasks.composer.variation import variation_values
from composer_tasks.composer.variation.base import evaluate
from composer_tasks.composer.variation.base import require_random_state
from composer_tasks.composer.variation.base import Variation
from composer_tasks.composer.variation.variators import MJCFVariator
from composer_tasks.composer.variation.variators import PhysicsVariator

__all__ = [
    "MJCFVariator",
    "PhysicsVariator",
    "Variation",
    "colors",
    "deterministic",
    "distributions",
    "evaluate",
    "math",
    "noises",
    "require_random_state",
    "rotations",
    "variation_broadcaster",
    "variation_values",
]
