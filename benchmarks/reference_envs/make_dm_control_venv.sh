#!/usr/bin/env bash
# Creates the reference virtual environment with the published DeepMind Control
# Suite (dm-control 1.0.50) on MuJoCo 3.17.0. dm-control 1.0.50 does not run on
# MuJoCo 4, so it cannot share the project's environment; the conformance
# recorder (tests/conformance/make_reference.py) and the speed benchmarks run
# it in this separate venv.
#
# Usage: benchmarks/reference_envs/make_dm_control_venv.sh [VENV_DIR]
#   VENV_DIR defaults to .venvs/dm_control relative to the repository root
#   (.venvs/ is ignored by git). PYTHON selects the interpreter (default python3).
set -euo pipefail

readonly DM_CONTROL_VERSION="1.0.50"
readonly MUJOCO_VERSION="3.17.0"

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
venv_dir="${1:-${repo_root}/.venvs/dm_control}"
python_bin="${PYTHON:-python3}"

if [[ -e "${venv_dir}" && ! -x "${venv_dir}/bin/python" ]]; then
  echo "error: ${venv_dir} exists but is not a virtual environment" >&2
  exit 1
fi
if [[ ! -x "${venv_dir}/bin/python" ]]; then
  "${python_bin}" -m venv "${venv_dir}"
fi

# A venv that already holds the pinned pair (CI keeps one between runs) is only
# verified below.
if ! "${venv_dir}/bin/python" - "${DM_CONTROL_VERSION}" "${MUJOCO_VERSION}" 2>/dev/null <<'PY'
import importlib.metadata as metadata
import sys

wanted = {"dm-control": sys.argv[1], "mujoco": sys.argv[2], "pillow": None, "pytest": None, "mock": None, "h5py": None}
# dm_control's mocap loader reads FieldDescriptor.label, which protobuf 7 removed.
if int(metadata.version("protobuf").split(".")[0]) >= 7:
    raise SystemExit(1)
for name, version in wanted.items():
    installed = metadata.version(name)
    if version is not None and installed != version:
        raise SystemExit(1)
PY
then
  "${venv_dir}/bin/python" -m pip install --upgrade pip
  # Pinning both in one resolve makes pip fail loudly if dm-control's own
  # requirement on mujoco ever excludes the pinned version. Pillow: dm_control's
  # soccer module imports it without requiring it. pytest: dm_control's own test
  # files run there too, as the baseline of tests/differential's runner (mock:
  # its environment_test imports it). h5py and protobuf<7: dm_control's mocap
  # loader (the reference-pose tracking tests) needs both.
  "${venv_dir}/bin/python" -m pip install \
    "dm-control==${DM_CONTROL_VERSION}" "mujoco==${MUJOCO_VERSION}" pillow pytest mock h5py "protobuf<7"
fi

# Fails if the installed pair cannot load and step a suite task headless.
MUJOCO_GL="${MUJOCO_GL:-disable}" "${venv_dir}/bin/python" - <<'PY'
import importlib.metadata

import mujoco
from dm_control import suite

env = suite.load("cartpole", "balance", task_kwargs={"random": 0})
env.reset()
env.step([0.0])
print(f"reference venv ready: dm-control {importlib.metadata.version('dm-control')}, "
      f"mujoco {mujoco.__version__}")
PY
