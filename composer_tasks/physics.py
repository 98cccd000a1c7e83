"""Physics: a compiled MuJoCo model and its data, with the operations tasks need.

`Physics` owns one `mujoco.MjModel` and one `mujoco.MjData` (and the `mujoco.MjSpec`
they were compiled from, when there is one). It adds nothing to MuJoCo's own
named access (`physics.data.joint("hinge").qpos`) or binding (`physics.bind(joint)`
delegates to `MjData.bind` / `MjModel.bind`); what it adds is the lifecycle the
Environment needs: stepping with divergence detection, reset contexts, full-state
save and restore, recompilation from a changed spec and lazy rendering.

Suite domains subclass `Physics` to give physical quantities names, e.g.
`pole_angle_cosine()` or `torso_upright()`.
"""

import contextlib
import copy as _copy
import ctypes
import glob
import os
import weakref
from typing import Any, Dict, Iterator, Optional, Tuple, Union

import mujoco
import numpy as np
from numpy.typing import ArrayLike

from composer_tasks import rendering

# MuJoCo's warnings that mean the simulation diverged: MuJoCo resets the data.
_DIVERGENCE_WARNINGS = frozenset(
    int(w)
    for w in (
        mujoco.mjtWarning.mjWARN_BADQACC,
        mujoco.mjtWarning.mjWARN_BADQPOS,
        mujoco.mjtWarning.mjWARN_BADQVEL,
    )
)
# Every warning MuJoCo can raise. Any of them during a step means the step did not
# simulate what was asked (a bad control zeroed, contacts or constraints dropped for
# want of memory, an inertia too close to singular), so a step that raised one is
# treated as a divergence.
_NUM_WARNINGS = int(mujoco.mjtWarning.mjNWARNING)
_RK4 = int(mujoco.mjtIntegrator.mjINT_RK4)

# What a snapshot must hold to continue bit for bit: the physics state, the controls
# and applied forces, and the solver's warm start (`qacc_warmstart`), without which
# contact-rich models differ by round-off on the next step.
_STATE = mujoco.mjtState.mjSTATE_INTEGRATION

# Names of the global MjData arrays that MuJoCo's per-element bindings call otherwise:
# a sensor's slice of `sensordata` is its binding's `data`.
_BINDING_ALIASES = {"sensordata": "data"}


def _engine_timer() -> ctypes.c_void_p | None:
    """MuJoCo's `mjcb_time` global (a ctypes view), or None where it cannot be reached."""
    directory = os.path.dirname(mujoco.__file__)
    for pattern in ("libmujoco.so*", "libmujoco*.dylib", "mujoco.dll"):
        for path in sorted(glob.glob(os.path.join(directory, pattern))):
            try:
                # The library is loaded already (the bindings link it), so this
                # returns that same instance and its globals.
                return ctypes.c_void_p.in_dll(ctypes.CDLL(path), "mjcb_time")
            except (OSError, ValueError):
                continue
    return None


_ENGINE_TIMER = _engine_timer()


def paused_profiling_clock() -> "_PausedProfilingClock":
    """A context in which MuJoCo's stage timers read no clock (`mjcb_time` cleared).

    `import mujoco` installs a clock as `mjcb_time`, so that every MjData's `timer`
    profiles the pipeline's stages, at the cost of a clock read at each stage's
    start and end. On the cart-pole (RK4, one substep per control step) mj_step +
    mj_step1 take 4.3 us without it and 6.9 us with it (2 cores, x86_64, MuJoCo
    4.0.0), and `mujoco.batch` pays it for every copy. `mujoco.set_mjcb_time(None)`
    keeps that default, so this clears the global itself and restores it on exit.
    `Physics.step` and the batch step their physics inside one (unless
    `Physics.time_stages` is set): `data.timer` durations stay 0. The clock is one
    process-wide global: MjData stepped by other threads meanwhile get no timings,
    and threads that pause and restore it in overlapping spans can leave it off
    (timings only; the simulation is unaffected). Where the global cannot be
    reached (ctypes cannot find the library), it does nothing.

        with paused_profiling_clock():
            batch.step(nstep=5)
    """
    return _PausedProfilingClock()


class _PausedProfilingClock:
    """`paused_profiling_clock`'s context; not reentrant (enter it again only after it exits)."""

    __slots__ = ("_clock",)

    def __enter__(self) -> "_PausedProfilingClock":
        if _ENGINE_TIMER is not None:
            self._clock = _ENGINE_TIMER.value
            _ENGINE_TIMER.value = None
        return self

    def __exit__(self, *exception_info: object) -> None:
        if _ENGINE_TIMER is not None:
            _ENGINE_TIMER.value = self._clock


class PhysicsError(RuntimeError):
    """The simulation diverged or MuJoCo warned during a step.

    MuJoCo flagged a bad acceleration, position or velocity (and reset the data), or
    raised another warning that means the step did not simulate what was asked: a
    bad (NaN, infinite or larger than 1e10) control it zeroed, a full contact or
    constraint buffer, a singular inertia. The message carries MuJoCo's text.
    """


def array_fields(struct: Any) -> Iterator[Tuple[str, np.ndarray]]:
    """(name, array) of every public array field of a MuJoCo struct (`MjModel`,
    `MjData`), in `dir` order; the arrays are the struct's own (views, not copies)."""
    for name in dir(struct):
        if name.startswith("_"):
            continue
        value = getattr(struct, name, None)
        if isinstance(value, np.ndarray):
            yield name, value


def warning_error(numbers: np.ndarray, lastinfo: np.ndarray, start_time: float) -> PhysicsError:
    """The `PhysicsError` for a simulation whose warning counters rose during a step.

    Args:
        numbers: the simulation's warning counters, (mjNWARNING,) (`data.warning.number`).
        lastinfo: each warning's last info, (mjNWARNING,) (`data.warning.lastinfo`).
        start_time: simulated time (seconds) at the start of the step.

    The message lists MuJoCo's text of every warning raised since the episode began
    (counters restart with it), so that a single environment and a batch's copy
    report the same step alike.
    """
    raised = [index for index in range(_NUM_WARNINGS) if numbers[index]]
    texts = "; ".join(mujoco.mju_warningText(index, int(lastinfo[index])) for index in raised)
    if _DIVERGENCE_WARNINGS.intersection(raised):
        return PhysicsError(
            f"physics diverged during the step that started at t={start_time:.6g} s: {texts}"
        )
    return PhysicsError(
        f"MuJoCo warned during the step that started at t={start_time:.6g} s: {texts}"
    )


class Binding:
    """Model and data attributes of one spec element or a sequence of them.

    Reading an attribute returns MuJoCo's own binding of the compiled data
    (`MjData.bind`) when the data has that attribute (e.g. `qpos`, `xpos`, `ctrl`),
    otherwise that of the model (e.g. `mass`, `size`, `gear`). For a single element
    the arrays are views: writing into them changes the simulation. For a sequence
    of elements the values are concatenated into a new flat array, in element order
    (`bind([body1, body2]).xpos` has shape (6,)); assign to the attribute
    (`binding.qpos = values`) to write them.
    """

    __slots__ = ("_model_binding", "_data_binding", "_stacked", "_views", "_owners")

    def __init__(self, model_binding: Any, data_binding: Any, stacked: bool) -> None:
        object.__setattr__(self, "_model_binding", model_binding)
        object.__setattr__(self, "_data_binding", data_binding)
        object.__setattr__(self, "_stacked", stacked)
        # Views of a single element stay valid as long as the model and data do,
        # and Physics drops its bindings whenever those change.
        object.__setattr__(self, "_views", {})
        object.__setattr__(self, "_owners", {})

    def _resolve(self, name: str) -> tuple[Any, str]:
        try:
            return self._owners[name]
        except KeyError:
            pass
        real_name = _BINDING_ALIASES.get(name, name)
        data_binding = self._data_binding
        if data_binding is not None and hasattr(data_binding, real_name):
            owner = data_binding
        elif hasattr(self._model_binding, real_name):
            owner = self._model_binding
        else:
            raise AttributeError(
                f"neither the model nor the data has an attribute {name!r} for this element"
            )
        self._owners[name] = (owner, real_name)
        return owner, real_name

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        views = self._views
        if name in views:
            return views[name]
        owner, real_name = self._resolve(name)
        value = getattr(owner, real_name)
        if self._stacked:
            return np.array(value)
        if isinstance(value, np.ndarray):
            views[name] = value
        return value

    def __setattr__(self, name: str, value: Any) -> None:
        owner, real_name = self._resolve(name)
        if name in self._views:
            self._views[name][...] = value
        else:
            setattr(owner, real_name, value)


class Physics:
    """A compiled MuJoCo model, its data, and (optionally) the spec it came from.

    Attributes:
        model: the `mujoco.MjModel`.
        data: the `mujoco.MjData`.
        spec: the `mujoco.MjSpec` the model was compiled from, or None.
        time_stages: keep MuJoCo's per-stage timers (`data.timer`) running during
            `step` (False by default: see `step`).
    """

    time_stages = False

    def __init__(
        self,
        model: mujoco.MjModel,
        data: Optional[mujoco.MjData] = None,
        spec: Optional[mujoco.MjSpec] = None,
    ) -> None:
        if not isinstance(model, mujoco.MjModel):
            raise TypeError(f"model must be a mujoco.MjModel, got {type(model).__name__}")
        self._spec = spec
        self._renderers = {}
        # Renderers hold GL contexts; release them with the Physics rather than at
        # interpreter exit, where some backends (OSMesa) fail noisily.
        weakref.finalize(self, rendering.close_renderers, self._renderers)
        self._install(model, data if data is not None else mujoco.MjData(model))

    def _install(self, model: mujoco.MjModel, data: mujoco.MjData) -> None:
        self._model = model
        self._data = data
        self._bindings = {}
        self._element_ids = {}
        # Live views into model and data, read or written every step; fetching them
        # anew each time costs more than the small models' physics.
        self._warning_numbers = self._data.warning.number
        self._options = self._model.opt
        self._ctrl = self._data.ctrl
        # The warning counters at the last check, as bytes: comparing 28 bytes is
        # the cheapest test that no counter rose during a step.
        self._checked_warnings = self._warning_numbers.tobytes()
        self.close_renderers()
        self._model_changed()

    def _model_changed(self) -> None:
        """Hook for subclasses: called whenever `model`/`data` are (re)installed, the
        place to resolve and cache element ids their named quantities use."""

    # Construction.

    @classmethod
    def from_spec(cls, spec: mujoco.MjSpec) -> "Physics":
        """Compiles `spec` (a `mujoco.MjSpec`) and returns a Physics that keeps it."""
        if not isinstance(spec, mujoco.MjSpec):
            raise TypeError(f"spec must be a mujoco.MjSpec, got {type(spec).__name__}")
        model = spec.compile()
        physics = cls(model, mujoco.MjData(model), spec=spec)
        physics._forward_unchecked()
        return physics

    @classmethod
    def from_xml_string(
        cls, xml_string: str, assets: Optional[Dict[str, bytes]] = None
    ) -> "Physics":
        """Parses MJCF text (with an optional `{filename: bytes}` asset dict)."""
        spec = mujoco.MjSpec.from_string(xml_string, assets=assets or {})
        return cls.from_spec(spec)

    @classmethod
    def from_xml_path(cls, path: Union[str, os.PathLike]) -> "Physics":
        """Loads an MJCF file; relative asset paths resolve against its folder."""
        path = os.fspath(path)
        if not os.path.exists(path):
            raise FileNotFoundError(f"no MJCF file at {path!r}")
        spec = mujoco.MjSpec.from_file(path)
        return cls.from_spec(spec)

    @property
    def model(self) -> mujoco.MjModel:
        return self._model

    @property
    def data(self) -> mujoco.MjData:
        return self._data

    @property
    def spec(self) -> Optional[mujoco.MjSpec]:
        return self._spec

    def recompile(self) -> None:
        """Recompiles the model from its (changed) spec, keeping the simulation state.

        Bindings, renderers and anything else derived from the old model are dropped.
        """
        if self._spec is None:
            raise ValueError("this Physics was not built from a spec, so it cannot recompile")
        model, data = self._spec.recompile(self._model, self._data)
        self._install(model, data)
        self.forward()

    # Simulation.

    def step(self, nstep: int = 1) -> None:
        """Advances the simulation by `nstep` physics timesteps.

        Positions, velocities and the quantities derived from them (body and site
        poses, sensors of those stages) describe the state *after* the step, as
        observations need: the step finishes with `mj_step1` at the new state, and
        the next step starts with the `mj_step2` half that state is ready for, so
        the extra work is nil. This is how the published Control Suite steps; a
        bare `mj_step` would leave those quantities one substep behind. With the
        RK4 integrator, which cannot be split, it is `mj_step` then `mj_step1`.

        MuJoCo's per-stage timers (`data.timer`) read no clock during the step
        (`paused_profiling_clock`), which saves up to a third of a small model's
        step; set `time_stages = True` on the Physics (or its class) to keep them.

        Raises:
            PhysicsError: if MuJoCo flagged a divergence (bad qacc, qpos or qvel) or
                raised any other warning during the step. The message carries
                MuJoCo's warning text and the time.
        """
        clock = _ENGINE_TIMER
        if clock is None or self.time_stages:
            self._advance(nstep)
            return
        saved = clock.value
        clock.value = None
        try:
            self._advance(nstep)
        finally:
            clock.value = saved

    def _advance(self, nstep: int) -> None:
        model, data = self._model, self._data
        start_time = data.time
        if self._options.integrator == _RK4:
            mujoco.mj_step(model, data, nstep)
        else:
            mujoco.mj_step2(model, data)
            if nstep > 1:
                mujoco.mj_step(model, data, nstep - 1)
        mujoco.mj_step1(model, data)
        if self._warning_numbers.tobytes() != self._checked_warnings:
            self.check_divergence(start_time)

    def forward(self, check_warnings: bool = True) -> None:
        """Computes everything derived from the state (`mj_forward`) without stepping.

        Args:
            check_warnings: False for a state that is only probed (a pose tried while
                searching for a free one, where bodies may overlap deeply): MuJoCo's
                warnings of that pass (a contact buffer overflowing, say) are then
                counted as seen instead of raised.

        Raises:
            PhysicsError: MuJoCo warned (see `check_divergence`) and `check_warnings`.
        """
        if not check_warnings:
            self._forward_unchecked()
            return
        mujoco.mj_forward(self._model, self._data)
        self.check_divergence(self._data.time)

    def _forward_unchecked(self) -> None:
        """`mj_forward` of a state nobody chose (the model's defaults, where entities
        may overlap until an episode places them), whose warnings (a contact buffer
        overflowing, say) are not the simulation's: they are counted as seen."""
        mujoco.mj_forward(self._model, self._data)
        self._checked_warnings = self._warning_numbers.tobytes()

    def check_divergence(self, start_time: float) -> None:
        """Raises `PhysicsError` if a MuJoCo warning counter of `data` rose since the
        last check: `step` and `forward` call it; so does a `BatchEnvironment` after
        copying a copy's batched step into its data.

        Args:
            start_time: simulated time (seconds) at the start of the step, for the message.
        """
        numbers = self._warning_numbers
        current = numbers.tobytes()
        if current == self._checked_warnings:
            return
        self._checked_warnings = current
        raise warning_error(numbers, self._data.warning.lastinfo, start_time)

    def reset(self, keyframe: Optional[int] = None) -> None:
        """Resets the data to the model's defaults (or a keyframe) and runs `mj_forward`."""
        if keyframe is None:
            mujoco.mj_resetData(self._model, self._data)
        else:
            mujoco.mj_resetDataKeyframe(self._model, self._data, keyframe)
        self._checked_warnings = self._warning_numbers.tobytes()
        self.forward()

    @contextlib.contextmanager
    def reset_context(self) -> Iterator["Physics"]:
        """Resets the data and runs `mj_forward` on entry; runs `mj_forward` again on
        exit so derived quantities match the state set inside.

        Inside the context set positions, velocities and model parameters freely; a
        step taken inside starts from the forward pass of the reset state.
        """
        mujoco.mj_resetData(self._model, self._data)
        self._forward_unchecked()
        yield self
        self.forward()

    def time(self) -> float:
        """Simulation time in seconds."""
        return self._data.time

    def timestep(self) -> float:
        """Physics timestep in seconds."""
        return self._model.opt.timestep

    def set_control(self, control: ArrayLike) -> None:
        """Writes the actuator controls (`data.ctrl`)."""
        self._ctrl[:] = control

    # Generalised coordinates, as copies: an observation or a reward term holding one
    # never changes when the simulation steps on. Written with `self.data`, so they
    # read (N, ...) arrays on a batch's physics too.

    def position(self) -> np.ndarray:
        """Generalised positions `qpos` (a copy)."""
        return self.data.qpos.copy()

    def velocity(self) -> np.ndarray:
        """Generalised velocities `qvel` (a copy)."""
        return self.data.qvel.copy()

    def control(self) -> np.ndarray:
        """Actuator controls `ctrl` (a copy)."""
        return self.data.ctrl.copy()

    # Binding.

    def bind(self, elements: Any) -> Binding:
        """Model and data attributes of spec elements in the compiled model.

        Args:
            elements: one spec element (`mujoco.MjsJoint`, `MjsGeom`, `MjsBody`, ...) or a
                sequence of them, of the spec this Physics was compiled from (elements of
                attached child specs included).

        Returns:
            A `Binding`: `physics.bind(joint).qpos`, `physics.bind(body).mass = 2.0`.
        """
        try:
            return self._bindings[elements]
        except (KeyError, TypeError):
            pass
        stacked = isinstance(elements, (list, tuple))
        if stacked:
            elements = list(elements)
            key = tuple(elements)
            if key in self._bindings:
                return self._bindings[key]
        else:
            key = elements
        model_binding = self._model.bind(elements)
        try:
            data_binding = self._data.bind(elements)
        except TypeError:  # elements without data (materials, textures, ...)
            data_binding = None
        binding = Binding(model_binding, data_binding, stacked)
        self._bindings[key] = binding
        return binding

    def element_ids(self, elements: Any) -> np.ndarray:
        """The ids in the compiled model of a sequence of spec elements of one kind,
        in their order, as a read-only int64 array.

        Resolved on the first call and cached until the model is replaced (a
        recompile): per-step quantities index `model`/`data` arrays with it, e.g.
        `physics.data.qpos[physics.model.jnt_qposadr[physics.element_ids(joints)]]`.
        A `bind(elements)` attribute gathers through MuJoCo's binding at every read,
        which costs about ten times as much for a handful of elements.
        """
        key = tuple(elements)
        ids = self._element_ids.get(key)
        if ids is None:
            ids = np.array(self.bind(key).id, dtype=np.int64).reshape(-1)
            ids.flags.writeable = False
            self._element_ids[key] = ids
        return ids

    # State.

    def get_state(self) -> np.ndarray:
        """Everything the next step depends on (`mjSTATE_INTEGRATION`: time, qpos,
        qvel, act, controls, applied forces, mocap poses, user data, plugin state and
        the solver's warm start), as a new float64 array."""
        state = np.empty(mujoco.mj_stateSize(self._model, _STATE))
        mujoco.mj_getState(self._model, self._data, state, _STATE)
        return state

    def set_state(self, state: ArrayLike) -> None:
        """Restores a state from `get_state()` and recomputes derived quantities;
        the next step is bit-identical to the one the saved simulation took.

        Raises:
            ValueError: the state has the wrong size for this model (or is of the
                `mjSTATE_FULLPHYSICS` layout that versions before warm starts saved).
        """
        state = np.asarray(state, dtype=np.float64)
        expected = mujoco.mj_stateSize(self._model, _STATE)
        if state.shape != (expected,):
            raise ValueError(
                f"state must have shape ({expected},) for this model (mjSTATE_INTEGRATION), "
                f"got {state.shape}"
            )
        mujoco.mj_setState(self._model, self._data, state, _STATE)
        self.forward()

    def over_arrays(self, model: Any, data: Any) -> "Physics":
        """A Physics of this class whose `model` and `data` are other objects with
        MjModel's and MjData's field names, e.g. a batch's (N, ...) arrays
        (`composer_tasks.batch.batch_physics`), keeping what this one resolved (the
        element ids a subclass caches in `_model_changed`). Its named quantities read
        those objects; it is for reading, not for stepping, binding or rendering.
        """
        view = object.__new__(type(self))
        view.__dict__.update(self.__dict__)
        view._model = model
        view._data = data
        view._bindings = {}
        view._element_ids = {}
        # Renderer caches belong to this Physics' own model: the view gets none.
        view.__dict__.pop("_renderers", None)
        return view

    def copy(self, share_model: bool = True) -> "Physics":
        """A Physics with a copy of the data; the model is shared unless asked otherwise."""
        model = self._model if share_model else _copy.copy(self._model)
        return type(self)(model, _copy.copy(self._data), spec=self._spec)

    # Rendering (composer_tasks.rendering).

    def render(
        self,
        height: int = 240,
        width: int = 320,
        camera_id: int | str = -1,
        depth: bool = False,
        segmentation: bool = False,
        scene_option: mujoco.MjvOption | None = None,
        shadows: bool = True,
        reflections: bool = True,
        antialias: bool = True,
        level_of_detail: str = "auto",
    ) -> np.ndarray:
        """Renders a camera view with a cached `mujoco.Renderer`.

        Args:
            height, width: image size in pixels (positive integers).
            camera_id: camera index or name; -1 is the free camera.
            depth: return a (height, width) float32 depth image in metres.
            segmentation: return (height, width, 2) int32 (object id, object type).
            scene_option: an optional `mujoco.MjvOption`.
            shadows, reflections, antialias: draw shadows, reflective surfaces, and
                smooth edges (the model's `visual.quality.offsamples` multisampling).
                All three off make CPU rendering (Mesa llvmpipe) several times
                faster; agent cameras usually turn them off.
            level_of_detail: how finely spheres, capsules, ellipsoids and cylinders
                are tessellated. "auto" uses the fewest slices and stacks (at most the
                model's `visual.quality.numslices` / `numstacks`) for which the outline
                of such a shape as wide as the image strays less than half a pixel from
                the true outline: 18 slices and 10 stacks at 64x64, the model's own
                (28 and 16 by default) from about 160 pixels up. "full" always uses the
                model's. Only the smoothness of silhouettes and the shading across round
                shapes differ; the model is not changed (docs/rendering.md).

        Returns:
            (height, width, 3) uint8 RGB unless depth or segmentation is asked.

        One renderer is kept per image size, antialiasing and tessellation, at most
        `rendering.MAX_CACHED_RENDERERS` of them (least recently used closed first).
        """
        return rendering.render(
            self,
            height=height,
            width=width,
            camera_id=camera_id,
            depth=depth,
            segmentation=segmentation,
            scene_option=scene_option,
            shadows=shadows,
            reflections=reflections,
            antialias=antialias,
            level_of_detail=level_of_detail,
        )

    def upload_hfield(self, hfield_id: int) -> None:
        """Re-uploads heightfield `hfield_id` to the renderers after its
        `model.hfield_data` was written at run time (renderers copy it to the GPU
        once, when they are created)."""
        rendering.upload_hfield(self._renderers, self._model, hfield_id)

    def close_renderers(self) -> None:
        """Closes the cached renderers (their GL contexts)."""
        rendering.close_renderers(self._renderers)

    def close(self) -> None:
        """Releases the renderers (the model and data are freed with this object)."""
        self.close_renderers()
