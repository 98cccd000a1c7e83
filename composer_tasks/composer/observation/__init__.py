"""Observables and the machinery that turns them into observations."""

from composer_tasks.composer.observation import observable
from composer_tasks.composer.observation.updater import Updater
