"""What `python -m suites` does besides parsing its flags (which stay in `__main__`,
so that importing this module defines no command-line flags)."""

import sys
import time

from composer_tasks import policies
from composer_tasks import video
from suites import suite


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
