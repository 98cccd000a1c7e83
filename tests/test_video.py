"""composer_tasks.video: episodes to MP4 and GIF, read back with imageio."""

import os
import subprocess
import sys

import imageio.v3 as iio
import numpy as np
import pytest

from composer_tasks import policies
from composer_tasks import video
from suites import suite

_REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Cart-pole: 0.01 s control steps, so one frame per step is 100 fps.
_SIZE = {"height": 48, "width": 64}


def _cartpole(seed=0, time_limit=10):
    return suite.load("cartpole", "swingup", task_kwargs={"random": seed, "time_limit": time_limit})


def _frames(path):
    plugin = "FFMPEG" if str(path).endswith(".mp4") else None
    return np.stack(list(iio.imiter(path, plugin=plugin)))


def test_mp4_has_one_frame_per_control_step_at_the_control_rate(tmp_path):
    path = tmp_path / "episode.mp4"
    push = lambda timestep: np.ones(1)
    recording = video.record_episode(_cartpole(), path, policy=push, max_steps=20, **_SIZE)
    assert recording == video.Recording(str(path), 21, 100.0, 20, recording.episode_return)
    frames = _frames(path)
    assert frames.shape == (21, 48, 64, 3)
    assert iio.immeta(path, plugin="FFMPEG")["fps"] == 100.0
    # The first frame is the reset state as the camera sees it (H.264 is lossy).
    env = _cartpole()
    env.reset()
    expected = env.physics.render(camera_id=0, **_SIZE)
    assert np.abs(frames[0].astype(float) - expected).mean() < 6
    # Pushed for 0.2 s, the cart has moved.
    assert np.abs(frames[-1].astype(float) - frames[0]).mean() > 0.5


def test_gif_defaults_to_at_most_50_fps_in_real_time(tmp_path):
    path = tmp_path / "episode.GIF"
    recording = video.record_episode(_cartpole(), path, max_steps=20, **_SIZE)
    # Every second control step: t = 0, 0.02, ..., 0.2 s.
    assert (recording.num_frames, recording.fps) == (11, 50.0)
    assert _frames(path).shape == (11, 48, 64, 3)
    assert iio.immeta(path)["duration"] == 20


def test_fps_samples_simulated_time(tmp_path):
    path = tmp_path / "slow.mp4"
    recording = video.record_episode(_cartpole(), path, fps=25, max_steps=20, **_SIZE)
    assert recording.num_frames == 6  # t = 0, 0.04, ..., 0.2 s
    assert _frames(path).shape[0] == 6
    # Above the control rate, frames repeat.
    path = tmp_path / "fast.mp4"
    recording = video.record_episode(_cartpole(), path, fps=200, max_steps=4, **_SIZE)
    assert recording.num_frames == 9
    assert _frames(path).shape[0] == 9


def test_the_episode_end_stops_the_recording(tmp_path):
    recording = video.record_episode(_cartpole(time_limit=0.05), tmp_path / "short.mp4", **_SIZE)
    assert (recording.num_steps, recording.num_frames) == (5, 6)


def test_the_policy_drives_the_episode_and_the_return_adds_up(tmp_path):
    seen = []

    def policy(timestep):
        seen.append(timestep)
        return np.full(1, 0.5)

    recording = video.record_episode(
        _cartpole(), tmp_path / "a.gif", policy=policy, max_steps=10, **_SIZE
    )
    assert len(seen) == 10 and seen[0].first()
    env = _cartpole()
    env.reset()
    rewards = [env.step(np.full(1, 0.5)).reward for _ in range(10)]
    assert recording.episode_return == pytest.approx(sum(rewards))


def test_random_and_zero_policies():
    env = _cartpole()
    spec = env.action_spec()
    random_policy = policies.uniform_random_policy(spec, np.random.RandomState(0))
    actions = np.array([random_policy(None) for _ in range(200)])
    assert actions.shape == (200, 1) and actions.dtype == spec.dtype
    assert np.all(actions >= -1) and np.all(actions <= 1) and actions.std() > 0.4
    np.testing.assert_array_equal(policies.zero_policy(spec)(None), np.zeros(1))
    with pytest.raises(TypeError, match="random_state"):
        policies.uniform_random_policy(spec, 0)


def test_bad_arguments_name_what_is_wrong(tmp_path):
    env = _cartpole()
    with pytest.raises(ValueError, match=r"episode\.avi.*\['\.gif', '\.mp4'\]"):
        video.record_episode(env, tmp_path / "episode.avi")
    with pytest.raises(ValueError, match="even height and width, got 49x64"):
        video.record_episode(env, tmp_path / "a.mp4", height=49, width=64)
    with pytest.raises(ValueError, match="fps must be a positive number"):
        video.record_episode(env, tmp_path / "a.mp4", fps=0)
    with pytest.raises(ValueError, match="max_steps must be a positive integer"):
        video.record_episode(env, tmp_path / "a.mp4", max_steps=0)
    with pytest.raises(ValueError, match="width must be a positive integer"):
        video.record_episode(env, tmp_path / "a.gif", width=0)
    with pytest.raises(TypeError, match="policy must be callable"):
        video.record_episode(env, tmp_path / "a.gif", policy="random")
    with pytest.raises(TypeError, match="control timestep"):
        video.control_timestep(object())
    assert not os.listdir(tmp_path)


_SHORT_SUITE_RUN = """
import sys
from suites import cli as suites_main
from suites import suite

load = suite.load


def short_episodes(domain_name, task_name, task_kwargs=None, **kwargs):
    return load(domain_name, task_name, task_kwargs=dict(task_kwargs, time_limit=0.1), **kwargs)


suite.load = short_episodes
video_path = sys.argv[1] or None
returns = suites_main.run("cartpole", "swingup", "random", int(sys.argv[2]), 0,
                          video_path=video_path)
print(repr(float(returns[0])))
"""


def _run_suites_main(video_path, episodes):
    # A subprocess: the command line's absl flags would clash with other modules'
    # flags of the same names (--seed, --episodes) in the test process.
    result = subprocess.run(
        [sys.executable, "-c", _SHORT_SUITE_RUN, video_path, str(episodes)],
        cwd=_REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return result.stdout.splitlines()


def test_suites_command_line_records_the_first_episode(tmp_path):
    path = tmp_path / "swingup.mp4"
    lines = _run_suites_main(str(path), 2)
    assert len(lines) == 3
    assert f"recorded to {path} (11 frames)" in lines[0]
    assert "recorded" not in lines[1]
    frames = _frames(path)
    assert frames.shape == (11, 240, 320, 3)
    # The recorded episode is the same as an unrecorded run of the same seed.
    assert lines[2] == _run_suites_main("", 1)[-1]


def test_suites_command_line_rejects_a_bad_video_extension_before_running(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "suites", "cartpole", "swingup", f"--video={tmp_path / 'a.avi'}"],
        cwd=_REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode != 0
    assert "a.avi" in result.stderr and "['.gif', '.mp4']" in result.stderr
    assert "episode 0" not in result.stdout
