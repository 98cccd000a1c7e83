"""Environments by name. The one place where agents reach the tasks of this project.

A name is 'domain:task' of the Control Suite, e.g. 'cartpole:swingup', loaded as
`suites.suite.load(domain, task, task_kwargs={'random': seed})`, or, for N copies
stepped together on MuJoCo's batch, `suites.suite.load_batch(domain, task, N,
seed=seed)`; or the name of a locomotion environment (`suites.locomotion.ALL`, e.g.
'walker_parkour_hurdles'), loaded as `suites.locomotion.load(name, seed=seed)`; or
'hand:TASK', one of the D4PG paper's hand tasks (`suites.hand.ALL`, e.g. 'hand:catch'),
loaded as `suites.hand.load(TASK, seed=seed)`. The
imports are inside `load` so that the agents package never imports task code
otherwise.
"""

from collections.abc import Callable

import dm_env


def parse(name: str) -> tuple[str, str | None]:
    """Splits 'domain:task'; a locomotion name (no ':') gives (name, None)."""
    if not isinstance(name, str):
        raise TypeError(
            f"environment name is {type(name).__name__}; expected 'domain:task' or a locomotion name."
        )
    domain, separator, task = name.partition(":")
    if not separator:
        if not name:
            raise ValueError("environment name is empty")
        return name, None
    if not domain or not task or ":" in task:
        raise ValueError(f"environment name {name!r} is not of the form 'domain:task'.")
    return domain, task


def load(
    name: str,
    seed: int,
    num_envs: int | None = None,
    backend: str = "cpu",
    device: str | None = None,
    jax_timesteps: bool = False,
):
    """The environment `name` ('domain:task' or a locomotion name), seeded with `seed`.

    With `num_envs`, a batched environment of that many copies (the interface of
    agents/vector.py); copy i is the single environment seeded with
    `composer_tasks.batch.copy_seed(seed, i)`. `backend` and `device` choose where the
    copies' physics steps (`BatchEnvironment`'s: "cpu", MuJoCo's batch, the default;
    or "warp", MuJoCo Warp on `device`); a single environment is always on the CPU.
    `jax_timesteps` (backend "warp" only): observations and outcome computed in JAX on
    the device and returned as JAX arrays (`WarpOptions(array_module="jax",
    return_jax=True)`), for an agent that keeps its rollout there (`ppo.DevicePPO`).
    """
    domain, task = parse(name)
    if num_envs is None and (backend != "cpu" or device is not None):
        raise ValueError(
            f"backend={backend!r}, device={device!r} choose where a batch of copies steps; "
            f"a single environment ({name!r} without num_envs) always steps on the CPU."
        )
    on: dict = {"backend": backend, "device": device}
    if jax_timesteps:
        if backend != "warp":
            raise ValueError(
                f"jax_timesteps=True is for backend='warp' (got {backend!r}): only the Warp "
                "batch computes its TimeSteps on a JAX device."
            )
        from composer_tasks import batch_warp  # pylint: disable=import-outside-toplevel

        on["backend"] = batch_warp.WarpOptions(array_module="jax", return_jax=True)
    if task is None:
        from composer_tasks.batch import BatchEnvironment  # pylint: disable=import-outside-toplevel
        from suites import locomotion  # pylint: disable=import-outside-toplevel

        if num_envs is None:
            return locomotion.load(name, seed=int(seed))
        return BatchEnvironment.from_environments(
            lambda copy_seed: locomotion.load(name, seed=copy_seed),
            int(num_envs),
            seed=int(seed),
            **on,
        )
    if domain == "hand":
        from suites import hand  # pylint: disable=import-outside-toplevel

        if num_envs is None:
            return hand.load(task, seed=int(seed))
        return hand.load_batch(task, int(num_envs), seed=int(seed), **on)
    from suites import suite  # pylint: disable=import-outside-toplevel

    if num_envs is None:
        return suite.load(domain, task, task_kwargs={"random": int(seed)})
    return suite.load_batch(domain, task, int(num_envs), seed=int(seed), **on)


def factory(name: str) -> Callable[[int], dm_env.Environment]:
    """A `make_env(seed)` function for `name`, checking the name's form now."""
    parse(name)
    return lambda seed: load(name, seed)


def batch_factory(
    name: str, backend: str = "cpu", device: str | None = None, jax_timesteps: bool = False
) -> Callable[[int, int], object]:
    """A `make_batch(seed, num_envs)` function for `name` on `backend`/`device` (see
    `load`), checking the name's form now."""
    parse(name)
    return lambda seed, num_envs: load(
        name, seed, num_envs, backend=backend, device=device, jax_timesteps=jax_timesteps
    )
