"""dm-control 1.0.50's public surface, as JSON: run under the reference venv.

    $DM_CONTROL_PYTHON tests/differential/api_surface_dm.py > tests/differential/dm_control_api_surface.json

Lists every public name of the modules in `PACKAGES` (their own public names,
re-exports included), of every public submodule under `WALKED` and of the modules
in `SUITE_DOMAINS` and `DEFINED_HERE` (the names each defines), each class's
public members (its own and those it inherits from private dm_control bases;
members inherited from a public class are that class's rows), the task names of
`suite` and `manipulation`, and `mujoco.engine.Physics`.
Each row: `name` (relative to `dm_control.`), `module` (where it was found),
`qualname` (the attribute path inside it), `kind`, `signature` (text, as
`inspect.signature` prints it; for a class with `_build`, a Composer entity, that
of `_build` without `self`, which receives the constructor's arguments) and
`parameters` ([name, kind, default repr]).
An object reachable under two names is listed once, under the first; the others
are its `aliases`.

Imports only dm_control, its dependencies and the standard library: it runs in
the reference venv, never with this project on the path.
"""

import enum
import importlib
import inspect
import json
import pkgutil
import re
import sys
import types

# Modules whose own public names (re-exports included) are rows.
PACKAGES = (
    "dm_control.mjcf",
    "dm_control.mujoco.engine:Physics",
    "dm_control.mujoco:Physics",
    "dm_control.composer",
    "dm_control.composer.environment",
    "dm_control.composer.observation",
    "dm_control.composer.observation.observable",
    "dm_control.composer.variation",
    "dm_control.composer.initializers",
    "dm_control.locomotion.walkers",
    "dm_control.locomotion.arenas",
    "dm_control.locomotion.tasks",
    "dm_control.locomotion.props",
    "dm_control.locomotion.soccer",
    "dm_control.manipulation",
    "dm_control.manipulation.props",
    "dm_control.suite",
    "dm_control.suite.wrappers",
    "dm_control.utils.rewards",
    "dm_control.utils.transformations",
    "dm_control.utils.inverse_kinematics",
    "dm_control.utils.io",
    "dm_control.suite.base",
    "dm_control.suite.common",
    "dm_control.suite.utils.randomizers",
    "dm_control.suite.utils.parse_amc",
    "dm_control.locomotion.examples.basic_cmu_2019",
    "dm_control.locomotion.examples.basic_rodent_2020",
    "dm_control.locomotion.examples.cmu_2020_tracking",
    "dm_control.rl.control",
    "dm_control.mujoco.engine",
    "dm_control.manipulation.shared.arenas",
    "dm_control.manipulation.shared.cameras",
    "dm_control.manipulation.shared.constants",
    "dm_control.manipulation.shared.observations",
    "dm_control.manipulation.shared.registry",
    "dm_control.manipulation.shared.robots",
    "dm_control.manipulation.shared.tags",
    "dm_control.manipulation.shared.workspaces",
)
# Packages whose public submodules are walked: the names each submodule defines are rows.
WALKED = (
    "dm_control.composer.observation.observable",
    "dm_control.composer.variation",
    "dm_control.composer.initializers",
    "dm_control.locomotion.walkers",
    "dm_control.locomotion.arenas",
    "dm_control.locomotion.tasks",
    "dm_control.locomotion.props",
    "dm_control.locomotion.soccer",
    "dm_control.manipulation.props",
    "dm_control.suite.wrappers",
)
# The Control Suite's domain modules: the names each defines (its Physics and task
# classes, model builders and task factories) are rows.
SUITE_DOMAINS = tuple(
    f"dm_control.suite.{name}"
    for name in (
        "acrobot ball_in_cup cartpole cheetah dog finger fish hopper humanoid humanoid_CMU "
        "lqr manipulator pendulum point_mass quadruped reacher stacker swimmer walker"
    ).split()
)
# Modules a user imports by path (`from dm_control.manipulation import lift`): the
# names each defines are rows, not those it imports.
DEFINED_HERE = (
    "dm_control.composer.define",
    "dm_control.entities.manipulators.base",
    "dm_control.entities.manipulators.kinova.jaco_arm",
    "dm_control.entities.manipulators.kinova.jaco_hand",
    "dm_control.locomotion.mocap.loader",
    "dm_control.locomotion.mocap.props",
    "dm_control.locomotion.mocap.trajectory",
    "dm_control.manipulation.bricks",
    "dm_control.manipulation.lift",
    "dm_control.manipulation.place",
    "dm_control.manipulation.reach",
    "dm_control.mjcf.traversal_utils",
    "dm_control.mujoco.index",
    "dm_control.mujoco.math",
    "dm_control.suite.lqr_solver",
    "dm_control.utils.containers",
    "dm_control.utils.xml_tools",
    "dm_control.viewer",
)
# Submodules that are tests or test helpers, not API.
_NOT_API = re.compile(r"(^|\.)(_[^.]*|[^.]*_test|test_utils|testing|[^.]*_test_utils)(\.|$)")
_PLAIN_CONSTANTS = (int, float, str, bytes, bool, tuple, list, dict, frozenset, set, type(None))


def _default_text(default):
    if default is inspect.Parameter.empty:
        return None
    return re.sub(r" at 0x[0-9a-fA-F]+", "", repr(default))


def _signature(obj):
    # A Composer entity is built by `_build(self, ...)`, called with __init__'s arguments.
    build = getattr(obj, "_build", None) if isinstance(obj, type) else None
    try:
        signature = inspect.signature(build if callable(build) else obj)
    except (TypeError, ValueError):
        return None, None
    if callable(build):
        signature = signature.replace(parameters=list(signature.parameters.values())[1:])
    parameters = [
        [p.name, p.kind.name, _default_text(p.default)] for p in signature.parameters.values()
    ]
    return re.sub(r" at 0x[0-9a-fA-F]+", "", str(signature)), parameters


def _kind(value):
    if isinstance(value, type):
        return "class"
    if isinstance(value, (property, types.GetSetDescriptorType, types.MemberDescriptorType)):
        return "property"
    if isinstance(value, classmethod):
        return "classmethod"
    if isinstance(value, staticmethod):
        return "staticmethod"
    if callable(value):
        return "function"
    if type(value).__name__ == "cached_property" or hasattr(value, "__get__"):
        return "property"
    return "constant"


def _is_public_object(value, module_name, defined_here_only):
    if isinstance(value, types.ModuleType):
        return False
    if isinstance(value, (type, types.FunctionType)) or callable(value):
        origin = getattr(value, "__module__", None) or ""
        if defined_here_only:
            return origin == module_name
        return origin.startswith("dm_control")
    if isinstance(value, _PLAIN_CONSTANTS) or isinstance(value, enum.Enum):
        return True
    return type(value).__module__.startswith("dm_control")


class Surface:
    def __init__(self):
        self.rows = {}
        self._seen = {}
        self._classes = {}

    def _add(self, name, module, qualname, value, owner=None):
        key = id(value) if isinstance(value, (type, types.FunctionType)) else None
        if key is not None and key in self._seen:
            self.rows[self._seen[key]]["aliases"].append(name)
            return
        if name in self.rows:
            return
        raw = inspect.getattr_static(owner, qualname.split(".")[-1]) if owner else value
        kind = _kind(raw)
        target = value
        if kind == "property":
            target = getattr(raw, "fget", None) or getattr(raw, "func", None)
            signature, parameters = None, None
        elif kind == "constant":
            signature, parameters = None, None
        else:
            signature, parameters = _signature(target)
        self.rows[name] = {
            "name": name,
            "module": module,
            "qualname": qualname,
            "kind": kind,
            "signature": signature,
            "parameters": parameters,
            "aliases": [],
        }
        if key is not None:
            self._seen[key] = name
        if kind == "class":
            self._classes[name] = value
            self._add_members(name, module, qualname, value)

    def _add_members(self, name, module, qualname, cls):
        # Own members, and those inherited from private dm_control bases (whose rows
        # exist nowhere else); members of public bases are those bases' rows.
        owners = [cls] + [
            base
            for base in cls.__mro__[1:]
            if base.__name__.startswith("_") and base.__module__.startswith("dm_control")
        ]
        members = {}
        for owner in reversed(owners):
            for member in vars(owner):
                if not member.startswith("_") or member == "__init__":
                    members[member] = owner
        for member in sorted(members):
            if member == "__init__":
                continue
            try:
                value = getattr(cls, member)
            except AttributeError:
                continue
            if isinstance(value, types.ModuleType):
                continue
            self._add_member(f"{name}.{member}", module, f"{qualname}.{member}", cls, member)

    def _add_member(self, name, module, qualname, cls, member):
        raw = inspect.getattr_static(cls, member)
        kind = _kind(raw)
        if kind == "class":
            self._add(name, module, qualname, getattr(cls, member))
            return
        if kind == "property" or kind == "constant":
            signature, parameters = None, None
        else:
            signature, parameters = _signature(getattr(cls, member))
        self.rows[name] = {
            "name": name,
            "module": module,
            "qualname": qualname,
            "kind": "method" if kind == "function" else kind,
            "signature": signature,
            "parameters": parameters,
            "aliases": [],
        }

    def add_module(self, module_name, defined_here_only):
        module = importlib.import_module(module_name)
        public = getattr(module, "__all__", None) or [
            n for n in vars(module) if not n.startswith("_")
        ]
        for attribute in sorted(public):
            value = getattr(module, attribute, None)
            if value is None and not hasattr(module, attribute):
                continue
            if not _is_public_object(value, module_name, defined_here_only):
                continue
            relative = module_name[len("dm_control.") :]
            self._add(f"{relative}.{attribute}", module_name, attribute, value)

    def add_class(self, spec):
        module_name, class_name = spec.split(":")
        value = getattr(importlib.import_module(module_name), class_name)
        relative = module_name[len("dm_control.") :]
        self._add(f"{relative}.{class_name}", module_name, class_name, value)

    def add_task_names(self):
        from dm_control import manipulation, suite

        for domain, task in suite.ALL_TASKS:
            self._add_task(f"suite.ALL_TASKS:{domain}.{task}", "dm_control.suite")
        for name in manipulation.ALL:
            self._add_task(f"manipulation.ALL:{name}", "dm_control.manipulation")

    def add_mjcf_elements(self):
        """What a PyMJCF element offers beyond the abstract `mjcf.Element`: the public
        members of the private classes its instances are (a site's `attach`, a
        frame's, a default's, an actuator's), as `mjcf.Element.<member>`; and the
        sections of a model (`worldbody`, `default`, ...), as `mjcf.RootElement.<section>`."""
        from dm_control import mjcf
        from dm_control.mjcf import element

        implementations = [
            value
            for name, value in sorted(vars(element).items())
            if isinstance(value, type) and name.startswith("_") and issubclass(value, mjcf.Element)
        ]
        for cls in implementations:
            for member in sorted(vars(cls)):
                if member.startswith("_") or f"mjcf.Element.{member}" in self.rows:
                    continue
                self._add_member(
                    f"mjcf.Element.{member}", "dm_control.mjcf", f"Element.{member}", cls, member
                )
        for section in mjcf.RootElement().spec.children:
            name = f"mjcf.RootElement.{section}"
            self.rows.setdefault(
                name,
                {
                    "name": name,
                    "module": "dm_control.mjcf",
                    "qualname": f"RootElement.{section}",
                    "kind": "section",
                    "signature": None,
                    "parameters": None,
                    "aliases": [],
                },
            )

    def add_bases(self):
        """Each class row's public dm_control bases that are rows, nearest first: a
        marker naming an inherited member through a class ("locomotion.walkers.Ant.attach")
        resolves through them."""
        for name, cls in self._classes.items():
            self.rows[name]["bases"] = [
                self._seen[id(base)] for base in cls.__mro__[1:] if id(base) in self._seen
            ]

    def _add_task(self, name, module):
        self.rows[name] = {
            "name": name,
            "module": module,
            "qualname": name.split(":", 1)[1],
            "kind": "task",
            "signature": None,
            "parameters": None,
            "aliases": [],
        }


def _submodules(package_name):
    package = importlib.import_module(package_name)
    names = []
    for info in pkgutil.walk_packages(package.__path__, package_name + "."):
        if not _NOT_API.search(info.name[len(package_name) :]):
            names.append(info.name)
    return sorted(names)


def surface():
    """{"dm_control": version, "mujoco": version, "rows": [...]}, rows in a fixed order."""
    import dm_control
    import mujoco

    table = Surface()
    for spec in PACKAGES:
        if ":" in spec:
            table.add_class(spec)
        else:
            table.add_module(spec, defined_here_only=False)
    for package_name in WALKED:
        for module_name in _submodules(package_name):
            table.add_module(module_name, defined_here_only=True)
    for module_name in SUITE_DOMAINS:
        table.add_module(module_name, defined_here_only=True)
    for module_name in DEFINED_HERE:
        table.add_module(module_name, defined_here_only=True)
    table.add_mjcf_elements()
    table.add_task_names()
    table.add_bases()
    version = getattr(dm_control, "__version__", None)
    if version is None:
        from importlib import metadata

        version = metadata.version("dm_control")
    return {"dm_control": version, "mujoco": mujoco.__version__, "rows": list(table.rows.values())}


def main(argv):
    data = surface()
    # One row a line: the committed file diffs row by row when dm_control is re-read.
    rows = ",\n".join("  " + json.dumps(row) for row in data.pop("rows"))
    text = json.dumps(data)[:-1] + ', "rows": [\n' + rows + "\n]}\n"
    if len(argv) > 1:
        with open(argv[1], "w", encoding="utf-8") as handle:
            handle.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
