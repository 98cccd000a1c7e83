"""Checkpoint files: round trip and atomic replacement."""

import os
import pickle

import numpy as np
import pytest

from agents import checkpoint


def test_round_trip(tmp_path):
    payload = {"params": [{"w": np.arange(6.0).reshape(2, 3)}], "step": 7, "name": "x"}
    path = tmp_path / "run" / "checkpoint.pkl"
    checkpoint.save(path, payload)
    loaded = checkpoint.load(path)
    assert loaded["step"] == 7 and loaded["name"] == "x"
    np.testing.assert_array_equal(loaded["params"][0]["w"], payload["params"][0]["w"])


class _FailsToPickle:
    def __reduce__(self):
        raise pickle.PicklingError("cannot pickle this on purpose")


def test_a_failed_write_keeps_the_previous_checkpoint(tmp_path):
    path = tmp_path / "checkpoint.pkl"
    checkpoint.save(path, {"step": 1})
    with pytest.raises(pickle.PicklingError):
        # The big array is written before the failing object, so a non-atomic
        # writer would have truncated the file by now.
        checkpoint.save(path, {"big": np.zeros(100_000), "bad": _FailsToPickle()})
    assert checkpoint.load(path) == {"step": 1}
    assert os.listdir(tmp_path) == ["checkpoint.pkl"]


def test_load_rejects_other_files(tmp_path):
    with pytest.raises(FileNotFoundError):
        checkpoint.load(tmp_path / "missing.pkl")
    garbage = tmp_path / "garbage.pkl"
    garbage.write_bytes(b"not a pickle")
    with pytest.raises(ValueError, match="not a readable checkpoint"):
        checkpoint.load(garbage)
    foreign = tmp_path / "foreign.pkl"
    foreign.write_bytes(pickle.dumps({"step": 1}))
    with pytest.raises(ValueError, match="marker"):
        checkpoint.load(foreign)
    with pytest.raises(TypeError, match="dict"):
        checkpoint.save(tmp_path / "x.pkl", [1, 2])
