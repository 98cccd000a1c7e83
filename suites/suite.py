"""The Control Suite: `suite.load("humanoid", "run")`.

Each domain is one module of `suites` with a `SUITE` registry of task factories.
"""

import importlib

DOMAIN_NAMES = (
    "acrobot", "ball_in_cup", "cartpole", "cheetah", "dog", "finger", "fish", "hopper",
    "humanoid", "humanoid_CMU", "manipulator", "pendulum", "point_mass", "reacher", "swimmer",
    "walker",
)


def _available_domains():
    domains = {}
    for name in DOMAIN_NAMES:
        try:
            domains[name] = importlib.import_module(f"suites.{name}")
        except ModuleNotFoundError as error:
            if error.name != f"suites.{name}":
                raise
    return domains


_DOMAINS = _available_domains()

ALL_TASKS = tuple((domain, task) for domain, module in _DOMAINS.items()
                  for task in module.SUITE.names())
BENCHMARKING = tuple((domain, task) for domain, module in _DOMAINS.items()
                     for task in module.SUITE.tagged("benchmarking"))
EXTRA = tuple(pair for pair in ALL_TASKS if pair not in BENCHMARKING)
TASKS_BY_DOMAIN = {domain: tuple(module.SUITE.names()) for domain, module in _DOMAINS.items()}


def load(domain_name, task_name, task_kwargs=None, environment_kwargs=None,
         visualize_reward=False):
    """Returns the `composer.Environment` of a suite task.

    Args:
      domain_name, task_name: e.g. "cartpole", "swingup".
      task_kwargs: keyword arguments of the task factory; `{"random": seed}` seeds
        the episode randomness (an int, a `np.random.RandomState` or None).
      environment_kwargs: keyword arguments of `composer.Environment`.
      visualize_reward: recolour the bodies by the reward.

    Raises:
      ValueError: for an unknown domain or task, listing the valid names.
    """
    if domain_name not in _DOMAINS:
        raise ValueError(
            f"unknown domain {domain_name!r}; valid domains: {sorted(_DOMAINS)}")
    registry = _DOMAINS[domain_name].SUITE
    if task_name not in registry:
        raise ValueError(
            f"unknown task {task_name!r} of domain {domain_name!r}; valid tasks: {registry.names()}")
    task_kwargs = dict(task_kwargs or {})
    if environment_kwargs is not None:
        task_kwargs["environment_kwargs"] = environment_kwargs
    env = registry[task_name](**task_kwargs)
    env.task.visualize_reward = visualize_reward
    return env


def load_batch(domain_name, task_name, num_envs, task_kwargs=None, num_threads=0,
               environment_kwargs=None, seed=None, model_variations=None):
    """`num_envs` copies of a suite task stepped together (`composer_tasks.batch`).

    Copy i is `load(domain_name, task_name, task_kwargs={..., "random": copy_seed(seed, i)})`
    bit for bit; `task_kwargs["random"]`, if given, is the batch seed. The copies'
    models leave out the textures' patterns (`environment_kwargs={"textures": False}`
    unless given otherwise), which only rendering would show.
    """
    from composer_tasks.batch import BatchEnvironment

    environment_kwargs = {"textures": False, **(environment_kwargs or {})}
    task_kwargs = dict(task_kwargs or {})
    if seed is None:
        seed = task_kwargs.pop("random", None)
    elif "random" in task_kwargs:
        raise ValueError("give the batch seed either as seed or as task_kwargs['random'], not both")

    def make(copy_random_state):
        return load(domain_name, task_name, task_kwargs={**task_kwargs, "random": copy_random_state},
                    environment_kwargs=environment_kwargs)

    return BatchEnvironment.from_environments(
        make, num_envs, num_threads=num_threads, seed=seed, model_variations=model_variations)
