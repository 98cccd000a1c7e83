"""Evaluates a checkpoint's deterministic policy on new episodes.

  python -m agents.evaluate --checkpoint runs/NAME/checkpoint.npz --episodes 10 [--eval-seed 0] \
      [--video out.mp4 [--camera 0]]

Prints each episode's return, their mean and standard deviation. The environment
is the one named in the checkpoint, loaded through agents/environments.py. With
--video, one more episode (seeded by --eval-seed) is filmed to an MP4 or GIF.
"""

from absl import app, flags
import numpy as np

from agents import experiment

_CHECKPOINT = flags.DEFINE_string("checkpoint", None, "Checkpoint file.", required=True)
_EPISODES = flags.DEFINE_integer("episodes", 10, "Episodes to play.", lower_bound=1)
_SEED = flags.DEFINE_integer("eval-seed", 0, "Seed of the evaluation environments.")
_VIDEO = flags.DEFINE_string("video", None, "Also film an episode to this .mp4 or .gif file.")
_CAMERA = flags.DEFINE_integer("camera", 0, "Camera of the video (-1: free camera).")


def main(argv):
    if len(argv) > 1:
        raise app.UsageError(f"unexpected arguments: {argv[1:]}")
    returns = experiment.evaluate_checkpoint(_CHECKPOINT.value, _EPISODES.value, _SEED.value)
    for episode, value in enumerate(returns):
        print(f"episode {episode}: return {value:.1f}")
    print(f"mean {np.mean(returns):.1f} +- {np.std(returns):.1f} over {len(returns)} episodes")
    if _VIDEO.value:
        experiment.record_checkpoint_video(
            _CHECKPOINT.value, _VIDEO.value, _SEED.value, _CAMERA.value
        )
        print(f"wrote {_VIDEO.value}")


if __name__ == "__main__":
    app.run(main)
