"""Learning-curve plots, drawn with matplotlib's Agg canvas (no display, no pyplot state)."""

import math
import os
from collections.abc import Mapping

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure


def plot_learning_curves(
    panels: Mapping[str, Mapping[str, tuple]], path: str, ylabel: str = "evaluation return"
) -> None:
    """Draws a grid of panels, one line per label in each, and saves a PNG.

    Args:
      panels: panel title -> {label -> (steps, mean) or (steps, mean, spread)};
        with a spread (e.g. the standard deviation over seeds) a band of
        mean +- spread is shaded. The x axis is environment steps.
      path: the PNG to write (its directory is created).
      ylabel: the y-axis label.
    """
    if not panels:
        raise ValueError("panels is empty; expected at least one panel to draw.")
    columns = min(3, len(panels))
    rows = math.ceil(len(panels) / columns)
    figure = Figure(figsize=(5.0 * columns, 3.6 * rows), dpi=100)
    FigureCanvasAgg(figure)
    for index, (title, curves) in enumerate(panels.items()):
        axes = figure.add_subplot(rows, columns, index + 1)
        for label, curve in curves.items():
            if len(curve) not in (2, 3):
                raise ValueError(
                    f"curve {label!r} has {len(curve)} parts; expected (steps, mean[, spread])."
                )
            steps = np.asarray(curve[0], np.float64)
            mean = np.asarray(curve[1], np.float64)
            if steps.shape != mean.shape:
                raise ValueError(
                    f"curve {label!r}: steps shape {steps.shape} differs from "
                    f"values shape {mean.shape}."
                )
            axes.plot(steps, mean, label=label)
            if len(curve) == 3:
                spread = np.asarray(curve[2], np.float64)
                axes.fill_between(steps, mean - spread, mean + spread, alpha=0.2)
        axes.set_title(title)
        axes.set_xlabel("environment steps")
        axes.set_ylabel(ylabel)
        axes.grid(alpha=0.3)
        if curves:
            axes.legend(loc="best")
    figure.tight_layout()
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    figure.savefig(path)
