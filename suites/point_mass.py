"""Point-mass domain: steer a ball to the target at the centre of a walled square.

Tasks, reward, initial-state distribution, timesteps and observation keys are
those of dm_control 1.0.50's `suite/point_mass.py` (Tassa et al. 2018, §6.2:
state 4, action 2, observation 4).
"""

import numpy as np

from composer_tasks import physics as physics_lib
from composer_tasks import rewards
from mjcf_models import point_mass as point_mass_model
from suites import base, common

# suite/point_mass.py: 20 s episodes of 0.02 s control steps (one physics step each).
_DEFAULT_TIME_LIMIT = 20
_CONTROL_TIMESTEP = 0.02
# The hard task re-draws the second actuation direction until the two are less
# parallel than this (absolute cosine of the angle between them).
_MAX_DIRECTION_COSINE = 0.9

SUITE = base.Registry()


@SUITE.add("benchmarking", "easy")
def easy(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
    """Reach the target; the motors push along world x and y."""
    task = PointMass(randomize_gains=False)
    return base.make_environment(task, time_limit, random, environment_kwargs)


@SUITE.add()
def hard(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
    """Reach the target; each episode the motors push along random directions."""
    task = PointMass(randomize_gains=True)
    return base.make_environment(task, time_limit, random, environment_kwargs)


def get_model_and_assets():
    """dm_control's `point_mass.get_model_and_assets`: the MJCF text (bytes) of the
    domain's model and the suite's shared assets, for
    `Physics.from_xml_string(*get_model_and_assets())` and dm_control's
    `control.Environment(physics, task)` (the text compiles to the model this domain's
    tasks build, bit for bit: `composer_tasks.physics.spec_xml`)."""
    return physics_lib.spec_xml(point_mass_model.make_spec()), common.ASSETS


class Physics(physics_lib.Physics):
    """Point-mass physics with named quantities (world frame, metres, m/s).

    Array quantities may be views of `data`/`model` (the observation machinery
    copies them); copy one before keeping it across steps.
    """

    def _model_changed(self):
        model = self.model
        self._target = model.geom("target").id
        self._ball = model.geom("pointmass").id
        self._target_radius_index = (Ellipsis, self._target, 0)
        # wrap_prm rows of tendon t1's and t2's joint coefficients (root_x, root_y).
        self._mixing_rows = [
            int(model.tendon_adr[model.tendon(name).id]) + offset
            for name in ("t1", "t2")
            for offset in (0, 1)
        ]

    def mass_to_target(self):
        """Vector from the ball's centre to the target's, in metres (world frame)."""
        geom_xpos = self.data.geom_xpos
        return geom_xpos[..., self._target, :] - geom_xpos[..., self._ball, :]

    def mass_to_target_dist(self):
        """Distance from the ball's centre to the target's, in metres."""
        return base.norm_last_axis(self.mass_to_target())

    def target_radius(self):
        """Radius of the target sphere, in metres."""
        return self.model.geom_size[self._target_radius_index]

    def set_actuation_directions(self, first, second):
        """Makes motor t1 push along `first` and t2 along `second` (unit 2-vectors
        in the world x-y plane), by rewriting their tendons' joint coefficients."""
        self.model.wrap_prm[self._mixing_rows] = np.concatenate([first, second])


class PointMass(base.SuiteTask):
    """Reach the target and stay there with little control effort."""

    physics_class = Physics
    vectorized_callbacks = True

    def __init__(self, randomize_gains, random=None):
        self._randomize_gains = randomize_gains
        super().__init__(
            point_mass_model.make_spec(),
            "point_mass",
            control_timestep=_CONTROL_TIMESTEP,
            random=random,
        )
        self.set_observations(position=Physics.position, velocity=Physics.velocity)

    def initialize_episode(self, physics, random_state):
        """Starts at rest anywhere within the joint limits; in the hard task also
        draws two unit actuation directions that are not nearly parallel.

        Draws in the published order, so a seed gives the published episode start.
        """
        model, qpos = physics.model, physics.data.qpos
        for joint in range(model.njnt):
            low, high = model.jnt_range[joint]
            qpos[model.jnt_qposadr[joint]] = random_state.uniform(low, high)
        if self._randomize_gains:
            first = random_state.randn(2)
            first /= np.linalg.norm(first)
            while True:
                second = random_state.randn(2)
                second /= np.linalg.norm(second)
                if abs(np.dot(first, second)) <= _MAX_DIRECTION_COSINE:
                    break
            physics.set_actuation_directions(first, second)

    def get_reward(self, physics):
        target_radius = physics.target_radius()
        near_target = rewards.tolerance(
            physics.mass_to_target_dist(), bounds=(0, target_radius), margin=target_radius
        )
        control_reward = base.mean_last_axis(
            rewards.tolerance(physics.control(), margin=1, value_at_margin=0, sigmoid="quadratic")
        )
        small_control = (control_reward + 4) / 5
        return near_target * small_control
