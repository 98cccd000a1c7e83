"""composer.variation against dm_control's, drawing from the same seeds: every
distribution, noise, colour, rotation and deterministic variation, operators on
variations (values and equality), `evaluate`, and the MJCF and physics variators
inside an Environment over several episodes."""

import pytest

VARIATIONS = """
import numpy as np
from dm_control.composer import variation
from dm_control.composer.variation import colors, deterministic, distributions, noises, rotations

def draws(label, make, initial_values=(None, 0.0, np.zeros(3), np.zeros((2, 2)))):
    for k, initial in enumerate(initial_values):
        random_state = np.random.RandomState(42 + k)
        def call():
            v = make()
            out = [v(initial_value=initial, current_value=initial, random_state=random_state) for _ in range(3)]
            return out + [random_state.uniform()]
        check(f'{label}/{k}', call)

# Distributions.
draws('uniform', lambda: distributions.Uniform())
draws('uniform_args', lambda: distributions.Uniform(-2.0, 3.0))
draws('uniform_single', lambda: distributions.Uniform(-1, 1, single_sample=True))
draws('uniform_nested', lambda: distributions.Uniform(low=distributions.Uniform(-2, -1), high=2.0))
draws('uniform_integer', lambda: distributions.UniformInteger(0, 5))
draws('uniform_integer_one', lambda: distributions.UniformInteger(7))
draws('uniform_choice', lambda: distributions.UniformChoice([1.5, 2.5, 3.5]))
# A scalar initial value is left out: dm_control raises TypeError there (its size
# becomes a float array), documented in docs/variations.md.
draws('point_on_sphere', lambda: distributions.UniformPointOnSphere(), (None, np.zeros(3), np.zeros((2, 2))))
draws('point_on_sphere_single', lambda: distributions.UniformPointOnSphere(single_sample=True))
draws('normal', lambda: distributions.Normal(1.0, 0.5))
draws('lognormal', lambda: distributions.LogNormal(0.2, 0.3))
draws('exponential', lambda: distributions.Exponential(2.0))
draws('poisson', lambda: distributions.Poisson(3.0))
draws('bernoulli', lambda: distributions.Bernoulli(0.3))
draws('biased_random_walk', lambda: distributions.BiasedRandomWalk(stdev=0.5, timescale=3.0), (None, 0.0))
draws('biased_random_walk_zero', lambda: distributions.BiasedRandomWalk(stdev=0.5, timescale=0), (None,))
check('biased_random_walk_negative', distributions.BiasedRandomWalk, stdev=-1.0)
check('biased_random_walk_negative_timescale', distributions.BiasedRandomWalk, timescale=-1.0)
check('uniform_attr', lambda: distributions.Uniform(0.5, 2.0).high)
check('uniform_missing_attr', lambda: distributions.Uniform(0.5, 2.0).nope)
check('distribution_eq', lambda: [distributions.Uniform(0, 1) == distributions.Uniform(0, 1),
                                  distributions.Uniform(0, 1) == distributions.Uniform(0, 2),
                                  distributions.Uniform(0, 1) == distributions.Normal(0, 1),
                                  distributions.UniformPointOnSphere() == distributions.UniformPointOnSphere(),
                                  distributions.Uniform(0, 1, single_sample=True) == distributions.Uniform(0, 1)])

# Noises.
draws('additive', lambda: noises.Additive(distributions.Normal(scale=0.1)), (0.0, np.ones(3)))
draws('additive_cumulative', lambda: noises.Additive(distributions.Uniform(0, 1), cumulative=True), (0.0, np.ones(3)))
draws('multiplicative', lambda: noises.Multiplicative(distributions.Uniform(0.5, 1.5)), (2.0, np.ones(3)))
draws('multiplicative_cumulative', lambda: noises.Multiplicative(distributions.Uniform(0.5, 1.5), cumulative=True), (2.0, np.ones(3)))
draws('multiplicative_cumulative_int', lambda: noises.Multiplicative(deterministic.Constant(3), cumulative=True), (np.array([1, 2]),))
check('noise_eq', lambda: [noises.Additive(distributions.Uniform()) == noises.Additive(distributions.Uniform()),
                           noises.Additive(distributions.Uniform()) == noises.Additive(distributions.Uniform(), cumulative=True),
                           noises.Multiplicative(1.0) == noises.Multiplicative(1.0)])

# Colors.
draws('rgb', lambda: colors.RgbVariation(distributions.Uniform(), 0.5, distributions.Uniform(), 1.0), (None,))
draws('hsv', lambda: colors.HsvVariation(distributions.Uniform(), distributions.Uniform(0.5, 1), 0.9, distributions.Uniform()), (None,))
draws('gray', lambda: colors.GrayVariation(distributions.Uniform(0.2, 0.8)), (None,))
draws('gray_alpha', lambda: colors.GrayVariation(distributions.Uniform(0.2, 0.8), alpha=0.5), (None,))
check('rgb_per_channel_distribution', lambda: colors.RgbVariation(distributions.Uniform([0, 0, 0], [1, 1, 1]), 0, 0)(random_state=np.random.RandomState(0)))
check('color_eq', lambda: [colors.RgbVariation(0.1, 0.2, 0.3) == colors.RgbVariation(0.1, 0.2, 0.3),
                           colors.HsvVariation(0.1, 0.2, 0.3) == colors.HsvVariation(0.1, 0.2, 0.4),
                           colors.GrayVariation(0.5) == colors.GrayVariation(0.5)])

# Rotations.
draws('uniform_quaternion', lambda: rotations.UniformQuaternion(), (None,))
draws('axis_angle', lambda: rotations.QuaternionFromAxisAngle(axis=(0, 0, 1), angle=distributions.Uniform(-np.pi, np.pi)), (None,))
draws('axis_angle_random_axis', lambda: rotations.QuaternionFromAxisAngle(axis=distributions.UniformPointOnSphere(single_sample=True), angle=0.3), (None,))
draws('premultiply', lambda: rotations.QuaternionPreMultiply(rotations.UniformQuaternion()), (np.array([1.0, 0, 0, 0]), np.array([0.5, 0.5, 0.5, 0.5])))
draws('premultiply_cumulative', lambda: rotations.QuaternionPreMultiply(rotations.UniformQuaternion(), cumulative=True), (np.array([0.5, 0.5, 0.5, 0.5]),))
draws('rotate_vec', lambda: rotations.QuaternionRotate(rotations.UniformQuaternion(), vec=[1.0, 2.0, 3.0]), (None,))
draws('rotate_value', lambda: rotations.QuaternionRotate(rotations.UniformQuaternion()), (np.array([1.0, 0.0, 0.0]),))
record('identity_quaternion', rotations.IDENTITY_QUATERNION)
check('rotation_eq', lambda: [rotations.UniformQuaternion() == rotations.UniformQuaternion(),
                              rotations.QuaternionFromAxisAngle((0, 0, 1), 0.5) == rotations.QuaternionFromAxisAngle((0, 0, 1), 0.5),
                              rotations.QuaternionPreMultiply([1, 0, 0, 0]) == rotations.QuaternionPreMultiply([1, 0, 0, 0])])

# Deterministic.
draws('constant', lambda: deterministic.Constant(3.5))
draws('sequence', lambda: deterministic.Sequence([1.0, distributions.Uniform(), 3.0]), (None,))
draws('identity', lambda: deterministic.Identity(), (0.0, np.ones(2)))
check('deterministic_eq', lambda: [deterministic.Constant(1) == deterministic.Constant(1), deterministic.Identity() == deterministic.Identity()])

# Operators.
u = distributions.Uniform(1.0, 2.0)
n = distributions.Normal()
draws('add', lambda: u + 1.0)
draws('radd', lambda: 1.0 + u)
draws('sub', lambda: u - n)
draws('rsub', lambda: 3.0 - u)
draws('mul', lambda: u * 2.0)
draws('rmul', lambda: 2.0 * u)
draws('div', lambda: u / 2.0)
draws('rdiv', lambda: 2.0 / u)
draws('floordiv', lambda: u // 0.3)
draws('rfloordiv', lambda: 5.0 // u)
draws('pow', lambda: u ** 2)
draws('rpow', lambda: 2 ** u)
draws('neg', lambda: -u)
draws('getitem', lambda: distributions.Uniform([0, 1, 2], [1, 2, 3])[1], (None,))
check('operator_eq', lambda: [u + 1.0 == u + 1.0, u + 1.0 == u + 2.0, u * n == u * n, -u == -u, u - 1 == u + 1,
                              distributions.Uniform([0, 1], [1, 2])[0] == distributions.Uniform([0, 1], [1, 2])[0]])
check('operator_str', lambda: [str(u + 1.0 == u + 1.0)])

# evaluate.
random_state = np.random.RandomState(5)
check('evaluate_structure', variation.evaluate, {'a': distributions.Uniform(), 'b': [1.0, distributions.Normal()], 'c': (2, 3)}, random_state=random_state)
check('evaluate_callable', variation.evaluate, lambda initial_value, current_value, random_state: initial_value + 1, initial_value=2.0, current_value=0.0, random_state=None)
check('evaluate_constant', variation.evaluate, 4.0)
"""

VARIATORS = """
import numpy as np
from dm_control import composer, mjcf
from dm_control.composer import variation
from dm_control.composer.variation import colors, distributions, noises, rotations

class Box(composer.Entity):
    def _build(self):
        self._model = mjcf.RootElement(model='box')
        self._body = self._model.worldbody.add('body', name='body', pos=[0, 0, 0.5])
        self._body.add('joint', name='slide', type='slide', axis=[1, 0, 0])
        self._geom = self._body.add('geom', name='geom', type='box', size=[0.1, 0.2, 0.3], mass=1.5, rgba=[0.5, 0.5, 0.5, 1])
        self._mjcf_variator = variation.MJCFVariator()
        self._physics_variator = variation.PhysicsVariator()
        self._mjcf_variator.bind_attributes(
            self._geom,
            size=noises.Multiplicative(distributions.Uniform(0.8, 1.2)),
            rgba=colors.RgbVariation(distributions.Uniform(single_sample=True), 0.2, distributions.Uniform(0, 0.5, single_sample=True)),
        )
        self._mjcf_variator.bind_attributes(self._body, quat=rotations.UniformQuaternion())
        self._physics_variator.bind_attributes(
            self._geom, friction=noises.Additive(distributions.Normal(0.0, 0.05)))
        self._physics_variator.bind_attributes(
            self._body, pos=noises.Additive(distributions.Uniform(-0.1, 0.1), cumulative=True))
    @property
    def mjcf_model(self):
        return self._model
    def initialize_episode_mjcf(self, random_state):
        self._mjcf_variator.apply_variations(random_state)
    def initialize_episode(self, physics, random_state):
        self._physics_variator.apply_variations(physics, random_state)

class Task(composer.Task):
    def __init__(self):
        self._arena = composer.Arena()
        self._box = Box()
        self._arena.attach(self._box)
    @property
    def root_entity(self):
        return self._arena
    def get_reward(self, physics):
        return 0.0

task = Task()
env = composer.Environment(task, random_state=11)
for episode in range(4):
    env.reset()
    physics = env.physics
    geom = task._box._geom
    body = task._box._body
    record(f'{episode}/mjcf_size', np.array(geom.size))
    record(f'{episode}/mjcf_rgba', np.array(geom.rgba))
    record(f'{episode}/mjcf_quat', np.array(body.quat))
    record(f'{episode}/geom_size', physics.bind(geom).size)
    record(f'{episode}/friction', physics.bind(geom).friction)
    record(f'{episode}/body_pos', physics.bind(body).pos)
    record(f'{episode}/next', env.random_state.uniform())
task._box._mjcf_variator.clear()
task._box._physics_variator.clear()
env.reset()
record('cleared_size', np.array(task._box._geom.size))
"""


@pytest.mark.dm_control_api(
    "composer.variation.Variation",
    "composer.variation.evaluate",
    "composer.variation.variation_values.evaluate",
    "composer.variation.distributions.Uniform",
    "composer.variation.distributions.UniformInteger",
    "composer.variation.distributions.UniformChoice",
    "composer.variation.distributions.UniformPointOnSphere",
    "composer.variation.distributions.Normal",
    "composer.variation.distributions.LogNormal",
    "composer.variation.distributions.Exponential",
    "composer.variation.distributions.Poisson",
    "composer.variation.distributions.Bernoulli",
    "composer.variation.distributions.BiasedRandomWalk",
    "composer.variation.noises.Additive",
    "composer.variation.noises.Multiplicative",
    "composer.variation.colors.RgbVariation",
    "composer.variation.colors.HsvVariation",
    "composer.variation.colors.GrayVariation",
    "composer.variation.rotations.UniformQuaternion",
    "composer.variation.rotations.QuaternionFromAxisAngle",
    "composer.variation.rotations.QuaternionPreMultiply",
    "composer.variation.rotations.QuaternionRotate",
    "composer.variation.deterministic.Constant",
    "composer.variation.deterministic.Sequence",
    "composer.variation.deterministic.Identity",
)
def test_variations_draw_as_dm_control(differential):
    differential.assert_same(VARIATIONS, "composer_variations", rtol=1e-12, atol=1e-12)


@pytest.mark.dm_control_api(
    "composer.variation.MJCFVariator",
    "composer.variation.MJCFVariator.bind_attributes",
    "composer.variation.MJCFVariator.apply_variations",
    "composer.variation.MJCFVariator.clear",
    "composer.variation.PhysicsVariator",
    "composer.variation.PhysicsVariator.bind_attributes",
    "composer.variation.PhysicsVariator.apply_variations",
    "composer.variation.PhysicsVariator.clear",
)
def test_variators_match_dm_control_over_episodes(differential):
    # MjSpec keeps a geom's rgba in float32 where dm_control's MJCF element keeps the
    # float64 drawn (both compile to float32): hence the tolerance.
    differential.assert_same(VARIATORS, "composer_variators", rtol=1e-7, atol=1e-7)


EVALUATE_PASSES_WHAT_IT_IS_GIVEN = """
import numpy as np
from dm_control.composer import variation
from dm_control.composer.variation import distributions

random_state = np.random.RandomState(3)
# A plain function of the random state, given only `random_state=`.
record("keyword", variation.evaluate(lambda random_state: random_state.uniform(),
                                     random_state=random_state))
# Given positionally, a function gets it positionally...
record("positional", variation.evaluate(lambda rs: rs.randint(100), random_state))
# ...and a Variation takes it as its initial value, drawing from NumPy's stream.
np.random.seed(7)
record("variation_positional", variation.evaluate(distributions.Uniform(0, 1), random_state))
record("structure", variation.evaluate(
    {"b": lambda random_state: random_state.uniform(), "a": (1, lambda random_state: 2)},
    random_state=random_state))
try:
    variation.evaluate(lambda random_state: 0, 1, random_state=random_state)
except TypeError as error:
    record("both", "TypeError")
"""


@pytest.mark.dm_control_api("composer.variation.evaluate")
def test_evaluate_passes_callables_only_the_arguments_it_is_given(differential):
    differential.assert_same(EVALUATE_PASSES_WHAT_IT_IS_GIVEN, "variation_evaluate_arguments")
