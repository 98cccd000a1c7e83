"""Checkpoint files: one per run, checksummed, replaced atomically.

A checkpoint file is a header line, the SHA-256 of the payload (64 hex digits and a
newline), then the payload as a pickle. `load` recomputes the checksum before it
unpickles anything, so a flipped or lost byte anywhere after the header gives a
clear error naming the file instead of a quietly different checkpoint.

`save` writes to a temporary file in the same directory, flushes and fsyncs it,
then `os.replace`s it over the old checkpoint, so a crash at any moment leaves
either the previous complete checkpoint or the new complete one, never a torn
file. Payloads must hold plain Python, numpy arrays and pytrees of them (call
`jax.device_get` on JAX arrays first).

Every file of a run directory (checkpoint, metrics, config) gets the mode of a
newly created file under the process's umask (`new_file_mode`), whichever way it
was written.

Checkpoints are pickles: load only checkpoints you trust.
"""

import hashlib
import logging
import os
import pickle
import tempfile

FORMAT = "agents-checkpoint"
VERSION = 2
HEADER = f"{FORMAT} {VERSION} sha256\n".encode()
_DIGEST_LINE_BYTES = 65  # 64 hex digits and a newline.

_log = logging.getLogger(__name__)


def new_file_mode() -> int:
    """The mode `open(path, 'w')` would give a new file: 0o666 under the umask."""
    # The umask can only be read by setting it; set it straight back.
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


def write_atomically(path: str, data: bytes) -> None:
    """Writes `data` to `path` through a fsynced temporary file and `os.replace`."""
    path = os.fspath(path)
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    handle, temporary = tempfile.mkstemp(
        dir=directory, prefix=f".{os.path.basename(path)}.", suffix=".tmp"
    )
    try:
        # mkstemp creates 0600 files; give the run's files one consistent mode.
        os.fchmod(handle, new_file_mode())
        with os.fdopen(handle, "wb") as file:
            file.write(data)
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


def save(path: str, payload: dict) -> None:
    """Writes `payload` to `path` atomically (creating the directory if needed)."""
    if not isinstance(payload, dict):
        raise TypeError(f"payload is {type(payload).__name__}; expected a dict.")
    # Pickled before any file is touched: a payload that fails to pickle leaves the
    # previous checkpoint as it was.
    body = pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL)
    digest = hashlib.sha256(body).hexdigest().encode() + b"\n"
    write_atomically(path, HEADER + digest + body)


def load(path: str) -> dict:
    """Reads a checkpoint written by `save`, verifies its checksum, returns its payload."""
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise FileNotFoundError(f"no checkpoint file at {path!r}.")
    with open(path, "rb") as file:
        data = file.read()
    if data.startswith(HEADER):
        digest = data[len(HEADER) : len(HEADER) + _DIGEST_LINE_BYTES]
        body = data[len(HEADER) + _DIGEST_LINE_BYTES :]
        actual = hashlib.sha256(body).hexdigest().encode() + b"\n"
        if digest != actual:
            raise ValueError(
                f"checkpoint {path!r} is corrupted: its SHA-256 checksum does not match its "
                "contents (the file was damaged after it was written); use another copy."
            )
        return pickle.loads(body)
    return _load_unversioned(path, data)


def _load_unversioned(path: str, data: bytes) -> dict:
    """Checkpoints of version 1 (a pickled dict, no checksum), and errors for other files."""
    try:
        wrapper = pickle.loads(data)
    except Exception as error:  # pylint: disable=broad-except
        # Unpickling arbitrary bytes can raise nearly any exception type.
        raise ValueError(f"{path!r} is not a readable checkpoint: {error}") from error
    if not isinstance(wrapper, dict) or wrapper.get("format") != FORMAT:
        raise ValueError(f"{path!r} is not an agents checkpoint (no {FORMAT!r} marker).")
    if wrapper.get("version") != 1:
        raise ValueError(
            f"{path!r} has checkpoint version {wrapper.get('version')}; this code reads "
            f"{VERSION} (and 1)."
        )
    _log.warning("Checkpoint %r predates checksums (version 1); it is loaded unverified.", path)
    return wrapper["payload"]
