"""Which observables a walker enables by itself, against dm_control: none (a task
enables what its agent sees), so a task of one's own observes only what it asks for."""

import pytest

PROGRAM = """
from dm_control import composer
from dm_control.locomotion.arenas import floors
from dm_control.locomotion.walkers import ant, cmu_humanoid, jumping_ball, rodent
from dm_control.locomotion.soccer import boxhead

makers = {
    'ant': ant.Ant,
    'cmu_2019': cmu_humanoid.CMUHumanoid,
    'cmu_2019_position': cmu_humanoid.CMUHumanoidPositionControlled,
    'cmu_2020': cmu_humanoid.CMUHumanoidPositionControlledV2020,
    'rat': rodent.Rat,
    'jumping_ball': jumping_ball.JumpingBallWithHead,
    'boxhead': boxhead.BoxHead,
}
for label, make in makers.items():
    walker = make()
    record(label + '/enabled',
           sorted(n for n, o in walker.observables.as_dict().items() if o.enabled))
    record(label + '/has_prev_action', hasattr(walker.observables, 'prev_action'))

class Task(composer.Task):
    def __init__(self):
        self._arena = floors.Floor()
        self._arena.add_free_entity(cmu_humanoid.CMUHumanoidPositionControlledV2020())
    @property
    def root_entity(self):
        return self._arena
    def get_reward(self, physics):
        return 0.0

env = composer.Environment(Task(), random_state=0)
record('task_of_ones_own/observation_keys', sorted(env.observation_spec()))
"""


@pytest.mark.dm_control_api(
    "locomotion.walkers.CMUHumanoidPositionControlled",
    "locomotion.walkers.CMUHumanoidPositionControlledV2020",
)
def test_walkers_enable_no_observable_by_themselves(differential):
    differential.assert_same(PROGRAM, "walker_observable_defaults")
