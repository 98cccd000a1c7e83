"""Acrobot domain: swing the two-link acrobot up so its tip reaches the target
above the shoulder, using the elbow motor alone.

Tasks, rewards, initial-state distribution, timesteps and observation keys are
those of dm_control 1.0.50's `suite/acrobot.py` (Tassa et al. 2018, §6.2: state 4,
action 1, observation 6).
"""

import numpy as np

from composer_tasks import physics as physics_lib
from composer_tasks import rewards
from mjcf_models import acrobot as acrobot_model
from suites import base, common

# suite/acrobot.py: 10 s episodes of 0.01 s control steps (one physics step each).
_DEFAULT_TIME_LIMIT = 10
_CONTROL_TIMESTEP = 0.01
# Dense reward: a Gaussian that falls to 0.1 one metre outside the target sphere.
_DENSE_MARGIN_M = 1.0

SUITE = base.Registry()


@SUITE.add("benchmarking")
def swingup(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
    """Swing up and balance; the reward decays smoothly with the tip's distance."""
    task = Balance(sparse=False)
    return base.make_environment(task, time_limit, random, environment_kwargs)


@SUITE.add("benchmarking")
def swingup_sparse(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
    """Swing up and balance; reward 1 while the tip is inside the target, else 0."""
    task = Balance(sparse=True)
    return base.make_environment(task, time_limit, random, environment_kwargs)


def get_model_and_assets():
    """dm_control's `acrobot.get_model_and_assets`: the MJCF text (bytes) of the
    domain's model and the suite's shared assets, for
    `Physics.from_xml_string(*get_model_and_assets())` and dm_control's
    `control.Environment(physics, task)` (the text compiles to the model this domain's
    tasks build, bit for bit: `composer_tasks.physics.spec_xml`)."""
    return physics_lib.spec_xml(acrobot_model.make_spec()), common.ASSETS


class Physics(physics_lib.Physics):
    """Acrobot physics with named quantities (world frame, metres, radians).

    Array quantities may be views of `data`/`model` (the observation machinery
    copies them); copy one before keeping it across steps.
    """

    def _model_changed(self):
        model = self.model
        links = [model.body("upper_arm").id, model.body("lower_arm").id]
        # Horizontal components of both links, then vertical ones: one fancy index.
        # Index arrays made once: numpy converts lists on every indexing.
        self._orientation_index = (
            Ellipsis,
            np.array(links + links),
            np.array([base.XZ, base.XZ, base.ZZ, base.ZZ]),
        )
        self._horizontal_index = (Ellipsis, np.array(links), base.XZ)
        self._vertical_index = (Ellipsis, np.array(links), base.ZZ)
        self._target = model.site("target").id
        self._tip = model.site("tip").id
        self._target_radius_index = (Ellipsis, self._target, 0)

    def horizontal(self):
        """World x component of each link's axis (upper, lower): sines of their
        angles from upright."""
        return self.data.xmat[self._horizontal_index]

    def vertical(self):
        """World z component of each link's axis (upper, lower): cosines of their
        angles from upright."""
        return self.data.xmat[self._vertical_index]

    def to_target(self):
        """Distance from the tip to the target's centre, in metres."""
        site_xpos = self.data.site_xpos
        return base.norm_last_axis(site_xpos[..., self._target, :] - site_xpos[..., self._tip, :])

    def target_radius(self):
        """Radius of the target sphere, in metres."""
        return self.model.site_size[self._target_radius_index]

    def orientations(self):
        """horizontal() then vertical(): sines then cosines of the link angles."""
        return self.data.xmat[self._orientation_index]


class Balance(base.SuiteTask):
    """Bring the tip into the target sphere (radius 0.2 m, 4 m up) and keep it there."""

    physics_class = Physics
    vectorized_callbacks = True

    def __init__(self, sparse, random=None):
        self._margin = 0.0 if sparse else _DENSE_MARGIN_M
        super().__init__(
            acrobot_model.make_spec(), "acrobot", control_timestep=_CONTROL_TIMESTEP, random=random
        )
        self.set_observations(orientations=Physics.orientations, velocity=Physics.velocity)

    def initialize_episode(self, physics, random_state):
        """Starts at rest with both joint angles uniform in [-pi, pi)."""
        model = physics.model
        addresses = [model.joint(name).qposadr[0] for name in ("shoulder", "elbow")]
        physics.data.qpos[addresses] = random_state.uniform(-np.pi, np.pi, 2)

    def get_reward(self, physics):
        return rewards.tolerance(
            physics.to_target(), bounds=(0, physics.target_radius()), margin=self._margin
        )
