"""What `python -m composer_tasks.viewer` does besides parsing its flags (which stay in
`__main__`, so that importing this module defines no command-line flags)."""

from absl import app
import numpy as np

from composer_tasks import video


def make_policy(name, action_spec, seed):
    """The named command-line policy: 'zero' or 'random' (seeded by `seed`)."""
    if name == "zero":
        return video.zero_policy(action_spec)
    if name == "random":
        return video.uniform_random_policy(action_spec, np.random.RandomState(seed))
    raise ValueError(f"unknown policy {name!r}; expected 'zero' or 'random'")


def load_environment(names, seed):
    """`(domain, task)` of the Control Suite or `(name,)` of `suites.locomotion`."""
    # The suites depend on composer_tasks, not the other way round: only this
    # command-line entry point reaches into them.
    from suites import locomotion
    from suites import suite
    if len(names) == 2:
        return suite.load(names[0], names[1], task_kwargs={"random": seed})
    if len(names) == 1:
        return locomotion.load(names[0], seed=seed)
    raise app.UsageError(
        "usage: python -m composer_tasks.viewer DOMAIN TASK | LOCOMOTION_NAME [--policy zero|random] "
        f"[--seed S] [--camera C] [--paused] [--speed X]; suite tasks: "
        f"{', '.join(f'{d} {t}' for d, t in suite.ALL_TASKS)}; locomotion: {', '.join(locomotion.ALL)}")
