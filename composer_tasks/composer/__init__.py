"""Composer: entities, tasks and the environment that runs them (dm_control paper §5).

The names of dm_control's `composer` namespace are here with its semantics, and a
few of this project's own (`Callbacks`, `mark_spec_changed`).
"""

from composer_tasks.composer import constants
from composer_tasks.composer import define
from composer_tasks.composer import initializer
from composer_tasks.composer import robot
from composer_tasks.composer import variation
from composer_tasks.composer.arena import Arena
from composer_tasks.composer.callbacks import Callbacks
from composer_tasks.composer.constants import SENSOR_SITES_GROUP
from composer_tasks.composer.define import cached_property
from composer_tasks.composer.entity import Entity
from composer_tasks.composer.entity import FreePropObservableMixin
from composer_tasks.composer.entity import ModelWrapperEntity
from composer_tasks.composer.environment import HOOK_NAMES
from composer_tasks.composer.environment import Environment
from composer_tasks.composer.environment import EpisodeInitializationError
from composer_tasks.composer.environment import ActionDtypeError, InvalidActionError
from composer_tasks.composer.environment import ObservationPadding
from composer_tasks.composer.initializer import Initializer
from composer_tasks.composer.observables import Observables
from composer_tasks.composer.observables import observable
from composer_tasks.composer.robot import Robot
from composer_tasks.composer.spec_edits import mark_spec_changed
from composer_tasks.composer.task import NullTask
from composer_tasks.composer.task import Task
