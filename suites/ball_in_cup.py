"""Ball-in-cup: swing a ball tied to a cup by a string and catch it in the cup.

The task, reward and initial states follow dm_control 1.0.50 `suite/ball_in_cup.py`.
"""

import mjcf_models.ball_in_cup
from composer_tasks import physics as physics_lib
from suites import base, common

_DEFAULT_TIME_LIMIT = 20  # seconds
_CONTROL_TIMESTEP = 0.02  # seconds: ten physics steps
# The ball starts uniformly in this box (world x and z, metres), redrawn while it
# touches anything.
_BALL_X_RANGE = (-0.2, 0.2)
_BALL_Z_RANGE = (0.2, 0.5)

SUITE = base.Registry()


@SUITE.add("benchmarking", "easy")
def catch(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
    """Catch the ball in the cup."""
    return base.make_environment(BallInCup(), time_limit, random, environment_kwargs)


def get_model_and_assets():
    """dm_control's `ball_in_cup.get_model_and_assets`: the MJCF text (bytes) of the
    domain's model and the suite's shared assets, for
    `Physics.from_xml_string(*get_model_and_assets())` and dm_control's
    `control.Environment(physics, task)` (the text compiles to the model this domain's
    tasks build, bit for bit: `composer_tasks.physics.spec_xml`)."""
    return physics_lib.spec_xml(mjcf_models.ball_in_cup.make_spec()), common.ASSETS


class Physics(physics_lib.Physics):
    """Ball-in-cup physics with named quantities (world x-z plane, metres).

    Quantities also work on the (N, ...) arrays of a batch (`composer_tasks.batch`).
    """

    def _model_changed(self):
        model = self.model
        self._target_site = model.site("target").id
        self._ball_body = model.body("ball").id
        self._ball_geom = model.geom("ball").id

    def joint_positions(self):
        """(cup_x, cup_z, ball_x, ball_z) slide positions in metres."""
        return self.data.qpos.copy()

    def joint_velocities(self):
        """(cup_x, cup_z, ball_x, ball_z) slide velocities in m/s."""
        return self.data.qvel.copy()

    def ball_to_target(self):
        """(x, z) vector from the ball's centre to the target's centre."""
        data = self.data
        return data.site_xpos[..., self._target_site, ::2] - data.xpos[..., self._ball_body, ::2]

    def in_target(self):
        """1.0 if the whole ball is inside the cup's target box, else 0.0: every
        |ball-to-target offset| is below the box's half-extent less the ball's radius."""
        model, data = self.model, self.data
        target = data.site_xpos[..., self._target_site, :]
        ball = data.xpos[..., self._ball_body, :]
        half_size = model.site_size[..., self._target_site, :]
        ball_radius = model.geom_size[..., self._ball_geom, 0]
        inside = (abs(target[..., 0] - ball[..., 0]) < half_size[..., 0] - ball_radius) & (
            abs(target[..., 2] - ball[..., 2]) < half_size[..., 2] - ball_radius
        )
        return base.as_float(inside)


class BallInCup(base.SuiteTask):
    """Put the ball in the cup: reward 1 while it is inside, else 0."""

    physics_class = Physics
    vectorized_callbacks = True

    def __init__(self, random=None):
        super().__init__(
            mjcf_models.ball_in_cup.make_spec(),
            "ball_in_cup",
            control_timestep=_CONTROL_TIMESTEP,
            random=random,
        )
        self.set_observations(
            position=lambda physics: physics.joint_positions(),
            velocity=lambda physics: physics.joint_velocities(),
        )

    def initialize_episode(self, physics, random_state):
        data = physics.data
        ball_x, ball_z = data.joint("ball_x"), data.joint("ball_z")
        while True:
            ball_x.qpos[0] = random_state.uniform(*_BALL_X_RANGE)
            ball_z.qpos[0] = random_state.uniform(*_BALL_Z_RANGE)
            physics.forward()
            if data.ncon == 0:
                return

    def get_reward(self, physics):
        return physics.in_target()
