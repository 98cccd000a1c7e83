"""The D4PG runs on the hand's catch task, one figure: evaluation and training
returns against environment steps, the untrained policy's score as a reference.

    python benchmarks/plot_hand_catch.py --out docs/images/hand_catch_d4pg.png \
        benchmarks/results/hand_catch_d4pg_seed0.csv \
        benchmarks/results/hand_catch_d4pg_seed0_run2.csv \
        benchmarks/results/hand_catch_d4pg_seed0_run3.csv

Each CSV is a run's `metrics.csv` (`python -m agents.train ... --out DIR`); the
legend shows each file's name.
"""

import csv
import os

from absl import app, flags
import matplotlib

matplotlib.use("Agg")
from matplotlib import pyplot as plt  # noqa: E402

_OUT = flags.DEFINE_string("out", "docs/images/hand_catch_d4pg.png", "PNG to write.")


def _read(path: str) -> dict[str, list[float]]:
    columns: dict[str, list[float]] = {"step": [], "eval": [], "std": [], "train": []}
    with open(path, newline="") as handle:
        for row in csv.DictReader(handle):
            columns["step"].append(float(row["step"]))
            columns["eval"].append(float(row["eval_return"]))
            columns["std"].append(float(row["eval_return_std"]))
            train = row.get("train_return") or ""
            columns["train"].append(float(train) if train else float("nan"))
    return columns


def main(argv: list[str]) -> None:
    paths = argv[1:]
    if not paths:
        raise app.UsageError("give one or more metrics CSV files")
    figure, axes = plt.subplots(figsize=(8, 4.5))
    for path in paths:
        run = _read(path)
        name = os.path.splitext(os.path.basename(path))[0]
        line = axes.plot(run["step"], run["eval"], marker="o", label=f"{name}: evaluation")[0]
        axes.plot(
            run["step"],
            run["train"],
            linestyle="--",
            color=line.get_color(),
            label=f"{name}: training episodes",
        )
    axes.axhline(500, color="grey", linewidth=0.8)
    axes.set_xlabel("environment steps")
    axes.set_ylabel("return (500 = caught for the whole episode)")
    axes.set_title("D4PG on hand:catch (the point at step 0 is the untrained policy)")
    axes.set_ylim(0, 520)
    axes.legend(fontsize=7, loc="lower right")
    figure.tight_layout()
    figure.savefig(_OUT.value, dpi=100)
    print(f"wrote {_OUT.value}")


if __name__ == "__main__":
    app.run(main)
