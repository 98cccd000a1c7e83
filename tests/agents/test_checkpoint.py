"""Checkpoint files: data round trip, atomic replacement, and no code run by any loader.

The payloads a pickle-based loader would run are crafted here: each writes a marker
file when unpickled. No loader may create the marker (issue 29).
"""

import collections
import hashlib
import json
import os
import pickle
import subprocess
import sys
import zipfile
from typing import NamedTuple

import dm_env
import numpy as np
import pytest

from agents import checkpoint, checkpoint_policy, experiment, loop
from composer_tasks.viewer import sources


class _Pair(NamedTuple):
    first: object
    second: object


def test_round_trip_of_every_kind_of_data(tmp_path):
    payload = {
        "params": [{"w": np.arange(6.0).reshape(2, 3), "b": np.zeros(3, np.float32)}],
        "step": 7,
        "name": "x",
        "scalar": np.float32(2.5),
        "flags": np.array([True, False]),
        "not_a_number": float("nan"),
        "infinite": float("-inf"),
        "huge": 2**100,
        "nothing": None,
        "fixed": (1, "a", None),
        "ordered": collections.OrderedDict([("b", 1), ("a", 2)]),
        "int_keys": {1: "one", (2, 3): [np.int8(4)]},
        "raw": b"\x00\x01",
        "window": collections.deque([1.0, 2.0], maxlen=3),
        "rng": np.random.default_rng(3).bit_generator.state,
        "timestep": dm_env.transition(0.5, {"o": np.ones(2)}),
        "pair": _Pair(np.ones(2), [1]),
        "loop": loop.LoopState(env_steps=3, finished_returns=[1.5]),
    }
    path = tmp_path / "run" / "checkpoint.npz"
    checkpoint.save(path, payload)
    loaded = checkpoint.load(path)
    np.testing.assert_array_equal(loaded["params"][0]["w"], payload["params"][0]["w"])
    assert loaded["params"][0]["b"].dtype == np.float32
    assert type(loaded["scalar"]) is np.float32 and loaded["scalar"] == 2.5
    assert np.isnan(loaded["not_a_number"]) and loaded["infinite"] == -np.inf
    assert loaded["huge"] == 2**100 and loaded["nothing"] is None
    assert loaded["fixed"] == (1, "a", None)
    assert type(loaded["ordered"]) is collections.OrderedDict
    assert list(loaded["ordered"]) == ["b", "a"]
    assert loaded["int_keys"][1] == "one" and loaded["int_keys"][(2, 3)][0].dtype == np.int8
    assert loaded["raw"] == b"\x00\x01"
    assert loaded["window"] == collections.deque([1.0, 2.0]) and loaded["window"].maxlen == 3
    assert loaded["rng"] == payload["rng"]
    # dm_env's TimeStep and StepType are the two types a file may name.
    assert type(loaded["timestep"]) is dm_env.TimeStep
    assert loaded["timestep"].step_type is dm_env.StepType.MID
    # Other named containers come back as records, rebuilt against a template.
    assert isinstance(loaded["pair"], checkpoint.Record) and loaded["loop"].env_steps == 3
    restored = checkpoint.restore({"pair": _Pair(0, 0), "loop": loop.LoopState()}, loaded)
    assert type(restored["pair"]) is _Pair and restored["pair"].second == [1]
    assert restored["loop"] == loop.LoopState(env_steps=3, finished_returns=[1.5])
    # The file is an ordinary .npz: arrays by their payload paths, and the manifest.
    with np.load(path, allow_pickle=False) as archive:
        np.testing.assert_array_equal(archive["params/0/w"], payload["params"][0]["w"])
    manifest = checkpoint.read_manifest(path)
    assert manifest["format"] == "agents-checkpoint" and manifest["version"] == 3
    assert {"python", "numpy", "jax"} <= set(manifest["versions"])
    entry = manifest["arrays"]["params/0/w"]
    assert entry["shape"] == [2, 3] and entry["dtype"] == "<f8"
    assert entry["sha256"] == hashlib.sha256(payload["params"][0]["w"].tobytes()).hexdigest()
    assert manifest["payload"]["dict"]["step"] == 7


def test_restore_refuses_records_that_do_not_fit_the_template(tmp_path):
    path = tmp_path / "checkpoint.npz"
    checkpoint.save(path, {"pair": _Pair(1, 2), "loop": loop.LoopState()})
    loaded = checkpoint.load(path)
    with pytest.raises(ValueError, match=r"_Pair at \['pair'\] where this program has nothing"):
        checkpoint.restore({}, loaded)
    with pytest.raises(ValueError, match="LoopState at .* where this program has a .*_Pair"):
        checkpoint.restore({"pair": _Pair(0, 0), "loop": _Pair(0, 0)}, loaded)

    class Other(NamedTuple):
        first: object

    Other.__qualname__ = _Pair.__qualname__
    with pytest.raises(ValueError, match=r"has the fields \['first', 'second'\]"):
        checkpoint.restore({"pair": Other(0), "loop": loop.LoopState()}, loaded)


class _NotData:
    pass


def test_a_payload_that_is_not_data_is_refused_and_keeps_the_previous_checkpoint(tmp_path):
    path = tmp_path / "checkpoint.npz"
    checkpoint.save(path, {"step": 1})
    with pytest.raises(TypeError, match="at bad/1 is a .*_NotData, which is not data"):
        # The big array comes before the failing object, so a writer that wrote as
        # it encoded would have truncated the file by now.
        checkpoint.save(path, {"big": np.zeros(100_000), "bad": [1, _NotData()]})
    with pytest.raises(TypeError, match="dtype object"):
        checkpoint.save(path, {"objects": np.array([None, 1], dtype=object)})
    with pytest.raises(TypeError, match="lambda|function"):
        checkpoint.save(path, {"code": lambda: None})
    assert checkpoint.load(path) == {"step": 1}
    assert os.listdir(tmp_path) == ["checkpoint.npz"]
    with pytest.raises(TypeError, match="dict"):
        checkpoint.save(tmp_path / "x.npz", [1, 2])


def test_load_rejects_other_files(tmp_path):
    with pytest.raises(FileNotFoundError):
        checkpoint.load(tmp_path / "missing.npz")
    garbage = tmp_path / "garbage.npz"
    garbage.write_bytes(b"not a checkpoint")
    with pytest.raises(ValueError, match="not a readable checkpoint"):
        checkpoint.load(garbage)
    foreign = tmp_path / "foreign.npz"
    np.savez(foreign, x=np.zeros(2))
    with pytest.raises(ValueError, match="corrupted: its SHA-256 trailer is missing"):
        checkpoint.load(foreign)


def _with_trailer(path, build) -> None:
    """Writes a zip made by `build(archive)` with a valid digest trailer: a forgery
    that passes the checksum, as anyone can write."""
    with zipfile.ZipFile(path, "w") as archive:
        archive.comment = b"sha256:" + b"0" * 64
        build(archive)
    data = path.read_bytes()
    path.write_bytes(data[:-64] + hashlib.sha256(data[:-64]).hexdigest().encode())


def test_forged_archives_with_valid_digests_are_refused(tmp_path):
    def manifest(payload, arrays=None) -> bytes:
        return json.dumps(
            {
                "format": "agents-checkpoint",
                "version": 3,
                "payload": payload,
                "arrays": arrays or {},
            }
        ).encode()

    cases = {
        "unknown record type": manifest(
            {"record": "os.system", "kind": "function", "fields": {"x": 1}}
        ),
        "unknown enum": manifest({"dict": {"e": {"enum": "signal.Signals", "value": 9}}}),
        "missing array": manifest({"dict": {"a": {"array": "nowhere"}}}),
        "list node": manifest([1, 2]),
        "wrong version": json.dumps({"format": "agents-checkpoint", "version": 2}).encode(),
    }
    for name, content in cases.items():
        path = tmp_path / f"{name}.npz"
        _with_trailer(
            path, lambda archive, content=content: archive.writestr("manifest.json", content)
        )
        with pytest.raises(ValueError) as error:
            loaded = checkpoint.load(path)
            # A record of an unknown type is inert data: only `restore` could build
            # a type, and it builds the template's.
            assert isinstance(loaded, dict)
            checkpoint.restore({}, loaded)
        assert str(path) in str(error.value) or "os.system" in str(error.value), name
    # An object array inside: numpy refuses it (allow_pickle=False) before any pickle
    # in it is read.
    path = tmp_path / "objects.npz"

    def object_array(archive):
        archive.writestr(
            "manifest.json",
            manifest(
                {"dict": {"a": {"array": "a"}}},
                {"a": {"dtype": "|O", "shape": [1], "sha256": ""}},
            ),
        )
        with archive.open("a.npy", "w") as member:
            np.lib.format.write_array(member, np.array([_Pair(1, 2)], dtype=object))

    _with_trailer(path, object_array)
    with pytest.raises(ValueError, match="allow_pickle|[Oo]bject"):
        checkpoint.load(path)


class _Marker:
    """Unpickling this creates the marker file: proof that the payload ran."""

    def __init__(self, marker: str):
        self.marker = marker

    def __reduce__(self):
        return (open, (self.marker, "w"))


def _crafted_pickles(directory, marker) -> dict:
    """A bare pickle (a version 1 wrapper) and a version 2 file with a valid header and
    digest, each carrying a payload that writes `marker` when unpickled."""
    wrapper = {"format": "agents-checkpoint", "version": 1, "payload": {"x": _Marker(marker)}}
    bare = directory / "bare.pkl"
    bare.write_bytes(pickle.dumps(wrapper, protocol=pickle.HIGHEST_PROTOCOL))
    body = pickle.dumps({"x": _Marker(marker)}, protocol=pickle.HIGHEST_PROTOCOL)
    headed = directory / "headed.pkl"
    headed.write_bytes(
        b"agents-checkpoint 2 sha256\n" + hashlib.sha256(body).hexdigest().encode() + b"\n" + body
    )
    return {"bare": bare, "headed": headed}


def test_no_loader_runs_a_pickle_payload(tmp_path, double_integrator):
    marker = tmp_path / "payload_ran"
    files = _crafted_pickles(tmp_path, str(marker))
    env = double_integrator(0)
    loaders = {
        "checkpoint.load": checkpoint.load,
        "checkpoint.read_manifest": checkpoint.read_manifest,
        "experiment.load_agent": lambda path: experiment.load_agent(
            path, env.observation_spec(), env.action_spec()
        ),
        "experiment.evaluate_checkpoint": lambda path: experiment.evaluate_checkpoint(path, 1),
        "checkpoint_policy.environment_name": checkpoint_policy.environment_name,
        "checkpoint_policy.policy_from_checkpoint": lambda path: (
            checkpoint_policy.policy_from_checkpoint(path, env)
        ),
        # The viewer's --checkpoint and policy= argument.
        "viewer sources.checkpoint_policy": lambda path: sources.checkpoint_policy(path, env),
        # What train --resume and the Ray drivers' resume call.
        "experiment.load_resumed_run": lambda path: experiment.load_resumed_run(
            path, {"agent": "d4pg"}, experiment.make_config("d4pg"), None
        ),
    }
    for kind, path in files.items():
        for name, loader in loaders.items():
            with pytest.raises(checkpoint.LegacyCheckpointError) as error:
                loader(str(path))
            assert "python -m agents.checkpoint convert" in str(error.value), (kind, name)
            assert "--trust" in str(error.value) and str(path) in str(error.value)
            assert not marker.exists(), (kind, name)


def test_resume_refuses_a_run_directory_of_pickles(tmp_path, double_integrator):
    marker = tmp_path / "payload_ran"
    files = _crafted_pickles(tmp_path, str(marker))
    out = tmp_path / "run"
    out.mkdir()
    os.replace(files["headed"], out / experiment.LEGACY_CHECKPOINT_FILE)
    make_env = lambda seed: double_integrator(seed)
    with pytest.raises(checkpoint.LegacyCheckpointError) as error:
        experiment.train("d4pg", make_env, 10, 0, str(out), resume=True, progress=False)
    expected = (
        f"python -m agents.checkpoint convert {out / 'checkpoint.pkl'} "
        f"{out / 'checkpoint.npz'} --trust"
    )
    assert expected in str(error.value)
    # Without --resume the old run is not silently overwritten either.
    with pytest.raises(FileExistsError, match="checkpoint.pkl"):
        experiment.train("d4pg", make_env, 10, 0, str(out), progress=False)
    assert not marker.exists()


def _run_module(*arguments, cwd) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "agents.checkpoint", *arguments],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": os.getcwd()},
    )


def test_convert_unpickles_only_with_trust(tmp_path):
    marker = tmp_path / "payload_ran"
    files = _crafted_pickles(tmp_path, str(marker))
    for path in files.values():
        refused = _run_module("convert", str(path), str(tmp_path / "new.npz"), cwd=tmp_path)
        assert refused.returncode == 2 and "--trust" in refused.stderr
        assert not marker.exists() and not (tmp_path / "new.npz").exists()
    with pytest.raises(PermissionError, match="trust"):
        checkpoint.convert(files["bare"], tmp_path / "new.npz", trust=False)
    assert not marker.exists()


def test_convert_with_trust_rewrites_an_old_checkpoint_as_data(tmp_path):
    old_payload = {
        "step": 3,
        "weights": [np.arange(3.0)],
        "loop_state": loop.LoopState(env_steps=3),
        "env": pickle.dumps("an environment object"),
        "env_snapshot": pickle.dumps({"copies": [{"x": np.ones(2)}]}),
    }
    body = pickle.dumps(old_payload, protocol=pickle.HIGHEST_PROTOCOL)
    old = tmp_path / "checkpoint.pkl"
    old.write_bytes(
        b"agents-checkpoint 2 sha256\n" + hashlib.sha256(body).hexdigest().encode() + b"\n" + body
    )
    new = tmp_path / "checkpoint.npz"
    converted = _run_module("convert", str(old), str(new), "--trust", cwd=tmp_path)
    assert converted.returncode == 0, converted.stderr
    assert "environment pickled in the checkpoint" in converted.stderr
    loaded = checkpoint.load(new)
    assert loaded["step"] == 3 and "env" not in loaded
    np.testing.assert_array_equal(loaded["weights"][0], np.arange(3.0))
    np.testing.assert_array_equal(loaded["env_snapshot"]["copies"][0]["x"], np.ones(2))
    assert checkpoint.restore(loop.LoopState(), loaded["loop_state"]).env_steps == 3
    shown = _run_module("show", str(new), cwd=tmp_path)
    assert shown.returncode == 0 and json.loads(shown.stdout)["version"] == 3
    # A damaged old file is not converted.
    old.write_bytes(old.read_bytes()[:-1])
    with pytest.raises(ValueError, match="corrupted"):
        checkpoint.convert(old, tmp_path / "other.npz", trust=True)


def test_the_command_lines_refuse_a_pickle_without_running_it(tmp_path):
    # `agents.evaluate --checkpoint` and the viewer's `--checkpoint`, as users run them.
    marker = tmp_path / "payload_ran"
    files = _crafted_pickles(tmp_path, str(marker))
    commands = {
        "agents.evaluate": ["-m", "agents.evaluate", "--checkpoint", str(files["bare"])],
        "composer_tasks.viewer": [
            "-m",
            "composer_tasks.viewer",
            "--checkpoint",
            str(files["headed"]),
        ],
    }
    for name, arguments in commands.items():
        result = subprocess.run(
            [sys.executable, *arguments],
            capture_output=True,
            text=True,
            cwd=os.getcwd(),
            timeout=300,
        )
        assert result.returncode != 0, name
        assert "python -m agents.checkpoint convert" in result.stderr, (name, result.stderr)
        assert not marker.exists(), name
