"""Named locomotion environments: `locomotion.load("cmu_humanoid_run_walls", seed=0)`.

Names are `<walker>_<task>`:

  walkers: `walker` (the planar walker), `quadruped`, `humanoid` (the Control
    Suite body), `cmu_humanoid` (position-controlled, dm_control paper §7.1).
  tasks:
    `run_walls`, `run_gaps`: RunThroughCorridor in dm_control's walls and gaps
      corridors (the settings of dm_control's `basic_cmu_2019` examples;
      rewards in [0, 1]). The planar walker has only `run_gaps`, since it
      cannot steer around walls.
    `parkour_<course>`: ForwardProgress over a parkour course (Heess et al.
      2017) with the body's published reward; `<course>` is one of hurdles,
      gaps, terrain, slalom, platforms, mixed, curriculum (no slalom for the
      planar walker). `..._unit` is the same course with the unit-interval
      benchmark reward. The CMU humanoid, for which no reward was published,
      has only the unit-interval reward (its names carry no suffix). Whatever
      the reward, a fall ends the episode: the planar walker's torso too low or
      pitched too far (`TorsoPoseTermination`), a humanoid's head within 0.9 m
      of its feet (published; scaled by body size for the CMU humanoid,
      `head_to_feet_threshold_m`), any body falling into a gap.
    `open_plane` (planar walker only): the benchmark of Heess et al. 2017's
      Figure 1 (§2.1, "simple locomotion in an open plane"): ForwardProgress
      on a flat floor with the parkour walker's published reward and fall
      termination, and the parkour observations (its terrain samples all read
      0 m), so that a policy trained here runs on the parkour courses.
    `maze_forage`: collect every sphere of a random maze.
    `go_to_target`: walk to a random target on a floor (rewards in [0, 1]).
    `escape_bowl`: climb out of a random bumpy bowl (rewards in [0, 1]).

`ALL` lists every name; `BENCHMARKING` those whose rewards lie in [0, 1].
Every environment draws a new layout (corridor, course, maze, bowl, target)
every episode without recompiling, deterministically under its seed.
"""

import collections
import functools

from composer_tasks import composer
from composer_tasks.composer.variation import distributions

_Entry = collections.namedtuple("_Entry", ["factory", "unit_interval"])

# (physics timestep, control timestep) in seconds per walker. The Control Suite's
# planar walker integrates at 2.5 ms; dm_control's CMU humanoid tasks act every 30 ms.
_TIMESTEPS_S = {
    "walker": (0.0025, 0.025),
    "quadruped": (0.005, 0.025),
    "humanoid": (0.005, 0.025),
    "cmu_humanoid": (0.005, 0.03),
}
_WALKER_NAMES = tuple(_TIMESTEPS_S)
_FREE_WALKERS = ("quadruped", "humanoid", "cmu_humanoid")
_PARKOUR_COURSES = ("hurdles", "gaps", "terrain", "slalom", "platforms", "mixed", "curriculum")
# Seconds of simulated time per episode (dm_control's corridor examples: 30 s).
_TIME_LIMIT_S = 30.0
_TARGET_SPEED_MPS = 3.0
# Heess et al. 2017 (§4, "Humanoid") end the humanoid's episodes when its head
# comes within 0.9 m of its feet. Their humanoid is the Control Suite's body; a
# body of another size gets the threshold scaled by the ratio of its standing
# head-to-feet distances. Distances (m) between the head body's origin and the
# nearest foot geom centre in each walker's initial standing pose, measured on
# flat ground (tests/locomotion/test_parkour_published.py re-measures them).
_PUBLISHED_HEAD_TO_FEET_M = 0.9
_HEAD_TO_FEET_STANDING_M = {"humanoid": 1.4503, "cmu_humanoid": 1.7843}


def head_to_feet_threshold_m(walker_name):
    """The head-to-feet termination distance (m) of humanoid `walker_name`: the
    published 0.9 m scaled by its standing head-to-feet distance relative to the
    Control Suite humanoid's (1.0 for `humanoid`; 1.2303 for `cmu_humanoid`, the
    1.2x-scaled CMU skeleton: 1.107 m)."""
    if walker_name not in _HEAD_TO_FEET_STANDING_M:
        raise ValueError(
            f"walker_name must be one of {sorted(_HEAD_TO_FEET_STANDING_M)}, got {walker_name!r}"
        )
    return (
        _PUBLISHED_HEAD_TO_FEET_M
        * _HEAD_TO_FEET_STANDING_M[walker_name]
        / _HEAD_TO_FEET_STANDING_M["humanoid"]
    )


def _make_walker(walker_name):
    from composer_tasks import walkers

    if walker_name == "walker":
        return walkers.PlanarWalker()
    if walker_name == "quadruped":
        return walkers.Quadruped()
    if walker_name == "humanoid":
        return walkers.Humanoid()
    return walkers.CMUHumanoidPositionControlledV2020()


def _environment(task, seed, time_limit=_TIME_LIMIT_S):
    return composer.Environment(
        task, time_limit=time_limit, random_state=seed, strip_singleton_obs_buffer_dim=True
    )


def _run_corridor(walker_name, course, seed):
    from composer_tasks.arenas import corridors as corridor_arenas
    from composer_tasks.tasks import corridors

    if course == "walls":
        arena = corridor_arenas.WallsCorridor(
            wall_gap=4.0,
            wall_width=distributions.Uniform(1.0, 7.0),
            wall_height=3.0,
            corridor_width=10.0,
            corridor_length=100.0,
            include_initial_padding=False,
            pooled=True,
        )
    else:
        arena = corridor_arenas.GapsCorridor(
            platform_length=distributions.Uniform(0.3, 2.5),
            gap_length=distributions.Uniform(0.5, 1.25),
            corridor_width=10.0,
            corridor_length=100.0,
            pooled=True,
        )
    physics_timestep, control_timestep = _TIMESTEPS_S[walker_name]
    task = corridors.RunThroughCorridor(
        _make_walker(walker_name),
        arena,
        walker_spawn_position=(0.5, 0.0, 0.0),
        target_velocity=_TARGET_SPEED_MPS,
        physics_timestep=physics_timestep,
        control_timestep=control_timestep,
        # These environments observe terrain by height samples, not images.
        enable_egocentric_camera=False,
    )
    return _environment(task, seed)


def _parkour_course(course, planar):
    """The course `course` with the arena's default parameter ranges (Heess et al.
    2017 §3.1's obstacle types; see composer_tasks/arenas/parkour.py). Courses
    for a `planar` walker have no slalom walls, which it cannot steer around."""
    from composer_tasks.arenas import parkour as courses

    segments = {
        "hurdles": [courses.Hurdles()],
        "gaps": [courses.Gaps()],
        "terrain": [courses.Terrain()],
        "slalom": [courses.SlalomWalls()],
        "platforms": [courses.JumpPlatforms(), courses.CrouchPlatforms()],
    }
    if course in segments:
        return courses.ParkourCourse(segments=segments[course], mode="mixed")
    every_type = [
        courses.Hurdles(),
        courses.Gaps(),
        courses.Terrain(),
        courses.JumpPlatforms(),
        courses.CrouchPlatforms(),
    ]
    if not planar:
        every_type.append(courses.SlalomWalls())
    return courses.ParkourCourse(
        segments=every_type, mode="mixed", curriculum=course == "curriculum"
    )


def _parkour(walker_name, course, unit_reward, seed, probe=None):
    from composer_tasks.tasks import parkour

    walker = _make_walker(walker_name)
    if probe is None:
        arena = _parkour_course(course, planar=walker_name == "walker")
    else:
        arena = _probe_course(probe, planar=walker_name == "walker")
    if unit_reward:
        reward = parkour.UnitForwardVelocityReward(target_velocity=_TARGET_SPEED_MPS)
    elif walker_name == "walker":
        reward = parkour.PlanarWalkerReward()
    elif walker_name == "quadruped":
        reward = parkour.QuadrupedReward()
    else:
        reward = parkour.HumanoidReward()
    pose_termination = None
    if walker_name == "walker":
        pose_termination = parkour.TorsoPoseTermination(walker)
    elif walker_name in _HEAD_TO_FEET_STANDING_M:
        pose_termination = parkour.HeadHeightTermination(
            walker, arena, walker.head, min_head_to_feet_m=head_to_feet_threshold_m(walker_name)
        )
    physics_timestep, control_timestep = _TIMESTEPS_S[walker_name]
    pushes = {}
    if probe == "pushes":
        pushes = dict(
            push_interval_steps=_PROBE_PUSH_INTERVAL_STEPS,
            push_force_n=_PROBE_PUSH_FORCE_N[walker_name],
            push_duration_steps=_PROBE_PUSH_DURATION_STEPS,
        )
    task = parkour.ForwardProgress(
        walker,
        arena,
        reward,
        pose_termination=pose_termination,
        physics_timestep=physics_timestep,
        control_timestep=control_timestep,
        **pushes,
    )
    return _environment(task, seed)


# Probe courses (Heess et al. 2017, §4): "test courses with (a) statistics
# rather different from the training terrains and (b) unobserved perturbations
# in the form of see-saws and random forces applied to the Humanoid's torso".
# Evaluation only: a policy trained on the parkour courses is scored on them.
# The paper gives no numbers; these are ours. Training hurdles are 0.1-0.5 m
# high and gaps 0.3-1.2 m long (the arena's defaults); the probes go beyond.
_PROBES = ("high_hurdles", "wide_gaps", "seesaws", "pushes")
_PROBE_HURDLE_HEIGHT_M = (0.5, 0.7)
_PROBE_GAP_M = (1.2, 1.8)
# Pushes: a push every 1-3 s (control steps of 25 ms) lasting 0.1 s; the force
# scales with the body's mass (planar walker and humanoid about 30-40 kg,
# quadruped 12 kg), an impulse of 0.2-0.5 m/s of the whole body.
_PROBE_PUSH_INTERVAL_STEPS = (40, 120)
_PROBE_PUSH_DURATION_STEPS = 4
_PROBE_PUSH_FORCE_N = {
    "walker": (80.0, 160.0),
    "quadruped": (30.0, 60.0),
    "humanoid": (100.0, 200.0),
}
_PROBE_WALKERS = ("walker", "quadruped", "humanoid")


def _probe_course(probe, planar):
    """The probe course `probe` (see `_PROBES`)."""
    from composer_tasks.arenas import parkour as courses

    if probe == "high_hurdles":
        segments = [courses.Hurdles(height=_PROBE_HURDLE_HEIGHT_M)]
    elif probe == "wide_gaps":
        segments = [courses.Gaps(gap=_PROBE_GAP_M)]
    elif probe == "seesaws":
        segments = [courses.SeeSaws()]
    else:
        return _parkour_course("mixed", planar)
    return courses.ParkourCourse(segments=segments, mode="mixed")


# Half-length (m) of the open plane's floor: 30 s at the planar walker's fastest
# runs (under 5 m/s) stays far inside it.
_OPEN_PLANE_HALF_LENGTH_M = 250.0


def _open_plane(walker_name, seed):
    """Heess et al. 2017's open-plane benchmark task (§2.1, Figure 1) for the planar
    walker: its parkour reward and termination (§3.2, appendix B.2) on a flat floor."""
    from composer_tasks.arenas import Floor
    from composer_tasks.tasks import parkour

    walker = _make_walker(walker_name)
    physics_timestep, control_timestep = _TIMESTEPS_S[walker_name]
    task = parkour.ForwardProgress(
        walker,
        Floor(size=(_OPEN_PLANE_HALF_LENGTH_M, _OPEN_PLANE_HALF_LENGTH_M)),
        parkour.PlanarWalkerReward(),
        pose_termination=parkour.TorsoPoseTermination(walker),
        physics_timestep=physics_timestep,
        control_timestep=control_timestep,
    )
    return _environment(task, seed)


def _maze_forage(walker_name, seed):
    from composer_tasks.arenas import mazes
    from composer_tasks.tasks import random_goal_maze

    # dm_control's cmu_humanoid_maze_forage: 11 x 11 cells of 3 m, up to 4 rooms
    # of 4-5 cells, one spawn and three spheres of radius 0.4 m per room.
    arena = mazes.RandomMazeWithTargets(
        x_cells=11,
        y_cells=11,
        xy_scale=3.0,
        max_rooms=4,
        room_min_size=4,
        room_max_size=5,
        spawns_per_room=1,
        targets_per_room=3,
        target_radius=0.4,
        # One compiled model with a fixed pool of targets: no recompiles, batchable,
        # and the observed targets keep their shape.
        pooled=True,
    )
    physics_timestep, control_timestep = _TIMESTEPS_S[walker_name]
    task = random_goal_maze.ManyGoalsMaze(
        _make_walker(walker_name),
        arena,
        target_reward_scale=50.0,
        # The targets' egocentric positions, so that the agent forages without a camera.
        observe_targets=True,
        enable_egocentric_camera=False,
        physics_timestep=physics_timestep,
        control_timestep=control_timestep,
    )
    return _environment(task, seed)


def _go_to_target(walker_name, seed):
    from composer_tasks.arenas import Floor
    from composer_tasks.tasks import go_to_target

    physics_timestep, control_timestep = _TIMESTEPS_S[walker_name]
    task = go_to_target.GoToTarget(
        _make_walker(walker_name),
        Floor(),
        physics_timestep=physics_timestep,
        control_timestep=control_timestep,
    )
    return _environment(task, seed)


def _escape_bowl(walker_name, seed):
    from composer_tasks.tasks import escape

    physics_timestep, control_timestep = _TIMESTEPS_S[walker_name]
    walker = _make_walker(walker_name)
    task = escape.Escape(
        walker,
        escape.Bowl(),
        physics_timestep=physics_timestep,
        control_timestep=control_timestep,
    )
    # Escape observes the egocentric camera as dm_control's does; these benchmark
    # environments keep to proprioception (no rendering per step).
    walker.observables.egocentric_camera.enabled = False
    return _environment(task, seed, time_limit=20.0)


# Liang et al. 2018 (§4.1): "an episode terminates if the agents fall below a
# threshold"; the paper gives no heights. Roboschool's alive heights of its ant
# (0.26 m) and humanoid (0.78 m) are used, for the root body above the ground.
_FALL_HEIGHT_M = {"quadruped": 0.26, "humanoid": 0.78}
# R_alive (Liang et al. 2018, Appendix C): 0.5 for the Ant, 2 for humanoids.
_ALIVE_BONUS = {"quadruped": 0.5, "humanoid": 2.0}
# HFH: "allow the agents to fall below a threshold for ... 160 frames".
_FLAGRUN_FALL_ALLOWANCE_FRAMES = 160
_GPU_TASK_WALKERS = {
    "ant_run": "quadruped",
    "humanoid_run": "humanoid",
    "humanoid_flagrun_harder": "humanoid",
    "humanoid_flagrun_harder_terrain": "humanoid",
}


def _gpu_task(name, seed):
    """The tasks of Liang et al. 2018 §4.1 (composer_tasks/tasks/flagrun.py)."""
    from composer_tasks.arenas import Floor
    from composer_tasks.arenas import obstacles
    from composer_tasks.tasks import flagrun

    walker_name = _GPU_TASK_WALKERS[name]
    flagrun_task = name.startswith("humanoid_flagrun")
    terrain = name.endswith("_terrain")
    arena = obstacles.ObstacleField() if terrain else Floor(size=(250.0, 250.0))
    task = flagrun.TargetRun(
        _make_walker(walker_name),
        arena,
        flagrun.LiangReward(_ALIVE_BONUS[walker_name]),
        fall_height_m=_FALL_HEIGHT_M[walker_name],
        fall_allowance_frames=_FLAGRUN_FALL_ALLOWANCE_FRAMES if flagrun_task else 0,
        moving_target=flagrun_task,
        height_map=terrain,
    )
    return _environment(task, seed, time_limit=flagrun.EPISODE_FRAMES * flagrun.CONTROL_TIMESTEP_S)


def _registry():
    entries = collections.OrderedDict()
    for walker_name in _WALKER_NAMES:
        courses = ("walls", "gaps") if walker_name in _FREE_WALKERS else ("gaps",)
        for course in courses:
            entries[f"{walker_name}_run_{course}"] = _Entry(
                functools.partial(_run_corridor, walker_name, course), True
            )
    for walker_name in _WALKER_NAMES:
        for course in _PARKOUR_COURSES:
            if course == "slalom" and walker_name == "walker":
                continue
            name = f"{walker_name}_parkour_{course}"
            if walker_name == "cmu_humanoid":
                entries[name] = _Entry(functools.partial(_parkour, walker_name, course, True), True)
                continue
            entries[name] = _Entry(functools.partial(_parkour, walker_name, course, False), False)
            entries[f"{name}_unit"] = _Entry(
                functools.partial(_parkour, walker_name, course, True), True
            )
    entries["walker_open_plane"] = _Entry(functools.partial(_open_plane, "walker"), False)
    for walker_name in _FREE_WALKERS:
        entries[f"{walker_name}_maze_forage"] = _Entry(
            functools.partial(_maze_forage, walker_name), False
        )
        entries[f"{walker_name}_go_to_target"] = _Entry(
            functools.partial(_go_to_target, walker_name), True
        )
        entries[f"{walker_name}_escape_bowl"] = _Entry(
            functools.partial(_escape_bowl, walker_name), True
        )
    for name in _GPU_TASK_WALKERS:
        entries[name] = _Entry(functools.partial(_gpu_task, name), False)
    for walker_name in _PROBE_WALKERS:
        for probe in _PROBES:
            entries[f"{walker_name}_probe_{probe}"] = _Entry(
                functools.partial(_parkour, walker_name, None, False, probe=probe), False
            )
    return entries


_REGISTRY = _registry()

ALL = tuple(_REGISTRY)
BENCHMARKING = tuple(name for name, entry in _REGISTRY.items() if entry.unit_interval)
# Probe courses: for evaluating policies trained elsewhere, never for training.
EVALUATION_ONLY = tuple(name for name in ALL if "_probe_" in name)


def load_batch(
    name, num_envs, seed=0, num_threads=0, backend="cpu", device=None, clone_copies=True
):
    """`num_envs` copies of environment `name` stepped together
    (`composer_tasks.batch.BatchEnvironment`): copy i is bit-identical to
    `load(name, seed=batch.copy_seed(seed, i))` under the same actions. `backend`,
    `device` and `clone_copies` are `BatchEnvironment`'s ("warp": MuJoCo Warp,
    vectorised tasks only; `clone_copies=False` calls the factory for every copy).

    Raises:
      ValueError: for an unknown name (listing the valid ones) or a bad count.
    """
    from composer_tasks import batch

    if name not in _REGISTRY:
        raise ValueError(f"unknown locomotion environment {name!r}; valid names: {list(ALL)}")
    return batch.BatchEnvironment.from_environments(
        _REGISTRY[name].factory,
        num_envs,
        num_threads=num_threads,
        seed=seed,
        backend=backend,
        device=device,
        clone_copies=clone_copies,
    )


def load(name, seed=None):
    """Returns the `composer.Environment` called `name`.

    Args:
      name: one of `ALL`.
      seed: an int, a `np.random.RandomState` or None; all the environment's
        randomness (layouts, spawns, noise) flows from it.

    Raises:
      ValueError: for an unknown name, listing the valid ones.
    """
    if name not in _REGISTRY:
        raise ValueError(f"unknown locomotion environment {name!r}; valid names: {list(ALL)}")
    return _REGISTRY[name].factory(seed)


def register_environments():
    """Registers every name of `ALL` with `composer_tasks.registry` (setup.py's
    entry point)."""
    from composer_tasks import registry

    for name in ALL:
        registry.register(name, functools.partial(load, name), collection="locomotion")
