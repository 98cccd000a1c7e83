"""A seeded fuzzer of `composer_tasks.mjcf`: random PyMJCF programs and random MJCF text.

Each case builds a model from random operations (adding elements with random
attribute values, setting and clearing attributes, removing elements, attaching
and detaching models, default classes, finds, uses of removed handles) or parses
random, possibly malformed, MJCF text, and then compiles what it got. It checks:

* every call either succeeds or raises a clear error of this project's API
  (`ValueError`, `TypeError`, `AttributeError`, `RuntimeError` for detaching a
  model that is not attached, `mjcf.RemovedElementError`) with a message;
* a call that failed left the model exactly as it was (the number of elements of
  every kind, and the attributes of the element it was called on);
* the model compiles, or compiling raises a `ValueError`.

A crash of the process (a segmentation fault inside MuJoCo) is the failure the
caller sees: `tests/mjcf/test_fuzz.py` runs this module in a subprocess.

    python -m tests.mjcf.fuzz_mjcf --seed 0 --cases 200
"""

import argparse
import random
import sys
import traceback

import numpy as np

from composer_tasks import mjcf
from composer_tasks.mjcf import attributes

ALLOWED = (ValueError, TypeError, AttributeError)
_COLLECTIONS = (
    "bodies",
    "geoms",
    "sites",
    "joints",
    "cameras",
    "lights",
    "actuators",
    "sensors",
    "equalities",
    "excludes",
    "pairs",
    "keys",
    "materials",
    "textures",
)
_BODY_TAGS = ("body", "geom", "site", "joint", "freejoint", "camera", "light", "inertial", "wheel")
_SECTION_TAGS = {
    "actuator": ("motor", "position", "velocity", "general", "cylinder"),
    "sensor": ("touch", "jointpos", "framepos", "accelerometer", "gyro", "actuatorfrc"),
    "contact": ("pair", "exclude"),
    "equality": ("weld", "connect", "joint"),
    "asset": ("material", "texture"),
    "keyframe": ("key",),
}
_NAMESPACES = ("body", "geom", "site", "joint", "actuator", "sensor", "default", "material", "x")


class FuzzFailure(AssertionError):
    """A property of the API did not hold."""


def _comparable(value: object) -> object:
    """An attribute's value, comparable across reads (a referred element by its name)."""
    if isinstance(value, mjcf.Element):
        return ("element", value.full_identifier)
    return repr(np.asarray(value).tolist())


class _RaisingFloat:
    def __float__(self) -> float:
        raise RuntimeError("a __float__ that raises")


class _Case:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        name = self.name() if rng.random() < 0.8 else None
        try:
            self.model = mjcf.RootElement(model=name)
        except TypeError:  # a name that is not a string
            self.model = mjcf.RootElement(model="fallback")
        self.bodies = [self.model.worldbody]
        self.handles = []
        self.removed = []
        self.attached = []
        self.classes = [None]

    # Random values.

    def name(self) -> object:
        rng = self.rng
        roll = rng.random()
        if roll < 0.75:
            return rng.choice("abcxyz") + str(rng.randrange(20))
        return rng.choice(["", "a/b", "ü名", "world", 7, None, "x" * 300, "a b"])

    def number(self) -> object:
        rng = self.rng
        return rng.choice(
            [
                rng.uniform(-2, 2),
                rng.randrange(-3, 5),
                0.0,
                1e-9,
                float("nan"),
                float("inf"),
                10**400,
                2**40,
                True,
                "0.5",
                "abc",
                _RaisingFloat(),
                np.float32(0.3),
            ]
        )

    def value(self, attribute: object) -> object:
        rng = self.rng
        roll = rng.random()
        if roll < 0.1:
            return self.number()
        if roll < 0.15:
            return rng.choice([None, [], [[1, 2], [3, 4]], {"a": 1}, object(), "", "true"])
        if roll < 0.3 and self.handles:
            return rng.choice(self.handles + self.removed + self.bodies)
        if isinstance(attribute, attributes.Vector):
            length = rng.choice([attribute.size, attribute.size, 1, attribute.size + 1, 0])
            values = [rng.uniform(-1, 1) + 0.5 for _ in range(length)]
            if rng.random() < 0.2 and values:
                values[rng.randrange(len(values))] = self.number()
            return rng.choice([values, " ".join(str(v) for v in values), np.array(values)])
        if isinstance(attribute, attributes.Keyword):
            return rng.choice([*attribute.keywords, "blob", 3])
        if isinstance(attribute, attributes.Boolean):
            return rng.choice([True, False, "true", "false", "maybe", 2])
        if isinstance(attribute, (attributes.Reference, attributes.Custom)):
            return self.name() if rng.random() < 0.5 else self.rng.choice(self.handles or [None])
        if isinstance(attribute, attributes.Text):
            return rng.choice(["xyz", "", 5])
        return self.number()

    def attribute_values(self, tag: str, count: int) -> dict:
        table = attributes.ELEMENT_ATTRIBUTES.get(tag, {})
        names = list(table) + ["nope"]
        values = {}
        for name in self.rng.sample(names, min(count, len(names))):
            if name == "name":
                values[name] = self.name()
            else:
                values[name] = self.value(table.get(name))
        if self.rng.random() < 0.2:
            values["dclass"] = self.rng.choice(self.classes + ["nope"])
        return values

    # Operations.

    def operation(self) -> None:
        rng = self.rng
        choice = rng.random()
        if choice < 0.35:
            self.add_to_body()
        elif choice < 0.5:
            self.add_to_section()
        elif choice < 0.65:
            self.set_attribute()
        elif choice < 0.7:
            self.remove()
        elif choice < 0.78:
            self.attach()
        elif choice < 0.82:
            self.detach()
        elif choice < 0.88:
            self.default_class()
        elif choice < 0.95:
            self.find()
        else:
            self.use_removed()

    def guarded(self, call, target=None) -> object:
        """Runs `call`; a failure must be an allowed error and change nothing."""
        before = self.state(target)
        try:
            return call()
        except ALLOWED as error:
            if not str(error):
                raise FuzzFailure(f"{type(error).__name__} without a message") from error
            after = self.state(target)
            if after != before:
                raise FuzzFailure(
                    f"a failed call changed the model: {before} -> {after}"
                ) from error
            return None
        except RuntimeError as error:
            if "not attached" not in str(error):
                raise
            return None

    def state(self, target: object) -> tuple:
        spec = self.model.spec if not self.model._detached else None
        try:
            counts = tuple(len(getattr(spec, kind)) for kind in _COLLECTIONS) if spec else ()
        except ValueError as error:  # MuJoCo's keyframe check: see `_keyframe_error`
            _keyframe_error(error)
            counts = ("unreadable",)
        attributes_of = ()
        if target is not None and not getattr(target, "is_removed", False):
            try:
                attributes_of = tuple(
                    (key, _comparable(value))
                    for key, value in sorted(target.get_attributes().items())
                )
            except (AttributeError, mjcf.RemovedElementError):
                attributes_of = ("unreadable",)
        return counts, attributes_of

    def live(self, handles: list) -> list:
        return [handle for handle in handles if not handle.is_removed]

    def add_to_body(self) -> None:
        bodies = self.live(self.bodies)
        parent = self.rng.choice(bodies)
        tag = self.rng.choice(_BODY_TAGS)
        values = self.attribute_values(tag, self.rng.randrange(5))
        if tag == "geom" and "size" not in values and self.rng.random() < 0.8:
            values["size"] = [0.05, 0.05, 0.05]
        handle = self.guarded(lambda: parent.add(tag, **values))
        if handle is not None:
            (self.bodies if tag == "body" else self.handles).append(handle)

    def add_to_section(self) -> None:
        section = self.rng.choice(list(_SECTION_TAGS))
        tag = self.rng.choice(_SECTION_TAGS[section])
        values = self.attribute_values("equality_joint" if tag == "joint" else tag, 3)
        handle = self.guarded(lambda: getattr(self.model, section).add(tag, **values))
        if handle is not None:
            self.handles.append(handle)

    def set_attribute(self) -> None:
        candidates = self.live(self.handles + self.bodies[1:])
        if not candidates:
            return
        handle = self.rng.choice(candidates)
        table = attributes.ELEMENT_ATTRIBUTES.get(handle._tag, {})
        names = list(table) + ["nope", "dclass"]
        if self.rng.random() < 0.5:
            name = self.rng.choice(names)
            value = self.name() if name == "name" else self.value(table.get(name))
            self.guarded(lambda: setattr(handle, name, value), handle)
        else:
            values = {}
            for name in self.rng.sample(names, min(3, len(names))):
                values[name] = self.value(table.get(name))
            self.guarded(lambda: handle.set_attributes(**values), handle)

    def remove(self) -> None:
        candidates = self.live(self.handles + self.bodies[1:])
        if candidates:
            handle = self.rng.choice(candidates)
            self.guarded(handle.remove)
            if handle.is_removed:
                self.removed.append(handle)

    def attach(self) -> None:
        child = mjcf.RootElement(model=self.rng.choice(["leg", "arm", "leg", None]))
        body = child.worldbody.add("body", name="b")
        body.add("joint", name="j", axis=[0, 0, 1])
        body.add("geom", name="g", size=[0.05])
        if self.rng.random() < 0.3:
            child.compiler.angle = self.rng.choice(["radian", "degree"])
        sites = [h for h in self.live(self.handles) if h.tag == "site"]
        where = self.rng.choice([self.model.worldbody, *sites])
        frame = self.guarded(lambda: where.attach(child))
        if frame is not None:
            self.attached.append(child)
            self.bodies.append(frame)
            self.handles.extend([child.find("joint", "j"), child.find("geom", "g")])
            self.bodies.append(child.find("body", "b"))

    def detach(self) -> None:
        if self.attached:
            child = self.rng.choice(self.attached)
            self.guarded(child.detach)

    def default_class(self) -> None:
        rng = self.rng
        if rng.random() < 0.5:
            parent = self.model.default
            name = self.name()
            created = self.guarded(lambda: parent.add("default", dclass=name))
            if created is not None:
                self.classes.append(name)
        else:
            dclass = rng.choice(self.classes)
            cls = self.model.default if dclass is None else self.model.find("default", dclass)
            if cls is None:
                return
            tag = rng.choice(["geom", "joint", "site", "motor"])
            values = self.attribute_values(tag, 2)
            values.pop("name", None)
            values.pop("dclass", None)
            defaults = getattr(cls, tag)
            self.guarded(lambda: defaults.set_attributes(**values))

    def find(self) -> None:
        where = self.rng.choice([self.model, *self.live(self.bodies)])
        namespace = self.rng.choice(_NAMESPACES)
        identifier = self.name()
        self.guarded(lambda: where.find(namespace, identifier))
        if namespace not in ("default", "x"):
            self.guarded(lambda: where.find_all(namespace))

    def use_removed(self) -> None:
        if not self.removed:
            return
        handle = self.rng.choice(self.removed)
        use = self.rng.choice(
            [
                lambda: handle.name,
                lambda: handle.get_attributes(),
                lambda: setattr(handle, "name", "x"),
                handle.remove,
                lambda: handle.find("geom", "g"),
                lambda: handle.add("geom", size=[1]),
            ]
        )
        try:
            use()
        except mjcf.RemovedElementError:
            return
        except AttributeError:
            return  # an element kind without that method (a geom's `add`)
        raise FuzzFailure(f"a removed {handle.tag} handle could still be used")

    def finish(self) -> None:
        """Reads every element back, then compiles."""
        if self.model._detached:
            return
        try:
            for namespace in ("body", "geom", "site", "joint", "actuator", "sensor"):
                for handle in self.model.find_all(namespace):
                    handle.get_attributes()
        except ValueError as error:
            _keyframe_error(error)
        try:
            mjcf.Physics.from_mjcf_model(self.model)
        except ValueError as error:
            if not str(error):
                raise FuzzFailure("a compile error without a message") from error


def _keyframe_error(error: ValueError) -> None:
    """Accepts MuJoCo's refusal to list a model's elements while a keyframe has the wrong
    sizes for it (once models are attached, MjSpec checks keyframes when it lists
    elements) or two elements of a kind share a name (which `add` leaves to MuJoCo, see
    docs/mjcf.md): a clear ValueError naming the keyframe or the name; re-raises
    anything else."""
    text = str(error)
    if not (("Keyframe" in text and "size" in text) or "repeated name" in text):
        raise error


def _xml_case(rng: random.Random) -> None:
    case = _Case(rng)
    for _ in range(rng.randrange(3, 12)):
        case.operation()
    try:
        text = case.model.to_xml_string()
    except ValueError:
        text = "<mujoco><worldbody><geom size='0.1'/></worldbody></mujoco>"
    for _ in range(rng.randrange(4)):
        position = rng.randrange(len(text) + 1)
        mutation = rng.choice(
            [
                "",
                "<",
                ">",
                '"',
                "</body>",
                "<geom size='x'/>",
                "<include file='/etc/hostname'/>",
                "\x00",
                "&amp;",
                "<default class='q'><geom rgba='1 0'/></default>",
                " class='missing'",
            ]
        )
        cut = rng.randrange(4)
        text = text[:position] + mutation + text[position + cut :]
    try:
        model = mjcf.from_xml_string(text)
    except ALLOWED as error:
        if not str(error):
            raise FuzzFailure("a parse error without a message") from error
        return
    try:
        for namespace in ("body", "geom", "site", "joint", "actuator", "sensor"):
            for handle in model.find_all(namespace):
                handle.get_attributes()
    except ValueError as error:
        _keyframe_error(error)
    try:
        mjcf.Physics.from_mjcf_model(model)
    except ValueError as error:
        if not str(error):
            raise FuzzFailure("a compile error without a message") from error


def run_case(seed: int, index: int) -> None:
    rng = random.Random(seed * 1_000_003 + index)
    if rng.random() < 0.3:
        _xml_case(rng)
        return
    case = _Case(rng)
    for _ in range(rng.randrange(5, 30)):
        case.operation()
    case.finish()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cases", type=int, default=200)
    args = parser.parse_args()
    failures = 0
    for index in range(args.cases):
        # Written before the case runs: after a crash, the last line names it.
        print(f"case {args.seed}/{index}", file=sys.stderr, flush=True)
        try:
            run_case(args.seed, index)
        except Exception:  # every failure is reported, and the run goes on
            failures += 1
            print(f"FAILED case {args.seed}/{index}:\n{traceback.format_exc()}", flush=True)
    print(f"{args.cases - failures} of {args.cases} cases passed", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
