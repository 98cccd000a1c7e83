"""What every Control Suite domain shares: the model entity, the task base, the registry."""

import collections

import mujoco
import numpy as np

from composer_tasks import composer
from composer_tasks.array_namespace import namespace
from composer_tasks import physics as physics_lib
from composer_tasks.composer.observation import observable
from mjcf_models import common
from suites import control

# visualize_reward blends the colours of the materials of `common.HIGHLIGHT_RGBA`
# from their defaults to those highlights as reward**4 grows (dm_control suite/base.py).
_REWARD_COLOUR_EXPONENT = 4
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
        spec.modelname = name
        self._spec = spec


class SuiteTask(composer.Task):
    """Base of Control Suite tasks: one model, observations in a fixed key order.

    Subclasses set `physics_class`, build their model in `__init__` through
    `super().__init__(spec, name, control_timestep)`, and declare observations with
    `self.set_observations(name=fn_of_physics, ...)` in the published order.
    """

    def __init__(self, spec, name, control_timestep=None):
        self._root = ModelEntity(spec, name)
        if control_timestep is not None:
            self.set_timesteps(control_timestep, spec.option.timestep)
        self._task_observables = collections.OrderedDict()
        self._visualize_reward = False
        self._default_rgba = {}
        self._random = None

    @property
    def root_entity(self):
        return self._root

    @property
    def task_observables(self):
        return self._task_observables

    @property
    def random(self):
        """The task's `np.random.RandomState` (dm_control's `Task.random`): the
        Environment's generator, which every callback of the episode draws from.

        Raises:
          AttributeError: before `make_environment` gave the task its Environment.
        """
        if self._random is None:
            raise AttributeError(
                f"{type(self).__name__}.random is the Environment's generator; this task "
                "has no Environment yet (suites.base.make_environment gives it one)"
            )
        return self._random

    def get_observation(self, physics):
        """The observation as dm_control's suite tasks return it: an OrderedDict of
        each observation function's value for `physics`, in the published order."""
        return collections.OrderedDict(
            (name, item.raw_callable(physics)) for name, item in self._task_observables.items()
        )

    def action_spec(self, physics):
        """`composer.Task.action_spec` without a name: dm_control's suite tasks give
        `mujoco.action_spec(physics)`, whose spec is unnamed."""
        spec = super().action_spec(physics)
        return spec.replace(name=None)

    def set_observations(self, **functions):
        """Declares the task's observations, enabled, in keyword order."""
        self._task_observables = collections.OrderedDict(
            (name, observable.Generic(function, enabled=True))
            for name, function in functions.items()
        )

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
            raise TypeError(f"visualize_reward must be a bool, got {value!r}")
        self._visualize_reward = value

    def after_compile(self, physics, random_state):
        model = physics.model
        self._default_rgba = {}
        for name, highlight in common.HIGHLIGHT_RGBA.items():
            index = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_MATERIAL, name)
            if index >= 0:
                self._default_rgba[index] = (np.array(model.mat_rgba[index]), np.array(highlight))

    def after_step(self, physics, random_state):
        if self._visualize_reward:
            reward = float(np.clip(self.get_reward(physics), 0.0, 1.0))
            blend = reward**_REWARD_COLOUR_EXPONENT
            for index, (default, highlight) in self._default_rgba.items():
                physics.model.mat_rgba[index] = blend * highlight + (1 - blend) * default


class Registry:
    """Task factories of one domain, by name, each with tags ('benchmarking', 'extra', ...)."""

    def __init__(self):
        self._factories = collections.OrderedDict()
        self._tags = {}

    def add(self, *tags):
        def register(factory):
            self._factories[factory.__name__] = factory
            self._tags[factory.__name__] = frozenset(tags)
            return factory

        return register

    def __getitem__(self, name):
        return self._factories[name]

    def __contains__(self, name):
        return name in self._factories

    def names(self):
        return list(self._factories)

    def tagged(self, tag):
        return [name for name in self._factories if tag in self._tags[name]]


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
    env = control.Environment(task, time_limit=time_limit, random_state=random, **kwargs)
    task._random = env.random_state
    return env


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
    """Booleans (or numbers) `x` as floats: float64 NumPy, or a JAX array of JAX's
    default float dtype (float32 unless JAX runs in x64)."""
    xp = namespace(x)
    if xp is np:
        return x.astype(np.float64) if hasattr(x, "astype") else np.float64(x)
    return x.astype(xp.result_type(float))
