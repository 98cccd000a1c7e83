"""Open the viewer on a Control Suite task or a locomotion environment.

    python -m composer_tasks.viewer humanoid stand [--policy zero|random] [--seed S]
        [--camera NAME_OR_INDEX] [--paused] [--speed 0.5]
    python -m composer_tasks.viewer walker_parkour_hurdles [...]
    python -m composer_tasks.viewer humanoid stand --web [--port P] [--host H]
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
_WEB = flags.DEFINE_bool(
    "web", False, "Serve the viewer to a browser (MuJoCo Studio) instead of opening a window.")
_HOST = flags.DEFINE_string(
    "host", "127.0.0.1",
    "Interface the web viewer binds. Any other than loopback requires a random token, "
    "printed once; prefer an SSH tunnel (docs/viewer.md).")
_PORT = flags.DEFINE_integer("port", 0, "Web viewer port; 0 takes the first free one from 8080.")
_OPEN_BROWSER = flags.DEFINE_bool("open_browser", False, "Open this machine's browser on the page.")


def main(argv):
    env = cli.load_environment(argv[1:], _SEED.value)
    camera = _CAMERA.value
    if camera is not None and camera.isdigit():
        camera = int(camera)
    policy = policies.named_policy(_POLICY.value, env.action_spec(), _SEED.value)
    if not _WEB.value:
        for name in ("host", "port", "open_browser"):
            if flags.FLAGS[name].present:
                raise app.UsageError(f"--{name} is a flag of the web viewer: add --web")
        viewer.launch(env, policy, camera=camera, paused=_PAUSED.value, speed=_SPEED.value)
        return
    if camera is not None:
        raise app.UsageError("--camera is a flag of the window; the web page has a camera menu")
    try:
        viewer.launch(env, policy, web=True, host=_HOST.value, port=_PORT.value,
                      paused=_PAUSED.value, speed=_SPEED.value, open_browser=_OPEN_BROWSER.value)
    except (OSError, ValueError) as error:
        raise app.UsageError(str(error)) from None


if __name__ == "__main__":
    app.run(main)
