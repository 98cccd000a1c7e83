"""composer.Entity and Task frame helpers against dm_control's: root bodies and
attachment sites, world vectors and orientation matrices in an entity's frame
(single and batched, 2-D and 3-D), configure_joints, Task.iter_entities, and the
base arena's name."""

import pytest

PROGRAM = """
import numpy as np
from dm_control import composer, mjcf

class Arm(composer.Entity):
    def _build(self, name):
        self._model = mjcf.RootElement(model=name)
        upper = self._model.worldbody.add('body', name='upper')
        upper.add('joint', name='shoulder', type='hinge', axis=[0, 1, 0])
        upper.add('geom', type='capsule', fromto=[0, 0, 0, 0.3, 0, 0], size=[0.05])
        lower = upper.add('body', name='lower', pos=[0.3, 0, 0])
        lower.add('joint', name='elbow', type='hinge', axis=[0, 1, 0])
        lower.add('geom', type='capsule', fromto=[0, 0, 0, 0.3, 0, 0], size=[0.04])
        self._site = lower.add('site', name='tip', pos=[0.3, 0, 0])
    @property
    def mjcf_model(self):
        return self._model

class Task(composer.Task):
    def __init__(self):
        self._arena = composer.Arena()
        self.arm = Arm('arm')
        self.hand = Arm('hand')
        self.arm.attach(self.hand)
        self._arena.add_free_entity(self.arm)
    @property
    def root_entity(self):
        return self._arena
    def get_reward(self, physics):
        return 0.0

task = Task()
record('iter_entities', [entity.mjcf_model.model for entity in task.iter_entities()])
record('root_body_root', task.root_entity.root_body.tag)
record('attachment_site', task.arm.attachment_site is task.arm.mjcf_model)
env = composer.Environment(task, random_state=0)
env.reset()
physics = env.physics
angle = 0.7
quat = np.array([np.cos(angle / 2), 0.3 * np.sin(angle / 2), 0.4 * np.sin(angle / 2), np.sqrt(0.75) * np.sin(angle / 2)])
quat /= np.linalg.norm(quat)
task.arm.set_pose(physics, position=[0.2, 0.1, 0.5], quaternion=quat)
physics.forward()
record('root_body_xmat', physics.bind(task.arm.root_body).xmat)
for label, vector in [('v3', [1.0, 2.0, 3.0]), ('v2', [1.0, -0.5]), ('batch3', np.arange(12.0).reshape(4, 3)),
                      ('batch2', np.arange(6.0).reshape(3, 2))]:
    check(f'vector/{label}', task.arm.global_vector_to_local_frame, physics, vector)
    check(f'root_vector/{label}', task.root_entity.global_vector_to_local_frame, physics, vector)
check('vector/bad', task.arm.global_vector_to_local_frame, physics, [1.0, 2.0, 3.0, 4.0])
other = physics.bind(task.hand.root_body).xmat
check('xmat9', task.arm.global_xmat_to_local_frame, physics, other)
check('xmat33', task.arm.global_xmat_to_local_frame, physics, np.reshape(other, (3, 3)))
check('xmat_bad', task.arm.global_xmat_to_local_frame, physics, np.zeros(4))
task.hand.configure_joints(physics, [0.3, -0.2])
record('configure_joints', np.array(physics.data.qpos))
"""


@pytest.mark.dm_control_api(
    "composer.Entity.root_body",
    "composer.Entity.attachment_site",
    "composer.Entity.global_vector_to_local_frame",
    "composer.Entity.global_xmat_to_local_frame",
    "composer.Entity.configure_joints",
    "composer.Entity.set_pose",
    "composer.Entity.iter_entities",
    "composer.Task.iter_entities",
    "composer.Arena",
)
def test_entity_frames_match_dm_control(differential):
    differential.assert_same(PROGRAM, "composer_entity", rtol=1e-12, atol=1e-12)


ATTACHMENT_SITE_PROGRAM = """
from dm_control import composer, mjcf


class Box(composer.Entity):
    def _build(self):
        self._model = mjcf.RootElement(model="box")
        body = self._model.worldbody.add("body", name="b", pos=[0, 0, 1])
        body.add("geom", type="box", size=[0.1, 0.1, 0.1])
        self._site = body.add("site", name="top", pos=[0, 0, 0.1], euler=[0, 0, 90])

    @property
    def mjcf_model(self):
        return self._model

    @property
    def attachment_site(self):
        return self._site


class Ball(composer.Entity):
    def _build(self, name="ball"):
        self._model = mjcf.RootElement(model=name)
        self._model.worldbody.add("geom", type="sphere", size=[0.05], pos=[0.1, 0, 0])

    @property
    def mjcf_model(self):
        return self._model


box = Box()
frame = box.attach(Ball())
record("frame_parent", frame.parent.name)
other = box.attach(Ball("other"), box.mjcf_model.worldbody.add("site", name="side", pos=[1, 0, 0]))
physics = mjcf.Physics.from_mjcf_model(box.mjcf_model)
record("body_names", list(physics.named.data.xpos.axes.row.names))
record("xpos", physics.named.data.xpos)
record("geom_xpos", physics.named.data.geom_xpos)
"""


@pytest.mark.dm_control_api("composer.Entity.attach", "composer.Entity.attachment_site")
def test_attach_defaults_to_the_entitys_attachment_site(differential):
    differential.assert_same(
        ATTACHMENT_SITE_PROGRAM, "entity_attachment_site", rtol=1e-9, atol=1e-9
    )
