"""What `python -m composer_tasks.viewer` does besides parsing its flags (which stay in
`__main__`, so that importing this module defines no command-line flags)."""

from collections.abc import Sequence
from typing import Any

from absl import app

from composer_tasks import registry

USAGE = (
    "usage: python -m composer_tasks.viewer NAME... [--policy zero|random | --checkpoint "
    "FILE] [--seed S] [--camera C] [--paused] [--speed X] [--web [--port P] [--host H]]; "
    "NAME is a registered environment, e.g. `humanoid stand` (Control Suite) or "
    "`walker_parkour_hurdles` (locomotion); with --checkpoint, NAME defaults to the "
    "environment the agent trained on"
)


def load_environment(names: Sequence[str], seed: int) -> Any:
    """The environment `composer_tasks.registry` knows by these words, seeded.

    The suites register their names through entry points (see `registry`); this
    module imports none of them.

    Raises:
      app.UsageError: without a name, or for an unknown one (listing the close ones).
    """
    if not names:
        listing = "; ".join(
            f"{collection}: {', '.join(registry.names(collection))}"
            for collection in registry.collections()
        )
        raise app.UsageError(f"{USAGE}. Registered names by collection: {listing}")
    try:
        return registry.load(list(names), seed=seed)
    except registry.UnknownEnvironmentError as error:
        raise app.UsageError(f"{error}\n{USAGE}") from None
