"""PyMJCF's API over `mujoco.MjSpec`: build, find, attach and bind MJCF models.

    from composer_tasks import mjcf

    model = mjcf.RootElement(model="creature")
    model.default.geom.type = "capsule"
    torso = model.worldbody.add("body", name="torso")
    hip = torso.add("joint", name="hip", type="hinge", axis=[0, 0, 1])
    model.actuator.add("motor", joint=hip, ctrlrange=[-1, 1])
    physics = mjcf.Physics.from_mjcf_model(model)
    physics.bind(hip).qpos

The handles are thin: the `MjSpec` is the model (no XML tree beside it), so
building and compiling run at MjSpec's speed. Modules, one concern each:
`attributes` (MJCF attribute names and values), `element` (handles, adding
children), `root` (models and their sections), `defaults` (default classes and
global settings), `namescope` (names, `find`, `find_all`), `attachment`
(`attach`), `parser` (MJCF text and files), `indexing` and `physics` (`bind`,
`named`). docs/mjcf.md lists what differs from dm_control's PyMJCF.
"""

from composer_tasks.mjcf.assets import Asset, from_zip
from composer_tasks.mjcf.attachment import (
    get_attachment_frame,
    get_frame_freejoint,
    get_frame_joints,
    get_freejoint,
)
from composer_tasks.mjcf.element import PREFIX_SEPARATOR, Element, RemovedElementError
from composer_tasks.mjcf.parser import (
    export_with_assets,
    export_with_assets_as_zip,
    from_file,
    from_path,
    from_xml_string,
)
from composer_tasks.mjcf.physics import Physics
from composer_tasks.mjcf.root import RootElement
from composer_tasks.mjcf.traversal_utils import commit_defaults

__all__ = [
    "PREFIX_SEPARATOR",
    "Asset",
    "Element",
    "Physics",
    "RemovedElementError",
    "RootElement",
    "commit_defaults",
    "export_with_assets",
    "export_with_assets_as_zip",
    "from_file",
    "from_path",
    "from_xml_string",
    "from_zip",
    "get_attachment_frame",
    "get_frame_freejoint",
    "get_frame_joints",
    "get_freejoint",
]
