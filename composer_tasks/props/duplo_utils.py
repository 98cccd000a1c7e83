"""Measuring how hard two Duplo bricks hold together (dm_control's
`entities.props.duplo.utils`).

`stack_bricks` snaps one brick onto another in an arena; `measure_separation_force`
finds, by bisection, the smallest upward force that pulls the top brick off within
a time limit. dm_control tunes its stud radii with these, and its own Duplo tests
check the forces they give; the functions take the same arguments and return the
same values as dm_control's (both bisect with SciPy's `optimize.bisect`, which
returns the last midpoint it evaluated).
"""

from typing import Tuple, cast

from scipy import optimize

from composer_tasks import composer, mjcf
from composer_tasks.props import bricks

# dm_control's `utils.stack_bricks`: the top brick's frame sits one brick height
# above the bottom brick's (m).
_STACKED_FRAME_POS_M = (0.0, 0.0, bricks.STACKED_OFFSET_M)


def stack_bricks(
    top_brick: bricks.Duplo, bottom_brick: bricks.Duplo
) -> Tuple[composer.Arena, mjcf.Element]:
    """Puts `top_brick`, free, snapped onto `bottom_brick`, fixed at the origin, in a
    new `composer.Arena`; returns (the arena, the top brick's attachment frame).
    Both bricks are attached (build fresh ones for another arena)."""
    arena = composer.Arena()
    arena.attach(bottom_brick)
    frame = arena.add_free_entity(top_brick)
    frame.pos = _STACKED_FRAME_POS_M
    return arena, frame


def measure_separation_force(
    top_brick: bricks.Duplo,
    bottom_brick: bricks.Duplo,
    min_force: float = 0.0,
    max_force: float = 20.0,
    tolerance: float = 0.01,
    time_limit: float = 0.5,
    height_threshold: float = 1e-3,
) -> float:
    """The separation force (N) of two bricks: the smallest upward force that lifts
    `top_brick` by `height_threshold` metres off `bottom_brick` within `time_limit`
    seconds of simulation, gravity off, found to within `tolerance` newtons.

    Each candidate force starts from the model's initial state and is applied at
    the top brick's frame origin. `min_force` is halved until it does not separate
    the bricks and `max_force` doubled until it does, then the bracket is bisected.
    A longer `time_limit` gives a smaller force: under MuJoCo's soft contacts the
    bricks creep apart under any steady pull.
    """
    arena, frame = stack_bricks(top_brick, bottom_brick)
    physics = mjcf.Physics.from_mjcf_model(arena.mjcf_model)
    bound_frame = physics.bind(frame)

    def separates(force: float) -> float:
        """+1 if the bricks separate under `force`, else -1."""
        with physics.model.disable("gravity"):
            physics.reset()
            initial_height = bound_frame.xpos[2]
            bound_frame.xfrc_applied[2] = force
            while physics.time() < time_limit:
                physics.step()
                if bound_frame.xpos[2] - initial_height > height_threshold:
                    return 1.0
        return -1.0

    while separates(min_force) > 0:
        min_force *= 0.5
    while separates(max_force) < 0:
        max_force *= 2
    # Without `full_output`, SciPy returns the root alone.
    root = optimize.bisect(separates, a=min_force, b=max_force, xtol=tolerance, disp=True)
    return cast(float, root)
