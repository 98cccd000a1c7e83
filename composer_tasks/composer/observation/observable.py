"""Observables: quantities read from the physics, with noise, latency, buffering and rate.

Every observable has the options of the dm_control paper (§5.1):

  enabled: bool, default False. Only enabled observables appear in observations.
  update_interval: int >= 1, or a callable `fn(random_state=...) -> int`, in physics
    substeps between two evaluations. A callable is drawn anew for every interval.
  buffer_size: int >= 1. The observation holds the `buffer_size` most recent values
    that have arrived, oldest first, along a leading buffer axis.
  delay: int >= 0, or a callable `fn(random_state=...) -> int`, in physics substeps.
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

import functools
import math

import mujoco
import numpy as np

AGGREGATORS = {
    "mean": functools.partial(np.mean, axis=0),
    "median": functools.partial(np.median, axis=0),
    "max": functools.partial(np.max, axis=0),
    "min": functools.partial(np.min, axis=0),
    "sum": functools.partial(np.sum, axis=0),
}

# Binding attribute names that differ from the name users know from MjData: MuJoCo's
# sensor binding calls `data.sensordata[adr:adr+dim]` simply `data`.
_KIND_ALIASES = {mujoco.MjsSensor: {"sensordata": "data"}}


class Observable:
    """Base class of observables.

    Subclasses implement `_raw_reader(physics)`, returning a function of no arguments
    that gives the current value as an array, and set `_reader_returns_new_arrays`
    when that array is always newly allocated (so no defensive copy is needed). They
    may implement `_raw_reader_with_leading_axis(physics)` when they can give values
    with the leading buffer axis at no extra cost.
    """

    _reader_returns_new_arrays = False

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
        """Physics substeps between evaluations: an int >= 1 or a callable drawing one."""
        return self._update_interval

    @update_interval.setter
    def update_interval(self, value):
        self._update_interval = self._int_or_callable(value, "update_interval", minimum=1)

    @property
    def buffer_size(self):
        """Number of values in the observation's leading buffer axis (int >= 1)."""
        return self._buffer_size

    @buffer_size.setter
    def buffer_size(self, value):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise ValueError(f"{self!r}: buffer_size must be an integer >= 1, got {value!r}")
        self._buffer_size = int(value)

    @property
    def delay(self):
        """Physics substeps from evaluation to arrival: an int >= 0 or a callable drawing one."""
        return self._delay

    @delay.setter
    def delay(self, value):
        self._delay = self._int_or_callable(value, "delay", minimum=0)

    @property
    def aggregator(self):
        """None or a callable reducing the buffer over axis 0 (names are resolved)."""
        return self._aggregator

    @aggregator.setter
    def aggregator(self, value):
        if isinstance(value, str):
            if value not in AGGREGATORS:
                raise ValueError(
                    f"{self!r}: unknown aggregator {value!r}; expected one of "
                    f"{sorted(AGGREGATORS)}, a callable or None")
            value = AGGREGATORS[value]
        elif value is not None and not callable(value):
            raise ValueError(
                f"{self!r}: aggregator must be one of {sorted(AGGREGATORS)}, a callable "
                f"or None, got {value!r}")
        self._aggregator = value

    @property
    def corruptor(self):
        """None or a callable `fn(value, random_state=...)` applied to each new value."""
        return self._corruptor

    @corruptor.setter
    def corruptor(self, value):
        if value is not None and not callable(value):
            raise ValueError(f"{self!r}: corruptor must be None or a callable, got {value!r}")
        self._corruptor = value

    @property
    def enabled(self):
        return self._enabled

    @enabled.setter
    def enabled(self, value):
        if not isinstance(value, (bool, np.bool_)):
            raise TypeError(f"{self!r}: enabled must be a bool, got {value!r}")
        self._enabled = bool(value)

    def configure(self, **options):
        """Sets several options at once; an unknown option raises AttributeError."""
        for name, value in options.items():
            if not isinstance(getattr(type(self), name, None), property) or name.startswith("_"):
                raise AttributeError(f"{self!r} has no option {name!r}")
            setattr(self, name, value)

    def observation_callable(self, physics, random_state=None, leading_axis=False):
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

    def _raw_reader(self, physics):
        raise NotImplementedError(f"{type(self).__name__} must implement _raw_reader")

    def _raw_reader_with_leading_axis(self, physics):
        """Optionally, a reader whose new arrays already have a leading axis of 1."""
        del physics
        return None

    def _int_or_callable(self, value, name, minimum):
        if callable(value):
            return value
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
            raise ValueError(
                f"{self!r}: {name} must be an integer >= {minimum} or a callable "
                f"fn(random_state=...) returning one, got {value!r}")
        return int(value)

    def __repr__(self):
        return f"{type(self).__name__}()"


def _copying(reader):
    return lambda: np.array(reader())


def _corrupted(reader, corruptor, random_state):
    return np.array(corruptor(reader(), random_state=random_state))


def _with_leading_axis(reader):
    return reader()[np.newaxis]


class Generic(Observable):
    """An observable computed by `raw_observation_callable(physics)`.

    The callable may return anything `np.asarray` accepts; its shape and dtype must
    not change during an episode.
    """

    def __init__(self, raw_observation_callable, **options):
        if not callable(raw_observation_callable):
            raise TypeError(
                "raw_observation_callable must be a callable of the physics, got "
                f"{type(raw_observation_callable).__name__}")
        self._raw_callable = raw_observation_callable
        super().__init__(**options)

    @property
    def raw_callable(self):
        """The function of the physics this observable reads (read-only)."""
        return self._raw_callable

    def _raw_reader(self, physics):
        return functools.partial(self._raw_callable, physics)

    def __repr__(self):
        function = self._raw_callable
        name = getattr(function, "__qualname__", None) or type(function).__name__
        return f"Generic({name})"


class MJCFFeature(Observable):
    """A bound attribute (`'qpos'`, `'qvel'`, `'sensordata'`, `'xpos'`, ...) of spec elements.

    The attribute is looked up as by `physics.bind(element)`: on the data if MjData
    has it for that element type, else on the model (`'mass'`, `'size'`, ...). The
    units and frames are MuJoCo's (positions in metres in the world frame, `xmat`
    row-major 3x3 flattened, ...). For a sensor, `'sensordata'` is its slice of
    `data.sensordata`.

    Value shape: for one element, MuJoCo's shape for it (e.g. (1,) for a hinge's
    qpos, (7,) for a free joint's, (3,) for xpos). For a sequence of elements whose
    values share a shape S: (len, *S), except (len,) when S is (1,); if the shapes
    differ, the values concatenated into one vector. `index`, if given, is then
    applied to that value (`value[index]`).

    When the Environment resets, the observable resolves, once, where its numbers
    live in MuJoCo's flat data or model arrays, so reading it is a single copy out of
    that array.

    Args:
      kind: the attribute name.
      elements: one spec element or a list/tuple of them (of the spec the physics was
        compiled from, including attached children).
      index: optional integer, slice, array or tuple index into the value.
      **options: the observable options (module docstring).
    """

    _reader_returns_new_arrays = True

    def __init__(self, kind, elements, index=None, **options):
        if not isinstance(kind, str):
            raise TypeError(f"kind must be an attribute name string, got {kind!r}")
        if isinstance(elements, (list, tuple)):
            if not elements:
                raise ValueError(f"MJCFFeature({kind!r}): elements must not be empty")
            element_list = list(elements)
        else:
            element_list = [elements]
        for element in element_list:
            if not _is_spec_element(element):
                raise TypeError(
                    f"MJCFFeature({kind!r}): elements must be spec elements (mujoco.Mjs...), "
                    f"got {type(element).__name__}")
        self._kind = kind
        self._elements = elements
        self._element_list = element_list
        self._index = index
        super().__init__(**options)

    @property
    def kind(self):
        return self._kind

    @property
    def elements(self):
        return self._elements

    @property
    def index(self):
        return self._index

    def _raw_reader(self, physics):
        return self._feature_reader(physics, leading_axis=False)

    def _raw_reader_with_leading_axis(self, physics):
        return self._feature_reader(physics, leading_axis=True)

    def _feature_reader(self, physics, leading_axis):
        # Locating the feature in MuJoCo's arrays costs more than a whole reset of a
        # task; the location holds for as long as the model and data objects do.
        cached = getattr(self, "_cached_reader", None)
        if (cached is not None and cached[0] is physics.model and cached[1] is physics.data
                and cached[2] == leading_axis):
            return cached[3]
        try:
            reader = _feature_reader(physics, self._kind, self._element_list,
                                     isinstance(self._elements, (list, tuple)), self._index,
                                     leading_axis)
        except (AttributeError, IndexError, TypeError, ValueError) as error:
            raise ValueError(f"{self!r} cannot be read from this physics: {error}") from error
        self._cached_reader = (physics.model, physics.data, leading_axis, reader)
        return reader

    def __repr__(self):
        names = [element.name or f"<unnamed {type(element).__name__}>"
                 for element in self._element_list]
        shown = names if isinstance(self._elements, (list, tuple)) else names[0]
        suffix = "" if self._index is None else f", index={self._index!r}"
        return f"MJCFFeature({self._kind!r}, {shown!r}{suffix})"


def _is_spec_element(value):
    # MuJoCo's spec element classes (MjsJoint, MjsBody, ...) share no Python base class.
    kind = type(value)
    return kind.__module__.startswith("mujoco") and kind.__name__.startswith("Mjs")


def _feature_reader(physics, kind, elements, is_sequence, index, leading_axis):
    """A reader of the feature: one copy out of the flat MuJoCo array holding it."""
    views, locations = [], []
    for element in elements:
        attribute = _KIND_ALIASES.get(type(element), {}).get(kind, kind)
        view = np.asarray(getattr(physics.bind(element), attribute))
        views.append(view)
        locations.append(_locate(physics, attribute, view))
    shapes = [view.shape for view in views]
    if not is_sequence:
        shape = shapes[0]
    elif all(s == shapes[0] for s in shapes):
        shape = (len(views),) + (() if shapes[0] == (1,) else shapes[0])
    else:
        shape = (sum(math.prod(s) for s in shapes),)
    if any(location is None for location in locations) or len({key for key, _, _ in locations}) > 1:
        return functools.partial(_gather, views, shape, index, leading_axis)
    flat = locations[0][1]
    positions = np.concatenate([offsets for _, _, offsets in locations]).reshape(shape)
    if index is not None:
        positions = np.asarray(positions[index])
    if leading_axis:
        positions = positions[np.newaxis]
    ravelled = positions.reshape(-1)
    first = ravelled[0] if ravelled.size else 0
    if np.array_equal(ravelled, np.arange(first, first + ravelled.size)):
        return flat[first:first + ravelled.size].reshape(positions.shape).copy
    return functools.partial(flat.__getitem__, positions)


def _gather(views, shape, index, leading_axis):
    """The slow path, for attributes that are not windows of one flat MuJoCo array."""
    value = np.concatenate([np.ravel(view) for view in views]).reshape(shape)
    if index is not None:
        value = np.array(value[index])
    return value[np.newaxis] if leading_axis else value


def _locate(physics, attribute, view):
    """(key, flat array, offsets) of `view` inside MjData's or MjModel's arrays, or None.

    `key` identifies the array (its address), so that pieces found in the same array
    can be read together.

    MuJoCo's bindings return windows into the model's and data's arrays; finding the
    array that contains the window (by address) turns every later read into one
    indexing operation on that array instead of a binding lookup.
    """
    if view.size == 0 or not view.flags["C_CONTIGUOUS"]:
        return None
    start = view.__array_interface__["data"][0]
    for struct in (physics.data, physics.model):
        for name in _candidate_arrays(type(struct), attribute):
            array = getattr(struct, name, None)
            if not isinstance(array, np.ndarray) or array.dtype != view.dtype:
                continue
            if not array.flags["C_CONTIGUOUS"]:
                continue
            base = array.__array_interface__["data"][0]
            offset, remainder = divmod(start - base, array.itemsize)
            if remainder or offset < 0 or offset + view.size > array.size:
                continue
            return base, array.reshape(-1), np.arange(offset, offset + view.size)
    return None


@functools.cache
def _candidate_arrays(struct_type, attribute):
    """Array names of MjData/MjModel that may hold a binding's `attribute`, best first."""
    names = [name for name in dir(struct_type)
             if not name.startswith("_") and (name == attribute or name.endswith("_" + attribute))]
    if attribute == "data":
        names.append("sensordata")
    return tuple(sorted(names, key=lambda name: (name != attribute, name)))


class MJCFCamera(Observable):
    """Pixels rendered from a camera of the model with `mujoco.Renderer`.

    Values: (height, width, 3) uint8 RGB; with `depth`, (height, width) float32
    distances in metres; with `segmentation`, (height, width, 2) int32 (object id,
    object type; -1 for the background).

    Rendering needs an OpenGL backend (MUJOCO_GL=egl or osmesa without a display);
    without one the Environment fails at construction with a RuntimeError naming the
    observable and what to install.

    Args:
      camera: a `mujoco.MjsCamera` of the spec, or a camera's full name in the
        compiled model.
      height, width: image size in pixels; at most the model's offscreen buffer
        (`spec.visual.global_.offheight/offwidth`, 480 x 640 by default).
      depth, segmentation: render depth or segmentation instead of RGB (not both).
      scene_option: an optional `mujoco.MjvOption` (which groups and frames to show).
      level_of_detail: "auto" (round shapes tessellated no finer than the image size
        needs) or "full" (the model's tessellation); see `Physics.render`.
      shadows, reflections, antialias: as in `Physics.render`. An agent's camera
        does without them by default, which makes CPU rendering several times
        faster (docs/rendering.md); set them for images as people see them.
      **options: the observable options (module docstring).
    """

    _reader_returns_new_arrays = True

    def __init__(self, camera, height=64, width=64, depth=False, segmentation=False,
                 scene_option=None, level_of_detail="auto", shadows=False, reflections=False,
                 antialias=False, **options):
        if not isinstance(camera, (mujoco.MjsCamera, str)):
            raise TypeError(
                f"camera must be a mujoco.MjsCamera or a camera name, got {type(camera).__name__}")
        for name, value in (("height", height), ("width", width)):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
                raise ValueError(f"MJCFCamera: {name} must be a positive number of pixels, got {value!r}")
        if depth and segmentation:
            raise ValueError("MJCFCamera: ask for depth or segmentation, not both")
        if not (isinstance(level_of_detail, str) and level_of_detail in ("auto", "full")):
            raise ValueError(
                f"MJCFCamera: level_of_detail must be 'auto' or 'full', got {level_of_detail!r}")
        self._camera = camera
        self._height = int(height)
        self._width = int(width)
        self._depth = bool(depth)
        self._segmentation = bool(segmentation)
        self._scene_option = scene_option
        self._level_of_detail = level_of_detail
        self._flags = dict(shadows=bool(shadows), reflections=bool(reflections),
                           antialias=bool(antialias))
        super().__init__(**options)

    @property
    def camera(self):
        return self._camera

    @property
    def height(self):
        return self._height

    @property
    def width(self):
        return self._width

    def _raw_reader(self, physics):
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
                "spec.visual.global_.offheight/offwidth")
        return functools.partial(
            physics.render, height=self._height, width=self._width, camera_id=camera_id,
            depth=self._depth, segmentation=self._segmentation, scene_option=self._scene_option,
            level_of_detail=self._level_of_detail, **self._flags)

    def __repr__(self):
        camera = self._camera if isinstance(self._camera, str) else self._camera.name
        mode = "depth" if self._depth else "segmentation" if self._segmentation else "rgb"
        return f"MJCFCamera({camera!r}, {self._height}x{self._width} {mode})"
