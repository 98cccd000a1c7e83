"""The lifecycle callbacks shared by entities and tasks, and which of them a class overrides."""

# Callbacks an Entity or a Task may override; the Environment calls only the
# overridden substep callbacks so that untouched substeps run as one mj_step call.
CALLBACK_NAMES = (
    "initialize_episode_mjcf",
    "after_compile",
    "initialize_episode",
    "before_step",
    "before_substep",
    "after_substep",
    "after_step",
)


class Callbacks:
    """The lifecycle callbacks of entities and tasks, all no-ops by default.

    What each may touch is in `Entity`'s docstring. The Environment calls only those a
    class overrides, so substeps nobody hooks into run as one physics call.
    """

    def initialize_episode_mjcf(self, random_state):
        pass

    def after_compile(self, physics, random_state):
        pass

    def initialize_episode(self, physics, random_state):
        pass

    def before_step(self, physics, action, random_state):
        pass

    def before_substep(self, physics, action, random_state):
        pass

    def after_substep(self, physics, random_state):
        pass

    def after_step(self, physics, random_state):
        pass


def overrides(instance, base, name) -> bool:
    """True if `instance`'s class overrides the method `name` of `base`."""
    return getattr(type(instance), name) is not getattr(base, name)
