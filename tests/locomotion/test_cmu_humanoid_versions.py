"""dm_control's CMU humanoid classes: the V2019 torque walker, the position-controlled
walker (V2019, V2020, rescaled), and the soccer Humanoid; facts, actions,
observables, a rollout and determinism."""

import numpy as np
import pytest

from composer_tasks import composer, mjcf
from composer_tasks.arenas import corridors as corridor_arenas
from composer_tasks.tasks import corridors as corridor_tasks
from composer_tasks.walkers import cmu_humanoid, soccer_humanoid, soccer_team


def _environment(walker, seed=0):
    task = corridor_tasks.RunThroughCorridor(
        walker=walker,
        arena=corridor_arenas.EmptyCorridor(),
        physics_timestep=0.005,
        control_timestep=0.03,
    )
    return composer.Environment(
        time_limit=10, task=task, random_state=seed, strip_singleton_obs_buffer_dim=True
    )


def _physics(walker):
    return mjcf.Physics.from_mjcf_model(walker.mjcf_model)


def test_torque_walker_facts():
    walker = cmu_humanoid.CMUHumanoid()
    physics = _physics(walker)
    names = [actuator.name for actuator in walker.actuators]
    assert names == sorted(names) and len(names) == 56
    assert walker.action_spec.name.split("\t") == names
    # dm-control 1.0.50's V2019 body weighs 39.6254 kg at water density.
    assert physics.bind(walker.root_body).subtreemass == pytest.approx(39.62540014543319)
    # Gears (N m): 120 at the hips' flexion, 20 at the neck.
    gears = dict(zip(names, physics.bind(walker.actuators).gear[:, 0]))
    assert gears["lfemurrx"] == 120.0 and gears["lowerneckrx"] == 20.0
    # The published numbers are read as degrees, as dm_control reads that file.
    head = physics.bind(walker.mjcf_model.find("joint", "headrx"))
    np.testing.assert_allclose(head.range, np.deg2rad([-0.349066, 0.785398]))
    # Mocap order and actuator order are inverse permutations.
    order, inverse = walker.actuator_order, walker.actuator_to_joint_order
    np.testing.assert_array_equal(order[inverse], np.arange(56))
    assert [walker.mocap_joints[i].name for i in order] == names


def test_position_walker_servos_and_pose_mapping():
    walker = cmu_humanoid.CMUHumanoidPositionControlled()
    physics = _physics(walker)
    table = {params.name: params for params in cmu_humanoid._POSITION_ACTUATORS}
    bound = physics.bind(walker.actuators)
    for actuator, biasprm, forcerange in zip(walker.actuators, bound.biasprm, bound.forcerange):
        assert biasprm[1] == -table[actuator.name].kp
        np.testing.assert_array_equal(forcerange, table[actuator.name].forcerange)
    # The lower back's force limit (120 N m) is below its gain (150 N m/rad).
    assert table["lowerbackrx"].forcerange == [-120, 120] and table["lowerbackrx"].kp == 150
    upper = np.array([joint.range[1] for joint in walker.mocap_joints])
    np.testing.assert_allclose(walker.cmu_pose_to_actuation(upper), 1.0)
    with pytest.raises(ValueError, match=r"shape \(56,\)"):
        walker.cmu_pose_to_actuation(np.zeros(2))


@pytest.mark.parametrize(
    "kwargs, mass_kg, filtered",
    [
        (dict(model_version="2019", scale_default=True), 70.0, False),
        (dict(model_version="2020"), 66.954, True),
    ],
)
def test_versions_and_rescale(kwargs, mass_kg, filtered):
    walker = cmu_humanoid.CMUHumanoidPositionControlled(**kwargs)
    physics = _physics(walker)
    assert physics.bind(walker.root_body).subtreemass == pytest.approx(mass_kg, abs=1e-3)
    assert physics.model.na == (56 if filtered else 0)
    with pytest.raises(ValueError, match="model_version"):
        cmu_humanoid.CMUHumanoidPositionControlled(model_version="2021")


def test_observables_rollout_and_determinism():
    def run(seed):
        walker = cmu_humanoid.CMUHumanoid(marker_rgba=(1.0, 0.0, 1.0, 0.5))
        environment = _environment(walker, seed)
        observation = environment.reset().observation
        assert observation["walker/actuator_activation"].shape == (0,)
        assert not walker.observables.body_camera.enabled
        actions = np.random.RandomState(seed).uniform(-1.0, 1.0, (10, 56))
        readings = []
        for action in actions:
            observation = environment.step(action).observation
            torque = observation["walker/sensors_torque"]
            assert torque.shape == (6,) and np.all(np.abs(torque) < 1.0)
            readings.append(observation["walker/joints_pos"])
        return np.stack(readings)

    first = run(4)
    assert np.all(np.isfinite(first))
    np.testing.assert_array_equal(first, run(4))
    marked = cmu_humanoid.CMUHumanoid(marker_rgba=(1.0, 0.0, 1.0, 0.5))
    assert [geom.name for geom in marked.marker_geoms] == ["rradius", "lradius"]
    marked_physics = _physics(marked)
    np.testing.assert_allclose(
        marked_physics.bind(marked.marker_geoms).rgba, [[1.0, 0.0, 1.0, 0.5]] * 2
    )


def test_soccer_humanoid_looks_and_actions():
    red = soccer_team.RGBA_RED
    walker = soccer_humanoid.Humanoid(visual=soccer_humanoid.Humanoid.Visual.GEOM, marker_rgba=red)
    physics = _physics(walker)
    rgba = physics.bind(walker.marker_geoms).rgba
    # The face keeps its colour (dm_control colours the markers before adding it).
    np.testing.assert_allclose(rgba[1:], np.tile([*red[:3], 0.7], (len(rgba) - 1, 1)), atol=1e-7)
    assert not np.allclose(rgba[0], [*red[:3], 0.7])
    assert walker.mjcf_model.find("geom", "lhand_visual") is not None
    jersey = soccer_humanoid.Humanoid(
        visual=soccer_humanoid.Humanoid.Visual.JERSEY, marker_rgba=red, walker_id=3
    )
    jersey_physics = _physics(jersey)
    thorax = jersey_physics.bind(jersey.mjcf_model.find("geom", "thorax"))
    np.testing.assert_allclose(thorax.rgba, red, atol=1e-7)
    with pytest.raises(ValueError, match=r"walker_id must be in \[0-10\], got: 11."):
        soccer_humanoid.Humanoid(
            visual=soccer_humanoid.Humanoid.Visual.JERSEY, marker_rgba=red, walker_id=11
        )
    action = np.linspace(-1.0, 1.0, 56)
    walker.apply_action(physics, action, None)
    np.testing.assert_array_equal(walker.prev_action, action)
