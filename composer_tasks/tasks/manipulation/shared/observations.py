"""Observation settings of the manipulation tasks (dm-control 1.0.50,
manipulation/shared/observations.py): which observables each kind of observation
enables, and with what options.

An `ObservationSettings` holds one `ObservableSpec` (the options of
`Observable.configure`) per category: proprioception, joint force-torque, prop
poses, and cameras (`CameraObservableSpec`, with the image size).
`make_options(settings, names)` turns settings and an entity's `ObservableNames`
into the `observable_options` an entity's constructor takes.
"""

import collections
from collections.abc import Sequence
from typing import Any

import numpy as np


class ObservableSpec(
    collections.namedtuple(
        "ObservableSpec",
        ["enabled", "update_interval", "buffer_size", "delay", "aggregator", "corruptor"],
    )
):
    """The options of one observable (`Observable.configure`'s keywords)."""

    __slots__ = ()


class CameraObservableSpec(
    collections.namedtuple("CameraObservableSpec", ("height", "width") + ObservableSpec._fields)
):
    """A camera observable's options: its image size (pixels), then `ObservableSpec`'s."""

    __slots__ = ()


class ObservationSettings(
    collections.namedtuple("ObservationSettings", ["proprio", "ftt", "prop_pose", "camera"])
):
    """One spec per category of observable."""

    __slots__ = ()


class ObservableNames(
    collections.namedtuple("ObservableNames", ["proprio", "ftt", "prop_pose", "camera"])
):
    """An entity's observable names per category (empty categories by default)."""

    __slots__ = ()

    def __new__(
        cls,
        proprio: Sequence[str] = (),
        ftt: Sequence[str] = (),
        prop_pose: Sequence[str] = (),
        camera: Sequence[str] = (),
    ) -> "ObservableNames":
        return super().__new__(cls, proprio=proprio, ftt=ftt, prop_pose=prop_pose, camera=camera)


def _symlog1p(value: np.ndarray, random_state: Any) -> np.ndarray:
    """sign(x) log(1 + |x|): squashes joint torques (a corruptor, hence random_state)."""
    del random_state
    return np.sign(value) * np.log1p(np.abs(value))


_DISABLED = ObservableSpec(
    enabled=False, update_interval=1, buffer_size=1, delay=0, aggregator=None, corruptor=None
)
_ENABLED = _DISABLED._replace(enabled=True)
_DISABLED_FTT = _DISABLED._replace(corruptor=_symlog1p)
_ENABLED_FTT = _ENABLED._replace(corruptor=_symlog1p)
# 84 x 84 images, as in dm_control.
_DISABLED_CAMERA = CameraObservableSpec(height=84, width=84, **_DISABLED._asdict())
_ENABLED_CAMERA = _DISABLED_CAMERA._replace(enabled=True)

# Ground truth: proprioception, torques and the props' poses; no camera.
PERFECT_FEATURES = ObservationSettings(
    proprio=_ENABLED, ftt=_ENABLED_FTT, prop_pose=_ENABLED, camera=_DISABLED_CAMERA
)
# Pixels: proprioception, torques and a camera; no prop poses.
VISION = ObservationSettings(
    proprio=_ENABLED, ftt=_ENABLED_FTT, prop_pose=_DISABLED, camera=_ENABLED_CAMERA
)

JACO_ARM_OBSERVABLES = ObservableNames(proprio=["joints_pos", "joints_vel"], ftt=["joints_torque"])
JACO_HAND_OBSERVABLES = ObservableNames(
    proprio=["joints_pos", "joints_vel", "pinch_site_pos", "pinch_site_rmat"]
)
FREEPROP_OBSERVABLES = ObservableNames(
    prop_pose=["position", "orientation", "linear_velocity", "angular_velocity"]
)


def make_options(
    obs_settings: ObservationSettings, obs_names: ObservableNames
) -> dict[str, dict[str, Any]]:
    """`{observable name: {option: value}}` for every name of `obs_names`, with the
    options of its category in `obs_settings`.

    Raises:
      AttributeError: `obs_settings` is not an `ObservationSettings` or `obs_names`
        not an `ObservableNames` (the error dm_control's raises for them, here
        with a message that names the argument).
    """
    if not isinstance(obs_settings, ObservationSettings):
        raise AttributeError(
            f"obs_settings must be an ObservationSettings, got {type(obs_settings).__name__}"
        )
    if not isinstance(obs_names, ObservableNames):
        raise AttributeError(
            f"obs_names must be an ObservableNames, got {type(obs_names).__name__}"
        )
    options = {}
    for category, spec in obs_settings._asdict().items():
        for name in getattr(obs_names, category):
            options[name] = spec._asdict()
    return options
