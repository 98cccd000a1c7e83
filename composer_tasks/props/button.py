"""Button: a flat cylinder that senses how hard it is pressed (dm_control paper §5.4).

The button turns green while the force on it lies in the target range and red
otherwise, and counts the physics substeps during which it was activated.
"""

from collections.abc import Sequence

import mujoco
import numpy as np

from composer_tasks import composer, mjcf
from composer_tasks.composer.observation import observable
from composer_tasks.physics import Physics

_RED = np.array([1.0, 0.0, 0.0, 1.0])
_GREEN = np.array([0.0, 1.0, 0.0, 1.0])
_RADIUS_M = 0.25
_HALF_HEIGHT_M = 0.02
# The sensing zone is a hair larger than the geom so that contacts fall inside it.
_SITE_SCALE = 1.01


class ButtonObservables(composer.Observables):
    """The button's observable: the normal force on it (`touch_force`)."""

    _entity: "Button"

    @composer.observable
    def touch_force(self) -> observable.MJCFFeature:
        """Normal force on the button in newtons, one value per evaluation."""
        return observable.MJCFFeature("sensordata", self._entity.touch_sensor)


class Button(composer.Entity):
    """A pressable button.

    Args:
      target_force_range: (minimum, maximum) force in newtons that activates it.
      name: the entity's name.
    """

    def _build(
        self, target_force_range: Sequence[float] = (5.0, 10.0), name: str = "button"
    ) -> None:
        minimum, maximum = (float(f) for f in target_force_range)
        if not 0 <= minimum <= maximum:
            raise ValueError(
                f"target_force_range must be (minimum, maximum) with 0 <= minimum <= maximum "
                f"newtons, got {target_force_range!r}"
            )
        self._min_force, self._max_force = minimum, maximum
        spec = mujoco.MjSpec()
        spec.modelname = name
        self._geom = spec.worldbody.add_geom(
            name="geom",
            type=mujoco.mjtGeom.mjGEOM_CYLINDER,
            size=[_RADIUS_M, _HALF_HEIGHT_M, 0.0],
            rgba=_RED,
        )
        self._site = spec.worldbody.add_site(
            name="touch_zone",
            type=mujoco.mjtGeom.mjGEOM_CYLINDER,
            size=[_RADIUS_M * _SITE_SCALE, _HALF_HEIGHT_M * _SITE_SCALE, 0.0],
            rgba=[1.0, 0.0, 0.0, 0.0],
        )
        self._sensor = spec.add_sensor(
            name="touch",
            type=mujoco.mjtSensor.mjSENS_TOUCH,
            objtype=mujoco.mjtObj.mjOBJ_SITE,
            objname="touch_zone",
        )
        self._spec = spec
        self._num_activated_steps = 0
        self._is_activated = False

    def _build_observables(self) -> ButtonObservables:
        return ButtonObservables(self)

    @property
    def touch_sensor(self) -> mjcf.Element:
        return self._handle(self._sensor)

    @property
    def geom(self) -> mjcf.Element:
        return self._handle(self._geom)

    @property
    def num_activated_steps(self) -> int:
        """Substeps of the current control step during which the button was activated."""
        return self._num_activated_steps

    @property
    def is_activated(self) -> bool:
        return self._is_activated

    def _update_activation(self, physics: Physics) -> None:
        force = physics.bind(self._sensor).sensordata[0]
        self._is_activated = bool(self._min_force <= force <= self._max_force)
        physics.bind(self._geom).rgba = _GREEN if self._is_activated else _RED
        self._num_activated_steps += int(self._is_activated)

    def initialize_episode(self, physics: Physics, random_state: np.random.RandomState) -> None:
        self._num_activated_steps = 0
        self._update_activation(physics)

    def before_step(self, physics: Physics, random_state: np.random.RandomState) -> None:
        self._num_activated_steps = 0

    def after_substep(self, physics: Physics, random_state: np.random.RandomState) -> None:
        self._update_activation(physics)
