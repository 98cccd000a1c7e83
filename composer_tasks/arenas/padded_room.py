"""A square labmaze room with an empty border (dm_control's
`locomotion.arenas.padded_room`).

`PaddedRoom(room_size)` is a `labmaze.BaseMaze` of (room_size + 4)^2 cells: a
room_size x room_size interior where `regenerate` places the spawn and object
tokens, surrounded by two empty cells on each side, the outermost ring being
wall cells when `pad_with_walls`. Use it as the `maze` of
`mazes.MazeWithTargets`.
"""

from __future__ import annotations

import labmaze
import numpy as np

from composer_tasks.arenas.mazes import OBJECT_TOKEN, SPAWN_TOKEN

# Cells added to each dimension around the room (2 on each side), dm_control's value.
_PADDING = 4


class PaddedRoom(labmaze.BaseMaze):
    """A square room whose outer cells are always free of tokens.

    Args:
      room_size: side of the room, in cells (>= 1).
      num_objects: object tokens placed per `regenerate`.
      random_state: the `np.random.RandomState` that places them (None: numpy's
        global generator, as dm_control).
      pad_with_walls: make the outermost ring of cells walls.
      num_agent_spawn_positions: spawn tokens placed per `regenerate`.
    """

    def __init__(
        self,
        room_size: int,
        num_objects: int = 0,
        random_state: np.random.RandomState | None = None,
        pad_with_walls: bool = True,
        num_agent_spawn_positions: int = 1,
    ) -> None:
        if not isinstance(room_size, (int, np.integer)) or room_size < 1:
            raise ValueError(f"room_size must be an int >= 1 (cells), got {room_size!r}")
        for label, value in (
            ("num_objects", num_objects),
            ("num_agent_spawn_positions", num_agent_spawn_positions),
        ):
            if not isinstance(value, (int, np.integer)) or value < 0:
                raise ValueError(f"{label} must be an int >= 0, got {value!r}")
        if num_objects + num_agent_spawn_positions > room_size * room_size:
            raise ValueError(
                f"a room of {room_size}x{room_size} cells cannot hold {num_objects} objects "
                f"and {num_agent_spawn_positions} spawn positions"
            )
        self._room_size = int(room_size)
        self._num_objects = int(num_objects)
        self._num_agent_spawn_positions = int(num_agent_spawn_positions)
        self._random_state = random_state or np.random
        side = self._room_size + _PADDING
        empty = "\n".join(["." * side] * side + [""])
        self._entity_layer = labmaze.TextGrid(empty)
        if pad_with_walls:
            for border in (np.s_[0, :], np.s_[-1, :], np.s_[:, 0], np.s_[:, -1]):
                self._entity_layer[border] = "*"
        self._variations_layer = labmaze.TextGrid(empty)

    def regenerate(self) -> None:
        """Clears the interior and places the spawn tokens, then the objects, in
        distinct random cells of the room."""
        self._entity_layer[1:-1, 1:-1] = " "
        self._variations_layer[:, :] = "."
        cells = self._random_state.choice(
            self._room_size * self._room_size,
            self._num_objects + self._num_agent_spawn_positions,
            replace=False,
        )
        offset = _PADDING // 2
        for index, cell in enumerate(cells):
            if index < self._num_agent_spawn_positions:
                token = SPAWN_TOKEN
            else:
                token = OBJECT_TOKEN
            row, col = divmod(int(cell), self._room_size)
            self._entity_layer[row + offset, col + offset] = token

    @property
    def entity_layer(self) -> labmaze.TextGrid:
        return self._entity_layer

    @property
    def variations_layer(self) -> labmaze.TextGrid:
        return self._variations_layer

    @property
    def width(self) -> int:
        return self._room_size + _PADDING

    @property
    def height(self) -> int:
        return self._room_size + _PADDING
