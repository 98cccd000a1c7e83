"""Packaging for composer_tasks: MuJoCo 4 task authoring, the Control Suite and agents."""

import setuptools

setuptools.setup(
    name="composer-tasks",
    version="0.1.0",
    description=(
        "Compose MuJoCo reinforcement-learning tasks from entities, benchmark them "
        "on a fixed suite, and train reference agents."
    ),
    python_requires=">=3.10",
    packages=setuptools.find_packages(
        include=["composer_tasks*", "mjcf_models*", "suites*", "agents*"]
    ),
    package_data={"mjcf_models": ["**/*.xml", "**/*.png", "**/*.stl"]},
    install_requires=[
        "mujoco>=4.0",
        "dm-env",
        "numpy",
        "absl-py",
        "labmaze",
        # The quadruped escape terrain's spline zoom (scipy.ndimage), as published.
        "scipy",
    ],
    extras_require={
        "gymnasium": ["gymnasium>=1.0"],
        # The multi-agent adapter composer_tasks.wrappers.pettingzoo (soccer).
        "pettingzoo": ["gymnasium>=1.0", "pettingzoo>=1.24"],
        "agents": ["jax", "optax", "matplotlib", "tqdm", "cma"],
        "video": ["imageio", "imageio-ffmpeg"],
        # Distributed D4PG and DPPO (agents/distributed_d4pg.py, agents/dppo.py).
        "distributed": ["ray>=2.9"],
        "dev": [
            "gymnasium>=1.0",
            "pettingzoo>=1.24",
            "jax",
            "optax",
            "cma",
            "matplotlib",
            "tqdm",
            "imageio",
            "imageio-ffmpeg",
            "nbclient",
            "nbformat",
            "ipykernel",
            "pytest",
            "pytest-xdist",
            "hypothesis",
            "selenium",
            "ray>=2.9",
            # Pinned: `ruff format --check` and pyright's verdicts change between
            # releases, and CI gates on both.
            "ruff==0.17.6",
            "pyright[nodejs]==1.1.414",
        ],
    },
    entry_points={
        # Named environments for composer_tasks.registry (the viewer's command line).
        "composer_tasks.environments": [
            "suite = suites.suite:register_environments",
            "locomotion = suites.locomotion:register_environments",
            "soccer = suites.soccer:register_environments",
            "hand = suites.hand:register_environments",
        ],
    },
)
