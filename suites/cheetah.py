"""Cheetah domain: run forward as fast as possible.

The task, reward definition, initial-state distribution, timesteps and observation
keys are those of dm_control 1.0.50's `suite/cheetah.py` (Tassa et al. 2018, §6.2:
state 18, action 6, observation 17).
"""

from composer_tasks import physics as physics_lib
from composer_tasks import rewards
from mjcf_models import cheetah as cheetah_model
from suites import base, common

# suite/cheetah.py: 10 s episodes of one 0.01 s physics step per control step.
_DEFAULT_TIME_LIMIT = 10
_CONTROL_TIMESTEP = 0.01
# Forward speed (m/s) from which the reward is 1; it falls linearly to 0 at rest.
_RUN_SPEED = 10
# Physics steps (2 s) the cheetah falls and settles from its random pose before an
# episode starts.
_SETTLE_STEPS = 200

SUITE = base.Registry()


@SUITE.add("benchmarking")
def run(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
    """Run forward: reward grows linearly with speed up to 10 m/s."""
    return base.make_environment(Cheetah(), time_limit, random, environment_kwargs)


def get_model_and_assets():
    """dm_control's `cheetah.get_model_and_assets`: the MJCF text (bytes) of the
    domain's model and the suite's shared assets, for
    `Physics.from_xml_string(*get_model_and_assets())` and dm_control's
    `control.Environment(physics, task)` (the text compiles to the model this domain's
    tasks build, bit for bit: `composer_tasks.physics.spec_xml`)."""
    return physics_lib.spec_xml(cheetah_model.make_spec()), common.ASSETS


class Physics(physics_lib.Physics):
    """Cheetah physics with named quantities (m, rad, m/s, rad/s)."""

    def _model_changed(self):
        self._speed_address = int(self.model.sensor("torso_subtreelinvel").adr[0])

    def speed(self):
        """Forward (world x) velocity of the cheetah's centre of mass, in m/s."""
        return self.data.sensordata[..., self._speed_address][()]

    def position_without_rootx(self):
        """Generalised positions except the horizontal one (rootx), as a new array:
        rootz (m), rooty (rad), then the six leg joint angles (rad)."""
        return self.data.qpos[..., 1:].copy()


class Cheetah(base.SuiteTask):
    """Run forward along world +x.

    Episodes start from a random pose (every leg joint uniform within its range)
    after the cheetah has fallen and settled for 2 s; the clock then restarts at 0.
    Observations leave out the horizontal position, so the task is the same
    wherever the cheetah is.
    """

    physics_class = Physics
    vectorized_callbacks = True

    def __init__(self, random=None):
        super().__init__(
            cheetah_model.make_spec(), "cheetah", control_timestep=_CONTROL_TIMESTEP, random=random
        )
        self.set_observations(position=Physics.position_without_rootx, velocity=Physics.velocity)

    def initialize_episode(self, physics, random_state):
        """Random leg pose, then 2 s of settling.

        `physics.step` finishes the step that the last forward pass began, as the
        published Physics does; that pass is at the reset pose (all joints at 0),
        so the first settling step applies the forces and inertia of the reset
        pose to the random one, exactly as in the published task. With the same
        single draw of the leg angles, a seed gives the published initial states.
        """
        model, data = physics.model, physics.data
        physics.forward()
        limited = model.jnt_limited == 1
        lower, upper = model.jnt_range[limited].T
        data.qpos[model.jnt_qposadr[limited]] = random_state.uniform(lower, upper)
        physics.step(_SETTLE_STEPS)
        data.time = 0.0

    def get_reward(self, physics):
        return rewards.tolerance(
            physics.speed(),
            bounds=(_RUN_SPEED, float("inf")),
            margin=_RUN_SPEED,
            value_at_margin=0,
            sigmoid="linear",
        )
