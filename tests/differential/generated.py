"""Random PyMJCF programs written for dm_control, for differential testing.

`program(seed)` writes one model's program as straight-line dm_control code (a
reader can run it under dm_control as is); `batch(seeds)` puts several in one
program, each in a function whose exception, if any, is recorded, so one slow
worker round trip checks many models. Each model is a random tree of bodies with
joints (hinge, slide, ball; free on top-level bodies), geoms (sphere, capsule,
box, cylinder, sizes valid for each), sites, actuators (motor, position,
velocity with gear and ctrlrange), sensors, fixed tendons, default classes with
child classes, and sub-models attached at sites and at the world body (frames
with and without a free joint). The program compiles it with
`mjcf.Physics.from_mjcf_model` and records, under `"<seed>/..."`:

* `size/*`: nq, nv, nu, nbody, ngeom, nsite, nsensor, nsensordata, ntendon;
* `names/<kind>`: the full identifiers `find_all` gives for each element kind;
* `named/*`: `physics.named.model/data` reads by each element's full name;
* `bind/<kind>/<field>`: `physics.bind(elements)` reads (shapes and values);
* `dyn/*`: 20 steps with a control drawn from `RandomState(seed)`;
* `env/*` (one seed in four): the model wrapped in a Composer task (observables on
  its joints, sites and sensors; a variator on a geom's colour and a body's
  position), its specs, and two seeded episodes' observations and rewards.

`Features` turns each kind of content on or off: where the generator finds a
divergence in a layer this harness does not own, the regression goes to
test_generated_regressions.py and the feature is switched off in the default run
(`AVOID`) until it is fixed.

    python -m tests.differential.generated 17            # print the program of seed 17
    python -m tests.differential.generated 17 --compare  # run it on both sides, show differences
"""

from __future__ import annotations

import dataclasses
import sys

import numpy as np

SENSORS_ON_JOINT = ("jointpos", "jointvel")
SENSORS_ON_SITE = ("accelerometer", "touch", "gyro", "velocimeter")
SENSORS_ON_BODY = ("framepos", "framequat", "framelinvel")
GEOM_TYPES = ("sphere", "capsule", "box", "cylinder")
ACTUATORS = ("motor", "position", "velocity")
ELEMENT_KINDS = ("body", "joint", "geom", "site", "actuator", "sensor", "tendon")
TRAJECTORY_STEPS = 20


@dataclasses.dataclass(frozen=True)
class Features:
    """Which content the generator may use; all on by default."""

    hinge: bool = True
    slide: bool = True
    ball: bool = True
    free: bool = True
    sphere: bool = True
    capsule: bool = True
    box: bool = True
    cylinder: bool = True
    sites: bool = True
    motor: bool = True
    position: bool = True
    velocity: bool = True
    accelerometer: bool = True
    joint_sensors: bool = True
    site_sensors: bool = True
    body_sensors: bool = True
    tendons: bool = True
    defaults: bool = True
    attach_site: bool = True
    # Attachments at any site in any order (else only at the sites of bodies without
    # child bodies, in the sites' order).
    attach_site_in_any_order: bool = True
    attach_frame: bool = True
    attach_freejoint: bool = True
    unnamed_sites: bool = True
    floor: bool = True
    # Collisions on (else `option.flag.contact = 'disable'`).
    contacts: bool = True
    # The model wrapped in a Composer task, run for two episodes (seeds divisible by 4).
    composer: bool = True
    # Actuators without a ctrlrange (else every actuator has ctrlrange [-1, 1]).
    unlimited_actuators: bool = True
    # Records each find_all list in its own order (else only sorted by identifier).
    find_all_order: bool = True
    # The floor geom added before the model's defaults are set (else after).
    defaults_after_elements: bool = True


# Features switched off in the default run because of a divergence recorded in
# test_generated_regressions.py (the test named beside each).
AVOID: dict[str, str] = {
    "contacts": "test_contact_dynamics_differ_between_mujoco_3_17_and_4",
    "accelerometer": "test_accelerometer_on_a_body_fixed_to_the_world",
    "attach_site_in_any_order": "test_site_attachment_frame_takes_the_sites_place",
}


def default_features() -> Features:
    return dataclasses.replace(Features(), **{name: False for name in AVOID})


def _vector(values: np.ndarray | list[float]) -> str:
    return "[" + ", ".join(f"{float(v):.6g}" for v in values) + "]"


class _Writer:
    """Emits one model's builder as lines of dm_control code."""

    def __init__(self, seed: int, features: Features) -> None:
        self.rng = np.random.RandomState(seed)
        self.features = features
        self.lines: list[str] = []
        self.counter = 0

    def name(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def emit(self, line: str) -> None:
        self.lines.append(line)

    def unit(self) -> np.ndarray:
        axis = self.rng.normal(size=3)
        return axis / max(np.linalg.norm(axis), 1e-3)

    def choose(self, options: tuple[str, ...]) -> str | None:
        """One of `options` whose feature is on, or None if none is."""
        enabled = [option for option in options if getattr(self.features, option)]
        return enabled[self.rng.randint(len(enabled))] if enabled else None

    def geom(self, body: str, classes: list[str]) -> None:
        kind = self.choose(GEOM_TYPES) or "sphere"
        radius = self.rng.uniform(0.02, 0.12)
        size = {
            "sphere": [radius],
            "capsule": [radius, self.rng.uniform(0.02, 0.2)],
            "cylinder": [radius, self.rng.uniform(0.02, 0.2)],
            "box": list(self.rng.uniform(0.02, 0.15, size=3)),
        }[kind]
        attributes = [
            f"name='{self.name('g')}'",
            f"type='{kind}'",
            f"size={_vector(size)}",
            f"pos={_vector(self.rng.uniform(-0.1, 0.1, size=3))}",
        ]
        if self.rng.rand() < 0.3:
            attributes.append(f"euler={_vector(self.rng.uniform(-90, 90, size=3))}")
        if classes and self.rng.rand() < 0.5:
            attributes.append(f"dclass='{classes[self.rng.randint(len(classes))]}'")
        if self.rng.rand() < 0.3:
            attributes.append(f"density={self.rng.uniform(200, 2000):.6g}")
        self.emit(f"{body}.add('geom', {', '.join(attributes)})")

    def joints(self, body: str, top_level: bool, joints: list[tuple[str, str]]) -> None:
        f = self.features
        if top_level and f.free and self.rng.rand() < 0.25:
            variable = self.name("j")
            self.emit(f"{variable} = {body}.add('freejoint', name='{variable}')")
            return
        kinds = [k for k, on in (("hinge", f.hinge), ("slide", f.slide), ("ball", f.ball)) if on]
        used: set[str] = set()
        for _ in range(self.rng.randint(0, 3) if kinds else 0):
            kind = kinds[self.rng.randint(len(kinds))]
            # A ball joint alone, at most one hinge and one slide: a body's degrees of
            # freedom stay independent (a singular inertia matrix stops dm_control).
            if kind in used or (used and kind == "ball") or "ball" in used:
                continue
            used.add(kind)
            variable = self.name("j")
            attributes = [f"name='{variable}'", f"type='{kind}'"]
            if kind != "ball":
                attributes.append(f"axis={_vector(self.unit())}")
                if self.rng.rand() < 0.5:
                    low = -self.rng.uniform(0.1, 1.5)
                    attributes.append(f"range={_vector([low, low + self.rng.uniform(0.2, 2.5)])}")
                    attributes.append("limited='true'")
            if self.rng.rand() < 0.5:
                attributes.append(f"damping={self.rng.uniform(0.0, 2.0):.6g}")
            self.emit(f"{variable} = {body}.add('joint', {', '.join(attributes)})")
            joints.append((variable, kind))

    def body_tree(
        self,
        parent: str,
        depth: int,
        classes: list[str],
        joints: list[tuple[str, str]],
        sites: list[str],
        bodies: list[str],
        leaf_sites: list[str],
    ) -> None:
        for _ in range(self.rng.randint(1, 3) if depth < 3 else 0):
            variable = self.name("b")
            pos = _vector(self.rng.uniform(-0.3, 0.3, size=3))
            extra = ""
            if self.rng.rand() < 0.3:
                extra = f", quat={_vector(np.append(1.0, self.rng.uniform(-0.5, 0.5, size=3)))}"
            self.emit(f"{variable} = {parent}.add('body', name='{variable}', pos={pos}{extra})")
            bodies.append(variable)
            # Free joints only on the main model's top-level bodies: an attached model's
            # bodies hang below its attachment frame.
            self.joints(variable, depth == 0 and parent.endswith("worldbody"), joints)
            for _ in range(self.rng.randint(1, 3)):
                self.geom(variable, classes)
            own_sites = []
            if self.features.sites:
                for _ in range(self.rng.randint(0, 3)):
                    site = self.name("s")
                    named = not self.features.unnamed_sites or self.rng.rand() < 0.8
                    label = f"name='{site}', " if named else ""
                    self.emit(
                        f"{site} = {variable}.add('site', {label}"
                        f"pos={_vector(self.rng.uniform(-0.05, 0.05, size=3))}, "
                        f"size=[{self.rng.uniform(0.01, 0.05):.6g}])"
                    )
                    if named:
                        own_sites.append(site)
            sites.extend(own_sites)
            if self.rng.rand() < 0.6:
                self.body_tree(variable, depth + 1, classes, joints, sites, bodies, leaf_sites)
            else:
                leaf_sites.extend(own_sites)

    def defaults(self, model: str) -> list[str]:
        if not self.features.defaults or self.rng.rand() < 0.3:
            return []
        self.emit(f"{model}.default.geom.rgba = {_vector(self.rng.uniform(0.2, 1.0, size=4))}")
        self.emit(f"{model}.default.joint.armature = {self.rng.uniform(0.0, 0.1):.6g}")
        classes = []
        parent = f"{model}.default"
        for _ in range(self.rng.randint(1, 3)):
            variable = self.name("c")
            self.emit(f"{variable} = {parent}.add('default', dclass='{variable}')")
            self.emit(f"{variable}.geom.friction = {_vector(self.rng.uniform(0.3, 1.5, size=3))}")
            if self.rng.rand() < 0.5:
                self.emit(f"{variable}.geom.density = {self.rng.uniform(300, 3000):.6g}")
            classes.append(variable)
            parent = variable if self.rng.rand() < 0.5 else parent
        return classes

    def model(
        self, variable: str, label: str, depth_offset: int, early: tuple[str, ...] = ()
    ) -> dict[str, list]:
        """Emits the content of model `variable` (its attached models' too: a new
        `mjcf.RootElement` unless `depth_offset` is 0); returns its parts."""
        if depth_offset:
            self.emit(f"{variable} = mjcf.RootElement(model='{label}')")
        classes = self.defaults(variable)
        for line in early:
            self.emit(line)
        joints: list[tuple[str, str]] = []
        sites: list[str] = []
        bodies: list[str] = []
        leaf_sites: list[str] = []
        self.body_tree(
            f"{variable}.worldbody",
            depth_offset,
            classes,
            joints,
            sites,
            bodies,
            leaf_sites,
        )
        actuated = [j for j, kind in joints if kind in ("hinge", "slide")]
        for joint in actuated:
            kind = self.choose(ACTUATORS)
            if kind is None or self.rng.rand() < 0.3:
                continue
            actuator = self.name("a")
            attributes = [f"name='{actuator}'", f"joint={joint}"]
            if self.rng.rand() < 0.7:
                attributes.append(f"gear=[{self.rng.uniform(0.5, 5):.6g}]")
            if self.rng.rand() < 0.7 or not self.features.unlimited_actuators:
                attributes.append(f"ctrlrange={_vector([-1.0, 1.0])}")
                attributes.append("ctrllimited='true'")
            if kind == "position":
                attributes.append(f"kp={self.rng.uniform(1, 10):.6g}")
            if kind == "velocity":
                attributes.append(f"kv={self.rng.uniform(0.1, 5):.6g}")
            self.emit(f"{actuator} = {variable}.actuator.add('{kind}', {', '.join(attributes)})")
        if self.features.tendons and len(actuated) >= 2 and self.rng.rand() < 0.5:
            tendon = self.name("t")
            self.emit(f"{tendon} = {variable}.tendon.add('fixed', name='{tendon}')")
            for joint in actuated[: self.rng.randint(2, len(actuated) + 1)]:
                self.emit(
                    f"{tendon}.add('joint', joint={joint}, coef={self.rng.uniform(-2, 2):.6g})"
                )
        f = self.features
        for joint in actuated:
            if f.joint_sensors and self.rng.rand() < 0.4:
                kind = SENSORS_ON_JOINT[self.rng.randint(len(SENSORS_ON_JOINT))]
                self.emit(
                    f"{variable}.sensor.add('{kind}', name='{self.name('n')}', joint={joint})"
                )
        for site in sites:
            if f.site_sensors and self.rng.rand() < 0.4:
                kind = SENSORS_ON_SITE[self.rng.randint(len(SENSORS_ON_SITE))]
                if kind == "accelerometer" and not f.accelerometer:
                    continue
                self.emit(f"{variable}.sensor.add('{kind}', name='{self.name('n')}', site={site})")
        for body in bodies:
            if f.body_sensors and self.rng.rand() < 0.2:
                kind = SENSORS_ON_BODY[self.rng.randint(len(SENSORS_ON_BODY))]
                self.emit(
                    f"{variable}.sensor.add('{kind}', name='{self.name('n')}', "
                    f"objtype='body', objname={body})"
                )
        return {"sites": sites, "bodies": bodies, "leaf_sites": leaf_sites}


def model_builder(seed: int, features: Features | None = None) -> list[str]:
    """The lines of a function body that builds one random model as `model`."""
    writer = _Writer(seed, features or default_features())
    f = writer.features
    floor = (
        "model.worldbody.add('geom', name='floor', type='plane', size=[5, 5, 0.1], pos=[0, 0, -1])"
    )
    with_floor = f.floor and writer.rng.rand() < 0.5
    floor_last = writer.rng.rand() < 0.5
    floor_first = f.defaults_after_elements and writer.rng.rand() < 0.5
    writer.emit("model = mjcf.RootElement(model='m%d')" % seed)
    # Attachment frames with a free joint have no geoms of their own: a lower bound on
    # each body's mass and inertia keeps such models (and small bodies) well posed.
    writer.emit("model.compiler.boundmass = 0.05")
    writer.emit("model.compiler.boundinertia = 0.0005")
    if not f.contacts:
        writer.emit("model.option.flag.contact = 'disable'")
    if with_floor and not floor_last and floor_first:
        writer.emit(floor)
    early = [floor] if with_floor and not floor_last and not floor_first else []
    parts = writer.model("model", f"m{seed}", 0, tuple(early))
    if with_floor and floor_last:
        writer.emit(floor)
    attach_sites = parts["sites"] if f.attach_site_in_any_order else parts["leaf_sites"]
    places = [
        p for p, on in (("site", f.attach_site and attach_sites), ("frame", f.attach_frame)) if on
    ]
    plan = []
    for _ in range(writer.rng.randint(0, 3) if places else 0):
        place = places[writer.rng.randint(len(places))]
        site = attach_sites[writer.rng.randint(len(attach_sites))] if place == "site" else None
        plan.append(site)
    if not f.attach_site_in_any_order:
        # Site attachments in the sites' order, before the world body's frames.
        plan.sort(key=lambda site: int(site[1:]) if site else np.inf)
    for index, site in enumerate(plan):
        child = f"sub{index}"
        writer.model(child, f"sub{index}", 1)
        if site is not None:
            writer.emit(f"frame{index} = {site}.attach({child})")
            continue
        writer.emit(f"frame{index} = model.attach({child})")
        writer.emit(f"frame{index}.pos = {_vector(writer.rng.uniform(-0.5, 0.5, size=3))}")
        if f.attach_freejoint and writer.rng.rand() < 0.5:
            writer.emit(f"frame{index}.add('freejoint')")
    return writer.lines


def _recorder(seed: int, features: Features) -> list[str]:
    """Lines that compile `model` and record what a differential test compares."""
    kinds = tuple(kind for kind in ELEMENT_KINDS if features.tendons or kind != "tendon")
    order = ""
    if features.find_all_order:
        order = "    record(key + 'order/' + kind, [e.full_identifier for e in found])\n"
    return f"""\
key = '{seed}/'
record(key + 'text', model.to_xml_string())
physics = mjcf.Physics.from_mjcf_model(model)
for field in ('nq', 'nv', 'nu', 'nbody', 'ngeom', 'nsite', 'nsensor', 'nsensordata', 'ntendon'):
    record(key + 'size/' + field, int(getattr(physics.model, field)))
elements = {{kind: model.find_all(kind) for kind in {kinds!r}}}
for kind, found in elements.items():
{order}    # Sorted, so that the reads below do not depend on find_all's order.
    elements[kind] = sorted(found, key=lambda e: e.full_identifier)
    record(key + 'names/' + kind, [e.full_identifier for e in elements[kind]])
named = {{
    'body': [('model', 'body_mass'), ('data', 'xpos'), ('data', 'xquat')],
    'joint': [('data', 'qpos'), ('data', 'qvel'), ('model', 'jnt_range')],
    'geom': [('model', 'geom_size'), ('data', 'geom_xpos')],
    'site': [('data', 'site_xpos')],
    'actuator': [('model', 'actuator_gear'), ('model', 'actuator_ctrlrange')],
    'sensor': [('data', 'sensordata')],
    'tendon': [('data', 'ten_length')],
}}
for kind in set(named) - set(elements):
    del named[kind]
for kind, fields in named.items():
    for element in elements[kind]:
        identifier = element.full_identifier
        # Attachment frames ("sub0/") have no `name` in dm_control, and neither they
        # nor unnamed elements index `named`.
        if identifier.endswith('/') or not element.name:
            continue
        for struct, field in fields:
            check(key + 'named/' + field + '/' + identifier,
                  lambda: getattr(getattr(physics.named, struct), field)[identifier])
bound = {{
    'body': ('mass', 'xpos', 'xquat', 'subtree_mass'),
    'joint': ('qpos', 'qvel', 'range', 'dofadr'),
    'geom': ('size', 'xpos', 'xmat', 'rgba', 'friction'),
    'site': ('xpos', 'size'),
    'actuator': ('gear', 'ctrlrange', 'ctrl'),
    'sensor': ('sensordata',),
    'tendon': ('length',),
}}
for kind, fields in bound.items():
    if not elements.get(kind):
        continue
    binding = physics.bind(elements[kind])
    for field in fields:
        check(key + 'bind/' + kind + '/' + field, lambda: getattr(binding, field))
    check(key + 'bind1/' + kind + '/' + fields[0], lambda: getattr(physics.bind(elements[kind][0]), fields[0]))
random = np.random.RandomState({seed})
for step in range({TRAJECTORY_STEPS}):
    physics.set_control(random.uniform(-1.0, 1.0, size=physics.model.nu))
    physics.step()
    if step % 5 == 4:
        record(key + 'dyn/qpos/' + str(step), physics.data.qpos)
        record(key + 'dyn/qvel/' + str(step), physics.data.qvel)
record(key + 'dyn/sensordata', physics.data.sensordata)
record(key + 'dyn/time', physics.data.time)
""".splitlines()


def _composer_layer(seed: int) -> list[str]:
    """Lines that wrap `model` in a Composer task (observables on its joints, sites and
    sensors, a variator on a geom's colour and a body's position) and record two
    seeded episodes: specs, observations, rewards, varied attributes."""
    return f"""\
joints = [j for j in elements['joint'] if j.name and j.tag != 'freejoint']
geoms = [g for g in elements['geom'] if g.name]
top = model.worldbody.find_all('body', immediate_children_only=True)[:1]

class GeneratedTask(composer.Task):
    def __init__(self, entity):
        self._entity = entity
        self._variator = variation.MJCFVariator()
        if geoms:
            self._variator.bind_attributes(
                geoms[0], rgba=distributions.Uniform([0, 0, 0, 1], [1, 1, 1, 1]))
        if top:
            pos = np.array(top[0].pos if top[0].pos is not None else [0.0, 0.0, 0.0])
            self._variator.bind_attributes(
                top[0], pos=distributions.Uniform(pos - 0.05, pos + 0.05))
        self._task_observables = {{}}
        if joints:
            self._task_observables['qpos'] = observable.MJCFFeature('qpos', joints)
            self._task_observables['qvel'] = observable.MJCFFeature('qvel', joints)
        for index, site in enumerate(elements['site'][:3]):
            self._task_observables['site%d' % index] = observable.MJCFFeature('xpos', site)
        if elements['sensor']:
            self._task_observables['sensors'] = observable.MJCFFeature(
                'sensordata', elements['sensor'])
        for item in self._task_observables.values():
            item.enabled = True
        self.set_timesteps(control_timestep=0.01, physics_timestep=0.002)

    @property
    def root_entity(self):
        return self._entity

    @property
    def task_observables(self):
        return self._task_observables

    def initialize_episode_mjcf(self, random_state):
        self._variator.apply_variations(random_state)

    def get_reward(self, physics):
        return float(np.sum(physics.data.qvel ** 2))

env = composer.Environment(
    GeneratedTask(composer.ModelWrapperEntity(model)), time_limit=0.04, random_state={seed})
record(key + 'env/observation_spec', env.observation_spec())
record(key + 'env/action_spec', env.action_spec())
random = np.random.RandomState({seed})
for episode in range(2):
    timestep = env.reset()
    record(key + 'env/%d/reset' % episode, timestep.observation)
    if geoms:
        record(key + 'env/%d/rgba' % episode, env.physics.bind(geoms[0]).rgba)
    if top:
        record(key + 'env/%d/pos' % episode, env.physics.bind(top[0]).pos)
    steps = 0
    while not timestep.last():
        action = random.uniform(-1.0, 1.0, size=env.action_spec().shape)
        timestep = env.step(action)
        record(key + 'env/%d/%d' % (episode, steps),
               [timestep.step_type.value, timestep.reward, timestep.discount,
                timestep.observation])
        steps += 1
""".splitlines()


HEADER = (
    "import numpy as np\n"
    "from dm_control import composer, mjcf\n"
    "from dm_control.composer import variation\n"
    "from dm_control.composer.observation import observable\n"
    "from dm_control.composer.variation import distributions\n"
)


def _function(seed: int, features: Features | None) -> str:
    features = features or default_features()
    body = model_builder(seed, features) + _recorder(seed, features)
    # A Composer task costs about as much as the rest: one program in four has one.
    if features.composer and seed % 4 == 0:
        body += _composer_layer(seed)
    return f"def model_{seed}():\n" + "".join(f"    {line}\n" for line in body)


def program(seed: int, features: Features | None = None) -> str:
    """One model's program: builds, compiles and records; raises if a call raises."""
    return HEADER + "\n" + _function(seed, features) + f"\n\nmodel_{seed}()\n"


def batch(seeds: list[int], features: Features | None = None) -> str:
    """Several models in one program; each one's exception (if any) is recorded as
    `"<seed>/raises"`, so the others still run."""
    parts = [HEADER]
    for seed in seeds:
        parts.append("\n" + _function(seed, features))
        parts.append(f"check('{seed}/raises', model_{seed})\n")
    return "".join(parts)


# Tolerances, by record key (first match wins). MuJoCo 3.17 and 4.0 run the same
# algorithms but not the same instruction sequences: compiled model fields and
# kinematics agree to rounding (1e-6 relative covers inertia computed through an
# eigen-decomposition); 20 steps of dynamics amplify rounding through the
# constraint solver's iterations, so trajectories get 1e-4 relative / 1e-6 absolute.
TOLERANCES = (
    (r"/dyn/", 1e-4, 1e-6),
    (r".", 1e-6, 1e-8),
)


def main(argv: list[str]) -> int:
    if len(argv) < 2 or not argv[1].isdigit():
        print("usage: python -m tests.differential.generated SEED [--compare]", file=sys.stderr)
        return 2
    seed = int(argv[1])
    source = program(seed)
    if "--compare" not in argv:
        sys.stdout.write(source)
        return 0
    from tests.differential import harness

    reference = harness.reference_python()
    if reference is None:
        print("no reference venv", file=sys.stderr)
        return 2
    differential = harness.Differential(reference)
    try:
        comparison = differential.compare(source, f"generated_{seed}", tolerances=TOLERANCES)
    finally:
        differential.close()
    print(f"seed {seed}: {comparison.agreed} of {comparison.compared} values agree")
    for side, result in (("dm_control", comparison.theirs), ("ours", comparison.ours)):
        if result.error:
            print(f"-- failed under {side}:\n{result.error}")
    for difference in comparison.differences:
        print(difference)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
