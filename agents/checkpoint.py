"""Checkpoint files: one pickle per run, replaced atomically.

`save` writes to a temporary file in the same directory, flushes and fsyncs it,
then `os.replace`s it over the old checkpoint, so a crash at any moment leaves
either the previous complete checkpoint or the new complete one, never a torn
file. Payloads must hold plain Python, numpy arrays and pytrees of them (call
`jax.device_get` on JAX arrays first).

Checkpoints are pickles: load only checkpoints you trust.
"""

import os
import pickle
import tempfile

FORMAT = "agents-checkpoint"
VERSION = 1


def save(path: str, payload: dict) -> None:
    """Writes `payload` to `path` atomically (creating the directory if needed)."""
    if not isinstance(payload, dict):
        raise TypeError(f"payload is {type(payload).__name__}; expected a dict.")
    path = os.fspath(path)
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    handle, temporary = tempfile.mkstemp(
        dir=directory, prefix=f".{os.path.basename(path)}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as file:
            pickle.dump({"format": FORMAT, "version": VERSION, "payload": payload}, file,
                        protocol=pickle.HIGHEST_PROTOCOL)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise
    # Make the rename itself durable; not every platform lets a directory be opened.
    try:
        directory_handle = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(directory_handle)
    except OSError:
        pass
    finally:
        os.close(directory_handle)


def load(path: str) -> dict:
    """Reads a checkpoint written by `save` and returns its payload."""
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise FileNotFoundError(f"no checkpoint file at {path!r}.")
    with open(path, "rb") as file:
        try:
            wrapper = pickle.load(file)
        except (pickle.UnpicklingError, EOFError) as error:
            raise ValueError(f"{path!r} is not a readable checkpoint: {error}") from error
    if not isinstance(wrapper, dict) or wrapper.get("format") != FORMAT:
        raise ValueError(f"{path!r} is not an agents checkpoint (no {FORMAT!r} marker).")
    if wrapper.get("version") != VERSION:
        raise ValueError(
            f"{path!r} has checkpoint version {wrapper.get('version')}; this code reads {VERSION}.")
    return wrapper["payload"]
