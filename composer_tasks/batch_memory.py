"""What a batch's copy costs in memory, measured, and whether N copies fit.

A batch refuses a `num_envs` that cannot fit before it allocates the copies: first
against a lower bound that needs no measurement (each copy's simulation needs at
least its MjData's buffer), then against the measured cost of the first copies made
as the rest will be: the resident memory that making them added plus what
`mujoco.batch` adds per simulation once stepped (its persistent MjData, as touched by
a control step from the state at which an episode starts), probed on a small batch. Where the batch clones copies 2 to N-1 from copy 0
(`composer_tasks.batch_clone`), the measured copies are clones (copies 2 to 65: their
Python state, sharing copy 0's spec); where it builds every copy, copies 1 to 64 (each
with its own task, entities and spec).
Resident sizes are read from /proc (Linux); where they cannot be, only the lower
bound applies.
"""

import ctypes
import ctypes.util
import os
from typing import Callable, Mapping, Optional

import mujoco
import mujoco.batch
import numpy as np

# The simulations of the probe batch that measures mujoco.batch's cost per copy.
_PROBE_SIMULATIONS = 16


def resident_bytes() -> Optional[int]:
    """This process's resident memory in bytes, or None where /proc is not readable."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


def available_bytes() -> Optional[int]:
    """Memory the machine can give without swapping (MemAvailable), else its physical
    memory; None if neither is known."""
    try:
        with open("/proc/meminfo") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def _load_malloc_trim() -> Optional[Callable[[int], int]]:
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        return getattr(ctypes.CDLL(name), "malloc_trim", None)
    except OSError:
        return None


_MALLOC_TRIM = _load_malloc_trim()


def release_free_memory() -> None:
    """Returns the C heap's free pages to the system (glibc's `malloc_trim`; nothing
    elsewhere). Compiling a copy's model frees more than it keeps, and those pages
    would otherwise stay resident."""
    if _MALLOC_TRIM is not None:
        _MALLOC_TRIM(0)


def lower_bound_per_copy(model: mujoco.MjModel) -> int:
    """Bytes every copy needs at least: the batch's MjData buffer of it."""
    return mujoco.MjData(model).nbuffer


def simulation_bytes(
    model: mujoco.MjModel, start: Optional[Mapping[str, np.ndarray]] = None, nstep: int = 1
) -> Optional[int]:
    """Resident bytes `mujoco.batch` adds per persistent simulation of `model`, measured
    on a probe batch made, reset and stepped as a batch's copies are; None where
    resident memory is not known.

    Args:
      model: the model every simulation runs on.
      start: one copy's integration state at the start of an episode, {MjData
        field: value}: the probe binds these fields, resets its simulations without
        computing stages, writes the state into each and steps, as a batch starts its
        copies' episodes. None steps the model's default state.
      nstep: substeps of the probe's step (a control step's: a copy whose episode
        starts above the ground, as dog's, touches the contact and constraint
        arrays that its first control step fills, not those of one substep).
    """
    release_free_memory()
    before = resident_bytes()
    if before is None:
        return None
    probe = mujoco.batch.Batch(model, nsim=_PROBE_SIMULATIONS, nthread=1, persistent=True)
    release_free_memory()
    made = resident_bytes()
    views = {name: probe.bind(name) for name in start or ()}
    # A batch's first bind costs the same at any number of simulations (measured:
    # about 440 KiB for cart-pole, 730 for dog, at 1, 16 and 64): not a cost per copy.
    release_free_memory()
    bound = resident_bytes()
    if start is None:
        probe.reset()
    else:
        probe.reset(stage=mujoco.mjtStage.mjSTAGE_NONE)
        for name, view in views.items():
            view[...] = start[name]
    probe.step(nstep=nstep, stage=mujoco.mjtStage.mjSTAGE_VEL)
    after = resident_bytes()
    del probe, views
    release_free_memory()
    if made is None or bound is None or after is None:
        return None
    return max(0, (made - before) + (after - bound)) // _PROBE_SIMULATIONS


def refuse(num_envs: int, per_copy: int, needed: int, measured: str, exact: bool) -> None:
    """Raises ValueError if `needed` more bytes do not fit in the available memory;
    `exact` says whether `needed` is an estimate or a lower bound."""
    available = available_bytes()
    if available is not None and needed > available:
        raise ValueError(
            f"num_envs={num_envs} copies need {'about' if exact else 'at least'} "
            f"{needed / 2**30:.1f} GiB more "
            f"({per_copy / 2**10:.0f} KiB per copy, {measured}), more than the "
            f"{available / 2**30:.1f} GiB this machine has available"
        )
