"""What a user sees printing PyMJCF objects, and the numbers read back from
single-precision fields, against dm_control.

A user debugging a model prints it: `print(model.find_all('geom'))`,
`print(model.default.geom)`, `model.option`. dm_control prints each as
"MJCF Element: " and the element's own MJCF text (its children as "..."), a list as
"MJCF Elements List: [...]". And PyMJCF keeps the numbers written: `rgba=[0.1, ...]`
reads back as 0.1 (a double), where MjSpec keeps colours, lights and materials in
single precision (0.10000000149...), which `to_xml_string` wrote at 17 digits."""

import pytest

PRINTED = """
from dm_control import mjcf

model = mjcf.RootElement(model='printed')
body = model.worldbody.add('body', name='torso', pos=[0, 0, 1])
geom = body.add('geom', name='trunk', type='box', size=[0.1, 0.2, 0.3], rgba=[1, 0, 0, 1])
body.add('joint', name='hip', type='hinge')
unnamed = body.add('site')
record('element', [repr(geom), str(geom), repr(body), repr(unnamed)])
record('model', [repr(model), str(model)])
record('lists', [repr(model.find_all('geom')), repr(model.worldbody.body),
                 str(model.worldbody.body), repr(body.joint)])
record('fresh_sections', [repr(model.actuator), repr(model.asset), repr(model.sensor),
                          repr(model.contact), repr(model.worldbody)])
record('fresh_structs', [repr(model.compiler), repr(model.option), repr(model.size),
                         repr(model.visual), repr(model.visual.quality),
                         repr(model.option.flag), repr(model.statistic)])
model.compiler.angle = 'radian'
model.option.timestep = 0.004
model.option.flag.gravity = 'disable'
model.visual.quality.shadowsize = 1024
model.size.njmax = 100
model.asset.add('texture', name='grid', builtin='checker', width=8, height=8, type='2d')
model.actuator.add('motor', joint='hip', gear=[2])
record('edited_sections', [repr(model.actuator), repr(model.asset), str(model.asset)])
record('edited_structs', [repr(model.compiler), repr(model.option), repr(model.size),
                          repr(model.visual), repr(model.visual.quality), repr(model.option.flag)])
record('defaults_fresh', [repr(model.default), repr(model.default.geom), repr(model.default.joint)])
model.default.geom.rgba = [0.5, 0.5, 0.5, 1]
big = model.default.add('default', dclass='big')
record('class_empty', repr(big))
big.geom.size = [1]
small = big.add('default', dclass='small')
record('defaults', [repr(model.default), repr(model.default.geom), repr(big), str(big),
                    repr(big.geom), repr(small), repr(model.default.default)])
arm = mjcf.RootElement(model='arm')
arm.default.add('default', dclass='link').site.size = [0.1]
arm.worldbody.add('body', name='upper').add('geom', size=[0.05])
frame = model.attach(arm)
record('attached', [repr(frame), repr(arm), repr(arm.default), repr(arm.default.default['link']),
                    repr(arm.worldbody), repr(model.worldbody.body),
                    repr(model.find_all('geom'))])
parsed = mjcf.from_xml_string('''
<mujoco model="parsed">
  <default><default class="thin"><geom size=".02"/></default></default>
  <worldbody><body name="b"><geom class="thin" type="capsule" fromto="0 0 0 0 0 1"/></body></worldbody>
</mujoco>''')
record('parsed', [repr(parsed), repr(parsed.default), repr(parsed.default.default['thin']),
                  repr(parsed.default.default['thin'].geom), repr(parsed.find_all('geom')),
                  repr(parsed.worldbody.body)])
"""

SINGLE_PRECISION = """
import numpy as np
from dm_control import mjcf

def numbers(value):
    array = np.asarray(value)
    return [str(array.dtype), array.ravel().tolist(), type(value).__name__]

model = mjcf.RootElement(model='colours')
geom = model.worldbody.add('geom', name='g', size=[0.1], rgba=[0.1, 0.2, 0.3, 1])
site = model.worldbody.add('site', name='s', rgba=[0.5, 0.25, 0.7, 0.3])
light = model.worldbody.add('light', name='l', diffuse=[0.3, 0.3, 0.3], cutoff=33.3,
                            attenuation=[1, 0.1, 0.01])
material = model.asset.add('material', name='m', rgba=[0.1, 0.1, 0.1, 1], specular=0.3,
                           shininess=0.7, reflectance=0.2, texrepeat=[2.5, 2.5])
model.default.geom.rgba = [0.3, 0.3, 0.3, 0.9]
model.visual.headlight.ambient = [0.1, 0.1, 0.1]
for key, element, attribute in [('geom_rgba', geom, 'rgba'), ('site_rgba', site, 'rgba'),
                                ('light_diffuse', light, 'diffuse'), ('light_cutoff', light, 'cutoff'),
                                ('light_attenuation', light, 'attenuation'),
                                ('material_rgba', material, 'rgba'),
                                ('material_specular', material, 'specular'),
                                ('material_shininess', material, 'shininess'),
                                ('material_texrepeat', material, 'texrepeat'),
                                ('default_rgba', model.default.geom, 'rgba'),
                                ('headlight', model.visual.headlight, 'ambient')]:
    record(key, numbers(getattr(element, attribute)))
record('equal', [bool(geom.rgba[0] == 0.1), material.specular == 0.3, light.cutoff == 33.3])
record('text', [str(geom), str(site), str(light), str(material), str(model.default.geom)])
record('attributes', [[k, numbers(v)] for k, v in material.get_attributes().items()
                      if k != 'name'])
geom.rgba = [0.6, 0.6, 0.6, 0.6]
record('rewritten', numbers(geom.rgba))
parsed = mjcf.from_xml_string('''
<mujoco model="parsed">
  <default>
    <geom rgba=".1 .2 .3 1"/>
    <default class="dim"><light diffuse=".3 .3 .3"/></default>
  </default>
  <asset><material name="m" rgba=".1 .2 .3 1" specular=".3"/></asset>
  <worldbody>
    <geom name="g" size="1" rgba=".1 .2 .3 1"/>
    <light name="l" diffuse=".3 .3 .3" cutoff="33.3"/>
  </worldbody>
</mujoco>''')
record('parsed', [numbers(parsed.find('geom', 'g').rgba), numbers(parsed.find('light', 'l').cutoff),
                  numbers(parsed.find('material', 'm').specular),
                  numbers(parsed.find('light', 'l').diffuse)])
record('parsed_defaults', [numbers(parsed.default.geom.rgba),
                           numbers(parsed.default.default['dim'].light.diffuse),
                           str(parsed.default.geom)])
record('parsed_text', [str(parsed.find('geom', 'g')), str(parsed.find('material', 'm')),
                       str(parsed.find('light', 'l'))])
physics = mjcf.Physics.from_mjcf_model(model)
record('compiled', [physics.named.model.geom_rgba['g'], physics.named.model.mat_specular['m']])
"""


@pytest.mark.dm_control_api(
    "mjcf.Element.to_xml_string",
    "mjcf.RootElement.find_all",
    "mjcf.RootElement.attach",
    "mjcf.from_xml_string",
)
def test_printed_elements_sections_defaults_and_settings_match_dm_control(differential):
    differential.assert_same(PRINTED, "mjcf_printed", rtol=0, atol=0)


@pytest.mark.dm_control_api("mjcf.Element.get_attributes", "mjcf.Physics.from_mjcf_model")
def test_single_precision_fields_read_back_as_written_as_in_dm_control(differential):
    differential.assert_same(SINGLE_PRECISION, "mjcf_single_precision", rtol=0, atol=0)
