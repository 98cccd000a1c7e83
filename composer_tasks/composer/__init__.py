"""Composer: entities, tasks and the environment that runs them (dm_control paper §5)."""

from composer_tasks.composer.arena import Arena
from composer_tasks.composer.callbacks import Callbacks
from composer_tasks.composer.entity import Entity
from composer_tasks.composer.entity import ModelWrapperEntity
from composer_tasks.composer.environment import Environment
from composer_tasks.composer.environment import EpisodeInitializationError
from composer_tasks.composer.environment import ObservationPadding
from composer_tasks.composer.observables import Observables
from composer_tasks.composer.observables import observable
from composer_tasks.composer.spec_edits import mark_spec_changed
from composer_tasks.composer.task import Task
