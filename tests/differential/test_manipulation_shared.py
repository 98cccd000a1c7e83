"""dm_control's `manipulation.shared` building blocks (observation settings, cameras,
the arm and hand, workspace sites, the task registry and tags), used as a user's
own manipulation task uses them, run on both sides and compared."""

import pytest

PROGRAM = """
import numpy as np
from dm_control import mjcf
from dm_control.manipulation.shared import (
    arenas, cameras, constants, observations, registry, robots, tags, workspaces)
from dm_control import manipulation  # noqa: F401  (registers the tasks)

options = observations.make_options(observations.VISION, observations.JACO_HAND_OBSERVABLES)
record('hand_options', sorted(options))
record('pinch_enabled', options['pinch_site_pos']['enabled'])
record('arm_options', sorted(observations.make_options(
    observations.PERFECT_FEATURES, observations.JACO_ARM_OBSERVABLES)['joints_torque']))
record('torque_corruptor', observations.PERFECT_FEATURES.ftt.corruptor(
    np.array([-3.0, 0.0, 2.0]), random_state=None))
record('camera_spec', (observations.VISION.camera.height, observations.VISION.camera.width,
                       observations.VISION.camera.enabled, observations.PERFECT_FEATURES.camera.enabled))
record('prop_pose', (observations.PERFECT_FEATURES.prop_pose.enabled,
                     observations.VISION.prop_pose.enabled))
record('freeprop', list(observations.FREEPROP_OBSERVABLES.prop_pose))
record('names_default', observations.ObservableNames())
record('spec_fields', observations.CameraObservableSpec._fields)
check('bad_settings', observations.make_options, {}, observations.FREEPROP_OBSERVABLES)

arm = robots.make_arm(observations.PERFECT_FEATURES)
hand = robots.make_hand(observations.PERFECT_FEATURES)
record('arm_obs', [arm.observables.joints_pos.enabled, arm.observables.joints_torque.enabled])
record('hand_obs', [hand.observables.pinch_site_pos.enabled])
arena = arenas.Standard()
arm.attach(hand)
arena.attach_offset(arm, robots.ARM_OFFSET)
site = workspaces.add_bbox_site(arena.mjcf_model.worldbody, [-0.1, -0.1, 0.0], [0.1, 0.1, 0.2],
                                name='bbox', rgba=constants.GREEN)
flat = workspaces.add_bbox_site(arena.mjcf_model.worldbody, [0.0, 0.0, 0.1], [0.2, 0.2, 0.1],
                                visible=True, name='flat')
target = workspaces.add_target_site(arena.mjcf_model.worldbody, radius=0.05, visible=True,
                                    name='target', rgba=constants.RED)
hidden = workspaces.add_target_site(arena.mjcf_model.worldbody, radius=0.02, name='hidden')
found = cameras.add_camera_observables(arena, observations.VISION, cameras.FRONT_CLOSE,
                                       cameras.TOP_DOWN, cameras.LEFT_CLOSE, cameras.RIGHT_CLOSE,
                                       cameras.FRONT_FAR)
record('cameras', list(found))
record('camera_options', [(o.height, o.width, o.enabled) for o in found.values()])
physics = mjcf.Physics.from_mjcf_model(arena.mjcf_model)
for name, element in [('bbox', site), ('flat', flat), ('target', target), ('hidden', hidden)]:
    bound = physics.bind(element)
    record(name, [np.array(bound.size), np.array(bound.pos), int(bound.group), int(bound.type),
                  np.array(bound.rgba)])
for spec in (cameras.FRONT_CLOSE, cameras.TOP_DOWN, cameras.LEFT_CLOSE, cameras.RIGHT_CLOSE,
             cameras.FRONT_FAR):
    record('cam_' + spec.name, [np.array(physics.named.data.cam_xpos[spec.name]),
                                np.array(physics.named.data.cam_xmat[spec.name])])
record('arm_base', np.array(physics.bind(arm.joints[0]).xanchor))
record('tags', (tags.FEATURES, tags.VISION, tags.EASY))
record('colours', (constants.RED, constants.GREEN, constants.BLUE, constants.CYAN,
                   constants.MAGENTA, constants.YELLOW, constants.TASK_SITE_GROUP,
                   constants.CONTROL_TIMESTEP))
record('z_rotation', workspaces.uniform_z_rotation(random_state=np.random.RandomState(3)))
record('down', np.array(workspaces.DOWN_QUATERNION))
record('box', workspaces.BoundingBox(lower=(0, 0, 0), upper=(1, 1, 1)))
record('registry_names', list(registry.get_all_names()))
record('registry_tags', registry.get_tags())
record('registry_easy', list(registry.get_names_by_tag('easy')))
# dm_control orders a multi-tag query by a set of names (hash order): compare sorted.
record('registry_vision_easy', sorted(registry.get_names_by_tag('vision', 'easy')))
record('constructor', type(registry.get_constructor('reach_site_features')()).__name__)
"""


@pytest.mark.dm_control_api(
    "manipulation.shared.arenas.Standard",
    "manipulation.shared.arenas.Standard.attach_offset",
    "manipulation.shared.cameras.CameraSpec",
    "manipulation.shared.cameras.CameraSpec.name",
    "manipulation.shared.cameras.CameraSpec.pos",
    "manipulation.shared.cameras.CameraSpec.xyaxes",
    "manipulation.shared.cameras.FRONT_CLOSE",
    "manipulation.shared.cameras.FRONT_FAR",
    "manipulation.shared.cameras.LEFT_CLOSE",
    "manipulation.shared.cameras.RIGHT_CLOSE",
    "manipulation.shared.cameras.TOP_DOWN",
    "manipulation.shared.cameras.add_camera_observables",
    "manipulation.shared.constants.BLUE",
    "manipulation.shared.constants.CONTROL_TIMESTEP",
    "manipulation.shared.constants.CYAN",
    "manipulation.shared.constants.GREEN",
    "manipulation.shared.constants.MAGENTA",
    "manipulation.shared.constants.RED",
    "manipulation.shared.constants.TASK_SITE_GROUP",
    "manipulation.shared.constants.YELLOW",
    "manipulation.shared.observations.CameraObservableSpec",
    "manipulation.shared.observations.FREEPROP_OBSERVABLES",
    "manipulation.shared.observations.JACO_ARM_OBSERVABLES",
    "manipulation.shared.observations.JACO_HAND_OBSERVABLES",
    "manipulation.shared.observations.ObservableNames",
    "manipulation.shared.observations.ObservableSpec",
    "manipulation.shared.observations.ObservationSettings",
    "manipulation.shared.observations.PERFECT_FEATURES",
    "manipulation.shared.observations.VISION",
    "manipulation.shared.observations.make_options",
    "manipulation.shared.registry.add",
    "manipulation.shared.registry.done_importing_tasks",
    "manipulation.shared.registry.get_constructor",
    "manipulation.shared.registry.get_names_by_tag",
    "manipulation.shared.registry.get_tags",
    "manipulation.shared.robots.ARM_OFFSET",
    "manipulation.shared.robots.make_arm",
    "manipulation.shared.robots.make_hand",
    "manipulation.shared.tags.EASY",
    "manipulation.shared.tags.FEATURES",
    "manipulation.shared.tags.VISION",
    "manipulation.shared.workspaces.BoundingBox",
    "manipulation.shared.workspaces.BoundingBox.lower",
    "manipulation.shared.workspaces.BoundingBox.upper",
    "manipulation.shared.workspaces.add_bbox_site",
    "manipulation.shared.workspaces.add_target_site",
    "manipulation.shared.workspaces.uniform_z_rotation",
)
def test_manipulation_shared_matches_dm_control(differential):
    differential.assert_same(PROGRAM, "manipulation_shared", rtol=1e-9, atol=1e-12)


REGISTER = """
from dm_control.manipulation.shared import registry
from dm_control import manipulation  # noqa: F401  (registers the tasks, closes the registry)

@registry.add('features', 'mine')
def my_task():
    return 'mine'

record('mine', registry.get_constructor('my_task')())
record('mine_tagged', list(registry.get_names_by_tag('mine')))

# Replacing a name is allowed once the package closed the registry (the workers run
# other programs after this one, so a new name is replaced, not a task's).
@registry.add('vision')
def my_task():
    return 'replaced'

record('replaced', registry.get_constructor('my_task')())
record('replaced_tags', sorted(registry.get_names_by_tag('mine')))
"""


@pytest.mark.dm_control_api("manipulation.shared.registry.add")
def test_registering_a_task_matches_dm_control(differential):
    differential.assert_same(REGISTER, "manipulation_shared_registry")
