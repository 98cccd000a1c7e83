"""What the viewer runs besides one environment and a callable: one copy of a
`BatchEnvironment` (stepping with the batch, on its own model), and a trained
agent's checkpoint (`agents.checkpoint_policy`, the `--checkpoint` flag). Driven
through the viewer's `Controller`, without a window."""

import os
import pathlib
import shutil
import subprocess
import sys
import textwrap

import dm_env
import mujoco
import numpy as np
import pytest
from dm_env import specs

from composer_tasks import seeding
from composer_tasks import viewer
from composer_tasks.batch import BatchEnvironment
from composer_tasks.composer.variation import distributions
from composer_tasks.viewer import batch_copy
from composer_tasks.viewer import controller as controller_lib
from composer_tasks.viewer import sources
from composer_tasks.viewer import web
from suites import suite

_REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_COPIES = 3
_SHOWN = 1
# Cart-pole: 0.01 s control steps, so a 0.05 s episode has 5 steps.
_TIME_LIMIT_S = 0.05
_POLE_MASS = ("body", "pole_1", "mass")


def _policy(timestep):
    """Deterministic, and different for each copy's own observation."""
    return np.tanh(timestep.observation["position"][:1] + 0.3)


def _batch(vectorised=True, variations=True):
    """Cart-pole swing-up copies whose pole mass is drawn per copy and episode."""
    model_variations = {_POLE_MASS: distributions.Uniform(0.5, 2.0)} if variations else None
    if vectorised:
        return suite.load_batch(
            "cartpole",
            "swingup",
            _COPIES,
            seed=7,
            task_kwargs={"time_limit": _TIME_LIMIT_S},
            model_variations=model_variations,
        )

    def make(seed):
        env = suite.load(
            "cartpole", "swingup", task_kwargs={"random": seed, "time_limit": _TIME_LIMIT_S}
        )
        # A task that does not promise vectorised callbacks runs on the looped path.
        env.task.__class__ = type("Looped", (type(env.task),), {"vectorized": False})
        return env

    batch = BatchEnvironment.from_environments(
        make, _COPIES, seed=7, model_variations=model_variations
    )
    assert not batch.vectorized
    return batch


def _copy_timesteps(batch_timestep):
    return [
        dm_env.TimeStep(
            dm_env.StepType(int(batch_timestep.step_type[index])),
            None,
            None,
            {name: value[index] for name, value in batch_timestep.observation.items()},
        )
        for index in range(_COPIES)
    ]


@pytest.mark.parametrize("vectorised", [True, False], ids=["vectorised", "looped"])
def test_a_batch_copy_steps_with_the_batch_on_its_own_model_across_episodes(vectorised):
    shown = _batch(vectorised)
    reference = _batch(vectorised)
    controller = controller_lib.Controller(
        batch_copy.BatchCopy(shown, _SHOWN, _policy), _policy, paused=True
    )
    physics = controller.env.physics
    reference_timestep = reference.reset()
    reference_data = mujoco.MjData(reference.envs[_SHOWN].physics.model)
    masses = set()
    # Three episodes of 5 steps, each followed by the batch's auto-reset step.
    for step in range(18):
        if step:
            actions = np.stack([_policy(t) for t in _copy_timesteps(reference_timestep)])
            reference_timestep = reference.step(actions)
            controller.command(controller_lib.STEP)
        timestep = controller.timestep
        assert timestep.step_type == reference_timestep.step_type[_SHOWN]
        for name, value in timestep.observation.items():
            np.testing.assert_array_equal(value, reference_timestep.observation[name][_SHOWN])
        if not timestep.first():
            assert timestep.reward == reference_timestep.reward[_SHOWN]
        reference.copy_data(_SHOWN, reference_data)
        for field in ("time", "qpos", "qvel", "xpos", "ctrl"):
            np.testing.assert_array_equal(
                getattr(physics.data, field), getattr(reference_data, field), err_msg=field
            )
        # The scene is the shown copy's own model, with its episode's pole mass.
        assert physics.model is shown.copy_model(_SHOWN, physics.model)
        mass = shown.model_values(*_POLE_MASS)[:, 0]
        assert physics.model.body("pole_1").mass[0] == mass[_SHOWN]
        assert len(set(mass)) == _COPIES
        masses.add(float(mass[_SHOWN]))
    assert controller.episode == 2 and len(masses) == 3
    assert controller.last_episode_end == "truncated: time limit (discount 1)"


@pytest.mark.parametrize("vectorised", [True, False], ids=["vectorised", "looped"])
def test_a_perturbation_pushes_the_shown_copy_as_it_would_push_its_single_environment(vectorised):
    shown = batch_copy.BatchCopy(_batch(vectorised, variations=False), _SHOWN, _policy)
    unperturbed = _batch(vectorised, variations=False)
    single = suite.load(
        "cartpole",
        "swingup",
        task_kwargs={"random": seeding.derive_seed(7, _SHOWN), "time_limit": _TIME_LIMIT_S},
    )
    timestep, single_timestep = shown.reset(), single.reset()
    unperturbed_timestep = unperturbed.reset()
    pole = shown.physics.model.body("pole_1").id
    force = np.zeros((shown.physics.model.nbody, 6))
    force[pole, 0] = 5.0  # 5 N along the world x axis, at the pole's centre of mass.
    for _ in range(4):
        # What a viewer's `sync` does with a mouse perturbation: write xfrc_applied.
        shown.physics.data.xfrc_applied[...] = force
        single.physics.data.xfrc_applied[...] = force
        timestep = shown.step(_policy(timestep))
        single_timestep = single.step(_policy(single_timestep))
        unperturbed_timestep = unperturbed.step(
            np.stack([_policy(t) for t in _copy_timesteps(unperturbed_timestep)])
        )
    np.testing.assert_array_equal(shown.physics.data.qpos, single.physics.data.qpos)
    np.testing.assert_array_equal(
        timestep.observation["velocity"], single_timestep.observation["velocity"]
    )
    # The other copies were not pushed; the shown one was.
    data = mujoco.MjData(shown.physics.model)
    for index in range(_COPIES):
        shown.batch.copy_data(index, data)
        unperturbed_velocity = unperturbed_timestep.observation["velocity"][index]
        if index == _SHOWN:
            assert not np.allclose(data.qvel, unperturbed_velocity)
        else:
            np.testing.assert_array_equal(data.qvel, unperturbed_velocity)


def test_restart_resets_every_copy_of_the_batch():
    batch = _batch()
    controller = controller_lib.Controller(
        batch_copy.BatchCopy(batch, _SHOWN, _policy), _policy, paused=True
    )
    for _ in range(3):
        controller.command(controller_lib.STEP)
    controller.command(controller_lib.RESTART)
    assert controller.timestep.first() and controller.episode == 1
    data = mujoco.MjData(batch.envs[0].physics.model)
    for index in range(_COPIES):
        batch.copy_data(index, data)
        assert data.time == 0.0


def test_batch_copy_errors_name_the_bad_value():
    batch = _batch(variations=False)
    with pytest.raises(ValueError, match=r"BatchEnvironment of 3 copies: pass copy=i"):
        sources.prepare(batch, None, None)
    with pytest.raises(ValueError, match=r"copy=0 chooses a copy of a BatchEnvironment; env is"):
        sources.prepare(suite.load("cartpole", "swingup"), None, 0)
    for bad in (3, -1, True, 1.0):
        with pytest.raises(ValueError, match=r"copy must be an integer in \[0, 3\)"):
            viewer.launch(batch, copy=bad)
    with pytest.raises(TypeError, match="policy must be None, callable"):
        sources.prepare(batch, 3, 0)
    shown = batch_copy.BatchCopy(batch, 0, lambda timestep: np.zeros(2))
    shown.reset()
    with pytest.raises(ValueError, match=r"the action of copy 1 must have shape \(1,\)"):
        shown.step(np.zeros(1))
    with pytest.raises(ValueError, match=r"the action of copy 0 must have shape \(1,\)"):
        shown.step(np.float64(0.0))
    nbody = batch.envs[0].physics.model.nbody
    with pytest.raises(ValueError, match=rf"must be finite with shape \({nbody}, 6\)"):
        batch.set_xfrc_applied(0, np.zeros((nbody, 3)))
    with pytest.raises(ValueError, match="must be finite"):
        batch.set_xfrc_applied(0, np.full((nbody, 6), np.nan))
    with pytest.raises(ValueError, match=r"copy index must be an integer in \[0, 3\)"):
        batch.copy_data(3, mujoco.MjData(batch.envs[0].physics.model))


def test_the_web_viewer_shows_a_model_changed_in_place_as_a_new_model():
    """Studio sends the page a model only when its identity changes."""
    batch = _batch()
    batch.reset()
    model = batch.copy_model(_SHOWN)
    shown = web._ShownModel()
    assert shown.model_for(model, 0) is model
    assert shown.model_for(model, 1) is model  # A new episode, the same values.
    model.body("pole_1").mass[0] += 0.25
    assert shown.model_for(model, 1) is model  # Compared at episode starts only.
    changed = shown.model_for(model, 2)
    assert changed is not model and changed.body("pole_1").mass[0] == model.body("pole_1").mass[0]
    assert shown.model_for(model, 3) is changed
    other = batch.copy_model(0)
    assert shown.model_for(other, 3) is other


# Checkpoints.


def _train(agent, env_name, out_dir, **overrides):
    """A real checkpoint of `agents.train` (no learning steps: its initial policy),
    evaluated on short episodes of the same task."""
    from agents import experiment

    domain, task = env_name.split(":")

    def make_env(seed):
        return suite.load(domain, task, task_kwargs={"random": seed, "time_limit": 0.1})

    return experiment.train(
        agent,
        make_env,
        0,
        seed=1,
        out_dir=str(out_dir),
        env_name=env_name,
        config_overrides=overrides,
        eval_every=100,
        eval_episodes=1,
        progress=False,
    ).checkpoint_path


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory):
    pytest.importorskip("jax", reason="agent checkpoints need JAX (the dev extra)")
    return _train(
        "d4pg",
        "cartpole:balance",
        tmp_path_factory.mktemp("run"),
        actor_hidden_sizes=(16, 16),
        critic_hidden_sizes=(16, 16),
        replay_capacity=1000,
        min_replay_size=64,
        batch_size=32,
    )


def test_a_checkpoint_acts_as_its_agent_does(checkpoint):
    from agents import experiment

    env = suite.load("cartpole", "swingup", task_kwargs={"random": 0})
    policy = sources.checkpoint_policy(checkpoint, env)
    assert policy.env_name == "cartpole:balance"
    agent, _ = experiment.load_agent(checkpoint, env.observation_spec(), env.action_spec())
    timestep = env.reset()
    for _ in range(5):
        batched = {name: value[np.newaxis] for name, value in timestep.observation.items()}
        action = policy(timestep)
        np.testing.assert_array_equal(action, np.asarray(agent.policy()(batched))[0])
        assert action.shape == (1,) and np.all(np.abs(action) <= 1)
        timestep = env.step(action)
    # As a path (str or pathlib), in the viewer.
    for path in (checkpoint, pathlib.Path(checkpoint)):
        shown, resolved = sources.prepare(env, path, None)
        assert shown is env and resolved.env_name == "cartpole:balance"
        controller = controller_lib.Controller(shown, resolved)
        assert controller.tick(0.05) == 5


def test_a_checkpoint_drives_every_copy_of_a_batch(checkpoint):
    batch = suite.load_batch("cartpole", "swingup", _COPIES, seed=3)
    shown, policy = sources.prepare(batch, checkpoint, _SHOWN)
    controller = controller_lib.Controller(shown, policy)
    assert controller.tick(0.03) == 3
    timesteps = _copy_timesteps(batch.reset())
    single = sources.checkpoint_policy(checkpoint, batch)
    np.testing.assert_array_equal(policy(timesteps[0]), single(timesteps[0]))


def test_a_checkpoint_of_another_task_names_the_mismatch(checkpoint, tmp_path):
    with pytest.raises(FileNotFoundError, match="no checkpoint file at"):
        sources.checkpoint_policy(str(tmp_path / "missing.pkl"), suite.load("cartpole", "swingup"))
    not_a_checkpoint = tmp_path / "notes.pkl"
    not_a_checkpoint.write_bytes(b"not a pickle")
    with pytest.raises(ValueError, match="is not a readable checkpoint"):
        sources.checkpoint_policy(not_a_checkpoint, suite.load("cartpole", "swingup"))
    with pytest.raises(
        ValueError,
        match=(
            r"reads observations of 5 values; this environment's have 17 \(position \(8,\), "
            r"velocity \(9,\)\): it was trained on another task \(run 'cartpole:balance'\)"
        ),
    ):
        sources.checkpoint_policy(checkpoint, suite.load("cheetah", "run"))
    with pytest.raises(
        ValueError,
        match=(
            r"was trained on observations \['position', 'velocity'\]; this environment's are "
            r"\['orientations', 'velocity'\] \(the environment lacks \['position'\]; it has "
            r"\['orientations'\] besides\)"
        ),
    ):
        sources.checkpoint_policy(checkpoint, suite.load("acrobot", "swingup"))
    # Same observations, another action size (no suite task has that): named too.
    from agents import checkpoint as checkpoint_lib
    from agents import checkpoint_policy

    env = suite.load("cartpole", "swingup")
    wider = specs.BoundedArray((2,), np.float64, -1.0, 1.0)
    with pytest.raises(ValueError, match="gives actions of 1 values; this environment takes 2"):
        checkpoint_policy.check_fits(
            checkpoint_lib.load(checkpoint), env.observation_spec(), wider, "checkpoint"
        )


def test_command_line_checkpoint_flag(checkpoint, tmp_path):
    # In one process (each new one imports JAX): --policy with --checkpoint, a missing
    # file, a checkpoint of another task, the run's own environment without NAME...,
    # and one of the same specs (with a note).
    script = textwrap.dedent("""
        import sys
        from absl import app, flags
        from composer_tasks.viewer import __main__ as main
        flags.FLAGS(["viewer", "--checkpoint", sys.argv[1], "--policy", "random"])
        try:
            main.main(["viewer"])
        except app.UsageError as error:
            print("UsageError:", error)
        flags.FLAGS["policy"].present = 0
        for path, names in ((sys.argv[2], []), (sys.argv[1], ["cheetah", "run"])):
            flags.FLAGS(["viewer", "--checkpoint", path])
            try:
                main._checkpoint_environment_and_policy(names)
            except app.UsageError as error:
                print("UsageError:", error)
        for names in ([], ["cartpole", "swingup"]):
            env, policy = main._checkpoint_environment_and_policy(names)
            timestep = env.reset()
            # The pole's cosine: balance starts upright, swing-up hanging.
            pole = "upright" if timestep.observation["position"][1] > 0 else "hanging"
            print(pole, policy(timestep).shape)
        """)
    result = subprocess.run(
        [sys.executable, "-c", script, checkpoint, str(tmp_path / "no.pkl")],
        cwd=_REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "UsageError: --policy and --checkpoint both choose the policy: give one"
    assert lines[1].startswith("UsageError: no checkpoint file at") and lines[1].endswith(
        "no.pkl'."
    )
    assert lines[2].startswith(
        f"UsageError: checkpoint {checkpoint!r} reads observations of 5 "
        f"values; this environment's have 17"
    )
    assert lines[3:] == ["upright (1,)", "hanging (1,)"]
    assert (
        "the checkpoint's run trained on 'cartpole:balance'; showing 'cartpole swingup'"
        in result.stderr
    )


def test_the_viewer_imports_agents_only_for_a_checkpoint():
    code = (
        "import sys; import composer_tasks.viewer, composer_tasks.viewer.sources; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'agents'))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=_REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert result.stdout.strip() == "[]"


_WINDOW_SCRIPT = textwrap.dedent("""
    import mujoco, numpy as np
    from suites import suite
    from composer_tasks.composer.variation import distributions
    from composer_tasks.viewer import Controller, Window, sources
    batch = suite.load_batch("cartpole", "swingup", 3, seed=0, task_kwargs={"time_limit": 0.1},
                             model_variations={("body", "pole_1", "mass"):
                                               distributions.Uniform(0.5, 2.0)})
    env, policy = sources.prepare(batch, None, 1)
    controller = Controller(env, policy)
    window = Window(controller)
    window._open()
    try:
        for _ in range(30):
            window._advance(0.01)
        data = mujoco.MjData(batch.copy_model(1))
        batch.copy_data(1, data)
        print(window.frames, controller.episode, window._model is batch.copy_model(1, window._model),
              window._data is env.physics.data, np.array_equal(window._data.qpos, data.qpos))
    finally:
        window.close()
    """)


@pytest.mark.skipif(
    shutil.which("Xvfb") is None, reason="the window test needs Xvfb (Debian: apt-get install xvfb)"
)
def test_a_batch_copy_in_a_window():
    read_fd, write_fd = os.pipe()
    xvfb = subprocess.Popen(
        [
            "Xvfb",
            "-displayfd",
            str(write_fd),
            "-screen",
            "0",
            "800x600x24",
            "-nolisten",
            "tcp",
            "+extension",
            "GLX",
        ],
        pass_fds=(write_fd,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write_fd)
    try:
        with os.fdopen(read_fd) as pipe:
            display = pipe.readline().strip()
        result = subprocess.run(
            [sys.executable, "-c", _WINDOW_SCRIPT],
            cwd=_REPO_ROOT,
            env=dict(os.environ, DISPLAY=f":{display}"),
            capture_output=True,
            text=True,
            timeout=120,
        )
    finally:
        xvfb.terminate()
        xvfb.wait(timeout=10)
    assert result.returncode == 0, result.stderr
    # 30 frames of 10 ms: 10 steps an episode, and the auto-reset steps.
    frames, episode, *same = result.stdout.split()
    assert frames == "30" and int(episode) >= 2 and same == ["True", "True", "True"]
