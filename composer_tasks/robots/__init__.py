"""Robot arms and hands for manipulation: the abstract `RobotArm` and `RobotHand`
(composer_tasks.robots.base), the Kinova Jaco arm and 3-finger hand."""

from composer_tasks.robots.base import RobotArm, RobotHand
from composer_tasks.robots.jaco_arm import JacoArm
from composer_tasks.robots.jaco_hand import JacoHand
