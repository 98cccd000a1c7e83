"""The CMU humanoid's motion-capture tracking environment (dm_control's
`locomotion.examples.cmu_2020_tracking`).

    env = cmu_2020_tracking.cmu_humanoid_tracking(random_state=0)

Builds dm-control 1.0.50's environment from this project's walker, arena and
task, with that module's arguments: `MultiClipMocapTracking` of the clips of
the "walk_tiny" collection in the CMU data fitted to the 2020 humanoid
(`cmu_mocap_data.get_path_for_cmu("2020")`: a 477 MB HDF5 file, downloaded on
first use and cached), by the position-controlled `CMUHumanoidPositionControlledV2020`
on the default floor, with reference observations 1 to 5 steps ahead, episodes of
at least 10 steps, the "comic" reward and a 30 s time limit, its observation
buffers' singleton dimension stripped. `random_state` is the Environment's.
"""

from __future__ import annotations

from typing import Union

import numpy as np

from composer_tasks import arenas
from composer_tasks import composer
from composer_tasks.mocap import cmu_mocap_data
from composer_tasks.tasks.reference_pose import tracking
from composer_tasks.walkers import cmu_humanoid

RandomState = Union[None, int, np.random.RandomState]

# dm_control cmu_2020_tracking: time_limit=30 (s); the clip collection, the
# reference steps, the shortest episode and the reward.
TIME_LIMIT_S = 30.0
DATASET = "walk_tiny"
REFERENCE_STEPS = (1, 2, 3, 4, 5)
MIN_STEPS = 10
REWARD_TYPE = "comic"


def cmu_humanoid_tracking(random_state: RandomState = None) -> composer.Environment:
    """Track motion-capture clips of walking with the 2020 CMU humanoid (see the
    module docstring).

    Raises:
      OSError, RuntimeError: the CMU data cannot be found or downloaded
        (`cmu_mocap_data.get_path_for_cmu`).
    """
    task = tracking.MultiClipMocapTracking(
        walker=cmu_humanoid.CMUHumanoidPositionControlledV2020,
        arena=arenas.Floor(),
        ref_path=cmu_mocap_data.get_path_for_cmu(version="2020"),
        dataset=DATASET,
        ref_steps=REFERENCE_STEPS,
        min_steps=MIN_STEPS,
        reward_type=REWARD_TYPE,
    )
    return composer.Environment(
        time_limit=TIME_LIMIT_S,
        task=task,
        random_state=random_state,
        strip_singleton_obs_buffer_dim=True,
    )
