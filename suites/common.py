"""dm_control's `suite.common`: the suite's model files and shared assets, for tasks
of one's own that start from a suite model.

    from suites import common
    physics = Physics.from_xml_string(common.read_model("cartpole.xml"), common.ASSETS)

The suite's models are built here as `mujoco.MjSpec` (`mjcf_models`), not read from
files, so `read_model(name)` gives the MJCF text of the model that the domain's
builder makes by default, complete in itself (its look included; it has no
`<include>`). `ASSETS` holds the three shared files that dm_control's suite models
include, written here from the facts of `mjcf_models.common`, so that a model of
one's own can include them as dm_control's do:

    <include file="./common/skybox.xml"/>
    <include file="./common/visual.xml"/>
    <include file="./common/materials.xml"/>
"""

import importlib
import types

from composer_tasks import physics as physics_lib
from mjcf_models import common as look

# Published model file -> (mjcf_models module, keyword arguments of its make_spec).
# The files that dm_control completes in code keep the model the domain's builder
# makes by default: the manipulator's ball and cup, the stacker's four boxes (all
# those of the published file), the quadruped and the dog on their default floors.
_MODEL_FILES = types.MappingProxyType(
    {
        "acrobot.xml": ("acrobot", {}),
        "ball_in_cup.xml": ("ball_in_cup", {}),
        "cartpole.xml": ("cartpole", {}),
        "cheetah.xml": ("cheetah", {}),
        "dog.xml": ("dog", {}),
        "finger.xml": ("finger", {}),
        "fish.xml": ("fish", {}),
        "hopper.xml": ("hopper", {}),
        "humanoid.xml": ("humanoid", {}),
        "humanoid_CMU.xml": ("humanoid_cmu", {}),
        "manipulator.xml": ("manipulator", {}),
        "pendulum.xml": ("pendulum", {}),
        "point_mass.xml": ("point_mass", {}),
        "quadruped.xml": ("quadruped", {}),
        "reacher.xml": ("reacher", {}),
        "stacker.xml": ("stacker", {"num_boxes": 4}),
        "walker.xml": ("walker", {}),
    }
)

# dm_control's files that are skeletons its domain code fills in (no model alone).
_TEMPLATES = types.MappingProxyType(
    {
        "swimmer.xml": "mjcf_models.swimmer.make_spec(n_links) (n_links >= 3)",
        "lqr.xml": "mjcf_models.lqr.make_spec(num_bodies, num_actuators, random_state)",
    }
)


def _format(values):
    return " ".join(f"{value:g}" for value in values)


def _materials_xml():
    lines = [
        '<texture name="grid" type="2d" builtin="checker" rgb1=".1 .2 .3" rgb2=".2 .3 .4" '
        'width="300" height="300" mark="edge" markrgb=".2 .3 .4"/>',
        '<material name="grid" texture="grid" texrepeat="1 1" texuniform="true" reflectance=".2"/>',
    ]
    for name, rgba in look.PALETTE.items():
        lines.append(f'<material name="{name}" rgba="{_format(rgba)}"/>')
        if name in look.HIGHLIGHT_RGBA:
            lines.append(f'<material name="{name}_default" rgba="{_format(rgba)}"/>')
            highlight = look.HIGHLIGHT_RGBA[name]
            lines.append(f'<material name="{name}_highlight" rgba="{_format(highlight)}"/>')
    body = "\n    ".join(lines)
    return f"<mujoco>\n  <asset>\n    {body}\n  </asset>\n</mujoco>\n"


# The skybox texture, headlight, near clipping plane and shadow map of the suite's
# look (the values of mjcf_models.common.add_suite_look).
_SKYBOX_XML = """<mujoco>
  <asset>
    <texture name="skybox" type="skybox" builtin="gradient" rgb1=".4 .6 .8" rgb2="0 0 0"
             width="800" height="800" mark="random" markrgb="1 1 1"/>
  </asset>
</mujoco>
"""
_VISUAL_XML = """<mujoco>
  <visual>
    <headlight ambient=".4 .4 .4" diffuse=".8 .8 .8" specular=".1 .1 .1"/>
    <map znear=".01"/>
    <quality shadowsize="2048"/>
  </visual>
</mujoco>
"""

# {file name: contents (bytes)}: the suite's shared files under the names by which
# dm_control's models include them.
ASSETS = {
    "./common/materials.xml": _materials_xml().encode(),
    "./common/skybox.xml": _SKYBOX_XML.encode(),
    "./common/visual.xml": _VISUAL_XML.encode(),
}


def read_model(model_filename):
    """The MJCF text (bytes, as dm_control's) of the suite model `model_filename`
    ("cartpole.xml", "walker.xml", ...): the model the domain's builder makes by
    default, with every material of the shared `materials.xml` (those the model
    does not use appended after its own), written out by MuJoCo.

    Raises:
      FileNotFoundError: an unknown file name (as dm_control's).
      ValueError: one of dm_control's template files (swimmer.xml, lqr.xml) that
        its domain code completes (the message names the builder to call instead).
    """
    if model_filename in _TEMPLATES:
        raise ValueError(
            f"{model_filename!r} is a template that dm_control's domain code completes, "
            f"not a model; build the model with {_TEMPLATES[model_filename]}"
        )
    if model_filename not in _MODEL_FILES:
        raise FileNotFoundError(
            f"no suite model file {model_filename!r}; the suite's model files are "
            f"{sorted(_MODEL_FILES)}"
        )
    module_name, kwargs = _MODEL_FILES[model_filename]
    builder = importlib.import_module(f"mjcf_models.{module_name}")
    spec = builder.make_spec(**kwargs)
    _add_missing_materials(spec)
    # MuJoCo's text (six significant digits), which this project's
    # `Physics.from_xml_string` compiles from the spec itself (`spec_xml`).
    return physics_lib.spec_xml(spec)


def _add_missing_materials(spec):
    # dm_control's models include every material of the shared file, so an edited
    # model may use any of them; the builders add only those their model uses. The
    # others are appended (so material ids past the builder's own differ).
    have = {material.name for material in spec.materials}
    for name, rgba in look.PALETTE.items():
        variants = [(name, rgba)]
        if name in look.HIGHLIGHT_RGBA:
            variants += [
                (name + "_default", rgba),
                (name + "_highlight", look.HIGHLIGHT_RGBA[name]),
            ]
        for variant, colour in variants:
            if variant not in have:
                spec.add_material(name=variant, rgba=list(colour))
