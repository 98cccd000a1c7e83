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
        include=["composer_tasks*", "mjcf_models*", "suites*", "agents*"]),
    package_data={"mjcf_models": ["**/*.xml", "**/*.png", "**/*.stl"]},
    install_requires=[
        "mujoco>=4.0",
        "dm-env",
        "numpy",
        "absl-py",
        "labmaze",
    ],
    extras_require={
        "gymnasium": ["gymnasium>=1.0"],
        "agents": ["jax", "optax", "matplotlib", "tqdm", "cma"],
        "video": ["imageio", "imageio-ffmpeg"],
        "dev": [
            "gymnasium>=1.0",
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
        ],
    },
)
