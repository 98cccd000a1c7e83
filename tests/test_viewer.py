"""The interactive viewer: its controller without a window, then a real window under Xvfb."""

import json
import os
import shutil
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

from composer_tasks import policies
from composer_tasks import viewer
from composer_tasks.viewer import controller as controller_lib
from suites import suite

_REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Cart-pole: 0.01 s control steps.
_DT = 0.01


def _cartpole(time_limit=10):
    return suite.load("cartpole", "swingup", task_kwargs={"random": 0, "time_limit": time_limit})


@pytest.fixture(scope="module")
def env():
    return _cartpole()


class _RecordingPolicy:
    def __init__(self, action_spec):
        self.timesteps = []
        self._zero = policies.zero_policy(action_spec)

    def __call__(self, timestep):
        self.timesteps.append(timestep)
        return self._zero(timestep)


# The controller, driven without a window.


def test_tick_takes_the_steps_due_in_real_time(env):
    controller = viewer.Controller(env)
    assert controller.tick(0.1) == 10
    assert controller.episode_step == 10
    # Fractions of a step carry over to the next tick.
    assert controller.tick(0.004) == 0
    assert controller.tick(0.007) == 1
    assert controller.episode_step == 11


def test_a_slow_frame_drops_the_backlog_instead_of_racing(env):
    controller = viewer.Controller(env)
    limit = round(controller_lib.MAX_LAG_SECONDS / _DT)
    assert controller.tick(10.0) == limit
    assert controller.tick(0.01) == 1
    # The limit is wall time: at double speed twice the steps fit in it.
    controller.command(controller_lib.FASTER)
    assert controller.tick(10.0) == 2 * limit


def test_space_pauses_and_resumes(env):
    controller = viewer.Controller(env)
    assert controller.handle_key(controller_lib.KEY_SPACE)
    assert controller.paused
    assert controller.tick(1.0) == 0
    assert controller.episode_step == 0
    controller.handle_key(controller_lib.KEY_SPACE)
    assert not controller.paused
    assert controller.tick(0.05) == 5


def test_right_arrow_takes_exactly_one_step_and_pauses(env):
    controller = viewer.Controller(env)
    time_before = env.physics.time()
    controller.handle_key(controller_lib.KEY_RIGHT)
    assert controller.paused
    assert controller.episode_step == 1
    assert env.physics.time() == pytest.approx(time_before + _DT)
    controller.handle_key(controller_lib.KEY_RIGHT)
    assert controller.episode_step == 2
    assert controller.tick(1.0) == 0


def test_backspace_restarts_the_episode_with_the_tasks_initial_state(env):
    controller = viewer.Controller(
        env, policy=policies.uniform_random_policy(env.action_spec(), np.random.RandomState(1))
    )
    controller.tick(0.3)
    episode_return = controller.episode_return
    assert episode_return > 0
    controller.handle_key(controller_lib.KEY_BACKSPACE)
    assert controller.episode == 1
    assert controller.episode_step == 0
    assert controller.episode_return == 0.0
    assert controller.last_episode_return == episode_return
    assert controller.timestep.first()
    # Swing-up episodes start with the pole hanging down (angle near pi).
    assert abs(env.physics.data.qpos[1]) == pytest.approx(np.pi, abs=0.1)


def test_minus_and_equal_change_the_speed(env):
    controller = viewer.Controller(env)
    controller.handle_key(controller_lib.KEY_MINUS)
    assert controller.speed == 0.5
    assert controller.tick(0.1) == 5
    controller.handle_key(controller_lib.KEY_EQUAL)
    controller.handle_key(controller_lib.KEY_KP_ADD)
    assert controller.speed == 2.0
    assert controller.tick(0.1) == 20
    for _ in range(20):
        controller.handle_key(controller_lib.KEY_EQUAL)
    assert controller.speed == viewer.SPEEDS[-1]
    for _ in range(20):
        controller.handle_key(controller_lib.KEY_MINUS)
    assert controller.speed == viewer.SPEEDS[0]


def test_f9_hides_and_shows_the_observation(env):
    controller = viewer.Controller(env)
    assert controller.show_observation
    controller.handle_key(controller_lib.KEY_F9)
    assert not controller.show_observation
    controller.handle_key(controller_lib.KEY_F9)
    assert controller.show_observation


def test_achieved_speed_is_measured_over_the_last_second(env):
    controller = viewer.Controller(env)
    assert controller.achieved_speed() is None
    for _ in range(10):
        controller.tick(0.05)
    assert controller.achieved_speed() == pytest.approx(1.0, abs=0.1)


def test_unbound_keys_are_ignored(env):
    controller = viewer.Controller(env)
    assert not controller.handle_key(ord("Q"))
    assert controller.episode_step == 0 and not controller.paused


def test_the_episode_restarts_after_its_last_step():
    controller = viewer.Controller(_cartpole(time_limit=0.05))
    controller.tick(0.05)
    assert controller.timestep.last()
    assert controller.episode == 0
    controller.tick(0.01)
    assert controller.episode == 1
    assert controller.episode_step == 0
    assert controller.last_episode_return is not None


def test_the_policy_sees_every_timestep_and_its_actions_reach_the_physics(env):
    policy = _RecordingPolicy(env.action_spec())
    controller = viewer.Controller(env, policy)
    controller.tick(0.03)
    assert len(policy.timesteps) == 3
    assert policy.timesteps[0].first()
    assert not policy.timesteps[1].first()
    np.testing.assert_array_equal(env.physics.data.ctrl, 0.0)


def test_the_default_policy_is_the_action_nearest_zero(env):
    controller = viewer.Controller(env)
    env.physics.data.ctrl[:] = 0.7
    controller.tick(0.01)
    np.testing.assert_array_equal(env.physics.data.ctrl, 0.0)


def test_overlay_text_shows_status_and_observation(env):
    controller = viewer.Controller(env)
    controller.tick(0.02)
    labels, values = controller.status_text()
    assert labels.split("\n") == [
        "episode",
        "step",
        "time",
        "reward",
        "return",
        "last return",
        "speed",
        "state",
        "last end",
    ]
    rows = dict(zip(labels.split("\n"), values.split("\n")))
    assert rows["step"] == "2"
    assert rows["time"] == "0.020 s"
    assert rows["reward"] == f"{controller.timestep.reward:.3f}"
    assert rows["return"] == f"{controller.episode_return:.3f}"
    assert rows["state"] == "running"
    names, values = controller.observation_text()
    assert names.split("\n") == ["position", "velocity"]
    position = controller.timestep.observation["position"]
    assert values.split("\n")[0] == " ".join(f"{v: .2f}" for v in position)


def test_large_observations_are_summarised():
    assert controller_lib._format_values(np.zeros((64, 64, 3), np.uint8)) == [
        "(64, 64, 3) uint8 in [0, 0]"
    ]
    lines = controller_lib._format_values(np.arange(20.0))
    assert len(lines) == 3 and lines[0].split() == [f"{v:.2f}" for v in range(8)]


def test_bad_arguments_are_rejected(env):
    with pytest.raises(TypeError, match="policy must be callable"):
        viewer.Controller(env, policy="random")
    with pytest.raises(ValueError, match="speed must be one of"):
        viewer.Controller(env, speed=3.0)
    with pytest.raises(ValueError, match="unknown viewer command 'jump'"):
        viewer.Controller(env).command("jump")
    with pytest.raises(ValueError, match="elapsed_wall_seconds"):
        viewer.Controller(env).tick(-1.0)
    # Cameras are checked before a window opens.
    with pytest.raises(ValueError, match="no camera named 'overhead'"):
        viewer.Window(viewer.Controller(env), camera="overhead")
    with pytest.raises(ValueError, match=r"an index in \[0, 2\), got 2"):
        viewer.Window(viewer.Controller(env), camera=2)


def test_command_line_rejects_unknown_tasks_listing_the_valid_ones():
    result = subprocess.run(
        [sys.executable, "-m", "composer_tasks.viewer", "cartpole", "cartwheel"],
        cwd=_REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert "unknown environment 'cartpole cartwheel'" in result.stderr
    assert "cartpole swingup" in result.stderr


# A real window under Xvfb, driven with xdotool.

_VIEWER_SCRIPT = textwrap.dedent("""
    import json, os, sys, threading, time
    import numpy as np
    from composer_tasks import policies, viewer
    from suites import suite

    status_path = sys.argv[1]
    env = suite.load("cartpole", "swingup", task_kwargs={"random": 0})
    physics = env.physics
    random_policy = policies.uniform_random_policy(env.action_spec(), np.random.RandomState(0))
    max_force = [0.0]

    def policy(timestep):
        # The perturbation the window wrote at its last sync acts during this step.
        max_force[0] = max(max_force[0], float(np.abs(physics.data.xfrc_applied).max()))
        return random_policy(timestep)

    controller = viewer.Controller(env, policy)
    window = viewer.Window(controller, camera="fixed")
    cart = physics.model.body("cart").id
    camera = physics.model.camera("fixed").id

    def cart_pixel(viewport):
        # Pinhole projection of the cart's centre through the fixed camera, in
        # screen pixels from the top-left (the 3D view fills the window).
        rotation = physics.data.cam_xmat[camera].reshape(3, 3)
        x, y, z = rotation.T @ (physics.data.xpos[cart] - physics.data.cam_xpos[camera])
        focal = viewport.height / 2 / np.tan(np.radians(physics.model.cam_fovy[camera]) / 2)
        return [viewport.left + viewport.width / 2 + focal * x / -z,
                viewport.height / 2 - focal * y / -z]

    def report():
        while True:
            handle = window.handle
            if handle is not None and handle.viewport is not None:
                viewport = handle.viewport
                status = dict(
                    frames=window.frames, episode=controller.episode,
                    step=controller.episode_step, paused=controller.paused,
                    qpos=physics.data.qpos.tolist(), max_force=max_force[0],
                    selected=int(handle.perturb.select), cart=cart,
                    cart_pixel=cart_pixel(viewport),
                    viewport=[viewport.left, viewport.bottom, viewport.width, viewport.height])
                with open(status_path + ".tmp", "w") as f:
                    json.dump(status, f)
                os.replace(status_path + ".tmp", status_path)
            time.sleep(0.05)

    threading.Thread(target=report, daemon=True).start()
    window.run()
""")


class _Display:
    """An Xvfb server on a free display number, with xdotool and screenshots."""

    def __init__(self, tmp_path):
        read_fd, write_fd = os.pipe()
        self._process = subprocess.Popen(
            [
                "Xvfb",
                "-displayfd",
                str(write_fd),
                "-screen",
                "0",
                "1024x768x24",
                "-nolisten",
                "tcp",
                "+extension",
                "GLX",
            ],
            pass_fds=(write_fd,),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(write_fd)
        with os.fdopen(read_fd) as pipe:
            number = pipe.readline().strip()
        if not number:
            self.close()
            raise RuntimeError("Xvfb did not report a display number")
        self.name = f":{number}"
        self._tmp_path = tmp_path
        self._shots = 0

    def env(self):
        return dict(os.environ, DISPLAY=self.name)

    def xdotool(self, *args):
        subprocess.run(["xdotool", *args], env=self.env(), check=True, timeout=10)

    def screenshot(self, name):
        path = self._tmp_path / f"{self._shots:02d}_{name}.png"
        self._shots += 1
        subprocess.run(
            ["import", "-window", "root", str(path)], env=self.env(), check=True, timeout=20
        )
        import imageio.v3 as iio

        return iio.imread(path)[..., :3]

    def close(self):
        self._process.terminate()
        self._process.wait(timeout=10)


def _wait_for(status_path, predicate, timeout, what):
    deadline = time.monotonic() + timeout
    status = None
    while time.monotonic() < deadline:
        try:
            with open(status_path) as f:
                status = json.load(f)
        except (FileNotFoundError, json.JSONDecodeError):
            status = None
        if status is not None and predicate(status):
            return status
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}; last status: {status}")


def _crop(image, status):
    """The 3D view of the window, which sits at the screen's top-left corner."""
    left, bottom, width, height = status["viewport"]
    return image[: bottom + height, left : left + width]


@pytest.mark.skipif(
    not all(shutil.which(tool) for tool in ("Xvfb", "xdotool", "import")),
    reason="the window test needs the Xvfb, xdotool and imagemagick (import) binaries "
    "(Debian: apt-get install xvfb xdotool imagemagick)",
)
def test_real_window_pause_step_restart_and_perturb(tmp_path):
    display = _Display(tmp_path)
    script = tmp_path / "run_viewer.py"
    script.write_text(_VIEWER_SCRIPT)
    status_path = str(tmp_path / "status.json")
    log = open(tmp_path / "viewer.log", "w")
    process = subprocess.Popen(
        [sys.executable, str(script), status_path],
        cwd=_REPO_ROOT,
        env=display.env(),
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:

        def wait(predicate, what, timeout=20):
            if process.poll() is not None:
                raise AssertionError(
                    f"the viewer exited with {process.returncode}: "
                    f"{(tmp_path / 'viewer.log').read_text()}"
                )
            return _wait_for(status_path, predicate, timeout, what)

        status = wait(lambda s: s["frames"] >= 5 and s["step"] >= 10, "the window to run")
        width, height = status["viewport"][2:]
        # Keys go to the window under the pointer (Xvfb has no window manager).
        display.xdotool("mousemove", str(width // 2), str(height // 2))
        running = _crop(display.screenshot("running"), status)
        assert running.std() > 10, "the window shows a blank frame"
        assert len(np.unique(running.reshape(-1, 3), axis=0)) > 50

        display.xdotool("key", "space")
        status = wait(lambda s: s["paused"], "space to pause")
        paused_step = status["step"]
        frames = status["frames"]
        status = wait(lambda s: s["frames"] >= frames + 3, "frames while paused")
        assert status["step"] == paused_step
        before = _crop(display.screenshot("paused"), status)

        display.xdotool("key", "--delay", "50", *["Right"] * 10)
        status = wait(lambda s: s["step"] == paused_step + 10, "ten single steps")
        frames = status["frames"]
        status = wait(lambda s: s["frames"] >= frames + 3, "frames after stepping")
        assert status["step"] == paused_step + 10
        after = _crop(display.screenshot("stepped"), status)
        changed = np.any(before != after, axis=-1)
        # Between the overlays (status and keys above, observation below): the scene moved.
        assert changed[int(0.4 * height) : int(0.85 * height)].sum() > 20, (
            "the scene did not change after stepping"
        )

        display.xdotool("key", "BackSpace")
        status = wait(lambda s: s["episode"] == 1 and s["step"] == 0, "backspace to restart")
        # The task's initial state (pole hanging down), not MuJoCo's reset (pole up).
        assert abs(status["qpos"][1]) == pytest.approx(np.pi, abs=0.1)

        # Select the cart by double-clicking it, then drag it with Ctrl + right button.
        # MuJoCo sees a double-click when it handles two presses within 0.25 s; on a
        # loaded machine a slow frame can fall between them, so try a few times.
        x, y = (str(round(v)) for v in status["cart_pixel"])
        for attempt in range(5):
            display.xdotool("mousemove", x, y, "click", "--repeat", "2", "--delay", "20", "1")
            try:
                status = wait(
                    lambda s: s["selected"] == s["cart"], "the cart to be selected", timeout=3
                )
                break
            except AssertionError:
                if attempt == 4:
                    raise
        display.xdotool("key", "space")
        wait(lambda s: not s["paused"], "space to resume")
        display.xdotool("keydown", "ctrl", "mousedown", "3")
        for _ in range(10):
            display.xdotool("mousemove_relative", "--", "15", "0")
            time.sleep(0.05)
        status = wait(lambda s: s["max_force"] > 0, "the perturbation force")
        display.xdotool("mouseup", "3", "keyup", "ctrl")
        display.screenshot("perturbed")
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()
        display.close()


def test_command_line_loads_suite_tasks_and_locomotion_names():
    from absl import app

    from composer_tasks.viewer import cli as viewer_main

    assert viewer_main.load_environment(["cartpole", "swingup"], seed=0).action_spec().shape == (1,)
    walker = viewer_main.load_environment(["walker_parkour_hurdles"], seed=0)
    assert walker.action_spec().shape == (6,)
    humanoid = viewer_main.load_environment(["humanoid", "stand"], seed=0)
    assert humanoid.action_spec().shape == (21,)
    with pytest.raises(app.UsageError, match="locomotion: .*walker_parkour_hurdles"):
        viewer_main.load_environment([], seed=0)
    with pytest.raises(app.UsageError, match="unknown environment 'walker_parkour_moon'"):
        viewer_main.load_environment(["walker_parkour_moon"], seed=0)


def test_the_viewer_package_imports_no_suite():
    code = (
        "import sys; import composer_tasks.viewer, composer_tasks.viewer.cli; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('suites', 'agents')))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=_REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert result.stdout.strip() == "[]"
