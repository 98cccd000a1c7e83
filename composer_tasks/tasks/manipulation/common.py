"""What the manipulation tasks share: observation settings, robots, cameras, workspaces.

Numbers and names carry over from dm-control 1.0.50 (`manipulation/shared/`):
control every 0.04 s, 10 s episodes, the arm's base 0.4 m along +y from the
workspace centre, the `front_close` camera, and the observation settings
`PERFECT_FEATURES` (proprioception, joint torques squashed by sign(x) log(1 + |x|),
prop poses) and `VISION` (proprioception, torques, an 84x84 RGB camera).
"""

import collections
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import mujoco
import numpy as np
from numpy.typing import ArrayLike

from composer_tasks import composer
from composer_tasks.arenas.table import Table
from composer_tasks.composer.observation import observable
from composer_tasks.composer.variation import distributions
from composer_tasks.composer.variation import rotations
from composer_tasks.composer import initializers
from composer_tasks.robots import JacoArm
from composer_tasks.robots import JacoHand
from composer_tasks.tasks.manipulation.shared import cameras
from composer_tasks.tasks.manipulation.shared import constants
from composer_tasks.tasks.manipulation.shared import workspaces


class ArmTask(composer.Task):
    """The accessors every manipulation task shares: the table arena (the root
    entity), the Jaco arm and hand, and the task's observables. Subclasses set
    `_arena`, `_arm`, `_hand` and `_task_observables` in `__init__`."""

    _arena: Table
    _arm: JacoArm
    _hand: JacoHand
    _task_observables: "collections.OrderedDict[str, observable.Observable]"

    @property
    def root_entity(self) -> Table:
        return self._arena

    @property
    def arm(self) -> JacoArm:
        return self._arm

    @property
    def hand(self) -> JacoHand:
        return self._hand

    @property
    def task_observables(self) -> "collections.OrderedDict[str, observable.Observable]":
        return self._task_observables


CONTROL_TIMESTEP_S = 0.04
TIME_LIMIT_S = 10.0
ARM_OFFSET_M = (0.0, 0.4, 0.0)
DOWN_QUATERNION = initializers.DOWN_QUATERNION
CAMERA_PIXELS = 84

# The facts dm_control's manipulation/shared/ modules give, from their counterparts.
RED = constants.RED
GREEN = constants.GREEN
BLUE = constants.BLUE
CYAN = constants.CYAN
TASK_SITE_GROUP = constants.TASK_SITE_GROUP
_MIN_SITE_HALF_SIZE_M = 1e-6

BoundingBox = workspaces.BoundingBox
CameraSpec = cameras.CameraSpec
FRONT_CLOSE = cameras.FRONT_CLOSE


def _symlog1p(value: np.ndarray, random_state: np.random.RandomState | None = None) -> np.ndarray:
    del random_state
    return np.sign(value) * np.log1p(np.abs(value))


ObservationSettings = collections.namedtuple(
    "ObservationSettings", ["proprio", "ftt", "prop_pose", "camera"]
)


def _options(enabled: bool, corruptor: Callable[..., np.ndarray] | None = None) -> dict[str, Any]:
    return dict(
        enabled=enabled,
        update_interval=1,
        buffer_size=1,
        delay=0,
        aggregator=None,
        corruptor=corruptor,
    )


PERFECT_FEATURES = ObservationSettings(
    proprio=_options(True),
    ftt=_options(True, _symlog1p),
    prop_pose=_options(True),
    camera=_options(False),
)
VISION = ObservationSettings(
    proprio=_options(True),
    ftt=_options(True, _symlog1p),
    prop_pose=_options(False),
    camera=_options(True),
)

_ARM_OBSERVABLES = dict(proprio=("joints_pos", "joints_vel"), ftt=("joints_torque",))
_HAND_OBSERVABLES = dict(proprio=("joints_pos", "joints_vel", "pinch_site_pos", "pinch_site_rmat"))
FREEPROP_OBSERVABLES = dict(
    prop_pose=("position", "orientation", "linear_velocity", "angular_velocity")
)


def observable_options(category_settings: Any) -> dict[str, Any]:
    """One category's observable options as a dict: from this module's settings (a
    dict per category) or from dm_control's (`manipulation.shared.observations`, an
    `ObservableSpec` namedtuple per category), so that both kinds of settings work.

    Raises:
      TypeError: neither a mapping nor a namedtuple of options.
    """
    if isinstance(category_settings, Mapping):
        return dict(category_settings)
    as_dict = getattr(category_settings, "_asdict", None)
    options = as_dict() if callable(as_dict) else None
    if isinstance(options, Mapping):
        return dict(options)
    raise TypeError(
        "observation settings must hold a mapping or an ObservableSpec per category, got "
        f"{category_settings!r}"
    )


def make_options(
    settings: ObservationSettings, names: Mapping[str, Sequence[str]]
) -> dict[str, dict[str, Any]]:
    """{observable name: options} for the observables of each category in `names`."""
    options = {}
    for category, observable_names in names.items():
        for name in observable_names:
            options[name] = observable_options(getattr(settings, category))
    return options


def make_arm(settings: ObservationSettings) -> JacoArm:
    """The Jaco arm with the observables `settings` enables."""
    return JacoArm(observable_options=make_options(settings, _ARM_OBSERVABLES))


def make_hand(settings: ObservationSettings) -> JacoHand:
    """The Jaco hand, its pinch site as the tool centre point, with the observables
    `settings` enables."""
    return JacoHand(
        use_pinch_site_as_tcp=True, observable_options=make_options(settings, _HAND_OBSERVABLES)
    )


def add_camera_observables(
    arena: Table, settings: ObservationSettings, *cameras: CameraSpec
) -> "collections.OrderedDict[str, observable.Observable]":
    """Adds the cameras to the arena; returns {name: MJCFCamera observable}."""
    observables: collections.OrderedDict[str, observable.Observable] = collections.OrderedDict()
    for camera in cameras:
        element = arena.add_camera(camera.name, camera.pos, camera.xyaxes)
        options = observable_options(settings.camera)
        # dm_control's CameraObservableSpec carries the image size (84 x 84 there too).
        camera_observable = observable.MJCFCamera(
            element,
            height=options.pop("height", CAMERA_PIXELS),
            width=options.pop("width", CAMERA_PIXELS),
        )
        camera_observable.configure(**options)
        observables[camera.name] = camera_observable
    return observables


def add_bbox_site(
    arena: Table,
    lower: ArrayLike,
    upper: ArrayLike,
    rgba: Sequence[float],
    name: str,
    visible: bool = False,
) -> mujoco.MjsSite:
    """A box site spanning [lower, upper] (m, world frame), for showing regions."""
    lower, upper = np.asarray(lower, float), np.asarray(upper, float)
    return arena.add_site(
        name=name,
        type=mujoco.mjtGeom.mjGEOM_BOX,
        pos=((upper + lower) / 2).tolist(),
        size=np.maximum((upper - lower) / 2, _MIN_SITE_HALF_SIZE_M).tolist(),
        rgba=list(rgba),
        group=0 if visible else TASK_SITE_GROUP,
    )


def uniform_z_rotation() -> rotations.QuaternionFromAxisAngle:
    """A variation drawing rotations about the world z axis, angle uniform in [-pi, pi)."""
    return rotations.QuaternionFromAxisAngle(
        axis=(0.0, 0.0, 1.0), angle=distributions.Uniform(-np.pi, np.pi, single_sample=True)
    )


def attach_robot(
    arena: Table, arm: JacoArm, hand: JacoHand, offset: ArrayLike = ARM_OFFSET_M
) -> None:
    """Mounts the hand on the arm's wrist and the arm on the arena at `offset` (m)."""
    arm.attach(hand)
    arena.attach_offset(arm, offset)
