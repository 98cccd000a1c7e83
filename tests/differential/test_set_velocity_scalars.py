"""`Entity.set_velocity` and the soccer BoxHead's with single numbers, against
dm_control's: its slice and binding assignments fill every component with the
number (dm_control's soccer task_test sets `angular_velocity=0.` this way)."""

_PROGRAM = """
import numpy as np
from dm_control import composer, mjcf
from dm_control.locomotion.soccer import boxhead

model = mjcf.RootElement(model="ball")
model.worldbody.add("geom", type="sphere", size=[0.1], mass=1.0)
ball = composer.ModelWrapperEntity(model)
walker = boxhead.BoxHead(name="player", walker_id=0, marker_rgba=(1.0, 0.0, 0.0, 1.0))
arena = composer.Arena()
arena.add_free_entity(ball)
walker.create_root_joints(arena.attach(walker))
physics = mjcf.Physics.from_mjcf_model(arena.mjcf_model)
ball.set_velocity(physics, velocity=0.5, angular_velocity=-2.0)
record("ball_qvel", physics.bind(mjcf.get_frame_freejoint(ball.mjcf_model)).qvel.copy())
ball.set_velocity(physics, velocity=[1.0, 2.0, 3.0], angular_velocity=0.0)
record("ball_qvel_mixed", physics.bind(mjcf.get_frame_freejoint(ball.mjcf_model)).qvel.copy())
walker.set_velocity(physics, velocity=0.25, angular_velocity=0.0)
record("walker_qvel", physics.data.qvel.copy())
"""


def test_scalar_velocities_fill_every_component_as_in_dm_control(differential):
    differential.assert_same(_PROGRAM, "set_velocity_scalars")
