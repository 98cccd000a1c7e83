"""One side of a differential test: runs programs written for dm_control and returns
what they recorded.

Runs under either interpreter: the reference venv's (dm-control 1.0.50 on MuJoCo
3.17, `--side dm_control`) or this project's (`--side ours`, imports rewritten by
`composer_tasks.porting`). It imports only NumPy and the standard library itself.

Protocol: one JSON request a line on stdin, `{"name": ..., "source": ...}`; one
JSON reply a line on the process's original stdout, `{"records": [[key, value],
...], "error": text or null}`. Everything a program prints (Python or MuJoCo's C
code) goes to stderr, so it cannot corrupt the replies.

A program calls `record(key, value)` for each value to compare, and
`check(key, function, *args, **kwargs)`, which records the function's result or,
if it raises, the exception's class name (`{"__raises__": "ValueError"}`).
"""

import json
import math
import os
import sys
import traceback
import types

import numpy as np


def encode(value, depth=0):
    """A JSON-ready form of `value` that keeps what a comparison needs."""
    if depth > 20:
        return {"__object__": "too deep"}
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, (int, np.integer)) and not isinstance(value, np.bool_):
        return int(value)
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, (float, np.floating)):
        value = float(value)
        if math.isnan(value):
            return {"__float__": "nan"}
        if math.isinf(value):
            return {"__float__": "inf" if value > 0 else "-inf"}
        return value
    if isinstance(value, BaseException):
        return {"__raises__": type(value).__name__}
    if isinstance(value, np.ndarray):
        if value.dtype.kind in "fc":
            flat = [encode(float(x)) for x in np.asarray(value, dtype=float).ravel()]
        elif value.dtype.kind in "iub":
            flat = value.ravel().tolist()
        else:
            flat = [encode(x, depth + 1) for x in value.ravel().tolist()]
        return {"__array__": flat, "shape": list(value.shape), "dtype": value.dtype.kind}
    if hasattr(value, "generate_value") and hasattr(value, "shape") and hasattr(value, "dtype"):
        spec = {
            "shape": list(value.shape),
            "dtype": str(np.dtype(value.dtype)),
            "name": getattr(value, "name", None),
        }
        for bound in ("minimum", "maximum"):
            if hasattr(value, bound):
                spec[bound] = encode(np.asarray(getattr(value, bound)), depth + 1)
        return {"__spec__": spec}
    if isinstance(value, dict) or (hasattr(value, "items") and hasattr(value, "keys")):
        return {"__dict__": [[str(k), encode(v, depth + 1)] for k, v in value.items()]}
    if isinstance(value, (list, tuple)):
        return [encode(v, depth + 1) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted((encode(v, depth + 1) for v in value), key=repr)
    if np.isscalar(value):
        return encode(np.asarray(value).item(), depth + 1)
    return {"__object__": type(value).__name__}


def run_program(name, source, port):
    records = []

    def record(key, value):
        records.append([str(key), encode(value)])

    def check(key, function, *args, **kwargs):
        try:
            value = function(*args, **kwargs)
        except Exception as error:  # noqa: BLE001  (the exception is the recorded value)
            value = error
        record(key, value)
        return None if isinstance(value, BaseException) else value

    module = types.ModuleType(f"differential_{name}")
    module.__dict__.update(record=record, check=check, __file__=f"<{name}>")
    error = None
    try:
        # Porting parses the program: a syntax error is the program's, reported
        # back like any other, not the end of the worker.
        if port is not None:
            source = port(source)
        exec(compile(source, f"<{name}>", "exec"), module.__dict__)  # noqa: S102
    except BaseException:  # noqa: BLE001  (reported back, the worker lives on)
        error = traceback.format_exc()
    return {"records": records, "error": error}


def main():
    side = sys.argv[sys.argv.index("--side") + 1]
    port = None
    if side == "ours":
        from composer_tasks import porting

        port = porting.rewrite_imports
    # Replies go to the original stdout; fd 1 becomes stderr for everything else.
    reply_stream = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    for line in sys.stdin:
        request = json.loads(line)
        reply = run_program(request["name"], request["source"], port)
        reply_stream.write(json.dumps(reply) + "\n")
        reply_stream.flush()


if __name__ == "__main__":
    main()
