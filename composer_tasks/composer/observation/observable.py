"""Observables: quantities read from the physics, with noise, latency, buffering and rate.

Every observable has the options of the dm_control paper (§5.1):

  enabled: bool, default False. Only enabled observables appear in observations.
  update_interval: int >= 1 (default 1), or a `variation.Variation` (called with
    `random_state=`, the environment's) or another callable (called with no
    arguments), as dm_control calls them, returning an int, in physics substeps
    between two evaluations. A callable is drawn anew for every interval.
  buffer_size: int >= 1, or None (the default, as in dm_control: 1). The
    observation holds the `buffer_size` most recent values that have arrived,
    oldest first, along a leading buffer axis.
  delay: int >= 0, or a Variation or callable as for update_interval, in physics
    substeps; None (the default, as in dm_control) means 0.
    A value evaluated after substep t arrives (can be observed) from substep t + delay
    on. A callable is drawn anew for every evaluation.
  aggregator: None, one of 'mean', 'median', 'max', 'min', 'sum', or a callable
    reducing a (buffer_size, ...) array over axis 0. The observation is then the
    aggregate instead of the buffer.
  corruptor: None or a callable `fn(value, random_state=...) -> value`, applied to
    every value when it is evaluated, before it enters the buffer (sensor noise).

docs/observables.md gives the exact timing semantics with a worked example; the
`Updater` implements them.

Every value an observable produces is a new array that shares no memory with the
physics.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import mujoco
import numpy as np
from dm_env import specs

from composer_tasks import mjcf
from composer_tasks import physics as physics_module
from composer_tasks.mjcf import indexing

if TYPE_CHECKING:
    from composer_tasks.composer.variation.base import RandomStateLike
    from composer_tasks.physics import Physics

# `update_interval` and `delay` as given: a fixed number of substeps, or a callable
# drawing one, `fn(random_state=...) -> int`.
IntOption = int | np.integer | Callable[..., int | np.integer]
# `update_interval` and `delay` as kept: fixed numbers become ints.
StoredIntOption = int | Callable[..., int | np.integer]
# An index into a feature's value, as NumPy indexing takes it.
Index = int | slice | Sequence[Any] | np.ndarray | tuple[Any, ...]

# What an option of None stands for (dm_control's `observation.DEFAULT_*`): a buffer
# of one value, evaluated every physics step, no delay.
DEFAULT_BUFFER_SIZE = 1
DEFAULT_UPDATE_INTERVAL = 1
DEFAULT_DELAY = 0

AGGREGATORS: dict[str, Callable[[np.ndarray], Any]] = {
    "mean": functools.partial(np.mean, axis=0),
    "median": functools.partial(np.median, axis=0),
    "max": functools.partial(np.max, axis=0),
    "min": functools.partial(np.min, axis=0),
    "sum": functools.partial(np.sum, axis=0),
}


class UnknownAggregatorError(KeyError, ValueError):
    """An aggregator name not in `AGGREGATORS`: a KeyError, as dm_control raises, and
    a ValueError, as for the other bad option values."""

    def __str__(self) -> str:
        # KeyError's str quotes its message; this one reads as a sentence.
        return str(self.args[0]) if self.args else ""


class Observable:
    """Base class of observables.

    Subclasses implement `_raw_reader(physics)`, returning a function of no arguments
    that gives the current value as an array, and set `_reader_returns_new_arrays`
    when that array is always newly allocated (so no defensive copy is needed). They
    may implement `_raw_reader_with_leading_axis(physics)` when they can give values
    with the leading buffer axis at no extra cost.
    """

    _reader_returns_new_arrays = False
    _aggregator: Callable[[np.ndarray], Any] | None

    def __init__(
        self,
        update_interval: IntOption | None = 1,
        buffer_size: int | np.integer | None = None,
        delay: IntOption | None = None,
        aggregator: str | Callable[[np.ndarray], Any] | None = None,
        corruptor: Callable[..., Any] | None = None,
        enabled: bool | np.bool_ = False,
    ):
        self.update_interval = update_interval
        self.buffer_size = buffer_size
        self.delay = delay
        self.aggregator = aggregator
        self.corruptor = corruptor
        self.enabled = enabled

    @property
    def update_interval(self) -> StoredIntOption | None:
        """Physics substeps between evaluations: an int >= 1 or a callable drawing one;
        None means `DEFAULT_UPDATE_INTERVAL` (1)."""
        return self._update_interval

    @update_interval.setter
    def update_interval(self, value: IntOption | None) -> None:
        self._update_interval = self._int_or_callable(value, "update_interval", minimum=1)

    @property
    def buffer_size(self) -> int | None:
        """Number of values in the observation's leading buffer axis (int >= 1); None
        (the default, as in dm_control) means `DEFAULT_BUFFER_SIZE` (1)."""
        return self._buffer_size

    @buffer_size.setter
    def buffer_size(self, value: int | np.integer | None) -> None:
        if value is None:
            self._buffer_size = None
            return
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise ValueError(
                f"{self!r}: buffer_size must be an integer >= 1 or None, got {value!r}"
            )
        self._buffer_size = int(value)

    @property
    def delay(self) -> StoredIntOption | None:
        """Physics substeps from evaluation to arrival: an int >= 0 or a callable drawing
        one; None (the default, as in dm_control) means `DEFAULT_DELAY` (0)."""
        return self._delay

    @delay.setter
    def delay(self, value: IntOption | None) -> None:
        self._delay = self._int_or_callable(value, "delay", minimum=0)

    @property
    def aggregator(self) -> Callable[[np.ndarray], Any] | None:
        """None or a callable reducing the buffer over axis 0 (names are resolved)."""
        return self._aggregator

    @aggregator.setter
    def aggregator(self, value: str | Callable[[np.ndarray], Any] | None) -> None:
        if isinstance(value, str):
            if value not in AGGREGATORS:
                raise UnknownAggregatorError(
                    f"Unrecognized aggregator name: {value!r}. {self!r}: expected one of "
                    f"{sorted(AGGREGATORS)}, a callable or None"
                )
            value = AGGREGATORS[value]
        elif value is not None and not callable(value):
            raise ValueError(
                f"{self!r}: aggregator must be one of {sorted(AGGREGATORS)}, a callable "
                f"or None, got {value!r}"
            )
        self._aggregator = value

    @property
    def corruptor(self) -> Callable[..., Any] | None:
        """None or a callable `fn(value, random_state=...)` applied to each new value."""
        return self._corruptor

    @corruptor.setter
    def corruptor(self, value: Callable[..., Any] | None) -> None:
        if value is not None and not callable(value):
            raise ValueError(f"{self!r}: corruptor must be None or a callable, got {value!r}")
        self._corruptor = value

    @property
    def enabled(self) -> bool:
        return self._enabled

    @enabled.setter
    def enabled(self, value: bool | np.bool_) -> None:
        if not isinstance(value, (bool, np.bool_)):
            raise TypeError(f"{self!r}: enabled must be a bool, got {value!r}")
        self._enabled = bool(value)

    @property
    def array_spec(self) -> Any:
        """The spec of the values if known without reading the physics (cameras), else
        None: the `Updater` then reads one value for its shape and dtype."""
        return None

    def configure(self, **options: Any) -> None:
        """Sets several options (properties) at once.

        Raises:
          AttributeError: an option this observable does not have (dm_control's
            message, then this observable's).
        """
        for name, value in options.items():
            if not isinstance(getattr(type(self), name, None), property) or name.startswith("_"):
                raise AttributeError(
                    f"Cannot add attribute {name} in configure. {self!r} has no option {name!r}"
                )
            setattr(self, name, value)

    def observation_callable(
        self,
        physics: Physics,
        random_state: RandomStateLike | None = None,
        leading_axis: bool = False,
    ) -> Callable[[], np.ndarray]:
        """A function of no arguments returning the current, corrupted value.

        Args:
          physics: the `Physics` to read.
          random_state: passed to the corruptor as `random_state=`.
          leading_axis: give each value a leading axis of length 1 (the buffer axis
            of a one-value buffer).

        Returns:
          A callable giving a new array (sharing no memory with the physics) per call.
        """
        if leading_axis and self._corruptor is None:
            reader = self._raw_reader_with_leading_axis(physics)
            if reader is not None:
                return reader
        raw = self._raw_reader(physics)
        if not self._reader_returns_new_arrays:
            raw = _copying(raw)
        if self._corruptor is not None:
            raw = functools.partial(_corrupted, raw, self._corruptor, random_state)
        if leading_axis:
            return functools.partial(_with_leading_axis, raw)
        return raw

    def __call__(self, physics: Physics, random_state: RandomStateLike | None = None) -> np.ndarray:
        """The current, corrupted value, read once (as dm_control's `Observable.__call__`)."""
        return self.observation_callable(physics, random_state)()

    def _raw_reader(self, physics: Physics) -> Callable[[], Any]:
        raise NotImplementedError(f"{type(self).__name__} must implement _raw_reader")

    def _raw_reader_with_leading_axis(self, physics: Physics) -> Callable[[], np.ndarray] | None:
        """Optionally, a reader whose new arrays already have a leading axis of 1."""
        del physics

    def _int_or_callable(
        self, value: IntOption | None, name: str, minimum: int
    ) -> StoredIntOption | None:
        if value is None or callable(value):
            return value
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
            raise ValueError(
                f"{self!r}: {name} must be an integer >= {minimum}, a callable "
                f"fn(random_state=...) returning one, or None, got {value!r}"
            )
        return int(value)

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


def timing_options(observable: Observable) -> tuple[StoredIntOption, int, StoredIntOption]:
    """(update_interval, buffer_size, delay) of `observable`, each None replaced by
    its default, as the `Updater` uses them."""
    interval = observable.update_interval
    buffer_size = observable.buffer_size
    delay = observable.delay
    return (
        DEFAULT_UPDATE_INTERVAL if interval is None else interval,
        DEFAULT_BUFFER_SIZE if buffer_size is None else buffer_size,
        DEFAULT_DELAY if delay is None else delay,
    )


def _copying(reader: Callable[[], Any]) -> Callable[[], np.ndarray]:
    return lambda: np.array(reader())


def _corrupted(
    reader: Callable[[], Any],
    corruptor: Callable[..., Any],
    random_state: RandomStateLike | None,
) -> np.ndarray:
    return np.array(corruptor(reader(), random_state=random_state))


def _with_leading_axis(reader: Callable[[], np.ndarray]) -> np.ndarray:
    return reader()[np.newaxis]


class Generic(Observable):
    """An observable computed by `raw_observation_callable(physics)`.

    The callable may return anything `np.asarray` accepts; its shape and dtype must
    not change during an episode. The options (module docstring) follow it in
    dm_control's positional order; `enabled` is keyword-only (this project's:
    dm_control sets it afterwards).
    """

    def __init__(
        self,
        raw_observation_callable: Callable[[Any], Any],
        update_interval: IntOption | None = 1,
        buffer_size: int | np.integer | None = None,
        delay: IntOption | None = None,
        aggregator: str | Callable[[np.ndarray], Any] | None = None,
        corruptor: Callable[..., Any] | None = None,
        *,
        enabled: bool | np.bool_ = False,
    ):
        if not callable(raw_observation_callable):
            raise TypeError(
                "raw_observation_callable must be a callable of the physics, got "
                f"{type(raw_observation_callable).__name__}"
            )
        self._raw_callable = raw_observation_callable
        super().__init__(
            update_interval=update_interval,
            buffer_size=buffer_size,
            delay=delay,
            aggregator=aggregator,
            corruptor=corruptor,
            enabled=enabled,
        )

    @property
    def raw_callable(self) -> Callable[[Any], Any]:
        """The function of the physics this observable reads (read-only)."""
        return self._raw_callable

    def _raw_reader(self, physics: Physics) -> Callable[[], Any]:
        return functools.partial(self._raw_callable, physics)

    def __repr__(self) -> str:
        function = self._raw_callable
        name = getattr(function, "__qualname__", None) or type(function).__name__
        return f"Generic({name})"


class MJCFFeature(Observable):
    """A bound attribute (`'qpos'`, `'qvel'`, `'sensordata'`, `'xpos'`, ...) of model elements.

    The value is what `mjcf.Physics.bind(elements)` gives for the attribute, as in
    dm_control: the attribute is looked up on MjData if it has it for that kind of
    element, else on MjModel (`'mass'`, `'size'`, ...), in MuJoCo's units and frames
    (positions in metres in the world frame, `xmat` row-major 3x3 flattened, ...).

    Value shape, as dm_control's:
      * per-element rows (`xpos`, `xmat`, `mass`, `ctrl`, ...): one element gives its
        row, `(3,)` for xpos and `()` for a scalar such as a body's mass; a list of n
        elements gives `(n, *row)`.
      * quantities of varying width (`qpos`, `qvel` and other per-degree-of-freedom
        arrays of joints, `sensordata`, `act`): one element gives its slice (`(1,)`
        for a hinge's qpos, `(3,)` for a 3-axis sensor); a list gives the slices
        concatenated (`(12,)` for four 3-axis sensors).
    `index`, if given, is then applied to that value (`value[index]`); `feature[index]`
    makes a copy of the observable with an index.

    When the Environment resets, the observable resolves, once, where its numbers
    live in MuJoCo's flat data or model arrays, so reading it is a single copy out of
    that array.

    Args (dm_control's, in its order):
      kind: the attribute name.
      mjcf_element: one element or a list/tuple of elements of one kind:
        `composer_tasks.mjcf` handles or spec elements (`mujoco.Mjs...`), of the
        spec the physics was compiled from (including attached children).
      update_interval, buffer_size, delay, aggregator, corruptor: the observable
        options (module docstring).
      index: optional integer, slice, array or tuple index into the value.
      enabled: whether the observable starts enabled (this project's keyword).

    Raises:
      ValueError: `mjcf_element` is not an element or a list of elements of one kind.
    """

    _reader_returns_new_arrays = True

    def __init__(
        self,
        kind: str,
        mjcf_element: Any,
        update_interval: IntOption | None = 1,
        buffer_size: int | np.integer | None = None,
        delay: IntOption | None = None,
        aggregator: str | Callable[[np.ndarray], Any] | None = None,
        corruptor: Callable[..., Any] | None = None,
        index: Index | None = None,
        *,
        enabled: bool | np.bool_ = False,
    ):
        if not isinstance(kind, str):
            raise TypeError(f"kind must be an attribute name string, got {kind!r}")
        if isinstance(mjcf_element, (list, tuple)):
            if not mjcf_element:
                raise ValueError(f"MJCFFeature({kind!r}): mjcf_element must not be empty")
            element_list = [_spec_element(kind, element) for element in mjcf_element]
        else:
            element_list = [_spec_element(kind, mjcf_element)]
        kinds = {type(element).__name__ for element in element_list}
        if len(kinds) > 1:
            raise ValueError(
                f"MJCFFeature({kind!r}): elements must all be of one kind, got {sorted(kinds)}"
            )
        self._kind = kind
        self._elements = mjcf_element
        self._element_list = element_list
        self._index = index
        super().__init__(
            update_interval=update_interval,
            buffer_size=buffer_size,
            delay=delay,
            aggregator=aggregator,
            corruptor=corruptor,
            enabled=enabled,
        )

    @property
    def kind(self) -> str:
        return self._kind

    @property
    def elements(self) -> Any:
        return self._elements

    @property
    def index(self) -> Index | None:
        return self._index

    def __getitem__(self, index: Index) -> MJCFFeature:
        if self._index is not None:
            # dm_control's exception type for indexing an indexed feature.
            raise NotImplementedError(
                f"{self!r} already has an index; index the original observable once"
            )
        return MJCFFeature(
            self._kind,
            self._elements,
            index=index,
            update_interval=self.update_interval,
            buffer_size=self.buffer_size,
            delay=self.delay,
            aggregator=self.aggregator,
            corruptor=self.corruptor,
            enabled=self.enabled,
        )

    def _raw_reader(self, physics: Physics) -> Callable[[], np.ndarray]:
        return self._feature_reader(physics, leading_axis=False)

    def _raw_reader_with_leading_axis(self, physics: Physics) -> Callable[[], np.ndarray]:
        return self._feature_reader(physics, leading_axis=True)

    def _feature_reader(self, physics: Physics, leading_axis: bool) -> Callable[[], np.ndarray]:
        # Locating the feature in MuJoCo's arrays costs more than a whole reset of a
        # task; the location holds for as long as the model and data objects do.
        cached = getattr(self, "_cached_reader", None)
        if (
            cached is not None
            and cached[0] is physics.model
            and cached[1] is physics.data
            and cached[2] == leading_axis
        ):
            return cached[3]
        try:
            reader = _feature_reader(
                physics,
                self._kind,
                self._element_list,
                isinstance(self._elements, (list, tuple)),
                self._index,
                leading_axis,
            )
        except (AttributeError, IndexError, KeyError, TypeError, ValueError) as error:
            raise ValueError(f"{self!r} cannot be read from this physics: {error}") from error
        self._cached_reader = (physics.model, physics.data, leading_axis, reader)
        return reader

    def __repr__(self) -> str:
        names = [
            element.name or f"<unnamed {type(element).__name__}>" for element in self._element_list
        ]
        shown = names if isinstance(self._elements, (list, tuple)) else names[0]
        suffix = "" if self._index is None else f", index={self._index!r}"
        return f"MJCFFeature({self._kind!r}, {shown!r}{suffix})"


def _spec_element(kind: str, element: Any) -> Any:
    if isinstance(element, mjcf.Element):
        return element.spec_element
    # MuJoCo's spec element classes (MjsJoint, MjsBody, ...) share no Python base class.
    element_type = type(element)
    if element_type.__module__.startswith("mujoco") and element_type.__name__.startswith("Mjs"):
        return element
    # dm_control's words first (its tests match them), then what else is accepted here.
    raise ValueError(
        f"MJCFFeature({kind!r}): expected an `mjcf.Element` (or a mujoco.Mjs... spec "
        f"element), got type {type(element).__name__}: {element!r}"
    )


def _feature_reader(
    physics: Physics,
    kind: str,
    elements: list[Any],
    is_sequence: bool,
    index: Index | None,
    leading_axis: bool,
) -> Callable[[], np.ndarray]:
    """A reader of the feature: one copy out of the flat MuJoCo array holding it."""
    element_kind = indexing.kind_of(elements[0])
    ids = indexing.element_ids(physics.model, element_kind, elements)
    location = indexing.locate(physics.model, physics.data, element_kind, ids, kind, is_sequence)
    positions = location.positions.reshape(location.shape)
    if index is not None:
        positions = np.asarray(positions[index])
    if leading_axis:
        positions = positions[np.newaxis]
    flat = location.array.reshape(-1)
    ravelled = positions.reshape(-1)
    first = ravelled[0] if ravelled.size else 0
    if np.array_equal(ravelled, np.arange(first, first + ravelled.size)):
        read = flat[first : first + ravelled.size].reshape(positions.shape).copy
    else:
        read = functools.partial(flat.__getitem__, positions)
    if physics_module.triggers_dirty(location.struct, location.name, kind):
        return read  # a state or input field, or a model parameter: read as it is

    def read_current() -> np.ndarray:
        # dm_control reads a feature through a binding, which runs `forward` first when
        # a write through a binding (a walker's controls) left derived values stale.
        if physics.is_dirty:
            physics.forward()
        return read()

    return read_current


class MujocoFeature(Observable):
    """A MjData array indexed by element names (dm_control's `MujocoFeature`).

    The value is `physics.named.data.<kind>[feature_name]`: `MujocoFeature("qpos",
    "creature/leg0/hip")` is that hinge's qpos, shape (1,); a list of names gives
    their values as `named` indexing does (rows stacked, variable-width slices
    concatenated).

    Args:
      kind: the name of a MjData array (`"qpos"`, `"xpos"`, `"sensordata"`, ...).
      feature_name: an element's full name, a list of them, or a callable of no
        arguments returning either (called whenever the observable is evaluated).
      update_interval, buffer_size, delay, aggregator, corruptor: the observable
        options (module docstring), in dm_control's positional order.
      enabled: keyword-only (this project's; dm_control sets it afterwards).
    """

    def __init__(
        self,
        kind: str,
        feature_name: str | Sequence[str] | Callable[[], str | Sequence[str]],
        update_interval: IntOption | None = 1,
        buffer_size: int | np.integer | None = None,
        delay: IntOption | None = None,
        aggregator: str | Callable[[np.ndarray], Any] | None = None,
        corruptor: Callable[..., Any] | None = None,
        *,
        enabled: bool | np.bool_ = False,
    ):
        if not isinstance(kind, str):
            raise TypeError(f"kind must be the name of a MjData array, got {kind!r}")
        if not (
            callable(feature_name)
            or isinstance(feature_name, str)
            or (
                isinstance(feature_name, (list, tuple))
                and all(isinstance(name, str) for name in feature_name)
            )
        ):
            raise TypeError(
                f"MujocoFeature({kind!r}): feature_name must be a name, a list of names or a "
                f"callable returning them, got {feature_name!r}"
            )
        self._kind = kind
        self._feature_name = feature_name
        super().__init__(
            update_interval=update_interval,
            buffer_size=buffer_size,
            delay=delay,
            aggregator=aggregator,
            corruptor=corruptor,
            enabled=enabled,
        )

    @property
    def kind(self) -> str:
        return self._kind

    @property
    def feature_name(self) -> str | Sequence[str] | Callable[[], str | Sequence[str]]:
        return self._feature_name

    def _raw_reader(self, physics: Physics) -> Callable[[], Any]:
        try:
            field = indexing.named_field(physics.model, physics.data, "data", self._kind)
            if not callable(self._feature_name):
                field[self._feature_name]
        except (AttributeError, KeyError) as error:
            raise ValueError(f"{self!r} cannot be read from this physics: {error}") from error
        if callable(self._feature_name):
            feature_name = self._feature_name
            return lambda: field[feature_name()]
        return functools.partial(field.__getitem__, self._feature_name)

    def __repr__(self) -> str:
        return f"MujocoFeature({self._kind!r}, {self._feature_name!r})"


# MJCFCamera's message when both `depth` and `segmentation` are asked for (dm_control's
# tests compare the error to this module constant).
_BOTH_SEGMENTATION_AND_DEPTH_ENABLED = "MJCFCamera: ask for depth or segmentation, not both"


class CameraObservable(Observable):
    """Pixels rendered from a camera of the model with `physics.render` (the base of
    `MJCFCamera` and `MujocoCamera`, which differ in how the camera is named).

    Values: (height, width, 3) uint8 RGB; with `depth`, float32 distances in metres;
    with `segmentation`, (height, width, 2) int32 (object id, object type; -1 for the
    background). Rendering needs an OpenGL backend (MUJOCO_GL=egl or osmesa without a
    display); without one the Environment fails at construction with a RuntimeError
    naming the observable and what to install.

    `height`, `width`, `depth`, `segmentation`, `scene_option` and
    `render_flag_overrides` may be changed after construction, as in dm_control.
    """

    _reader_returns_new_arrays = True
    # dm_control's MJCFCamera gives depth images a trailing channel axis of 1.
    _depth_channel_axis = True

    def _init_camera(
        self,
        camera: mujoco.MjsCamera | str,
        height: int | np.integer,
        width: int | np.integer,
        depth: bool,
        segmentation: bool,
        scene_option: mujoco.MjvOption | None,
        render_flag_overrides: Any,
        level_of_detail: str,
        shadows: bool,
        reflections: bool,
        antialias: bool,
    ) -> None:
        name = type(self).__name__
        if depth and segmentation:
            raise ValueError(_BOTH_SEGMENTATION_AND_DEPTH_ENABLED)
        if not (isinstance(level_of_detail, str) and level_of_detail in ("auto", "full")):
            raise ValueError(
                f"{name}: level_of_detail must be 'auto' or 'full', got {level_of_detail!r}"
            )
        self._camera = camera
        self.height = height
        self.width = width
        self._depth = bool(depth)
        self._segmentation = bool(segmentation)
        self._scene_option = scene_option
        self._render_flag_overrides = render_flag_overrides
        self._level_of_detail = level_of_detail
        self._flags = dict(
            shadows=bool(shadows), reflections=bool(reflections), antialias=bool(antialias)
        )

    @property
    def camera(self) -> mujoco.MjsCamera | str:
        return self._camera

    @property
    def height(self) -> int:
        """Image height in pixels."""
        return self._height

    @height.setter
    def height(self, value: int | np.integer) -> None:
        self._height = self._pixels(value, "height")

    @property
    def width(self) -> int:
        """Image width in pixels."""
        return self._width

    @width.setter
    def width(self, value: int | np.integer) -> None:
        self._width = self._pixels(value, "width")

    def _pixels(self, value: int | np.integer, name: str) -> int:
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise ValueError(
                f"{type(self).__name__}: {name} must be a positive number of pixels, got {value!r}"
            )
        return int(value)

    @property
    def depth(self) -> bool:
        return self._depth

    @depth.setter
    def depth(self, value: bool) -> None:
        if value and self._segmentation:
            raise ValueError(_BOTH_SEGMENTATION_AND_DEPTH_ENABLED)
        self._depth = bool(value)

    @property
    def segmentation(self) -> bool:
        return self._segmentation

    @segmentation.setter
    def segmentation(self, value: bool) -> None:
        if value and self._depth:
            raise ValueError(_BOTH_SEGMENTATION_AND_DEPTH_ENABLED)
        self._segmentation = bool(value)

    @property
    def scene_option(self) -> mujoco.MjvOption | None:
        return self._scene_option

    @scene_option.setter
    def scene_option(self, value: mujoco.MjvOption | None) -> None:
        self._scene_option = value

    @property
    def render_flag_overrides(self) -> Any:
        """None or a mapping of rendering flags (names or `mujoco.mjtRndFlag`) to
        values, as `physics.render` takes it."""
        return self._render_flag_overrides

    @render_flag_overrides.setter
    def render_flag_overrides(self, value: Any) -> None:
        self._render_flag_overrides = value

    @property
    def array_spec(self) -> specs.BoundedArray:
        """The spec of the images, with dm_control's bounds: [0, 255] for RGB,
        [0, inf) for depth (the exact bounds depend on the compiled model),
        [-1, int32 max] for segmentation."""
        if self._depth:
            return specs.BoundedArray(
                (self._height, self._width, 1), np.float32, minimum=0.0, maximum=np.inf
            )
        if self._segmentation:
            maximum = np.iinfo(np.int32).max
            return specs.BoundedArray(
                (self._height, self._width, 2), np.int32, minimum=-1, maximum=maximum
            )
        return specs.BoundedArray((self._height, self._width, 3), np.uint8, 0, 255)

    def _raw_reader(self, physics: Physics) -> Callable[[], np.ndarray]:
        model = physics.model
        if isinstance(self._camera, str):
            camera_id = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_CAMERA, self._camera)
            if camera_id < 0:
                raise ValueError(f"{self!r}: the model has no camera named {self._camera!r}")
        else:
            camera_id = physics.bind(self._camera).id
        limits = model.vis.global_
        if self._width > limits.offwidth or self._height > limits.offheight:
            raise ValueError(
                f"{self!r}: {self._height}x{self._width} pixels exceed the model's offscreen "
                f"buffer of {limits.offheight}x{limits.offwidth}; raise "
                "spec.visual.global_.offheight/offwidth"
            )
        render = functools.partial(
            physics.render,
            height=self._height,
            width=self._width,
            camera_id=camera_id,
            depth=self._depth,
            segmentation=self._segmentation,
            scene_option=self._scene_option,
            level_of_detail=self._level_of_detail,
            render_flag_overrides=self._render_flag_overrides,
            **self._flags,
        )
        if self._depth and self._depth_channel_axis:
            return lambda: render()[..., np.newaxis]
        return render

    def __repr__(self) -> str:
        camera = self._camera if isinstance(self._camera, str) else self._camera.name
        mode = "depth" if self._depth else "segmentation" if self._segmentation else "rgb"
        return f"{type(self).__name__}({camera!r}, {self._height}x{self._width} {mode})"


class MJCFCamera(CameraObservable):
    """Pixels rendered from a camera element of the model (dm_control's `MJCFCamera`).

    Values: (height, width, 3) uint8 RGB; with `depth`, (height, width, 1) float32
    distances in metres; with `segmentation`, (height, width, 2) int32.

    Args (dm_control's, in its order):
      mjcf_element: the camera: a `composer_tasks.mjcf` <camera> handle or a
        `mujoco.MjsCamera` of the spec the physics was compiled from.
      height, width: image size in pixels; at most the model's offscreen buffer
        (`spec.visual.global_.offheight/offwidth`, 480 x 640 by default).
      update_interval, buffer_size, delay, aggregator, corruptor: the observable
        options (module docstring).
      depth, segmentation: render depth or segmentation instead of RGB (not both).
      scene_option: an optional `mujoco.MjvOption` (which groups and frames to show).
      render_flag_overrides: None or a mapping of rendering flags to values.
    Keyword-only, this project's:
      level_of_detail: "auto" (round shapes tessellated no finer than the image size
        needs) or "full" (the model's tessellation); see `Physics.render`.
      shadows, reflections, antialias: as in `Physics.render` (on, its defaults, as
        dm_control renders); an agent's camera renders several times faster on the
        CPU without them (docs/rendering.md).
      enabled: whether the observable starts enabled.

    Raises:
      ValueError: `mjcf_element` is not a camera element, or both `depth` and
        `segmentation` are asked for.
    """

    def __init__(
        self,
        mjcf_element: mjcf.Element | mujoco.MjsCamera,
        height: int | np.integer = 240,
        width: int | np.integer = 320,
        update_interval: IntOption | None = 1,
        buffer_size: int | np.integer | None = None,
        delay: IntOption | None = None,
        aggregator: str | Callable[..., Any] | None = None,
        corruptor: Callable[..., Any] | None = None,
        depth: bool = False,
        segmentation: bool = False,
        scene_option: mujoco.MjvOption | None = None,
        render_flag_overrides: Any = None,
        *,
        level_of_detail: str = "auto",
        shadows: bool = True,
        reflections: bool = True,
        antialias: bool = True,
        enabled: bool | np.bool_ = False,
    ):
        camera = mjcf_element
        if isinstance(camera, mjcf.Element):
            if camera.tag != "camera":
                raise ValueError(f"MJCFCamera: expected a <camera> element, got {camera!r}")
            camera = camera.spec_element
        elif not isinstance(camera, mujoco.MjsCamera):
            # dm_control's words first (its tests match them); a name goes to MujocoCamera.
            raise ValueError(
                f"MJCFCamera: expected an `mjcf.Element` (a <camera>, or a mujoco.MjsCamera), "
                f"got type {type(camera).__name__}: {camera!r}; for a camera's name use "
                "MujocoCamera"
            )
        self._init_camera(
            camera,
            height,
            width,
            depth,
            segmentation,
            scene_option,
            render_flag_overrides,
            level_of_detail,
            shadows,
            reflections,
            antialias,
        )
        super().__init__(
            update_interval=update_interval,
            buffer_size=buffer_size,
            delay=delay,
            aggregator=aggregator,
            corruptor=corruptor,
            enabled=enabled,
        )


class MujocoCamera(CameraObservable):
    """Pixels rendered from the model's camera named `camera_name` as
    `physics.render(height, width, camera_name, depth=depth)` renders them
    (dm_control's `MujocoCamera`: its 240 x 320 default size and `physics.render`'s
    defaults, shadows, reflections and antialiasing on).

    Values: (height, width, 3) uint8 RGB, or with `depth` (height, width) float32
    distances in metres (as dm_control's, whose `array_spec` nevertheless gives depth
    a channel axis of 1). `level_of_detail` and `enabled` are this project's
    keyword-only additions.
    """

    _depth_channel_axis = False

    def __init__(
        self,
        camera_name: str,
        height: int | np.integer = 240,
        width: int | np.integer = 320,
        update_interval: IntOption | None = 1,
        buffer_size: int | np.integer | None = None,
        delay: IntOption | None = None,
        aggregator: str | Callable[..., Any] | None = None,
        corruptor: Callable[..., Any] | None = None,
        depth: bool = False,
        *,
        level_of_detail: str = "auto",
        enabled: bool | np.bool_ = False,
    ):
        if not isinstance(camera_name, str):
            raise TypeError(f"MujocoCamera: camera_name must be a str, got {camera_name!r}")
        self._init_camera(
            camera_name,
            height,
            width,
            depth,
            False,
            None,
            None,
            level_of_detail,
            True,
            True,
            True,
        )
        super().__init__(
            update_interval=update_interval,
            buffer_size=buffer_size,
            delay=delay,
            aggregator=aggregator,
            corruptor=corruptor,
            enabled=enabled,
        )

    @property
    def array_spec(self) -> specs.Array:
        """The spec of the images as dm_control's `MujocoCamera` gives it: an unbounded
        `specs.Array` of (height, width, 3) uint8, or (height, width, 1) float32 with
        `depth` (`MJCFCamera`'s spec is bounded)."""
        channels, dtype = (1, np.float32) if self._depth else (3, np.uint8)
        return specs.Array((self._height, self._width, channels), dtype)


# dm_control's observable package has a submodule `base` (Observable, Generic,
# AGGREGATORS, ...) that its code reaches as `observable.base.X`; here that is this
# module itself.
base = sys.modules[__name__]
