"""Run a Control Suite task with a simple policy and report returns and speed.

    python -m suites cartpole swingup --policy random --episodes 3 --seed 0
    python -m suites cartpole swingup --video swingup.mp4   # records the first episode
    python -m suites manipulation stack_2_bricks_features   # a manipulation environment
"""

import sys
import time

from absl import app
from absl import flags

from composer_tasks import policies
from composer_tasks import video
from suites import suite

_POLICY = flags.DEFINE_enum("policy", "random", ["random", "zero"], "Action policy.")
_EPISODES = flags.DEFINE_integer("episodes", 1, "Episodes to run.", lower_bound=1)
_SEED = flags.DEFINE_integer("seed", 0, "Seed of the task and of the random policy.")
_VIDEO = flags.DEFINE_string(
    "video", None, "Record the first episode from camera 0 to this .mp4 or .gif file.")


def run(domain_name, task_name, policy, episodes, seed, out=sys.stdout, video_path=None):
    """Runs `episodes` episodes; returns the list of episode returns.

    With `video_path` the first episode is also recorded (240x320, camera 0, real
    time); its steps/s then include the rendering.
    """
    if domain_name == "manipulation":
        from suites import manipulation
        env = manipulation.load(task_name, seed=seed)
    else:
        env = suite.load(domain_name, task_name, task_kwargs={"random": seed})
    choose_action = policies.named_policy(policy, env.action_spec(), seed)

    returns = []
    for episode in range(episodes):
        recorded = ""
        if episode == 0 and video_path is not None:
            start = time.perf_counter()
            recording = video.record_episode(env, video_path, policy=choose_action)
            episode_return, steps = recording.episode_return, recording.num_steps
            recorded = f", recorded to {recording.path} ({recording.num_frames} frames)"
        else:
            timestep = env.reset()
            episode_return, steps = 0.0, 0
            start = time.perf_counter()
            while not timestep.last():
                timestep = env.step(choose_action(timestep))
                episode_return += timestep.reward
                steps += 1
        elapsed = time.perf_counter() - start
        returns.append(episode_return)
        print(f"{domain_name} {task_name} episode {episode}: return {episode_return:.2f} "
              f"over {steps} steps, {steps / elapsed:.0f} steps/s{recorded}", file=out)
    return returns


def main(argv):
    if len(argv) != 3:
        raise app.UsageError(
            f"usage: python -m suites DOMAIN TASK [--policy random|zero] [--episodes N] [--seed S] "
            f"[--video PATH.mp4|PATH.gif]; "
            f"tasks: {', '.join(f'{d}:{t}' for d, t in suite.ALL_TASKS)}")
    if _VIDEO.value is not None:
        video.video_format(_VIDEO.value)  # A bad extension fails before any episode runs.
    run(argv[1], argv[2], _POLICY.value, _EPISODES.value, _SEED.value, video_path=_VIDEO.value)


if __name__ == "__main__":
    app.run(main)
