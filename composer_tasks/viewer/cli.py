"""What `python -m composer_tasks.viewer` does besides parsing its flags (which stay in
`__main__`, so that importing this module defines no command-line flags)."""

from absl import app


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
