"""MuJoCo's header constants as dm_control's `mjbindings.constants` offers them
(`constants.mjMAXVAL`, `constants.mjPI`, `constants.mjNEQDATA`), read from the
MuJoCo this project runs (4.x): the values 4.x's headers define."""

import mujoco

mjMINVAL = mujoco.mjMINVAL
mjMAXVAL = mujoco.mjMAXVAL
mjPI = mujoco.mjPI
mjMINMU = mujoco.mjMINMU
mjMINIMP = mujoco.mjMINIMP
mjMAXIMP = mujoco.mjMAXIMP
mjMAXCONPAIR = mujoco.mjMAXCONPAIR
mjMAXTREEDEPTH = mujoco.mjMAXTREEDEPTH
mjMAXFLEXNODES = mujoco.mjMAXFLEXNODES
mjMINAWAKE = mujoco.mjMINAWAKE
mjNEQDATA = mujoco.mjNEQDATA
mjNDYN = mujoco.mjNDYN
mjNGAIN = mujoco.mjNGAIN
mjNBIAS = mujoco.mjNBIAS
mjNFLUID = mujoco.mjNFLUID
mjNREF = mujoco.mjNREF
mjNIMP = mujoco.mjNIMP
mjNPOLY = mujoco.mjNPOLY
mjNSENS = mujoco.mjNSENS
mjNSOLVER = mujoco.mjNSOLVER
mjNISLAND = mujoco.mjNISLAND
mjNGROUP = mujoco.mjNGROUP
mjMAXLIGHT = mujoco.mjMAXLIGHT
mjMAXOVERLAY = mujoco.mjMAXOVERLAY
mjMAXLINE = mujoco.mjMAXLINE
mjMAXLINEPNT = mujoco.mjMAXLINEPNT
mjMAXPLANEGRID = mujoco.mjMAXPLANEGRID
mjSC_IN = mujoco.mjSC_IN
mjSC_OUT = mujoco.mjSC_OUT
mjSC_INOUT = mujoco.mjSC_INOUT
mjVERSION_HEADER = mujoco.mjVERSION_HEADER
