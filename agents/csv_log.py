"""The metrics CSV of a run: one row per evaluation, fixed columns, flushed every row."""

import csv
import math
import numbers
import os
import tempfile
from collections.abc import Sequence

from agents import checkpoint, tracking


def read_rows(path: str) -> list[dict[str, str]]:
    """The rows of a metrics CSV as dicts of strings, in file order."""
    with open(path, newline="") as file:
        return list(csv.DictReader(file))


class CsvLog:
    """Appends rows to a CSV file with a fixed header.

    Args:
      path: the CSV file.
      fieldnames: the columns; 'step' must be one of them.
      keep_until_step: None starts a new file. An integer resumes: rows of the
        existing file with step <= keep_until_step stay (the ones the checkpoint
        knows of), later rows, written after that checkpoint, are dropped.
      tracker: also log every row there (TensorBoard, W&B: agents/tracking.py);
        closed with the log.
    """

    def __init__(
        self,
        path: str,
        fieldnames: Sequence[str],
        keep_until_step: int | None = None,
        tracker: "tracking.Tracker | None" = None,
    ):
        self.tracker = tracker
        self.path = os.fspath(path)
        self.fieldnames = list(fieldnames)
        if "step" not in self.fieldnames:
            raise ValueError(f"fieldnames {self.fieldnames} must include 'step'.")
        kept = []
        if keep_until_step is not None and os.path.exists(self.path):
            with open(self.path, newline="") as file:
                reader = csv.DictReader(file)
                if reader.fieldnames != self.fieldnames:
                    raise ValueError(
                        f"{self.path!r} has columns {reader.fieldnames}; expected "
                        f"{self.fieldnames} to resume into it."
                    )
                kept = [row for row in reader if int(row["step"]) <= keep_until_step]
        directory = os.path.dirname(os.path.abspath(self.path))
        os.makedirs(directory, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=directory, suffix=".csv.tmp")
        # mkstemp creates 0600 files; the run's files share the umask's mode.
        os.fchmod(handle, checkpoint.new_file_mode())
        with os.fdopen(handle, "w", newline="") as file:
            writer = csv.DictWriter(file, fieldnames=self.fieldnames)
            writer.writeheader()
            writer.writerows(kept)
        os.replace(temporary, self.path)
        self._file = open(self.path, "a", newline="")
        self._writer = csv.DictWriter(self._file, fieldnames=self.fieldnames)

    def write(self, row: dict) -> None:
        unknown = set(row) - set(self.fieldnames)
        if unknown:
            raise ValueError(f"row has columns {sorted(unknown)} not in {self.fieldnames}.")
        self._writer.writerow({name: _format(row.get(name)) for name in self.fieldnames})
        self._file.flush()
        if self.tracker is not None:
            self.tracker.write(row)

    def close(self) -> None:
        self._file.close()
        if self.tracker is not None:
            self.tracker.close()


def _format(value) -> str:
    if value is None:
        return ""
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        value = float(value)
        return "" if math.isnan(value) else repr(value)
    return str(value)
