"""Models read from files as dm_control reads them: dm-control 1.0.50's own test
assets (meshes, textures, skins, includes, asset folders), each read, written and
compiled on both sides, and `<include>`s as PyMJCF takes them: the model without them
first, then each included model copied in (`include_copy`), so the included elements
come after the model's own in every section and conflicting defaults raise. (MuJoCo's
parser splices an included file where it stands: other element ids.)"""

import os
import subprocess

import pytest

from tests.differential import harness


def _dm_control_test_assets() -> str:
    python = harness.reference_python()
    if python is None:
        pytest.skip("no reference venv")
    folder = subprocess.run(
        [python, "-c", "import dm_control, os; print(os.path.dirname(dm_control.__file__))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    return os.path.join(folder, "mjcf", "test_assets")


ASSET_FILES = """
import os
from dm_control import mjcf
ASSETS = {folder!r}
for name in sorted(os.listdir(ASSETS)):
    if not name.endswith('.xml') or 'invalid' in name or 'schema' in name:
        continue
    path = os.path.join(ASSETS, name)
    try:
        model = mjcf.from_path(path)
    except Exception as error:
        record(name + '/parse', type(error).__name__)
        continue
    check(name + '/text', model.to_xml_string)
    check(name + '/assets', lambda m=model: sorted(m.get_assets()))
    try:
        physics = mjcf.Physics.from_mjcf_model(model)
    except Exception as error:
        record(name + '/compile', type(error).__name__)
        continue
    m = physics.model
    record(name + '/sizes', [m.nbody, m.ngeom, m.njnt, m.nu, m.nmesh, m.ntex, m.nmat])
    record(name + '/geoms', [m.id2name(i, 'geom') for i in range(m.ngeom)])
    record(name + '/bodies', [m.id2name(i, 'body') for i in range(m.nbody)])
"""

INCLUDES = """
import os
import tempfile
from dm_control import mjcf
folder = tempfile.mkdtemp()
def write(name, text):
    with open(os.path.join(folder, name), 'w') as handle:
        handle.write(text)
write('inc.xml', '<mujoco model="inc"><option timestep="0.01" iterations="20"/>'
      '<default><geom rgba="1 0 0 1"/><default class="k"><joint damping="2"/></default></default>'
      '<worldbody><body name="ib"><geom name="ig" size="0.1"/></body></worldbody>'
      '<actuator><motor name="im" joint="j"/></actuator></mujoco>')
write('main.xml', '<mujoco model="main"><include file="inc.xml"/><option iterations="10"/>'
      '<default><geom size="0.2"/><joint damping="1"/></default>'
      '<worldbody><body name="b"><joint name="j"/><geom name="g" size="0.1"/></body></worldbody>'
      '<actuator><motor name="m" joint="j"/></actuator></mujoco>')
model = mjcf.from_path(os.path.join(folder, 'main.xml'))
record('model', [model.model, model.to_xml_string()])
physics = mjcf.Physics.from_mjcf_model(model)
m = physics.model
record('compiled', [[m.id2name(i, 'geom') for i in range(m.ngeom)],
                    [m.id2name(i, 'actuator') for i in range(m.nu)],
                    m.opt.timestep, m.opt.iterations, m.geom_rgba, m.dof_damping])
record('found', [model.find('geom', 'ig').full_identifier, model.find('default', 'k').dclass])
write('conflict.xml', '<mujoco><default><geom rgba="0 1 0 1"/></default><include file="inc.xml"/>'
      '<worldbody><body name="b"><joint name="j"/><geom size="0.1"/></body></worldbody></mujoco>')
check('conflict', mjcf.from_path, os.path.join(folder, 'conflict.xml'))
text = open(os.path.join(folder, 'main.xml')).read()
with_assets = mjcf.from_xml_string(text, assets={'inc.xml': open(os.path.join(folder, 'inc.xml')).read().encode()})
record('from_assets', with_assets.to_xml_string())
check('missing', mjcf.from_xml_string, '<mujoco><include file="nope.xml"/></mujoco>')
"""


@pytest.mark.dm_control_api(
    "mjcf.from_path", "mjcf.RootElement.to_xml_string", "mjcf.RootElement.get_assets"
)
def test_dm_controls_test_assets_read_as_there(differential):
    program = ASSET_FILES.format(folder=_dm_control_test_assets())
    differential.assert_same(program, "test_assets", rtol=1e-9, atol=1e-12)


@pytest.mark.dm_control_api(
    "mjcf.from_path", "mjcf.from_xml_string", "mjcf.RootElement.include_copy"
)
def test_includes_are_copied_in_after_the_models_own_elements(differential):
    differential.assert_same(INCLUDES, "includes", rtol=1e-9, atol=1e-12)
