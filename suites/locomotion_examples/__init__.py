"""dm_control's `locomotion.examples`: factories of its reference locomotion
environments, built from this project's walkers, arenas and tasks.

  `basic_cmu_2019`: the CMU humanoid in corridors, on a floor and in mazes.
  `basic_rodent_2020`: the rat in a bowl, a gaps corridor, a maze and at an orb.
  `cmu_2020_tracking`: the 2020 CMU humanoid tracking motion-capture clips.
  `explore`: the viewer on the gaps corridor.

As dm_control's package, it also offers the CMU humanoid walker classes
(`CMUHumanoid`, `CMUHumanoidPositionControlled`, `CMUHumanoidPositionControlledV2020`).
"""

from composer_tasks.walkers.cmu_humanoid import CMUHumanoid as CMUHumanoid
from composer_tasks.walkers.cmu_humanoid import (
    CMUHumanoidPositionControlled as CMUHumanoidPositionControlled,
)
from composer_tasks.walkers.cmu_humanoid import (
    CMUHumanoidPositionControlledV2020 as CMUHumanoidPositionControlledV2020,
)
