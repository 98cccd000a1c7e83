"""Multi-agent soccer (dm_control paper §7.3): the task, its observables and initializers.

`suites.soccer.load` builds the published matches; `Task` and `MultiturnTask` take
any players, pitch and ball with dm_control's soccer entity API.
"""

from composer_tasks.tasks.soccer.initializers import Initializer
from composer_tasks.tasks.soccer.initializers import UniformInitializer
from composer_tasks.tasks.soccer.observables import CoreObservablesAdder
from composer_tasks.tasks.soccer.observables import InterceptionObservablesAdder
from composer_tasks.tasks.soccer.observables import MultiObservablesAdder
from composer_tasks.tasks.soccer.observables import ObservablesAdder
from composer_tasks.tasks.soccer.task import MultiturnTask
from composer_tasks.tasks.soccer.task import Task
from composer_tasks.walkers.soccer_team import Player
from composer_tasks.walkers.soccer_team import Team
