"""Seeds: the one place where seeds are checked and derived from a user's seed.

Every per-copy, per-stream and per-run seed of this project (a batch's copies, their
model-variation streams, an agent run's training and evaluation environments) is
`derive_seed(seed, *path)`: numpy's `SeedSequence` over the user's seed followed by
a path of small integers naming the stream. Nearby seeds and nearby paths give
unrelated streams, and the derivation never changes between releases, so recorded
runs stay reproducible.

This module imports only numpy, so agents (which never import task code) use it too.
"""

from typing import Any

import numpy as np

# `np.random.RandomState` takes seeds in [0, 2**32 - 1]; so do these functions.
MAX_SEED = 2**32 - 1


def check_seed(seed: Any, name: str = "seed") -> int:
    """Returns `seed` as a Python int, or raises naming `name` and what was wrong.

    Accepts ints (Python or numpy) in [0, 2**32 - 1]. Rejects bools, floats (even
    integral ones such as 1.0), strings and out-of-range values, which numpy would
    otherwise truncate or wrap silently.
    """
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise TypeError(
            f"{name} must be an int in [0, {MAX_SEED}], got {seed!r} ({type(seed).__name__})"
        )
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"{name} must be an int in [0, {MAX_SEED}], got {seed}")
    return int(seed)


def derive_seed(seed: int, *path: int) -> int:
    """A seed in [0, 2**32 - 1] derived from `seed` and a path of non-negative ints."""
    seed = check_seed(seed)
    for position, entry in enumerate(path):
        check_seed(entry, f"seed path entry {position}")
    return int(np.random.SeedSequence([seed, *map(int, path)]).generate_state(1)[0])


def random_seed() -> int:
    """A fresh seed drawn from the operating system's entropy."""
    return int(np.random.SeedSequence().generate_state(1)[0])
