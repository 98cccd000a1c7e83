"""Covering a text maze's wall cells with few rectangles (dm_control's
`locomotion.arenas.covering`).

`make_walls(text_maze)` returns rectangles (`MazeWall`, grid corners) whose union
is exactly the maze's wall cells and which do not overlap. The covering is
greedy and gives the same rectangles, in the same order, as dm_control's: scan
the grid row by row for the first uncovered wall cell; from it, grow a rectangle
down row by row, each row's run of uncovered wall cells limited by the run of
the row above; keep the height that covers the most cells (the first such
height); mark it covered and go on from the cell right of it.

With `make_odd_sized_walls`, every rectangle spans an odd number of cells in
both directions (a run of even length gives up its last cell; only odd heights
are considered), which keeps MuJoCo's texture repetition aligned on the walls.

Grid coordinates are (y, x) = (row, column) of the text grid; a rectangle covers
rows `start.y` to `end.y - 1` and columns `start.x` to `end.x - 1`.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np


class GridCoordinates(NamedTuple):
    """A cell of the text grid: row `y`, column `x`."""

    y: int
    x: int


class MazeWall(NamedTuple):
    """A rectangle of wall cells: `start` its first cell, `end` one past its last."""

    start: GridCoordinates
    end: GridCoordinates


def _grid_of(text_maze: Any) -> np.ndarray:
    """The maze as a 2D array of one-character strings."""
    grid = np.asarray(text_maze)
    if grid.ndim != 2:
        raise ValueError(
            f"text_maze must be a 2D grid of characters (a labmaze.TextGrid), "
            f"got an array of shape {grid.shape}"
        )
    return grid


def make_walls(
    text_maze: Any, wall_char: str = "*", make_odd_sized_walls: bool = False
) -> tuple[MazeWall, ...]:
    """Rectangles exactly covering the cells of `text_maze` equal to `wall_char`.

    Args:
      text_maze: a `labmaze.TextGrid` (or any 2D array of characters).
      wall_char: the character of wall cells.
      make_odd_sized_walls: make every rectangle an odd number of cells high and
        wide.

    Returns:
      The rectangles as `MazeWall`s, in the order the greedy scan finds them.
    """
    grid = _grid_of(text_maze)
    if not isinstance(wall_char, str) or len(wall_char) != 1:
        raise ValueError(f"wall_char must be one character, got {wall_char!r}")
    rows, cols = grid.shape
    uncovered = grid == wall_char
    walls = []
    row, col = 0, 0
    while True:
        start = _next_uncovered(uncovered, row, col)
        if start is None:
            break
        end = _largest_rectangle(uncovered, start, make_odd_sized_walls)
        uncovered[start.y : end.y, start.x : end.x] = False
        walls.append(MazeWall(start, end))
        row, col = start.y, end.x
        if col >= cols:
            row, col = row + 1, 0
        if row >= rows:
            break
    return tuple(walls)


def _next_uncovered(uncovered: np.ndarray, row: int, col: int) -> GridCoordinates | None:
    """The first uncovered wall cell at or after (row, col) in row-major order."""
    rows, _ = uncovered.shape
    for y in range(row, rows):
        hits = np.flatnonzero(uncovered[y, col if y == row else 0 :])
        if hits.size:
            return GridCoordinates(y, int(hits[0]) + (col if y == row else 0))
    return None


def _largest_rectangle(
    uncovered: np.ndarray, start: GridCoordinates, odd_sizes: bool
) -> GridCoordinates:
    """The far corner (exclusive) of the greedy rectangle grown down from `start`."""
    rows, cols = uncovered.shape
    limit = cols
    ends = []  # column end of the rectangle that stops at each row
    areas = []
    for y in range(start.y, rows):
        run = uncovered[y, start.x : limit]
        gaps = np.flatnonzero(~run)
        limit = start.x + (int(gaps[0]) if gaps.size else run.size)
        if limit <= start.x:
            break
        if odd_sizes and (limit - start.x) % 2 == 0:
            limit -= 1
        ends.append(limit)
        areas.append((limit - start.x) * (y - start.y + 1))
    if odd_sizes:
        # Odd heights only: offsets 0, 2, 4, ...
        odd_areas = areas[::2]
        offset = 2 * odd_areas.index(max(odd_areas))
    else:
        offset = areas.index(max(areas))
    return GridCoordinates(start.y + offset + 1, ends[offset])
