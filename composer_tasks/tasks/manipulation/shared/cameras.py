"""Fixed cameras around the manipulation workspace (dm-control 1.0.50,
manipulation/shared/cameras.py: names, positions in metres and `xyaxes`)."""

import collections
from typing import Any

from composer_tasks.composer.observation import observable

CameraSpec = collections.namedtuple("CameraSpec", ["name", "pos", "xyaxes"])

FRONT_CLOSE = CameraSpec(name="front_close", pos=(0.0, -0.6, 0.75), xyaxes=(1, 0, 0, 0, 0.7, 0.75))
FRONT_FAR = CameraSpec(name="front_far", pos=(0.0, -0.8, 1.0), xyaxes=(1, 0, 0, 0, 0.7, 0.75))
TOP_DOWN = CameraSpec(name="top_down", pos=(0.0, 0.0, 2.5), xyaxes=(1, 0, 0, 0, 1, 0))
LEFT_CLOSE = CameraSpec(name="left_close", pos=(-0.6, 0.0, 0.75), xyaxes=(0, -1, 0, 0.7, 0, 0.75))
RIGHT_CLOSE = CameraSpec(name="right_close", pos=(0.6, 0.0, 0.75), xyaxes=(0, 1, 0, -0.7, 0, 0.75))


def add_camera_observables(
    entity: Any, obs_settings: Any, *camera_specs: CameraSpec
) -> "collections.OrderedDict[str, observable.MJCFCamera]":
    """Adds a camera per spec to `entity`'s world body and returns
    `{camera name: MJCFCamera observable}`, each configured with
    `obs_settings.camera` (image size, enabled, ...)."""
    observables = collections.OrderedDict()
    for spec in camera_specs:
        if not isinstance(spec, CameraSpec):
            raise TypeError(f"camera specs must be CameraSpec, got {type(spec).__name__}")
        camera = entity.mjcf_model.worldbody.add("camera", **spec._asdict())
        camera_observable = observable.MJCFCamera(camera)
        camera_observable.configure(**obs_settings.camera._asdict())
        observables[spec.name] = camera_observable
    return observables
