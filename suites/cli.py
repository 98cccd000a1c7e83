"""What `python -m suites` does besides parsing its flags (which stay in `__main__`,
so that importing this module defines no command-line flags)."""

import math
import sys
import time
from collections.abc import Callable
from typing import Any

import tqdm

from composer_tasks import policies
from composer_tasks import video
from suites import suite


def run(
    domain_name,
    task_name,
    policy,
    episodes,
    seed,
    out=sys.stdout,
    video_path=None,
    progress=False,
    max_steps=None,
):
    """Runs `episodes` episodes; returns the list of episode returns.

    With `video_path` the first episode is also recorded (240x320, camera 0, real
    time); its steps/s then include the rendering. With `progress` a progress bar
    on stderr counts the control steps of all episodes and estimates the time left.
    `max_steps` ends each episode after that many control steps (None: at its end).
    """
    if domain_name == "manipulation":
        from suites import manipulation

        env = manipulation.load(task_name, seed=seed)
    else:
        env = suite.load(domain_name, task_name, task_kwargs={"random": seed})
    bar = progress_bar(env, episodes, f"{domain_name} {task_name}", progress, max_steps)
    choose_action = counting(policies.named_policy(policy, env.action_spec(), seed), bar)

    returns = []
    for episode in range(episodes):
        recorded = ""
        if episode == 0 and video_path is not None:
            start = time.perf_counter()
            recording = video.record_episode(
                env, video_path, policy=choose_action, max_steps=max_steps
            )
            episode_return, steps = recording.episode_return, recording.num_steps
            recorded = f", recorded to {recording.path} ({recording.num_frames} frames)"
        else:
            timestep = env.reset()
            episode_return, steps = 0.0, 0
            start = time.perf_counter()
            while not timestep.last() and (max_steps is None or steps < max_steps):
                timestep = env.step(choose_action(timestep))
                episode_return += timestep.reward
                steps += 1
        elapsed = time.perf_counter() - start
        returns.append(episode_return)
        print(
            f"{domain_name} {task_name} episode {episode}: return {episode_return:.2f} "
            f"over {steps} steps, {steps / elapsed:.0f} steps/s{recorded}",
            file=out,
        )
    bar.close()
    return returns


def run_soccer(
    team_size,
    walker,
    policy,
    episodes,
    seed,
    out=sys.stdout,
    video_path=None,
    time_limit=45.0,
    progress=False,
    max_steps=None,
):
    """Runs `episodes` soccer matches (`soccer.load(team_size, time_limit,
    walker_type=walker)`),
    every player acting with `policy`; returns the home team's episode returns (each
    home player gets the same reward: +1 per goal scored, -1 per goal conceded).

    With `video_path` the first match is also recorded (240x320, camera 0, real
    time); its steps/s then include the rendering. With `progress` and `max_steps`,
    as for `run`.
    """
    from suites import soccer

    env = soccer.load(
        team_size,
        time_limit=time_limit,
        random_state=seed,
        walker_type=soccer.WalkerType[walker.upper()],
    )
    bar = progress_bar(env, episodes, f"soccer {team_size}-vs-{team_size}", progress, max_steps)
    choose_actions = counting(policies.named_policy(policy, env.action_spec(), seed), bar)

    returns = []
    for episode in range(episodes):
        recorded = ""
        if episode == 0 and video_path is not None:
            start = time.perf_counter()
            recording = video.record_episode(
                _HomeReward(env), video_path, policy=choose_actions, max_steps=max_steps
            )
            episode_return, steps = recording.episode_return, recording.num_steps
            recorded = f", recorded to {recording.path} ({recording.num_frames} frames)"
        else:
            timestep = env.reset()
            episode_return, steps = 0.0, 0
            start = time.perf_counter()
            while not timestep.last() and (max_steps is None or steps < max_steps):
                timestep = env.step(choose_actions(timestep))
                episode_return += float(timestep.reward[0])
                steps += 1
        elapsed = time.perf_counter() - start
        returns.append(episode_return)
        print(
            f"soccer {team_size}-vs-{team_size} {walker} episode {episode}: home return "
            f"{episode_return:.0f} over {steps} steps, {steps / elapsed:.0f} steps/s{recorded}",
            file=out,
        )
    bar.close()
    return returns


def progress_bar(
    env: Any, episodes: int, description: str, enabled: bool, max_steps: int | None = None
) -> tqdm.tqdm:
    """A tqdm bar on stderr over the control steps of `episodes` episodes of `env`,
    whose total (and so the time-left estimate) comes from the environment's
    `step_limit` (or `max_steps`, if fewer); without either the bar counts steps and
    their rate only."""
    step_limit = min(getattr(env, "step_limit", math.inf), max_steps or math.inf)
    total = episodes * step_limit if math.isfinite(step_limit) else None
    return tqdm.tqdm(
        total=total, desc=description, unit="step", disable=not enabled, file=sys.stderr
    )


def counting(policy: Callable[[Any], Any], bar: tqdm.tqdm) -> Callable[[Any], Any]:
    """`policy`, advancing `bar` by one at every call (one call per control step)."""

    def act(timestep: Any) -> Any:
        bar.update(1)
        return policy(timestep)

    return act


class _HomeReward:
    """A multi-agent environment seen by `video.record_episode`, which sums one
    reward per step: the home team's first player's (its whole team's)."""

    def __init__(self, env):
        self._env = env

    def __getattr__(self, name):
        return getattr(self._env, name)

    def reset(self):
        return self._home(self._env.reset())

    def step(self, actions):
        return self._home(self._env.step(actions))

    @staticmethod
    def _home(timestep):
        reward = None if timestep.reward is None else float(timestep.reward[0])
        return timestep._replace(reward=reward)
