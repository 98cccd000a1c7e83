"""A two-node Ray cluster made on this machine runs the training command (issue 17).

`ray start --head` (one CPU) and a second `ray start --address` (one CPU and a
custom resource, its own temporary directory) make two Ray nodes on one machine;
`python -m agents.train ... --actors 2 --ray_address host:port` then runs on them.
Each actor asks for one CPU and each node has one, so the run finishes only if Ray
placed one actor on each node.

Both `ray start` commands run with `--block`, and the test stops them with SIGTERM,
which makes each stop the Ray processes it started. `ray stop` would not do: it
stops every Ray process of this user on the machine, other runs' included.
Ray enables token authentication on `ray start`; every process of the cluster, the
training command included, runs with RAY_AUTH_MODE=token so that they all use it.
"""

import os
import signal
import socket
import subprocess
import sys
import time

import pytest

from agents import csv_log

pytest.importorskip("ray")
pytest.importorskip("suites.suite")

# Seconds to wait for a node to come up on a loaded machine, and for one to stop.
NODE_START_TIMEOUT_S = 300.0
NODE_STOP_TIMEOUT_S = 120.0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _ray(*arguments: str) -> list[str]:
    return [os.path.join(os.path.dirname(sys.executable), "ray"), *arguments]


@pytest.fixture
def two_nodes(tmp_path_factory):
    """The address of a two-node cluster (one CPU each); stopped afterwards."""
    port = _free_port()
    address = f"127.0.0.1:{port}"
    env = {**os.environ, "RAY_AUTH_MODE": "token", "RAY_agent_register_timeout_ms": "120000"}
    # Short directories: Ray's Unix sockets live under them (paths up to 107 bytes).
    head_dir = tmp_path_factory.mktemp("rh", numbered=True)
    node_dir = tmp_path_factory.mktemp("rn", numbered=True)
    nodes = []
    try:
        nodes.append(
            subprocess.Popen(
                _ray(
                    "start",
                    "--head",
                    "--port",
                    str(port),
                    "--num-cpus",
                    "1",
                    "--include-dashboard",
                    "false",
                    "--disable-usage-stats",
                    "--temp-dir",
                    str(head_dir),
                    "--block",
                ),
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
        deadline = time.monotonic() + NODE_START_TIMEOUT_S
        while True:
            assert nodes[0].poll() is None, "the head node exited"
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1.0).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the head node did not come up"
                time.sleep(1.0)
        nodes.append(
            subprocess.Popen(
                _ray(
                    "start",
                    "--address",
                    address,
                    "--num-cpus",
                    "1",
                    "--resources",
                    '{"node2": 1}',
                    "--disable-usage-stats",
                    "--temp-dir",
                    str(node_dir),
                    "--block",
                ),
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
        while True:
            assert nodes[1].poll() is None, "the second node exited"
            status = subprocess.run(
                _ray("status", "--address", address),
                env=env,
                capture_output=True,
                text=True,
                check=False,
            ).stdout
            if "/2.0 CPU" in status and "/1.0 node2" in status:
                break
            assert time.monotonic() < deadline, f"the second node did not join:\n{status}"
            time.sleep(2.0)
        yield address, env
    finally:
        for node in reversed(nodes):
            node.send_signal(signal.SIGTERM)
        for node in reversed(nodes):
            try:
                node.wait(timeout=NODE_STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                node.kill()
                node.wait()


@pytest.mark.slow
def test_the_training_command_runs_on_a_two_node_cluster(two_nodes, tmp_path):
    address, env = two_nodes
    out = str(tmp_path / "run")
    command = [
        sys.executable,
        "-m",
        "agents.train",
        "--agent",
        "d4pg",
        "--env",
        "cartpole:balance",
        "--steps",
        "400",
        "--seed",
        "0",
        "--out",
        out,
        "--actors",
        "2",
        "--chunk_steps",
        "100",
        "--eval-every",
        "400",
        "--eval-episodes",
        "1",
        "--noprogress",
        "--ray_address",
        address,
        "--set",
        "actor_hidden_sizes=(32,32)",
        "--set",
        "critic_hidden_sizes=(32,32)",
        "--set",
        "batch_size=32",
        "--set",
        "min_replay_size=64",
    ]
    completed = subprocess.run(
        command, env=env, capture_output=True, text=True, timeout=900, check=False
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    assert "400 steps; final evaluation return" in completed.stdout
    rows = csv_log.read_rows(os.path.join(out, "metrics.csv"))
    assert [row["step"] for row in rows] == ["0", "400"]
    assert rows[-1]["restarts"] == "0"
