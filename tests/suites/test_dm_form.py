"""The Control Suite's domains in dm_control's own form: a physics from the domain's
`get_model_and_assets()`, a task constructed with `random`, `control.Environment(physics,
task)`; suite tasks subclassed with dm_control's callbacks; the exact model text.
(tests/differential/test_suite_domains.py compares the same with dm-control 1.0.50.)"""

import mujoco
import numpy as np
import pytest

from composer_tasks import composer
from composer_tasks import physics as physics_lib
from suites import base, cartpole, control, dog, lqr, suite, walker


def _assert_same_model(ours, theirs):
    """Every array of the two models equal, bit for bit (names included)."""
    compared = 0
    for name in dir(ours):
        value = getattr(ours, name, None)
        if name.startswith("_") or not isinstance(value, np.ndarray):
            continue
        np.testing.assert_array_equal(value, getattr(theirs, name), err_msg=name)
        compared += 1
    assert compared > 100


def _rollout(env, steps, action=0.3):
    timestep = env.reset()
    observations = [timestep.observation]
    rewards = []
    for _ in range(steps):
        timestep = env.step(np.full(env.action_spec().shape, action))
        observations.append(timestep.observation)
        rewards.append(timestep.reward)
    return observations, rewards


def _dm_form_cartpole(seed):
    physics = cartpole.Physics.from_xml_string(*cartpole.get_model_and_assets())
    return control.Environment(
        physics, cartpole.Balance(swing_up=True, sparse=False, random=seed), time_limit=10
    )


def test_model_text_compiles_to_the_suites_model_bit_for_bit():
    text, assets = walker.get_model_and_assets()
    assert isinstance(text, bytes) and "./common/materials.xml" in assets
    env = suite.load("walker", "walk")
    physics = walker.Physics.from_xml_string(text, assets)
    _assert_same_model(physics.model, env.physics.model)
    # The same text through MuJoCo's own loader: its six significant digits.
    parsed = mujoco.MjModel.from_xml_string(text.decode())
    assert parsed.nq == physics.model.nq
    np.testing.assert_allclose(parsed.jnt_range, physics.model.jnt_range, rtol=1e-5)
    # Edited text is parsed, the edit kept.
    edited = text.replace(b'<option timestep="0.0025"/>', b'<option timestep="0.005"/>', 1)
    assert edited != text
    assert walker.Physics.from_xml_string(edited, assets).timestep() == 0.005


def test_spec_xml_keeps_the_spec_it_was_written_from():
    spec = mujoco.MjSpec()
    body = spec.worldbody.add_body(name="b")
    body.add_joint(name="j", type=mujoco.mjtJoint.mjJNT_HINGE, range=[-np.pi / 3, 1 / 3])
    body.add_geom(size=[0.1, 0, 0], mass=1 / 3)
    spec.compiler.degree = False
    text = physics_lib.spec_xml(spec)
    spec.body("b").pos = [5, 0, 0]  # a later edit of the spec does not change the text's model
    physics = physics_lib.Physics.from_xml_string(text)
    assert physics.model.jnt_range[0, 0] == -np.pi / 3  # exact, not six digits
    assert physics.model.body_pos[1, 0] == 0
    with pytest.raises(TypeError, match="MjSpec"):
        physics_lib.spec_xml("<mujoco/>")


def test_dm_form_runs_the_suites_episode_bit_for_bit():
    ours = _rollout(_dm_form_cartpole(3), 50)
    again = _rollout(_dm_form_cartpole(3), 50)
    registered = _rollout(cartpole.swingup(random=3), 50)
    for first, second, third in zip(ours[0], again[0], registered[0]):
        for key in first:
            np.testing.assert_array_equal(first[key], second[key])
            np.testing.assert_array_equal(first[key], third[key])
    assert ours[1] == again[1] == registered[1]
    other = _rollout(_dm_form_cartpole(4), 5)
    assert not np.array_equal(other[0][0]["position"], ours[0][0]["position"])


def test_dm_form_counts_physics_steps_as_dm_control():
    physics = walker.Physics.from_xml_string(*walker.get_model_and_assets())
    env = control.Environment(physics, walker.PlanarWalker(move_speed=1, random=1))
    assert env.control_timestep() == physics.timestep()  # one step unless told
    env = control.Environment(
        physics, walker.PlanarWalker(move_speed=1, random=1), control_timestep=0.025
    )
    assert env.control_timestep() == pytest.approx(0.025)
    assert env.physics is physics and isinstance(env.task, walker.PlanarWalker)


def test_observations_are_copies():
    env = _dm_form_cartpole(1)
    first = env.reset().observation
    kept = {key: value.copy() for key, value in first.items()}
    env.step(np.ones(1))
    for key in kept:
        np.testing.assert_array_equal(first[key], kept[key])


class _FallingWalker(walker.PlanarWalker):
    """dm_control's form: callbacks of physics only, before_step(action, physics),
    get_termination."""

    def initialize_episode(self, physics):
        super().initialize_episode(physics)
        physics.named.data.qpos["rootz"] += self.random.uniform(0.1, 0.2)

    def before_step(self, action, physics):
        self.actions = getattr(self, "actions", []) + [np.asarray(action).copy()]
        super().before_step(0.5 * np.asarray(action), physics)

    def get_termination(self, physics):
        if physics.torso_height() < 1.1:
            return 0.5
        return None


@pytest.mark.parametrize("form", ["dm_control", "composer"])
def test_dm_control_style_subclass_runs_in_either_environment(form):
    def make():
        task = _FallingWalker(move_speed=1, random=2)
        if form == "dm_control":
            physics = walker.Physics.from_xml_string(*walker.get_model_and_assets())
            return control.Environment(physics, task, n_sub_steps=10), task
        return control.Environment(task, random_state=2, strict_action_bounds=True), task

    env, task = make()
    timestep = env.reset()
    steps = 0
    while not timestep.last():
        timestep = env.step(np.full(6, 0.4))
        steps += 1
    assert steps < 200 and timestep.discount == 0.5  # get_termination ended it
    np.testing.assert_array_equal(env.physics.data.ctrl, np.full(6, 0.2))  # before_step halved
    assert len(task.actions) == steps
    again, _ = make()
    assert _rollout(again, 3)[1] == _rollout(make()[0], 3)[1]  # seeded: deterministic


def test_composer_form_rejects_an_overridden_get_observation():
    class Extra(cartpole.Balance):
        def get_observation(self, physics):
            return super().get_observation(physics)

    physics = cartpole.Physics.from_xml_string(*cartpole.get_model_and_assets())
    env = control.Environment(physics, Extra(False, False, random=1))
    assert list(env.reset().observation) == ["position", "velocity"]
    with pytest.raises(TypeError, match="overrides get_observation"):
        control.Environment(Extra(False, False, random=1))


def test_both_termination_forms_are_refused():
    with pytest.raises(TypeError, match="define one form"):

        class Both(walker.PlanarWalker):  # noqa: F841  (defining it raises)
            def get_termination(self, physics):
                return None

            def should_terminate_episode(self, physics):
                return False


def test_control_task_takes_only_suite_tasks():
    with pytest.raises(TypeError, match="SuiteTask"):
        base.ControlTask(object())

    class Plain(composer.Task):
        root_entity = None

        def get_reward(self, physics):
            return 0.0

    with pytest.raises(TypeError, match="without a physics"):
        control.Environment(
            cartpole.Physics.from_xml_string(*cartpole.get_model_and_assets()), Plain()
        )


def test_composer_form_seeds_from_the_task_or_the_environment():
    task = cartpole.Balance(False, False, random=7)
    env = control.Environment(task, strict_action_bounds=True)
    assert env.random_state is task.random
    other = cartpole.Balance(False, False, random=7)
    env = control.Environment(other, random_state=9)
    assert other.random is env.random_state  # the Environment's generator, once compiled


def test_dog_reward_factors_multiply_to_the_reward():
    physics = dog.Physics.from_xml_string(*dog.get_model_and_assets(45))
    task = dog.Move(3, random=1, observe_reward_factors=True)
    env = control.Environment(physics, task, control_timestep=0.015)
    env.reset()
    timestep = env.step(np.zeros(38))
    factors = timestep.observation["reward_factors"]
    assert factors.shape == (7,)
    assert np.prod(factors) == pytest.approx(timestep.reward, rel=1e-12)
    assert "reward_factors" not in task.get_observation_components(physics)
    with pytest.raises(TypeError, match="observe_reward_factors"):
        dog.Stand(observe_reward_factors="yes")


def test_lqr_level_draws_its_model_from_the_shared_stream():
    stream = np.random.RandomState(5)
    text, assets = lqr.get_model_and_assets(2, 1, stream)
    task = lqr.LQRLevel(0.1, random=stream)
    physics = lqr.Physics.from_xml_string(text, assets)
    reference = lqr.lqr_2_1(random=5)
    np.testing.assert_array_equal(
        physics.model.jnt_stiffness, reference.physics.model.jnt_stiffness
    )
    env = control.Environment(physics, task)
    np.testing.assert_array_equal(
        env.reset().observation["position"], reference.reset().observation["position"]
    )
    physics.data.qpos[:] = 0
    physics.data.qvel[:] = 0
    assert task.get_termination(physics) == 0.0 and task.get_evaluation(physics) == 1.0
    with pytest.raises(ValueError, match="control_cost_coef"):
        lqr.LQRLevel(0.0)


def test_registry_is_dm_controls_tagged_mapping():
    assert dict(cartpole.SUITE.tagged("benchmarking")) == {
        name: cartpole.SUITE[name]
        for name in ("balance", "balance_sparse", "swingup", "swingup_sparse")
    }
    assert len(cartpole.SUITE) == 6 and "two_poles" in list(cartpole.SUITE)
    assert cartpole.SUITE.tagged("benchmarking", "missing") == {}
    assert set(cartpole.SUITE.tags()) >= {"benchmarking"}


def test_get_termination_may_defer_to_the_domains():
    class Patient(lqr.LQRLevel):
        def get_termination(self, physics):
            if physics.time() > 0.3:
                return 0.25
            return super().get_termination(physics)  # the domain's: near the origin

    class Stricter(Patient):
        def get_termination(self, physics):
            return super().get_termination(physics)

    for cls in (Patient, Stricter):
        stream = np.random.RandomState(5)
        physics = lqr.Physics.from_xml_string(*lqr.get_model_and_assets(2, 1, stream))
        task = cls(0.1, random=stream)
        env = control.Environment(physics, task)
        env.reset()
        assert task.get_termination(physics) is None
        physics.data.qpos[:] = 0
        physics.data.qvel[:] = 0
        assert task.get_termination(physics) == 0.0
        steps = 0
        timestep = env.reset()
        while not timestep.last():
            timestep = env.step(np.zeros(1))
            steps += 1
        assert timestep.discount == 0.25 and 0.3 < physics.time() <= 0.3 + 0.03 + 1e-9
        assert steps == round(physics.time() / physics.timestep())


def test_a_reward_of_ones_own_leaves_the_vectorised_path_unless_declared():
    class Scalar(cartpole.Balance):
        def get_reward(self, physics):
            return float(physics.cart_position() > 0)  # one environment's code

    class Declared(cartpole.Balance):
        vectorized_callbacks = True

        def get_reward(self, physics):
            return physics.cart_position() * 0 + 1

    assert cartpole.Balance(False, False).vectorized
    assert not Scalar(False, False).vectorized
    assert Declared(False, False).vectorized
    assert all(cls.vectorized_callbacks for cls in (dog.Move, dog.Fetch, walker.PlanarWalker))


def test_observations_of_ones_own_leave_the_vectorised_path_unless_declared():
    class Own(cartpole.Balance):
        def __init__(self):
            super().__init__(False, False)
            self.set_observations(cart=lambda physics: physics.data.qpos[:1].copy())

    class Declared(Own):
        vectorized_callbacks = True

    assert not Own().vectorized
    assert Declared().vectorized
    # The domain's own declaration stays on the vectorised path.
    assert cartpole.Balance(False, False).vectorized


def test_a_batch_of_a_task_with_observations_of_its_own_equals_its_copies():
    from composer_tasks import seeding
    from composer_tasks.batch import BatchEnvironment

    class Own(cartpole.Balance):
        def __init__(self):
            super().__init__(False, False)
            # One environment's code: on the batch's (N, ...) arrays this would
            # read copy 0's cart for every copy.
            self.set_observations(cart=lambda physics: np.array([physics.data.qpos[0]]))

    batch = BatchEnvironment(Own, 3, num_threads=1, seed=4)
    assert not batch.vectorized
    singles = [
        composer.Environment(Own(), random_state=seeding.derive_seed(4, index))
        for index in range(3)
    ]
    batched = batch.reset()
    alone = [single.reset() for single in singles]
    for index, timestep in enumerate(alone):
        np.testing.assert_array_equal(
            batched.observation["cart"][index], timestep.observation["cart"]
        )
