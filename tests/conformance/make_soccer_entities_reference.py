"""Records the published soccer entities' facts (dm-control 1.0.50) as JSON.

Run with the reference virtual environment's interpreter, never the project's:

    benchmarks/reference_envs/make_dm_control_venv.sh
    MUJOCO_GL=disable .venvs/dm_control/bin/python \
        tests/conformance/make_soccer_entities_reference.py

It imports nothing of this project. It writes
`tests/conformance/reference/soccer_entities.json`, which
`tests/test_soccer_entities.py` compares the re-authored BoxHead, Ant, soccer ball
and pitch with:

* "walkers": per walker type (BOXHEAD, ANT), the compiled elements of player
  "home0" of `soccer.load(team_size=1, walker_type=...)`, names without the
  "home0/" prefix: bodies (mass, diagonal inertia), geoms (type, size, friction,
  condim, contype, conaffinity, rgba), joints (type, axis, range, limited,
  damping, armature, stiffness, springref), actuators (gear, ctrlrange, gain,
  bias and dynamics types and parameters), sensors (type, dim), the model order
  of bodies, joints and sensors; the action spec (with the actuator names);
  the walker's own observables (names and shapes, as the walker builds them
  before any task adds to them, in a soccer match of one per team);
* "agent_observations": per walker type and team size (1, 2), the per-agent
  observation names and shapes of `soccer.load` (the task helper's specs);
* "balls": `SoccerBall()` and `regulation_soccer_ball()` geom facts;
* "pitch": `Pitch()` (default size) compiled: ground, walls, goal posts, goal and
  field detection regions, sites (hoarding, detectors), lights, camera,
  statistic; the same with `field_box=True`, with hoarding colour scheme 2, and
  for a `RandomizedPitch` (32, 24) to (48, 36) with a field box whose size ratio
  is fixed at 0.25 (after its `initialize_episode_mjcf`);
* "randomized_pitch": per walker type and team size, the (min, max) pitch size
  `soccer.load` draws from and the goal size at both ends;
* "rollouts": short simulations on a default `Pitch` at the soccer timesteps: a
  BoxHead rolling, steering and kicking (head pose and joints per control step),
  an Ant settling (torso height) then driving each actuator in turn (torso
  position and joint angles per control step), and each ball dropped from 1 m (centre height).
"""

import argparse
import importlib.metadata
import json
import os

import mujoco
import numpy as np
from dm_control import mjcf
from dm_control.locomotion import soccer
from dm_control.locomotion.soccer import pitch as pitch_module

_OUTPUT = os.path.join(os.path.dirname(__file__), "reference", "soccer_entities.json")
_PREFIX = "home0/"


def _list(value):
    return np.asarray(value, dtype=np.float64).tolist()


def _named(model, kind, index):
    return mujoco.mj_id2name(model, kind, index) or ""


def _walker_elements(model, prefix):
    obj = mujoco.mjtObj
    bodies = {}
    for i in range(model.nbody):
        name = _named(model, obj.mjOBJ_BODY, i)
        if name.startswith(prefix) and name != prefix:
            bodies[name[len(prefix) :]] = dict(
                mass=float(model.body_mass[i]), inertia=_list(model.body_inertia[i])
            )
    geoms = {}
    for i in range(model.ngeom):
        name = _named(model, obj.mjOBJ_GEOM, i)
        if name.startswith(prefix):
            geoms[name[len(prefix) :]] = dict(
                type=int(model.geom_type[i]),
                size=_list(model.geom_size[i]),
                friction=_list(model.geom_friction[i]),
                condim=int(model.geom_condim[i]),
                contype=int(model.geom_contype[i]),
                conaffinity=int(model.geom_conaffinity[i]),
                rgba=_list(model.geom_rgba[i]),
                group=int(model.geom_group[i]),
            )
    joints = {}
    for i in range(model.njnt):
        name = _named(model, obj.mjOBJ_JOINT, i)
        if name.startswith(prefix):
            dof = model.jnt_dofadr[i]
            joints[name[len(prefix) :]] = dict(
                type=int(model.jnt_type[i]),
                axis=_list(model.jnt_axis[i]),
                range=_list(model.jnt_range[i]),
                limited=bool(model.jnt_limited[i]),
                damping=float(model.dof_damping[dof]),
                armature=float(model.dof_armature[dof]),
                stiffness=float(model.jnt_stiffness[i]),
                springref=float(model.qpos_spring[model.jnt_qposadr[i]]),
            )
    actuators = {}
    for i in range(model.nu):
        name = _named(model, obj.mjOBJ_ACTUATOR, i)
        if name.startswith(prefix):
            actuators[name[len(prefix) :]] = dict(
                joint=_named(model, obj.mjOBJ_JOINT, model.actuator_trnid[i, 0])[len(prefix) :],
                gear=float(model.actuator_gear[i, 0]),
                ctrlrange=_list(model.actuator_ctrlrange[i]),
                ctrllimited=bool(model.actuator_ctrllimited[i]),
                gaintype=int(model.actuator_gaintype[i]),
                gainprm=_list(model.actuator_gainprm[i, :3]),
                biastype=int(model.actuator_biastype[i]),
                biasprm=_list(model.actuator_biasprm[i, :3]),
                dyntype=int(model.actuator_dyntype[i]),
            )
    sensors = {}
    for i in range(model.nsensor):
        name = _named(model, obj.mjOBJ_SENSOR, i)
        if name.startswith(prefix):
            sensors[name[len(prefix) :]] = dict(
                type=int(model.sensor_type[i]), dim=int(model.sensor_dim[i])
            )
    cameras = {}
    for i in range(model.ncam):
        name = _named(model, obj.mjOBJ_CAMERA, i)
        if name.startswith(prefix):
            cameras[name[len(prefix) :]] = dict(fovy=float(model.cam_fovy[i]))
    # JSON objects are written with sorted keys: the model order is kept here.
    order = dict(bodies=list(bodies), joints=list(joints), sensors=list(sensors))
    return dict(
        bodies=bodies,
        geoms=geoms,
        joints=joints,
        actuators=actuators,
        sensors=sensors,
        cameras=cameras,
        order=order,
    )


def _spec_shapes(spec):
    return {name: list(value.shape) for name, value in spec.items()}


def _walkers():
    result = {}
    for walker_type in (soccer.WalkerType.BOXHEAD, soccer.WalkerType.ANT):
        env = soccer.load(team_size=1, walker_type=walker_type, random_state=0)
        env.reset()
        walker = env.task.players[0].walker
        facts = _walker_elements(env.physics.model.ptr, _PREFIX)
        action_spec = env.action_spec()[0]
        facts["action_spec"] = dict(
            shape=list(action_spec.shape),
            minimum=_list(action_spec.minimum),
            maximum=_list(action_spec.maximum),
            names=action_spec.name.split("\t"),
        )
        facts["marker_geoms"] = [geom.name for geom in walker.marker_geoms]
        facts["marker_rgba"] = _list(env.physics.bind(walker.marker_geoms[0]).rgba)
        facts["root_body"] = walker.root_body.name
        facts["end_effectors"] = [body.name for body in walker.end_effectors]
        facts["observable_joints"] = [joint.name for joint in walker.observable_joints]
        facts["ground_contact_geoms"] = [geom.name for geom in walker.ground_contact_geoms]
        facts["egocentric_camera"] = walker.egocentric_camera.name
        # A fresh walker's own observables, evaluated on a model of its own.
        fresh = (
            soccer.BoxHead(name="walker", marker_rgba=soccer.RGBA_BLUE, walker_id=0)
            if walker_type == soccer.WalkerType.BOXHEAD
            else soccer.walkers.Ant(name="walker", marker_rgba=soccer.RGBA_BLUE)
        )
        arena = soccer.Pitch()
        fresh.create_root_joints(arena.attach(fresh))
        names = sorted(fresh.observables.as_dict(fully_qualified=False))
        physics = mjcf.Physics.from_mjcf_model(arena.mjcf_model)
        shapes = {}
        for name in names:
            if name == "egocentric_camera":
                continue
            value = fresh.observables.as_dict(fully_qualified=False)[name](physics)
            shapes[name] = list(np.shape(value))
        facts["walker_observables"] = shapes
        facts["standalone_total_mass"] = float(
            sum(physics.bind(fresh.mjcf_model.find_all("body")).mass)
        )
        result[walker_type.name] = facts
    return result


def _agent_observations():
    result = {}
    for walker_type in (soccer.WalkerType.BOXHEAD, soccer.WalkerType.ANT):
        for team_size in (1, 2):
            env = soccer.load(team_size=team_size, walker_type=walker_type, random_state=0)
            result[f"{walker_type.name}-{team_size}"] = [
                _spec_shapes(spec) for spec in env.observation_spec()
            ]
    return result


def _ball_facts(ball):
    arena = soccer.Pitch()
    arena.add_free_entity(ball)
    physics = mjcf.Physics.from_mjcf_model(arena.mjcf_model)
    geom = physics.bind(ball.geom)
    body_id = physics.model.geom_bodyid[geom.element_id]
    return dict(
        type=int(geom.type),
        size=_list(geom.size),
        mass=float(physics.model.body_mass[body_id]),
        inertia=_list(physics.model.body_inertia[body_id]),
        friction=_list(geom.friction),
        solref=_list(geom.solref),
        solimp=_list(geom.solimp),
        condim=int(geom.condim),
        priority=int(geom.priority),
        pos=_list(geom.pos),
        contype=int(geom.contype),
        conaffinity=int(geom.conaffinity),
        cameras={
            camera.name: dict(pos=_list(camera.pos), fovy=float(camera.fovy))
            for camera in ball.mjcf_model.find_all("camera")
        },
    )


def _detector(detector):
    return dict(lower=_list(detector.lower), upper=_list(detector.upper), mid=_list(detector.mid))


def _pitch_facts(randomized=False, **kwargs):
    if randomized:
        arena = soccer.RandomizedPitch(**kwargs)
        arena.initialize_episode_mjcf(np.random.RandomState(0))
    else:
        arena = soccer.Pitch(**kwargs)
    physics = mjcf.Physics.from_mjcf_model(arena.mjcf_model)
    model = physics.model.ptr
    geoms = []
    for i in range(model.ngeom):
        geoms.append(
            dict(
                name=_named(model, mujoco.mjtObj.mjOBJ_GEOM, i),
                type=int(model.geom_type[i]),
                size=_list(model.geom_size[i]),
                pos=_list(physics.data.geom_xpos[i]),
                contype=int(model.geom_contype[i]),
                conaffinity=int(model.geom_conaffinity[i]),
                rgba=_list(model.geom_rgba[i]),
            )
        )
    physics.forward()
    return dict(
        size=_list(arena.size),
        geoms=geoms,
        home_goal=_detector(arena.home_goal),
        away_goal=_detector(arena.away_goal),
        field=_detector(arena.field),
        top_camera_fovy=float(physics.model.cam_fovy[physics.model.name2id("top_down", "camera")]),
        top_camera_pos=_list(physics.model.cam_pos[physics.model.name2id("top_down", "camera")]),
        extent=float(model.stat.extent),
        center=_list(model.stat.center),
        znear=float(model.vis.map.znear),
        zfar=float(model.vis.map.zfar),
        timestep=float(model.opt.timestep),
        nlight=int(model.nlight),
        light_pos=_list(model.light_pos),
        light_dir=_list(model.light_dir),
        nsite=int(model.nsite),
        sites=[
            dict(
                name=_named(model, mujoco.mjtObj.mjOBJ_SITE, i),
                type=int(model.site_type[i]),
                pos=_list(physics.data.site_xpos[i]),
                size=_list(model.site_size[i]),
                rgba=_list(model.site_rgba[i]),
                group=int(model.site_group[i]),
            )
            for i in range(model.nsite)
        ],
    )


def _randomized_pitch():
    result = {}
    for walker_type in (
        soccer.WalkerType.BOXHEAD,
        soccer.WalkerType.ANT,
        soccer.WalkerType.HUMANOID,
    ):
        for team_size in (1, 2):
            if walker_type == soccer.WalkerType.HUMANOID:
                area = 2 * team_size
                min_size = soccer._area_to_size(soccer.MINI_FOOTBALL_MIN_AREA_PER_HUMANOID * area)
                max_size = soccer._area_to_size(soccer.MINI_FOOTBALL_MAX_AREA_PER_HUMANOID * area)
                goal_size = soccer.MINI_FOOTBALL_GOAL_SIZE
            else:
                min_size, max_size, goal_size = (32, 24), (48, 36), None
            goals = []
            for size in (min_size, max_size):
                arena = soccer.Pitch(size=tuple(size), goal_size=goal_size)
                goals.append(
                    dict(
                        pitch_size=_list(size),
                        home_goal=_detector(arena.home_goal),
                        away_goal=_detector(arena.away_goal),
                        field=_detector(arena.field),
                    )
                )
            result[f"{walker_type.name}-{team_size}"] = dict(
                min_size=_list(min_size),
                max_size=_list(max_size),
                goal_size=None if goal_size is None else _list(goal_size),
                at_bounds=goals,
            )
    return result


# Rollouts: control steps of 0.025 s with 5 physics steps of 0.005 s (the soccer
# task's timesteps), a BoxHead at the origin with its joints at zero.
_ROLLOUT_ACTIONS = [(1.0, 0.0, 0.0)] * 20 + [(0.0, 1.0, 0.0)] * 10 + [(0.0, 0.0, 1.0)] * 10
_SUBSTEPS = 5
# The Ant, after settling for 40 steps: each actuator in turn pushed to +1 then -1.
_ANT_ACTIONS = [
    tuple(np.eye(8)[index // 4] * (1.0 if index % 4 < 2 else -1.0)) for index in range(32)
]


def _rollouts():
    arena = soccer.Pitch()
    walker = soccer.BoxHead(name="walker")
    walker.create_root_joints(arena.attach(walker))
    physics = mjcf.Physics.from_mjcf_model(arena.mjcf_model)
    physics.model.opt.timestep = 0.005
    joints = physics.bind(walker.mjcf_model.find_all("joint"))
    head = physics.bind(walker.root_body)
    boxhead_states = []
    for action in _ROLLOUT_ACTIONS:
        physics.bind(walker.actuators).ctrl = action
        for _ in range(_SUBSTEPS):
            physics.step()
        boxhead_states.append(
            dict(
                head_xpos=_list(head.xpos),
                head_xmat=_list(head.xmat),
                joint_qpos=_list(joints.qpos),
            )
        )
    arena = soccer.Pitch()
    ant = soccer.walkers.Ant(name="walker")
    ant.create_root_joints(arena.attach(ant))
    physics = mjcf.Physics.from_mjcf_model(arena.mjcf_model)
    physics.model.opt.timestep = 0.005
    torso = physics.bind(ant.root_body)
    ant_heights = []
    for _ in range(40):
        for _ in range(_SUBSTEPS):
            physics.step()
        ant_heights.append(float(torso.xpos[2]))
    ant_joints = physics.bind([actuator.joint for actuator in ant.actuators])
    ant_states = []
    for action in _ANT_ACTIONS:
        physics.bind(ant.actuators).ctrl = action
        for _ in range(_SUBSTEPS):
            physics.step()
        ant_states.append(dict(torso_xpos=_list(torso.xpos), joint_qpos=_list(ant_joints.qpos)))
    balls = {}
    for kind, ball in (
        ("default", soccer.SoccerBall()),
        ("regulation", soccer.regulation_soccer_ball()),
    ):
        arena = soccer.Pitch()
        arena.add_free_entity(ball)
        physics = mjcf.Physics.from_mjcf_model(arena.mjcf_model)
        physics.model.opt.timestep = 0.005
        ball.set_pose(physics, [0.0, 0.0, 1.0])
        heights = []
        for _ in range(80):
            for _ in range(_SUBSTEPS):
                physics.step()
            heights.append(float(physics.bind(ball.geom).xpos[2]))
        balls[kind] = heights
    return dict(
        boxhead_actions=[list(action) for action in _ROLLOUT_ACTIONS],
        boxhead_joint_names=[joint.name for joint in walker.mjcf_model.find_all("joint")],
        boxhead=boxhead_states,
        ant_torso_height=ant_heights,
        ant_actions=[list(action) for action in _ANT_ACTIONS],
        ant=ant_states,
        ball_drop_height=balls,
    )


# A RandomizedPitch whose size ratio is fixed (0.25 for both axes), with a field box.
_RANDOMIZED_PITCH = dict(
    min_size=(32, 24), max_size=(48, 36), field_box=True, randomizer=lambda random_state: 0.25
)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", default=_OUTPUT)
    args = parser.parse_args()
    reference = dict(
        versions=dict(
            dm_control=importlib.metadata.version("dm-control"), mujoco=mujoco.__version__
        ),
        walkers=_walkers(),
        agent_observations=_agent_observations(),
        balls=dict(
            default=_ball_facts(soccer.SoccerBall()),
            regulation=_ball_facts(soccer.regulation_soccer_ball()),
        ),
        pitch=dict(
            default=_pitch_facts(),
            field_box=_pitch_facts(field_box=True),
            hoarding_scheme_2=_pitch_facts(hoarding_color_scheme_id=2),
            randomized=_pitch_facts(randomized=True, **_RANDOMIZED_PITCH),
        ),
        randomized_pitch=_randomized_pitch(),
        rollouts=_rollouts(),
        goal_constants=dict(mini_football_goal_size=_list(pitch_module.MINI_FOOTBALL_GOAL_SIZE)),
    )
    os.makedirs(os.path.dirname(args.output), exist_ok=True)
    with open(args.output, "w") as stream:
        json.dump(reference, stream, indent=1, sort_keys=True)
        stream.write("\n")
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
