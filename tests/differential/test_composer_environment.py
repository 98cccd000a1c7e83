"""composer.Environment against dm_control's: episode ends by physics time, the
callback order through a task and two entities with extra hooks, step types,
rewards and discounts at episode ends, specs, and the constructor's arguments."""

import pytest

PROGRAM = """
import numpy as np
from dm_control import composer, mjcf
from dm_control.composer.observation import observable

calls = []

class Box(composer.Entity):
    def _build(self, name):
        self._model = mjcf.RootElement(model=name)
        body = self._model.worldbody.add('body', name='b')
        self._joint = body.add('joint', name='slide', type='slide', axis=[1, 0, 0])
        body.add('geom', type='box', size=[0.1, 0.1, 0.1], mass=1.0)
        self._model.actuator.add('motor', name='m', joint=self._joint, ctrlrange=[-1, 1], ctrllimited=True)
    @property
    def mjcf_model(self):
        return self._model
    def initialize_episode_mjcf(self, random_state):
        calls.append(self._model.model + '.initialize_episode_mjcf')
    def after_compile(self, physics, random_state):
        calls.append(self._model.model + '.after_compile')
    def initialize_episode(self, physics, random_state):
        calls.append(self._model.model + '.initialize_episode')
    def before_step(self, physics, random_state):
        calls.append(self._model.model + '.before_step')
    def before_substep(self, physics, random_state):
        calls.append(self._model.model + '.before_substep')
    def after_substep(self, physics, random_state):
        calls.append(self._model.model + '.after_substep')
    def after_step(self, physics, random_state):
        calls.append(self._model.model + '.after_step')

class Arena(composer.Arena):
    def _build(self, name='arena'):
        super()._build(name=name)

class TimedTask(composer.Task):
    def __init__(self, physics_timestep, control_timestep, discount=1.0, hooks=True):
        self._arena = Arena()
        self._boxes = [Box('one'), Box('two')] if hooks else []
        for box in self._boxes:
            self._arena.attach(box)
        self.set_timesteps(control_timestep, physics_timestep)
        self._discount = discount
        self._hooks = hooks
    @property
    def root_entity(self):
        return self._arena
    def get_reward(self, physics):
        return float(physics.data.time)
    def get_discount(self, physics):
        return self._discount
    def initialize_episode_mjcf(self, random_state):
        if self._hooks: calls.append('task.initialize_episode_mjcf')
    def after_compile(self, physics, random_state):
        if self._hooks: calls.append('task.after_compile')
    def initialize_episode(self, physics, random_state):
        if self._hooks: calls.append('task.initialize_episode')
    def before_step(self, physics, action, random_state):
        if self._hooks: calls.append('task.before_step')
        super().before_step(physics, action, random_state)
    def before_substep(self, physics, action, random_state):
        if self._hooks: calls.append('task.before_substep')
    def after_substep(self, physics, random_state):
        if self._hooks: calls.append('task.after_substep')
    def after_step(self, physics, random_state):
        if self._hooks: calls.append('task.after_step')

# Episode lengths under the float-time rule.
for physics_timestep, control_timestep, time_limit in [
        (0.002, 0.02, 2.0), (0.005, 0.02, 2.0), (0.01, 0.02, 2.0), (0.02, 0.02, 2.0),
        (0.001, 0.03, 1.0), (0.003, 0.03, 0.9), (0.004, 0.02, 0.3), (0.002, 0.01, 0.7)]:
    env = composer.Environment(TimedTask(physics_timestep, control_timestep, discount=0.5, hooks=False),
                               time_limit=time_limit, random_state=0)
    for episode in range(2):
        timestep = env.reset()
        steps = 0
        while not timestep.last():
            timestep = env.step(np.zeros(0))
            steps += 1
        key = f'length/{physics_timestep}/{control_timestep}/{time_limit}/{episode}'
        record(key + '/steps', steps)
        record(key + '/final_discount', timestep.discount)
        record(key + '/final_reward', timestep.reward)

# The callback order through a task and two entities, with extra hooks.
calls.clear()
env = composer.Environment(TimedTask(0.01, 0.03), time_limit=0.06, random_state=3)
record('construction_calls', list(calls))
for name in ('initialize_episode_mjcf', 'after_compile', 'initialize_episode', 'before_step',
             'before_substep', 'after_substep', 'after_step'):
    env.add_extra_hook(name, lambda *args, name=name: calls.append('extra.' + name + f'/{len(args)}'))
check('bad_hook_name', env.add_extra_hook, 'nope', lambda: None)
check('bad_hook_callable', env.add_extra_hook, 'after_step', 3)
for episode in range(2):
    calls.clear()
    timestep = env.reset()
    record(f'reset_calls/{episode}', list(calls))
    record(f'reset/{episode}/step_type', int(timestep.step_type))
    record(f'reset/{episode}/reward', timestep.reward)
    record(f'reset/{episode}/discount', timestep.discount)
    step = 0
    while True:
        calls.clear()
        timestep = env.step(np.full(2, 0.3))
        record(f'step_calls/{episode}/{step}', list(calls))
        record(f'step/{episode}/{step}', [int(timestep.step_type), timestep.reward, timestep.discount])
        step += 1
        if timestep.last():
            break
calls.clear()
timestep = env.step(np.zeros(2))
record('step_after_last_calls', list(calls))
record('step_after_last_type', int(timestep.step_type))

record('action_spec', env.action_spec())
record('action_spec_name', env.action_spec().name)
record('reward_spec', env.reward_spec())
record('discount_spec', env.discount_spec())
record('task_reward_spec', env.task.get_reward_spec())
record('task_discount_spec', env.task.get_discount_spec())
check('step_spec_without_task_specs', env.step_spec)
record('observation_spec', env.observation_spec())
record('control_timestep', env.control_timestep())
record('random_state_type', type(env.random_state).__name__)
record('physics_time', env.physics.data.time)
record('has_task_random', hasattr(env.task, 'random'))

# Keyword arguments and their defaults.
import inspect
signature = inspect.signature(composer.Environment.__init__)
record('environment_defaults', {name: repr(p.default) for name, p in signature.parameters.items()
                                if name in ('time_limit', 'random_state', 'n_sub_steps',
                                            'raise_exception_on_physics_error',
                                            'strip_singleton_obs_buffer_dim', 'max_reset_attempts',
                                            'recompile_mjcf_every_episode', 'fixed_initial_state',
                                            'delayed_observation_padding', 'legacy_step')})
record('hook_names', list(composer.HOOK_NAMES))
check('bad_padding', composer.Environment, TimedTask(0.01, 0.03, hooks=False), delayed_observation_padding=0)
"""

OPTIONS = """
import warnings
import numpy as np
from dm_control import composer, mjcf
from dm_control.composer.observation import observable
from dm_control.composer.variation import distributions, noises

class Slider(composer.Entity):
    def _build(self):
        self._model = mjcf.RootElement(model='slider')
        body = self._model.worldbody.add('body', name='b')
        self.joint = body.add('joint', name='slide', type='slide', axis=[1, 0, 0])
        body.add('geom', type='box', size=[0.1, 0.1, 0.1], mass=1.0)
        self._model.actuator.add('motor', name='m', joint=self.joint)
    @property
    def mjcf_model(self):
        return self._model

class Task(composer.Task):
    def __init__(self, failures=0):
        self._arena = composer.Arena()
        self._slider = Slider()
        self._arena.attach(self._slider)
        self.set_timesteps(0.01, 0.002)
        self._obs = {'x': observable.MJCFFeature('qpos', self._slider.joint,
                                                 corruptor=noises.Additive(distributions.Normal(scale=0.1)))}
        self._obs['x'].enabled = True
        self.failures = failures
        self.attempts = 0
        self.mjcf_calls = 0
    @property
    def root_entity(self):
        return self._arena
    @property
    def task_observables(self):
        return self._obs
    def initialize_episode_mjcf(self, random_state):
        self.mjcf_calls += 1
    def initialize_episode(self, physics, random_state):
        self.attempts += 1
        if self.attempts <= self.failures:
            raise composer.EpisodeInitializationError('no luck')
        physics.bind(self._slider.joint).qpos = random_state.uniform(-1, 1)
    def get_reward(self, physics):
        return float(physics.bind(self._slider.joint).qpos[0])

def episodes(label, env, count=3, steps=3):
    for episode in range(count):
        timestep = env.reset()
        values = [timestep.observation['x']]
        for _ in range(steps):
            timestep = env.step(np.array([1.0]))
            values.append(timestep.observation['x'])
        record(f'{label}/{episode}', np.array(values))
    record(f'{label}/next', env.random_state.uniform())

episodes('fixed', composer.Environment(Task(), random_state=4, fixed_initial_state=True))
task = Task()
episodes('compile_once', composer.Environment(task, random_state=4, recompile_mjcf_every_episode=False))
record('compile_once/mjcf_calls', task.mjcf_calls)
task = Task(failures=2)
episodes('retries', composer.Environment(task, random_state=4, max_reset_attempts=3), count=1)
record('retries/attempts', task.attempts)
task = Task(failures=2)
env = composer.Environment(task, random_state=4, max_reset_attempts=2)
check('retries_exhausted', env.reset)
record('retries_exhausted/attempts', task.attempts)
with warnings.catch_warnings():
    warnings.simplefilter('ignore')
    env = composer.Environment(Task(), random_state=4, n_sub_steps=3, time_limit=0.05)
record('n_sub_steps/control_timestep', env.control_timestep())
# Its episodes are left out: dm_control's observation updater keeps the task's
# physics_steps_per_control_step, so its observations lag (docs/porting_from_dm_control.md).
env = composer.Environment(Task(), random_state=4, strip_singleton_obs_buffer_dim=True,
                           delayed_observation_padding=composer.ObservationPadding.INITIAL_VALUE)
episodes('strip_initial', env, count=2)
"""

NAMESPACE = """
import numpy as np
from dm_control import composer
from dm_control.composer import initializers, observation, variation
from dm_control.composer.observation import observable
from dm_control.composer.variation import colors, deterministic, distributions, noises, rotations

NAMES = {
    composer: ['Arena', 'Entity', 'Environment', 'EpisodeInitializationError', 'FreePropObservableMixin',
               'HOOK_NAMES', 'Initializer', 'ModelWrapperEntity', 'NullTask', 'ObservationPadding',
               'Observables', 'Robot', 'SENSOR_SITES_GROUP', 'Task', 'cached_property', 'observable',
               'variation'],
    initializers: ['PropPlacer', 'ToolCenterPointInitializer', 'prop_initializer', 'tcp_initializer', 'utils'],
    observation: ['Buffer', 'DEFAULT_BUFFER_SIZE', 'DEFAULT_DELAY', 'DEFAULT_UPDATE_INTERVAL', 'Updater',
                  'obs_buffer', 'observable', 'updater'],
    observable: ['Generic', 'MJCFCamera', 'MJCFFeature', 'MujocoCamera', 'MujocoFeature', 'Observable'],
    variation: ['MJCFVariator', 'PhysicsVariator', 'Variation', 'evaluate', 'variation_values', 'base',
                'colors', 'deterministic', 'distributions', 'noises', 'rotations'],
    distributions: ['Bernoulli', 'BiasedRandomWalk', 'Distribution', 'Exponential', 'LogNormal', 'Normal',
                    'Poisson', 'Uniform', 'UniformChoice', 'UniformInteger', 'UniformPointOnSphere', 'evaluate'],
    deterministic: ['Constant', 'Identity', 'Sequence', 'evaluate'],
    noises: ['Additive', 'Multiplicative'],
    colors: ['GrayVariation', 'HsvVariation', 'RgbVariation'],
    rotations: ['IDENTITY_QUATERNION', 'QuaternionFromAxisAngle', 'QuaternionPreMultiply', 'QuaternionRotate',
                'UniformQuaternion'],
}
for module, names in NAMES.items():
    for name in names:
        record(f'{module.__name__.split(".")[-1]}.{name}', hasattr(module, name))
record('hook_names', list(composer.HOOK_NAMES))
record('sensor_sites_group', composer.SENSOR_SITES_GROUP)

class Thing(composer.Entity):
    def _build(self):
        from dm_control import mjcf
        self._model = mjcf.RootElement(model='thing')
        self._model.worldbody.add('geom', size=[0.1])
    @property
    def mjcf_model(self):
        return self._model

task = composer.NullTask(Thing())
env = composer.Environment(task, time_limit=0.01, random_state=0)
timestep = env.reset()
record('null_task_first', [int(timestep.step_type), dict(timestep.observation)])
timestep = env.step(np.zeros(0))
record('null_task_step', [int(timestep.step_type), timestep.reward, timestep.discount])
record('null_task_root', task.root_entity is task._root_entity)

class Cached:
    calls = 0
    @composer.cached_property
    def value(self):
        Cached.calls += 1
        return [1, 2]
cached = Cached()
record('cached_property', [cached.value is cached.value, Cached.calls])
check('robot_abstract', composer.Robot)
check('initializer_abstract', composer.Initializer)
"""


@pytest.mark.dm_control_api(
    "composer.Environment",
    "composer.Environment.reset",
    "composer.Environment.step",
    "composer.Environment.add_extra_hook",
    "composer.Environment.action_spec",
    "composer.Environment.observation_spec",
    "composer.Environment.reward_spec",
    "composer.Environment.discount_spec",
    "composer.Environment.step_spec",
    "composer.Task.get_reward_spec",
    "composer.Task.get_discount_spec",
    "composer.Environment.control_timestep",
    "composer.Environment.random_state",
    "composer.HOOK_NAMES",
    "composer.Task.set_timesteps",
    "composer.Task.before_step",
    "composer.Entity.before_step",
    "composer.Arena",
)
def test_environment_lifecycle_matches_dm_control(differential):
    differential.assert_same(PROGRAM, "composer_environment", rtol=1e-12, atol=1e-12)


@pytest.mark.dm_control_api(
    "composer.NullTask",
    "composer.Robot",
    "composer.Initializer",
    "composer.FreePropObservableMixin",
    "composer.SENSOR_SITES_GROUP",
    "composer.cached_property",
    "composer.HOOK_NAMES",
    "composer.variation.distributions.Distribution",
)
def test_composer_namespace_matches_dm_control(differential):
    differential.assert_same(NAMESPACE, "composer_namespace")


@pytest.mark.dm_control_api(
    "composer.Environment",
    "composer.EpisodeInitializationError",
    "composer.ObservationPadding",
)
def test_environment_options_match_dm_control(differential):
    # fixed_initial_state, recompile_mjcf_every_episode, max_reset_attempts,
    # n_sub_steps, strip_singleton_obs_buffer_dim with INITIAL_VALUE padding.
    differential.assert_same(OPTIONS, "composer_environment_options", rtol=1e-12, atol=1e-12)


ACTIONS = """
import numpy as np
from dm_control import composer, mjcf, suite
from dm_control.rl import control

class Slider(composer.Entity):
    def _build(self, limited):
        self._model = mjcf.RootElement(model='slider')
        body = self._model.worldbody.add('body', name='b')
        self.joint = body.add('joint', name='slide', type='slide', axis=[1, 0, 0])
        body.add('geom', type='box', size=[0.1, 0.1, 0.1], mass=1.0)
        if limited:
            self._model.actuator.add('motor', name='m', joint=self.joint, ctrlrange=[-1, 1],
                                     ctrllimited=True)
        else:
            self._model.actuator.add('motor', name='m', joint=self.joint)
    @property
    def mjcf_model(self):
        return self._model

class Task(composer.Task):
    def __init__(self, limited=True):
        self._arena = composer.Arena()
        self._slider = Slider(limited)
        self._arena.attach(self._slider)
        self.set_timesteps(0.01, 0.002)
    @property
    def root_entity(self):
        return self._arena
    def get_reward(self, physics):
        return float(physics.bind(self._slider.joint).qpos[0])

def outcome(env, action):
    try:
        timestep = env.step(action)
    except Exception as error:
        # Here the error is also a ValueError (composer.InvalidActionError).
        return ['raised', isinstance(error, control.PhysicsError)]
    values = [int(timestep.step_type), timestep.reward, timestep.discount,
              env.physics.data.ctrl.tolist()]
    # After a step ended by a physics error the state differs: dm_control stops at the
    # substep that warned, this project after the control step's substeps.
    return values if timestep.last() else values + [env.physics.data.qpos.tolist()]

for limited in (True, False):
    for raise_errors in (True, False):
        for action in (3.0, -1.5, 2e10, np.nan, np.inf):
            env = composer.Environment(Task(limited), random_state=0,
                                       raise_exception_on_physics_error=raise_errors)
            env.reset()
            env.step(np.array([0.5]))
            key = f'composer/{limited}/{raise_errors}/{action}'
            record(key, outcome(env, np.array([action])))

# The Control Suite: an out-of-bounds action is written as given.
env = suite.load('cartpole', 'balance', task_kwargs={'random': 1})
env.reset()
for action in (5.0, -3.0, 0.25):
    record(f'suite/{action}', outcome(env, np.array([action])))
record('suite/nan', outcome(env, np.array([np.nan]))[:3])
"""


@pytest.mark.dm_control_api("composer.Environment.step", "suite.load")
def test_actions_outside_the_bounds_and_bad_controls_match_dm_control(differential):
    # Out-of-bounds actions are stepped as given (MuJoCo limits control-limited
    # actuators); NaN, infinite and beyond-mjMAXVAL controls raise an error that is a
    # PhysicsError, or end the episode with raise_exception_on_physics_error=False.
    differential.assert_same(ACTIONS, "composer_environment_actions", rtol=1e-12, atol=1e-12)


# The arena of the model-edit programs: a box on the world body, a free ball above.
_BOX_AND_BALL = """
import numpy as np
from dm_control import composer, mjcf, suite

class Arena(composer.Arena):
    def _build(self):
        super()._build()
        self.box = self.mjcf_model.worldbody.add('geom', name='box', type='box',
                                                 size=[0.1, 0.1, 0.1], rgba=[1, 0, 0, 1])
        body = self.mjcf_model.worldbody.add('body', name='ball', pos=[0, 0, 1])
        body.add('freejoint')
        self.ball = body.add('geom', name='ball_geom', type='sphere', size=[0.05], mass=1.0)
"""


MODEL_EDITS = (
    _BOX_AND_BALL
    + """

class Scaling(composer.Task):
    # Domain randomisation written as edits of the model in a callback.
    def __init__(self):
        self._arena = Arena()
    @property
    def root_entity(self):
        return self._arena
    def initialize_episode(self, physics, random_state):
        record(f'{recompile}/seen/{len(seen)}', [float(physics.bind(self._arena.box).size[0]),
                                     float(physics.model.opt.gravity[2]),
                                     float(physics.model.geom_rgba[0][0]),
                                     float(physics.model.dof_damping[0]),
                                     float(physics.model.body_mass[1])])
        seen.append(None)
        physics.bind(self._arena.box).size *= 2
        physics.model.opt.gravity[2] *= 0.5
        physics.model.geom_rgba[0][0] *= 0.5
        physics.model.dof_damping[:] += 1
        physics.model.body_mass[1] *= random_state.uniform(0.5, 2.0)
    def get_reward(self, physics):
        return 0.0

for recompile in (True, False):
    seen = []
    env = composer.Environment(Scaling(), random_state=0,
                               recompile_mjcf_every_episode=recompile)
    # An edit before the first reset.
    env.physics.model.opt.gravity[2] = -1.0
    for episode in range(3):
        env.reset()
        env.step(np.zeros(0))
        record(f'{recompile}/{episode}/ball_z', env.physics.data.qpos[2])
    env.physics.model.opt.gravity[2] = -2.0
    env.reset()
    record(f'{recompile}/gravity_after_edit_and_reset', env.physics.model.opt.gravity[2])

# The Control Suite's environment never recompiles: an edit lasts.
env = suite.load('cartpole', 'balance', task_kwargs={'random': 1})
env.reset()
env.physics.model.body_mass[2] *= 3.0
env.physics.model.opt.gravity[2] = -5.0
env.reset()
record('suite/kept', [env.physics.model.body_mass[2], env.physics.model.opt.gravity[2]])
"""
)


@pytest.mark.dm_control_api("composer.Environment.reset")
def test_model_edits_last_one_episode_as_dm_control_recompiles(differential):
    # dm_control's Composer compiles a new model at every reset (by default): what a
    # callback wrote into physics.model is gone at the next episode (here the
    # compiled values are put back), and the Control Suite's environment keeps it.
    differential.assert_same(MODEL_EDITS, "composer_model_edits", rtol=1e-12, atol=1e-12)


OUTSIDE_EDITS = (
    _BOX_AND_BALL
    + """

class Plain(composer.Task):
    # No initialize_episode_mjcf callback: the edits below are the program's.
    def __init__(self):
        self.arena = Arena()
    @property
    def root_entity(self):
        return self.arena
    def get_reward(self, physics):
        return 0.0

for recompile in (True, False):
    task = Plain()
    env = composer.Environment(task, random_state=0, recompile_mjcf_every_episode=recompile)
    env.reset()
    # A curriculum between episodes, through the MJCF handles.
    task.arena.box.size = [0.3, 0.3, 0.3]
    task.arena.ball.mass = 2.0
    task.arena.mjcf_model.option.gravity = [0, 0, -3.0]
    env.reset()
    record(f'{recompile}/edited', [env.physics.model.geom_size[0], env.physics.model.body_mass[1],
                                   env.physics.model.opt.gravity])
    task.arena.mjcf_model.worldbody.add('geom', name='extra', type='sphere', size=[0.2],
                                        pos=[1, 0, 0])
    env.reset()
    record(f'{recompile}/added', env.physics.model.ngeom)
"""
)


@pytest.mark.dm_control_api("composer.Environment.reset")
def test_mjcf_edits_between_episodes_take_effect_at_the_next_reset(differential):
    # dm_control recompiles at every reset (by default): an MJCF edit made between
    # episodes, outside any callback, is in the next episode's model.
    differential.assert_same(OUTSIDE_EDITS, "composer_outside_edits", rtol=1e-12, atol=1e-12)


BOWL_WITHOUT_REGENERATE = """
import numpy as np
from dm_control import composer
from dm_control.locomotion.arenas import bowl

class Plain(composer.Task):
    # Never asks the bowl for a new terrain.
    def __init__(self):
        self._arena = bowl.Bowl()
    @property
    def root_entity(self):
        return self._arena
    def get_reward(self, physics):
        return 0.0

for recompile in (True, False):
    env = composer.Environment(Plain(), random_state=0, recompile_mjcf_every_episode=recompile)
    for episode in range(3):
        env.reset()
        record(f'{recompile}/{episode}', env.physics.model.hfield_data[::401])
"""


@pytest.mark.dm_control_api("locomotion.arenas.Bowl.initialize_episode")
def test_a_bowl_nobody_regenerates_is_flat_after_a_recompiling_reset(differential):
    # The first episode draws a terrain; a recompiling reset empties the heightfield
    # and nothing draws again; without recompiles the terrain stays.
    differential.assert_same(
        BOWL_WITHOUT_REGENERATE, "composer_bowl_no_regenerate", rtol=1e-6, atol=1e-7
    )


OBSERVATION_TYPES = """
import collections
import numpy as np
from dm_control import composer, suite
from dm_control.composer.observation import observable, updater
from dm_control.locomotion.arenas import floors
from dm_control.locomotion.tasks import go_to_target
from dm_control.locomotion.walkers import ant

np.set_printoptions(precision=4)
env = suite.load('cartpole', 'balance', task_kwargs={'random': 0})
timestep = env.reset()
record('suite_type', type(timestep.observation).__name__)
record('suite_repr', repr(timestep))
record('suite_step_repr', repr(env.step([0.1])))
task = go_to_target.GoToTarget(walker=ant.Ant(), arena=floors.Floor())
composer_env = composer.Environment(task, random_state=1)
record('composer_type', type(composer_env.reset().observation).__name__)
record('composer_step_type', type(composer_env.step(np.zeros(8)).observation).__name__)
# The updater gives the type of mapping it was given.
physics = composer_env.physics
for kind in (dict, collections.OrderedDict):
    items = kind([('time', observable.Generic(lambda physics: physics.data.time))])
    direct = updater.Updater(items, physics_steps_per_control_step=2)
    direct.reset(physics, np.random.RandomState(0))
    record(f'updater_{kind.__name__}', type(direct.get_observation()).__name__)
"""


@pytest.mark.dm_control_api("composer.Environment", "composer.observation.Updater")
def test_observations_are_ordered_dicts_as_in_dm_control(differential):
    # dm_control's suite tasks and composer's updater return OrderedDicts (a printed
    # TimeStep shows OrderedDict([...])); here they were plain dicts.
    differential.assert_same(OBSERVATION_TYPES, "observation_types", rtol=1e-12, atol=1e-12)
