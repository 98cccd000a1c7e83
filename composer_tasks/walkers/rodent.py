"""Rat: dm_control's rodent walker (`locomotion.walkers.rodent.Rat`), in primitives.

A 0.34 kg rat of 65 bodies (torso, six lumbar vertebrae, pelvis, legs, a
30-segment tail, seven cervical vertebrae, skull and jaw, arms), 67 hinge
joints, 38 position actuators (8 on tendons that couple the spine's, neck's and
tail's joints, 30 on limb and head joints) with their control range scaled to
[-1, 1], touch sensors on the palms and soles and an accelerometer, velocimeter
and gyro in the head. dm_control's names and counts carry over: bodies,
joints, actuators, tendons, sites, sensors, the egocentric camera and the
observables.

The rat collides through dm_control's 100 primitives (rodent.xml's capsules,
spheres, ellipsoids and boxes, with their names, sizes, poses, densities and
contact classes, in the file's order), so its geoms, body masses, centres of
mass and inertias compile to dm_control's; the paws' geoms grip (condim 3,
priority 1, friction 1.5) and `ground_contact_geoms` lists dm_control's 46.

Every other number of the model is the file's too, at its full precision: body
positions, joint positions and axes (the tail's bend axes tilt with its curve),
joint ranges, stiffness, damping, armature, limit softness and groups, the jaw's
spring reference, tendon coefficients and ranges, actuator gains, biases and force
limits, sites and cameras; the compiled model equals dm_control's bit for bit
(dm_control 1.0.50's `rodent.xml`, facts carried over).

What differs: dm_control's rat is drawn with a skinned mesh, here only its
primitives are.

Frames and units: metres, kilograms, radians; the walker stands on its own
origin, the torso 0.06509 m above it, x forward and z up.
"""

from __future__ import annotations

import re
from typing import Any

import mujoco
import numpy as np

from composer_tasks import composer
from composer_tasks import mjcf
from composer_tasks.composer.observation import observable
from composer_tasks.physics import Physics
from composer_tasks.walkers import base
from composer_tasks.walkers import legacy_base

_SPHERE = mujoco.mjtGeom.mjGEOM_SPHERE
_CAPSULE = mujoco.mjtGeom.mjGEOM_CAPSULE
_ELLIPSOID = mujoco.mjtGeom.mjGEOM_ELLIPSOID
_BOX = mujoco.mjtGeom.mjGEOM_BOX
_CYLINDER = mujoco.mjtGeom.mjGEOM_CYLINDER
_SITE = mujoco.mjtObj.mjOBJ_SITE

# dm_control rodent.py: torque sensors are squashed with tanh(2 v / 60).
_TORQUE_THRESHOLD = 60.0
# Geom groups of dm_control's rat: collision primitives in 2 (hidden from the
# egocentric camera with the cosmetic group 1).
_COLLISION_GROUP = 2
_COSMETIC_GROUP = 1
# Friction (slide, spin, roll) and contact dimensions: feet and hands grip.
_DEFAULT_FRICTION = (0.7, 0.005, 0.0001)
_GRIP_FRICTION = (1.5, 0.005, 0.0001)


# Joint classes (rodent.xml's default classes): (range (rad), stiffness, damping,
# armature). The ranges are the file's radians, whole degrees (0.5235987755982988 =
# 30 degrees) but for cervical_extend's lower limit, -70/3 degrees; the tail's are
# the +-15 degrees that every caudal joint of the file gives itself (its classes say
# +-5).
_JOINT_CLASSES: dict[str, tuple[tuple[float, float], float, float, float]] = {
    "lumbar_extend": ((-0.5235987755982988, 0.7853981633974483), 0.02, 0.03, 1e-5),
    "lumbar_bend": ((-0.5235987755982988, 0.5235987755982988), 0.03, 0.03, 1e-5),
    "lumbar_twist": ((-0.5235987755982988, 0.5235987755982988), 0.03, 0.03, 1e-5),
    "hip_supinate": ((-0.6981317007977318, 0.5235987755982988), 0.0, 0.02, 1e-5),
    "hip_abduct": ((-0.5235987755982988, 1.047197551196598), 0.0, 0.02, 1e-5),
    "hip_extend": ((-1.570796326794897, 1.047197551196598), 0.0, 0.02, 1e-5),
    "knee": ((-1.221730476396031, 1.53588974175501), 0.0, 0.005, 6e-7),
    "ankle": ((-0.1396263401595464, 1.396263401595464), 0.0, 0.003, 6e-7),
    "toe": ((0.0, 0.8726646259971648), 0.0, 0.001, 6e-7),
    "caudal_extend": ((-0.2617993877991494, 0.2617993877991494), 1e-5, 0.002, 6e-7),
    "caudal_bend": ((-0.2617993877991494, 0.2617993877991494), 1e-5, 0.002, 6e-7),
    "cervical_extend": ((-0.4072434921320102, 0.6108652381980153), 1.0, 1.0, 1e-3),
    "cervical_bend": ((-0.6108652381980153, 0.6108652381980153), 1.0, 1.0, 1e-3),
    "cervical_twist": ((-0.6108652381980153, 0.6108652381980153), 1.0, 1.0, 1e-3),
    "atlas": ((-0.08726646259971647, 0.7853981633974483), 0.002, 0.002, 6e-7),
    "mandible": ((-0.296705972839036, 0.2617993877991494), 0.002, 0.002, 6e-7),
    "scapula_supinate": ((-0.0174532925199433, 0.1745329251994329), 0.0, 0.005, 6e-7),
    "scapula_abduct": ((-0.2617993877991494, 0.2617993877991494), 0.0, 0.005, 6e-7),
    "scapula_extend": ((-0.03490658503988659, 0.03490658503988659), 0.0, 0.005, 6e-7),
    "shoulder": ((-1.308996938995747, 0.8726646259971648), 0.0, 0.005, 6e-7),
    "shoulder_sup": ((-0.05235987755982989, 1.134464013796314), 0.0, 0.005, 6e-7),
    "elbow": ((-1.308996938995747, 0.6981317007977318), 0.0, 0.003, 6e-7),
    "wrist": ((-0.3490658503988659, 2.094395102393195), 0.0, 0.002, 6e-7),
    "finger": ((0.0, 1.570796326794897), 0.0, 0.002, 6e-7),
}

# rodent.xml's joint defaults: every joint's limit is soft as solreflimit (0.01, 1)
# and solimplimit (0.99, 0.9999, 0) give (MuJoCo's width 0.5 and power 2 after them);
# the spine's, neck's and tail's joints (classes lumbar, cervical, caudal) are in
# group 3; the jaw's spring rests at -0.314159265359 rad (class mandible).
_JOINT_SOLREF_LIMIT = (0.01, 1.0)
_JOINT_SOLIMP_LIMIT = (0.99, 0.9999, 0.0, 0.5, 2.0)
_SPINE_CLASSES = ("lumbar", "cervical", "caudal")
_JOINT_GROUP_3 = 3
_JOINT_SPRINGREF = {"mandible": -0.314159265359}

# Bodies in model order (the file's, depth first), dm-control 1.0.50 rodent.xml's
# numbers at full precision: (name, parent, position in the parent (m), joints as
# (name, class, axis, position in the body (m))). A joint's axis is the file's, which
# MuJoCo normalises (the tail's bend axes tilt with its curve); a joint without
# its own position in the file takes its class's (the lumbar joints' (0.003, 0,
# -0.003)) or the body's origin. Masses and inertias are the geoms'.
_Body = tuple[
    str,
    str,
    tuple[float, float, float],
    tuple[tuple[str, str, tuple[float, float, float], tuple[float, float, float]], ...],
]
# fmt: off
_BODIES: tuple[_Body, ...] = (
    ('torso', '', (0.03099526054578288, 2.058524937651458e-07, 0.06508957263119967), ()),
    ('vertebra_1', 'torso', (-0.01917944366660853, -1.880335592758969e-07, 0.01684645690649089), (('vertebra_1_extend', 'lumbar_extend', (0.0, 1.0, 0.0), (0.003, 0.0, -0.003)),)),
    ('vertebra_2', 'vertebra_1', (-0.005629716335317717, 2.594803588658443e-06, 0.0005320922698783236), (('vertebra_2_bend', 'lumbar_bend', (0.0, 0.0, 1.0), (0.003, 0.0, -0.003)),)),
    ('vertebra_3', 'vertebra_2', (-0.006517166672542409, -1.041062865360766e-05, -9.467218894820495e-05), (('vertebra_3_twist', 'lumbar_twist', (1.0, 0.0, 0.0), (0.003, 0.0, -0.003)),)),
    ('vertebra_4', 'vertebra_3', (-0.006777704185187035, 8.746101127162902e-06, -0.001299314772852475), (('vertebra_4_extend', 'lumbar_extend', (0.0, 1.0, 0.0), (0.003, 0.0, -0.003)),)),
    ('vertebra_5', 'vertebra_4', (-0.006890066562303102, -6.204333649723221e-06, -0.002498064978782454), (('vertebra_5_bend', 'lumbar_bend', (0.0, 0.0, 1.0), (0.003, 0.0, -0.003)),)),
    ('vertebra_6', 'vertebra_5', (-0.006185284434681512, 5.254442128955049e-06, -0.003641122453027834), (('vertebra_6_twist', 'lumbar_twist', (1.0, 0.0, 0.0), (0.003, 0.0, -0.003)),)),
    ('pelvis', 'vertebra_6', (-0.01307140919884396, 3.513221433820909e-06, -0.008120982829772532), ()),
    ('upper_leg_L', 'pelvis', (-0.004810292416764615, 0.01149125410671547, -0.009887823301127264), (('hip_L_supinate', 'hip_supinate', (0.0, 0.0, 1.0), (0.0, 0.0, 0.0)), ('hip_L_abduct', 'hip_abduct', (1.0, 0.0, 0.0), (0.0, 0.0, 0.0)), ('hip_L_extend', 'hip_extend', (0.0, 1.0, 0.0), (0.0, 0.0, 0.0)))),
    ('lower_leg_L', 'upper_leg_L', (0.01542264534586861, 0.01747899805865108, -0.02570440890978101), (('knee_L', 'knee', (0.5, -1.0, 0.0), (0.0, 0.0, 0.0)),)),
    ('foot_L', 'lower_leg_L', (-0.03230154033783406, -0.004727054683585472, -0.02205958852339887), (('ankle_L', 'ankle', (-0.3, 1.0, 0.0), (0.0, 0.0, 0.0)),)),
    ('toe_L', 'foot_L', (0.02109994311367263, 0.007614327297542731, -0.002752166493087734), (('toe_L', 'toe', (0.0, 1.0, 0.0), (0.0, 0.0, 0.0)),)),
    ('upper_leg_R', 'pelvis', (-0.004810292416764615, -0.01149125410671547, -0.009887823301127264), (('hip_R_supinate', 'hip_supinate', (0.0, 0.0, -1.0), (0.0, 0.0, 0.0)), ('hip_R_abduct', 'hip_abduct', (-1.0, 0.0, 0.0), (0.0, 0.0, 0.0)), ('hip_R_extend', 'hip_extend', (0.0, 1.0, 0.0), (0.0, 0.0, 0.0)))),
    ('lower_leg_R', 'upper_leg_R', (0.01542264534586861, -0.01747899805865108, -0.02570440890978101), (('knee_R', 'knee', (-0.5, -1.0, 0.0), (0.0, 0.0, 0.0)),)),
    ('foot_R', 'lower_leg_R', (-0.03230154033783406, 0.004727054683585472, -0.02205958852339887), (('ankle_R', 'ankle', (0.3, 1.0, 0.0), (0.0, 0.0, 0.0)),)),
    ('toe_R', 'foot_R', (0.02109994311367263, -0.007614327297542731, -0.002752166493087734), (('toe_R', 'toe', (0.0, 1.0, 0.0), (0.0, 0.0, 0.0)),)),
    ('vertebra_C1', 'pelvis', (-0.01578991172983967, 0.0, -0.01188162292618369), (('vertebra_C1_extend', 'caudal_extend', (0.0, 1.0, 0.0), (0.004342320538000662, 0.0, 0.003267517649237096)), ('vertebra_C1_bend', 'caudal_bend', (0.6012684687925202, 0.0, -0.7990470752314273), (0.004342320538000662, 0.0, 0.003267517649237096)))),
    ('vertebra_C2', 'vertebra_C1', (-0.003877053782139318, 0.0, -0.004226431204517265), (('vertebra_C2_extend', 'caudal_extend', (0.0, 1.0, 0.0), (0.00355852682138871, 0.0, 0.003879200456107687)), ('vertebra_C2_bend', 'caudal_bend', (0.7369087259505994, 0.0, -0.6759922555901543), (0.00355852682138871, 0.0, 0.003879200456107687)))),
    ('vertebra_C3', 'vertebra_C2', (-0.003424026812590301, 0.0, -0.004263077436113009), (('vertebra_C3_extend', 'caudal_extend', (0.0, 0.9999999999999998, 0.0), (0.002814632916334075, 0.0, 0.003504352837554861)), ('vertebra_C3_bend', 'caudal_bend', (0.7796571863505312, 0.0, -0.6262065727633115), (0.002814632916334075, 0.0, 0.003504352837554861)))),
    ('vertebra_C4', 'vertebra_C3', (-0.003271874666658243, 0.0, -0.004416838152219076), (('vertebra_C4_extend', 'caudal_extend', (0.0, 0.9999999999999996, 0.0), (0.002536050295425576, 0.0, 0.003423518576346546)), ('vertebra_C4_bend', 'caudal_bend', (0.8035447758282259, 0.0, -0.595244313907462), (0.002536050295425576, 0.0, 0.003423518576346546)))),
    ('vertebra_C5', 'vertebra_C4', (-0.003175974271018995, 0.0, -0.004569340859213865), (('vertebra_C5_extend', 'caudal_extend', (0.0, 0.9999999999999998, 0.0), (0.002012248229580733, 0.0, 0.00289506377246373)), ('vertebra_C5_bend', 'caudal_bend', (0.8211323953906199, 0.0, -0.5707377587299287), (0.002012248229580733, 0.0, 0.00289506377246373)))),
    ('vertebra_C6', 'vertebra_C5', (-0.003119193850481998, 0.0, -0.004901355281343103), (('vertebra_C6_extend', 'caudal_extend', (0.0, 0.9999999999999998, 0.0), (0.002103353485914151, 0.0, 0.00330511125979672)), ('vertebra_C6_bend', 'caudal_bend', (0.8436498258045544, 0.0, -0.5368938176398985), (0.002103353485914151, 0.0, 0.00330511125979672)))),
    ('vertebra_C7', 'vertebra_C6', (-0.003215811269353427, 0.0, -0.005644371131998142), (('vertebra_C7_extend', 'caudal_extend', (0.0, 0.9999999999999998, 0.0), (0.00269018377049155, 0.0, 0.004721793147078994)),)),
    ('vertebra_C8', 'vertebra_C7', (-0.003445853504479746, 0.0, -0.005518181272185016), ()),
    ('vertebra_C9', 'vertebra_C8', (-0.00428517277518055, 0.0, -0.005115018280065306), (('vertebra_C9_bend', 'caudal_bend', (0.7665487416508834, 0.0, -0.6421861308635113), (0.002886456803488155, 0.0, 0.003445433845742364)),)),
    ('vertebra_C10', 'vertebra_C9', (-0.004861545164642819, 0.0, -0.004562186342662474), ()),
    ('vertebra_C11', 'vertebra_C10', (-0.005374786984897312, 0.0, -0.004364207168994159), (('vertebra_C11_extend', 'caudal_extend', (0.0, 0.9999999999999998, 0.0), (0.002737042072842745, 0.0, 0.002222417124567619)),)),
    ('vertebra_C12', 'vertebra_C11', (-0.006134478460615445, 0.0, -0.003841502801916079), ()),
    ('vertebra_C13', 'vertebra_C12', (-0.00689742745021331, 0.0, -0.002592428185172008), (('vertebra_C13_bend', 'caudal_bend', (0.3518244833508478, 0.0, -0.9360659874789323), (0.003512235031584721, 0.0, 0.001320088852626807)),)),
    ('vertebra_C14', 'vertebra_C13', (-0.006825037737343853, 0.0, -0.0009088998932926352), ()),
    ('vertebra_C15', 'vertebra_C14', (-0.006526211069134326, 0.0, -0.0003153309968866059), (('vertebra_C15_extend', 'caudal_extend', (0.0, 0.9999999999999999, 0.0), (0.003932832330984124, 0.0, 0.0001900251043645143)),)),
    ('vertebra_C16', 'vertebra_C15', (-0.006693909447912509, 0.0, -0.0001384885270556547), ()),
    ('vertebra_C17', 'vertebra_C16', (-0.006485426246850028, 0.0, -1.670467139216664e-05), (('vertebra_C17_bend', 'caudal_bend', (0.002575715973669538, 0.0, -0.9999966828381097), (0.004279410240846748, 0.0, 1.102258187892252e-05)),)),
    ('vertebra_C18', 'vertebra_C17', (-0.006207432181797656, 0.0, 1.825573131422967e-10), ()),
    ('vertebra_C19', 'vertebra_C18', (-0.006204259597825435, 0.0, -8.201902227376357e-10), (('vertebra_C19_extend', 'caudal_extend', (0.0, 1.0, 0.0), (0.00427856529131528, 0.0, 5.656174381406233e-10)),)),
    ('vertebra_C20', 'vertebra_C19', (-0.006228376819942582, 0.0, 2.516520472814411e-06), ()),
    ('vertebra_C21', 'vertebra_C20', (-0.006117653417468877, 0.0, -0.0001096641718318435), (('vertebra_C21_bend', 'caudal_bend', (0.01792297618959377, 0.0, -0.9998393705613454), (0.003863156863235094, 0.0, 6.925039212804248e-05)),)),
    ('vertebra_C22', 'vertebra_C21', (-0.006508107849533902, 0.0, -1.311987483649039e-05), ()),
    ('vertebra_C23', 'vertebra_C22', (-0.006390755412623964, 0.0, 1.751401410207947e-09), (('vertebra_C23_extend', 'caudal_extend', (0.0, 1.0, 0.0), (0.003596219234168395, 0.0, -9.855522597059318e-10)),)),
    ('vertebra_C24', 'vertebra_C23', (-0.006180715195251588, 0.0, -1.247135173292058e-09), ()),
    ('vertebra_C25', 'vertebra_C24', (-0.005968198951736014, 0.0, 1.379492349778272e-10), (('vertebra_C25_bend', 'caudal_bend', (-2.311404765380703e-08, 0.0, -0.9999999999999998), (0.003596235066652297, 0.0, -8.31235487048931e-11)),)),
    ('vertebra_C26', 'vertebra_C25', (-0.005628676580141834, 0.0, -1.365630198950016e-09), ()),
    ('vertebra_C27', 'vertebra_C26', (-0.005193120282271783, 0.0, 1.395692942078239e-09), (('vertebra_C27_extend', 'caudal_extend', (0.0, 0.9999999999999999, 0.0), (0.003853817004710296, 0.0, -1.035744388955742e-09)),)),
    ('vertebra_C28', 'vertebra_C27', (-0.005036239104451245, 0.0, 5.073982356059771e-07), ()),
    ('vertebra_C29', 'vertebra_C28', (-0.004773896837169728, 0.0, -6.205554570421282e-11), (('vertebra_C29_bend', 'caudal_bend', (1.299892892972596e-08, 0.0, -0.9999999999999999), (0.00374077633023262, 0.0, 4.862608565869494e-11)),)),
    ('vertebra_C30', 'vertebra_C29', (-0.00400535162294913, 0.0, -4.197183187153738e-07), ()),
    ('vertebra_cervical_5', 'torso', (0.02770906497757163, 1.182614387058484e-05, -0.001000314910384547), (('vertebra_cervical_5_extend', 'cervical_extend', (0.0, 1.0, 0.0), (-0.0001934586467415268, -3.998580249810072e-07, -0.0002296866127457893)),)),
    ('vertebra_cervical_4', 'vertebra_cervical_5', (0.002409040600051545, -1.201496970707005e-05, 0.0008095769938857078), (('vertebra_cervical_4_bend', 'cervical_bend', (-0.3185475796000196, 0.0, 0.9478950836057671), (-1.537595270261077e-05, 4.797260713088921e-07, -0.0002727908789887391)),)),
    ('vertebra_cervical_3', 'vertebra_cervical_4', (0.002150279591154259, 1.208154055769177e-10, 0.0009415267844258756), (('vertebra_cervical_3_twist', 'cervical_twist', (0.9160353567291684, 5.146827584715309e-08, 0.4010975258239107), (8.197570870224901e-06, -4.86590177453699e-12, -0.0002544294736271219)),)),
    ('vertebra_cervical_2', 'vertebra_cervical_3', (0.001899960058888792, 1.283979720589725e-10, 0.0008747620831573993), (('vertebra_cervical_2_extend', 'cervical_extend', (0.0, 1.0, 0.0), (1.295156098152258e-05, -5.795372986069688e-12, -0.0002538748472657769)),)),
    ('vertebra_cervical_1', 'vertebra_cervical_2', (0.001777511633561411, 4.522127641084884e-10, 0.0009350735272135867), (('vertebra_cervical_1_bend', 'cervical_bend', (-0.4655674978646318, 0.0, 0.885012375581277), (2.74698396710647e-05, -2.217570324196948e-11, -0.0002637692890460073)),)),
    ('vertebra_axis', 'vertebra_cervical_1', (0.001882316665146777, -1.7566504879529e-06, 0.001705860606049519), (('vertebra_axis_twist', 'cervical_twist', (0.7409845944832573, -0.0006915153935393208, 0.6715216694529994), (9.943926722569324e-05, 7.332304159315717e-08, -0.0002676240089982131)),)),
    ('vertebra_atlant', 'vertebra_axis', (0.002452182159178586, 1.756985238485304e-06, 0.001369554727844564), (('vertebra_atlant_extend', 'cervical_extend', (0.0, 1.0, 0.0), (2.740582919998361e-05, -4.955377833772316e-08, -0.0002115292895827232)),)),
    ('skull', 'vertebra_atlant', (0.02595506911814188, 4.202354324468666e-09, 0.001770509875790047), (('atlas', 'atlas', (0.0, -1.0, 0.0), (-0.02843583549004804, 0.0, 0.0)),)),
    ('jaw', 'skull', (0.0004529521741633299, -1.588797783766933e-08, -0.0164), (('mandible', 'mandible', (0.0, 1.0, 0.0), (-0.0185, 0.0, 0.004)),)),
    ('scapula_L', 'torso', (0.00656, 0.00164, 0.01148), (('scapula_L_supinate', 'scapula_supinate', (0.0, 0.0, 1.0), (0.0, -0.005000000000000001, 0.0)), ('scapula_L_abduct', 'scapula_abduct', (1.0, 0.0, 0.0), (0.0, -0.005000000000000001, -0.01)), ('scapula_L_extend', 'scapula_extend', (0.3, 1.0, 0.0), (0.0, 0.0, 0.0)))),
    ('upper_arm_L', 'scapula_L', (0.0287, 0.00984, -0.02542), (('shoulder_L', 'shoulder', (0.0, 1.0, 0.0), (0.0, 0.0, 0.0)), ('shoulder_sup_L', 'shoulder_sup', (0.0, 0.0, -1.0), (0.0, 0.0, 0.0)))),
    ('lower_arm_L', 'upper_arm_L', (-0.01593120836133218, 0.01035528543486592, -0.02230369170586505), (('elbow_L', 'elbow', (0.0, 1.0, 0.2), (0.0, 0.0, 0.0)),)),
    ('hand_L', 'lower_arm_L', (0.02160265376479308, 0.01260154802946263, -0.01980243261772699), (('wrist_L', 'wrist', (0.6, -1.0, 0.0), (0.0, 0.0, 0.0)),)),
    ('finger_L', 'hand_L', (0.003031746915839468, 0.001515873457919734, -0.008337304018558537), (('finger_L', 'finger', (-0.5, 1.0, 0.0), (0.0, 0.0, 0.0)),)),
    ('scapula_R', 'torso', (0.00656, -0.00164, 0.01148), (('scapula_R_supinate', 'scapula_supinate', (0.0, 0.0, -1.0), (0.0, 0.005000000000000001, 0.0)), ('scapula_R_abduct', 'scapula_abduct', (-1.0, 0.0, 0.0), (0.0, 0.005000000000000001, -0.01)), ('scapula_R_extend', 'scapula_extend', (-0.3, 1.0, 0.0), (0.0, 0.0, 0.0)))),
    ('upper_arm_R', 'scapula_R', (0.0287, -0.00984, -0.02542), (('shoulder_R', 'shoulder', (0.0, 1.0, 0.0), (0.0, 0.0, 0.0)), ('shoulder_sup_R', 'shoulder_sup', (0.0, 0.0, 1.0), (0.0, 0.0, 0.0)))),
    ('lower_arm_R', 'upper_arm_R', (-0.01593120836133218, -0.01035528543486592, -0.02230369170586505), (('elbow_R', 'elbow', (0.0, 1.0, -0.2), (0.0, 0.0, 0.0)),)),
    ('hand_R', 'lower_arm_R', (0.02160265376479308, -0.01260154802946263, -0.01980243261772699), (('wrist_R', 'wrist', (-0.6, -1.0, 0.0), (0.0, 0.0, 0.0)),)),
    ('finger_R', 'hand_R', (0.003031746915839468, -0.001515873457919734, -0.008337304018558537), (('finger_R', 'finger', (0.5, 1.0, 0.0), (0.0, 0.0, 0.0)),)),
)
# fmt: on


def _bodies() -> tuple[_Body, ...]:
    return _BODIES


# The one body rodent.xml turns in its parent: the jaw, 15 degrees about y
# (euler "xyz", radians).
_BODY_EULERS = {"jaw": (0.0, 0.2617993877991494, 0.0)}


# Contact classes of dm_control's rodent.xml (its `collision` defaults): contype,
# conaffinity, condim, priority, friction (slide, spin, roll), rgba. Every class
# has the file's group 2, density 500 kg/m^3 unless a geom gives its own, and
# the file's default solref (0.005, 1).
_GeomClass = tuple[int, int, int, int, tuple[float, float, float], tuple[float, ...]]
_GEOM_CLASSES: dict[str, _GeomClass] = {
    # collision_primitive.
    "primitive": (1, 1, 1, 0, _DEFAULT_FRICTION, (0.0, 0.5, 0.5, 1.0)),
    # nonself_collision_primitive: touches the world but not the rat's other geoms.
    "nonself": (1, 0, 1, 0, _DEFAULT_FRICTION, (0.0, 0.5, 0.5, 1.0)),
    # collision_primitive_paw: the soles, palms, toes and fingers grip.
    "paw": (1, 1, 3, 1, _GRIP_FRICTION, (0.0, 0.6, 0.7, 1.0)),
}
_GEOM_DENSITY = 500.0
_GEOM_SOLREF = (0.005, 1.0)
# Geoms of the file that override their class's group and colour: the eyes
# (black) and the incisors (white) are drawn in the cosmetic group 1.
_COSMETIC_GEOMS: dict[str, tuple[int, tuple[float, ...]]] = {
    **{f"eye_{side}_collision": (_COSMETIC_GROUP, (0.0, 0.0, 0.0, 1.0)) for side in "LR"},
    **{
        f"{part}_T{index}_collision": (_COSMETIC_GROUP, (1.0, 1.0, 1.0, 1.0))
        for part in ("skull", "jaw")
        for index in (1, 2)
    },
}

# The collision geoms of each body, in the file's order (dm-control 1.0.50's
# rodent.xml, its numbers at full precision): (name, class, type, size (m),
# position in the body (m), orientation, density (kg/m^3) or None for the
# class's). An orientation is ("euler", angles) in radians about x, then y, then
# z (MuJoCo's default sequence "xyz", which the file uses), ("quat", (w, x, y, z))
# or None for the body's frame. The third size of the tail's capsules is the
# file's too (MuJoCo keeps it and does not use it).
_Orientation = tuple[str, tuple[float, ...]] | None
_CollisionGeom = tuple[
    str, str, Any, tuple[float, ...], tuple[float, float, float], _Orientation, float | None
]
# fmt: off
_COLLISION_GEOMS: dict[str, tuple[_CollisionGeom, ...]] = {
    "torso": (
        ("collision_torso", "nonself", _ELLIPSOID, (0.05, 0.024, 0.026), (-0.0082, 0.0, 0.0), ("euler", (0.0, 0.1745329251994329, 0.0)), 468.251260009),
    ),
    "vertebra_1": (
        ("vertebra_1_collision", "nonself", _SPHERE, (0.01,), (0.0, 0.0, -0.00164), None, None),
    ),
    "vertebra_2": (
        ("vertebra_2_collision", "nonself", _SPHERE, (0.01,), (0.0, 0.0, -0.00164), None, None),
    ),
    "vertebra_3": (
        ("vertebra_3_collision", "nonself", _SPHERE, (0.01,), (0.0, 0.0, -0.00164), None, None),
    ),
    "vertebra_4": (
        ("vertebra_4_collision", "nonself", _SPHERE, (0.01,), (0.0, 0.0, -0.00164), None, None),
    ),
    "vertebra_5": (
        ("vertebra_5_collision", "nonself", _SPHERE, (0.01,), (0.0, 0.0, -0.00164), None, None),
    ),
    "vertebra_6": (
        ("vertebra_6_collision", "nonself", _SPHERE, (0.01,), (0.0, 0.0, -0.00164), None, None),
    ),
    "pelvis": (
        ("collision_pelvis_L", "nonself", _CAPSULE, (0.013, 0.021, 0.0), (-0.00082, 0.00656, -0.00574), ("euler", (0.0, 0.8726646259971648, 0.0)), 1548.57736929),
        ("collision_pelvis_R", "nonself", _CAPSULE, (0.013, 0.021, 0.0), (-0.00082, -0.00656, -0.00574), ("euler", (0.0, 0.8726646259971648, 0.0)), 1548.57736929),
        ("collision_pelvis_gut", "nonself", _ELLIPSOID, (0.02, 0.02, 0.018), (0.0205, 0.0, -0.0164), ("euler", (0.0, -0.5235987755982988, 0.0)), 1548.57736929),
    ),
    "upper_leg_L": (
        ("upper_leg_L0_collision", "primitive", _CAPSULE, (0.008742403002230982, 0.01748480600446196), (0.008602524554195285, 0.01075315569274411, -0.01290378683129293), ("euler", (0.6108652381980153, -0.6981317007977318, 0.0)), 1561.75550556),
    ),
    "lower_leg_L": (
        ("lower_leg_L_collision", "primitive", _CAPSULE, (0.006556802251673236, 0.01923328660490816), (-0.01226339046929431, 0.0001224792426221771, -0.01071813365303941), ("quat", (0.5843939876140521, 0.278581552273902, 0.3900453953818352, 0.6547828460754284)), 1302.86687267),
    ),
    "foot_L": (
        ("foot_L_collision", "paw", _CAPSULE, (0.003210712207833968, 0.01238417565878816), (0.008274464032760684, 0.002256672008934731, -0.002256672008934731), ("euler", (1.570796326794897, -1.221730476396031, 0.0)), 2041.15978228),
    ),
    "toe_L": (
        ("toe_L0_collision", "paw", _CAPSULE, (0.002383208424149982, 0.007253243030021683), (0.008496656120882544, -0.0008496656120882542, 0.0), ("euler", (1.570796326794897, -1.221730476396031, 0.0)), None),
        ("toe_L1_collision", "paw", _CAPSULE, (0.002383208424149982, 0.007771331817880374), (0.008071823314838416, 0.002548996836264763, 0.0), ("euler", (1.570796326794897, -1.221730476396031, 0.0)), None),
        ("toe_L2_collision", "paw", _CAPSULE, (0.002383208424149982, 0.007253243030021683), (0.006797324896706034, 0.005522826478573654, 0.0), ("euler", (1.570796326794897, -1.221730476396031, 0.0)), None),
    ),
    "upper_leg_R": (
        ("upper_leg_R0_collision", "primitive", _CAPSULE, (0.008742403002230982, 0.01748480600446196), (0.008602524554195285, -0.01075315569274411, -0.01290378683129293), ("euler", (-0.6108652381980153, -0.6981317007977318, 0.0)), 1561.75550556),
    ),
    "lower_leg_R": (
        ("lower_leg_R_collision", "primitive", _CAPSULE, (0.006556802251673236, 0.01923328660490816), (-0.01202896613332032, -0.0001615786954038913, -0.0105741369075766), ("quat", (0.6564315036111004, 0.3901417719765998, 0.2779576926818845, 0.5827749135856758)), 1302.86687267),
    ),
    "foot_R": (
        ("foot_R_collision", "paw", _CAPSULE, (0.003210712207833968, 0.01238417565878816), (0.008274464032760684, -0.002256672008934731, -0.002256672008934731), ("euler", (1.570796326794897, 1.221730476396031, 0.0)), 2041.15978228),
    ),
    "toe_R": (
        ("toe_R0_collision", "paw", _CAPSULE, (0.002383208424149982, 0.007253243030021683), (0.008496656120882544, 0.0008496656120882542, 0.0), ("euler", (1.570796326794897, 1.221730476396031, 0.0)), None),
        ("toe_R1_collision", "paw", _CAPSULE, (0.002383208424149982, 0.007771331817880374), (0.008071823314838416, -0.002548996836264763, 0.0), ("euler", (1.570796326794897, 1.221730476396031, 0.0)), None),
        ("toe_R2_collision", "paw", _CAPSULE, (0.002383208424149982, 0.007253243030021683), (0.006797324896706034, -0.005522826478573654, 0.0), ("euler", (1.570796326794897, 1.221730476396031, 0.0)), None),
    ),
    "vertebra_C1": (
        ("vertebra_C1_collision", "primitive", _CAPSULE, (0.01096499338746071, 0.002370424568653107, 0.005434373859316111), (0.0, -2.778268066994105e-21, 0.0), ("quat", (0.5772408551843025, 0.3506607415056362, 0.3240276763775721, 0.662447057819841)), 507.157357703),
    ),
    "vertebra_C2": (
        ("vertebra_C2_collision", "primitive", _CAPSULE, (0.008360366337001324, 0.003506151144392788, 0.005264153238385916), (0.0, 0.0, 0.0), ("quat", (0.6165945006583455, 0.3461375763448482, 0.3461375763448482, 0.6165945006583455)), 507.157357703),
    ),
    "vertebra_C3": (
        ("vertebra_C3_collision", "primitive", _CAPSULE, (0.007895978167653084, 0.00409743981435895, 0.00449473550543189), (0.0, 0.0, 5.689893001203927e-18), ("quat", (0.658413368499565, 0.2578601097127201, 0.2578601097127201, 0.658413368499565)), 507.157357703),
    ),
    "vertebra_C4": (
        ("vertebra_C4_collision", "primitive", _CAPSULE, (0.006652826443314552, 0.003851699293591082, 0.004260519985109568), (0.0, 0.0, -5.689893001203927e-18), ("quat", (0.6698964656770412, 0.2263597253784533, 0.2263597253784533, 0.6698964656770412)), 507.157357703),
    ),
    "vertebra_C5": (
        ("vertebra_C5_collision", "primitive", _CAPSULE, (0.004545329604297876, 0.003776637255214155, 0.003525696694850922), (0.0, 0.0, 0.0), ("quat", (0.959555122982002, -1.723817788817547e-17, 0.2815208091047534, 5.875580549826768e-17)), 507.157357703),
    ),
    "vertebra_C6": (
        ("vertebra_C6_collision", "primitive", _CAPSULE, (0.003849131055176258, 0.004441792552825063, 0.003917634021490812), (0.0, 0.0, -5.689893001203927e-18), ("quat", (-0.9684724633255426, -0.0201653665451908, -0.2338356379719502, 0.08351850206094803)), 507.157357703),
    ),
    "vertebra_C7": (
        ("vertebra_C7_collision", "primitive", _CAPSULE, (0.003256943542510271, 0.004638898652046919, 0.003752123331651092), (0.0, 0.0, 0.0), ("quat", (-0.9587181623873691, -0.02864387142163538, -0.2629262253293439, 0.1044452668751926)), 507.157357703),
    ),
    "vertebra_C8": (
        ("vertebra_C8_collision", "primitive", _CAPSULE, (0.003015818307176232, 0.003957028646254912, 0.003936874680221081), (0.0, 0.0, -2.844946500601963e-18), ("quat", (0.9557562961254608, -1.801208397451436e-17, 0.2941596546376485, 5.852319444074877e-17)), 507.157357703),
    ),
    "vertebra_C9": (
        ("vertebra_C9_collision", "primitive", _CAPSULE, (0.003130586817860603, 0.004494897730182856, 0.003937420435249805), (0.0, 0.0, -2.844946500601963e-18), ("quat", (0.9339363308955284, -2.188685129702187e-17, 0.3574394072194587, 5.718710691193161e-17)), 507.157357703),
    ),
    "vertebra_C10": (
        ("vertebra_C10_collision", "primitive", _CAPSULE, (0.003421195782721043, 0.005196776997763664, 0.003937873989343643), (0.0, 0.0, -1.422473250300982e-18), ("quat", (6.606927199194023e-17, 0.404822478038031, -2.925028864881283e-17, 0.914395298147988)), 507.157357703),
    ),
    "vertebra_C11": (
        ("vertebra_C11_collision", "primitive", _CAPSULE, (0.002499659545719624, 0.003896944806911051, 0.0042794244363904), (-2.275957200481571e-17, 0.0, 0.0), ("quat", (8.0408085539503e-17, 0.4349444185915732, -3.883920751947562e-17, 0.9004573020060631)), 507.157357703),
    ),
    "vertebra_C12": (
        ("vertebra_C12_collision", "primitive", _CAPSULE, (0.002433547750115395, 0.004146181046962738, 0.004279083106666803), (0.0, 0.0, 0.0), ("quat", (1.235560731911126e-17, 0.5080793265726891, -7.2884636281233e-18, 0.8613102796956755)), 507.157357703),
    ),
    "vertebra_C13": (
        ("vertebra_C13_collision", "primitive", _CAPSULE, (0.002090706257149577, 0.003959977824706584, 0.004278565291315317), (-1.137978600240785e-17, 0.0, 1.778091562876227e-19), ("quat", (1.892164903646171e-16, 0.6293932092262298, -2.336181429597261e-16, 0.7770869888113604)), 507.157357703),
    ),
    "vertebra_C14": (
        ("vertebra_C14_collision", "primitive", _CAPSULE, (0.00184506073128432, 0.003878506540786475, 0.003863667836412787), (-4.551914400963142e-17, -4.267419750902945e-18, 0.0), ("quat", (0.0, 0.6866112770928985, 0.0, 0.7270247273434782)), 507.157357703),
    ),
    "vertebra_C15": (
        ("vertebra_C15_collision", "primitive", _CAPSULE, (0.001845342689193785, 0.004137067589908838, 0.003863777499645948), (0.0, -2.844946500601963e-18, 0.0), ("quat", (-3.048411496515643e-15, 0.6991848455046811, 3.117107305228081e-15, 0.7149409428873096)), 507.157357703),
    ),
    "vertebra_C16": (
        ("vertebra_C16_collision", "primitive", _CAPSULE, (0.00187811441719532, 0.004395640251459554, 0.003866892773658037), (4.551914400963142e-17, 0.0, 0.0), ("quat", (0.0, 0.7071067811865475, 0.0, 0.7071067811865476)), 507.157357703),
    ),
    "vertebra_C17": (
        ("vertebra_C17_collision", "primitive", _CAPSULE, (0.001633955631405115, 0.004654210468288511, 0.00359621923416853), (4.551914400963142e-17, 3.556183125752454e-19, 0.0), ("quat", (0.0, 0.7071067811865475, 0.0, 0.7071067811865476)), 507.157357703),
    ),
    "vertebra_C18": (
        ("vertebra_C18_collision", "primitive", _CAPSULE, (0.001633956097066402, 0.004912774951662868, 0.003596230177208781), (-4.551914400963142e-17, 3.556183125752454e-19, 0.0), ("quat", (0.0, 0.7071067811865475, 0.0, 0.7071067811865476)), 507.157357703),
    ),
    "vertebra_C19": (
        ("vertebra_C19_collision", "primitive", _CAPSULE, (0.00163395400159061, 0.005171378143131733, 0.003596235066652298), (0.0, 0.0, 0.0), ("quat", (0.0, 0.7071067811865475, 0.0, 0.7071067811865476)), 507.157357703),
    ),
    "vertebra_C20": (
        ("vertebra_C20_collision", "primitive", _CAPSULE, (0.001498286379501224, 0.005176536360522732, 0.003596158232539892), (0.0, 2.844946500601963e-18, 0.0), ("quat", (0.0, 0.7071067811865475, 0.0, 0.7071067811865476)), 507.157357703),
    ),
    "vertebra_C21": (
        ("vertebra_C21_collision", "primitive", _CAPSULE, (0.00153051526285708, 0.004972128779627383, 0.003853817004710436), (-2.275957200481571e-17, 0.0, 0.0), ("quat", (0.0, 0.7071067811865475, 0.0, 0.7071067811865476)), 507.157357703),
    ),
    "vertebra_C22": (
        ("vertebra_C22_collision", "primitive", _CAPSULE, (0.0013796032872051, 0.004572178106172942, 0.003740778425708413), (2.275957200481571e-17, 0.0, 0.0), ("quat", (0.0, 0.7071067811865475, 0.0, 0.7071067811865476)), 507.157357703),
    ),
    "vertebra_C23": (
        ("vertebra_C23_collision", "primitive", _CAPSULE, (0.001379598979838192, 0.004770975443534553, 0.00374077633023262), (0.0, 0.0, 0.0), ("quat", (0.0, 0.7071067811865475, 0.0, 0.7071067811865476)), 507.157357703),
    ),
    "vertebra_C24": (
        ("vertebra_C24_collision", "primitive", _CAPSULE, (0.00137960200663656, 0.004969772635377012, 0.003478918690234423), (0.0, 5.689893001203927e-18, 0.0), ("quat", (0.0, 0.7071067811865475, 0.0, 0.7071067811865476)), 507.157357703),
    ),
    "vertebra_C25": (
        ("vertebra_C25_collision", "primitive", _CAPSULE, (0.001379601657390594, 0.005168589268578216, 0.003478922415524721), (2.275957200481571e-17, 5.689893001203927e-18, 0.0), ("quat", (0.0, 0.7071067811865475, 0.0, 0.7071067811865476)), 507.157357703),
    ),
    "vertebra_C26": (
        ("vertebra_C26_collision", "primitive", _CAPSULE, (0.001379605033434927, 0.005367331657907926, 0.003061428898945451), (0.0, 0.0, 0.0), ("quat", (0.0, 0.7071067811865475, 0.0, 0.7071067811865476)), 507.157357703),
    ),
    "vertebra_C27": (
        ("vertebra_C27_collision", "primitive", _CAPSULE, (0.001379601657390594, 0.005566182837355882, 0.003061448689550161), (-2.275957200481571e-17, -5.689893001203927e-18, 0.0), ("quat", (0.0, 0.7071067811865475, 0.0, 0.7071067811865476)), 507.157357703),
    ),
    "vertebra_C28": (
        ("vertebra_C28_collision", "primitive", _CAPSULE, (0.001296832342632115, 0.005764920220826752, 0.002877779770642519), (-2.275957200481571e-17, 0.0, 0.0), ("quat", (0.0, 0.7071067811865475, 0.0, 0.7071067811865476)), 507.157357703),
    ),
    "vertebra_C29": (
        ("vertebra_C29_collision", "primitive", _CAPSULE, (0.001296832459047437, 0.005963775183772668, 0.002618767786771059), (2.275957200481571e-17, 0.0, 0.0), ("quat", (0.0, 0.7071067811865475, 0.0, 0.7071067811865476)), 507.157357703),
    ),
    "vertebra_C30": (
        ("vertebra_C30_collision", "primitive", _CAPSULE, (0.001297856215387583, 0.00616252573672682, 0.003456539940088987), (-3.413935800722356e-17, 0.0, 0.0), ("quat", (0.0, 0.7071067811865475, 0.0, 0.7071067811865476)), 507.157357703),
    ),
    "vertebra_cervical_5": (
        ("vertebra_cervical_5_collision", "nonself", _SPHERE, (0.009,), (0.0, 0.0, 0.0), None, 300.0),
    ),
    "vertebra_cervical_4": (
        ("vertebra_cervical_4_collision", "nonself", _SPHERE, (0.0084,), (0.0, 0.0, 0.0), None, 300.0),
    ),
    "vertebra_cervical_3": (
        ("vertebra_cervical_3_collision", "nonself", _SPHERE, (0.007799999999999999,), (0.0, 0.0, 0.0), None, 300.0),
    ),
    "vertebra_cervical_2": (
        ("vertebra_cervical_2_collision", "nonself", _SPHERE, (0.007199999999999998,), (0.0, 0.0, 0.0), None, 300.0),
    ),
    "vertebra_cervical_1": (
        ("vertebra_cervical_1_collision", "nonself", _SPHERE, (0.006599999999999998,), (0.0, 0.0, 0.0), None, 300.0),
    ),
    "vertebra_axis": (
        ("vertebra_axis_collision", "nonself", _SPHERE, (0.005999999999999998,), (0.0, 0.0, 0.0), None, 300.0),
    ),
    "vertebra_atlant": (
        ("vertebra_atlant_collision", "nonself", _SPHERE, (0.005399999999999999,), (0.0, 0.0, 0.0), None, 300.0),
    ),
    "skull": (
        ("skull_0_collision", "primitive", _ELLIPSOID, (0.02209522800796732, 0.01669565217391304, 0.01), (-0.0090590434832666, 0.0, 0.00082), ("euler", (0.0, 0.1745329251994329, 0.0)), 703.10773841),
        ("skull_0b_collision", "primitive", _ELLIPSOID, (0.02209522800796732, 0.01669565217391304, 0.01), (-0.0090590434832666, 0.0, 0.00328), ("euler", (0.0, 0.1745329251994329, 0.0)), 1.40621547682),
        ("skull_F_collision", "primitive", _ELLIPSOID, (0.007180949102589378, 0.008904347826086957, 0.02), (0.01449446957322656, 0.0, -0.00082), ("euler", (0.0, 1.919862177193763, 0.0)), 703.10773841),
        ("skull_Fb_collision", "primitive", _ELLIPSOID, (0.007180949102589378, 0.008904347826086957, 0.02), (0.01449446957322656, 0.0, 0.00164), ("euler", (0.0, 1.919862177193763, 0.0)), 1.40621547682),
        ("skull_L_collision", "primitive", _ELLIPSOID, (0.007180949102589378, 0.01335652173913044, 0.014), (0.005435426089959959, 0.004563478260869566, -0.00082), ("euler", (0.0, 1.919862177193763, 0.0)), 703.10773841),
        ("eye_L_collision", "primitive", _SPHERE, (0.004, 0.004, 0.004), (0.001104761400398366, 0.0128, 0.0025), None, None),
        ("skull_R_collision", "primitive", _ELLIPSOID, (0.007180949102589378, 0.01335652173913044, 0.014), (0.005435426089959959, -0.004563478260869566, -0.00082), ("euler", (0.0, 1.919862177193763, 0.0)), 703.10773841),
        ("eye_R_collision", "primitive", _SPHERE, (0.004, 0.004, 0.004), (0.001104761400398366, -0.0128, 0.0025), None, None),
        ("skull_P0_collision", "primitive", _BOX, (0.006628568402390195, 0.006233043478260871, 0.0016), (0.00181180869665332, 0.0, -0.00574), None, 703.10773841),
        ("skull_P1_collision", "primitive", _BOX, (0.004419045601593462, 0.00400695652173913, 0.0012), (0.00634133043828662, 0.0, -0.00574), None, 703.10773841),
        ("skull_P2_collision", "primitive", _BOX, (0.001104761400398366, 0.003339130434782609, 0.0008), (0.00860609130910327, 0.0, -0.00574), None, 703.10773841),
        ("skull_T0_collision", "primitive", _ELLIPSOID, (0.00552380700199183, 0.006678260869565218, 0.004), (0.02989484349477978, 0.0, -0.00656), ("euler", (0.0, 0.5235987755982988, 0.0)), 703.10773841),
        ("skull_T1_collision", "primitive", _ELLIPSOID, (0.002209522800796731, 0.001669565217391304, 0.007000000000000001), (0.02808303479812645, 0.000912695652173913, -0.0123), ("euler", (0.0, 0.5235987755982988, 0.0)), 703.10773841),
        ("skull_T2_collision", "primitive", _ELLIPSOID, (0.002209522800796731, 0.001669565217391304, 0.007000000000000001), (0.02808303479812645, -0.000912695652173913, -0.0123), ("euler", (0.0, 0.5235987755982988, 0.0)), 703.10773841),
    ),
    "jaw": (
        ("jaw_back_collision", "primitive", _ELLIPSOID, (0.01215237540438202, 0.01335652173913044, 0.007000000000000001), (-0.01087085217991992, 0.0, 0.00205), ("euler", (0.0, 0.9599310885968813, 0.0)), 314.057274977),
        ("jaw_F_collision", "primitive", _ELLIPSOID, (0.003314284201195097, 0.006678260869565218, 0.012), (0.002717713044979979, 0.0, -0.00492), ("euler", (0.0, 1.832595714594046, 0.0)), 314.057274977),
        ("jaw_L_collision", "primitive", _ELLIPSOID, (0.00994285260358529, 0.003895652173913044, 0.016), (-0.005435426089959959, 0.008214260869565216, 0.00082), ("euler", (-0.6981317007977318, 2.181661564992912, 0.5235987755982988)), 314.057274977),
        ("jaw_R_collision", "primitive", _ELLIPSOID, (0.00994285260358529, 0.003895652173913044, 0.016), (-0.005435426089959959, -0.008214260869565216, 0.00082), ("euler", (0.6981317007977318, 2.181661564992912, -0.5235987755982988)), 314.057274977),
        ("jaw_T0_collision", "primitive", _ELLIPSOID, (0.003314284201195097, 0.003339130434782609, 0.006), (0.01268266087657324, 0.0, -0.00574), ("euler", (0.0, 1.221730476396031, 0.0)), 314.057274977),
        ("jaw_T1_collision", "primitive", _ELLIPSOID, (0.002209522800796731, 0.001335652173913044, 0.007000000000000001), (0.01721218261820654, 0.000912695652173913, -0.0041), ("euler", (0.0, 1.134464013796314, 0.0)), 314.057274977),
        ("jaw_T2_collision", "primitive", _ELLIPSOID, (0.002209522800796731, 0.001335652173913044, 0.007000000000000001), (0.01721218261820654, -0.000912695652173913, -0.0041), ("euler", (0.0, 1.134464013796314, 0.0)), 314.057274977),
        ("jaw_P0_collision", "primitive", _BOX, (0.006628568402390195, 0.006233043478260871, 0.0016), (-0.002717713044979979, 0.0, 0.00082), ("euler", (0.0, 0.9599310885968813, 0.0)), 314.057274977),
        ("jaw_P1_collision", "primitive", _BOX, (0.004419045601593462, 0.004897391304347827, 0.001), (0.0, 0.0, -0.000984), ("euler", (0.0, 0.5235987755982988, 0.0)), 314.057274977),
        ("jaw_P2_collision", "primitive", _BOX, (0.004419045601593462, 0.00400695652173913, 0.001), (0.002717713044979979, 0.0, -0.002296), ("euler", (0.0, 0.4363323129985824, 0.0)), 314.057274977),
        ("jaw_P3_collision", "primitive", _BOX, (0.003314284201195097, 0.002893913043478261, 0.0006000000000000001), (0.00471070261129863, 0.0, -0.00287), ("euler", (0.0, 0.2617993877991494, 0.0)), 314.057274977),
    ),
    "scapula_L": (
        ("scapula_L_collision", "nonself", _ELLIPSOID, (0.005005370825529099, 0.01463182792067528, 0.02431104406714439), (0.01757062251063465, 0.008636916680112587, -0.01522952249267691), ("quat", (0.1844194062696375, 0.7692222855376651, 0.4740322845517004, 0.3867556738123709)), 513.564612303),
    ),
    "upper_arm_L": (
        ("humerus_L_collision", "primitive", _CAPSULE, (0.007771321151869356, 0.01554264230373871), (-0.007743344450064287, 0.005787978890072665, -0.01198335273722202), ("quat", (0.472560999180163, 0.3450082805420177, 0.0007016050154913519, 0.8109592444517103)), None),
    ),
    "lower_arm_L": (
        ("radius_L_collision", "primitive", _CAPSULE, (0.003732165792697991, 0.01591658941003555), (0.01150545467526729, 0.006850732667129763, -0.01222632491350886), ("quat", (0.02376493230846292, 0.7917721441518218, 0.4232293467931716, 0.4397829234413568)), None),
        ("ulna_L_collision", "primitive", _CAPSULE, (0.004390783285527048, 0.01317234985658114), (0.006749764363547758, 0.004992418652633264, -0.009489848452311813), ("quat", (0.01282244452041863, 0.7446249872782607, 0.4776065607195328, 0.4661128472752391)), None),
    ),
    "hand_L": (
        ("hand_L_collision", "paw", _ELLIPSOID, (0.006470191588681792, 0.003697252336389595, 0.002218351401833757), (0.001515873457919734, 0.0007579367289598669, -0.004547620373759201), ("euler", (-0.6981317007977318, 0.8726646259971648, 0.7853981633974483)), 2531.78122831),
    ),
    "finger_L": (
        ("finger_L0_collision", "paw", _CAPSULE, (0.001848626168194797, 0.003235095794340896), (0.004926588738239136, -0.0007579367289598669, 0.0), ("euler", (1.570796326794897, -1.308996938995747, 0.0)), None),
        ("finger_L1_collision", "paw", _CAPSULE, (0.001848626168194797, 0.003697252336389595), (0.004547620373759201, 0.001894841822399667, 0.0), ("euler", (1.570796326794897, -1.099557428756428, 0.0)), None),
        ("finger_L2_collision", "paw", _CAPSULE, (0.001848626168194797, 0.003235095794340896), (0.002652778551359534, 0.003789683644799335, 0.0), ("euler", (1.570796326794897, -0.9599310885968813, 0.0)), None),
    ),
    "scapula_R": (
        ("scapula_R_collision", "nonself", _ELLIPSOID, (0.005005370266735553, 0.01463183127343655, 0.02431103959679604), (0.01757062018850453, -0.008637295267367218, -0.01522952062810994), ("quat", (0.3867556972129688, 0.4740321312040688, 0.7692223496423682, 0.1844194839763772)), 513.564646393),
    ),
    "upper_arm_R": (
        ("humerus_R_collision", "primitive", _CAPSULE, (0.007771321151869356, 0.01554264230373871), (-0.007743341889514446, -0.005788347560550173, -0.01198335067124012), ("quat", (0.8109593935310486, 0.0007013948082913995, 0.3450082795040448, 0.4725607444157158)), None),
    ),
    "lower_arm_R": (
        ("radius_R_collision", "primitive", _CAPSULE, (0.003732165792697991, 0.01591658941003555), (0.01150546139578159, -0.0068511746740596, -0.01222632995360402), ("quat", (0.4397828585901176, 0.423230473256099, 0.7917715587074765, 0.02376557635859348)), None),
        ("ulna_R_collision", "primitive", _CAPSULE, (0.004390783285527048, 0.01317234985658114), (0.006749766930753688, -0.004992858736000205, -0.009489848507155575), ("quat", (0.4661127828257156, 0.4776067795325061, 0.7446248854693838, 0.01282254930824632)), None),
    ),
    "hand_R": (
        ("hand_R_collision", "paw", _ELLIPSOID, (0.006470191588681792, 0.003697252336389595, 0.002218351401833757), (0.001515873457919734, -0.0007579367289598669, -0.004547620373759201), ("euler", (0.6981317007977318, 0.8726646259971648, -0.7853981633974483)), 2531.78122831),
    ),
    "finger_R": (
        ("finger_R0_collision", "paw", _CAPSULE, (0.001848626168194797, 0.003235095794340896), (0.004926588738239136, 0.0007579367289598669, 0.0), ("euler", (1.570796326794897, 1.308996938995747, 0.0)), None),
        ("finger_R1_collision", "paw", _CAPSULE, (0.001848626168194797, 0.003697252336389595), (0.004547620373759201, -0.001894841822399667, 0.0), ("euler", (1.570796326794897, 1.099557428756428, 0.0)), None),
        ("finger_R2_collision", "paw", _CAPSULE, (0.001848626168194797, 0.003235095794340896), (0.002652778551359534, -0.003789683644799335, 0.0), ("euler", (1.570796326794897, 0.9599310885968813, 0.0)), None),
    ),
}
# fmt: on


def _add_collision_geom(
    body: mujoco.MjsBody,
    name: str,
    geom_class: str,
    geom_type: Any,
    size: tuple[float, ...],
    pos: tuple[float, float, float],
    orientation: _Orientation,
    density: float | None,
) -> mujoco.MjsGeom:
    """Adds one of `_COLLISION_GEOMS` to `body` with its class's contact parameters."""
    contype, conaffinity, condim, priority, friction, rgba = _GEOM_CLASSES[geom_class]
    group, rgba = _COSMETIC_GEOMS.get(name, (_COLLISION_GROUP, rgba))
    geom = body.add_geom(
        name=name,
        type=geom_type,
        size=[*size, *([0.0] * (3 - len(size)))],
        pos=list(pos),
        density=_GEOM_DENSITY if density is None else density,
        group=group,
        contype=contype,
        conaffinity=conaffinity,
        condim=condim,
        priority=priority,
        friction=list(friction),
        solref=list(_GEOM_SOLREF),
        rgba=list(rgba),
    )
    if orientation is not None:
        kind, values = orientation
        if kind == "quat":
            geom.quat = list(values)
        else:
            # MuJoCo turns the angles into the quaternion itself, with the
            # compiler's sequence ("xyz") and unit (radians), as for dm_control.
            geom.alt.euler = list(values)
            geom.alt.type = mujoco.mjtOrientation.mjORIENTATION_EULER
    return geom


# Pairs of bodies that never collide (dm_control rodent.xml's exclusions).
_EXCLUDES = (
    ("torso", "upper_arm_L"),
    ("torso", "upper_arm_R"),
    ("pelvis", "lower_leg_L"),
    ("pelvis", "lower_leg_R"),
    *(("pelvis", f"vertebra_C{i}") for i in range(2, 7)),
    ("upper_leg_L", "vertebra_C1"),
    ("upper_leg_L", "vertebra_C2"),
    ("upper_leg_R", "vertebra_C1"),
    ("upper_leg_R", "vertebra_C2"),
    *((f"vertebra_C{i}", f"vertebra_C{i + k}") for i in range(1, 5) for k in (2, 3)),
    ("vertebra_C5", "vertebra_C7"),
    ("vertebra_cervical_2", "skull"),
    ("vertebra_cervical_1", "skull"),
    ("vertebra_axis", "skull"),
    ("upper_arm_L", "upper_arm_R"),
)

# Tendons coupling joints (rodent.xml, coefficients at full precision): name ->
# ((joint, coefficient), ...).
# fmt: off
_TENDONS: dict[str, tuple[tuple[str, float], ...]] = {
    "lumbar_extend": (
        ("vertebra_1_extend", 0.604983465832),
        ("vertebra_4_extend", 0.395016534168),
    ),
    "lumbar_bend": (
        ("vertebra_2_bend", 0.658212326553),
        ("vertebra_5_bend", 0.341787673447),
    ),
    "lumbar_twist": (
        ("vertebra_3_twist", 0.570669983621),
        ("vertebra_6_twist", 0.429330016379),
    ),
    "cervical_extend": (
        ("vertebra_cervical_5_extend", 0.341713547174),
        ("vertebra_cervical_2_extend", 0.332408292936),
        ("vertebra_atlant_extend", 0.32587815989),
    ),
    "cervical_bend": (
        ("vertebra_cervical_4_bend", 0.50743949691),
        ("vertebra_cervical_1_bend", 0.49256050309),
    ),
    "cervical_twist": (
        ("vertebra_cervical_3_twist", 0.496142185731),
        ("vertebra_axis_twist", 0.503857814269),
    ),
    "caudal_extend": (
        ("vertebra_C1_extend", 0.29007246307),
        ("vertebra_C2_extend", 0.207669040031),
        ("vertebra_C3_extend", 0.151635169821),
        ("vertebra_C4_extend", 0.115426643422),
        ("vertebra_C5_extend", 0.0875497823386),
        ("vertebra_C6_extend", 0.0692562920379),
        ("vertebra_C7_extend", 0.0558691633464),
        ("vertebra_C11_extend", 0.0175306632713),
        ("vertebra_C15_extend", 0.00414417378836),
        ("vertebra_C19_extend", 0.00074642278889),
        ("vertebra_C23_extend", 8.5912797067e-05),
        ("vertebra_C27_extend", 1.42732873368e-05),
    ),
    "caudal_bend": (
        ("vertebra_C1_bend", 0.370792881126),
        ("vertebra_C2_bend", 0.233517805262),
        ("vertebra_C3_bend", 0.150894350178),
        ("vertebra_C4_bend", 0.101885012096),
        ("vertebra_C5_bend", 0.0671743532429),
        ("vertebra_C6_bend", 0.0439561223709),
        ("vertebra_C9_bend", 0.0188199119629),
        ("vertebra_C13_bend", 0.00999889819861),
        ("vertebra_C17_bend", 0.00252642968052),
        ("vertebra_C21_bend", 0.000378783618491),
        ("vertebra_C25_bend", 4.10656566522e-05),
        ("vertebra_C29_bend", 1.43866075466e-05),
    ),
}
# fmt: on
# The tendons' ranges (rodent.xml's tendon classes; the file leaves them unlimited).
_TENDON_RANGES: dict[str, tuple[float, float]] = {
    "lumbar_extend": (-1.0, 1.0),
    "lumbar_bend": (-1.0, 1.0),
    "lumbar_twist": (-1.0, 1.0),
    "cervical_extend": (-1.0, 1.0),
    "cervical_bend": (-1.0, 1.0),
    "cervical_twist": (-1.0, 1.0),
    "caudal_extend": (-0.05, 0.05),
    "caudal_bend": (-0.2, 0.2),
}

# Position actuators (rodent.xml's, in its order): (target, gain, bias (offset,
# -stiffness kp), force limit), the file's numbers at full precision. The gain and
# bias map a control in [-1, 1] onto the target's range as the file's ranges stood
# (kp times the half-width, kp times the middle); as in dm_control, `foot_mods`
# narrows the ankle's and toe's ranges without changing them.
_Actuator = tuple[str, float, float, float, float]
# fmt: off
_TENDON_ACTUATORS: tuple[_Actuator, ...] = (
    ("lumbar_extend", 13.08996938995747, 2.617993877991495, -20.0, 20.0),
    ("lumbar_bend", 10.47197551196598, 0.0, -20.0, 20.0),
    ("lumbar_twist", 10.47197551196598, 0.0, -20.0, 20.0),
    ("cervical_extend", 10.18108730330026, 2.03621746066005, -20.0, 20.0),
    ("cervical_bend", 12.21730476396031, 0.0, -20.0, 20.0),
    ("cervical_twist", 12.21730476396031, 0.0, -20.0, 20.0),
    ("caudal_extend", 0.02617993877991495, 0.0, -0.1, 0.1),
    ("caudal_bend", 0.02617993877991494, 0.0, -0.1, 0.1),
)
_JOINT_ACTUATORS: tuple[_Actuator, ...] = (
    ("hip_L_supinate", 0.2443460952792061, -0.0349065850398866, -0.4, 0.2),
    ("hip_L_abduct", 0.3141592653589793, 0.1047197551196598, -0.4, 0.2),
    ("hip_L_extend", 0.7853981633974482, -0.1570796326794897, -0.6, 0.3),
    ("knee_L", 0.5515240436302081, 0.06283185307179587, -0.4, 0.2),
    ("ankle_L", 0.307177948351002, 0.2513274122871835, -0.4, 0.2),
    ("toe_L", 0.02181661564992912, 0.02181661564992912, -0.05, 0.025),
    ("hip_R_supinate", 0.2443460952792061, -0.0349065850398866, -0.4, 0.2),
    ("hip_R_abduct", 0.3141592653589793, 0.1047197551196598, -0.4, 0.2),
    ("hip_R_extend", 0.7853981633974482, -0.1570796326794897, -0.6, 0.3),
    ("knee_R", 0.5515240436302081, 0.06283185307179587, -0.4, 0.2),
    ("ankle_R", 0.307177948351002, 0.2513274122871835, -0.4, 0.2),
    ("toe_R", 0.02181661564992912, 0.02181661564992912, -0.05, 0.025),
    ("atlas", 0.02181661564992912, 0.0174532925199433, -0.05, 0.025),
    ("mandible", 0.01396263401595464, -0.000872664625997166, -0.05, 0.025),
    ("scapula_L_supinate", 0.04799655442984406, 0.03926990816987241, -0.5, 0.25),
    ("scapula_L_abduct", 0.1308996938995747, 0.0, -0.5, 0.25),
    ("scapula_L_extend", 0.0174532925199433, 0.0, -0.5, 0.25),
    ("shoulder_L", 0.3272492347489368, -0.06544984694978737, -0.3, 0.15),
    ("shoulder_sup_L", 0.1780235837034216, 0.1623156204354726, -0.3, 0.15),
    ("elbow_L", 0.3010692959690218, -0.0916297857297023, -0.3, 0.15),
    ("wrist_L", 0.1221730476396031, 0.08726646259971647, -0.1, 0.05),
    ("finger_L", 0.03926990816987241, 0.03926990816987241, -0.05, 0.025),
    ("scapula_R_supinate", 0.04799655442984406, 0.03926990816987241, -0.5, 0.25),
    ("scapula_R_abduct", 0.1308996938995747, 0.0, -0.5, 0.25),
    ("scapula_R_extend", 0.0174532925199433, 0.0, -0.5, 0.25),
    ("shoulder_R", 0.3272492347489368, -0.06544984694978737, -0.3, 0.15),
    ("shoulder_sup_R", 0.1780235837034216, 0.1623156204354726, -0.3, 0.15),
    ("elbow_R", 0.3010692959690218, -0.0916297857297023, -0.3, 0.15),
    ("wrist_R", 0.1221730476396031, 0.08726646259971647, -0.1, 0.05),
    ("finger_R", 0.03926990816987241, 0.03926990816987241, -0.05, 0.025),
)
# fmt: on
# The actuators' activation filter time constant, s.
_ACTUATOR_TIME_CONSTANT_S = 0.04

# Sites (rodent.xml's, full precision): (name, body, type, size (m), position in
# the body (m), orientation as ("zaxis", direction) or ("euler", angles "xyz" in
# radians) or None, group: 3, or the file's `sensor` class's 4).
_Site = tuple[str, str, Any, tuple[float, ...], tuple[float, float, float], _Orientation, int]
# fmt: off
_SITES: tuple[_Site, ...] = (
    ('hip_L', 'pelvis', _SPHERE, (0.0022,), (-0.004810292416764615, 0.01149125410671547, -0.009887823301127264), None, 3),
    ('hip_R', 'pelvis', _SPHERE, (0.0022,), (-0.004810292416764615, -0.01149125410671547, -0.009887823301127264), None, 3),
    ('knee_L', 'upper_leg_L', _CYLINDER, (0.0006000000000000001, 0.004), (0.01542264534586861, 0.01747899805865108, -0.02570440890978101), ("zaxis", (0.0, 1.0, 0.0)), 3),
    ('ankle_L', 'lower_leg_L', _CYLINDER, (0.0006000000000000001, 0.0026), (-0.03230154033783406, -0.004727054683585472, -0.02205958852339887), ("zaxis", (0.0, 1.0, 0.0)), 3),
    ('toe_L', 'foot_L', _CYLINDER, (0.0006000000000000001, 0.005000000000000001), (0.02109994311367263, 0.007614327297542731, -0.002752166493087734), ("zaxis", (0.0, 1.0, 0.0)), 3),
    ('sole_L', 'toe_L', _BOX, (0.006, 0.004, 0.002), (0.0082, 0.00246, -0.00164), ("euler", (0.0, 0.0, 0.3490658503988659)), 4),
    ('knee_R', 'upper_leg_R', _CYLINDER, (0.0006000000000000001, 0.004), (0.01542264534586861, -0.01747899805865108, -0.02570440890978101), ("zaxis", (0.0, 1.0, 0.0)), 3),
    ('ankle_R', 'lower_leg_R', _CYLINDER, (0.0006000000000000001, 0.0026), (-0.03230154033783406, 0.004727054683585472, -0.02205958852339887), ("zaxis", (0.0, 1.0, 0.0)), 3),
    ('toe_R', 'foot_R', _CYLINDER, (0.0006000000000000001, 0.005000000000000001), (0.02109994311367263, -0.007614327297542731, -0.002752166493087734), ("zaxis", (0.0, 1.0, 0.0)), 3),
    ('sole_R', 'toe_R', _BOX, (0.006, 0.004, 0.002), (0.0082, -0.00246, -0.00164), ("euler", (0.0, 0.0, -0.3490658503988659)), 4),
    ('head', 'skull', _BOX, (0.002, 0.002, 0.002), (0.0, 0.0, 0.0), None, 4),
    ('shoulder_L', 'scapula_L', _SPHERE, (0.002,), (0.0287, 0.00984, -0.02542), None, 3),
    ('elbow_L', 'upper_arm_L', _CYLINDER, (0.0006000000000000001, 0.004), (-0.01593120836133218, 0.01035528543486592, -0.02230369170586505), ("zaxis", (0.0, 1.0, 0.2)), 3),
    ('wrist_L', 'lower_arm_L', _CYLINDER, (0.0008, 0.0034), (0.02160265376479308, 0.01260154802946263, -0.01980243261772699), ("zaxis", (0.0, 1.0, 0.0)), 3),
    ('finger_L', 'hand_L', _CYLINDER, (0.0006000000000000001, 0.005000000000000001), (0.003031746915839468, 0.001515873457919734, -0.008337304018558537), ("zaxis", (-0.2, 1.0, 0.0)), 3),
    ('palm_L', 'finger_L', _BOX, (0.004, 0.004, 0.002), (0.00492, 0.00246, -0.00164), ("euler", (0.0, 0.0, 0.4886921905584123)), 4),
    ('shoulder_R', 'scapula_R', _SPHERE, (0.002,), (0.0287, -0.00984, -0.02542), None, 3),
    ('elbow_R', 'upper_arm_R', _CYLINDER, (0.0006000000000000001, 0.004), (-0.01593120836133218, -0.01035528543486592, -0.02230369170586505), ("zaxis", (0.0, 1.0, -0.2)), 3),
    ('wrist_R', 'lower_arm_R', _CYLINDER, (0.0008, 0.0034), (0.02160265376479308, -0.01260154802946263, -0.01980243261772699), ("zaxis", (0.0, 1.0, 0.0)), 3),
    ('finger_R', 'hand_R', _CYLINDER, (0.0006000000000000001, 0.005000000000000001), (0.003031746915839468, -0.001515873457919734, -0.008337304018558537), ("zaxis", (0.2, 1.0, 0.0)), 3),
    ('palm_R', 'finger_R', _BOX, (0.004, 0.004, 0.002), (0.00492, -0.00246, -0.00164), ("euler", (0.0, 0.0, -0.4886921905584123)), 4),
)
# fmt: on
# rodent.xml's default site colour.
_SITE_RGBA = (0.0, 0.0, 1.0, 1.0)
# MuJoCo's site size, whose entries a site's shorter size leaves in place.
_SITE_SIZE_DEFAULT = (0.005, 0.005, 0.005)


# dm_control rodent.py's mocap joint order.
_RAT_MOCAP_JOINTS = (
    "vertebra_1_extend", "vertebra_2_bend", "vertebra_3_twist", "vertebra_4_extend",
    "vertebra_5_bend", "vertebra_6_twist", "hip_L_supinate", "hip_L_abduct", "hip_L_extend",
    "knee_L", "ankle_L", "toe_L", "hip_R_supinate", "hip_R_abduct", "hip_R_extend", "knee_R",
    "ankle_R", "toe_R", "vertebra_C1_extend", "vertebra_C1_bend", "vertebra_C2_extend",
    "vertebra_C2_bend", "vertebra_C3_extend", "vertebra_C3_bend", "vertebra_C4_extend",
    "vertebra_C4_bend", "vertebra_C5_extend", "vertebra_C5_bend", "vertebra_C6_extend",
    "vertebra_C6_bend", "vertebra_C7_extend", "vertebra_C9_bend", "vertebra_C11_extend",
    "vertebra_C13_bend", "vertebra_C15_extend", "vertebra_C17_bend", "vertebra_C19_extend",
    "vertebra_C21_bend", "vertebra_C23_extend", "vertebra_C25_bend", "vertebra_C27_extend",
    "vertebra_C29_bend", "vertebra_cervical_5_extend", "vertebra_cervical_4_bend",
    "vertebra_cervical_3_twist", "vertebra_cervical_2_extend", "vertebra_cervical_1_bend",
    "vertebra_axis_twist", "vertebra_atlant_extend", "atlas", "mandible", "scapula_L_supinate",
    "scapula_L_abduct", "scapula_L_extend", "shoulder_L", "shoulder_sup_L", "elbow_L",
    "wrist_L", "finger_L", "scapula_R_supinate", "scapula_R_abduct", "scapula_R_extend",
    "shoulder_R", "shoulder_sup_R", "elbow_R", "wrist_R", "finger_R",
)  # fmt: skip

# The order dm_control's rodent.xml writes the joints in, which is the order of
# PyMJCF's `find_all("joint")` and so of dm_control's `primary_joints` and
# `vertebra_joints`: the file lists some spine and tail joints after the bodies
# nested in theirs, so it is not the compiled model's order.
_RAT_DOCUMENT_JOINTS = (
    "vertebra_6_twist", "hip_L_supinate", "hip_L_abduct", "hip_L_extend", "knee_L", "ankle_L",
    "toe_L", "hip_R_supinate", "hip_R_abduct", "hip_R_extend", "knee_R", "ankle_R", "toe_R",
    "vertebra_C29_bend", "vertebra_C27_extend", "vertebra_C25_bend", "vertebra_C23_extend",
    "vertebra_C21_bend", "vertebra_C19_extend", "vertebra_C17_bend", "vertebra_C15_extend",
    "vertebra_C13_bend", "vertebra_C11_extend", "vertebra_C9_bend", "vertebra_C7_extend",
    "vertebra_C6_extend", "vertebra_C6_bend", "vertebra_C5_extend", "vertebra_C5_bend",
    "vertebra_C4_extend", "vertebra_C4_bend", "vertebra_C3_extend", "vertebra_C3_bend",
    "vertebra_C2_extend", "vertebra_C2_bend", "vertebra_C1_extend", "vertebra_C1_bend",
    "vertebra_5_bend", "vertebra_4_extend", "vertebra_3_twist", "vertebra_2_bend",
    "vertebra_1_extend", "vertebra_atlant_extend", "atlas", "mandible", "vertebra_axis_twist",
    "vertebra_cervical_1_bend", "vertebra_cervical_2_extend", "vertebra_cervical_3_twist",
    "vertebra_cervical_4_bend", "vertebra_cervical_5_extend", "scapula_L_supinate",
    "scapula_L_abduct", "scapula_L_extend", "shoulder_L", "shoulder_sup_L", "elbow_L",
    "wrist_L", "finger_L", "scapula_R_supinate", "scapula_R_abduct", "scapula_R_extend",
    "shoulder_R", "shoulder_sup_R", "elbow_R", "wrist_R", "finger_R",
)  # fmt: skip
_PRIMARY_JOINTS = tuple(name for name in _RAT_DOCUMENT_JOINTS if "vertebra" not in name)
_VERTEBRA_JOINTS = tuple(name for name in _RAT_DOCUMENT_JOINTS if "vertebra" in name)

# The torso's height above the walker's origin (its position in rodent.xml).
_TORSO_HEIGHT_M = _BODIES[0][2][2]
# dm_control's rat cameras (rodent.xml): (name, position in m, xyaxes, zaxis, fovy
# in degrees or None for MuJoCo's 45).
_TRACKING_CAMERAS = (
    ("back", (-1.0, 0.0, 0.5), (0.0, -1.0, 0.0, 1.0, 0.0, 2.0), None, None),
    ("side", (0.0, -1.0, 0.5), (1.0, 0.0, 0.0, 0.0, 1.0, 2.0), None, None),
    ("side_alt", (0.5, -0.561, 0.199), (0.766, 0.643, 0.0, -0.162, 0.192, 0.968), None, None),
    ("top", (0.0, 0.0, 1.0), None, (0.0, -0.2, 1.0), 100.0),
)


class RodentObservables(legacy_base.LegacyWalkerObservables):
    """The legacy walker observables and the rat's: head height, tendon lengths and
    velocities, actuator activations, appendage positions, squashed torques."""

    _entity: Rat

    @composer.observable
    def head_height(self) -> observable.Observable:
        """World z of the skull, metres."""
        return observable.MJCFFeature("xpos", self._entity._head, index=2)

    @composer.observable
    def sensors_torque(self) -> observable.Observable:
        """The torque sensors squashed by tanh(2 v / 60) (the rat has none: (0,))."""
        sensors = list(self._entity._torque_sensors)
        if not sensors:
            return observable.Generic(lambda physics: np.zeros(0))
        return observable.MJCFFeature(
            "sensordata",
            sensors,
            corruptor=lambda value, random_state: np.tanh(2 * value / _TORQUE_THRESHOLD),
        )

    @composer.observable
    def tendons_pos(self) -> observable.Observable:
        """Lengths of the 8 coupling tendons (radians of their joints)."""
        return _TendonFeature("length", self._entity)

    @composer.observable
    def tendons_vel(self) -> observable.Observable:
        """Rates of the 8 coupling tendons."""
        return _TendonFeature("velocity", self._entity)

    @composer.observable
    def actuator_activation(self) -> observable.Observable:
        """The actuators' filtered activations, one per actuator."""
        return observable.MJCFFeature("act", list(self._entity._actuators))

    @composer.observable
    def appendages_pos(self) -> observable.Observable:
        """End effectors and head relative to the torso, egocentric, metres (15,)."""
        entity = self._entity

        def relative_positions(physics: Physics) -> np.ndarray:
            bodies = [*entity._end_effectors, entity._head]
            positions = np.reshape(physics.bind(bodies).xpos, (-1, 3))
            torso = np.reshape(physics.bind(entity._root_body).xpos, 3)
            rotation = np.reshape(physics.bind(entity._root_body).xmat, (3, 3))
            return np.reshape((positions - torso) @ rotation, -1)

        return observable.Generic(relative_positions)

    @composer.observable
    def egocentric_camera(self) -> observable.Observable:
        """64 x 64 RGB from the skull, the rat's own geoms hidden."""
        option = mujoco.MjvOption()
        option.geomgroup[_COLLISION_GROUP] = 0
        option.geomgroup[_COSMETIC_GROUP] = 0
        return observable.MJCFCamera(
            self._entity._egocentric_camera, width=64, height=64, scene_option=option
        )

    @property
    def proprioception(self) -> list[observable.Observable]:
        """dm_control's rat order: joints, tendons, activations, body height, end
        effectors, appendages, the world's z axis."""
        return [
            self.joints_pos,
            self.joints_vel,
            self.tendons_pos,
            self.tendons_vel,
            self.actuator_activation,
            self.body_height,
            self.end_effectors_pos,
            self.appendages_pos,
            self.world_zaxis,
        ]


class Rat(legacy_base.LegacyWalker):
    """dm_control's position-controlled rat, controls in [-1, 1] (see the module
    docstring).

    Args:
      params: dm_control's parameter dict (`_STAND_HEIGHT`, `_XML_PATH`); kept
        for `standing_height`'s dm_control form; None uses the torso's height.
      name: the entity's name.
      torque_actuators: make the actuators torque motors (gain = force limit,
        no bias), as dm_control's option.
      foot_mods: dm_control's narrower ankle (-0.1, 2) and toe (-0.7, 0.87) ranges.
      initializer: None, a pose initializer or a sequence of them.
    """

    def _build(
        self,
        params: dict[str, Any] | None = None,
        name: str = "walker",
        torque_actuators: bool = False,
        foot_mods: bool = False,
        initializer: Any = None,
    ) -> None:
        self.params = params
        # dm_control's rat sets this (an empty list it never fills) for its users.
        self.body_sites: list[Any] = []
        spec = mujoco.MjSpec()
        spec.modelname = name
        spec.compiler.degree = False
        # rodent.xml's <size>: room for the contacts of its 100 geoms (MuJoCo sizes
        # the arena from these, about 3.4 GB of address space, as for dm_control).
        spec.njmax = 8000
        spec.nconmax = 4000
        # rodent.xml's <statistic meansize>, the scale of its rendered decor.
        spec.stat.meansize = 0.003
        classes = dict(_JOINT_CLASSES)
        if foot_mods:
            classes["ankle"] = ((-0.1, 2.0), *classes["ankle"][1:])
            classes["toe"] = ((-0.7, 0.87), *classes["toe"][1:])
        bodies: dict[str, mujoco.MjsBody] = {}
        joints: dict[str, mujoco.MjsJoint] = {}
        geoms: dict[str, list[mujoco.MjsGeom]] = {}
        order: list[str] = []
        for body_name, parent_name, position, body_joints in _bodies():
            parent = spec.worldbody if not parent_name else bodies[parent_name]
            body = parent.add_body(name=body_name, pos=list(position))
            if body_name in _BODY_EULERS:
                body.alt.euler = list(_BODY_EULERS[body_name])
                body.alt.type = mujoco.mjtOrientation.mjORIENTATION_EULER
            bodies[body_name] = body
            order.append(body_name)
            for joint_name, joint_class, axis, joint_pos in body_joints:
                joint_range, stiffness, damping, armature = classes[joint_class]
                joints[joint_name] = body.add_joint(
                    name=joint_name,
                    type=mujoco.mjtJoint.mjJNT_HINGE,
                    pos=list(joint_pos),
                    axis=list(axis),
                    range=list(joint_range),
                    limited=mujoco.mjtLimited.mjLIMITED_TRUE,
                    solref_limit=list(_JOINT_SOLREF_LIMIT),
                    solimp_limit=list(_JOINT_SOLIMP_LIMIT),
                    stiffness=stiffness,
                    springref=_JOINT_SPRINGREF.get(joint_class, 0.0),
                    damping=damping,
                    armature=armature,
                    group=_JOINT_GROUP_3 if joint_class.startswith(_SPINE_CLASSES) else 0,
                )
            geoms[body_name] = [
                _add_collision_geom(body, *geom) for geom in _COLLISION_GEOMS[body_name]
            ]
        for first, second in _EXCLUDES:
            spec.add_exclude(bodyname1=first, bodyname2=second)
        tendons = []
        for tendon_name, couplings in _TENDONS.items():
            tendon = spec.add_tendon(
                name=tendon_name,
                range=list(_TENDON_RANGES[tendon_name]),
                limited=mujoco.mjtLimited.mjLIMITED_FALSE,
            )
            for joint_name, coefficient in couplings:
                tendon.wrap_joint(joint_name, coefficient)
            tendons.append(tendon)
        for site_name, body_name, site_type, size, site_pos, orientation, group in _SITES:
            site = bodies[body_name].add_site(
                name=site_name,
                type=site_type,
                size=[*size, *_SITE_SIZE_DEFAULT[len(size) :]],
                pos=list(site_pos),
                group=group,
                rgba=list(_SITE_RGBA),
            )
            if orientation is not None:
                kind, values = orientation
                if kind == "zaxis":
                    site.alt.zaxis = list(values)
                    site.alt.type = mujoco.mjtOrientation.mjORIENTATION_ZAXIS
                else:
                    site.alt.euler = list(values)
                    site.alt.type = mujoco.mjtOrientation.mjORIENTATION_EULER
        actuators = []
        for target, gain, bias_offset, bias_stiffness, force, trntype in (
            *((*row, mujoco.mjtTrn.mjTRN_TENDON) for row in _TENDON_ACTUATORS),
            *((*row, mujoco.mjtTrn.mjTRN_JOINT) for row in _JOINT_ACTUATORS),
        ):
            actuator = spec.add_actuator(
                name=target,
                target=target,
                trntype=trntype,
                dyntype=mujoco.mjtDyn.mjDYN_FILTER,
                dynprm=[_ACTUATOR_TIME_CONSTANT_S] + [0.0] * 9,
                gaintype=mujoco.mjtGain.mjGAIN_FIXED,
                biastype=mujoco.mjtBias.mjBIAS_AFFINE,
                ctrlrange=[-1.0, 1.0],
                ctrllimited=mujoco.mjtLimited.mjLIMITED_TRUE,
                forcerange=[-force, force],
                forcelimited=mujoco.mjtLimited.mjLIMITED_FALSE,
            )
            if torque_actuators:
                actuator.gainprm = [force] + [0.0] * 9
                actuator.biastype = mujoco.mjtBias.mjBIAS_NONE
                actuator.biasprm = [0.0] * 10
            else:
                actuator.gainprm = [gain] + [0.0] * 9
                actuator.biasprm = [bias_offset, bias_stiffness] + [0.0] * 8
            actuators.append(actuator)
        head_site = dict(objtype=_SITE, objname="head")
        accelerometer = spec.add_sensor(
            name="accelerometer", type=mujoco.mjtSensor.mjSENS_ACCELEROMETER, **head_site
        )
        velocimeter = spec.add_sensor(
            name="velocimeter", type=mujoco.mjtSensor.mjSENS_VELOCIMETER, **head_site
        )
        gyro = spec.add_sensor(name="gyro", type=mujoco.mjtSensor.mjSENS_GYRO, **head_site)
        touch_sensors = [
            spec.add_sensor(
                name=site_name, type=mujoco.mjtSensor.mjSENS_TOUCH, objtype=_SITE, objname=site_name
            )
            for site_name in ("palm_L", "palm_R", "sole_L", "sole_R")
        ]
        spec.add_sensor(
            name="torso",
            type=mujoco.mjtSensor.mjSENS_SUBTREELINVEL,
            objtype=mujoco.mjtObj.mjOBJ_BODY,
            objname="torso",
        )
        # dm_control's light above the rat (rodent.xml): 3 m over the torso, following
        # the centre of mass.
        bodies["torso"].add_light(
            name="tracking_light", pos=[0.0, 0.0, 3.0], mode=mujoco.mjtCamLight.mjCAMLIGHT_TRACKCOM
        )
        # dm_control's rat cameras (rodent.xml), `trackcom`, in the torso.
        tracking = [
            base.add_camera(bodies["torso"], name, pos, xyaxes=xyaxes, zaxis=zaxis, fovy=fovy)
            for name, pos, xyaxes, zaxis, fovy in _TRACKING_CAMERAS
        ]
        # The egocentric camera looks forward from the skull, turned by rodent.xml's
        # euler (0, -pi/2, -pi/2) (its radians), which MuJoCo converts.
        egocentric = bodies["skull"].add_camera(
            name="egocentric", pos=[0.01, 0.0, 0.005], fovy=80.0
        )
        egocentric.alt.euler = [0.0, -1.570796326794897, -1.570796326794897]
        egocentric.alt.type = mujoco.mjtOrientation.mjORIENTATION_EULER
        self._spec = spec
        self._bodies = tuple(bodies[name] for name in order)
        self._joints = joints
        self._tendon_names = tuple(tendon.name for tendon in tendons)
        self._head = bodies["skull"]
        self._pelvis = bodies["pelvis"]
        self._arm_roots = (bodies["scapula_L"], bodies["scapula_R"])
        self._joint_actuator_joints = tuple(joints[name] for name, *_ in _JOINT_ACTUATORS)
        # dm_control's list: every geom under these bodies, in its file's order.
        contact_roots = ("foot_L", "foot_R", "hand_L", "hand_R", "vertebra_C1")
        contact_geoms = [
            geom
            for root in contact_roots
            for body_name in _geom_order_in_file(root)
            for geom in geoms[body_name]
        ]
        all_joints = [joints[name] for name in _joint_order()]
        self._set_parts(
            root_body=bodies["torso"],
            observable_joints=self._joint_actuator_joints,
            pose_joints=all_joints,
            initial_qpos=np.zeros(len(all_joints)),
            standing_height=_TORSO_HEIGHT_M,
            end_effectors=[bodies[n] for n in ("lower_arm_R", "lower_arm_L", "foot_R", "foot_L")],
            egocentric_camera=egocentric,
            tracking_cameras=tracking,
            root_sensors=(velocimeter, accelerometer, gyro),
            touch_sensors=touch_sensors,
            torque_sensors=(),
            ground_contact_geoms=contact_geoms,
            mocap_tracking_bodies=[
                body for name, body in bodies.items() if not re.match(r"(vertebra|hand|toe)", name)
            ],
        )
        self._init_legacy(marker_geoms=(), initializer=initializer)

    def _build_observables(self) -> RodentObservables:
        return RodentObservables(self)

    @property
    def upright_pose(self) -> base.WalkerPose:
        """dm_control's rat upright pose: at the origin, unrotated."""
        return base.WalkerPose(xpos=np.zeros(3), xquat=np.array([1.0, 0.0, 0.0, 0.0]))

    @property
    def standing_height(self) -> float:
        """dm_control's `params['_STAND_HEIGHT']` when `params` has it, else the
        torso's height above the walker's origin (0.06509 m)."""
        if self.params and "_STAND_HEIGHT" in self.params:
            return float(self.params["_STAND_HEIGHT"])
        return self._standing_height

    @property
    def pelvis_body(self) -> mjcf.Element:
        return self._handle(self._pelvis)

    @property
    def head(self) -> mjcf.Element:
        return self._handle(self._head)

    @property
    def left_arm_root(self) -> mjcf.Element:
        return self._handle(self._arm_roots[0])

    @property
    def right_arm_root(self) -> mjcf.Element:
        return self._handle(self._arm_roots[1])

    @property
    def bodies(self) -> tuple[mjcf.Element, ...]:
        """All 65 bodies, in model order."""
        return self._handles(self._bodies)

    @property
    def _tendons(self) -> tuple[mujoco.MjsTendon, ...]:
        # Found by name each time: renaming an attached Rat makes its tendons anew
        # (composer_tasks/mjcf/renaming.py).
        model = self.mjcf_model
        spec = model.root_model.spec
        prefix = model.full_identifier
        tendons = tuple(spec.tendon(prefix + name) for name in self._tendon_names)
        if any(tendon is None for tendon in tendons):
            raise RuntimeError(f"the tendons of Rat {model.model!r} are no longer in its model")
        return tendons

    @property
    def observable_tendons(self) -> tuple[mujoco.MjsTendon, ...]:
        """The 8 coupling tendons, as `mujoco.MjsTendon`s (this project's PyMJCF
        handles do not cover tendons; `physics.bind` takes these). Renaming an
        attached Rat (`mjcf_model.model = ...`) makes them anew: read them again."""
        return self._tendons

    @property
    def mocap_joints(self) -> tuple[mjcf.Element, ...]:
        """The 67 joints in dm_control's mocap order."""
        return self._handles(self._joints[name] for name in _RAT_MOCAP_JOINTS)

    @property
    def mocap_joint_order(self) -> tuple[str, ...]:
        return _RAT_MOCAP_JOINTS

    @property
    def primary_joints(self) -> tuple[mjcf.Element, ...]:
        """Joints outside the spine and tail, in the order dm_control lists them
        (its rodent.xml's)."""
        return self._handles(self._joints[name] for name in _PRIMARY_JOINTS)

    @property
    def vertebra_joints(self) -> tuple[mjcf.Element, ...]:
        """The spine's and tail's joints, in the order dm_control lists them (its
        rodent.xml's, not the model's: the file writes some after nested bodies)."""
        return self._handles(self._joints[name] for name in _VERTEBRA_JOINTS)

    @property
    def primary_joint_order(self) -> list[int]:
        """Where each of `primary_joints` sits in `mocap_joint_order`: indices into
        a pose given in mocap order (a list, as dm_control's)."""
        return [_RAT_MOCAP_JOINTS.index(name) for name in _PRIMARY_JOINTS]

    @property
    def vertebra_joint_order(self) -> list[int]:
        """Where each of `vertebra_joints` sits in `mocap_joint_order`."""
        return [_RAT_MOCAP_JOINTS.index(name) for name in _VERTEBRA_JOINTS]

    @property
    def joint_actuators(self) -> tuple[mjcf.Element, ...]:
        """The 30 actuators that drive one joint each."""
        return self._handles(self._actuators[len(_TENDON_ACTUATORS) :])

    @property
    def joint_actuators_range(self) -> list[tuple[float, float]]:
        return [tuple(joint.range) for joint in self._joint_actuator_joints]

    @property
    def joint_actuator_order(self) -> list[int]:
        return [_RAT_MOCAP_JOINTS.index(name) for name, *_ in _JOINT_ACTUATORS]

    def pose_to_actuation(self, pose: Any) -> np.ndarray:
        """Controls that hold `pose` (joint angles in mocap order): zero for the
        tendon actuators, and each joint actuator's control for its angle."""
        pose = np.asarray(pose, dtype=np.float64)
        if pose.shape != (len(_RAT_MOCAP_JOINTS),):
            raise ValueError(
                f"pose must hold {len(_RAT_MOCAP_JOINTS)} joint angles in mocap order, "
                f"got shape {pose.shape}"
            )
        ranges = np.array(self.joint_actuators_range)
        low, high = ranges[:, 0], ranges[:, 1]
        joint_controls = (2 * pose[self.joint_actuator_order] - (low + high)) / (high - low)
        return np.concatenate([np.zeros(len(_TENDON_ACTUATORS)), joint_controls])


class _TendonFeature(observable.MJCFFeature):
    """An `MJCFFeature` of the Rat's tendons that finds them again when it is read
    for a new physics: renaming an attached Rat makes its tendons anew."""

    def __init__(self, kind: str, walker: Rat) -> None:
        super().__init__(kind, list(walker.observable_tendons))
        self._walker = walker

    def _feature_reader(self, physics: Physics, leading_axis: bool) -> Any:
        tendons = list(self._walker.observable_tendons)
        if any(new is not old for new, old in zip(tendons, self._element_list)):
            self._elements = self._element_list = tendons
        return super()._feature_reader(physics, leading_axis)


# Bodies whose geoms rodent.xml writes after their child bodies.
_GEOMS_AFTER_CHILDREN = re.compile(
    r"lower_leg_[LR]|vertebra_C\d+|scapula_[LR]|(upper|lower)_arm_[LR]"
)


def _geom_order_in_file(root: str) -> list[str]:
    """Names of `root` and its descendant bodies in the order rodent.xml writes
    their geoms, the order of dm_control's `find_all('geom')` (the tail's from its
    tip back to `vertebra_C1`)."""
    children: dict[str, list[str]] = {}
    for name, parent, _, _ in _bodies():
        children.setdefault(parent, []).append(name)
    below = [name for child in children.get(root, []) for name in _geom_order_in_file(child)]
    return below + [root] if _GEOMS_AFTER_CHILDREN.fullmatch(root) else [root] + below


def _joint_order() -> list[str]:
    return [joint[0] for _, _, _, joints in _bodies() for joint in joints]
