"""Observables against dm_control's: the order of an entity's observables and of
the observation, observation keys, and buffering, delays, update intervals,
aggregators, corruptors, `strip_singleton_obs_buffer_dim` and `ObservationPadding`
across several episodes, with the random draws they make in dm_control's order."""

import pytest

ORDER = """
import collections
import numpy as np
from dm_control import composer, mjcf
from dm_control.composer.observation import observable

class Obs(composer.Observables):
    @composer.observable
    def zeta(self):
        return observable.Generic(lambda physics: np.zeros(1))
    @composer.observable
    def Alpha(self):
        return observable.Generic(lambda physics: np.ones(2))
    @composer.observable
    def beta(self):
        return observable.MJCFFeature('xpos', self._entity.mjcf_model.find('body', 'b'))

class Thing(composer.Entity):
    def _build(self, name):
        self._model = mjcf.RootElement(model=name)
        body = self._model.worldbody.add('body', name='b')
        body.add('geom', size=[0.1])
    def _build_observables(self):
        return Obs(self)
    @property
    def mjcf_model(self):
        return self._model

class Task(composer.Task):
    def __init__(self):
        self._root = Thing('root')
        self._a = Thing('a')
        self._b = Thing('b')
        self._root.attach(self._a)
        self._a.attach(self._b)
        for entity in (self._root, self._a, self._b):
            entity.observables.enable_all()
        self._task_obs = collections.OrderedDict(
            [('z_task', observable.Generic(lambda physics: np.zeros(1))),
             ('a_task', observable.Generic(lambda physics: np.zeros(1)))])
        for item in self._task_obs.values():
            item.enabled = True
    @property
    def root_entity(self):
        return self._root
    @property
    def task_observables(self):
        return self._task_obs
    def get_reward(self, physics):
        return 0.0

task = Task()
record('entity_order', list(task._a.observables.as_dict(fully_qualified=False)))
record('qualified', list(task._a.observables.as_dict()))
record('root_qualified', list(task._root.observables.as_dict()))
record('nested_qualified', list(task._b.observables.as_dict()))
record('dict_keys', [task._b.observables.dict_keys.zeta, task._root.observables.dict_keys.beta])
record('get_observable', task._a.observables.get_observable('a/zeta', name_fully_qualified=True)
       is task._a.observables.get_observable('zeta'))
record('task_order', list(task.observables))
env = composer.Environment(task, random_state=0)
record('spec_order', list(env.observation_spec()))
record('observation', dict(env.reset().observation))
task._a.observables.set_options({'buffer_size': 2})
record('options_for_all', [item.buffer_size for item in task._a.observables.as_dict().values()])
check('unknown_name', task._a.observables.set_options, {'nope': {'buffer_size': 2}})
check('unknown_option', task._a.observables.set_options, {'zeta': {'nope': 2}})
task._b.observables.set_options(None)
"""

OPTIONS = """
import numpy as np
from dm_control import composer, mjcf
from dm_control.composer import variation
from dm_control.composer.observation import observable
from dm_control.composer.variation import distributions, noises

class Slider(composer.Entity):
    def _build(self):
        self._model = mjcf.RootElement(model='slider')
        body = self._model.worldbody.add('body', name='b')
        self._joint = body.add('joint', name='slide', type='slide', axis=[1, 0, 0])
        body.add('geom', type='box', size=[0.1, 0.1, 0.1], mass=1.0)
        self._model.actuator.add('motor', name='m', joint=self._joint)
    @property
    def mjcf_model(self):
        return self._model
    @property
    def joint(self):
        return self._joint

class Task(composer.Task):
    def __init__(self, options):
        self._arena = composer.Arena()
        self._slider = Slider()
        self._arena.attach(self._slider)
        self.set_timesteps(0.01, 0.002)
        self._obs = {}
        for name, kwargs in options:
            self._obs[name] = observable.Generic(lambda physics: np.array([physics.data.time, physics.data.qpos[0]]), **kwargs)
            self._obs[name].enabled = True
        self._obs['feature'] = observable.MJCFFeature('qpos', self._slider.joint)
        self._obs['feature'].enabled = True
    @property
    def root_entity(self):
        return self._arena
    @property
    def task_observables(self):
        return self._obs
    def initialize_episode(self, physics, random_state):
        physics.bind(self._slider.joint).qpos = random_state.uniform(-1, 1)
    def get_reward(self, physics):
        return 0.0

def run(label, options, episodes=3, steps=4, **env_kwargs):
    env = composer.Environment(Task(options), random_state=7, **env_kwargs)
    record(label + '/spec', env.observation_spec())
    for episode in range(episodes):
        timestep = env.reset()
        record(f'{label}/{episode}/reset', dict(timestep.observation))
        for step in range(steps):
            timestep = env.step(np.array([0.5]))
            record(f'{label}/{episode}/{step}', dict(timestep.observation))
        record(f'{label}/{episode}/next_draw', env.random_state.uniform())

run('plain', [('a', {})])
run('buffered', [('a', dict(buffer_size=3)), ('b', dict(buffer_size=7))])
run('delayed', [('a', dict(delay=2)), ('b', dict(delay=3, buffer_size=2)), ('c', dict(delay=7, buffer_size=3))])
run('delayed_initial', [('a', dict(delay=2)), ('b', dict(delay=3, buffer_size=2))],
    delayed_observation_padding=composer.ObservationPadding.INITIAL_VALUE)
run('interval', [('a', dict(update_interval=2)), ('b', dict(update_interval=3, buffer_size=4)), ('c', dict(update_interval=7, buffer_size=2, delay=1))])
run('aggregated', [('a', dict(buffer_size=5, aggregator='mean')), ('b', dict(buffer_size=3, aggregator='max')),
                   ('c', dict(buffer_size=3, aggregator='sum')), ('d', dict(buffer_size=2, aggregator='min'))])
run('stripped', [('a', {}), ('b', dict(buffer_size=2))], strip_singleton_obs_buffer_dim=True)
run('corrupted', [('a', dict(corruptor=noises.Additive(distributions.Normal(scale=0.1)))),
                  ('b', dict(buffer_size=3, corruptor=noises.Multiplicative(distributions.Uniform(0.9, 1.1))))])
run('corrupted_delayed', [('a', dict(delay=2, buffer_size=2, corruptor=noises.Additive(distributions.Uniform(-1, 1))))])
run('random_delay', [('a', dict(delay=distributions.UniformInteger(0, 3), buffer_size=2))])
run('random_interval', [('a', dict(update_interval=distributions.UniformInteger(1, 4), buffer_size=2))])
"""

SCHEDULES = """
import collections
import numpy as np
from dm_control import composer, mjcf
from dm_control.composer.observation import observable

class World(composer.Arena):
    pass

class Counter(composer.Task):
    def __init__(self, substeps, **options):
        self._root = World()
        self.set_timesteps(float(substeps), 1.0)
        self.evaluated_at = []
        self._observables = collections.OrderedDict(
            counter=observable.Generic(self._read, **options))
        self._observables['counter'].enabled = True
    def _read(self, physics):
        self.evaluated_at.append(physics.time())
        return physics.time()
    @property
    def root_entity(self):
        return self._root
    @property
    def task_observables(self):
        return self._observables
    def get_reward(self, physics):
        return 0.0

def private(seed, low, high):
    draws = np.random.RandomState(seed)
    return lambda: draws.randint(low, high)

for seed in range(40):
    rng = np.random.RandomState(seed)
    substeps = int(rng.choice([1, 2, 3, 5]))
    buffer_size = int(rng.randint(1, 5))
    interval = private(1000 + seed, 1, 5) if rng.rand() < 0.5 else int(rng.randint(1, 5))
    delay = private(2000 + seed, 0, 7) if rng.rand() < 0.5 else int(rng.randint(0, 7))
    task = Counter(substeps, update_interval=interval, buffer_size=buffer_size, delay=delay)
    env = composer.Environment(task, random_state=0)
    observations = [env.reset().observation['counter']]
    for _ in range(12):
        observations.append(env.step(np.zeros(0)).observation['counter'])
    record(f'{seed}/observations', np.array(observations))
    record(f'{seed}/evaluated', sorted(set(t for t in task.evaluated_at if t > 0)))
"""

BUFFERS = """
import collections
import numpy as np
from dm_control.composer import observation
from dm_control.composer.observation import obs_buffer

record('defaults', [observation.DEFAULT_BUFFER_SIZE, observation.DEFAULT_UPDATE_INTERVAL, observation.DEFAULT_DELAY])
rng = np.random.RandomState(0)
for case in range(30):
    size = int(rng.randint(1, 4))
    pad = bool(rng.rand() < 0.5)
    strip = bool(rng.rand() < 0.5)
    buffer = obs_buffer.Buffer(size, (2,), np.float64, pad_with_initial_value=pad, strip_singleton_buffer_dim=strip)
    record(f'{case}/shape', list(buffer.shape))
    reads = []
    for t in range(12):
        if rng.rand() < 0.7:
            buffer.insert(t, int(rng.randint(0, 4)), np.array([t, t * 10.0]))
        if t % 3 == 0:
            reads.append(buffer.read(t))
    record(f'{case}/reads', reads)
    schedule = collections.deque((t, int(rng.randint(0, 4))) for t in range(13, 20))
    buffer.drop_unobserved_upcoming_items(schedule, 3)
    record(f'{case}/kept', list(schedule))
check('negative_delay', obs_buffer.Buffer(1, 2, np.float64).insert, 0, -1, np.zeros(2))
"""


@pytest.mark.dm_control_api(
    "composer.Observables",
    "composer.Observables.as_dict",
    "composer.Observables.dict_keys",
    "composer.Observables.get_observable",
    "composer.Observables.set_options",
    "composer.Observables.enable_all",
    "composer.observable",
    "composer.Task.observables",
    "composer.Task.task_observables",
)
def test_observable_order_and_keys_match_dm_control(differential):
    differential.assert_same(ORDER, "composer_observable_order")


@pytest.mark.dm_control_api(
    "composer.observation.Updater",
    "composer.observation.observable.Generic",
    "composer.observation.observable.MJCFFeature",
    "composer.ObservationPadding",
    "composer.variation.noises.Additive",
    "composer.variation.noises.Multiplicative",
)
def test_observable_options_match_dm_control_over_episodes(differential):
    differential.assert_same(OPTIONS, "composer_observable_options", rtol=1e-12, atol=1e-12)


@pytest.mark.dm_control_api("composer.observation.observable.Generic")
def test_random_schedules_match_dm_control(differential):
    differential.assert_same(SCHEDULES, "composer_observable_schedules", rtol=1e-12, atol=1e-12)


@pytest.mark.dm_control_api(
    "composer.observation.Buffer",
    "composer.observation.DEFAULT_BUFFER_SIZE",
    "composer.observation.DEFAULT_UPDATE_INTERVAL",
    "composer.observation.DEFAULT_DELAY",
)
def test_buffers_match_dm_control(differential):
    differential.assert_same(BUFFERS, "composer_obs_buffer")


AGGREGATED_TYPES = """
import numpy as np
from dm_control import composer, mjcf
from dm_control.composer.observation import observable

class Arena(composer.Arena):
    def _build(self, name='arena'):
        super()._build(name=name)
        body = self.mjcf_model.worldbody.add('body', name='ball', pos=[0, 0, 1])
        body.add('freejoint')
        body.add('geom', type='sphere', size=[0.1])

class Task(composer.Task):
    def __init__(self):
        self._arena = Arena()
        body = self._arena.mjcf_model.find('body', 'ball')
        height = lambda physics: physics.bind(body).xpos[2]
        self._observables = {
            'max': observable.Generic(height, buffer_size=3, aggregator='max'),
            'mean': observable.Generic(height, buffer_size=2, aggregator='mean'),
            'vector_sum': observable.Generic(lambda physics: physics.data.qpos[:3].copy(),
                                             buffer_size=4, aggregator='sum'),
            'count': observable.Generic(lambda physics: np.int32(physics.data.time * 1000),
                                        buffer_size=2, aggregator='median'),
            'custom_float': observable.Generic(height, buffer_size=3,
                                               aggregator=lambda b: np.float64(b[-1])),
            'custom_view': observable.Generic(lambda physics: physics.data.qpos[:2].copy(),
                                              buffer_size=3, aggregator=lambda b: b[1:]),
        }
        for item in self._observables.values():
            item.enabled = True
    @property
    def root_entity(self):
        return self._arena
    @property
    def task_observables(self):
        return self._observables
    def get_reward(self, physics):
        return 0.0

env = composer.Environment(Task(), random_state=3)
spec = env.observation_spec()
record('spec', [[key, list(spec[key].shape), str(spec[key].dtype)] for key in sorted(spec)])
timestep = env.reset()
views = []
for step in range(4):
    for key in sorted(timestep.observation):
        value = timestep.observation[key]
        record(f'{step}_{key}', [type(value).__name__, str(np.asarray(value).dtype), value])
    views.append(timestep.observation['custom_view'])
    timestep = env.step(np.zeros(0))
record('views_kept', views)
"""


@pytest.mark.dm_control_api("composer.observation.observable.Generic")
def test_aggregated_observations_have_dm_controls_types(differential):
    # A built-in aggregator's result as NumPy gives it (a np.float64 for a scalar's
    # buffer, not a 0-d array); a custom one's as it returns it, from a copy of the
    # buffer (a view it returns does not change later).
    differential.assert_same(AGGREGATED_TYPES, "composer_aggregated_types", rtol=1e-12, atol=1e-12)
