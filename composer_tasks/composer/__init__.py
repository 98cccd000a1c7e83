"""Composer: entities, tasks and the environment that runs them (dm_control paper §5)."""

from composer_tasks.composer.entity import Entity
from composer_tasks.composer.entity import Observables
from composer_tasks.composer.entity import mark_spec_changed
from composer_tasks.composer.entity import observable
from composer_tasks.composer.environment import Environment
from composer_tasks.composer.environment import EpisodeInitializationError
from composer_tasks.composer.environment import ObservationPadding
from composer_tasks.composer.task import Task
