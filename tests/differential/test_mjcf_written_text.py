"""A whole model as MJCF text (`model.to_xml_string()`), against dm_control.

Users print a model to see what they built, save it (`export_with_assets`) and load
the text elsewhere (`mujoco.MjModel.from_xml_string(model.to_xml_string(),
model.get_assets())`). PyMJCF writes its tree without compiling: the attributes that
were set, at 17 significant digits, unnamed elements by their identifiers, default
classes "/" and "child/", attached models under their prefixes, files by their names
in the virtual file system. The program builds models through the API, parses and
attaches others, removes and detaches, reads files from disk, writes a model that
does not compile yet, and compiles the texts; every value must agree.
"""

import pytest

PROGRAM = r'''
import os, struct, tempfile, zlib
import numpy as np
from dm_control import mjcf
from dm_control import mujoco as dm_mujoco


def compiled(key, text, assets=None):
    try:
        physics = dm_mujoco.Physics.from_xml_string(text, assets=assets or {})
    except Exception as e:
        record(key + '/compile_error', type(e).__name__)
        return
    m = physics.model
    for name in ('nbody', 'ngeom', 'njnt', 'nu', 'nsensor', 'ntendon', 'neq', 'nmat', 'ntex', 'nmesh', 'nkey'):
        record(f'{key}/{name}', int(getattr(m, name)))
    for name in ('body_pos', 'body_quat', 'body_mass', 'geom_size', 'geom_rgba', 'geom_friction', 'jnt_range',
                 'dof_damping', 'actuator_gainprm', 'actuator_biasprm', 'actuator_gear', 'geom_type', 'mat_rgba', 'opt.timestep'):
        if name == 'opt.timestep':
            record(f'{key}/{name}', float(m.opt.timestep))
        else:
            record(f'{key}/{name}', np.asarray(getattr(m, name)))
    record(f'{key}/names', [m.id2name(i, 'geom') for i in range(m.ngeom)])


def png(width, height):
    raw = b''.join(b'\x00' + bytes([(x * 7 + y * 3) % 256 for x in range(width) for _ in range(3)]) for y in range(height))
    def chunk(tag, data):
        return struct.pack('>I', len(data)) + tag + data + struct.pack('>I', zlib.crc32(tag + data) & 0xffffffff)
    return b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', width, height, 8, 2, 0, 0, 0)) + chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b'')


# 1. A model built through the API, every section.
m = mjcf.RootElement(model='m')
m.default.motor.gear = [2]
big = m.default.add('default', dclass='big')
m.default.geom.rgba = [1, 0, 0, 1]
m.default.joint.damping = 1
m.default.mesh.scale = [1, 1, 1]
big.site.size = [0.1]
big.geom.friction = [0.5, 0.01, 0.001]
small = big.add('default', dclass='small')
small.geom.size = [0.01, 0.02, 0.03]
m.option.flag.gravity = 'disable'
m.option.timestep = 0.01
m.option.integrator = 'RK4'
m.visual.quality.shadowsize = 1024
m.visual.headlight.ambient = [.1, .1, .1]
m.visual.map.znear = 0.01
m.size.njmax = 100
m.statistic.extent = 2
m.compiler.angle = 'radian'
m.custom.add('numeric', name='n', data=[1, 2])
m.custom.add('text', name='tx', data='hello')
m.keyframe.add('key', name='k', qpos=[0.5])
tex = m.asset.add('texture', name='sky', type='skybox', builtin='gradient', rgb1=[.4, .6, .8], rgb2=[0, 0, 0], width=800, height=800, mark='random', markrgb=[1, 1, 1])
grid = m.asset.add('texture', name='grid', type='2d', builtin='checker', width=300, height=300, rgb1=[.2, .3, .4], rgb2=[.3, .4, .5])
mat = m.asset.add('material', name='mat', texture=grid, texrepeat=[5, 5], reflectance=.2)
mesh = m.asset.add('mesh', name='tet', vertex=[0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1])
b = m.worldbody.add('body', name='b', pos=[0, 0, 1])
j = b.add('joint', name='j', type='slide', axis=[1, 0, 0], range=[-1, 1])
b.add('inertial', mass=1, pos=[0, 0, 0], diaginertia=[1, 1, 1])
b.add('geom', type='box', size=[.1, .2, .3], euler=[0, 0, 0.3], material=mat)
b.add('geom', name='meshgeom', type='mesh', mesh=mesh, dclass=big)
b.add('geom', name='smallg', type='box', dclass=small, pos=[0.0000001, 0, 0])
b.add('site', name='s', pos=[0.1, 0, 0], dclass='big')
b.add('camera', name='c', mode='trackcom', pos=[0, -1, 0], xyaxes=[1, 0, 0, 0, 0, 1])
c2 = b.add('body', name='c2', pos=[0.3, 0, 0], childclass=big)
j2 = c2.add('joint', name='j2', axis=[0, 1, 0])
c2.add('geom', name='g2', type='capsule', fromto=[0, 0, 0, 0.3, 0, 0], size=[0.05])
m.worldbody.add('light', directional=True, pos=[0, 0, 3], dir=[0, 0, -1])
m.worldbody.add('geom', name='floor', type='plane', size=[2, 2, .1], material='mat')
m.tendon.add('fixed', name='t').add('joint', joint=j, coef=1)
sp = m.tendon.add('spatial', name='sp', width=0.01)
sp.add('site', site='s')
sp.add('geom', geom='g2')
m.actuator.add('position', name='p', joint=j, kp=10, ctrlrange=[-1, 1])
m.actuator.add('general', name='g', tendon='t', gainprm=[1, 0, 0])
m.actuator.add('velocity', joint=j2, kv=3)
m.actuator.add('motor', joint=j2, gear=[5], dclass=big)
m.sensor.add('framepos', objtype='site', objname='s')
m.sensor.add('touch', site='s')
m.sensor.add('jointpos', joint=j2, noise=0.1)
m.equality.add('joint', joint1=j, joint2=j2, polycoef=[0, 1, 0, 0, 0])
m.contact.add('exclude', body1='b', body2='world')
m.contact.add('pair', geom1='floor', geom2='g2', condim=1)
text = m.to_xml_string()
record('m/text', text)
record('m/text_p5', m.to_xml_string(precision=5, zero_threshold=1e-3))
record('m/flat', m.to_xml_string(pretty_print=False))
record('m/self_only', m.to_xml_string(self_only=True))
compiled('m', text)
for part in ('compiler', 'option', 'size', 'statistic', 'visual', 'default', 'asset', 'worldbody', 'contact', 'tendon', 'equality', 'actuator', 'sensor', 'custom', 'keyframe'):
    check(f'm/part/{part}', lambda p=part: getattr(m, p).to_xml_string())
    check(f'm/part/{part}/self', lambda p=part: getattr(m, p).to_xml_string(self_only=True, pretty_print=False))
check('m/default.geom', lambda: m.default.geom.to_xml_string())
check('m/big', lambda: big.to_xml_string())
check('m/big.geom', lambda: big.geom.to_xml_string(pretty_print=False))
check('m/flag', lambda: m.option.flag.to_xml_string())
check('m/quality', lambda: m.visual.quality.to_xml_string())
check('m/body', lambda: b.to_xml_string(precision=4))

# 2. Attachments: a parsed model and a built one, nested, with frames and joints.
LEG = """
<mujoco model="leg">
  <compiler angle="degree"/>
  <default>
    <joint damping="0.5" range="-30 30" limited="true"/>
    <geom type="capsule" rgba="0.2 0.5 0.8 1"/>
    <default class="foot"><geom type="sphere" size="0.03" friction="2 0.1 0.01"/></default>
  </default>
  <asset><material name="legmat" rgba="0.9 0.8 0.7 1" specular="0.3"/></asset>
  <worldbody>
    <body name="thigh" pos="0 0 0">
      <joint name="hip" axis="0 0 1"/>
      <geom name="thigh" fromto="0 0 0 0.2 0 0" size="0.04" material="legmat"/>
      <body name="shin" pos="0.2 0 0" euler="0 30 0">
        <joint name="knee" axis="0 1 0" range="-60 0"/>
        <geom fromto="0 0 0 0 0 -0.2" size="0.03"/>
        <geom class="foot" pos="0 0 -0.2"/>
        <site name="toe" pos="0 0 -0.23" size="0.01"/>
      </body>
    </body>
  </worldbody>
  <actuator>
    <position name="hip" joint="hip" kp="20"/>
    <motor name="knee" joint="knee" gear="10" ctrlrange="-1 1" ctrllimited="true"/>
  </actuator>
  <sensor><touch name="toe" site="toe"/></sensor>
</mujoco>
"""
arena = mjcf.RootElement(model='arena')
arena.worldbody.add('geom', type='plane', size=[3, 3, 0.1])
torso = mjcf.RootElement(model='torso')
torso.worldbody.add('geom', name='torso', type='ellipsoid', size=[0.1, 0.1, 0.05], mass=1.2)
for i in range(3):
    theta = 2 * np.pi * i / 3
    site = torso.worldbody.add('site', name=f'hip{i}', pos=[0.1 * np.cos(theta), 0.1 * np.sin(theta), 0], euler=[0, 0, theta])
    leg = mjcf.from_xml_string(LEG)
    leg.model = f'leg{i}'
    site.attach(leg)
frame = arena.worldbody.add('site', name='spawn', pos=[0, 0, 0.3]).attach(torso)
frame.add('freejoint')
other = mjcf.from_xml_string(LEG)
f2 = arena.attach(other)
f2.pos = [1, 0, 0.5]
f2.add('joint', name='slide', type='slide', axis=[0, 0, 1])
atext = arena.to_xml_string()
record('arena/text', atext)
compiled('arena', atext)
record('arena/torso_text', torso.to_xml_string())
record('arena/leg_text', torso.find('attachment_frame', 'leg1').to_xml_string())
record('arena/prefix_root', arena.find('geom', 'torso/leg0/thigh').to_xml_string(prefix_root=torso.namescope))
record('arena/default', arena.default.to_xml_string())
record('arena/actuators', arena.actuator.to_xml_string())
record('arena/frame', frame.to_xml_string())

# 3. Removing elements and detaching.
other.detach()
torso.find('geom', 'torso').remove()
arena.find('actuator', 'torso/leg2/knee').remove()
record('removed/text', arena.to_xml_string())

# 4. Files: a model read from disk with a texture and a mesh; the asset names.
folder = tempfile.mkdtemp()
os.makedirs(os.path.join(folder, 'textures'))
with open(os.path.join(folder, 'textures', 'img.png'), 'wb') as handle:
    handle.write(png(8, 8))
with open(os.path.join(folder, 'm.xml'), 'w') as handle:
    handle.write("""<mujoco model="files">
  <compiler texturedir="textures"/>
  <asset>
    <texture name="img" type="2d" file="img.png"/>
    <material name="imgmat" texture="img"/>
  </asset>
  <worldbody><geom type="box" size="1 1 1" material="imgmat"/></worldbody>
</mujoco>""")
fm = mjcf.from_path(os.path.join(folder, 'm.xml'))
ftext = fm.to_xml_string()
record('files/text', ftext)
record('files/assets', sorted(fm.get_assets()))
compiled('files', ftext, fm.get_assets())
record('files/nohash', fm.to_xml_string(filename_with_hash=False))

# 5. A model that does not compile yet can be printed.
broken = mjcf.RootElement(model='broken')
broken.worldbody.add('body', name='nomass').add('joint', name='free_j')
broken.actuator.add('motor', joint='missing')
record('broken/text', broken.to_xml_string())

# 6. The XML tree (lxml's there, ElementTree's here: the API they share).
tree = m.to_xml()
record('tree/root', [tree.tag, dict(tree.attrib), [child.tag for child in tree]])
record('tree/body', [dict(b.to_xml().attrib), [child.tag for child in b.to_xml()]])
record('tree/option', [child.tag for child in m.option.to_xml()])

# 7. Actuators keep the tag they were made with; keywords read as MJCF spells them.
record('tags/added', [a.tag for a in m.actuator.all_children()])
record('tags/general', [a.name for a in m.actuator.general])
parsed = mjcf.from_xml_string("""<mujoco><worldbody><body><joint name="j"/><geom size="1"/></body></worldbody>
<actuator><general name="g" joint="j" gainprm="1 0 0"/><motor name="mo" joint="j"/>
<position name="p" joint="j"/><velocity name="v" joint="j" kv="1"/></actuator></mujoco>""")
record('tags/parsed', [(a.tag, sorted(a.get_attributes())) for a in parsed.actuator.all_children()])
record('keywords', [m.option.integrator, parsed.option.integrator])
m.option.integrator = 'euler'
m.option.solver = 'newton'
record('keywords/set', [m.option.integrator, m.option.solver, m.option.to_xml_string()])

# 8. Detaching drops the detached model's assets too.
host = mjcf.RootElement(model='host')
host.worldbody.add('geom', type='plane', size=[1, 1, 1])
guest = mjcf.from_xml_string(LEG)
guest.model = 'guest'
guest.asset.add('texture', name='t', type='2d', builtin='checker', width=4, height=4)
guest.custom.add('numeric', name='num', data=[3])
guest.sensor.add('clock', name='clk')
host.attach(guest)
before = mjcf.Physics.from_mjcf_model(host).model
record('detach/before', [before.nmat, before.ntex, before.nnumeric, before.nu, before.nbody, before.nsensor])
guest.detach()
after = mjcf.Physics.from_mjcf_model(host).model
record('detach/after', [after.nmat, after.ntex, after.nnumeric, after.nu, after.nbody, after.nsensor])
record('detach/assets', [a.tag for a in host.asset.all_children()])
record('detach/text', host.to_xml_string())
'''


@pytest.mark.dm_control_api(
    "mjcf.RootElement.to_xml_string",
    "mjcf.RootElement.to_xml",
    "mjcf.Element.to_xml",
    "mjcf.Element.to_xml_string",
    "mjcf.RootElement.detach",
    "mjcf.RootElement.get_assets",
    "mjcf.from_path",
    "mujoco.Physics.from_xml_string",
)
def test_written_text_matches_dm_control(differential):
    differential.assert_same(PROGRAM, "written_text", rtol=1e-9, atol=1e-12)


# Every kind of element, default tag and global setting with many attributes set.
KINDS = r"""
import numpy as np
from dm_control import mjcf

m = mjcf.RootElement(model='kinds')
d = m.default
d.joint.set_attributes(type='hinge', limited=True, range=[-1, 1], damping=0.1, stiffness=2, armature=0.01, frictionloss=0.2, springref=0.1, ref=0.0, margin=0.01, solreflimit=[0.02, 1], solimplimit=[0.9, 0.95, 0.001])
d.geom.set_attributes(type='capsule', contype=1, conaffinity=1, condim=3, group=1, priority=0, size=[0.1, 0.2], friction=[1, 0.005, 0.0001], density=1000, solmix=1, solref=[0.02, 1], solimp=[0.9, 0.95, 0.001], margin=0.001, gap=0, rgba=[0.5, 0.5, 0.5, 1])
d.site.set_attributes(type='sphere', group=3, size=[0.01], rgba=[1, 0, 0, 1])
d.camera.set_attributes(fovy=60)
d.light.set_attributes(directional=False, castshadow=True, diffuse=[0.7, 0.7, 0.7], specular=[0.3, 0.3, 0.3], attenuation=[1, 0, 0], cutoff=45, exponent=10)
d.material.set_attributes(specular=0.5, shininess=0.3, reflectance=0.1, emission=0.2, rgba=[0.8, 0.8, 0.8, 1])
d.mesh.set_attributes(scale=[1, 1, 1])
d.tendon.set_attributes(limited=True, range=[0, 1], width=0.01, rgba=[0, 1, 0, 1], stiffness=1, damping=0.2)
d.general.set_attributes(ctrllimited=True, ctrlrange=[-1, 1], forcelimited=True, forcerange=[-5, 5], gear=[2], dyntype='none', gaintype='fixed', biastype='none', gainprm=[1], biasprm=[0, 0, 0])
d.pair.set_attributes(condim=3, friction=[1, 1, 0.005, 0.0001, 0.0001])
d.equality.set_attributes(active=True, solref=[0.02, 1])
record('defaults', m.default.to_xml_string())

m.asset.add('material', name='mat', specular=0.3, shininess=0.5, reflectance=0.2, emission=0.1, rgba=[1, 0, 0, 1], texrepeat=[2, 2], texuniform=True)
m.asset.add('texture', name='grad', type='skybox', builtin='gradient', rgb1=[1, 1, 1], rgb2=[0, 0, 0], width=64, height=64)
m.asset.add('hfield', name='hf', nrow=4, ncol=4, size=[1, 1, 0.1, 0.1])
m.asset.add('mesh', name='box', vertex=[0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1], scale=[0.5, 0.5, 0.5])
w = m.worldbody
w.add('light', name='l', pos=[0, 0, 3], dir=[0, 0, -1], directional=True, castshadow=False, ambient=[0.1, 0.1, 0.1])
w.add('camera', name='fixed', pos=[0, -2, 1], quat=[0.9, 0.4, 0, 0], fovy=45)
w.add('camera', name='look', mode='targetbody', target='torso', pos=[2, 0, 1])
w.add('geom', name='terrain', type='hfield', hfield='hf', pos=[0, 0, -0.1])
torso = w.add('body', name='torso', pos=[0, 0, 1], quat=[1, 0, 0, 0], gravcomp=0.5)
torso.add('inertial', pos=[0, 0, 0], mass=2, fullinertia=[1, 1, 1, 0, 0, 0])
torso.add('freejoint', name='root')
torso.add('geom', name='trunk', type='box', size=[0.1, 0.1, 0.1], material='mat', mass=1.5, condim=6, friction=[1, 0.01, 0.001])
torso.add('geom', name='m', type='mesh', mesh='box', contype=0, conaffinity=0, group=2)
torso.add('site', name='imu', type='box', size=[0.01, 0.02, 0.03], pos=[0, 0, 0.1], zaxis=[0, 1, 0])
torso.add('camera', name='ego', mode='fixed', xyaxes=[0, -1, 0, 0, 0, 1], pos=[0.1, 0, 0])
arm = torso.add('body', name='arm', pos=[0.2, 0, 0], axisangle=[0, 0, 1, 0.5])
sh = arm.add('joint', name='shoulder', axis=[0, 1, 0], range=[-90, 90], damping=1, armature=0.1, pos=[0, 0, 0])
sl = arm.add('joint', name='slide', type='slide', axis=[1, 0, 0], range=[0, 0.1], stiffness=10)
arm.add('geom', name='upper', fromto=[0, 0, 0, 0.3, 0, 0], size=[0.03])
arm.add('site', name='tip', pos=[0.3, 0, 0])
arm.add('geom', name='wrap', type='sphere', size=[0.02], pos=[0.15, 0, 0.05])
mocap = w.add('body', name='target', mocap=True, pos=[1, 1, 1])
mocap.add('geom', name='target', type='sphere', size=[0.05], contype=0, conaffinity=0, rgba=[0, 1, 0, 0.5])
sp = m.tendon.add('spatial', name='rope', limited=True, range=[0, 1], width=0.005)
sp.add('site', site='imu')
sp.add('geom', geom='wrap', sidesite='tip')
sp.add('site', site='tip')
fx = m.tendon.add('fixed', name='coupled')
fx.add('joint', joint=sh, coef=0.5)
fx.add('joint', joint=sl, coef=-1)
m.actuator.add('motor', name='mot', joint=sh, gear=[10], ctrlrange=[-1, 1], ctrllimited=True)
m.actuator.add('position', name='pos', joint=sl, kp=50, forcerange=[-10, 10], forcelimited=True)
m.actuator.add('velocity', name='vel', tendon='coupled', kv=5)
m.actuator.add('general', name='gen', site='tip', gear=[0, 0, 1, 0, 0, 0], dyntype='filter', dynprm=[0.1], gaintype='fixed', gainprm=[2], biastype='affine', biasprm=[0, -1, -0.1])
m.actuator.add('cylinder', name='cyl', joint=sh, timeconst=0.2, area=0.5)
m.sensor.add('accelerometer', name='acc', site='imu', noise=0.01, cutoff=10)
m.sensor.add('gyro', name='gyro', site='imu')
m.sensor.add('framequat', name='q', objtype='body', objname='torso')
m.sensor.add('subtreecom', name='com', body='torso')
m.sensor.add('tendonpos', name='tp', tendon='rope')
m.sensor.add('actuatorfrc', name='af', actuator='mot')
m.sensor.add('rangefinder', name='rf', site='tip')
for extra in (('jointlimitpos', dict(joint=sh)), ('jointactuatorfrc', dict(joint=sh)),
              ('tendonlimitfrc', dict(tendon='rope')), ('tendonactuatorfrc', dict(tendon='coupled')),
              ('clock', {}), ('e_kinetic', {}), ('e_potential', {}),
              ('normal', dict(geom1='trunk', geom2='wrap')), ('fromto', dict(body1='torso', body2='arm'))):
    m.sensor.add(extra[0], **extra[1])
m.equality.add('weld', name='w', body1='target', body2='torso', solref=[0.01, 1], active=False)
m.equality.add('connect', name='c', body1='arm', body2='target', anchor=[0, 0, 0])
m.equality.add('tendon', name='te', tendon1='coupled', polycoef=[0, 1, 0, 0, 0])
m.contact.add('pair', name='p', geom1='trunk', geom2='terrain', condim=4, friction=[1, 1, 0.01, 0.001, 0.001], margin=0.01)
m.contact.add('exclude', name='ex', body1='torso', body2='arm')
m.keyframe.add('key', name='home', time=0, qpos=[0, 0, 1, 1, 0, 0, 0, 0.1, 0.05], qvel=np.zeros(8), ctrl=[0, 0, 0, 0, 0], mpos=[1, 1, 1], mquat=[1, 0, 0, 0])
m.custom.add('numeric', name='gains', size=3, data=[1, 2, 3])
tup = m.custom.add('tuple', name='tp')
tup.add('element', objtype='body', objname='torso', prm=0.5)
m.compiler.set_attributes(angle='degree', autolimits=True, inertiafromgeom='auto', eulerseq='xyz', boundmass=0.001, boundinertia=0.0001)
m.option.set_attributes(timestep=0.002, gravity=[0, 0, -9.81], wind=[0.1, 0, 0], density=1.2, viscosity=0.00002, cone='elliptic', jacobian='sparse', solver='Newton', iterations=50, tolerance=1e-8, noslip_iterations=2, impratio=10)
m.option.flag.set_attributes(warmstart='disable', energy='enable', contact='enable')
m.size.set_attributes(nconmax=50, njmax=200, nstack=1000, nuserdata=3, nkey=1)
getattr(m.visual, 'global').set_attributes(offwidth=640, offheight=480, fovy=50, azimuth=90, elevation=-20)
m.visual.map.set_attributes(znear=0.01, zfar=50, force=0.1)
m.visual.scale.set_attributes(forcewidth=0.1, contactwidth=0.2, framelength=1)
m.visual.rgba.set_attributes(haze=[0.1, 0.2, 0.3, 1], fog=[0, 0, 0, 1])
m.statistic.set_attributes(center=[0, 0, 1], extent=3, meansize=0.1)
text = m.to_xml_string()
record('text', text)
for part in ('compiler', 'option', 'size', 'statistic', 'visual', 'asset', 'worldbody', 'contact', 'tendon', 'equality', 'actuator', 'sensor', 'custom', 'keyframe'):
    record('part/' + part, getattr(m, part).to_xml_string())
physics = mjcf.Physics.from_xml_string(text)
for name in ('nq', 'nv', 'nu', 'nsensor', 'nsensordata', 'ntendon', 'neq', 'npair', 'nexclude', 'nkey', 'nnumeric', 'ntuple', 'nhfield', 'nmesh', 'ncam', 'nlight'):
    record('compiled/' + name, int(getattr(physics.model, name)))
for name in ('body_mass', 'body_inertia', 'geom_size', 'geom_friction', 'jnt_range', 'actuator_gainprm', 'actuator_biasprm', 'actuator_dynprm', 'actuator_gear', 'tendon_range', 'cam_fovy', 'light_diffuse', 'eq_data', 'key_qpos', 'numeric_data', 'opt.gravity', 'opt.timestep', 'opt.wind', 'vis.global_.fovy'):
    obj = physics.model
    for part in name.split('.'):
        obj = getattr(obj, part)
    record('compiled/' + name, np.asarray(obj))
record('text_p6_zero', m.to_xml_string(precision=6, zero_threshold=1e-3))
"""


@pytest.mark.dm_control_api(
    "mjcf.RootElement.to_xml_string",
    "mjcf.Element.set_attributes",
    "mjcf.Physics.from_xml_string",
)
def test_every_kind_of_element_and_setting_is_written_as_in_dm_control(differential):
    differential.assert_same(KINDS, "written_kinds", rtol=1e-9, atol=1e-12)


# Saving and loading: export_with_assets, binding a physics compiled from the text,
# copies, include_copy (the text names the source model, as PyMJCF's), the model
# attribute, and PyMJCF's refusal of a "/" in a parsed name (its own text included).
SAVED = r'''
import copy, os, tempfile
import numpy as np
from dm_control import mjcf

LEG = """
<mujoco model="leg">
  <default><joint damping="0.5"/><geom type="capsule" size="0.02"/></default>
  <asset><texture name="tex" type="2d" builtin="checker" width="16" height="16" rgb1="1 1 1" rgb2="0 0 0"/>
  <material name="legmat" texture="tex"/></asset>
  <worldbody>
    <geom name="hipball" type="sphere" size="0.03"/>
    <body name="thigh"><joint name="hip" axis="0 0 1"/>
      <geom name="thigh" fromto="0 0 0 0.2 0 0" material="legmat"/>
      <body name="shin" pos="0.2 0 0"><joint name="knee" axis="0 1 0"/><geom fromto="0 0 0 0 0 -0.2"/><site name="toe" pos="0 0 -0.2"/></body>
    </body>
  </worldbody>
  <actuator><motor name="hip" joint="hip" gear="5"/><position joint="knee" kp="3"/></actuator>
  <sensor><touch site="toe"/><jointpos joint="knee"/></sensor>
</mujoco>
"""
root = mjcf.RootElement(model='root')
root.worldbody.add('light', pos=[0, 0, 3])
root.worldbody.add('geom', name='floor', type='plane', size=[2, 2, 0.1])
legs = []
for i in range(2):
    leg = mjcf.from_xml_string(LEG)
    leg.model = f'leg{i}'
    root.worldbody.add('site', name=f's{i}', pos=[i * 0.5, 0, 0.5]).attach(leg).add('freejoint')
    legs.append(leg)

out = tempfile.mkdtemp()
mjcf.export_with_assets(root, out, 'exported.xml')
record('export/files', sorted(os.listdir(out)))
with open(os.path.join(out, 'exported.xml')) as handle:
    exported = handle.read()
record('export/text', exported)
physics = mjcf.Physics.from_xml_path(os.path.join(out, 'exported.xml'))
record('export/nbody', physics.model.nbody)
record('export/names', [physics.model.id2name(i, 'actuator') for i in range(physics.model.nu)])
record('export/sensors', [physics.model.id2name(i, 'sensor') for i in range(physics.model.nsensor)])

text = root.to_xml_string()
physics2 = mjcf.Physics.from_xml_string(text, root.get_assets())
toes = [leg.find('site', 'toe') for leg in legs]
record('bind/toe_xpos', physics2.bind(toes).xpos)
record('bind/act', physics2.bind(root.find_all('actuator')).ctrl.shape)
physics2.bind(root.find_all('actuator')).ctrl = [0.1, 0.2, 0.3, 0.4]
physics2.step()
record('bind/qpos', physics2.data.qpos)
record('named/joint', list(physics2.named.data.qpos.axes.row.names))

check('copy/attached', copy.deepcopy, root)
clone = copy.deepcopy(mjcf.from_xml_string(LEG))
record('copy/text', clone.to_xml_string())
check('reparse/error', mjcf.from_xml_string, text, assets=root.get_assets())

solo = mjcf.from_xml_string(LEG)
record('solo/text', solo.to_xml_string())
record('solo/p3', solo.to_xml_string(precision=3, pretty_print=False))
host = mjcf.RootElement(model='host')
host.include_copy(solo)
record('include_copy/text', host.to_xml_string())
renamed = mjcf.RootElement(model='before')
renamed.set_attributes(model='attribute')
record('model_attribute', [renamed.model, renamed.get_attributes(), repr(renamed), renamed.to_xml_string()])
renamed.model = 'after'
record('model_renamed', [renamed.model, renamed.get_attributes(), renamed.to_xml_string(pretty_print=False)])
for bad in ('<mujoco><worldbody><geom name="a/b" size="1"/></worldbody></mujoco>',
            '<mujoco><default><default class="a/b"/></default></mujoco>',
            '<mujoco><asset><material name="m/x"/></asset></mujoco>'):
    check('slash/' + bad[16:30], mjcf.from_xml_string, bad)
escaped = mjcf.from_xml_string(
    '<mujoco model="a/b"><default><default class="x/y"><geom rgba="1 0 0 1"/></default></default>'
    '<worldbody><body name="left/arm"><joint name="l/j"/><geom name="left/g" class="x/y" size="0.1"/>'
    '</body></worldbody><actuator><motor name="m\\1" joint="l/j"/></actuator>'
    '<custom><text name="t/x" data="a/b"/></custom></mujoco>',
    escape_separators=True)
record('escaped', [escaped.model, [e.name for e in escaped.find_all('geom')],
                   [e.name for e in escaped.find_all('joint')],
                   escaped.find('actuator', 'm\\\\1') is not None, escaped.to_xml_string()])
record('escaped_compiled', [mjcf.Physics.from_mjcf_model(escaped).model.id2name(0, 'actuator')])
'''


@pytest.mark.dm_control_api(
    "mjcf.export_with_assets",
    "mjcf.RootElement.include_copy",
    "mjcf.RootElement.set_attributes",
    "mjcf.RootElement.get_attributes",
    "mjcf.from_xml_string",
    "mjcf.from_path",
    "mjcf.Physics.from_xml_path",
    "mjcf.Physics.bind",
)
def test_saved_text_loads_binds_and_reparses_as_in_dm_control(differential):
    differential.assert_same(SAVED, "written_saved", rtol=1e-9, atol=1e-12)


# <custom> parsed and built: numerics read back as written (MjSpec pads their data to
# their size when parsing), texts, tuples and their entries, written as PyMJCF writes
# them (a parsed <custom> made the model fall back to MuJoCo's writer before).
CUSTOM = r"""
from dm_control import mjcf
txt = '<mujoco><worldbody><body name="b"><joint name="j"/><geom size="1"/></body></worldbody><custom><numeric name="n" data="1 2" size="3"/><numeric name="n2" data="4 5"/><text name="t" data="a/b"/><tuple name="tp"><element objtype="body" objname="b" prm="0.5"/><element objtype="joint" objname="j"/></tuple></custom></mujoco>'
m = mjcf.from_xml_string(txt)
record('parsed_text', m.to_xml_string())
record('parsed_attrs', [(e.tag, e.get_attributes()) for e in m.custom.all_children()])
record('data', [m.find('numeric', 'n').data, m.find('numeric', 'n').size])
a = mjcf.RootElement(model='a')
a.custom.add('numeric', name='n', data=[1, 2], size=3)
a.custom.add('numeric', name='n2', data=[4, 5])
t = a.custom.add('tuple', name='tp')
a.worldbody.add('body', name='b').add('geom', size=[1])
t.add('element', objtype='body', objname='b', prm=0.5)
record('api_text', a.to_xml_string())
record('api_data', [a.find('numeric', 'n').data, a.find('numeric', 'n').size])
p = mjcf.Physics.from_mjcf_model(m)
record('numeric_data', p.model.numeric_data)
record('tuple', [p.model.tuple_objtype, p.model.tuple_objid, p.model.tuple_objprm])
"""


@pytest.mark.dm_control_api("mjcf.RootElement.custom", "mjcf.from_xml_string")
def test_custom_data_is_read_and_written_as_in_dm_control(differential):
    differential.assert_same(CUSTOM, "written_custom")
