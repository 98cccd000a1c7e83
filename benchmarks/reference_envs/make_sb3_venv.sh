#!/usr/bin/env bash
# Creates the virtual environment for the stable-baselines3 SAC baseline of the
# learning benchmark (benchmarks/learning/sac_worker.py): stable-baselines3 on a
# CPU-only PyTorch, with this repository's own dependencies (MuJoCo 4, dm-env,
# absl-py, Gymnasium) and the repository installed editable without its
# dependencies, so the worker reaches the suite through `suites.gym_registration`.
# PyTorch lives here and not in the project's environment so that the JAX agents
# and their environment stay free of it.
#
# Usage: benchmarks/reference_envs/make_sb3_venv.sh [VENV_DIR]
#   VENV_DIR defaults to .venvs/sb3 relative to the repository root (.venvs/ is
#   ignored by git). PYTHON selects the interpreter (default python3).
set -euo pipefail

readonly TORCH_VERSION="2.13.0"
readonly SB3_VERSION="2.9.2"

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
venv_dir="${1:-${repo_root}/.venvs/sb3}"
python_bin="${PYTHON:-python3}"

if [[ -e "${venv_dir}" && ! -x "${venv_dir}/bin/python" ]]; then
  echo "error: ${venv_dir} exists but is not a virtual environment" >&2
  exit 1
fi
if [[ ! -x "${venv_dir}/bin/python" ]]; then
  "${python_bin}" -m venv "${venv_dir}"
fi

"${venv_dir}/bin/python" -m pip install --upgrade pip
# PyTorch first and alone, so that stable-baselines3 finds its requirement met
# and pip never resolves a CUDA build (with its multi-gigabyte nvidia-* wheels).
# Where a local CPU wheel is offered (PIP_FIND_LINKS), pip prefers it: its
# version 2.13.0+cpu sorts above 2.13.0.
"${venv_dir}/bin/python" -m pip install "torch==${TORCH_VERSION}"
"${venv_dir}/bin/python" -m pip install \
  "stable-baselines3==${SB3_VERSION}" "gymnasium>=1.0" "mujoco>=4.0" dm-env absl-py labmaze numpy
"${venv_dir}/bin/python" -m pip install --no-deps -e "${repo_root}"

# Fails if PyTorch is a CUDA build or if SAC cannot step a suite task through
# the Gymnasium adapter.
MUJOCO_GL="${MUJOCO_GL:-disable}" "${venv_dir}/bin/python" - <<'PY'
import importlib.metadata

import gymnasium
import mujoco
import stable_baselines3
import torch

import suites.gym_registration  # noqa: F401  (registers the suite's Gymnasium ids)

if torch.version.cuda is not None:
    raise SystemExit(f"torch {torch.__version__} is a CUDA build; expected a CPU build")
env = gymnasium.make("ComposerSuite/cartpole-balance-v0", flatten_observations=True)
model = stable_baselines3.SAC("MlpPolicy", env, learning_starts=10, seed=0, device="cpu")
model.learn(total_timesteps=20)
print(f"sb3 venv ready: stable-baselines3 {stable_baselines3.__version__}, "
      f"torch {torch.__version__}, gymnasium {gymnasium.__version__}, "
      f"mujoco {mujoco.__version__}, dm-env {importlib.metadata.version('dm-env')}")
PY
