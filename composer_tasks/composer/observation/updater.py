"""Evaluates enabled observables at the substeps where they matter and buffers them."""

import collections

import dm_env
import numpy as np


class Updater:
    """Turns a dict of enabled observables into per-control-step observations.

    The Environment calls, per episode: `reset(physics, random_state)`; per control
    step: `prepare_for_next_control_step()`, which returns the substep indices
    (1-based, the last one is `physics_steps_per_control_step`) after which it must
    call `update(substep)`; then `get_observation()`.
    """

    def __init__(self, observables, physics_steps_per_control_step, strip_singleton_buffer_dim=False):
        self._observables = collections.OrderedDict(observables)
        for name, observable in self._observables.items():
            if callable(observable.update_interval) or callable(observable.delay):
                raise ValueError(f"observable {name!r}: callable update_interval/delay are not supported yet")
            if observable.update_interval != 1 or observable.delay != 0 or observable.buffer_size != 1:
                raise ValueError(
                    f"observable {name!r}: update_interval, delay and buffer_size other than "
                    "1, 0, 1 are not supported yet")
        self._n = physics_steps_per_control_step
        self._strip = strip_singleton_buffer_dim
        self._callables = {}
        self._values = {}

    def reset(self, physics, random_state):
        self._callables = collections.OrderedDict(
            (name, observable.observation_callable(physics, random_state))
            for name, observable in self._observables.items())
        self._read()

    def _read(self):
        for name, read in self._callables.items():
            value = read()
            aggregator = self._observables[name].aggregator
            if aggregator is not None:
                value = np.asarray(aggregator(value[np.newaxis]))
            elif not self._strip:
                value = value[np.newaxis]
            self._values[name] = value

    def prepare_for_next_control_step(self):
        return (self._n,) if self._callables else ()

    def update(self, substep):
        if substep == self._n:
            self._read()

    def get_observation(self):
        return collections.OrderedDict((name, value) for name, value in self._values.items())

    def observation_spec(self):
        return collections.OrderedDict(
            (name, dm_env.specs.Array(value.shape, value.dtype, name))
            for name, value in self._values.items())
