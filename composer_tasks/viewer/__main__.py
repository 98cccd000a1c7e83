"""Open the viewer on a Control Suite task or a locomotion environment.

    python -m composer_tasks.viewer humanoid stand [--policy zero|random] [--seed S]
        [--camera NAME_OR_INDEX] [--paused] [--speed 0.5]
    python -m composer_tasks.viewer walker_parkour_hurdles [...]
    python -m composer_tasks.viewer humanoid stand --web [--port P] [--host H]
    python -m composer_tasks.viewer --checkpoint runs/NAME/checkpoint.npz [NAME...] [--web]

With --checkpoint, a trained agent (agents.train) acts, on the environment its run
trained on unless NAME... names another with the same observations and actions.
"""

import sys
from collections.abc import Sequence
from typing import Any

from absl import app
from absl import flags

from composer_tasks import policies
from composer_tasks import viewer
from composer_tasks.viewer import cli
from composer_tasks.viewer import sources

_POLICY = flags.DEFINE_enum(
    "policy",
    "zero",
    ["zero", "random"],
    "zero: the action nearest to zero; random: uniform inside the action bounds.",
)
_SEED = flags.DEFINE_integer("seed", 0, "Seed of the task and of the random policy.")
_CAMERA = flags.DEFINE_string(
    "camera", None, "A fixed camera's name or index; the free camera if not given."
)
_PAUSED = flags.DEFINE_bool("paused", False, "Open paused.")
_SPEED = flags.DEFINE_float("speed", 1.0, f"Initial playback speed, one of {viewer.SPEEDS}.")
_WEB = flags.DEFINE_bool(
    "web", False, "Serve the viewer to a browser (MuJoCo Studio) instead of opening a window."
)
_HOST = flags.DEFINE_string(
    "host",
    "127.0.0.1",
    "Interface the web viewer binds. Any other than loopback requires a random token, "
    "printed once; prefer an SSH tunnel (docs/viewer.md).",
)
_PORT = flags.DEFINE_integer("port", 0, "Web viewer port; 0 takes the first free one from 8080.")
_OPEN_BROWSER = flags.DEFINE_bool("open_browser", False, "Open this machine's browser on the page.")
_CHECKPOINT = flags.DEFINE_string(
    "checkpoint",
    None,
    "A checkpoint written by agents.train: its agent's deterministic policy "
    "acts (instead of --policy), on the run's environment unless NAME... is given.",
)


def main(argv: Sequence[str]) -> None:
    names = argv[1:]
    if _CHECKPOINT.value is None:
        env = cli.load_environment(names, _SEED.value)
        policy = policies.named_policy(_POLICY.value, env.action_spec(), _SEED.value)
    else:
        if flags.FLAGS["policy"].present:
            raise app.UsageError("--policy and --checkpoint both choose the policy: give one")
        env, policy = _checkpoint_environment_and_policy(names)
    camera = _CAMERA.value
    if camera is not None and camera.isdigit():
        camera = int(camera)
    if not _WEB.value:
        for name in ("host", "port", "open_browser"):
            if flags.FLAGS[name].present:
                raise app.UsageError(f"--{name} is a flag of the web viewer: add --web")
        viewer.launch(env, policy, camera=camera, paused=_PAUSED.value, speed=_SPEED.value)
        return
    if camera is not None:
        raise app.UsageError("--camera is a flag of the window; the web page has a camera menu")
    try:
        viewer.launch(
            env,
            policy,
            web=True,
            host=_HOST.value,
            port=_PORT.value,
            paused=_PAUSED.value,
            speed=_SPEED.value,
            open_browser=_OPEN_BROWSER.value,
        )
    except (OSError, ValueError) as error:
        raise app.UsageError(str(error)) from None


def _checkpoint_environment_and_policy(names: Sequence[str]) -> tuple[Any, Any]:
    """The environment (NAME..., or the checkpoint's run's) and the checkpoint's policy."""
    path = _CHECKPOINT.value
    assert path is not None  # Called only with --checkpoint.
    try:
        if not names:
            from agents import checkpoint_policy  # pylint: disable=import-outside-toplevel

            trained_on = checkpoint_policy.environment_name(path)
            if trained_on is None:
                raise app.UsageError(
                    f"checkpoint {path!r} records no environment: name one ({cli.USAGE})"
                )
            # agents' 'domain:task' is the registry's `domain task`.
            names = trained_on.split(":")
        env = cli.load_environment(names, _SEED.value)
        policy = sources.checkpoint_policy(path, env)
    except (OSError, ValueError, ImportError) as error:
        raise app.UsageError(str(error)) from None
    if _names_differ(names, policy.env_name):
        print(
            f"composer_tasks.viewer: the checkpoint's run trained on {policy.env_name!r}; "
            f"showing {' '.join(names)!r}, which has the same observations and actions",
            file=sys.stderr,
        )
    return env, policy


def _names_differ(names: Sequence[str], trained_on: str | None) -> bool:
    """Whether NAME... names another environment than agents' `trained_on`."""
    return trained_on is not None and list(names) != trained_on.split(":")


if __name__ == "__main__":
    app.run(main)
