"""The Jaco arm and hand as the manipulation tasks use them (dm-control 1.0.50,
manipulation/shared/robots.py)."""

from composer_tasks.robots import JacoArm, JacoHand
from composer_tasks.tasks.manipulation.shared import observations

# Where the arm's base sits relative to the workspace centre, in metres.
ARM_OFFSET = (0.0, 0.4, 0.0)


def make_arm(obs_settings: observations.ObservationSettings) -> JacoArm:
    """A Jaco arm whose observables `obs_settings` configures."""
    return JacoArm(
        observable_options=observations.make_options(
            obs_settings, observations.JACO_ARM_OBSERVABLES
        )
    )


def make_hand(obs_settings: observations.ObservationSettings) -> JacoHand:
    """A Jaco hand, its pinch site the tool centre point, whose observables
    `obs_settings` configures."""
    return JacoHand(
        use_pinch_site_as_tcp=True,
        observable_options=observations.make_options(
            obs_settings, observations.JACO_HAND_OBSERVABLES
        ),
    )
