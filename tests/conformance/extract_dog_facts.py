"""Writes `mjcf_models/dog_facts.py`: the published dog's compiled model facts.

Run with the reference virtual environment's interpreter, from the repository root:

    MUJOCO_GL=disable .venvs/dm_control/bin/python tests/conformance/extract_dog_facts.py

The published dog (dm_control 1.0.50, `suite/dog.xml`) draws its bones as meshes
that may not be copied, and the meshes also give the bodies their mass. This
script compiles the published model (the fetch variant, which has every element)
with MuJoCo 3.17 and writes the numbers this project's MjSpec builder
(`mjcf_models/dog.py`) needs as plain Python data: per body its pose in the
parent and its mass and inertia (the compiled values, meshes included), per
joint, primitive geom (collision shapes, teeth, eyes' irises, the ball, floor,
walls and target), site, tendon, actuator, camera and contact exclusion the
compiled parameters. No mesh, skin or texture is read or written; angles are in
radians. It checks the settings the builder sets once for all elements (joint
limit solver parameters, actuator types) and fails if they are not uniform.
Like make_reference.py it imports nothing of this project.
"""

import os
import sys

import mujoco
import numpy as np
from dm_control import suite

_OUTPUT = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir, "mjcf_models", "dog_facts.py"
)

_HEADER = '''"""The published dog's compiled model facts (generated; do not edit).

Written by `tests/conformance/extract_dog_facts.py` from dm_control 1.0.50's
`suite/dog.xml` compiled with MuJoCo 3.17.0 (the fetch variant). Units: metres,
radians, kilograms, kg m^2, N m/rad (joint stiffness), N m s/rad (damping).
Quaternions are (w, x, y, z). Bodies and every other element are listed in the
published model's order, which fixes the qpos layout and contact order.
`mjcf_models/dog.py` builds the model from these numbers.
"""

'''


def _number(value):
    value = float(value)
    return repr(0.0 if value == 0 else value)


def _vector(values):
    return (
        "("
        + ", ".join(_number(v) for v in np.ravel(values))
        + ("," if np.size(values) == 1 else "")
        + ")"
    )


def _name(model, obj, index):
    return mujoco.mj_id2name(model, obj, int(index)) or ""


def _rows(title, doc, rows):
    lines = [f"# {line}" for line in doc.split("\n")]
    lines.append(f"{title} = (")
    lines.extend(_wrapped(row) for row in rows)
    lines.append(")")
    return "\n".join(lines) + "\n\n"


def _wrapped(fields, width=99):
    """One row as a tuple literal, its fields packed into lines of at most `width`."""
    lines, line = [], "    ("
    for index, field in enumerate(fields):
        piece = field + (", " if index < len(fields) - 1 else "),")
        if len(line) + len(piece.rstrip()) > width and line.strip() != "(":
            lines.append(line.rstrip())
            line = "     "
        line += piece
    lines.append(line)
    return "\n".join(lines)


def _uniform(model, field, rows):
    values = np.asarray(getattr(model, field))[rows]
    if not np.all(values == values[0]):
        raise RuntimeError(f"{field} is not uniform over {rows}: {values}")
    return values[0]


def main():
    env = suite.load("dog", "fetch")
    model = env.physics.model.ptr
    obj = mujoco.mjtObj

    def body(index):
        return repr(_name(model, obj.mjOBJ_BODY, index) or "world")

    text = _HEADER

    text += _rows(
        "BODIES",
        "(name, parent, pos, quat, mass, inertial pos, inertial quat, diagonal inertia)",
        [
            (
                repr(_name(model, obj.mjOBJ_BODY, b)),
                body(model.body_parentid[b]),
                _vector(model.body_pos[b]),
                _vector(model.body_quat[b]),
                _number(model.body_mass[b]),
                _vector(model.body_ipos[b]),
                _vector(model.body_iquat[b]),
                _vector(model.body_inertia[b]),
            )
            for b in range(1, model.nbody)
        ],
    )

    hinges = np.flatnonzero(model.jnt_type == mujoco.mjtJoint.mjJNT_HINGE)
    for field in ("jnt_solref", "jnt_solimp", "jnt_margin", "jnt_limited"):
        _uniform(model, field, hinges)
    dofs = model.jnt_dofadr[hinges]
    for field in ("dof_frictionloss", "dof_solref", "dof_solimp"):
        _uniform(model, field, dofs)
    rows = []
    for j in range(model.njnt):
        name = repr(_name(model, obj.mjOBJ_JOINT, j))
        if model.jnt_type[j] == mujoco.mjtJoint.mjJNT_FREE:
            rows.append(
                (
                    name,
                    body(model.jnt_bodyid[j]),
                    "'free'",
                    "()",
                    "()",
                    "()",
                    "0.0",
                    "0.0",
                    "0.0",
                    "0.0",
                    str(int(model.jnt_group[j])),
                )
            )
            continue
        dof = model.jnt_dofadr[j]
        rows.append(
            (
                name,
                body(model.jnt_bodyid[j]),
                "'hinge'",
                _vector(model.jnt_pos[j]),
                _vector(model.jnt_axis[j]),
                _vector(model.jnt_range[j]),
                _number(model.jnt_stiffness[j]),
                _number(model.dof_damping[dof]),
                _number(model.dof_armature[dof]),
                _number(model.qpos_spring[model.jnt_qposadr[j]]),
                str(int(model.jnt_group[j])),
            )
        )
    text += _rows(
        "JOINTS",
        "(name, body, type, pos, axis, range, stiffness, damping, armature, spring\n"
        "reference, group); a free joint has no pos, axis or range. Every hinge is\n"
        f"limited, with limit solref {model.jnt_solref[hinges[0]].tolist()} and solimp "
        f"{model.jnt_solimp[hinges[0]].tolist()}.",
        rows,
    )

    primitives = [g for g in range(model.ngeom) if model.geom_type[g] != mujoco.mjtGeom.mjGEOM_MESH]
    text += _rows(
        "GEOMS",
        "Primitive geoms: (name, body, type, size, pos, quat, contype, conaffinity,\n"
        "condim, priority, friction, solref, solimp, group, rgba). Mesh geoms (the bones)\n"
        "are left out: none of them collides (contype and conaffinity 0).",
        [
            (
                repr(_name(model, obj.mjOBJ_GEOM, g)),
                body(model.geom_bodyid[g]),
                repr(mujoco.mjtGeom(model.geom_type[g]).name),
                _vector(model.geom_size[g]),
                _vector(model.geom_pos[g]),
                _vector(model.geom_quat[g]),
                str(int(model.geom_contype[g])),
                str(int(model.geom_conaffinity[g])),
                str(int(model.geom_condim[g])),
                str(int(model.geom_priority[g])),
                _vector(model.geom_friction[g]),
                _vector(model.geom_solref[g]),
                _vector(model.geom_solimp[g]),
                str(int(model.geom_group[g])),
                _vector(model.geom_rgba[g]),
            )
            for g in primitives
        ],
    )
    meshes = [g for g in range(model.ngeom) if g not in primitives]
    if np.any(model.geom_contype[meshes]) or np.any(model.geom_conaffinity[meshes]):
        raise RuntimeError("a mesh geom collides; the builder assumes none does")
    for field in ("geom_solmix", "geom_margin", "geom_gap"):
        _uniform(model, field, primitives)

    text += _rows(
        "SITES",
        "(name, body, type, size, pos, quat, group)",
        [
            (
                repr(_name(model, obj.mjOBJ_SITE, s)),
                body(model.site_bodyid[s]),
                repr(mujoco.mjtGeom(model.site_type[s]).name),
                _vector(model.site_size[s]),
                _vector(model.site_pos[s]),
                _vector(model.site_quat[s]),
                str(int(model.site_group[s])),
            )
            for s in range(model.nsite)
        ],
    )

    for field in ("tendon_stiffness", "tendon_damping", "tendon_frictionloss", "tendon_limited"):
        if np.any(getattr(model, field)):
            raise RuntimeError(f"{field} is not zero; the builder assumes plain fixed tendons")
    rows = []
    for t in range(model.ntendon):
        start, count = model.tendon_adr[t], model.tendon_num[t]
        rows.extend(
            (
                repr(_name(model, obj.mjOBJ_TENDON, t)),
                repr(_name(model, obj.mjOBJ_JOINT, model.wrap_objid[w])),
                _number(model.wrap_prm[w]),
            )
            for w in range(start, start + count)
        )
    text += _rows(
        "TENDON_JOINTS", "Fixed tendons, term by term: (tendon, joint, coefficient)", rows
    )

    for field in (
        "actuator_dyntype",
        "actuator_gaintype",
        "actuator_biastype",
        "actuator_ctrlrange",
        "actuator_dynprm",
        "actuator_gear",
    ):
        _uniform(model, field, np.arange(model.nu))
    rows = []
    for a in range(model.nu):
        trntype = mujoco.mjtTrn(model.actuator_trntype[a])
        target_obj = obj.mjOBJ_TENDON if trntype == mujoco.mjtTrn.mjTRN_TENDON else obj.mjOBJ_JOINT
        rows.append(
            (
                repr(_name(model, obj.mjOBJ_ACTUATOR, a)),
                repr("tendon" if target_obj == obj.mjOBJ_TENDON else "joint"),
                repr(_name(model, target_obj, model.actuator_trnid[a, 0])),
                _number(model.actuator_gainprm[a, 0]),
            )
        )
    text += _rows(
        "ACTUATORS",
        "(name, transmission, target, gain); every actuator filters its control\n"
        f"(time constant {model.actuator_dynprm[0, 0]} s) and has control range "
        f"{model.actuator_ctrlrange[0].tolist()}.",
        rows,
    )

    text += _rows(
        "EXCLUDES",
        "Body pairs that never collide.",
        [
            (body(signature >> 16), body(signature & 0xFFFF))
            for signature in model.exclude_signature
        ],
    )

    text += _rows(
        "CAMERAS",
        "(name, body, mode, target body, pos, quat, fovy (degrees))",
        [
            (
                repr(_name(model, obj.mjOBJ_CAMERA, c)),
                body(model.cam_bodyid[c]),
                repr(mujoco.mjtCamLight(model.cam_mode[c]).name),
                body(model.cam_targetbodyid[c]) if model.cam_targetbodyid[c] >= 0 else "None",
                _vector(model.cam_pos[c]),
                _vector(model.cam_quat[c]),
                _number(model.cam_fovy[c]),
            )
            for c in range(model.ncam)
        ],
    )

    text = text.rstrip("\n") + "\n"
    with open(_OUTPUT, "w") as output:
        output.write(text)
    print(
        f"wrote {os.path.normpath(_OUTPUT)}: {model.nbody - 1} bodies, {model.njnt} joints, "
        f"{len(primitives)} primitive geoms, {model.nsite} sites, {model.ntendon} tendons, "
        f"{model.nu} actuators"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
