"""The fruit fly walker (composer_tasks/walkers/fruitfly_v2.py) here alone: the
construction options, the action layout, bad input, the merged physics options,
and an Environment episode with the buffered observables.
(tests/differential/test_fruitfly*.py compare it with dm_control.)"""

import numpy as np
import pytest

from composer_tasks import arenas, composer, mjcf
from composer_tasks.walkers import fruitfly_v2


class _FlyTask(composer.Task):
    """The fly on the floor, driven through its own action spec."""

    def __init__(self, **fly_options):
        self.fly = fruitfly_v2.FruitFly(**fly_options)
        self._arena = arenas.Floor()
        self._arena.add_free_entity(self.fly)
        self.set_timesteps(control_timestep=2e-3, physics_timestep=1e-4)
        for observable in (*self.fly.observables.vestibular, self.fly.observables.touch):
            observable.enabled = True

    @property
    def root_entity(self):
        return self._arena

    def action_spec(self, physics):
        return self.fly.get_action_spec(physics)

    def before_step(self, physics, action, random_state):
        self.fly.apply_action(physics, action, random_state)

    def initialize_episode(self, physics, random_state):
        self.fly.set_pose(physics, position=fruitfly_v2._SPAWN_POS)

    def get_reward(self, physics):
        return 0.0


def test_default_fly_counts_and_action_layout():
    fly = fruitfly_v2.FruitFly()
    physics = mjcf.Physics.from_mjcf_model(fly.mjcf_model)
    spec = fly.get_action_spec(physics)
    names = spec.name.split("\t")
    # dm_control's layout: 6 claw adhesions, 3 head, 2 abdomen, 8 x 6 leg actuators.
    assert spec.shape == (59,) and len(fly.actuators) == 59
    assert names[:6] == [f"adhere_claw_{leg}" for leg in fruitfly_v2._LEGS]
    assert names[6:11] == ["head_abduct", "head_twist", "head", "abdomen_abduct", "abdomen"]
    assert len(fly.observable_joints) == 85 and physics.model.njnt == 102
    # Adhesion controls are in [0, 1]; the joint actuators filter their controls.
    assert np.all(spec.minimum[:6] == 0.0) and np.all(spec.maximum[:6] == 1.0)
    assert physics.model.na == 53


def test_options_remove_what_dm_control_removes():
    no_legs = fruitfly_v2.FruitFly(use_legs=False)
    all_parts = fruitfly_v2.FruitFly(use_wings=True, use_mouth=True, use_antennae=True)
    physics = mjcf.Physics.from_mjcf_model(no_legs.mjcf_model)
    assert physics.model.njnt == 102 - 6 * 11  # 11 joints a leg
    assert physics.model.ntendon == 2
    assert not [a.name for a in no_legs.actuators if "T1" in a.name]
    # Wings 6, mouth 5 joints and 2 labrum adhesions, antennae 6.
    assert len(all_parts.actuators) == 59 + 6 + 5 + 2 + 6
    assert len(all_parts.observable_joints) == 102


def test_user_actions_and_apply_action():
    fly = fruitfly_v2.FruitFly(num_user_actions=2)
    physics = mjcf.Physics.from_mjcf_model(fly.mjcf_model)
    spec = fly.get_action_spec(physics)
    assert spec.name.split("\t")[-2:] == ["user_0", "user_1"]
    action = spec.minimum.copy()
    action[6] = 0.1  # head_abduct
    fly.apply_action(physics, action, None)
    assert physics.bind(fly.mjcf_model.find("actuator", "head_abduct")).ctrl == pytest.approx(0.1)
    with pytest.raises(ValueError, match="61 finite values"):
        fly.apply_action(physics, np.zeros(59), None)
    with pytest.raises(ValueError, match="finite"):
        fly.apply_action(physics, np.full(61, np.nan), None)


@pytest.mark.parametrize(
    "options, message",
    [
        (dict(num_user_actions=-1), "num_user_actions"),
        (dict(joint_filter=-0.1), "joint_filter"),
        (dict(physics_timestep=0.0), "physics_timestep"),
    ],
)
def test_bad_options_name_the_option(options, message):
    with pytest.raises(ValueError, match=message):
        fruitfly_v2.FruitFly(**options)


def test_helpers_check_their_input():
    with pytest.raises(ValueError, match="quat_a"):
        fruitfly_v2.mul_quat([1.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0])
    with pytest.raises(TypeError, match="MjsBody"):
        fruitfly_v2.change_body_frame("thorax", None, None)


def test_arena_takes_the_flys_units_and_bounds():
    fly = fruitfly_v2.FruitFly()
    arena = arenas.Floor()
    arena.add_free_entity(fly)
    physics = mjcf.Physics.from_mjcf_model(arena.mjcf_model)
    options = physics.model.opt
    assert options.timestep == 1e-4 and options.gravity[2] == -981.0
    assert options.density == 0.00128 and options.viscosity == 0.000185
    fly.initialize_episode(physics, np.random.RandomState(0))
    # dm_control's weight in the Floor arena (its 1e-5 mass bound lifts the tarsi).
    assert fly.weight == pytest.approx(1.3042679608, rel=1e-6)


def test_environment_episode_with_averaged_sensors():
    env = composer.Environment(_FlyTask())
    timestep = env.reset()
    assert timestep.observation["walker/accelerometer"].shape == (3,)
    assert timestep.observation["walker/touch"].shape == (6,)
    spec = env.action_spec()
    timestep = env.step(np.clip(np.zeros(spec.shape), spec.minimum, spec.maximum))
    # 20 physics steps per control step, averaged: a resting fly's accelerometer
    # reads about g up.
    assert env.task.fly.observables.accelerometer.buffer_size == 20
    assert timestep.observation["walker/accelerometer"][2] == pytest.approx(981.0, rel=0.5)
