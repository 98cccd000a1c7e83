"""Open the viewer on a Control Suite task.

    python -m composer_tasks.viewer humanoid stand [--policy zero|random] [--seed S]
        [--camera NAME_OR_INDEX] [--paused] [--speed 0.5]
"""

from absl import app
from absl import flags
import numpy as np

from composer_tasks import video
from composer_tasks import viewer

_POLICY = flags.DEFINE_enum(
    "policy", "zero", ["zero", "random"],
    "zero: the action nearest to zero; random: uniform inside the action bounds.")
_SEED = flags.DEFINE_integer("seed", 0, "Seed of the task and of the random policy.")
_CAMERA = flags.DEFINE_string(
    "camera", None, "A fixed camera's name or index; the free camera if not given.")
_PAUSED = flags.DEFINE_bool("paused", False, "Open paused.")
_SPEED = flags.DEFINE_float("speed", 1.0, f"Initial playback speed, one of {viewer.SPEEDS}.")


def make_policy(name, action_spec, seed):
    """The named command-line policy: 'zero' or 'random' (seeded by `seed`)."""
    if name == "zero":
        return video.zero_policy(action_spec)
    if name == "random":
        return video.uniform_random_policy(action_spec, np.random.RandomState(seed))
    raise ValueError(f"unknown policy {name!r}; expected 'zero' or 'random'")


def main(argv):
    # The suites depend on composer_tasks, not the other way round: only this
    # command-line entry point reaches into them.
    from suites import suite

    if len(argv) != 3:
        raise app.UsageError(
            "usage: python -m composer_tasks.viewer DOMAIN TASK [--policy zero|random] "
            f"[--seed S] [--camera C] [--paused] [--speed X]; tasks: "
            f"{', '.join(f'{d}:{t}' for d, t in suite.ALL_TASKS)}")
    env = suite.load(argv[1], argv[2], task_kwargs={"random": _SEED.value})
    camera = _CAMERA.value
    if camera is not None and camera.isdigit():
        camera = int(camera)
    policy = make_policy(_POLICY.value, env.action_spec(), _SEED.value)
    viewer.launch(env, policy, camera=camera, paused=_PAUSED.value, speed=_SPEED.value)


if __name__ == "__main__":
    app.run(main)
