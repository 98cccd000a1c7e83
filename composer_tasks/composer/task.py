"""Task: what the agent must do in a model made of entities."""

import collections
from collections.abc import Iterator
from typing import Any, Mapping, Optional, Tuple, TypeVar

import mujoco
import numpy as np
from dm_env import specs

from composer_tasks.composer import entity as entity_module
from composer_tasks.mjcf import physics as mjcf_physics
from composer_tasks.composer.callbacks import Action
from composer_tasks.physics import Physics

# Control and physics timesteps closer than this (relative) to an integer ratio
# count as an exact multiple, since decimal timesteps are not exact in binary.
_TIMESTEP_RATIO_TOLERANCE = 1e-6

_TaskT = TypeVar("_TaskT", bound="Task")


class Task(entity_module.Callbacks):
    """Base class of tasks run by `composer.Environment`.

    Subclasses provide `root_entity` and `get_reward(physics)`, and usually
    `initialize_episode` and some `task_observables`. The callbacks are those of
    `Entity` (see its docstring; both inherit them from `Callbacks`); the task's run
    before the entities', and its `before_step` writes the action into the controls.

    Attributes:
      physics_class: the `Physics` subclass the Environment compiles the model into;
        suite domains use it to name physical quantities. The default,
        `composer_tasks.mjcf.Physics`, binds PyMJCF handles and has `named`.
      vectorized: False unless the task promises that a `BatchEnvironment` may run
        its copies without a Python loop over them (its vectorised path). Setting
        it True (as a class attribute, or as a property where the promise holds
        only in some configurations) promises that:
          * `get_reward`, `get_discount`, `should_terminate_episode` (and
            `get_outcome` where the task overrides it) and the functions of its
            enabled observables (which must be plain `Generic`
            observables: no buffer, delay, interval, aggregator or noise) also
            accept a batch's physics (`composer_tasks.batch.batch_physics`), whose
            `data` fields are (N, ...) arrays and whose `model` fields are the
            copies' models stacked to (N, ...), and return per copy exactly what
            they return on that copy's own `Physics` (scalars may broadcast);
          * its per-step work is writing the action into the controls: it keeps
            the default `before_step`, no task or entity overrides
            `before_substep`, `after_substep`, and no entity `after_step` (the
            task's own `after_step` may exist but must do nothing that the
            observables, reward, discount or termination read);
          * those functions keep no Python state across steps.
        The batch checks what it can (the callbacks overridden, the observables'
        kinds and options) and loops over copies when a check fails; the rest is
        the task's promise, which `tests/suites/test_vectorized.py`-style
        comparisons with single environments verify.

    Multi-agent tasks (dm_control's convention, as its soccer task uses it): a task
    whose `num_agents` is an int n >= 1 (None, the default, is a single-agent task)
    is run by the Environment as n agents acting at once. Then:
      * `observables` returns a sequence of n mappings name -> observable, agent i's
        observations (names need only be unique within an agent);
      * `action_spec(physics)` returns a sequence of n `BoundedArray`s and
        `before_step(physics, actions, random_state)` receives a list of n validated
        arrays, one per agent, which it must apply itself (the default writes a
        single action into the controls);
      * `get_reward_spec()` returns a sequence of n specs and `get_reward(physics)`
        a sequence of n rewards; `get_discount` stays one value for all agents.
    The Environment then returns per-agent lists from `observation_spec()`,
    `action_spec()`, `reward_spec()` and in each TimeStep's `observation` and
    `reward`, and checks each agent's action against its spec.
    """

    physics_class: type[Physics] = mjcf_physics.Physics
    vectorized: bool = False
    # None, or a hint: MjModel fields (names in mujoco.batch.MODEL_FIELDS) in which
    # the models of a batch's copies of this task differ. A `BatchEnvironment` finds
    # such fields itself after each copy's reset (docs/batch.md); those named here
    # are given per-copy values from the start.
    batch_model_fields: Optional[Tuple[str, ...]] = None

    def __new__(cls: type[_TaskT], *args: Any, **kwargs: Any) -> _TaskT:
        # dm_control's Task is abstract in `root_entity` and `get_reward`: a subclass
        # without them cannot be instantiated (TypeError), as an ABC's cannot.
        missing = [
            name for name in _ABSTRACT_TASK_MEMBERS if getattr(cls, name) is _TASK_MEMBERS[name]
        ]
        if missing:
            plural = "s" if len(missing) > 1 else ""
            raise TypeError(
                f"Can't instantiate abstract class {cls.__name__} with abstract method{plural} "
                + ", ".join(missing)
            )
        return super().__new__(cls)  # pyright: ignore[reportArgumentType]

    @property
    def num_agents(self) -> Optional[int]:
        """None for a single-agent task; the number of agents of a multi-agent task
        (see the class docstring for what a multi-agent task returns)."""
        return None

    @property
    def root_entity(self) -> entity_module.Entity:
        raise NotImplementedError(f"{type(self).__name__} must define root_entity")

    def iter_entities(self) -> Iterator[entity_module.Entity]:
        """The root entity and every entity attached below it, depth-first."""
        return self.root_entity.iter_entities()

    @property
    def task_observables(self) -> Mapping[str, Any]:
        """Observables of the task itself, name -> observable (insertion order)."""
        return collections.OrderedDict()

    @property
    def observables(self) -> Mapping[str, Any]:
        """Every observable of the task and its entities, by observation name.

        As in dm_control: the task observables first, then each entity's
        (`entity.observables.as_dict()`, depth-first in attachment order), named
        `path/observable_name` where the path is the entity's in the model
        (`creature`, `creature/leg0`); the root entity's observables and the task's
        keep their own names. A later key replaces an earlier one in its place.
        """
        named = collections.OrderedDict(self.task_observables)
        for entity in self.root_entity.iter_entities():
            named.update(entity.observables.as_dict())
        return named

    # Timesteps.

    @property
    def physics_timestep(self) -> float:
        """Seconds per physics step (the root spec's `option.timestep`)."""
        return self.root_entity.spec.option.timestep

    @physics_timestep.setter
    def physics_timestep(self, value: float) -> None:
        # As in dm_control, the new physics timestep is checked against a control
        # timestep only if one was set explicitly: until then the control timestep
        # is the physics one, so the two may be set in either order.
        _check_positive_seconds("physics_timestep", value)
        control_timestep = getattr(self, "_control_timestep", None)
        if control_timestep is not None:
            _steps_per_control_step(control_timestep, value)
        self.root_entity.spec.option.timestep = value

    @property
    def control_timestep(self) -> float:
        """Seconds per agent step: an integer multiple of the physics timestep (the
        physics timestep itself until set)."""
        return getattr(self, "_control_timestep", None) or self.physics_timestep

    @control_timestep.setter
    def control_timestep(self, value: float) -> None:
        _check_positive_seconds("control_timestep", value)
        _steps_per_control_step(value, self.physics_timestep)
        self._control_timestep = value

    def set_timesteps(self, control_timestep: float, physics_timestep: float) -> None:
        """Sets both timesteps (seconds); the control one must be a multiple."""
        _check_positive_seconds("control_timestep", control_timestep)
        _check_positive_seconds("physics_timestep", physics_timestep)
        _steps_per_control_step(control_timestep, physics_timestep)
        self.root_entity.spec.option.timestep = physics_timestep
        self._control_timestep = control_timestep

    @property
    def physics_steps_per_control_step(self) -> int:
        return int(round(self.control_timestep / self.physics_timestep))

    # Specs.

    def action_spec(self, physics: Physics) -> specs.BoundedArray:
        """One float64 entry per actuator, in model order, bounded by `ctrlrange`
        (by +-`mujoco.mjMAXVAL`, 1e10, where the actuator is not control-limited, as
        dm_control's)."""
        model = physics.model
        names = [model.actuator(i).name for i in range(model.nu)]
        # dm_control's bound of an actuator without a control range: MuJoCo's mjMAXVAL.
        minimum = np.full(model.nu, -mujoco.mjMAXVAL)
        maximum = np.full(model.nu, mujoco.mjMAXVAL)
        limited = _ctrl_limited(model)
        minimum[limited] = model.actuator_ctrlrange[limited, 0]
        maximum[limited] = model.actuator_ctrlrange[limited, 1]
        return specs.BoundedArray(
            shape=(model.nu,),
            dtype=np.float64,
            minimum=minimum,
            maximum=maximum,
            name="\t".join(names),
        )

    def get_reward_spec(self) -> Any:
        """The reward's spec where it is not a scalar float (a multi-agent task's
        list of per-agent specs); None (the default, as in dm_control) for the
        Environment's default scalar reward spec."""
        return None

    def get_discount_spec(self) -> Any:
        """The discount's spec where it is not a scalar in [0, 1]; None (the
        default, as in dm_control) for the Environment's default."""
        return None

    # Episode outcome.

    def get_reward(self, physics: Physics) -> Any:
        raise NotImplementedError(f"{type(self).__name__} must define get_reward")

    def get_discount(self, physics: Physics) -> Any:
        """Discount of a step; at a task termination this is the LAST step's discount."""
        return 1.0

    def should_terminate_episode(self, physics: Physics) -> Any:
        return False

    def get_outcome(self, physics: Physics) -> Tuple[Any, Any, Any]:
        """(get_reward, should_terminate_episode, get_discount) of the step, in one call.

        The Environment and a batch's vectorised path call this instead of the three
        when the class that defines it also defines (or inherits from the class
        that defines) the most derived of the three: a task whose reward,
        termination and discount share work (lqr's sums of squares) computes it
        once here, and a subclass that overrides only `get_reward` still has its
        own reward used. An override must return exactly what the three return.
        """
        return (
            self.get_reward(physics),
            self.should_terminate_episode(physics),
            self.get_discount(physics),
        )

    def before_step(  # pyright: ignore[reportIncompatibleMethodOverride]
        self, physics: Physics, action: Action, random_state: np.random.RandomState
    ) -> None:
        """Writes the action into `data.ctrl` (a task's `before_step` receives the
        action; its entities' do not, as in dm_control)."""
        physics.set_control(action)

    def before_substep(  # pyright: ignore[reportIncompatibleMethodOverride]
        self, physics: Physics, action: Action, random_state: np.random.RandomState
    ) -> None:
        """Called before every physics step with the step's action; a no-op."""


def _check_positive_seconds(name: str, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number of seconds, got {value!r}")
    if not np.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a positive number of seconds, got {value!r}")


def _steps_per_control_step(control_timestep: float, physics_timestep: float) -> int:
    """Physics steps per control step, or a ValueError if the ratio is not an integer."""
    ratio = control_timestep / physics_timestep
    steps = round(ratio)
    if steps < 1 or abs(ratio - steps) > _TIMESTEP_RATIO_TOLERANCE * ratio:
        raise ValueError(
            f"control_timestep ({control_timestep}) must be an integer multiple of "
            f"physics_timestep ({physics_timestep}); the ratio is {ratio}"
        )
    return steps


def _ctrl_limited(model: mujoco.MjModel) -> np.ndarray:
    limited = model.actuator_ctrllimited
    if model.opt.disableflags & mujoco.mjtDisableBit.mjDSBL_CLAMPCTRL:
        return np.zeros(model.nu, dtype=bool)
    # ctrllimited is "auto" (2) when unspecified; autolimits then means the range decides.
    auto = limited == 2
    result = limited == 1
    ranges = model.actuator_ctrlrange
    result[auto] = ranges[auto, 0] < ranges[auto, 1]
    return result


# What a concrete Task must override (dm_control's abstract members), and Task's own.
_ABSTRACT_TASK_MEMBERS = ("root_entity", "get_reward")
_TASK_MEMBERS = {name: getattr(Task, name) for name in _ABSTRACT_TASK_MEMBERS}


class NullTask(Task):
    """A task of one entity and no reward (dm_control's `composer.NullTask`): for
    looking at or driving an entity with an `Environment`."""

    def __init__(self, root_entity: entity_module.Entity) -> None:
        self._root_entity = root_entity

    @property
    def root_entity(self) -> entity_module.Entity:
        return self._root_entity

    def get_reward(self, physics: Physics) -> float:
        return 0.0
