"""dm_control's `locomotion.examples` factories on both sides: each environment's
specs, timesteps and time limit, and its first observations along a seeded random
policy; and the "outdoor_natural" aesthetic of the arenas they use (the gaps
corridor and the random maze), which the rodent examples ask for.

Egocentric camera images are compared by shape and dtype only (the textures here
are this project's own pictures); the rat's observations by shape only (its body
is primitive shapes here, meshes there: docs/porting_from_dm_control.md).
"""

import pytest

from tests.differential.surface_cases import PRELUDE, assert_case

_MARK = pytest.mark

PROGRAM_HEAD = (
    PRELUDE
    + r"""
import numpy as np
from dm_control import mjcf
from dm_control.composer.variation import distributions
from dm_control.locomotion.arenas import corridors, labmaze_textures, mazes
from dm_control.locomotion.examples import basic_cmu_2019, basic_rodent_2020


def spec_of(spec):
    return {name: [list(s.shape), str(s.dtype)] for name, s in spec.items()}


def run_example(put, factory, compare_values, steps=3):
    env = factory(random_state=np.random.RandomState(99))
    put("observation_spec", spec_of(env.observation_spec()))
    action = env.action_spec()
    put("action_spec", [list(action.shape), str(action.dtype), action.minimum, action.maximum])
    put("timesteps", [env.physics.timestep(), env.control_timestep()])
    put("time_limit", env._time_limit)
    policy = np.random.RandomState(3)
    timestep = env.reset()
    for step in range(steps):
        for name, value in timestep.observation.items():
            if compare_values and "camera" not in name:
                put(f"observation{step}/{name}", value)
        if step and compare_values:
            put(f"reward{step}", [timestep.reward, timestep.discount])
        timestep = env.step(policy.uniform(action.minimum, action.maximum))

"""
)

PROGRAM_CASES = {
    "cmu_humanoid_go_to_target": r"""
@case("cmu_humanoid_go_to_target")
def _(put):
    run_example(put, basic_cmu_2019.cmu_humanoid_go_to_target, compare_values=True)
""",
    "cmu_humanoid_run_walls": r"""
@case("cmu_humanoid_run_walls")
def _(put):
    run_example(put, basic_cmu_2019.cmu_humanoid_run_walls, compare_values=True)
""",
    "cmu_humanoid_run_gaps": r"""
@case("cmu_humanoid_run_gaps")
def _(put):
    run_example(put, basic_cmu_2019.cmu_humanoid_run_gaps, compare_values=True)
""",
    "cmu_humanoid_maze_forage": r"""
@case("cmu_humanoid_maze_forage")
def _(put):
    run_example(put, basic_cmu_2019.cmu_humanoid_maze_forage, compare_values=False)
""",
    "cmu_humanoid_heterogeneous_forage": r"""
@case("cmu_humanoid_heterogeneous_forage")
def _(put):
    run_example(put, basic_cmu_2019.cmu_humanoid_heterogeneous_forage, compare_values=False)
""",
    "rodent_escape_bowl": r"""
@case("rodent_escape_bowl")
def _(put):
    run_example(put, basic_rodent_2020.rodent_escape_bowl, compare_values=False)
""",
    "rodent_run_gaps": r"""
@case("rodent_run_gaps")
def _(put):
    run_example(put, basic_rodent_2020.rodent_run_gaps, compare_values=False)
""",
    "rodent_maze_forage": r"""
@case("rodent_maze_forage")
def _(put):
    run_example(put, basic_rodent_2020.rodent_maze_forage, compare_values=False)
""",
    "rodent_two_touch": r"""
@case("rodent_two_touch")
def _(put):
    run_example(put, basic_rodent_2020.rodent_two_touch, compare_values=False)
""",
    "outdoor_gaps_corridor": r"""
@case("outdoor_gaps_corridor")
def _(put):
    arena = corridors.GapsCorridor(platform_length=distributions.Uniform(0.4, 0.8),
                                   gap_length=distributions.Uniform(0.05, 0.2),
                                   corridor_width=2, corridor_length=10,
                                   aesthetic="outdoor_natural")
    arena.regenerate(np.random.RandomState(5))
    physics = mjcf.Physics.from_mjcf_model(arena.mjcf_model)
    model = physics.model
    # (The corridor's own materials differ: here its hidden ground plane keeps the
    # default look's checker material, which dm_control's corridor does not have.)
    textures = [(model.id2name(i, "texture"), int(model.tex_type[i])) for i in range(model.ntex)]
    put("aesthetic_textures", [entry for entry in textures if "aesthetic" in entry[0]])
    put("skyboxes", int(np.sum(model.tex_type == 2)))
    materials = [(model.id2name(i, "material"), bool(model.mat_texuniform[i]))
                 for i in range(model.nmat)]
    put("aesthetic_materials", [entry for entry in materials if "aesthetic" in entry[0]])
    # Every platform (the ground geoms but the hidden plane) wears the style.
    put("platform_materials", sorted({
        model.id2name(int(np.ravel(physics.bind(geom).matid)[0]), "material")
        for geom in arena.ground_geoms[1:]}))
""",
    "outdoor_maze": r"""
@case("outdoor_maze")
def _(put):
    arena = mazes.RandomMazeWithTargets(
        x_cells=7, y_cells=7, xy_scale=0.5, z_height=0.3, max_rooms=2, room_min_size=3,
        room_max_size=3, spawns_per_room=1, targets_per_room=1,
        wall_textures=labmaze_textures.WallTextures(style="style_01"),
        aesthetic="outdoor_natural")
    physics = mjcf.Physics.from_mjcf_model(arena.mjcf_model)
    model = physics.model
    textures = [model.id2name(i, "texture") for i in range(model.ntex)]
    put("aesthetic_textures", [name for name in textures if "aesthetic" in name])
    put("skyboxes", int(np.sum(model.tex_type == 2)))
""",
}

CASES = [
    pytest.param(
        "cmu_humanoid_go_to_target",
        marks=_MARK.dm_control_api("locomotion.examples.basic_cmu_2019.cmu_humanoid_go_to_target"),
        id="cmu_humanoid_go_to_target",
    ),
    pytest.param(
        "rodent_two_touch",
        marks=_MARK.dm_control_api("locomotion.examples.basic_rodent_2020.rodent_two_touch"),
        id="rodent_two_touch",
    ),
    pytest.param(
        "outdoor_gaps_corridor",
        marks=_MARK.dm_control_api("locomotion.arenas.corridors.GapsCorridor"),
        id="outdoor_gaps_corridor",
    ),
    pytest.param(
        "outdoor_maze",
        marks=_MARK.dm_control_api("locomotion.arenas.mazes.RandomMazeWithTargets"),
        id="outdoor_maze",
    ),
]
SLOW_CASES = [
    pytest.param(
        "cmu_humanoid_run_walls",
        marks=_MARK.dm_control_api("locomotion.examples.basic_cmu_2019.cmu_humanoid_run_walls"),
        id="cmu_humanoid_run_walls",
    ),
    pytest.param(
        "cmu_humanoid_run_gaps",
        marks=_MARK.dm_control_api("locomotion.examples.basic_cmu_2019.cmu_humanoid_run_gaps"),
        id="cmu_humanoid_run_gaps",
    ),
    pytest.param(
        "cmu_humanoid_maze_forage",
        marks=_MARK.dm_control_api("locomotion.examples.basic_cmu_2019.cmu_humanoid_maze_forage"),
        id="cmu_humanoid_maze_forage",
    ),
    pytest.param(
        "cmu_humanoid_heterogeneous_forage",
        marks=_MARK.dm_control_api(
            "locomotion.examples.basic_cmu_2019.cmu_humanoid_heterogeneous_forage"
        ),
        id="cmu_humanoid_heterogeneous_forage",
    ),
    pytest.param(
        "rodent_escape_bowl",
        marks=_MARK.dm_control_api("locomotion.examples.basic_rodent_2020.rodent_escape_bowl"),
        id="rodent_escape_bowl",
    ),
    pytest.param(
        "rodent_run_gaps",
        marks=_MARK.dm_control_api("locomotion.examples.basic_rodent_2020.rodent_run_gaps"),
        id="rodent_run_gaps",
    ),
    pytest.param(
        "rodent_maze_forage",
        marks=_MARK.dm_control_api("locomotion.examples.basic_rodent_2020.rodent_maze_forage"),
        id="rodent_maze_forage",
    ),
]


def _program(cases):
    names = [case.values[0] for case in cases]
    return PROGRAM_HEAD + "".join(PROGRAM_CASES[name] for name in names)


def _compare(differential, cases, name):
    from composer_tasks import porting

    if porting.map_module("dm_control.locomotion.examples") is None:
        pytest.skip("composer_tasks.porting.MODULE_MAP does not map dm_control.locomotion.examples")
    return differential.compare(
        _program(cases),
        name,
        rtol=1e-5,
        atol=1e-6,
        timeout_s=600,
    )


@pytest.fixture(scope="module")
def examples_run(differential):
    return _compare(differential, CASES, "locomotion_examples")


@pytest.fixture(scope="module")
def slow_examples_run(differential):
    return _compare(differential, SLOW_CASES, "locomotion_examples_slow")


@pytest.mark.parametrize("case", CASES)
def test_locomotion_examples_match_dm_control(examples_run, case):
    assert_case(examples_run, case)


@pytest.mark.slow
@pytest.mark.parametrize("case", SLOW_CASES)
def test_locomotion_examples_slow_match_dm_control(slow_examples_run, case):
    assert_case(slow_examples_run, case)


TRACKING_PROGRAM = """
import numpy as np
from dm_control.locomotion.examples import cmu_2020_tracking
from dm_control.locomotion.mocap import cmu_mocap_data
from dm_control.locomotion.tasks.reference_pose import datasets, types
from dm_control.locomotion.walkers import cmu_humanoid

# Patched for this program only (the workers outlive it): the CMU 2020 data is a
# 480 MB download, so both sides read dm_control's test clips, named as the
# example's collection, on the body they were fitted to (V2019).
saved = (cmu_mocap_data.get_path_for_cmu, datasets.DATASETS["walk_tiny"],
         cmu_humanoid.CMUHumanoidPositionControlledV2020)
try:
    cmu_mocap_data.get_path_for_cmu = lambda version="2020": {path!r}
    datasets.DATASETS["walk_tiny"] = types.ClipCollection(ids=("cmuv2019_001", "cmuv2019_002"))
    cmu_humanoid.CMUHumanoidPositionControlledV2020 = cmu_humanoid.CMUHumanoidPositionControlled
    env = cmu_2020_tracking.cmu_humanoid_tracking(random_state=np.random.RandomState(5))
    record("spec", {{key: [list(value.shape), str(value.dtype)]
                    for key, value in env.observation_spec().items()}})
    record("actions", list(env.action_spec().shape))
    record("timing", [env.physics.timestep(), env.control_timestep(), env._time_limit])
    # The test clips are too short for the example's 10 steps plus 5 ahead: no
    # clip can start an episode, on either side.
    check("reset", env.reset)
finally:
    (cmu_mocap_data.get_path_for_cmu, datasets.DATASETS["walk_tiny"],
     cmu_humanoid.CMUHumanoidPositionControlledV2020) = saved
"""


@pytest.mark.dm_control_api("locomotion.examples.cmu_2020_tracking.cmu_humanoid_tracking")
def test_cmu_tracking_example_matches_dm_control(differential):
    import os

    from tests.differential import dm_control_tests, harness

    reference = harness.reference_python()
    path = os.path.join(
        dm_control_tests.dm_control_root(reference), "locomotion", "mocap", "test_trajectories.h5"
    )
    if not os.path.exists(path):
        pytest.skip(f"dm_control's clip file is missing: {path}")
    differential.assert_same(
        TRACKING_PROGRAM.format(path=path), "locomotion_examples_tracking", rtol=1e-5, atol=1e-6
    )


SEEDED_EXAMPLES_PROGRAM = """
import numpy as np
from dm_control.locomotion.examples import basic_cmu_2019

for name in ("cmu_humanoid_run_gaps", "cmu_humanoid_heterogeneous_forage"):
    # The mazes draw from numpy's global generator (their labmaze seed, textures).
    np.random.seed(0)
    env = getattr(basic_cmu_2019, name)(random_state=5)
    for episode in range(2):
        timestep = env.reset()
        model = env.physics.model
        key = f"{name}/episode{episode}"
        # nsensor aside: this project's walkers end with a centre-of-mass velocity
        # sensor of their own (docs/porting_from_dm_control.md).
        record(key + "/sizes", [model.nbody, model.ngeom, model.nsite, model.nmat, model.ntex,
                                model.nlight, model.ncam])
        record(key + "/qpos", env.physics.data.qpos)
        for observation, value in timestep.observation.items():
            if "camera" in observation:
                record(f"{key}/{observation}/shape", np.shape(value))
            else:
                record(f"{key}/{observation}", value)
        spec = env.action_spec()
        policy = np.random.RandomState(1)
        record(key + "/rewards", [env.step(policy.uniform(spec.minimum, spec.maximum)).reward
                                  for _ in range(3)])
"""


@pytest.mark.dm_control_api(
    "locomotion.examples.basic_cmu_2019.cmu_humanoid_run_gaps",
    "locomotion.examples.basic_cmu_2019.cmu_humanoid_heterogeneous_forage",
)
def test_seeded_corridor_and_maze_examples_match_dm_control(differential):
    # With numpy's global generator seeded, dm_control's gaps corridor and
    # heterogeneous forage maze (rebuilt every episode there and here): the models'
    # structure, the walker's spawn, every observation but the camera's pixels and the
    # first rewards, over two episodes.
    differential.assert_same(
        SEEDED_EXAMPLES_PROGRAM, "seeded_examples", rtol=1e-6, atol=1e-8, timeout_s=600
    )
