"""walkers.rescale and walkers.scaled_actuators (dm_control's modules of those names)."""

import numpy as np
import pytest

from composer_tasks import mjcf
from composer_tasks.walkers import cmu_humanoid, rescale, scaled_actuators


def test_rescale_subtree_scales_positions_sizes_and_segments():
    model = mjcf.RootElement()
    upper = model.worldbody.add("body", name="upper", pos=[0.0, 0.0, 1.0])
    upper.add("geom", name="bone", type="capsule", fromto=[0, 0, 0, 0.2, 0, -0.6], size=[0.05])
    lower = upper.add("body", name="lower", pos=[0.2, 0.0, -0.6])
    lower.add("geom", name="ball", type="sphere", pos=[0.1, 0, 0], size=[0.04])
    lower.add("site", name="tip", pos=[0.3, 0.0, -0.2], size=[0.01])
    rescale.rescale_subtree(model, 2.0, 0.5)
    physics = mjcf.Physics.from_mjcf_model(model)
    # Positions double: the tip is at 2 * ((0, 0, 1) + (0.2, 0, -0.6) + (0.3, 0, -0.2)).
    np.testing.assert_allclose(physics.named.data.site_xpos["tip"], [1.0, 0.0, 0.4], atol=1e-12)
    # The segment keeps its centre scaled as a position, its extent as a size.
    np.testing.assert_allclose(
        model.find("geom", "bone").fromto, [0.15, 0.0, -0.45, 0.25, 0.0, -0.75], atol=1e-12
    )
    np.testing.assert_allclose(model.find("geom", "ball").size, [0.02])
    with pytest.raises(TypeError, match="body, worldbody or RootElement"):
        rescale.rescale_subtree(model.find("geom", "ball"), 2.0, 2.0)


def test_rescale_humanoid_equals_the_rescaled_walker():
    walker = cmu_humanoid.CMUHumanoid()
    rescale.rescale_humanoid(walker, 1.2, 1.2, 70)
    physics = mjcf.Physics.from_mjcf_model(walker.mjcf_model)
    assert physics.bind(walker.root_body).subtreemass == pytest.approx(70.0)
    reference = cmu_humanoid.CMUHumanoidPositionControlled(scale_default=True)
    reference_physics = mjcf.Physics.from_mjcf_model(reference.mjcf_model)
    np.testing.assert_allclose(physics.model.body_mass, reference_physics.model.body_mass)
    np.testing.assert_array_equal(physics.model.geom_size, reference_physics.model.geom_size)


def _two_hinges():
    model = mjcf.RootElement()
    joints = []
    for index in range(2):
        body = model.worldbody.add("body", name=f"link{index}")
        body.add("geom", type="sphere", size=[0.5])
        joints.append(body.add("joint", name=f"hinge{index}", type="hinge"))
    return model, joints


@pytest.mark.parametrize("kind", ["position", "velocity"])
def test_scaled_servo_equals_the_standard_servo(kind):
    model, (scaled_joint, standard_joint) = _two_hinges()
    target_range, control_range, gain = (-0.5, 1.5), (0.0, 4.0), 3.0
    if kind == "position":
        scaled = scaled_actuators.add_position_actuator(
            scaled_joint, target_range, ctrlrange=control_range, kp=gain
        )
        standard = model.actuator.add(
            "position", joint=standard_joint, kp=gain, ctrllimited=True, ctrlrange=target_range
        )
    else:
        scaled = scaled_actuators.add_velocity_actuator(
            scaled_joint, target_range, ctrlrange=control_range, kv=gain
        )
        standard = model.actuator.add(
            "velocity", joint=standard_joint, kv=gain, ctrllimited=True, ctrlrange=target_range
        )
    physics = mjcf.Physics.from_mjcf_model(model)
    rng = np.random.RandomState(0)
    for _ in range(20):
        fraction, state = rng.uniform(), rng.uniform(-1.0, 1.0)
        field = "qpos" if kind == "position" else "qvel"
        setattr(physics.bind([scaled_joint, standard_joint]), field, [state, state])
        physics.bind(scaled).ctrl = control_range[0] + fraction * 4.0
        physics.bind(standard).ctrl = target_range[0] + fraction * 2.0
        physics.forward()
        forces = physics.bind([scaled_joint, standard_joint]).qfrc_actuator
        assert forces[0] == pytest.approx(forces[1], abs=1e-12)


def test_scaled_servo_refuses_what_it_sets_and_other_targets():
    model, (joint, _) = _two_hinges()
    with pytest.raises(TypeError, match=r"\['biasprm', 'gainprm'\]"):
        scaled_actuators.add_position_actuator(joint, (0, 1), gainprm=[1], biasprm=[0, 0, 0])
    with pytest.raises(TypeError, match="`target` tag type should be one of"):
        scaled_actuators.add_velocity_actuator(model.worldbody, (0, 1))
