#!/usr/bin/env bash
# Creates the envpool virtual environment the batch throughput benchmark compares
# against (envpool 1.2.5 is the newest release pip offers on Python 3.11).
#
# Usage: benchmarks/reference_envs/make_envpool_venv.sh [VENV_DIR]
#   VENV_DIR defaults to .venvs/envpool relative to the repository root.
set -euo pipefail

readonly ENVPOOL_VERSION="1.2.5"

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
venv_dir="${1:-${repo_root}/.venvs/envpool}"
python_bin="${PYTHON:-python3}"

if [[ ! -x "${venv_dir}/bin/python" ]]; then
  "${python_bin}" -m venv "${venv_dir}"
fi
"${venv_dir}/bin/python" -m pip install --upgrade pip
"${venv_dir}/bin/python" -m pip install "envpool==${ENVPOOL_VERSION}" "numpy<2"
"${venv_dir}/bin/python" -c "import envpool; env = envpool.make_dm('CartpoleSwingup-v1', num_envs=2); env.reset(); print('envpool', envpool.__version__, 'ok')"
