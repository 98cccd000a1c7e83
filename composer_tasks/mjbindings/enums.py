"""MuJoCo's enum types as dm_control's `mjbindings.enums` offers them.

Each is a namedtuple whose fields are the enum's member names in MuJoCo's order and
whose values are plain ints, so `enums.mjtObj.mjOBJ_BODY == 1`, `enums.mjtWarning._fields`
lists the names, and a value indexes flag arrays (`scene_option.flags[enums.mjtVisFlag.
mjVIS_TRANSPARENT]`) or is passed to any `mujoco` function. Read from the MuJoCo this
project runs (4.x), so members that 4.x added (`mjtEnableBit.mjENBL_SPECULATIVE`) are
present and the `mjN*` counts are 4.x's.
"""

import collections
from typing import Any

import mujoco


def _enum(enum_type: Any) -> Any:
    """A namedtuple of the members of pybind11 enum type `enum_type`, as ints."""
    members = enum_type.__members__
    fields = collections.namedtuple(enum_type.__name__, list(members))
    return fields(*(int(value) for value in members.values()))


mjrIndexType = _enum(mujoco.mjrIndexType)
mjrMeshPrimitiveType = _enum(mujoco.mjrMeshPrimitiveType)
mjrPixelFormat = _enum(mujoco.mjrPixelFormat)
mjrVertexAttributeType = _enum(mujoco.mjrVertexAttributeType)
mjrVertexAttributeUsage = _enum(mujoco.mjrVertexAttributeUsage)
mjtActuator = _enum(mujoco.mjtActuator)
mjtAlignFree = _enum(mujoco.mjtAlignFree)
mjtBias = _enum(mujoco.mjtBias)
mjtBuiltin = _enum(mujoco.mjtBuiltin)
mjtButton = _enum(mujoco.mjtButton)
mjtCTimer = _enum(mujoco.mjtCTimer)
mjtCamLight = _enum(mujoco.mjtCamLight)
mjtCamOutBit = _enum(mujoco.mjtCamOutBit)
mjtCamera = _enum(mujoco.mjtCamera)
mjtCatBit = _enum(mujoco.mjtCatBit)
mjtColorSpace = _enum(mujoco.mjtColorSpace)
mjtConDataField = _enum(mujoco.mjtConDataField)
mjtCone = _enum(mujoco.mjtCone)
mjtConflict = _enum(mujoco.mjtConflict)
mjtConstraint = _enum(mujoco.mjtConstraint)
mjtConstraintState = _enum(mujoco.mjtConstraintState)
mjtCtrlChart = _enum(mujoco.mjtCtrlChart)
mjtCtrlInput = _enum(mujoco.mjtCtrlInput)
mjtDataType = _enum(mujoco.mjtDataType)
mjtDepthMap = _enum(mujoco.mjtDepthMap)
mjtDisableBit = _enum(mujoco.mjtDisableBit)
mjtDyn = _enum(mujoco.mjtDyn)
mjtEmbed = _enum(mujoco.mjtEmbed)
mjtEnableBit = _enum(mujoco.mjtEnableBit)
mjtEq = _enum(mujoco.mjtEq)
mjtEvent = _enum(mujoco.mjtEvent)
mjtFlexSection = _enum(mujoco.mjtFlexSection)
mjtFlexSelf = _enum(mujoco.mjtFlexSelf)
mjtFont = _enum(mujoco.mjtFont)
mjtFontScale = _enum(mujoco.mjtFontScale)
mjtFrame = _enum(mujoco.mjtFrame)
mjtFramebuffer = _enum(mujoco.mjtFramebuffer)
mjtGain = _enum(mujoco.mjtGain)
mjtGeom = _enum(mujoco.mjtGeom)
mjtGeomInertia = _enum(mujoco.mjtGeomInertia)
mjtGridPos = _enum(mujoco.mjtGridPos)
mjtInertiaFromGeom = _enum(mujoco.mjtInertiaFromGeom)
mjtIntegrator = _enum(mujoco.mjtIntegrator)
mjtItem = _enum(mujoco.mjtItem)
mjtJacobian = _enum(mujoco.mjtJacobian)
mjtJoint = _enum(mujoco.mjtJoint)
mjtLRMode = _enum(mujoco.mjtLRMode)
mjtLabel = _enum(mujoco.mjtLabel)
mjtLightType = _enum(mujoco.mjtLightType)
mjtLimited = _enum(mujoco.mjtLimited)
mjtLogLevel = _enum(mujoco.mjtLogLevel)
mjtLogTopic = _enum(mujoco.mjtLogTopic)
mjtMark = _enum(mujoco.mjtMark)
mjtMeshBuiltin = _enum(mujoco.mjtMeshBuiltin)
mjtMeshInertia = _enum(mujoco.mjtMeshInertia)
mjtMouse = _enum(mujoco.mjtMouse)
mjtObj = _enum(mujoco.mjtObj)
mjtOrientation = _enum(mujoco.mjtOrientation)
mjtPassthrough = _enum(mujoco.mjtPassthrough)
mjtPertBit = _enum(mujoco.mjtPertBit)
mjtPluginCapabilityBit = _enum(mujoco.mjtPluginCapabilityBit)
mjtProjection = _enum(mujoco.mjtProjection)
mjtRayDataField = _enum(mujoco.mjtRayDataField)
mjtRndFlag = _enum(mujoco.mjtRndFlag)
mjtSDFType = _enum(mujoco.mjtSDFType)
mjtSameFrame = _enum(mujoco.mjtSameFrame)
mjtScaling = _enum(mujoco.mjtScaling)
mjtSection = _enum(mujoco.mjtSection)
mjtSensor = _enum(mujoco.mjtSensor)
mjtSleepPolicy = _enum(mujoco.mjtSleepPolicy)
mjtSleepState = _enum(mujoco.mjtSleepState)
mjtSolver = _enum(mujoco.mjtSolver)
mjtStage = _enum(mujoco.mjtStage)
mjtState = _enum(mujoco.mjtState)
mjtStereo = _enum(mujoco.mjtStereo)
mjtTendon = _enum(mujoco.mjtTendon)
mjtTexture = _enum(mujoco.mjtTexture)
mjtTextureRole = _enum(mujoco.mjtTextureRole)
mjtTimer = _enum(mujoco.mjtTimer)
mjtTrn = _enum(mujoco.mjtTrn)
mjtVisFlag = _enum(mujoco.mjtVisFlag)
mjtWarning = _enum(mujoco.mjtWarning)
mjtWrap = _enum(mujoco.mjtWrap)
