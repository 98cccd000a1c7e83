"""Connecting to Ray, and the driver loop the distributed agents share.

The distributed agents (agents/distributed_d4pg.py, agents/dppo.py) use Ray for
everything that crosses a process: actors, the object store and actor restarts.
This module starts or joins the Ray instance, with clear errors for an address
that is malformed or where no cluster answers, and names the Ray errors that mean
"an actor process died" (which Ray's restarts then repair). `Driver` is the part of
both drivers' loops that is not the algorithm: the progress bar, evaluating and
checkpointing as the step count crosses their periods, stopping on Ctrl-C with a
checkpoint, the final evaluation and checkpoint, and the clean-up of the run's Ray
actors and of a Ray instance the run started.

Ray is imported inside the functions, so the single-process agents do not need it.
"""

import os
import socket
from collections.abc import Callable, Sequence

import tqdm

from agents import csv_log, experiment

# Ray's default port of the head node's GCS server (`ray start --head`).
DEFAULT_RAY_PORT = 6379
# Seconds to wait for a TCP connection to a cluster address before refusing it.
CONNECT_TIMEOUT_S = 5.0
# Milliseconds a new local raylet waits for its agents (Ray's RAY_agent_register_timeout_ms).
AGENT_START_TIMEOUT_MS = 120_000


def check_address(address: str) -> tuple[str, int] | None:
    """Validates a `--ray_address`: 'auto', 'host:port' or 'ray://host:port'.

    Returns (host, port) to probe, or None for 'auto' (Ray finds the local cluster).
    """
    if not isinstance(address, str) or not address.strip():
        raise ValueError(
            f"ray_address = {address!r}; expected 'auto', 'host:port' or 'ray://host:port'."
        )
    if address == "auto":
        return None
    rest = address.removeprefix("ray://")
    host, separator, port = rest.rpartition(":")
    if not separator or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(
            f"ray_address = {address!r} is not of the form 'host:port' (port 1-65535), "
            "'ray://host:port' or 'auto'; a head node started with `ray start --head` "
            f"listens on port {DEFAULT_RAY_PORT} by default."
        )
    return host, int(port)


def connect(address: str | None, num_cpus: int) -> bool:
    """Starts a local Ray instance (address None) or joins the cluster at `address`.

    Reuses a Ray instance this process already started or joined (e.g. in tests).

    Args:
      address: None, or as `check_address` accepts.
      num_cpus: CPUs a new local instance advertises; each actor or worker takes one.

    Returns:
      True when this call started or joined Ray (so the caller should shut it down),
      False when Ray was already initialised.

    Raises:
      ValueError: a malformed address. ConnectionError: nothing answers there.
    """
    ray = ray_module()
    if address is not None:
        probe = check_address(address)
        if probe is not None:
            try:
                socket.create_connection(probe, timeout=CONNECT_TIMEOUT_S).close()
            except OSError as error:
                raise ConnectionError(
                    f"no Ray cluster is reachable at {address!r} ({error}); start one with "
                    "`ray start --head` on the head node, or omit --ray_address to run on a "
                    "local Ray instance."
                ) from error
    if ray.is_initialized():
        return False
    # The actors import this project's packages: make them importable on every worker
    # started from here, as they are for the driver.
    runtime_env = {
        "env_vars": {
            "PYTHONPATH": os.pathsep.join(
                path for path in (_project_root(), os.environ.get("PYTHONPATH", "")) if path
            )
        }
    }
    settings = dict(
        include_dashboard=False,
        log_to_driver=True,
        configure_logging=False,
        runtime_env=runtime_env,
    )
    if address is None:
        # On a loaded machine Ray's per-node agents can take longer to start than the
        # raylet's default wait for them (then the raylet aborts); allow two minutes.
        os.environ.setdefault("RAY_agent_register_timeout_ms", str(AGENT_START_TIMEOUT_MS))
        ray.init(num_cpus=int(num_cpus), **settings)
    else:
        try:
            ray.init(address=address, **settings)
        except (ConnectionError, RuntimeError, ValueError) as error:
            raise ConnectionError(
                f"could not join the Ray cluster at {address!r}: {error}"
            ) from error
    return True


def ray_module():
    """The `ray` module, imported on first use (Ray is an optional dependency)."""
    import ray  # pylint: disable=import-outside-toplevel

    return ray


def actor_died_errors() -> tuple[type[BaseException], ...]:
    """The exceptions a call raises when its actor's process died during the call."""
    return (ray_module().exceptions.RayActorError,)


def _project_root() -> str:
    """The directory holding the `agents` package."""
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Driver:
    """Runs a distributed agent's iterations between the first and the last evaluation.

    Args:
      state: the driver's checkpointed counters; `env_steps` (the run's clock) and
        `last_eval_step` (None before the first evaluation) are read here.
      num_steps: the run's step budget (for the progress bar and the interrupt).
      eval_every, checkpoint_every: periods in environment steps.
      evaluate_and_log: evaluates the current policy and writes a metrics row.
      save_checkpoint: writes the checkpoint atomically.
      out_dir: the run directory (named by `experiment.Interrupted`).
      progress: show a progress bar.
    """

    def __init__(
        self,
        state,
        *,
        num_steps: int,
        eval_every: int,
        checkpoint_every: int,
        evaluate_and_log: Callable[[], None],
        save_checkpoint: Callable[[], None],
        out_dir: str,
        progress: bool,
    ):
        self._state = state
        self._num_steps = num_steps
        self._eval_every = eval_every
        self._checkpoint_every = checkpoint_every
        self._evaluate_and_log = evaluate_and_log
        self._save_checkpoint = save_checkpoint
        self._out_dir = out_dir
        self._interrupt = experiment.StopOnInterrupt()
        self._bar = tqdm.tqdm(
            total=num_steps,
            initial=min(state.env_steps, num_steps),
            unit="step",
            disable=not progress,
            dynamic_ncols=True,
        )

    def interrupted(self) -> bool:
        """Whether Ctrl-C asked the run to stop (it stops at the next iteration's end)."""
        return self._interrupt()

    def advanced(self, previous_steps: int) -> None:
        """Call after `state.env_steps` grew from `previous_steps`: moves the bar, and
        evaluates and checkpoints when the count crossed a multiple of their periods."""
        steps = self._state.env_steps
        self._bar.update(min(steps, self._num_steps) - min(previous_steps, self._num_steps))
        if previous_steps // self._eval_every < steps // self._eval_every:
            self._evaluate_and_log()
        if previous_steps // self._checkpoint_every < steps // self._checkpoint_every:
            self._save_checkpoint()

    def run(self, iteration: Callable[[], bool]) -> None:
        """Evaluates at step 0 (unless resumed past it), calls `iteration` until it
        returns False, then stops: on Ctrl-C before the budget with a checkpoint and
        `experiment.Interrupted`, otherwise with a final evaluation and checkpoint."""
        with self._interrupt:
            if self._state.last_eval_step is None:
                self._evaluate_and_log()
            while iteration():
                pass
            if self._interrupt() and self._state.env_steps < self._num_steps:
                self._save_checkpoint()
                raise experiment.Interrupted(self._out_dir, self._state.env_steps)
            if self._state.last_eval_step != self._state.env_steps:
                self._evaluate_and_log()
            self._save_checkpoint()

    def close(self, log: csv_log.CsvLog, actors: Sequence[object], started_ray: bool) -> None:
        """Closes the bar and the log, kills the run's Ray actors, and shuts down a Ray
        instance the run started or joined (`connect` returned True)."""
        self._bar.close()
        log.close()
        ray = ray_module()
        for actor in actors:
            ray.kill(actor)
        if started_ray:
            ray.shutdown()
