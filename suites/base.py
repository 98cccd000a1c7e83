"""What every Control Suite domain shares: the model entity, the task base, the registry."""

import collections
import sys
import functools
import inspect
from typing import Any, Callable

import mujoco
import numpy as np

from composer_tasks import composer
from composer_tasks.array_namespace import namespace
from composer_tasks import physics as physics_lib
from composer_tasks.composer.observation import observable
from composer_tasks.utils import containers
from mjcf_models import common
from suites import control

# visualize_reward blends each material of `_REWARD_MATERIALS` from its `_default`
# material's colour to its `_highlight` material's as reward**4 grows (dm_control
# suite/base.py); the suite's models carry those materials (mjcf_models.common).
_REWARD_COLOUR_EXPONENT = 4
_REWARD_MATERIALS = tuple(common.HIGHLIGHT_RGBA)
_HINGE = mujoco.mjtJoint.mjJNT_HINGE
_SLIDE = mujoco.mjtJoint.mjJNT_SLIDE


# Offsets in a row of `data.xmat` / `data.geom_xmat` / `data.site_xmat`: a frame's
# orientation as a row-major 3x3 rotation matrix R whose columns are the frame's
# axes in world coordinates. Offset AB is R[A, B], the world A component of the
# frame's B axis: ZZ is the cosine of the frame's tilt from upright, XZ the sine
# of a planar body's pitch, and ZX, ZY, ZZ (the last row) the world z axis in the
# frame's coordinates.
XX, XY, XZ, YX, YY, YZ, ZX, ZY, ZZ = range(9)


class ModelEntity(composer.Entity):
    """A whole suite model as one entity: the root of a suite task."""

    def _build(self, spec, name):
        if not isinstance(spec, mujoco.MjSpec):
            raise TypeError(f"spec must be a mujoco.MjSpec, got {type(spec).__name__}")
        # The model keeps the builder's name (dm_control's: "planar walker",
        # "cart-pole"); a spec without one is named after the domain.
        if not spec.modelname or spec.modelname == "MuJoCo Model":
            spec.modelname = name
        self._spec = spec
        self._after_task_initialized: Callable[[Any], None] | None = None

    def initialize_episode(self, physics, random_state):
        """Runs the task's end-of-initialisation step (`SuiteTask` sets the reward
        colours there): entities' callbacks run after the task's, so this comes
        after the task's `initialize_episode`, inside the reset context, where
        dm_control's `base.Task.initialize_episode` ends."""
        if self._after_task_initialized is not None:
            self._after_task_initialized(physics)


# The package of the domain modules, whose observations are written for batches.
_DOMAIN_PACKAGE = "suites."


def _declares_vectorized(cls: type) -> bool:
    """Whether `cls` or a base between it and the domain's class declares
    `vectorized_callbacks` in a class outside this project's domain modules."""
    for klass in cls.__mro__:
        if klass.__module__.startswith(_DOMAIN_PACKAGE):
            return False
        if "vectorized_callbacks" in vars(klass):
            return bool(vars(klass)["vectorized_callbacks"])
    return False


# The outcome callbacks a batch's vectorised path calls on (N, ...) arrays.
_OUTCOME_METHODS = ("get_reward", "get_discount", "should_terminate_episode", "get_outcome")


class SuiteTask(composer.Task):
    """Base of Control Suite tasks: one model, observations in a fixed key order.

    Subclasses set `physics_class`, build their model in `__init__` through
    `super().__init__(spec, name, control_timestep, random)`, and declare observations
    with `self.set_observations(name=fn_of_physics, ...)` in the published order.

    A suite task runs either way dm_control's users run one:

        env = cartpole.balance(random=3)                      # the registered factory
        physics = cartpole.Physics.from_xml_string(*cartpole.get_model_and_assets())
        env = control.Environment(physics, cartpole.Balance(False, False, random=3),
                                  time_limit=10)              # dm_control's own form

    The second form runs dm_control's control loop on the given physics (its
    `control_timestep`/`n_sub_steps`, one physics step per control step when neither
    is given, as there); the task's callbacks draw from `random`. In the first, the
    Environment's generator replaces `random` (the factory passes its seed there).

    Args (of subclasses' constructors, dm_control's `random` among them):
      random: an `np.random.RandomState`, an int seed for a new one, or None for one
        seeded by the operating system: `self.random`, which the episode's draws use.
    """

    # The task has dm_control's `control.Task` methods through `control_task()`, so
    # `control.Environment(physics, task)` runs it.
    runs_on_given_physics = True

    def __init_subclass__(cls, **kwargs):
        """Lets a subclass override the callbacks in dm_control's form as well as in
        composer's: `initialize_episode(self, physics)` and `after_step(self, physics)`
        (drawing from `self.random`), `before_step(self, action, physics)`, and
        `get_termination(self, physics)` (None, or the discount that ends the
        episode), which then decides `should_terminate_episode` and `get_discount`.
        Each runs in both Environments; `super()` calls work in either form."""
        super().__init_subclass__(**kwargs)
        own = vars(cls)
        if "initialize_episode" in own and not getattr(
            own["initialize_episode"], "_suite_form", False
        ):
            # The first class below SuiteTask to define it ends the chain of `super()`
            # calls, where dm_control's `base.Task.initialize_episode` sets the reward
            # colours of the first state: its callback sets them on returning.
            parent = getattr(super(cls, cls), "initialize_episode")
            colours = not getattr(parent, "_suite_form", False)
            setattr(
                cls, "initialize_episode", _with_random_state(own["initialize_episode"], colours)
            )
        if "after_step" in own and not getattr(own["after_step"], "_suite_form", False):
            setattr(cls, "after_step", _with_random_state(own["after_step"]))
        if "before_step" in own and not getattr(own["before_step"], "_suite_form", False):
            setattr(cls, "before_step", _before_step_either_order(own["before_step"]))
        if "get_termination" in own:
            if "should_terminate_episode" in own or "get_discount" in own:
                raise TypeError(
                    f"{cls.__name__} defines get_termination (dm_control's) and "
                    "should_terminate_episode/get_discount (composer's): define one form"
                )
            # The composer methods that `get_termination` replaces, kept for
            # `SuiteTask.get_termination` (which a `super()` call reaches).
            parent = super(cls, cls)
            cls._composer_termination = getattr(parent, "_composer_termination", None) or (
                parent.should_terminate_episode,
                parent.get_discount,
            )
            cls.should_terminate_episode = _terminates_by_get_termination
            cls.get_discount = _discount_by_get_termination
            cls.vectorized_callbacks = False
        if "get_observation" in own:
            # Observations come from `get_observation` itself; a batch cannot
            # vectorise a method of one's own.
            cls.vectorized_callbacks = False
        if "vectorized_callbacks" not in own and any(name in own for name in _OUTCOME_METHODS):
            # A reward (or termination) of one's own is not known to work on a batch's
            # (N, ...) arrays (`physics.cart_position()[0]` would read copy 0 for every
            # copy): the subclass runs copy by copy unless it declares
            # `vectorized_callbacks = True` itself.
            cls.vectorized_callbacks = False

    def __init__(self, spec, name, control_timestep=None, random=None):
        if not isinstance(random, np.random.RandomState):
            random = np.random.RandomState(random)
        self._random = random
        self._root = ModelEntity(spec, name)
        if not getattr(type(self).initialize_episode, "_suite_form", False):
            # No initialize_episode of a subclass sets the reward colours: the model
            # entity's callback, after the task's, does.
            self._root._after_task_initialized = self._set_reward_colours_at_reset
        if control_timestep is not None:
            self.set_timesteps(control_timestep, spec.option.timestep)
        self._task_observables = collections.OrderedDict()
        self._scalar_observation_keys = None
        self._visualize_reward = False
        self._reward_material_rows = []

    @property
    def root_entity(self):
        return self._root

    @property
    def task_observables(self):
        """The observations, as composer observables.

        Raises:
          TypeError: the class overrides `get_observation` (dm_control's way), whose
            keys only a physics tells: such a task runs as dm_control runs it,
            `control.Environment(physics, task)`.
        """
        if type(self).get_observation is not SuiteTask.get_observation:
            raise TypeError(
                f"{type(self).__name__} overrides get_observation, whose keys are known only "
                "from a physics: run it as dm_control does, control.Environment(physics, task)"
            )
        return self._task_observables

    @property
    def random(self):
        """The task's `np.random.RandomState` (dm_control's `Task.random`), which every
        callback of the episode draws from: the constructor's `random`, or, once
        `make_environment` made the task's Environment, that Environment's generator."""
        return self._random

    # (should_terminate_episode, get_discount) as the domain defines them, once a
    # subclass's `get_termination` decides those two (see `__init_subclass__`).
    _composer_termination = None
    _deciding_by_domain = False

    def get_termination(self, physics):
        """dm_control's `get_termination`: None while the episode goes on, else the
        discount it ends with (`get_discount`)."""
        if self._composer_termination is None:
            return self.get_discount(physics) if self.should_terminate_episode(physics) else None
        # A subclass's get_termination called this (super()): the domain's methods
        # decide, and those the subclass replaced stand for them meanwhile (a domain's
        # get_discount may call should_terminate_episode).
        self._deciding_by_domain = True
        try:
            return self.get_discount(physics) if self.should_terminate_episode(physics) else None
        finally:
            self._deciding_by_domain = False

    def before_step(self, physics, action=None, random_state=None):
        """Writes the action into the controls (composer's `before_step`); also takes
        dm_control's order, `before_step(action, physics)`, and an action with
        `continuous_actions` (dm_control's `base.Task` gives those)."""
        physics, action = _composer_order(physics, action)
        physics.set_control(getattr(action, "continuous_actions", action))

    def get_observation(self, physics):
        """The observation as dm_control's suite tasks return it: an OrderedDict of
        each observation function's value for `physics`, in the published order.

        Arrays are the caller's own (copies where a function gives a view of the
        simulation's state, as dm_control's physics quantities copy), so an
        observation kept across steps does not change."""
        observation = collections.OrderedDict()
        for name, item in self._task_observables.items():
            value = item.raw_callable(physics)
            if isinstance(value, np.ndarray):
                value = value.copy()
            observation[name] = value
        return observation

    def observation_spec(self, physics):
        """dm_control's `control.Task.observation_spec`, which suite tasks leave
        undefined (its Environment infers the spec from an observation).

        Raises:
          NotImplementedError: always, as dm_control's suite tasks raise it.
        """
        raise NotImplementedError(f"{type(self).__name__} defines no observation_spec")

    def step_spec(self, physics):
        """dm_control's `control.Task.step_spec`, which suite tasks leave undefined.

        Raises:
          NotImplementedError: always, as dm_control's suite tasks raise it.
        """
        raise NotImplementedError(f"{type(self).__name__} defines no step_spec")

    def control_task(self):
        """This task with dm_control's `control.Task` methods
        (`initialize_episode(physics)`, `before_step(action, physics)`,
        `after_step(physics)`, `get_termination(physics)`, ...), which
        `control.Environment(physics, task)` runs (see `ControlTask`)."""
        return ControlTask(self)

    def action_spec(self, physics):
        """`composer.Task.action_spec` without a name: dm_control's suite tasks give
        `mujoco.action_spec(physics)`, whose spec is unnamed."""
        spec = super().action_spec(physics)
        return spec.replace(name=None)

    def set_observations(self, **functions):
        """Declares the task's observations, enabled, in keyword order.

        Observations declared by code outside this project's domain modules (a
        subclass's `lambda physics: physics.data.qpos[0]`) are not known to work on
        a batch's (N, ...) arrays: the task then runs copy by copy, unless its
        class declares `vectorized_callbacks = True` itself.
        """
        caller = sys._getframe(1).f_globals.get("__name__", "")
        if not caller.startswith(_DOMAIN_PACKAGE) and not _declares_vectorized(type(self)):
            self.vectorized_callbacks = False
        self._task_observables = collections.OrderedDict(
            (name, observable.Generic(function, enabled=True))
            for name, function in functions.items()
        )
        self._scalar_observation_keys = None

    def scalar_observation_keys(self, physics):
        """The observations whose function gives a NumPy scalar (walker's "height",
        a np.float64) for one environment: `control.Environment` returns those as
        scalars, as dm_control's suite does, not as 0-d arrays. Found by evaluating
        each function once on `physics`, then kept (the types do not change)."""
        if self._scalar_observation_keys is None:
            self._scalar_observation_keys = tuple(
                name
                for name, item in self._task_observables.items()
                if isinstance(item.raw_callable(physics), np.generic)
            )
        return self._scalar_observation_keys

    # A domain sets this True to make `composer.Task.vectorized`'s promise for its
    # tasks (their physics quantities, observations and rewards work on a batch's
    # (N, ...) arrays); `vectorized` then holds unless visualize_reward is on. The
    # arrays are NumPy on the CPU batch and JAX on a device batch: the same code
    # serves both, calling the arrays' namespace (`composer_tasks.array_namespace`)
    # with no in-place writes and no Python branch on array values (so it traces
    # under jax.jit); tests/suites/test_vectorized_jax.py checks every such task.
    vectorized_callbacks = False

    @property
    def vectorized(self):
        """`composer.Task.vectorized`: the domain's `vectorized_callbacks`, off while
        `visualize_reward` recolours the model after every step, copy by copy."""
        return self.vectorized_callbacks and not self._visualize_reward

    @property
    def visualize_reward(self):
        return self._visualize_reward

    @visualize_reward.setter
    def visualize_reward(self, value):
        if not isinstance(value, bool):
            # ValueError, as dm_control's base.Task raises.
            raise ValueError(f"visualize_reward must be a bool, got {value!r}")
        self._visualize_reward = value

    def after_compile(self, physics, random_state=None):
        if random_state is not None:
            # The Environment's generator: the one the callbacks draw from, so a
            # subclass drawing from `self.random` (dm_control's way) follows its seed.
            self._random = random_state
        self._reward_material_rows = reward_material_rows(physics.model)

    def after_step(self, physics, random_state=None):
        if self._visualize_reward:
            set_reward_colours(physics.model, self._reward_material_rows, self.get_reward(physics))

    def _set_reward_colours_at_reset(self, physics):
        # dm_control's suite tasks end `initialize_episode` with `after_step`, so the
        # colours show the reward of the episode's first state (read before the
        # reset's closing forward pass, as there).
        if self._visualize_reward:
            set_reward_colours(physics.model, self._reward_material_rows, self.get_reward(physics))


def _positional_arity(function):
    """How many positional parameters `function` takes after `self` (None: any)."""
    parameters = list(inspect.signature(function).parameters.values())[1:]
    if any(p.kind is inspect.Parameter.VAR_POSITIONAL for p in parameters):
        return None
    return sum(
        p.kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
        for p in parameters
    )


def _with_random_state(function, sets_reward_colours=False):
    """A subclass's `initialize_episode`/`after_step`, callable as composer calls it
    (physics, random_state) and as dm_control does (physics): one written as
    dm_control's (physics only) draws from `self.random`; one written as composer's
    gets `self.random` when called without a random state. With
    `sets_reward_colours`, the reward colours follow the state it leaves."""
    arity = _positional_arity(function)
    takes_random_state = arity is None or arity >= 2

    @functools.wraps(function)
    def callback(self, physics, random_state=None):
        if takes_random_state:
            result = function(self, physics, self.random if random_state is None else random_state)
        else:
            result = function(self, physics)
        if sets_reward_colours:
            self._set_reward_colours_at_reset(physics)
        return result

    setattr(callback, "_suite_form", True)
    # Its signature is the callback's (random_state optional), not the wrapped one's.
    setattr(callback, "__signature__", inspect.signature(callback, follow_wrapped=False))
    return callback


def _composer_order(physics, action):
    """(physics, action) of a `before_step` call made in either order: composer's
    (physics, action) or dm_control's (action, physics), told by which is a Physics."""
    if not isinstance(physics, physics_lib.Physics) and isinstance(action, physics_lib.Physics):
        return action, physics
    return physics, action


def _before_step_either_order(function):
    """A subclass's `before_step`, callable as composer calls it (physics, action,
    random_state) whichever form it is written in: dm_control's (action, physics),
    told by its first parameter's name, or composer's."""
    parameters = list(inspect.signature(function).parameters)[1:]
    dm_control_form = parameters[:1] == ["action"]
    arity = _positional_arity(function)

    @functools.wraps(function)
    def before_step(self, physics, action=None, random_state=None):
        physics, action = _composer_order(physics, action)
        if dm_control_form:
            return function(self, action, physics)
        if arity is not None and arity < 3:
            return function(self, physics, action)
        return function(
            self, physics, action, self.random if random_state is None else random_state
        )

    setattr(before_step, "_suite_form", True)
    setattr(before_step, "__signature__", inspect.signature(before_step, follow_wrapped=False))
    return before_step


def _terminates_by_get_termination(self, physics):
    if self._deciding_by_domain:
        return self._composer_termination[0](self, physics)
    return self.get_termination(physics) is not None


def _discount_by_get_termination(self, physics):
    if self._deciding_by_domain:
        return self._composer_termination[1](self, physics)
    discount = self.get_termination(physics)
    return 1.0 if discount is None else discount


# The batch keeps a task on its vectorised path when its `before_step` is this one,
# which writes the action as composer.Task's does.
setattr(SuiteTask.before_step, "only_writes_the_action", True)


class ControlTask(control.Task):
    """A `SuiteTask` seen through dm_control's `control.Task` contract, which
    `control.Environment(physics, task)` runs on a physics of the caller's.

    Each call is the composer callback that dm_control's suite task makes at that
    point, with the task's `random` as the random state: `initialize_episode(physics)`
    runs the task's and then its model entity's (the reward colours of the first
    state), `before_step(action, physics)` writes the action (an object with
    `continuous_actions` gives those, as dm_control's `base.Task`), `after_step`
    recolours with `visualize_reward`, and `get_termination` is the task's discount
    when it ends the episode, else None. The first call on a physics runs the task's
    `after_compile` for it (the element ids the task caches).
    """

    def __init__(self, task):
        if not isinstance(task, SuiteTask):
            raise TypeError(f"task must be a suites.base.SuiteTask, got {type(task).__name__}")
        self._task = task
        self._compiled_for = None

    @property
    def task(self):
        """The suite task."""
        return self._task

    def _prepare(self, physics):
        if self._compiled_for is not physics.model:
            self._task.after_compile(physics, self._task.random)
            self._compiled_for = physics.model

    def initialize_episode(self, physics):
        self._prepare(physics)
        self._task.initialize_episode(physics, self._task.random)
        self._task.root_entity.initialize_episode(physics, self._task.random)

    def before_step(self, action, physics):
        self._prepare(physics)
        self._task.before_step(physics, action, self._task.random)

    def after_step(self, physics):
        self._task.after_step(physics, self._task.random)

    def action_spec(self, physics):
        return self._task.action_spec(physics)

    def get_observation(self, physics):
        self._prepare(physics)
        return self._task.get_observation(physics)

    def get_reward(self, physics):
        self._prepare(physics)
        return self._task.get_reward(physics)

    def get_termination(self, physics):
        self._prepare(physics)
        return self._task.get_termination(physics)


def reward_material_rows(model):
    """[(material, its `_default`, its `_highlight`) ids] of `model`, for each of
    "self", "effector" and "target" that it has with both companions."""
    rows = []
    for name in _REWARD_MATERIALS:
        ids = [
            mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_MATERIAL, name + suffix)
            for suffix in ("", "_default", "_highlight")
        ]
        if min(ids) >= 0:
            rows.append(tuple(ids))
    return rows


def set_reward_colours(model, rows, reward):
    """Colours each material of `rows` (from `reward_material_rows`) between its
    default and highlight colours (read from the model, where a user may have
    changed them) by `clip(reward, 0, 1) ** 4`, as dm_control's suite does."""
    # A float64 NumPy scalar, as there, so the blend is computed in float64.
    blend = np.clip(np.float64(reward), 0.0, 1.0) ** _REWARD_COLOUR_EXPONENT
    for material, default, highlight in rows:
        model.mat_rgba[material] = (
            blend * model.mat_rgba[highlight] + (1.0 - blend) * model.mat_rgba[default]
        )


class Task(control.Task):
    """dm_control's `suite.base.Task`: the base of a suite-style task of one's own,
    run by `control.Environment(physics, task, ...)` on a `Physics` subclass.

        class Balance(base.Task):
            def initialize_episode(self, physics):
                physics.named.data.qpos["slider"] = self.random.uniform(-0.1, 0.1)
                super().initialize_episode(physics)  # last, as in dm_control
            def get_observation(self, physics): ...
            def get_reward(self, physics): ...

    Each action element sets one actuator's control, in the model's actuator order.
    Subclasses implement `get_observation` and `get_reward` (and may override
    `get_termination`), and end their `initialize_episode` with this one's, which
    sets the reward colours of the episode's first state.

    Args:
      random: the task's `np.random.RandomState`, or an int seed for a new one, or
        None for a seed drawn from the operating system; every random quantity of
        the task (initial states, noise) should be drawn from `self.random`.

    (This project's own suite domains are composer tasks, `SuiteTask`; this class
    is the contract that users' dm_control-style tasks are written against.)
    """

    def __init__(self, random=None):
        if not isinstance(random, np.random.RandomState):
            random = np.random.RandomState(random)
        self._random = random
        self._visualize_reward = False

    @property
    def random(self):
        """The task's `np.random.RandomState`."""
        return self._random

    def action_spec(self, physics):
        """The actuators' control spec (`composer_tasks.physics.action_spec`)."""
        return physics_lib.action_spec(physics)

    def initialize_episode(self, physics):
        """Sets the reward colours of the episode's first state (`after_step`);
        subclasses call this after setting their initial state."""
        self.after_step(physics)

    def before_step(self, action, physics):
        """Writes `action` to the actuators' controls (an object with a
        `continuous_actions` attribute gives that, as in dm_control)."""
        physics.set_control(getattr(action, "continuous_actions", action))

    def after_step(self, physics):
        """With `visualize_reward`, blends the "self", "effector" and "target"
        materials towards their `_highlight` colours as the reward grows."""
        if self._visualize_reward:
            colours = physics.named.model.mat_rgba
            default = colours[[name + "_default" for name in _REWARD_MATERIALS]]
            highlight = colours[[name + "_highlight" for name in _REWARD_MATERIALS]]
            blend = np.clip(np.float64(self.get_reward(physics)), 0.0, 1.0)
            blend = blend**_REWARD_COLOUR_EXPONENT
            colours[list(_REWARD_MATERIALS)] = blend * highlight + (1.0 - blend) * default

    @property
    def visualize_reward(self):
        """Whether the materials are recoloured by the reward after every step and
        at every reset (the model must have the suite's "self", "effector" and
        "target" materials and their `_default` and `_highlight` companions)."""
        return self._visualize_reward

    @visualize_reward.setter
    def visualize_reward(self, value):
        if not isinstance(value, bool):
            raise ValueError(f"visualize_reward must be a bool, got {value!r}")
        self._visualize_reward = value


class Registry(containers.TaggedTasks):
    """A domain's task factories by name, each with tags ('benchmarking', 'easy', ...):
    dm_control's `SUITE`, a `containers.TaggedTasks` (a mapping of name -> factory;
    `tagged(*tags)` gives {name: factory} of those with every tag)."""

    def names(self):
        """The task names, in registration order."""
        return list(self)


def make_environment(task, time_limit, random=None, environment_kwargs=None):
    """The Environment of a suite task: observations without a buffer dimension,
    episodes of `time_limit` seconds counted in control steps as dm_control's
    `control.Environment` counts them, randomness seeded by `random`.

    `environment_kwargs` are those of `suites.control.Environment`: `composer.Environment`'s
    and dm_control's `flat_observation`. The task's `random` is then the Environment's
    generator.
    """
    kwargs = dict(strip_singleton_obs_buffer_dim=True, exact_step_count=True)
    kwargs.update(environment_kwargs or {})
    _apply_control_timestep(task, kwargs)
    env = control.Environment(task, time_limit=time_limit, random_state=random, **kwargs)
    task._random = env.random_state
    return env


# The domains whose dm_control factories pass `control_timestep` to
# `control.Environment` themselves (suite/<domain>.py, dm_control 1.0.50); the others
# step the physics once per control step unless `environment_kwargs` say otherwise.
_FACTORY_CONTROL_TIMESTEP_DOMAINS = frozenset(
    "ball_in_cup dog finger fish hopper humanoid humanoid_CMU manipulator quadruped "
    "stacker swimmer walker".split()
)


def _apply_control_timestep(task, kwargs):
    """dm_control's `environment_kwargs` `control_timestep` and `n_sub_steps`, as its
    factories pass them to `control.Environment`: a domain whose factory sets the
    control timestep itself refuses another (TypeError, Python's for a repeated
    keyword there) or `n_sub_steps` (ValueError, `control.Environment`'s); elsewhere
    `control_timestep` sets the task's control timestep (a multiple of the physics
    timestep) and `n_sub_steps` the physics steps per control step."""
    domain = type(task).__module__.rsplit(".", 1)[-1]
    fixed = domain in _FACTORY_CONTROL_TIMESTEP_DOMAINS
    if "control_timestep" in kwargs:
        if fixed:
            raise TypeError(
                f"{domain}: got multiple values for keyword argument 'control_timestep' "
                "(the factory sets it, as dm_control's does)"
            )
        if "n_sub_steps" in kwargs:
            raise ValueError("Both n_sub_steps and control_timestep were supplied.")
        control_timestep = kwargs.pop("control_timestep")
        task.set_timesteps(control_timestep, task.root_entity.spec.option.timestep)
    elif fixed and "n_sub_steps" in kwargs:
        raise ValueError("Both n_sub_steps and control_timestep were supplied.")


class RandomPosePhysics(physics_lib.Physics):
    """Physics of a domain whose episodes start from the published random joint pose
    (hopper, walker, swimmer). Subclasses overriding `_model_changed` call this one's."""

    def _model_changed(self):
        super()._model_changed()
        self._random_qpos, self._random_low, self._random_high = random_joint_bounds(self.model)

    def randomize_joints(self, random_state):
        """Sets each limited hinge or slide uniformly within its range and each
        unlimited hinge (a planar body's pitch or heading) uniformly in [-pi, pi);
        unlimited slides (the body's position) stay put.

        One vector draw in joint order, which gives the numbers of the published
        per-joint draws (suite/utils/randomizers.py), so a seed gives the
        published initial states."""
        self.data.qpos[self._random_qpos] = random_state.uniform(
            self._random_low, self._random_high
        )


def random_joint_bounds(model):
    """Where and within what bounds the published joint randomiser draws a pose.

    dm_control's `suite/utils/randomizers.py` sets limited hinges and slides
    uniformly within their range and unlimited hinges uniformly in [-pi, pi]
    (radians), and leaves unlimited slides alone. Drawing one vector with these
    bounds, in joint order, gives the numbers of its per-joint draws.

    Args:
      model: a `mujoco.MjModel` whose joints are all hinges and slides.

    Returns:
      (qpos addresses (int array), lower bounds, upper bounds), one entry per
      randomised joint, in joint order.

    Raises:
      ValueError: if the model has a ball or free joint (the published randomiser
        draws random quaternions for those, which these bounds cannot express).
    """
    addresses, low, high = [], [], []
    for joint in range(model.njnt):
        joint_type = mujoco.mjtJoint(model.jnt_type[joint])
        if joint_type not in (_HINGE, _SLIDE):
            raise ValueError(
                f"joint {model.joint(joint).name!r} is a {joint_type.name}; "
                "random_joint_bounds handles hinge and slide joints only"
            )
        if model.jnt_limited[joint]:
            bounds = model.jnt_range[joint]
        elif joint_type == _HINGE:
            bounds = (-np.pi, np.pi)
        else:
            continue
        addresses.append(model.jnt_qposadr[joint])
        low.append(bounds[0])
        high.append(bounds[1])
    return np.array(addresses, dtype=int), np.array(low), np.array(high)


# Reductions over the last axis, for quantities that serve one environment (small
# 1-D arrays), a CPU batch ((N, k) NumPy arrays) and a device batch (JAX arrays)
# alike. On NumPy the ufunc reductions: the ndarray methods (`x.mean()`,
# `np.linalg.norm`) reach them through layers of Python that cost more than the
# arithmetic on a few numbers; these give the same bits. On JAX, its reductions.
def norm_last_axis(x):
    """Euclidean norm over the last axis (as `np.linalg.norm(x, axis=-1)`)."""
    xp = namespace(x)
    if xp is np:
        return np.sqrt(np.add.reduce(x * x, axis=-1))
    return xp.sqrt(xp.sum(x * x, axis=-1))


def sum_last_axis(x):
    """Sum over the last axis (as `x.sum(axis=-1)`)."""
    xp = namespace(x)
    if xp is np:
        return np.add.reduce(x, axis=-1)
    return xp.sum(x, axis=-1)


def mean_last_axis(x):
    """Mean over the last axis (as `x.mean(axis=-1)`)."""
    xp = namespace(x)
    if xp is np:
        return np.add.reduce(x, axis=-1) / x.shape[-1]
    return xp.sum(x, axis=-1) / x.shape[-1]


def min_last_axis(x):
    """Minimum over the last axis (as `x.min(axis=-1)`)."""
    xp = namespace(x)
    if xp is np:
        return np.minimum.reduce(x, axis=-1)
    return xp.min(x, axis=-1)


def prod_last_axis(x):
    """Product over the last axis (as `x.prod(axis=-1)`)."""
    xp = namespace(x)
    if xp is np:
        return np.multiply.reduce(x, axis=-1)
    return xp.prod(x, axis=-1)


def vector_times_rotation(vector, rotation):
    """`vector @ R` over the last axes: `vector` (..., 3) world-frame, `rotation`
    (..., 9) a row-major 3x3 frame orientation (`xmat`), giving the vector's
    coordinates in that frame (..., 3), as a new array.

    A product and a reduction over R's rows, summed in the same order for one
    copy and for a batch (a matrix product may not be), so the two give the same
    bits.
    """
    rows = rotation.reshape(rotation.shape[:-1] + (3, 3))
    products = vector[..., :, None] * rows
    xp = namespace(products)
    if xp is np:
        return np.add.reduce(products, axis=-2)
    return xp.sum(products, axis=-2)


def as_float(x):
    """Booleans (or numbers) `x` as floats: for one environment a Python float (as
    dm_control's `float(...)` of a condition), for a batch a float64 NumPy array, or a
    JAX array of JAX's default float dtype (float32 unless JAX runs in x64)."""
    xp = namespace(x)
    if xp is np:
        return x.astype(np.float64) if np.ndim(x) else float(x)
    return x.astype(xp.result_type(float))
