"""WalkerTask: what every locomotion task has, one walker in one arena."""

from composer_tasks import composer


class WalkerTask(composer.Task):
    """Base of the locomotion tasks.

    Subclasses set `self._walker`, `self._arena` (the root entity) and
    `self._task_observables` (an ordered dict, possibly empty) in `__init__`.
    """

    @property
    def root_entity(self):
        return self._arena

    @property
    def arena(self):
        return self._arena

    @property
    def walker(self):
        return self._walker

    @property
    def task_observables(self):
        return self._task_observables
