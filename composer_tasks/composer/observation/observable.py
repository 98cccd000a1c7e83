"""Observables: quantities read from the physics, with noise, latency, buffering and rate.

Every observable has the options of the dm_control paper §5.1:
  enabled (bool, default False), update_interval (int or callable -> int, in physics
  substeps), buffer_size (int >= 1), delay (int or callable -> int >= 0, in physics
  substeps), aggregator ('mean', 'median', 'max', 'min', 'sum' or a callable reducing
  over axis 0 of the buffer), corruptor (callable(value, random_state) -> value,
  applied to each value before it enters the buffer).
"""

import numpy as np

AGGREGATORS = {
    "mean": lambda buffer: np.mean(buffer, axis=0),
    "median": lambda buffer: np.median(buffer, axis=0),
    "max": lambda buffer: np.max(buffer, axis=0),
    "min": lambda buffer: np.min(buffer, axis=0),
    "sum": lambda buffer: np.sum(buffer, axis=0),
}


class Observable:
    """Base class: subclasses implement `_callable(physics)` returning a function of no
    arguments that reads the current value from that physics."""

    def __init__(self, update_interval=1, buffer_size=1, delay=0, aggregator=None,
                 corruptor=None, enabled=False):
        self.update_interval = update_interval
        self.buffer_size = buffer_size
        self.delay = delay
        self.aggregator = aggregator
        self.corruptor = corruptor
        self.enabled = enabled

    @property
    def update_interval(self):
        return self._update_interval

    @update_interval.setter
    def update_interval(self, value):
        self._update_interval = _positive_or_callable(value, "update_interval", minimum=1)

    @property
    def buffer_size(self):
        return self._buffer_size

    @buffer_size.setter
    def buffer_size(self, value):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise ValueError(f"buffer_size must be an integer >= 1, got {value!r}")
        self._buffer_size = int(value)

    @property
    def delay(self):
        return self._delay

    @delay.setter
    def delay(self, value):
        self._delay = _positive_or_callable(value, "delay", minimum=0)

    @property
    def aggregator(self):
        return self._aggregator

    @aggregator.setter
    def aggregator(self, value):
        if value is None or callable(value):
            self._aggregator = value
        elif isinstance(value, str) and value in AGGREGATORS:
            self._aggregator = AGGREGATORS[value]
        else:
            raise ValueError(
                f"aggregator must be None, a callable or one of {sorted(AGGREGATORS)}, got {value!r}")

    @property
    def corruptor(self):
        return self._corruptor

    @corruptor.setter
    def corruptor(self, value):
        if value is not None and not callable(value):
            raise ValueError(f"corruptor must be None or a callable, got {value!r}")
        self._corruptor = value

    @property
    def enabled(self):
        return self._enabled

    @enabled.setter
    def enabled(self, value):
        self._enabled = bool(value)

    def configure(self, **options):
        """Sets several options at once; unknown names raise AttributeError."""
        for name, value in options.items():
            if not hasattr(type(self), name):
                raise AttributeError(f"observables have no option {name!r}")
            setattr(self, name, value)

    def observation_callable(self, physics, random_state=None):
        """A function of no arguments giving the (corrupted) current value as an array."""
        raw = self._callable(physics)
        corruptor = self._corruptor
        if corruptor is None:
            return lambda: np.array(raw())
        return lambda: np.asarray(corruptor(np.array(raw()), random_state=random_state))

    def _callable(self, physics):
        raise NotImplementedError


class Generic(Observable):
    """An observable computed by `raw_observation_callable(physics)`."""

    def __init__(self, raw_observation_callable, **options):
        if not callable(raw_observation_callable):
            raise TypeError(
                f"raw_observation_callable must be callable, got {type(raw_observation_callable).__name__}")
        self._raw_callable = raw_observation_callable
        super().__init__(**options)

    def _callable(self, physics):
        raw = self._raw_callable
        return lambda: raw(physics)


class MJCFFeature(Observable):
    """A bound attribute (`'qpos'`, `'sensordata'`, `'xpos'`, ...) of spec elements.

    Args:
      kind: the attribute name, as in `physics.bind(elements).<kind>`.
      elements: one spec element or a sequence of them.
      index: optional index applied to the bound value.
    """

    def __init__(self, kind, elements, index=None, **options):
        if not isinstance(kind, str):
            raise TypeError(f"kind must be an attribute name string, got {kind!r}")
        self._kind = kind
        self._elements = elements
        self._index = index
        super().__init__(**options)

    @property
    def kind(self):
        return self._kind

    @property
    def elements(self):
        return self._elements

    def _callable(self, physics):
        binding = physics.bind(self._elements)
        kind, index = self._kind, self._index
        getattr(binding, kind)  # Fail now, naming the attribute, not at the first step.
        if index is None:
            return lambda: getattr(binding, kind)
        return lambda: np.asarray(getattr(binding, kind))[index]


def _positive_or_callable(value, name, minimum):
    if callable(value):
        return value
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum} or a callable, got {value!r}")
    return int(value)
