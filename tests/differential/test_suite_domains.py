"""The Control Suite's domain modules used as dm_control's users use them, against
dm-control 1.0.50: a physics from `get_model_and_assets()` (or `make_model`) and a
task constructed with `random`, run by `control.Environment(physics, task)`; the
domains' named physics quantities; the task factories and `SUITE` registries; and
suite tasks subclassed in dm_control's form (callbacks taking `physics` only,
`before_step(action, physics)`, `get_termination`).

Which names each program covers comes from the reference surface
(`dm_control_api_surface.json`): every public name of the 19 domain modules.
"""

import json
import pathlib

import pytest

_SURFACE = json.loads(
    (pathlib.Path(__file__).with_name("dm_control_api_surface.json")).read_text()
)["rows"]
_DOMAINS = (
    "acrobot ball_in_cup cartpole cheetah dog finger fish hopper humanoid humanoid_CMU lqr "
    "manipulator pendulum point_mass quadruped reacher stacker swimmer walker"
).split()


def _names(predicate):
    return sorted(
        row["name"]
        for row in _SURFACE
        if row["name"].split(".")[:2][0] == "suite"
        and len(row["name"].split(".")) > 2
        and row["name"].split(".")[1] in _DOMAINS
        and predicate(row)
    )


def _is_physics_member(row):
    parts = row["name"].split(".")
    return parts[2] == "Physics"


def _is_factory_or_registry(row):
    parts = row["name"].split(".")
    return len(parts) == 3 and (
        parts[2] == "SUITE"
        or (row["kind"] == "function" and parts[2] not in ("get_model_and_assets", "make_model"))
    )


# The names each test covers, as literals (the coverage table reads them from the
# source); test_every_domain_name_is_exercised keeps them equal to the surface's.
PHYSICS_NAMES = (
    "suite.acrobot.Physics",
    "suite.acrobot.Physics.horizontal",
    "suite.acrobot.Physics.orientations",
    "suite.acrobot.Physics.to_target",
    "suite.acrobot.Physics.vertical",
    "suite.ball_in_cup.Physics",
    "suite.ball_in_cup.Physics.ball_to_target",
    "suite.ball_in_cup.Physics.in_target",
    "suite.cartpole.Physics",
    "suite.cartpole.Physics.angular_vel",
    "suite.cartpole.Physics.bounded_position",
    "suite.cartpole.Physics.cart_position",
    "suite.cartpole.Physics.pole_angle_cosine",
    "suite.cheetah.Physics",
    "suite.cheetah.Physics.speed",
    "suite.dog.Physics",
    "suite.dog.Physics.ball_in_head_frame",
    "suite.dog.Physics.ball_to_mouth_distance",
    "suite.dog.Physics.ball_to_target_distance",
    "suite.dog.Physics.center_of_mass_velocity",
    "suite.dog.Physics.com_forward_velocity",
    "suite.dog.Physics.foot_forces",
    "suite.dog.Physics.inertial_sensors",
    "suite.dog.Physics.joint_angles",
    "suite.dog.Physics.joint_velocities",
    "suite.dog.Physics.target_in_head_frame",
    "suite.dog.Physics.torso_com_velocity",
    "suite.dog.Physics.torso_pelvis_height",
    "suite.dog.Physics.touch_sensors",
    "suite.dog.Physics.upright",
    "suite.dog.Physics.z_projection",
    "suite.finger.Physics",
    "suite.finger.Physics.bounded_position",
    "suite.finger.Physics.dist_to_target",
    "suite.finger.Physics.hinge_velocity",
    "suite.finger.Physics.target_position",
    "suite.finger.Physics.tip_position",
    "suite.finger.Physics.to_target",
    "suite.finger.Physics.touch",
    "suite.finger.Physics.velocity",
    "suite.fish.Physics",
    "suite.fish.Physics.joint_angles",
    "suite.fish.Physics.joint_velocities",
    "suite.fish.Physics.mouth_to_target",
    "suite.fish.Physics.torso_velocity",
    "suite.fish.Physics.upright",
    "suite.hopper.Physics",
    "suite.hopper.Physics.height",
    "suite.hopper.Physics.speed",
    "suite.hopper.Physics.touch",
    "suite.humanoid.Physics",
    "suite.humanoid.Physics.center_of_mass_position",
    "suite.humanoid.Physics.center_of_mass_velocity",
    "suite.humanoid.Physics.extremities",
    "suite.humanoid.Physics.head_height",
    "suite.humanoid.Physics.joint_angles",
    "suite.humanoid.Physics.torso_upright",
    "suite.humanoid.Physics.torso_vertical_orientation",
    "suite.humanoid_CMU.Physics",
    "suite.humanoid_CMU.Physics.center_of_mass_position",
    "suite.humanoid_CMU.Physics.center_of_mass_velocity",
    "suite.humanoid_CMU.Physics.extremities",
    "suite.humanoid_CMU.Physics.head_height",
    "suite.humanoid_CMU.Physics.joint_angles",
    "suite.humanoid_CMU.Physics.thorax_upright",
    "suite.humanoid_CMU.Physics.torso_vertical_orientation",
    "suite.lqr.Physics",
    "suite.lqr.Physics.state_norm",
    "suite.manipulator.Physics",
    "suite.manipulator.Physics.body_2d_pose",
    "suite.manipulator.Physics.bounded_joint_pos",
    "suite.manipulator.Physics.joint_vel",
    "suite.manipulator.Physics.site_distance",
    "suite.manipulator.Physics.touch",
    "suite.pendulum.Physics",
    "suite.pendulum.Physics.angular_velocity",
    "suite.pendulum.Physics.pole_orientation",
    "suite.pendulum.Physics.pole_vertical",
    "suite.point_mass.Physics",
    "suite.point_mass.Physics.mass_to_target",
    "suite.point_mass.Physics.mass_to_target_dist",
    "suite.quadruped.Physics",
    "suite.quadruped.Physics.ball_state",
    "suite.quadruped.Physics.ball_to_target_distance",
    "suite.quadruped.Physics.egocentric_state",
    "suite.quadruped.Physics.force_torque",
    "suite.quadruped.Physics.imu",
    "suite.quadruped.Physics.origin",
    "suite.quadruped.Physics.origin_distance",
    "suite.quadruped.Physics.rangefinder",
    "suite.quadruped.Physics.self_to_ball_distance",
    "suite.quadruped.Physics.target_position",
    "suite.quadruped.Physics.toe_positions",
    "suite.quadruped.Physics.torso_upright",
    "suite.quadruped.Physics.torso_velocity",
    "suite.reacher.Physics",
    "suite.reacher.Physics.finger_to_target",
    "suite.reacher.Physics.finger_to_target_dist",
    "suite.stacker.Physics",
    "suite.stacker.Physics.body_2d_pose",
    "suite.stacker.Physics.bounded_joint_pos",
    "suite.stacker.Physics.joint_vel",
    "suite.stacker.Physics.site_distance",
    "suite.stacker.Physics.touch",
    "suite.swimmer.Physics",
    "suite.swimmer.Physics.body_velocities",
    "suite.swimmer.Physics.joints",
    "suite.swimmer.Physics.nose_to_target",
    "suite.swimmer.Physics.nose_to_target_dist",
    "suite.walker.Physics",
    "suite.walker.Physics.horizontal_velocity",
    "suite.walker.Physics.orientations",
    "suite.walker.Physics.torso_height",
    "suite.walker.Physics.torso_upright",
)
FACTORY_NAMES = (
    "suite.acrobot.SUITE",
    "suite.acrobot.swingup",
    "suite.acrobot.swingup_sparse",
    "suite.ball_in_cup.SUITE",
    "suite.ball_in_cup.catch",
    "suite.cartpole.SUITE",
    "suite.cartpole.balance",
    "suite.cartpole.balance_sparse",
    "suite.cartpole.swingup",
    "suite.cartpole.swingup_sparse",
    "suite.cartpole.three_poles",
    "suite.cartpole.two_poles",
    "suite.cheetah.SUITE",
    "suite.cheetah.run",
    "suite.dog.SUITE",
    "suite.dog.fetch",
    "suite.dog.run",
    "suite.dog.stand",
    "suite.dog.trot",
    "suite.dog.walk",
    "suite.finger.SUITE",
    "suite.finger.spin",
    "suite.finger.turn_easy",
    "suite.finger.turn_hard",
    "suite.fish.SUITE",
    "suite.fish.swim",
    "suite.fish.upright",
    "suite.hopper.SUITE",
    "suite.hopper.hop",
    "suite.hopper.stand",
    "suite.humanoid.SUITE",
    "suite.humanoid.run",
    "suite.humanoid.run_pure_state",
    "suite.humanoid.stand",
    "suite.humanoid.walk",
    "suite.humanoid_CMU.SUITE",
    "suite.humanoid_CMU.run",
    "suite.humanoid_CMU.stand",
    "suite.humanoid_CMU.walk",
    "suite.lqr.SUITE",
    "suite.lqr.lqr_2_1",
    "suite.lqr.lqr_6_2",
    "suite.manipulator.SUITE",
    "suite.manipulator.bring_ball",
    "suite.manipulator.bring_peg",
    "suite.manipulator.insert_ball",
    "suite.manipulator.insert_peg",
    "suite.pendulum.SUITE",
    "suite.pendulum.swingup",
    "suite.point_mass.SUITE",
    "suite.point_mass.easy",
    "suite.point_mass.hard",
    "suite.quadruped.SUITE",
    "suite.quadruped.escape",
    "suite.quadruped.fetch",
    "suite.quadruped.run",
    "suite.quadruped.walk",
    "suite.reacher.SUITE",
    "suite.reacher.easy",
    "suite.reacher.hard",
    "suite.stacker.SUITE",
    "suite.stacker.stack_2",
    "suite.stacker.stack_4",
    "suite.swimmer.SUITE",
    "suite.swimmer.swimmer",
    "suite.swimmer.swimmer15",
    "suite.swimmer.swimmer6",
    "suite.walker.SUITE",
    "suite.walker.run",
    "suite.walker.stand",
    "suite.walker.walk",
)
TASK_NAMES = (
    "suite.acrobot.Balance",
    "suite.acrobot.Balance.get_observation",
    "suite.acrobot.Balance.get_reward",
    "suite.acrobot.Balance.initialize_episode",
    "suite.acrobot.get_model_and_assets",
    "suite.ball_in_cup.BallInCup",
    "suite.ball_in_cup.BallInCup.get_observation",
    "suite.ball_in_cup.BallInCup.get_reward",
    "suite.ball_in_cup.BallInCup.initialize_episode",
    "suite.ball_in_cup.get_model_and_assets",
    "suite.cartpole.Balance",
    "suite.cartpole.Balance.get_observation",
    "suite.cartpole.Balance.get_reward",
    "suite.cartpole.Balance.initialize_episode",
    "suite.cartpole.get_model_and_assets",
    "suite.cheetah.Cheetah",
    "suite.cheetah.Cheetah.get_observation",
    "suite.cheetah.Cheetah.get_reward",
    "suite.cheetah.Cheetah.initialize_episode",
    "suite.cheetah.get_model_and_assets",
    "suite.dog.Fetch",
    "suite.dog.Fetch.get_observation_components",
    "suite.dog.Fetch.get_reward_factors",
    "suite.dog.Fetch.initialize_episode",
    "suite.dog.Move",
    "suite.dog.Move.get_reward_factors",
    "suite.dog.Stand",
    "suite.dog.Stand.get_observation",
    "suite.dog.Stand.get_observation_components",
    "suite.dog.Stand.get_reward",
    "suite.dog.Stand.get_reward_factors",
    "suite.dog.Stand.initialize_episode",
    "suite.dog.get_model_and_assets",
    "suite.dog.make_model",
    "suite.finger.Spin",
    "suite.finger.Spin.get_observation",
    "suite.finger.Spin.get_reward",
    "suite.finger.Spin.initialize_episode",
    "suite.finger.Turn",
    "suite.finger.Turn.get_observation",
    "suite.finger.Turn.get_reward",
    "suite.finger.Turn.initialize_episode",
    "suite.finger.get_model_and_assets",
    "suite.fish.Swim",
    "suite.fish.Swim.get_observation",
    "suite.fish.Swim.get_reward",
    "suite.fish.Swim.initialize_episode",
    "suite.fish.Upright",
    "suite.fish.Upright.get_observation",
    "suite.fish.Upright.get_reward",
    "suite.fish.Upright.initialize_episode",
    "suite.fish.get_model_and_assets",
    "suite.hopper.Hopper",
    "suite.hopper.Hopper.get_observation",
    "suite.hopper.Hopper.get_reward",
    "suite.hopper.Hopper.initialize_episode",
    "suite.hopper.get_model_and_assets",
    "suite.humanoid.Humanoid",
    "suite.humanoid.Humanoid.get_observation",
    "suite.humanoid.Humanoid.get_reward",
    "suite.humanoid.Humanoid.initialize_episode",
    "suite.humanoid.get_model_and_assets",
    "suite.humanoid_CMU.HumanoidCMU",
    "suite.humanoid_CMU.HumanoidCMU.get_observation",
    "suite.humanoid_CMU.HumanoidCMU.get_reward",
    "suite.humanoid_CMU.HumanoidCMU.initialize_episode",
    "suite.humanoid_CMU.get_model_and_assets",
    "suite.lqr.LQRLevel",
    "suite.lqr.LQRLevel.control_cost_coef",
    "suite.lqr.LQRLevel.get_evaluation",
    "suite.lqr.LQRLevel.get_observation",
    "suite.lqr.LQRLevel.get_reward",
    "suite.lqr.LQRLevel.get_termination",
    "suite.lqr.LQRLevel.initialize_episode",
    "suite.lqr.get_model_and_assets",
    "suite.manipulator.Bring",
    "suite.manipulator.Bring.get_observation",
    "suite.manipulator.Bring.get_reward",
    "suite.manipulator.Bring.initialize_episode",
    "suite.manipulator.make_model",
    "suite.pendulum.SwingUp",
    "suite.pendulum.SwingUp.get_observation",
    "suite.pendulum.SwingUp.get_reward",
    "suite.pendulum.SwingUp.initialize_episode",
    "suite.pendulum.get_model_and_assets",
    "suite.point_mass.PointMass",
    "suite.point_mass.PointMass.get_observation",
    "suite.point_mass.PointMass.get_reward",
    "suite.point_mass.PointMass.initialize_episode",
    "suite.point_mass.get_model_and_assets",
    "suite.quadruped.Escape",
    "suite.quadruped.Escape.get_observation",
    "suite.quadruped.Escape.get_reward",
    "suite.quadruped.Escape.initialize_episode",
    "suite.quadruped.Fetch",
    "suite.quadruped.Fetch.get_observation",
    "suite.quadruped.Fetch.get_reward",
    "suite.quadruped.Fetch.initialize_episode",
    "suite.quadruped.Move",
    "suite.quadruped.Move.get_observation",
    "suite.quadruped.Move.get_reward",
    "suite.quadruped.Move.initialize_episode",
    "suite.quadruped.make_model",
    "suite.reacher.Reacher",
    "suite.reacher.Reacher.get_observation",
    "suite.reacher.Reacher.get_reward",
    "suite.reacher.Reacher.initialize_episode",
    "suite.reacher.get_model_and_assets",
    "suite.stacker.Stack",
    "suite.stacker.Stack.get_observation",
    "suite.stacker.Stack.get_reward",
    "suite.stacker.Stack.initialize_episode",
    "suite.stacker.make_model",
    "suite.swimmer.Swimmer",
    "suite.swimmer.Swimmer.get_observation",
    "suite.swimmer.Swimmer.get_reward",
    "suite.swimmer.Swimmer.initialize_episode",
    "suite.swimmer.get_model_and_assets",
    "suite.walker.PlanarWalker",
    "suite.walker.PlanarWalker.get_observation",
    "suite.walker.PlanarWalker.get_reward",
    "suite.walker.PlanarWalker.initialize_episode",
    "suite.walker.get_model_and_assets",
)

# Which task of a domain's each physics method is read in (a ball or rangefinders
# exist only in some of a domain's models), with the arguments of those that take any.
_PHYSICS_TASKS = {
    "acrobot": ["swingup"],
    "ball_in_cup": ["catch"],
    "cartpole": ["swingup", "two_poles"],
    "cheetah": ["run"],
    "dog": ["fetch"],
    "finger": ["turn_hard"],
    "fish": ["swim"],
    "hopper": ["hop"],
    "humanoid": ["walk"],
    "humanoid_CMU": ["walk"],
    "lqr": ["lqr_2_1"],
    "manipulator": ["bring_ball", "insert_peg"],
    "pendulum": ["swingup"],
    "point_mass": ["easy"],
    "quadruped": ["fetch", "escape"],
    "reacher": ["hard"],
    "stacker": ["stack_2"],
    "swimmer": ["swimmer6"],
    "walker": ["walk"],
}
_METHOD_ARGUMENTS = {
    "body_2d_pose": "(BODIES,)",
    "bounded_joint_pos": "(['arm_root', 'arm_shoulder', 'arm_elbow', 'arm_wrist'],)",
    "joint_vel": "(['arm_root', 'arm_shoulder', 'arm_elbow', 'arm_wrist'],)",
    "site_distance": "('grasp', 'target' if 'target' in SITES else 'grasp')",
}

PHYSICS_PROGRAM_HEAD = """
import numpy as np
from dm_control import suite

def quantities(domain, task, methods):
    env = suite.load(domain, task, task_kwargs={"random": 11})
    env.reset()
    spec = env.action_spec()
    for i in range(6):
        env.step(0.5 * np.sin(np.arange(spec.shape[0]) + i) * np.minimum(spec.maximum, 1))
    physics = env.physics
    model = physics.model
    names = [model.id2name(i, "body") for i in range(model.nbody)]
    BODIES = [b for b in ("ball", "peg", "box0", "box1") if b in names]
    SITES = [model.id2name(i, "site") for i in range(model.nsite)]
    for method, arguments in methods:
        check(f"{domain}.{task}.{method}", getattr(physics, method), *eval(arguments))
"""

DM_FORM_PROGRAM = """
import collections
import numpy as np
from dm_control.rl import control
from dm_control.suite import (acrobot, ball_in_cup, cartpole, cheetah, common, dog, finger,
    fish, hopper, humanoid, humanoid_CMU, lqr, manipulator, pendulum, point_mass, quadruped,
    reacher, stacker, swimmer, walker)


def run(name, physics, task, steps=12, **kwargs):
    env = control.Environment(physics, task, **kwargs)
    timestep = env.reset()
    record(name + ".first", timestep.observation)
    record(name + ".observation_spec", env.observation_spec())
    record(name + ".action_spec", env.action_spec())
    spec = env.action_spec()
    high = np.minimum(spec.maximum, 1.0)
    total, count = 0.0, 0
    for i in range(steps):
        timestep = env.step(0.7 * high * np.cos(np.arange(spec.shape[0]) * 0.9 + 0.3 * i))
        total += timestep.reward
        count += 1
        if timestep.last():
            break
    record(name + ".last", timestep.observation)
    record(name + ".total", total)
    record(name + ".steps", count)
    record(name + ".reward_type", type(timestep.reward).__name__)
    record(name + ".discount", timestep.discount)
    record(name + ".substeps", round(env.control_timestep() / physics.timestep()))
    # dm_control's direct calls of a suite task's methods.
    record(name + ".get_reward", task.get_reward(physics))
    record(name + ".get_observation", task.get_observation(physics))
    check(name + ".get_termination", task.get_termination, physics)
    with physics.reset_context():
        task.initialize_episode(physics)
    record(name + ".initialize_episode", physics.data.qpos)
    record(name + ".random", task.random.uniform())
    return env


model, assets = acrobot.get_model_and_assets()
record("model_text_type", type(model).__name__)
record("assets", sorted(assets)[:3])
run("acrobot", acrobot.Physics.from_xml_string(model, assets), acrobot.Balance(sparse=False, random=1), time_limit=10)
run("ball_in_cup", ball_in_cup.Physics.from_xml_string(*ball_in_cup.get_model_and_assets()), ball_in_cup.BallInCup(random=2), control_timestep=0.02)
run("cartpole", cartpole.Physics.from_xml_string(*cartpole.get_model_and_assets()), cartpole.Balance(True, False, 3), time_limit=10)
run("cartpole_two", cartpole.Physics.from_xml_string(*cartpole.get_model_and_assets(num_poles=2)), cartpole.Balance(swing_up=True, sparse=True, random=3))
run("cheetah", cheetah.Physics.from_xml_string(*cheetah.get_model_and_assets()), cheetah.Cheetah(random=4), time_limit=10)
run("dog_stand", dog.Physics.from_xml_string(*dog.get_model_and_assets(15)), dog.Stand(random=5), steps=3, control_timestep=0.015)
run("dog_move", dog.Physics.from_xml_string(*dog.get_model_and_assets(45)), dog.Move(3, random=5, observe_reward_factors=True), steps=3, control_timestep=0.015)
record("dog.make_model", type(dog.make_model(10, remove_ball=False)).__name__)
fetch_physics = dog.Physics.from_xml_string(*dog.get_model_and_assets(remove_ball=False))
fetch = dog.Fetch(random=6, observe_reward_factors=True)
run("dog_fetch", fetch_physics, fetch, steps=3, control_timestep=0.015)
record("dog_fetch.components", fetch.get_observation_components(fetch_physics))
record("dog_fetch.factors", fetch.get_reward_factors(fetch_physics))
run("finger_turn", finger.Physics.from_xml_string(*finger.get_model_and_assets()), finger.Turn(target_radius=0.03, random=7), control_timestep=0.02)
run("finger_spin", finger.Physics.from_xml_string(*finger.get_model_and_assets()), finger.Spin(random=7))
run("fish_swim", fish.Physics.from_xml_string(*fish.get_model_and_assets()), fish.Swim(random=8), control_timestep=0.04)
run("fish_upright", fish.Physics.from_xml_string(*fish.get_model_and_assets()), fish.Upright(random=8))
run("hopper", hopper.Physics.from_xml_string(*hopper.get_model_and_assets()), hopper.Hopper(hopping=True, random=9), control_timestep=0.02)
run("humanoid", humanoid.Physics.from_xml_string(*humanoid.get_model_and_assets()), humanoid.Humanoid(move_speed=10, pure_state=False, random=10), steps=6, control_timestep=0.025)
run("humanoid_pure", humanoid.Physics.from_xml_string(*humanoid.get_model_and_assets()), humanoid.Humanoid(0, True, random=10), steps=4)
run("humanoid_CMU", humanoid_CMU.Physics.from_xml_string(*humanoid_CMU.get_model_and_assets()), humanoid_CMU.HumanoidCMU(move_speed=1, random=11), steps=4, control_timestep=0.02)
stream = np.random.RandomState(12)
lqr_physics = lqr.Physics.from_xml_string(*lqr.get_model_and_assets(2, 1, stream))
lqr_task = lqr.LQRLevel(0.1, random=stream)
run("lqr", lqr_physics, lqr_task)
record("lqr.control_cost_coef", lqr_task.control_cost_coef)
record("lqr.get_evaluation", lqr_task.get_evaluation(lqr_physics))
lqr_physics.data.qpos[:] = 0
lqr_physics.data.qvel[:] = 0
record("lqr.terminal", lqr_task.get_termination(lqr_physics))
record("lqr.evaluation_at_rest", lqr_task.get_evaluation(lqr_physics))
run("manipulator_ball", manipulator.Physics.from_xml_string(*manipulator.make_model(False, False)), manipulator.Bring(use_peg=False, insert=False, fully_observable=True, random=13), control_timestep=0.01)
run("manipulator_peg", manipulator.Physics.from_xml_string(*manipulator.make_model(True, True)), manipulator.Bring(True, True, False, random=13))
run("pendulum", pendulum.Physics.from_xml_string(*pendulum.get_model_and_assets()), pendulum.SwingUp(random=14))
run("point_mass", point_mass.Physics.from_xml_string(*point_mass.get_model_and_assets()), point_mass.PointMass(randomize_gains=True, random=15))
run("quadruped_move", quadruped.Physics.from_xml_string(quadruped.make_model(floor_size=15), common.ASSETS), quadruped.Move(desired_speed=0.5, random=16), steps=4, control_timestep=0.02)
run("quadruped_escape", quadruped.Physics.from_xml_string(quadruped.make_model(floor_size=40, terrain=True, rangefinders=True), common.ASSETS), quadruped.Escape(random=17), steps=4, control_timestep=0.02)
run("quadruped_fetch", quadruped.Physics.from_xml_string(quadruped.make_model(walls_and_ball=True), common.ASSETS), quadruped.Fetch(random=18), steps=4, control_timestep=0.02)
run("reacher", reacher.Physics.from_xml_string(*reacher.get_model_and_assets()), reacher.Reacher(target_size=0.05, random=19), control_timestep=0.02)
run("stacker", stacker.Physics.from_xml_string(*stacker.make_model(2)), stacker.Stack(n_boxes=2, fully_observable=True, random=20), steps=6, control_timestep=0.01)
run("swimmer", swimmer.Physics.from_xml_string(*swimmer.get_model_and_assets(6)), swimmer.Swimmer(random=21), control_timestep=0.03)
run("swimmer15", swimmer.Physics.from_xml_string(*swimmer.get_model_and_assets(15)), swimmer.Swimmer(random=21))
run("walker", walker.Physics.from_xml_string(*walker.get_model_and_assets()), walker.PlanarWalker(move_speed=1, random=22), control_timestep=0.025)

# The reward colours, a flat observation.
coloured = walker.PlanarWalker(move_speed=0, random=23)
coloured.visualize_reward = True
coloured_physics = walker.Physics.from_xml_string(*walker.get_model_and_assets())
run("walker_colours", coloured_physics, coloured, steps=5, flat_observation=True)
record("walker_colours.rgba", coloured_physics.named.model.mat_rgba["self"])


# Subclasses written the dm_control way.
class FallingWalker(walker.PlanarWalker):
    def initialize_episode(self, physics):
        super().initialize_episode(physics)
        physics.named.data.qpos["rootz"] += self.random.uniform(0.1, 0.2)

    def before_step(self, action, physics):
        super().before_step(0.5 * np.asarray(action), physics)

    def get_reward(self, physics):
        return -physics.horizontal_velocity()

    def get_termination(self, physics):
        if physics.torso_height() < 1.1:
            return 0.5


class ExtraObservation(cartpole.Balance):
    def get_observation(self, physics):
        observation = super().get_observation(physics)
        observation["time"] = np.array([physics.time()])
        return observation


run("falling_walker", walker.Physics.from_xml_string(*walker.get_model_and_assets()), FallingWalker(move_speed=1, random=24), steps=80, n_sub_steps=10)
run("extra_observation", cartpole.Physics.from_xml_string(*cartpole.get_model_and_assets()), ExtraObservation(False, False, random=25))
"""

FACTORIES_PROGRAM_HEAD = """
import numpy as np
from dm_control import suite
from dm_control.suite import (acrobot, ball_in_cup, cartpole, cheetah, dog, finger, fish,
    hopper, humanoid, humanoid_CMU, lqr, manipulator, pendulum, point_mass, quadruped,
    reacher, stacker, swimmer, walker)
"""


def _physics_program():
    lines = [PHYSICS_PROGRAM_HEAD]
    by_domain = {}
    for name in PHYSICS_NAMES:
        _, domain, _, *member = name.split(".")
        if member:
            by_domain.setdefault(domain, []).append(member[0])
    for domain, tasks in _PHYSICS_TASKS.items():
        methods = [(m, _METHOD_ARGUMENTS.get(m, "()")) for m in by_domain.get(domain, [])]
        for task in tasks:
            lines.append(f"quantities({domain!r}, {task!r}, {methods!r})")
    return "\n".join(lines)


def _factories_program():
    lines = [FACTORIES_PROGRAM_HEAD]
    for name in FACTORY_NAMES:
        _, domain, member = name.split(".")
        if member == "SUITE":
            lines.append(f"record('{domain}.SUITE', sorted({domain}.SUITE))")
            lines.append(f"record('{domain}.SUITE.tags', sorted({domain}.SUITE.tags()))")
            for tag in ("benchmarking", "easy", "hard", "no_reward_visualization"):
                lines.append(
                    f"record('{domain}.SUITE.{tag}', sorted({domain}.SUITE.tagged({tag!r})))"
                )
            continue
        if member == "swimmer":
            call = f"{domain}.swimmer(4, random=3)"
        else:
            call = f"{domain}.{member}(random=3)"
        lines.append(
            f"env = {call}\n"
            f"timestep = env.reset()\n"
            f"spec = env.action_spec()\n"
            f"timestep = env.step(np.full(spec.shape, 0.3))\n"
            f"record('{name}', [timestep.reward, timestep.observation, "
            f"env.control_timestep(), env.physics.model.nq])"
        )
    return "\n".join(lines)


@pytest.mark.dm_control_api(*TASK_NAMES)
def test_suite_tasks_run_on_their_models_as_in_dm_control(differential):
    differential.assert_same(
        DM_FORM_PROGRAM,
        "suite_domains_dm_form",
        rtol=1e-6,
        atol=1e-8,
        timeout_s=600,
        tolerances=[(r"inertial_sensors|imu|force_torque|object_vel", 1e-4, 1e-6)],
    )


@pytest.mark.dm_control_api(*PHYSICS_NAMES)
def test_suite_physics_quantities_match(differential):
    differential.assert_same(
        _physics_program(),
        "suite_domains_physics",
        rtol=1e-6,
        atol=1e-8,
        timeout_s=600,
        tolerances=[(r"imu|force_torque|inertial_sensors", 1e-4, 1e-6)],
    )


@pytest.mark.dm_control_api(*FACTORY_NAMES)
def test_suite_task_factories_and_registries_match(differential):
    differential.assert_same(
        _factories_program(),
        "suite_domains_factories",
        rtol=1e-6,
        atol=1e-8,
        timeout_s=600,
        tolerances=[(r"imu|force_torque|inertial_sensors", 1e-4, 1e-6)],
    )


def test_every_domain_name_is_exercised():
    """The three programs cover every public name of the domain modules."""
    assert list(PHYSICS_NAMES) == _names(_is_physics_member)
    assert list(FACTORY_NAMES) == _names(_is_factory_or_registry)
    assert list(TASK_NAMES) == _names(
        lambda row: not _is_physics_member(row) and not _is_factory_or_registry(row)
    )
    named = set(TASK_NAMES) | set(PHYSICS_NAMES) | set(FACTORY_NAMES)
    every = set(_names(lambda row: True))
    assert named == every and len(every) > 250
    program = DM_FORM_PROGRAM
    for name in TASK_NAMES:
        domain, member = name.split(".")[1], name.split(".")[2]
        assert f"{domain}.{member}" in program or f"{member}(" in program, name


ENVIRONMENT_KWARGS_PROGRAM = """
import numpy as np
from dm_control import suite


def episode(domain, task, environment_kwargs):
    env = suite.load(domain, task, task_kwargs={"random": 2},
                     environment_kwargs=environment_kwargs)
    timestep = env.reset()
    steps, total = 0, 0.0
    while not timestep.last():
        timestep = env.step(np.full(env.action_spec().shape, 0.2))
        steps += 1
        total += timestep.reward
    return [env.control_timestep(), steps, total, timestep.observation]


for domain, task in [("cartpole", "swingup"), ("reacher", "easy"), ("pendulum", "swingup"),
                     ("cheetah", "run"), ("point_mass", "easy"), ("acrobot", "swingup"),
                     ("lqr", "lqr_2_1")]:
    limited = domain != "lqr"  # lqr has no time limit: only the errors
    for name, kwargs in [("control_timestep", {"control_timestep": 0.04}),
                         ("n_sub_steps", {"n_sub_steps": 3}),
                         ("both", {"n_sub_steps": 3, "control_timestep": 0.04}),
                         ("not_a_multiple", {"control_timestep": 0.015})]:
        if limited or name in ("both", "not_a_multiple"):
            check(f"{domain}.{name}", episode, domain, task, kwargs)
for domain, task in [("walker", "walk"), ("hopper", "stand"), ("finger", "spin"),
                     ("humanoid", "stand"), ("swimmer", "swimmer6")]:
    check(f"{domain}.control_timestep", episode, domain, task, {"control_timestep": 0.05})
    check(f"{domain}.n_sub_steps", episode, domain, task, {"n_sub_steps": 3})
"""


@pytest.mark.dm_control_api("suite.load")
def test_environment_kwargs_set_the_control_timestep_as_in_dm_control(differential):
    # dm_control's factories pass environment_kwargs to control.Environment; those whose
    # factory sets control_timestep itself refuse another one or n_sub_steps.
    differential.assert_same(
        ENVIRONMENT_KWARGS_PROGRAM,
        "suite_environment_kwargs",
        rtol=1e-6,
        atol=1e-8,
        timeout_s=600,
    )
