"""Open the viewer on a Control Suite task or a locomotion environment.

    python -m composer_tasks.viewer humanoid stand [--policy zero|random] [--seed S]
        [--camera NAME_OR_INDEX] [--paused] [--speed 0.5]
    python -m composer_tasks.viewer walker_parkour_hurdles [...]
"""

from absl import app
from absl import flags

from composer_tasks import policies
from composer_tasks import viewer
from composer_tasks.viewer import cli

_POLICY = flags.DEFINE_enum(
    "policy", "zero", ["zero", "random"],
    "zero: the action nearest to zero; random: uniform inside the action bounds.")
_SEED = flags.DEFINE_integer("seed", 0, "Seed of the task and of the random policy.")
_CAMERA = flags.DEFINE_string(
    "camera", None, "A fixed camera's name or index; the free camera if not given.")
_PAUSED = flags.DEFINE_bool("paused", False, "Open paused.")
_SPEED = flags.DEFINE_float("speed", 1.0, f"Initial playback speed, one of {viewer.SPEEDS}.")


def main(argv):
    env = cli.load_environment(argv[1:], _SEED.value)
    camera = _CAMERA.value
    if camera is not None and camera.isdigit():
        camera = int(camera)
    policy = policies.named_policy(_POLICY.value, env.action_spec(), _SEED.value)
    viewer.launch(env, policy, camera=camera, paused=_PAUSED.value, speed=_SPEED.value)


if __name__ == "__main__":
    app.run(main)
