"""dm_control's observable camera properties, the variation broadcaster and the
Control Suite's MuJoCo profiling wrapper, case by case; each run on both sides and
compared. Nothing here renders: the cameras' specs and settings are read only.
"""

import pytest

from tests.differential.surface_cases import PRELUDE, assert_case

_MARK = pytest.mark

PROGRAM = (
    PRELUDE
    + r"""
import numpy as np
from dm_control import mjcf, suite
from dm_control.composer.observation import observable
from dm_control.composer.variation import distributions, variation_broadcaster
from dm_control.suite.wrappers import mujoco_profiling


def spec_of(spec):
    if spec is None:
        return None
    fields = [type(spec).__name__, list(spec.shape), np.dtype(spec.dtype).name]
    if hasattr(spec, "minimum"):
        fields += [np.asarray(spec.minimum), np.asarray(spec.maximum)]
    return fields


@case("observable_array_spec")
def _(put):
    generic = observable.Generic(lambda physics: np.zeros(3))
    put("generic", spec_of(generic.array_spec))


@case("mujoco_camera_array_spec")
def _(put):
    camera = observable.MujocoCamera("cam", height=24, width=32)
    put("mujoco_camera", spec_of(camera.array_spec))
    put("mujoco_camera_depth", spec_of(observable.MujocoCamera("cam", 24, 32, depth=True)
                                       .array_spec))


@case("mjcf_camera")
def _(put):
    # Each setting at construction: dm_control fixes the image dtype there, so a camera
    # switched to depth afterwards raises OverflowError from its array_spec.
    model = mjcf.RootElement()
    camera = model.worldbody.add("camera", name="eye", pos=[0, 0, 1])
    rgb = observable.MJCFCamera(camera, height=24, width=32)
    put("defaults", [rgb.depth, rgb.segmentation, rgb.scene_option, rgb.render_flag_overrides])
    put("rgb_spec", spec_of(rgb.array_spec))
    depth = observable.MJCFCamera(camera, height=8, width=8, depth=True)
    put("depth", [depth.depth, spec_of(depth.array_spec)])
    segmentation = observable.MJCFCamera(camera, height=8, width=8, segmentation=True)
    put("segmentation", [segmentation.segmentation, spec_of(segmentation.array_spec)])
    rgb.render_flag_overrides = {"shadow": False}
    rgb.scene_option = None
    rgb.depth = True
    segmentation.segmentation = False
    put("settings", [rgb.depth, segmentation.segmentation, rgb.scene_option,
                     rgb.render_flag_overrides])


@case("variation_broadcaster")
def _(put):
    broadcaster = variation_broadcaster.VariationBroadcaster(distributions.Uniform(0.0, 1.0))
    first = broadcaster.get_proxy()
    second = broadcaster.get_proxy()
    random_state = np.random.RandomState(9)
    draws = [first(random_state=random_state), first(random_state=random_state),
             second(random_state=random_state), second(random_state=random_state),
             second(random_state=random_state), first(random_state=random_state)]
    put("draws", draws)
    third = broadcaster.get_proxy()
    put("late_proxy", [third(random_state=random_state), first(random_state=random_state),
                       second(random_state=random_state)])


@case("mujoco_profiling")
def _(put):
    put("STATE_KEY", mujoco_profiling.STATE_KEY)
    env = mujoco_profiling.Wrapper(suite.load("cartpole", "balance",
                                              task_kwargs={"random": 3}))
    spec = env.action_spec()
    put("action_spec", [spec.name, list(spec.shape), np.asarray(spec.minimum),
                        np.asarray(spec.maximum)])
    put("observation_keys", list(env.observation_spec()))
    timestep = env.reset()
    timestep = env.step(np.zeros(spec.shape))
    put("timing_shape", np.shape(timestep.observation["step_timing"]))
    put("timing_counts", float(timestep.observation["step_timing"][1]) > 0)
"""
)

CASES = [
    pytest.param(
        "observable_array_spec",
        marks=_MARK.dm_control_api("composer.observation.observable.Observable.array_spec"),
        id="observable_array_spec",
    ),
    pytest.param(
        "mujoco_camera_array_spec",
        marks=_MARK.dm_control_api("composer.observation.observable.MujocoCamera.array_spec"),
        id="mujoco_camera_array_spec",
    ),
    pytest.param(
        "mjcf_camera",
        marks=_MARK.dm_control_api(
            "composer.observation.observable.MJCFCamera.array_spec",
            "composer.observation.observable.MJCFCamera.depth",
            "composer.observation.observable.MJCFCamera.render_flag_overrides",
            "composer.observation.observable.MJCFCamera.scene_option",
            "composer.observation.observable.MJCFCamera.segmentation",
        ),
        id="mjcf_camera",
    ),
    pytest.param(
        "variation_broadcaster",
        marks=_MARK.dm_control_api(
            "composer.variation.variation_broadcaster.VariationBroadcaster",
            "composer.variation.variation_broadcaster.VariationBroadcaster.get_proxy",
        ),
        id="variation_broadcaster",
    ),
    pytest.param(
        "mujoco_profiling",
        marks=_MARK.dm_control_api(
            "suite.wrappers.mujoco_profiling.STATE_KEY",
            "suite.wrappers.mujoco_profiling.Wrapper.action_spec",
        ),
        id="mujoco_profiling",
    ),
]


@pytest.fixture(scope="module")
def extras_run(differential):
    return differential.compare(
        PROGRAM, "surface_composer_extras", rtol=1e-6, atol=1e-8, timeout_s=300
    )


@pytest.mark.parametrize("case", CASES)
def test_composer_extras_surface_matches_dm_control(extras_run, case):
    assert_case(extras_run, case)
