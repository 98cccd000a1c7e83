"""Observables and the machinery that turns them into observations."""

from composer_tasks.composer.observation import obs_buffer
from composer_tasks.composer.observation import observable
from composer_tasks.composer.observation.obs_buffer import Buffer
from composer_tasks.composer.observation.updater import DEFAULT_BUFFER_SIZE
from composer_tasks.composer.observation.updater import DEFAULT_DELAY
from composer_tasks.composer.observation.updater import DEFAULT_UPDATE_INTERVAL
from composer_tasks.composer.observation.updater import Updater
