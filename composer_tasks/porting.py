"""Porting dm_control code: the module table and an import rewriter.

dm_control code runs here with its imports changed. `MODULE_MAP` is the one table
of that change (dm_control module -> this project's module); the porting guide
(docs/porting_from_dm_control.md), the differential tests and the runner of
dm_control's own tests all read it. `rewrite_imports` applies it to source text:

    python -m composer_tasks.porting my_dm_control_program.py > ported.py

A module is mapped by its longest listed prefix, the rest of its dotted path kept
(`dm_control.locomotion.walkers.ant` -> `composer_tasks.walkers.ant`). Imports of
names that the table cannot map raise `PortingError` naming the import and line:
a program is never half-ported silently.
"""

from __future__ import annotations

import ast
import importlib.util
import sys
from typing import Mapping

# dm_control module -> this project's module. Longest prefix wins.
MODULE_MAP: Mapping[str, str] = {
    "dm_control.mjcf": "composer_tasks.mjcf",
    "dm_control.composer": "composer_tasks.composer",
    # dm_control's observable package is one module here.
    "dm_control.composer.observation.observable.base": "composer_tasks.composer.observation.observable",
    "dm_control.composer.observation.observable.mjcf": "composer_tasks.composer.observation.observable",
    "dm_control.composer.observation.observable.mujoco_feature": (
        "composer_tasks.composer.observation.observable"
    ),
    "dm_control.utils.rewards": "composer_tasks.rewards",
    "dm_control.utils.containers": "composer_tasks.utils.containers",
    "dm_control.utils.transformations": "composer_tasks.utils.transformations",
    "dm_control.utils.inverse_kinematics": "composer_tasks.utils.inverse_kinematics",
    "dm_control.utils.io": "composer_tasks.utils.io",
    "dm_control.utils.xml_tools": "composer_tasks.utils.xml_tools",
    "dm_control.viewer": "composer_tasks.viewer.dm_viewer",
    "dm_control.suite": "suites.suite",
    "dm_control.suite.wrappers": "suites.wrappers",
    "dm_control.locomotion.walkers": "composer_tasks.walkers",
    "dm_control.locomotion.arenas": "composer_tasks.arenas",
    "dm_control.locomotion.tasks": "composer_tasks.tasks",
    "dm_control.locomotion.props": "composer_tasks.props",
    # Motion-capture data: the HDF5 loader, trajectories, their props and walker helpers.
    "dm_control.locomotion.mocap": "composer_tasks.mocap",
    "dm_control.manipulation": "suites.manipulation",
    # Its props are dm_control's manipulation variants ("body_geom", a touch sensor),
    # not entities.props.Primitive (composer_tasks.props.Primitive).
    "dm_control.manipulation.props": "composer_tasks.props.manipulation",
    "dm_control.manipulation.props.primitive": "composer_tasks.props.manipulation",
    "dm_control.entities.manipulators.kinova": "composer_tasks.robots",
    # The abstract RobotArm, RobotHand and JointsObservables.
    "dm_control.entities.manipulators.base": "composer_tasks.robots.base",
    "dm_control.entities.props": "composer_tasks.props",
    "dm_control.mujoco": "composer_tasks.physics",
    "dm_control.mujoco.engine": "composer_tasks.physics",
    "dm_control.mujoco.math": "composer_tasks.mujoco_math",
    # dm_control's named-indexing machinery (the axes and field indexers of `physics.named`).
    "dm_control.mujoco.index": "composer_tasks.mjcf.indexing",
    # MuJoCo's C functions (`mjlib`, the `mujoco` module as in dm_control), enums and
    # header constants; the rest of dm_control.mujoco.wrapper is in NO_COUNTERPART.
    "dm_control.mujoco.wrapper.mjbindings": "composer_tasks.mjbindings",
    # The wrapper's visualisation structs (MjvOption, MjvScene, ...) as subclasses of
    # MuJoCo's with dm_control's defaults, and its `MjModel` loaders; its `core` is in
    # NO_COUNTERPART.
    "dm_control.mujoco.wrapper": "composer_tasks.mujoco.wrapper",
    # The wrapper's string conversions (`to_binary_string`, `to_native_string`).
    "dm_control.mujoco.wrapper.util": "composer_tasks.mujoco.wrapper_util",
    "dm_control.suite.base": "suites.base",
    # A suite task of one's own: the model files and shared assets, the joint randomiser.
    "dm_control.suite.common": "suites.common",
    "dm_control.suite.utils": "suites.utils",
    # The Control Suite's Environment (flat_observation, flatten_observation).
    "dm_control.rl.control": "suites.control",
    "dm_control.locomotion.arenas.floors": "composer_tasks.arenas.floor",
    "dm_control.locomotion.arenas.bowl": "composer_tasks.arenas.bowl",
    "dm_control.locomotion.soccer": "suites.soccer",
    "dm_control.locomotion.soccer.boxhead": "composer_tasks.walkers.boxhead",
    "dm_control.locomotion.walkers.fruitfly_v2": "composer_tasks.walkers.fruitfly_v2",
    "dm_control.locomotion.soccer.soccer_ball": "composer_tasks.props.soccer_ball",
    "dm_control.locomotion.soccer.pitch": "composer_tasks.arenas.pitch",
    "dm_control.locomotion.soccer.team": "composer_tasks.walkers.soccer_team",
    "dm_control.locomotion.soccer.humanoid": "composer_tasks.walkers.soccer_humanoid",
    "dm_control.locomotion.soccer.task": "composer_tasks.tasks.soccer.task",
    "dm_control.locomotion.soccer.initializers": "composer_tasks.tasks.soccer.initializers",
    "dm_control.locomotion.soccer.observables": "composer_tasks.tasks.soccer.observables",
    "dm_control.locomotion.soccer.camera": "composer_tasks.tasks.soccer.camera",
    "dm_control.locomotion.soccer.explore": "suites.soccer_explore",
    # The reference environments' factories (basic_cmu_2019, basic_rodent_2020, ...).
    "dm_control.locomotion.examples": "suites.locomotion_examples",
    "dm_control.manipulation.bricks": "composer_tasks.tasks.manipulation.bricks",
    "dm_control.manipulation.lift": "composer_tasks.tasks.manipulation.lift",
    "dm_control.manipulation.place": "composer_tasks.tasks.manipulation.place",
    "dm_control.manipulation.reach": "composer_tasks.tasks.manipulation.reach",
    "dm_control.manipulation.shared.arenas": "composer_tasks.arenas.table",
    "dm_control.manipulation.shared": "composer_tasks.tasks.manipulation.shared",
    "dm_control.entities.props.duplo": "composer_tasks.props.bricks",
    "dm_control.entities.props.duplo.utils": "composer_tasks.props.duplo_utils",
    # Each Control Suite domain module: `from dm_control.suite import cartpole`.
    **{
        f"dm_control.suite.{domain}": f"suites.{domain}"
        for domain in (
            "acrobot",
            "ball_in_cup",
            "cartpole",
            "cheetah",
            "dog",
            "finger",
            "fish",
            "hopper",
            "humanoid",
            "humanoid_CMU",
            "lqr",
            "lqr_solver",
            "manipulator",
            "pendulum",
            "point_mass",
            "quadruped",
            "reacher",
            "stacker",
            "swimmer",
            "walker",
        )
    },
}


# dm_control modules with no counterpart here, and why: an import of them (or of a
# name from them) raises `PortingError` with the reason, rather than being rewritten
# to a module path that does not exist. The longest prefix of either table decides
# (`dm_control.mujoco.wrapper.mjbindings` maps, the rest of `dm_control.mujoco.wrapper`
# does not, though `dm_control.mujoco` maps).
NO_COUNTERPART: Mapping[str, str] = {
    "dm_control.viewer.application": "dm_control.viewer's own application (GUI toolkit, runtime, views); its entry point `viewer.launch` has a counterpart (composer_tasks.viewer.dm_viewer), and this project's viewer is composer_tasks.viewer",
    "dm_control.viewer.gui": "dm_control.viewer's own application (GUI toolkit, runtime, views); its entry point `viewer.launch` has a counterpart (composer_tasks.viewer.dm_viewer), and this project's viewer is composer_tasks.viewer",
    "dm_control.viewer.renderer": "dm_control.viewer's own application (GUI toolkit, runtime, views); its entry point `viewer.launch` has a counterpart (composer_tasks.viewer.dm_viewer), and this project's viewer is composer_tasks.viewer",
    "dm_control.viewer.runtime": "dm_control.viewer's own application (GUI toolkit, runtime, views); its entry point `viewer.launch` has a counterpart (composer_tasks.viewer.dm_viewer), and this project's viewer is composer_tasks.viewer",
    "dm_control.viewer.user_input": "dm_control.viewer's own application (GUI toolkit, runtime, views); its entry point `viewer.launch` has a counterpart (composer_tasks.viewer.dm_viewer), and this project's viewer is composer_tasks.viewer",
    "dm_control.viewer.util": "dm_control.viewer's own application (GUI toolkit, runtime, views); its entry point `viewer.launch` has a counterpart (composer_tasks.viewer.dm_viewer), and this project's viewer is composer_tasks.viewer",
    "dm_control.viewer.viewer": "dm_control.viewer's own application (GUI toolkit, runtime, views); its entry point `viewer.launch` has a counterpart (composer_tasks.viewer.dm_viewer), and this project's viewer is composer_tasks.viewer",
    "dm_control.viewer.views": "dm_control.viewer's own application (GUI toolkit, runtime, views); its entry point `viewer.launch` has a counterpart (composer_tasks.viewer.dm_viewer), and this project's viewer is composer_tasks.viewer",
    "dm_control.mujoco.wrapper.core": "dm_control's ctypes wrapper of MuJoCo; this project "
    "uses MuJoCo's official bindings (`mujoco`), and physics.model/data are MuJoCo's structs "
    "(the wrapper's `mjbindings`, visualisation structs, `MjModel` loaders and `util` have "
    "counterparts: composer_tasks.mjbindings, composer_tasks.mujoco.wrapper and "
    "wrapper_util)",
    "dm_control.mujoco.wrapper.mjbindings.sizes": "the array-shape table of dm_control's "
    "ctypes struct wrappers, generated from MuJoCo 3.17's headers; MuJoCo's own structs "
    "carry their shapes (`physics.model.body_pos.shape`)",
    "dm_control.locomotion.mocap.mocap_pb2": "dm_control's protocol-buffer classes of "
    "motion-capture clips; clips here are dataclasses with the same field names "
    "(composer_tasks.mocap.records), with no protobuf dependency",
}


class PortingError(ValueError):
    """An import of dm_control that `MODULE_MAP` does not cover."""


def map_module(name: str, table: Mapping[str, str] = MODULE_MAP) -> str | None:
    """This project's module for dm_control module `name`, or None if the table has no prefix."""
    parts = name.split(".")
    for length in range(len(parts), 0, -1):
        prefix = ".".join(parts[:length])
        target = table.get(prefix)
        if target is not None:
            return ".".join([target, *parts[length:]])
    return None


def _no_counterpart(name: str, table: Mapping[str, str] = MODULE_MAP) -> str | None:
    """Why dm_control module `name` has no counterpart here, or None if it may: the
    reason of its longest prefix in NO_COUNTERPART, unless `table` maps a longer one."""
    parts = name.split(".")
    for length in range(len(parts), 0, -1):
        prefix = ".".join(parts[:length])
        if prefix in table:
            return None
        reason = NO_COUNTERPART.get(prefix)
        if reason is not None:
            return reason
    return None


def _is_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def _rewrite_import_from(node: ast.ImportFrom, table: Mapping[str, str]) -> list[str]:
    module = node.module or ""
    statements = []
    for alias in node.names:
        bound = alias.asname or alias.name
        reason = _no_counterpart(f"{module}.{alias.name}", table)
        if reason is not None:
            raise PortingError(
                f"line {node.lineno}: `from {module} import {alias.name}` has no counterpart: "
                f"{reason}"
            )
        target = map_module(f"{module}.{alias.name}", table)
        if target is not None and alias.name != "*" and _is_module(target):
            statements.append(f"import {target} as {bound}")
            continue
        mapped_module = map_module(module, table)
        if mapped_module is None:
            raise PortingError(
                f"line {node.lineno}: `from {module} import {alias.name}` has no counterpart "
                "in composer_tasks.porting.MODULE_MAP"
            )
        suffix = f" as {alias.asname}" if alias.asname else ""
        statements.append(f"from {mapped_module} import {alias.name}{suffix}")
    return statements


def _rewrite_import(node: ast.Import, table: Mapping[str, str]) -> list[str]:
    statements = []
    for alias in node.names:
        if alias.name.split(".")[0] != "dm_control":
            statements.append(
                f"import {alias.name}" + (f" as {alias.asname}" if alias.asname else "")
            )
            continue
        reason = _no_counterpart(alias.name, table)
        if reason is not None:
            raise PortingError(
                f"line {node.lineno}: `import {alias.name}` has no counterpart: {reason}"
            )
        target = map_module(alias.name, table)
        if target is None or alias.asname is None:
            raise PortingError(
                f"line {node.lineno}: `import {alias.name}` is only portable as "
                "`import dm_control.X as Y` with X in composer_tasks.porting.MODULE_MAP"
            )
        statements.append(f"import {target} as {alias.asname}")
    return statements


def rewrite_imports(source: str, table: Mapping[str, str] = MODULE_MAP) -> str:
    """`source` with every `dm_control` import replaced by this project's module.

    Only import statements change; every other line is kept as written (an import
    spanning several lines becomes one line followed by blank ones, so line numbers
    in tracebacks stay those of the original).
    """
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    edits = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.split(".")[0] != "dm_control":
                continue
            statements = _rewrite_import_from(node, table)
        elif isinstance(node, ast.Import):
            if not any(alias.name.split(".")[0] == "dm_control" for alias in node.names):
                continue
            statements = _rewrite_import(node, table)
        else:
            continue
        edits.append((node, statements))
    # Right to left, so that an edit never moves the columns of one still to come
    # (two imports on one line, `from dm_control import a; from dm_control import b`).
    for node, statements in sorted(
        edits, key=lambda edit: (edit[0].lineno, edit[0].col_offset), reverse=True
    ):
        start, end = node.lineno - 1, (node.end_lineno or node.lineno) - 1
        # AST columns count UTF-8 bytes.
        head = lines[start].encode()[: node.col_offset].decode()
        last = lines[end].encode()
        tail = last[node.end_col_offset :].decode() if node.end_col_offset is not None else "\n"
        replacement = head + "; ".join(statements) + (tail if tail else "\n")
        lines[start : end + 1] = [replacement] + ["\n"] * (end - start)
    return "".join(lines)


def main(argv: list[str]) -> int:
    """`python -m composer_tasks.porting FILE`: prints FILE with its imports ported."""
    if len(argv) != 2:
        print("usage: python -m composer_tasks.porting FILE.py", file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as handle:
        source = handle.read()
    try:
        sys.stdout.write(rewrite_imports(source))
    except PortingError as error:
        print(f"{argv[1]}: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
