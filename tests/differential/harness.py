"""Differential testing against dm-control 1.0.50: the same program on both sides.

A program is Python source written for dm_control (`from dm_control import mjcf`,
...) that calls `record(key, value)` and `check(key, function, *args)` for the
values to compare. `Differential.run` executes it in two long-lived worker
processes (`worker.py`): one in the reference venv with dm-control 1.0.50 on
MuJoCo 3.17, one in this project's interpreter with the imports rewritten by
`composer_tasks.porting`, and returns both sides' records; `assert_same` compares
them key by key and value by value and fails listing every difference.

The reference interpreter is `$DM_CONTROL_PYTHON`, else `.venvs/dm_control/bin/python`
under the repository root (`benchmarks/reference_envs/make_dm_control_venv.sh`
makes it). Without it the tests skip, unless `DIFFERENTIAL_REQUIRED=1` (CI sets
it), when they fail.

From a shell, to see one program's values side by side:

    python -m tests.differential.harness my_program.py
"""

from __future__ import annotations

import json
import os
import re
import select
import subprocess
import sys
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPO_ROOT = os.path.dirname(os.path.dirname(HERE))
WORKER = os.path.join(HERE, "worker.py")
DEFAULT_TIMEOUT_S = 120.0


def reference_python() -> str | None:
    """The reference venv's interpreter, or None when there is none."""
    path = os.environ.get("DM_CONTROL_PYTHON") or os.path.join(
        REPO_ROOT, ".venvs", "dm_control", "bin", "python"
    )
    return path if os.path.isfile(path) and os.access(path, os.X_OK) else None


def required() -> bool:
    """Whether a missing reference venv fails the tests rather than skipping them."""
    return os.environ.get("DIFFERENTIAL_REQUIRED", "") not in ("", "0")


class WorkerError(RuntimeError):
    """A worker process died or did not answer in time."""


class _Worker:
    def __init__(self, python: str, side: str) -> None:
        self.python, self.side = python, side
        self.process: subprocess.Popen | None = None

    def _start(self) -> subprocess.Popen:
        environment = dict(os.environ)
        environment.setdefault("MUJOCO_GL", "egl")
        environment["PYTHONPATH"] = os.pathsep.join(
            [REPO_ROOT, *filter(None, [environment.get("PYTHONPATH")])]
        )
        if self.side == "dm_control":
            # The reference side must not see this project's modules.
            environment.pop("PYTHONPATH")
        return subprocess.Popen(
            [self.python, WORKER, "--side", self.side],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL if not os.environ.get("DIFFERENTIAL_VERBOSE") else None,
            cwd=REPO_ROOT,
            env=environment,
            text=True,
        )

    def send(self, name: str, source: str) -> None:
        """Starts running a program; `receive` waits for its reply."""
        if self.process is None or self.process.poll() is not None:
            self.process = self._start()
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps({"name": name, "source": source}) + "\n")
        self.process.stdin.flush()

    def receive(self, name: str, timeout_s: float) -> dict:
        process = self.process
        assert process is not None and process.stdout is not None
        ready, _, _ = select.select([process.stdout], [], [], timeout_s)
        line = process.stdout.readline() if ready else ""
        if not line:
            self.close()
            reason = "did not answer within %.0f s" % timeout_s if not ready else "died"
            raise WorkerError(f"the {self.side} worker {reason} running {name!r}")
        return json.loads(line)

    def close(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


@dataclass
class Side:
    """What one side's program recorded, and the traceback if it raised."""

    records: list[tuple[str, Any]]
    error: str | None

    def as_dict(self) -> dict[str, Any]:
        return dict(self.records)


@dataclass
class Difference:
    key: str
    ours: Any
    theirs: Any
    why: str

    def __str__(self) -> str:
        return f"{self.key}: {self.why}\n    ours:       {_short(self.ours)}\n    dm_control: {_short(self.theirs)}"


def _short(value: Any, limit: int = 300) -> str:
    text = json.dumps(value) if not isinstance(value, str) else value
    return text if len(text) <= limit else text[:limit] + "..."


@dataclass
class Comparison:
    ours: Side
    theirs: Side
    differences: list[Difference] = field(default_factory=list)
    compared: int = 0

    @property
    def agreed(self) -> int:
        return self.compared - len(self.differences)


def _decode_float(value: Any) -> float:
    if isinstance(value, dict):
        return float(value["__float__"])
    return float(value)


def _compare(key: str, ours: Any, theirs: Any, rtol: float, atol: float) -> str | None:
    """Why `ours` differs from `theirs`, or None when they agree."""
    if isinstance(theirs, dict) and "__array__" in theirs:
        if not (isinstance(ours, dict) and "__array__" in ours):
            return "dm_control gives an array, ours does not"
        if ours["shape"] != theirs["shape"]:
            return f"shape {ours['shape']} != {theirs['shape']}"
        if (ours["dtype"] in "fc") != (theirs["dtype"] in "fc"):
            return f"dtype kind {ours['dtype']} != {theirs['dtype']}"
        if theirs["dtype"] in "fciub" and ours["dtype"] in "fciub":
            a = np.array([_decode_float(x) for x in ours["__array__"]], dtype=float)
            b = np.array([_decode_float(x) for x in theirs["__array__"]], dtype=float)
            bad = np.flatnonzero(~np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=True))
            if bad.size:
                # A NaN on one side only is the worst difference there is.
                gaps = np.nan_to_num(np.abs(a[bad] - b[bad]), nan=np.inf)
                worst = int(bad[np.argmax(gaps)])
                return (
                    f"{bad.size} of {a.size} values differ (largest at flat index {worst}: "
                    f"{float(a[worst])!r} vs {float(b[worst])!r})"
                )
            return None
        return None if ours["__array__"] == theirs["__array__"] else "values differ"
    raised = [side.get("__raises__") if isinstance(side, dict) else None for side in (ours, theirs)]
    if raised != [None, None]:
        if raised[0] == raised[1]:
            return None
        return (
            " vs ".join(f"raises {name}" if name else "returns" for name in raised)
            + " (ours vs dm_control)"
        )
    if isinstance(theirs, dict) and "__dict__" in theirs:
        if not (isinstance(ours, dict) and "__dict__" in ours):
            return "dm_control gives a mapping, ours does not"
        our_keys = [k for k, _ in ours["__dict__"]]
        their_keys = [k for k, _ in theirs["__dict__"]]
        if our_keys != their_keys:
            return f"keys {our_keys} != {their_keys}"
        for (k, a), (_, b) in zip(ours["__dict__"], theirs["__dict__"]):
            why = _compare(f"{key}[{k}]", a, b, rtol, atol)
            if why:
                return f"[{k!r}] {why}"
        return None
    if isinstance(theirs, dict) and "__spec__" in theirs:
        if not (isinstance(ours, dict) and "__spec__" in ours):
            return "dm_control gives a spec, ours does not"
        for name, b in theirs["__spec__"].items():
            a = ours["__spec__"].get(name)
            why = _compare(f"{key}.{name}", a, b, rtol, atol)
            if why:
                return f"spec {name}: {why}"
        return None
    if isinstance(theirs, list):
        if not isinstance(ours, list):
            return "dm_control gives a sequence, ours does not"
        if len(ours) != len(theirs):
            return f"length {len(ours)} != {len(theirs)}"
        for index, (a, b) in enumerate(zip(ours, theirs)):
            why = _compare(f"{key}[{index}]", a, b, rtol, atol)
            if why:
                return f"[{index}] {why}"
        return None
    if isinstance(theirs, bool) or isinstance(ours, bool):
        # `1 == True` in Python; a bool on one side only is a difference of type.
        if type(ours) is not type(theirs):
            return (
                "dm_control gives a bool, ours does not"
                if isinstance(theirs, bool)
                else ("ours gives a bool, dm_control does not")
            )
        return None if ours == theirs else "differ"
    if isinstance(theirs, (int, float)) or (isinstance(theirs, dict) and "__float__" in theirs):
        if not isinstance(ours, (int, float)) and not (
            isinstance(ours, dict) and "__float__" in ours
        ):
            return "dm_control gives a number, ours does not"
        a, b = _decode_float(ours), _decode_float(theirs)
        if isinstance(theirs, int) and isinstance(ours, int):
            return None if a == b else "differ"
        return None if np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=True) else "differ"
    return None if ours == theirs else "differ"


class Differential:
    """The two workers; `run` a program on both, `assert_same` to compare."""

    def __init__(self, reference: str, ours: str = sys.executable) -> None:
        self._workers = {
            "dm_control": _Worker(reference, "dm_control"),
            "ours": _Worker(ours, "ours"),
        }

    def run(
        self, source: str, name: str = "program", timeout_s: float = DEFAULT_TIMEOUT_S
    ) -> tuple[Side, Side]:
        """(ours, theirs): what the program recorded on each side (the two sides run
        at the same time)."""
        for worker in self._workers.values():
            worker.send(name, source)
        replies = {side: worker.receive(name, timeout_s) for side, worker in self._workers.items()}
        return (
            Side([tuple(r) for r in replies["ours"]["records"]], replies["ours"]["error"]),
            Side(
                [tuple(r) for r in replies["dm_control"]["records"]], replies["dm_control"]["error"]
            ),
        )

    def compare(
        self,
        source: str,
        name: str = "program",
        rtol: float = 1e-7,
        atol: float = 1e-9,
        timeout_s: float = DEFAULT_TIMEOUT_S,
        tolerances: Sequence[tuple[str, float, float]] = (),
    ) -> Comparison:
        """Both sides' records compared key by key. `tolerances`: (regular expression,
        rtol, atol) triples; a key takes the first whose expression it contains
        (`re.search`), else `rtol`/`atol`."""
        ours, theirs = self.run(source, name, timeout_s)
        patterns = [(re.compile(pattern), r, a) for pattern, r, a in tolerances]

        def tolerance(key: str) -> tuple[float, float]:
            return next(((r, a) for p, r, a in patterns if p.search(key)), (rtol, atol))

        comparison = Comparison(ours, theirs)
        our_values = ours.as_dict()
        for key, expected in theirs.records:
            comparison.compared += 1
            if key not in our_values:
                comparison.differences.append(Difference(key, None, expected, "not recorded here"))
                continue
            why = _compare(key, our_values[key], expected, *tolerance(key))
            if why:
                comparison.differences.append(Difference(key, our_values[key], expected, why))
        their_keys = {key for key, _ in theirs.records}
        for key, value in ours.records:
            if key not in their_keys:
                comparison.compared += 1
                comparison.differences.append(
                    Difference(key, value, None, "not recorded by dm_control")
                )
        return comparison

    def assert_same(self, source: str, name: str = "program", **options: Any) -> Comparison:
        """Fails listing every difference (or either side's traceback); else the comparison."""
        comparison = self.compare(source, name, **options)
        problems = []
        if comparison.theirs.error:
            problems.append(f"the program failed under dm_control:\n{comparison.theirs.error}")
        if comparison.ours.error:
            problems.append(f"the program failed here:\n{comparison.ours.error}")
        problems.extend(str(d) for d in comparison.differences)
        if problems:
            raise AssertionError(
                f"{name}: {len(comparison.differences)} of {comparison.compared} values differ\n"
                + "\n".join(problems)
            )
        return comparison

    def close(self) -> None:
        for worker in self._workers.values():
            worker.close()


def main(argv: list[str]) -> int:
    reference = reference_python()
    if reference is None:
        print(
            "no reference venv: run benchmarks/reference_envs/make_dm_control_venv.sh",
            file=sys.stderr,
        )
        return 2
    differential = Differential(reference)
    try:
        for path in argv[1:]:
            with open(path, encoding="utf-8") as handle:
                comparison = differential.compare(handle.read(), os.path.basename(path))
            print(f"== {path}: {comparison.agreed} of {comparison.compared} values agree")
            for side, result in (("dm_control", comparison.theirs), ("ours", comparison.ours)):
                if result.error:
                    print(f"-- failed under {side}:\n{result.error}")
            for difference in comparison.differences:
                print(difference)
    finally:
        differential.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
