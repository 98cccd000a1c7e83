"""BatchEnvironment's MuJoCo Warp backend (Warp's CPU device), against the CPU batch.

MuJoCo Warp compiles its kernels once per model and process (cached on disk under
WARP_CACHE_PATH between processes), so the tests share one batch pair per model
through module-scoped fixtures: cartpole (no contacts), cheetah (contacts) and fish
(a free joint, tendons and fluid forces) run by default, the other vectorised suite
tasks under the slow mark.
"""

import dataclasses
import os

import dm_env
import numpy as np
import pytest

pytest.importorskip("mujoco_warp")
warp = pytest.importorskip("warp")

from composer_tasks import batch_warp  # noqa: E402
from composer_tasks.batch import BatchEnvironment  # noqa: E402
from composer_tasks.composer.variation import distributions  # noqa: E402
from composer_tasks.physics import PhysicsError  # noqa: E402
from suites import suite  # noqa: E402

from core_fixtures import RandomHeightTask  # noqa: E402

warp.config.quiet = True

# Warp's CPU device by default; COMPOSER_TASKS_WARP_DEVICE=cuda:0 runs the same tests
# on a GPU (CUDA graphs, host copies). The bit-exact checks (determinism, snapshot)
# assume a deterministic device.
_DEVICE = os.environ.get("COMPOSER_TASKS_WARP_DEVICE", "cpu")

_NUM_ENVS = 4
_SEED = 7
# One control step from the same state: MuJoCo Warp computes in float32.
_STEP_TOLERANCE = 2e-4
_SLOW_TASKS = [
    ("acrobot", "swingup"),
    ("ball_in_cup", "catch"),
    ("dog", "stand"),
    ("finger", "spin"),
    ("hopper", "hop"),
    ("humanoid", "run"),
    ("humanoid_CMU", "stand"),
    ("lqr", "lqr_2_1"),
    ("manipulator", "bring_ball"),
    ("pendulum", "swingup"),
    ("point_mass", "easy"),
    ("quadruped", "walk"),
    ("reacher", "easy"),
    ("stacker", "stack_2"),
    ("swimmer", "swimmer6"),
    ("walker", "walk"),
]


def _pair(domain, task, **kwargs):
    """The CPU batch and the Warp batch (Warp's CPU device) of one suite task, reset."""
    cpu = suite.load_batch(domain, task, _NUM_ENVS, seed=_SEED, **kwargs)
    gpu = suite.load_batch(
        domain, task, _NUM_ENVS, seed=_SEED, backend="warp", device=_DEVICE, **kwargs
    )
    return cpu, gpu


def _actions(batch, steps, seed=0):
    spec = batch.action_spec()
    return np.random.RandomState(seed).uniform(
        spec.minimum, spec.maximum, size=(steps, batch.num_envs) + spec.shape
    )


def _assert_reset_equal(cpu, gpu):
    """Reset observations equal bit for bit, and the worlds hold the CPU rows (in float32)."""
    first_cpu, first_gpu = cpu.reset(), gpu.reset()
    np.testing.assert_array_equal(first_gpu.step_type, first_cpu.step_type)
    for name, value in first_cpu.observation.items():
        np.testing.assert_array_equal(first_gpu.observation[name], value, err_msg=name)
    for name in ("qpos", "qvel", "act", "ctrl"):
        cpu_rows = cpu.batch.bind(name)
        np.testing.assert_array_equal(
            gpu.warp.field(name), cpu_rows.astype(np.float32), err_msg=name
        )


def _assert_step_close(cpu, gpu, actions, tolerance):
    """One control step from equal states agrees to float32 accuracy."""
    step_cpu, step_gpu = cpu.step(actions), gpu.step(actions)
    np.testing.assert_array_equal(step_gpu.step_type, step_cpu.step_type)
    for name, value in step_cpu.observation.items():
        assert step_gpu.observation[name].dtype == value.dtype, name
        np.testing.assert_allclose(
            step_gpu.observation[name], value, atol=tolerance, rtol=tolerance, err_msg=name
        )
    np.testing.assert_allclose(step_gpu.reward, step_cpu.reward, atol=tolerance, rtol=tolerance)
    np.testing.assert_array_equal(step_gpu.discount, step_cpu.discount)
    for name in ("qpos", "qvel"):
        np.testing.assert_allclose(
            gpu.warp.field(name),
            cpu.batch.bind(name),
            atol=tolerance,
            rtol=tolerance,
            err_msg=name,
        )


@pytest.fixture(scope="module")
def cartpole():
    return _pair(
        "cartpole", "swingup", environment_kwargs={"raise_exception_on_physics_error": False}
    )


@pytest.fixture(scope="module")
def cheetah():
    return _pair("cheetah", "run")


@pytest.fixture(scope="module")
def fish():
    return _pair("fish", "swim")


# Cartpole: no contacts.


def test_cartpole_reset_states_equal_the_cpu_batch(cartpole):
    _assert_reset_equal(*cartpole)


def test_cartpole_agrees_over_100_steps(cartpole):
    cpu, gpu = cartpole
    _assert_reset_equal(cpu, gpu)
    for step, actions in enumerate(_actions(cpu, 100)):
        # Rounding to float32 compounds over the steps; the swing-up stays within 1e-4.
        _assert_step_close(cpu, gpu, actions, _STEP_TOLERANCE if step == 0 else 1e-4)


def test_cartpole_diverging_world_ends_its_episode_and_resets_alone(cartpole):
    cpu, gpu = cartpole
    _assert_reset_equal(cpu, gpu)
    actions = _actions(cpu, 3, seed=1)
    for batch in (cpu, gpu):
        batch.step(actions[0])
        with batch.copy_physics(1) as physics:
            physics.data.qvel[:] = np.nan
    previous = gpu._last_observation
    ended_cpu, ended_gpu = cpu.step(actions[1]), gpu.step(actions[1])
    expected = [int(dm_env.StepType.MID)] * _NUM_ENVS
    expected[1] = int(dm_env.StepType.LAST)
    np.testing.assert_array_equal(ended_gpu.step_type, expected)
    np.testing.assert_array_equal(ended_cpu.step_type, expected)
    assert ended_gpu.reward[1] == 0.0 and ended_gpu.discount[1] == 0.0
    for name, value in ended_gpu.observation.items():
        np.testing.assert_array_equal(value[1], previous[name][1], err_msg=name)
    # Only copy 1 resets at the next step, into the same state as on the CPU batch.
    reset_cpu, reset_gpu = cpu.step(actions[2]), gpu.step(actions[2])
    expected = [int(dm_env.StepType.MID)] * _NUM_ENVS
    expected[1] = int(dm_env.StepType.FIRST)
    np.testing.assert_array_equal(reset_gpu.step_type, expected)
    for name, value in reset_cpu.observation.items():
        np.testing.assert_array_equal(reset_gpu.observation[name][1], value[1], err_msg=name)
        np.testing.assert_allclose(reset_gpu.observation[name], value, atol=1e-4, err_msg=name)
    np.testing.assert_array_equal(
        gpu.warp.field("qpos")[1], cpu.batch.bind("qpos")[1].astype(np.float32)
    )


def test_cartpole_diverging_world_raises_naming_the_copy():
    batch = suite.load_batch("cartpole", "balance", 3, seed=1, backend="warp", device=_DEVICE)
    batch.reset()
    with batch.copy_physics(2) as physics:
        physics.data.qpos[:] = np.inf
    with pytest.raises(PhysicsError, match=r"copy 2: physics diverged .*QPOS"):
        batch.step(np.zeros((3, 1)))


def test_cartpole_bad_actions_name_the_copy(cartpole):
    _, gpu = cartpole
    gpu.reset()
    actions = np.zeros((_NUM_ENVS, 1))
    actions[2] = np.nan
    with pytest.raises(ValueError, match="actions of copy 2 are not finite"):
        gpu.step(actions)
    actions[2] = 3.0
    with pytest.raises(ValueError, match="actions of copy 2 are outside the bounds"):
        gpu.step(actions)
    with pytest.raises(ValueError, match="expected shape"):
        gpu.step(np.zeros((_NUM_ENVS + 1, 1)))


def test_cartpole_same_seed_same_trajectory():
    trajectories = []
    for _ in range(2):
        batch = suite.load_batch("cartpole", "swingup", 3, seed=5, backend="warp", device=_DEVICE)
        timesteps = [batch.reset()] + [batch.step(row) for row in _actions(batch, 20, seed=3)]
        trajectories.append(timesteps)
    for first, second in zip(*trajectories):
        np.testing.assert_array_equal(first.reward, second.reward)
        for name, value in first.observation.items():
            np.testing.assert_array_equal(second.observation[name], value, err_msg=name)


def test_cartpole_auto_resets_as_the_cpu_batch():
    kwargs = {"task_kwargs": {"time_limit": 0.1}}
    cpu, gpu = _pair("cartpole", "balance", **kwargs)
    _assert_reset_equal(cpu, gpu)
    for actions in _actions(cpu, 25, seed=2):
        step_cpu, step_gpu = cpu.step(actions), gpu.step(actions)
        np.testing.assert_array_equal(step_gpu.step_type, step_cpu.step_type)
        np.testing.assert_array_equal(step_gpu.discount, step_cpu.discount)
        for name, value in step_cpu.observation.items():
            np.testing.assert_allclose(step_gpu.observation[name], value, atol=1e-4, err_msg=name)
            first = step_cpu.step_type == int(dm_env.StepType.FIRST)
            np.testing.assert_array_equal(step_gpu.observation[name][first], value[first])


def test_cartpole_snapshot_and_restore_continue_exactly(cartpole):
    _, gpu = cartpole
    gpu.reset()
    actions = _actions(gpu, 10, seed=10)
    for row in actions[:5]:
        gpu.step(row)
    snapshot = gpu.snapshot()
    first = [gpu.step(row) for row in actions[5:]]
    gpu.restore(snapshot)
    second = [gpu.step(row) for row in actions[5:]]
    for one, two in zip(first, second):
        np.testing.assert_array_equal(two.reward, one.reward)
        for name, value in one.observation.items():
            np.testing.assert_array_equal(two.observation[name], value, err_msg=name)


def test_per_world_model_variation_reaches_the_right_world():
    variations = {("body", "pole_1", "mass"): distributions.Uniform(0.2, 3.0)}
    cpu, gpu = _pair("cartpole", "swingup", model_variations=variations)
    _assert_reset_equal(cpu, gpu)
    masses = cpu.model_values("body", "pole_1", "mass")[:, 0]
    assert len(np.unique(masses)) == _NUM_ENVS
    body = gpu.envs[0].physics.model.body("pole_1").id
    np.testing.assert_array_equal(
        gpu.warp.model_arrays.body_mass.numpy()[:, body], masses.astype(np.float32)
    )
    # Each world's dynamics follow its own copy's mass (the CPU batch's, copy by copy).
    for actions in _actions(cpu, 5, seed=4):
        _assert_step_close(cpu, gpu, actions, _STEP_TOLERANCE)


def test_per_world_options_reach_the_right_world():
    """Per-copy gravity, timestep and fluid (MjOption fields MuJoCo Warp holds per
    world) run each world on its copy's values, as the CPU batch runs each copy; the
    worlds without fluid forces run without them though another world has some."""
    cpu, gpu = _pair("cartpole", "swingup")
    _assert_reset_equal(cpu, gpu)
    gravity_z = np.array([-9.81, -2.0, -15.0, -9.81])
    timestep = np.array([0.01, 0.01, 0.01, 0.005])
    density = np.array([0.0, 0.0, 1000.0, 0.0])
    # Held as put_model holds them: tolerance at least 1e-6, impratio as 1 / sqrt.
    tolerance = np.array([1e-8, 1e-10, 1e-3, 1e-8])
    impratio = np.array([1.0, 4.0, 1.0, 1.0])
    for batch in (cpu, gpu):
        for index in (1, 2, 3):
            with batch.copy_physics(index) as physics:
                physics.model.opt.gravity[2] = gravity_z[index]
                physics.model.opt.timestep = timestep[index]
                physics.model.opt.density = density[index]
                physics.model.opt.tolerance = tolerance[index]
                physics.model.opt.impratio = impratio[index]
    opt = gpu.warp.model_arrays.opt
    np.testing.assert_array_equal(opt.gravity.numpy()[:, 2], gravity_z.astype(np.float32))
    np.testing.assert_array_equal(opt.timestep.numpy(), timestep.astype(np.float32))
    np.testing.assert_array_equal(opt.density.numpy(), density.astype(np.float32))
    np.testing.assert_array_equal(opt.tolerance.numpy(), np.float32([1e-6, 1e-6, 1e-3, 1e-6]))
    np.testing.assert_array_equal(opt.impratio_invsqrt.numpy(), np.float32([1.0, 0.5, 1.0, 1.0]))
    start = gpu.warp.time()
    cpu_start = cpu.batch.bind("time").copy()
    for actions in _actions(cpu, 5, seed=5):
        _assert_step_close(cpu, gpu, actions, _STEP_TOLERANCE)
    elapsed = cpu.batch.bind("time") - cpu_start
    assert elapsed[3] == elapsed[0] / 2
    np.testing.assert_allclose(gpu.warp.time() - start, elapsed, rtol=1e-5)


def test_options_warp_cannot_hold_per_world_are_refused_naming_them():
    gpu = suite.load_batch("cartpole", "balance", 2, seed=_SEED, backend="warp", device=_DEVICE)
    gpu.reset()
    with pytest.raises(
        ValueError, match=r"differ in \['opt.iterations'\], which MuJoCo Warp cannot"
    ):
        with gpu.copy_physics(1) as physics:
            physics.model.opt.iterations = 3


def test_non_vectorised_task_is_refused_naming_the_task():
    with pytest.raises(ValueError, match="RandomHeightTask does not set composer.Task.vectorized"):
        BatchEnvironment(RandomHeightTask, 2, seed=0, backend="warp", device=_DEVICE)


def test_backend_arguments_are_checked():
    with pytest.raises(ValueError, match="backend must be 'cpu', 'warp' or a WarpOptions"):
        suite.load_batch("cartpole", "swingup", 2, backend="gpu")
    with pytest.raises(ValueError, match="device='cpu' is for backend='warp'"):
        suite.load_batch("cartpole", "swingup", 2, device="cpu")
    with pytest.raises(ValueError, match="nconmax must be an integer >= 1"):
        batch_warp.WarpOptions(nconmax=0)
    with pytest.raises(ValueError, match="array_module must be one of"):
        batch_warp.WarpOptions(array_module="torch")


# array_module="jax": observations and outcome computed as JAX on the device.
# Float32 on both sides (the NumPy path reads MuJoCo Warp's float32 data too), with
# the reductions in another order.
_JAX_TOLERANCE = dict(rtol=1e-5, atol=1e-5)


def _jax_batches(domain, task, num_envs, time_limit):
    """The Warp batch computing in NumPy, and two computing in JAX (NumPy and JAX
    TimeSteps), same seed; episodes `time_limit` seconds long, so copies auto-reset."""
    kwargs = dict(seed=3, task_kwargs={"time_limit": time_limit})
    numpy_batch = suite.load_batch(domain, task, num_envs, backend="warp", device=_DEVICE, **kwargs)
    options = batch_warp.WarpOptions(device=_DEVICE, array_module="jax")
    to_numpy = suite.load_batch(domain, task, num_envs, backend=options, **kwargs)
    to_jax = suite.load_batch(
        domain, task, num_envs, backend=dataclasses.replace(options, return_jax=True), **kwargs
    )
    return numpy_batch, to_numpy, to_jax


def _assert_timesteps_close(expected, got, is_jax):
    jax = pytest.importorskip("jax")
    for field in ("step_type", "reward", "discount"):
        value = getattr(got, field)
        assert isinstance(value, jax.Array) == is_jax, f"{field}: {type(value)}"
    np.testing.assert_array_equal(np.asarray(got.step_type), expected.step_type)
    np.testing.assert_allclose(np.asarray(got.reward), expected.reward, **_JAX_TOLERANCE)
    np.testing.assert_allclose(np.asarray(got.discount), expected.discount, **_JAX_TOLERANCE)
    assert list(got.observation) == list(expected.observation)
    for name, value in expected.observation.items():
        got_value = got.observation[name]
        assert isinstance(got_value, jax.Array) == is_jax, f"{name}: {type(got_value)}"
        if not is_jax:
            assert got_value.dtype == value.dtype, name
        np.testing.assert_allclose(np.asarray(got_value), value, err_msg=name, **_JAX_TOLERANCE)


def _run_jax_against_numpy(domain, task, time_limit, steps=20):
    numpy_batch, to_numpy, to_jax = _jax_batches(domain, task, 3, time_limit)
    assert type(to_numpy.warp.data.qpos).__module__.startswith("jax")
    results = []
    expected = numpy_batch.reset()
    _assert_timesteps_close(expected, to_numpy.reset(), is_jax=False)
    _assert_timesteps_close(expected, to_jax.reset(), is_jax=True)
    seen = set()
    for actions in _actions(numpy_batch, steps, seed=6):
        expected = numpy_batch.step(actions)
        _assert_timesteps_close(expected, to_numpy.step(actions), is_jax=False)
        got = to_jax.step(actions)
        _assert_timesteps_close(expected, got, is_jax=True)
        seen.update(np.asarray(got.step_type).tolist())
        results.append(got)
    # The episodes ended and the copies auto-reset within the steps.
    assert seen == {0, 1, 2}, seen
    return results


def test_cartpole_jax_steps_agree_with_numpy_over_auto_resets_and_repeat():
    pytest.importorskip("jax")
    first = _run_jax_against_numpy("cartpole", "swingup", time_limit=0.08)
    # Determinism: the same seed gives the same JAX results, bit for bit.
    _, _, again = _jax_batches("cartpole", "swingup", 3, 0.08)
    again.reset()
    for actions, previous in zip(_actions(again, 20, seed=6), first):
        got = again.step(actions)
        np.testing.assert_array_equal(np.asarray(got.reward), np.asarray(previous.reward))
        for name, value in previous.observation.items():
            np.testing.assert_array_equal(np.asarray(got.observation[name]), np.asarray(value))


def test_cheetah_jax_steps_agree_with_numpy_over_auto_resets():
    pytest.importorskip("jax")
    _run_jax_against_numpy("cheetah", "run", time_limit=0.08)


def test_untraceable_function_runs_eagerly_and_is_named(caplog):
    pytest.importorskip("jax")
    numpy_batch, to_numpy, _ = _jax_batches("cartpole", "balance", 2, 1.0)
    jax_step = to_numpy._warp_jax
    name, function = next(iter(jax_step._pieces.items()))

    def host_branch(physics):
        # A Python branch on an array value: jax.jit cannot trace it.
        value = function(physics)
        return value if float(value.sum()) < np.inf else value * 0

    jax_step._pieces[name] = host_branch
    numpy_batch.reset()
    to_numpy.reset()
    with caplog.at_level("WARNING", logger=batch_warp.__name__):
        for actions in _actions(numpy_batch, 3, seed=1):
            _assert_timesteps_close(numpy_batch.step(actions), to_numpy.step(actions), False)
    lines = [record.getMessage() for record in caplog.records if "eagerly" in record.getMessage()]
    assert len(lines) == 1 and f"observable {name!r}" in lines[0], lines
    assert jax_step._eager == (name,)


def test_jax_actions_step_as_numpy_actions_and_stay_on_the_device(monkeypatch):
    """JAX actions reach the worlds' ctrl through DLPack, never as a host array, and
    step the copies exactly as the same actions given as NumPy (both are rounded to
    MuJoCo Warp's float32)."""
    jax = pytest.importorskip("jax")
    jnp = jax.numpy
    _, to_numpy, to_jax = _jax_batches("cartpole", "swingup", 3, 0.05)
    to_numpy.reset()
    to_jax.reset()
    written = []
    write_ctrl = batch_warp.WarpSimulation.write_ctrl

    def recorded(self, actions):
        written.append(type(actions))
        return write_ctrl(self, actions)

    monkeypatch.setattr(batch_warp.WarpSimulation, "write_ctrl", recorded)
    kinds = set()
    for actions in _actions(to_numpy, 8, seed=4):
        expected = to_numpy.step(actions)
        got = to_jax.step(jnp.asarray(actions, jnp.float32))
        np.testing.assert_array_equal(np.asarray(got.step_type), expected.step_type)
        kinds.update(expected.step_type.tolist())
        for name, value in expected.observation.items():
            np.testing.assert_array_equal(np.asarray(got.observation[name]), value, err_msg=name)
    assert kinds == {0, 1, 2}
    assert written[1::2] == [type(jnp.zeros(1))] * 8


def test_jax_actions_are_refused_as_numpy_actions_are(cartpole):
    """The device check refuses what the NumPy path refuses, with its message; a
    float32 value just above a float64 bound is outside it on both paths."""
    jnp = pytest.importorskip("jax").numpy
    _, gpu = cartpole
    gpu.reset()
    actions = jnp.zeros((_NUM_ENVS, 1), jnp.float32)
    with pytest.raises(ValueError, match=r"actions of copy 2 are not finite: \[nan\]"):
        gpu.step(actions.at[2, 0].set(jnp.nan))
    just_above = np.nextafter(np.float32(1.0), np.float32(2.0))
    with pytest.raises(ValueError, match="actions of copy 1 are outside the bounds"):
        gpu.step(actions.at[1, 0].set(just_above))
    with pytest.raises(ValueError, match="actions of copy 3 are outside the bounds"):
        gpu.step(actions.at[3, 0].set(-3.0))
    with pytest.raises(ValueError, match="actions have 5 rows but the batch has 4 copies"):
        gpu.step(jnp.zeros((_NUM_ENVS + 1, 1)))
    with pytest.raises(ValueError, match=r"actions have shape \(4, 2\), expected \(4, 1\)"):
        gpu.step(jnp.zeros((_NUM_ENVS, 2)))
    with pytest.raises(ValueError, match="wants real numbers"):
        gpu.step(jnp.zeros((_NUM_ENVS, 1), bool))
    # The bounds themselves are inside; integer actions take the NumPy path.
    gpu.step(actions.at[0, 0].set(1.0).at[1, 0].set(-1.0))
    gpu.step(jnp.ones((_NUM_ENVS, 1), jnp.int32))


def test_jax_actions_refused_after_the_step_roll_the_worlds_back():
    """With no copy resetting first, the device's bounds check of JAX actions comes
    back with the step's flags, after the worlds stepped: a refused step rolls them
    back, so the batch goes on exactly as a twin that never saw the bad actions."""
    jnp = pytest.importorskip("jax").numpy
    options = batch_warp.WarpOptions(device=_DEVICE, array_module="jax", return_jax=True)
    kwargs = dict(seed=2, task_kwargs={"time_limit": 1.0}, backend=options)
    refusing = suite.load_batch("cartpole", "swingup", 3, **kwargs)
    twin = suite.load_batch("cartpole", "swingup", 3, **kwargs)
    refusing.reset()
    twin.reset()
    actions = jnp.asarray(_actions(twin, 5, seed=3), jnp.float32)
    for row in actions[:2]:
        refusing.step(row)
        twin.step(row)
    before = {name: np.array(refusing.warp.field(name)) for name in ("qpos", "qvel", "time")}
    with pytest.raises(ValueError, match=r"actions of copy 1 are not finite: \[nan\]"):
        refusing.step(actions[2].at[1, 0].set(jnp.nan))
    with pytest.raises(ValueError, match="actions of copy 0 are outside the bounds"):
        refusing.step(actions[2].at[0, 0].set(2.0))
    for name, value in before.items():
        np.testing.assert_array_equal(np.asarray(refusing.warp.field(name)), value, err_msg=name)
    for row in actions[2:]:
        got, expected = refusing.step(row), twin.step(row)
        for field in ("step_type", "reward", "discount"):
            np.testing.assert_array_equal(
                np.asarray(getattr(got, field)), np.asarray(getattr(expected, field))
            )
        for name, value in expected.observation.items():
            np.testing.assert_array_equal(
                np.asarray(got.observation[name]), np.asarray(value), err_msg=name
            )


def test_a_device_step_reads_back_one_flags_array(monkeypatch):
    """Per step on the device path one (4, N) array comes back; a step where copies
    reset first reads the actions' check before the resets too, and uploads the
    reset rows without reading the worlds' arrays back."""
    jax = pytest.importorskip("jax")
    options = batch_warp.WarpOptions(device=_DEVICE, array_module="jax", return_jax=True)
    batch = suite.load_batch(
        "cartpole", "swingup", 3, seed=1, task_kwargs={"time_limit": 0.03}, backend=options
    )
    batch.reset()
    actions = jax.numpy.zeros((3, 1), jax.numpy.float32)
    batch.step(actions)  # Compiles first.
    reads = []
    device_get = jax.device_get
    warp_numpy = warp.array.numpy

    def counted_device_get(value):
        reads.append(("device_get", [np.shape(leaf) for leaf in jax.tree.leaves(value)]))
        return device_get(value)

    def counted_warp_numpy(self):
        reads.append(("warp.array.numpy", [self.shape]))
        return warp_numpy(self)

    monkeypatch.setattr(jax, "device_get", counted_device_get)
    monkeypatch.setattr(warp.array, "numpy", counted_warp_numpy)
    kinds, per_step = [], []
    for _ in range(3):
        kinds.append(np.asarray(batch.step(actions).step_type).tolist())
        per_step.append(list(reads))
        reads.clear()
    monkeypatch.undo()
    assert kinds == [[1, 1, 1], [2, 2, 2], [0, 0, 0]]
    flags = ("device_get", [(4, 3)])
    assert per_step == [[flags], [flags], [("device_get", [()]), flags]], per_step


def test_jax_action_bounds_round_inward():
    """A bound that float32 cannot hold: the device compares against the float32 value
    on the inside, so it agrees with the float64 comparison of the NumPy path."""
    jnp = pytest.importorskip("jax").numpy
    from dm_env import specs

    spec = specs.BoundedArray((2,), np.float64, minimum=[-0.1, 0.0], maximum=[0.1, 0.3])
    check = batch_warp.JaxActions(spec, 1)
    for value in (np.float32(0.1), np.nextafter(np.float32(0.1), np.float32(0))):
        for column, bound in ((0, 0.1), (1, 0.3)):
            row = np.zeros((1, 2), np.float32)
            row[0, column] = value if column == 0 else np.float32(0.3)
            expected_refused = bool(np.float64(row[0, column]) > bound)
            _, refused = check(jnp.asarray(row))
            assert refused == expected_refused, (row, bound)
    _, refused = check(jnp.asarray([[-np.float32(0.1), 0.0]]))
    assert refused == bool(np.float64(-np.float32(0.1)) < -0.1)


def test_return_jax_needs_the_jax_array_module():
    with pytest.raises(ValueError, match="return_jax=True needs array_module='jax'"):
        batch_warp.WarpOptions(return_jax=True)


# Cheetah: contacts.


def test_cheetah_reset_and_one_step_agree(cheetah):
    cpu, gpu = cheetah
    _assert_reset_equal(cpu, gpu)
    _assert_step_close(cpu, gpu, _actions(cpu, 1)[0], _STEP_TOLERANCE)


def test_overflow_is_detected_from_the_counters():
    options = batch_warp.WarpOptions(device=_DEVICE, nconmax=1, njmax=2, grow_buffers=False)
    batch = suite.load_batch("cheetah", "run", 2, seed=_SEED, backend=options)
    batch.reset()
    with pytest.raises(
        batch_warp.WarpBufferOverflow, match=r"ran out of constraint rows .*njmax=2 per world"
    ):
        batch.step(np.zeros((2, 6)))


def test_overflowing_step_is_redone_with_grown_buffers(caplog):
    options = batch_warp.WarpOptions(device=_DEVICE, nconmax=1, njmax=2)
    small = suite.load_batch("cheetah", "run", _NUM_ENVS, seed=_SEED, backend=options)
    roomy = suite.load_batch(
        "cheetah", "run", _NUM_ENVS, seed=_SEED, backend="warp", device=_DEVICE
    )
    first, expected_first = small.reset(), roomy.reset()
    for name, value in expected_first.observation.items():
        np.testing.assert_array_equal(first.observation[name], value)
    actions = _actions(roomy, 3, seed=8)
    for row in actions:
        with caplog.at_level("WARNING", logger="composer_tasks.batch_warp"):
            got = small.step(row)
        expected = roomy.step(row)
        for name, value in expected.observation.items():
            np.testing.assert_allclose(got.observation[name], value, atol=1e-5, err_msg=name)
    assert small.warp.njmax > 2 and small.warp.nconmax > 1
    assert "redoing the step" in caplog.text


def test_jax_overflow_is_read_with_the_step_flags_and_redone_or_raised(caplog):
    """On the device path the overflow flags come back with the step's other flags
    (one read): an overflowed step is still redone with grown buffers, or raises,
    before its results are used."""
    jnp = pytest.importorskip("jax").numpy
    options = batch_warp.WarpOptions(
        device=_DEVICE, nconmax=1, njmax=2, array_module="jax", return_jax=True
    )
    small = suite.load_batch("cheetah", "run", 2, seed=_SEED, backend=options)
    roomy_options = dataclasses.replace(options, nconmax=None, njmax=None)
    roomy = suite.load_batch("cheetah", "run", 2, seed=_SEED, backend=roomy_options)
    small.reset()
    roomy.reset()
    for row in _actions(roomy, 3, seed=8):
        row = jnp.asarray(row, jnp.float32)
        with caplog.at_level("WARNING", logger="composer_tasks.batch_warp"):
            got = small.step(row)
        expected = roomy.step(row)
        for name, value in expected.observation.items():
            np.testing.assert_allclose(
                np.asarray(got.observation[name]), np.asarray(value), atol=1e-5, err_msg=name
            )
    assert small.warp.njmax > 2 and small.warp.nconmax > 1
    assert "redoing the step" in caplog.text
    raising = suite.load_batch(
        "cheetah", "run", 2, seed=_SEED, backend=dataclasses.replace(options, grow_buffers=False)
    )
    raising.reset()
    with pytest.raises(batch_warp.WarpBufferOverflow, match=r"ran out of constraint rows"):
        raising.step(jnp.zeros((2, 6), jnp.float32))


def test_sized_buffers_hold_a_rollout(cheetah):
    cpu, gpu = cheetah
    del cpu
    gpu.reset()
    for actions in _actions(gpu, 30, seed=9):
        gpu.step(actions)  # raises WarpBufferOverflow if a buffer ran out
    assert np.all(gpu.warp.data_arrays.nefc.numpy() <= gpu.warp.njmax)


# Fish: a free joint, tendons and fluid forces.


def test_fish_reset_and_one_step_agree(fish):
    cpu, gpu = fish
    _assert_reset_equal(cpu, gpu)
    _assert_step_close(cpu, gpu, _actions(cpu, 1)[0], _STEP_TOLERANCE)


@pytest.mark.slow
@pytest.mark.parametrize("domain, task", _SLOW_TASKS)
def test_every_vectorised_task_resets_equal_and_steps_close(domain, task):
    cpu, gpu = _pair(domain, task)
    _assert_reset_equal(cpu, gpu)
    _assert_step_close(cpu, gpu, _actions(cpu, 1)[0], _STEP_TOLERANCE)


def test_jax_snapshot_and_restore_continue_exactly():
    pytest.importorskip("jax")
    options = batch_warp.WarpOptions(device=_DEVICE, array_module="jax", return_jax=True)
    batch = suite.load_batch(
        "cartpole", "swingup", 2, seed=5, task_kwargs={"time_limit": 0.05}, backend=options
    )
    batch.reset()
    actions = _actions(batch, 8, seed=2)
    for action in actions[:3]:
        batch.step(action)
    snapshot = batch.snapshot()
    first = [batch.step(action) for action in actions[3:]]
    batch.restore(snapshot)
    for action, expected in zip(actions[3:], first):
        got = batch.step(action)
        np.testing.assert_array_equal(np.asarray(got.step_type), np.asarray(expected.step_type))
        np.testing.assert_array_equal(np.asarray(got.reward), np.asarray(expected.reward))
        for name, value in expected.observation.items():
            np.testing.assert_array_equal(np.asarray(got.observation[name]), np.asarray(value))


def test_jax_termination_ends_the_copies_as_a_time_limit_does():
    """A copy the outcome rule terminates is LAST with the task's discount and resets
    at the next step: here terminating at 0.05 s, as a 0.05 s time limit ends them."""
    jnp = pytest.importorskip("jax").numpy
    numpy_batch = suite.load_batch(
        "cartpole",
        "swingup",
        2,
        seed=4,
        task_kwargs={"time_limit": 0.05},
        backend="warp",
        device=_DEVICE,
    )
    options = batch_warp.WarpOptions(device=_DEVICE, array_module="jax", return_jax=True)
    jax_batch = suite.load_batch("cartpole", "swingup", 2, seed=4, backend=options)
    jax_step = jax_batch._warp_jax
    outcome = jax_step._pieces[batch_warp._OUTCOME]

    def terminating(physics):
        reward, _, discount = outcome(physics)
        # Half a control step's margin below 0.05 s: time is float32 in the worlds.
        return reward, jnp.ravel(physics.data.time) >= 0.045, discount

    jax_step._pieces[batch_warp._OUTCOME] = terminating
    _assert_timesteps_close(numpy_batch.reset(), jax_batch.reset(), is_jax=True)
    kinds = set()
    for actions in _actions(numpy_batch, 12, seed=3):
        expected = numpy_batch.step(actions)
        _assert_timesteps_close(expected, jax_batch.step(actions), is_jax=True)
        kinds.update(expected.step_type.tolist())
    assert kinds == {0, 1, 2}
    assert not jax_step._eager


def test_jax_diverging_world_ends_its_episode_or_raises_naming_the_copy():
    jax = pytest.importorskip("jax")
    options = batch_warp.WarpOptions(device=_DEVICE, array_module="jax", return_jax=True)
    batch = suite.load_batch(
        "cartpole",
        "swingup",
        3,
        seed=1,
        backend=options,
        environment_kwargs={"raise_exception_on_physics_error": False},
    )
    batch.reset()
    actions = _actions(batch, 3, seed=1)
    before = batch.step(actions[0])
    with batch.copy_physics(1) as physics:
        physics.data.qvel[:] = np.nan
    ended = batch.step(actions[1])
    assert isinstance(ended.reward, jax.Array)
    np.testing.assert_array_equal(np.asarray(ended.step_type), [1, 2, 1])
    assert float(ended.reward[1]) == 0.0 and float(ended.discount[1]) == 0.0
    assert float(ended.discount[0]) == 1.0
    for name, value in before.observation.items():
        np.testing.assert_array_equal(
            np.asarray(ended.observation[name][1]), np.asarray(value[1]), err_msg=name
        )
    np.testing.assert_array_equal(np.asarray(batch.step(actions[2]).step_type), [1, 0, 1])

    raising = suite.load_batch("cartpole", "balance", 3, seed=1, backend=options)
    raising.reset()
    with raising.copy_physics(2) as physics:
        physics.data.qpos[:] = np.inf
    with pytest.raises(PhysicsError, match=r"copy 2: physics diverged .*QPOS"):
        raising.step(np.zeros((3, 1)))
