"""The manipulation tasks of the dm_control paper (§8) on the Jaco arm and hand.

Importing this package (or any module in it) imports the task modules `bricks`,
`lift`, `place` and `reach`, whose task functions register themselves in
`shared.registry` in dm_control's order, and then closes the registry to
accidental re-registration, as importing any of dm_control's `manipulation`
modules does (its package `__init__` does both).
"""

from composer_tasks.tasks.manipulation import bricks as _bricks  # noqa: F401
from composer_tasks.tasks.manipulation import lift as _lift  # noqa: F401
from composer_tasks.tasks.manipulation import place as _place  # noqa: F401
from composer_tasks.tasks.manipulation import reach as _reach  # noqa: F401
from composer_tasks.tasks.manipulation.shared import registry as _registry

_registry.done_importing_tasks()
