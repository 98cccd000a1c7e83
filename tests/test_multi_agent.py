"""The multi-agent interface of composer.Environment and BatchEnvironment, on a toy task
of two creatures (dm_control's convention: per-agent lists of specs, observations,
actions and rewards)."""

import collections

import dm_env
import numpy as np
import pytest

from composer_tasks import batch as batch_module
from composer_tasks import composer
from composer_tasks.composer import environment as environment_module
from composer_tasks.composer.observation import observable
from tests import core_fixtures


class TwoCreatures(composer.Task):
    """Two free creatures; agent i drives creature i's hips and is rewarded with its
    creature's height minus the other's; the episode ends when a creature falls
    below `floor_m`."""

    num_agents = 2

    def __init__(self, floor_m=-1.0):
        self.arena = core_fixtures.Plane()
        self.creatures = [core_fixtures.Torso(name=f"creature{i}") for i in range(2)]
        for creature in self.creatures:
            self.arena.add_free_entity(creature)
        self.set_timesteps(0.01, 0.002)
        self.floor_m = floor_m
        self.actions_seen = []
        self._observables = [
            collections.OrderedDict(
                [
                    (
                        "own_hips",
                        observable.MJCFFeature(
                            "qpos", [leg.hip for leg in creature.legs], enabled=True
                        ),
                    ),
                    (
                        "other_height",
                        observable.Generic(
                            lambda physics, other=other: other.get_pose(physics)[0][2:],
                            enabled=True,
                        ),
                    ),
                ]
            )
            for creature, other in zip(self.creatures, self.creatures[::-1])
        ]

    @property
    def root_entity(self):
        return self.arena

    @property
    def observables(self):
        return self._observables

    def initialize_episode(self, physics, random_state):
        for index, creature in enumerate(self.creatures):
            creature.set_pose(physics, position=[index - 0.5, 0.0, random_state.uniform(0.3, 0.6)])

    def action_spec(self, physics):
        return [
            dm_env.specs.BoundedArray((2,), np.float64, -1.0, 1.0, name=f"creature{i}")
            for i in range(2)
        ]

    def before_step(self, physics, actions, random_state):
        self.actions_seen.append(actions)
        for creature, action in zip(self.creatures, actions):
            physics.bind([leg.motor for leg in creature.legs]).ctrl = action

    def _heights(self, physics):
        return [creature.get_pose(physics)[0][2] for creature in self.creatures]

    def get_reward(self, physics):
        first, second = self._heights(physics)
        return [np.float32(first - second), np.float32(second - first)]

    def get_reward_spec(self):
        return [dm_env.specs.Array((), np.float32, name="reward") for _ in range(2)]

    def get_discount(self, physics):
        return np.float32(0.0 if self.should_terminate_episode(physics) else 1.0)

    def get_discount_spec(self):
        return dm_env.specs.BoundedArray((), np.float32, 0.0, 1.0, name="discount")

    def should_terminate_episode(self, physics):
        return min(self._heights(physics)) < self.floor_m


def _actions(random_state):
    return [random_state.uniform(-1, 1, 2) for _ in range(2)]


def test_environment_of_multi_agent_task_speaks_per_agent_lists():
    env = composer.Environment(TwoCreatures(), random_state=3)
    assert isinstance(env, environment_module.MultiAgentEnvironment)
    assert env.num_agents == 2
    specs = env.action_spec()
    assert [spec.name for spec in specs] == ["creature0", "creature1"]
    observation_spec = env.observation_spec()
    assert len(observation_spec) == 2
    for agent_spec in observation_spec:
        assert list(agent_spec) == ["own_hips", "other_height"]
        # A buffer axis of 1 leads, as the single environment's observations have.
        assert agent_spec["own_hips"] == dm_env.specs.Array((1, 2), np.float64, "own_hips")
    assert env.reward_spec() == [dm_env.specs.Array((), np.float32, "reward")] * 2
    first = env.reset()
    assert first.first() and first.reward is None and first.discount is None
    assert len(first.observation) == 2
    heights = [c.get_pose(env.physics)[0][2] for c in env.task.creatures]
    np.testing.assert_array_equal(first.observation[0]["other_height"], [[heights[1]]])
    np.testing.assert_array_equal(first.observation[1]["other_height"], [[heights[0]]])
    step = env.step([np.full(2, 0.5), np.full(2, -0.5)])
    assert step.mid()
    seen = env.task.actions_seen[-1]
    np.testing.assert_array_equal(seen[0], [0.5, 0.5])
    np.testing.assert_array_equal(seen[1], [-0.5, -0.5])
    np.testing.assert_array_equal(env.physics.data.ctrl, [0.5, 0.5, -0.5, -0.5])
    assert isinstance(step.reward, list) and len(step.reward) == 2
    assert step.reward[0] == -step.reward[1]
    assert step.reward[0].dtype == np.float32
    assert step.discount.dtype == np.float32 and step.discount == 1.0
    for agent_spec, agent_observation in zip(observation_spec, step.observation):
        for name, spec in agent_spec.items():
            spec.validate(agent_observation[name])


def test_single_agent_tasks_keep_the_single_agent_environment():
    env = composer.Environment(core_fixtures.RandomHeightTask(), random_state=0)
    assert type(env) is composer.Environment
    assert composer.Task.num_agents.fget(env.task) is None


def test_termination_gives_the_task_discount_and_truncation_one():
    env = composer.Environment(TwoCreatures(floor_m=10.0), random_state=0)
    env.reset()
    step = env.step(_actions(np.random.RandomState(0)))
    assert step.last() and step.discount == 0.0 and step.discount.dtype == np.float32
    assert env.needs_reset
    env = composer.Environment(TwoCreatures(), random_state=0, time_limit=0.02)
    env.reset()
    env.step(_actions(np.random.RandomState(0)))
    step = env.step(_actions(np.random.RandomState(1)))
    assert step.last() and step.discount == 1.0 and step.discount.dtype == np.float32


def test_same_seed_same_trajectory_bit_for_bit():
    def run(seed):
        env = composer.Environment(TwoCreatures(), random_state=seed)
        actions = np.random.RandomState(7)
        steps = [env.reset()] + [env.step(_actions(actions)) for _ in range(20)]
        return steps

    for one, two in zip(run(5), run(5)):
        assert one.step_type == two.step_type
        assert (one.reward is None) == (two.reward is None)
        if one.reward is not None:
            assert [r.tobytes() for r in one.reward] == [r.tobytes() for r in two.reward]
        for agent_one, agent_two in zip(one.observation, two.observation):
            for name in agent_one:
                assert agent_one[name].tobytes() == agent_two[name].tobytes()


@pytest.mark.parametrize(
    "actions, error, message",
    [
        ([np.zeros(2)], ValueError, "got 1 actions for a task of 2 agents"),
        ([np.zeros(2)] * 3, ValueError, "got 3 actions for a task of 2 agents"),
        (np.zeros(4), ValueError, "got 4 actions"),
        (
            [np.zeros(2), np.zeros(3)],
            ValueError,
            r"agent 1 has shape \(3,\).*'creature1' has shape \(2,\)",
        ),
        (
            [np.zeros(2), np.array([0.0, np.nan])],
            ValueError,
            r"agent 1 has non-finite entries at \[1\]",
        ),
        (
            [np.array([2.0, 0.0]), np.zeros(2)],
            ValueError,
            r"agent 0 is outside the bounds.*0=2.0 not in \[-1.0, 1.0\]",
        ),
        ([np.array(["a", "b"]), np.zeros(2)], ValueError, "agent 0 has dtype <U1"),
        ([np.zeros(2), np.array([object(), object()])], TypeError, "agent 1 has dtype object"),
        ({"a": np.zeros(2)}, TypeError, "sequence of 2 per-agent actions"),
        (3.0, TypeError, "sequence of 2 per-agent actions"),
    ],
)
def test_bad_actions_raise_clear_errors(actions, error, message):
    env = composer.Environment(TwoCreatures(), random_state=0, strict_action_bounds=True)
    env.reset()
    with pytest.raises(error, match=message):
        env.step(actions)


def test_agent_actions_are_written_as_dm_control_walkers_write_them():
    # dm_control's soccer writes each agent's action with `bind(actuators).ctrl =
    # action`: NumPy's assignment broadcasts scalars and casts booleans.
    env = composer.Environment(TwoCreatures(), random_state=0)
    env.reset()
    env.step([0.25, np.array([True, False])])
    np.testing.assert_array_equal(env.physics.data.ctrl, [0.25, 0.25, 1.0, 0.0])
    env.step([[0.5], np.zeros((1, 2))])
    np.testing.assert_array_equal(env.physics.data.ctrl, [0.5, 0.5, 0.0, 0.0])


def test_an_agent_action_outside_its_bounds_is_stepped_unless_strict():
    # As in dm_control (soccer's agents included): the control is written as given.
    env = composer.Environment(TwoCreatures(), random_state=0)
    env.reset()
    assert env.step([np.array([2.0, 0.0]), np.zeros(2)]).mid()
    np.testing.assert_array_equal(env.physics.data.ctrl, [2.0, 0.0, 0.0, 0.0])
    with pytest.raises(composer.InvalidActionError, match=r"agent 1 has non-finite entries"):
        env.step([np.zeros(2), np.array([0.0, np.nan])])


def test_a_two_by_two_array_is_two_actions():
    env = composer.Environment(TwoCreatures(), random_state=0)
    env.reset()
    env.step(np.array([[0.1, 0.2], [0.3, 0.4]]))
    np.testing.assert_array_equal(env.physics.data.ctrl, [0.1, 0.2, 0.3, 0.4])


class _WrongSpecs(TwoCreatures):
    def action_spec(self, physics):
        return super().action_spec(physics)[:1]


class _WrongRewards(TwoCreatures):
    def get_reward(self, physics):
        return super().get_reward(physics)[:1]


class _WrongCount(TwoCreatures):
    num_agents = -1


class _NoAgentsButRewards(TwoCreatures):
    num_agents = 0


def test_inconsistent_multi_agent_tasks_are_refused():
    with pytest.raises(ValueError, match="list of 2 per-agent BoundedArrays"):
        composer.Environment(_WrongSpecs())
    with pytest.raises(ValueError, match="num_agents must be None .* or an int >= 0, got -1"):
        composer.Environment(_WrongCount())
    with pytest.raises(ValueError, match="must return a list of 0 per-agent specs"):
        composer.Environment(_NoAgentsButRewards())
    env = composer.Environment(_WrongRewards(), random_state=0)
    env.reset()
    with pytest.raises(ValueError, match="returned 1 rewards for 2 agents"):
        env.step(_actions(np.random.RandomState(0)))


def test_snapshot_restores_a_multi_agent_environment():
    env = composer.Environment(TwoCreatures(), random_state=0)
    env.reset()
    actions = np.random.RandomState(3)
    env.step(_actions(actions))
    snapshot = env.snapshot()
    later = [env.step(_actions(actions)) for _ in range(3)]
    other = composer.Environment(TwoCreatures(), random_state=1)
    other.reset()
    other.restore(snapshot)
    actions = np.random.RandomState(3)
    _actions(actions)
    for expected in later:
        step = other.step(_actions(actions))
        assert [r.tobytes() for r in step.reward] == [r.tobytes() for r in expected.reward]


def test_batch_of_multi_agent_copies_equals_single_environments():
    num_envs = 3
    batch = batch_module.BatchEnvironment(
        TwoCreatures, num_envs=num_envs, seed=11, time_limit=0.05, num_threads=1
    )
    singles = [
        composer.Environment(
            TwoCreatures(), random_state=batch_module.copy_seed(11, i), time_limit=0.05
        )
        for i in range(num_envs)
    ]
    assert batch.action_spec() == singles[0].action_spec()
    assert batch.reward_spec() == singles[0].reward_spec()
    actions = np.random.RandomState(2)
    batch_step = batch.reset()
    single_steps = [env.reset() for env in singles]
    for _ in range(12):
        _check_batch_matches(batch_step, single_steps)
        per_copy = [_actions(actions) for _ in range(num_envs)]
        stacked = [np.stack([copy[agent] for copy in per_copy]) for agent in range(2)]
        batch_step = batch.step(stacked)
        single_steps = [env.step(copy) for env, copy in zip(singles, per_copy)]
    _check_batch_matches(batch_step, single_steps)


def _check_batch_matches(batch_step, single_steps):
    np.testing.assert_array_equal(batch_step.step_type, [int(s.step_type) for s in single_steps])
    assert len(batch_step.reward) == 2 and len(batch_step.observation) == 2
    for agent in range(2):
        expected = np.array(
            [0.0 if s.reward is None else s.reward[agent] for s in single_steps], dtype=np.float64
        )
        assert batch_step.reward[agent].tobytes() == expected.tobytes()
        for name, value in batch_step.observation[agent].items():
            expected = np.stack([s.observation[agent][name] for s in single_steps])
            assert value.tobytes() == expected.tobytes()
    expected = np.array(
        [1.0 if s.discount is None else s.discount for s in single_steps], dtype=np.float64
    )
    assert batch_step.discount.tobytes() == expected.tobytes()


@pytest.mark.parametrize(
    "actions, message",
    [
        ([np.zeros((3, 2))], "1 per-agent action arrays for a task of 2 agents"),
        ([np.zeros((3, 2)), np.zeros((2, 2))], r"agent 1 has shape \(2, 2\), expected \(3, 2\)"),
        ([np.zeros((3, 2)), np.full((3, 2), 5.0)], "actions of copy 0 for agent 1 are outside"),
    ],
)
def test_batch_rejects_bad_multi_agent_actions(actions, message):
    batch = batch_module.BatchEnvironment(TwoCreatures, num_envs=3, seed=0, num_threads=1)
    batch.reset()
    with pytest.raises(ValueError, match=message):
        batch.step(actions)


def test_a_physics_error_ends_the_episode_with_zero_for_every_agent():
    env = composer.Environment(
        TwoCreatures(), random_state=0, raise_exception_on_physics_error=False
    )
    env.reset()
    env.physics.data.qvel[:] = np.nan
    step = env.step([np.zeros(2), np.zeros(2)])
    assert step.last() and env.needs_reset
    assert [(r.dtype, float(r)) for r in step.reward] == [(np.float32, 0.0)] * 2
    assert step.discount.dtype == np.float32 and step.discount == 0.0
    assert len(step.observation) == 2
    raising = composer.Environment(TwoCreatures(), random_state=0)
    raising.reset()
    raising.physics.data.qvel[:] = np.nan
    with pytest.raises(environment_module.PhysicsError, match="diverged"):
        raising.step([np.zeros(2), np.zeros(2)])
