"""Arenas: the root entities tasks put walkers and props into."""

from composer_tasks.arenas.floor import Floor
