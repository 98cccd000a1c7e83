"""A domain-randomisation experiment: how a fixed controller copes with the pole's mass.

Runs a fixed linear balance controller on cartpole balance with the pole mass
sampled per copy and per episode from a range (`model_variations` of
`suite.load_batch`), all copies stepped together, then plots the episode return
against the mass.

    python examples/domain_randomization.py --num_envs 16 --episodes 2 --out runs/dr
"""

import os

from absl import app
from absl import flags
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen first)
import numpy as np  # noqa: E402

from composer_tasks.composer.variation import distributions  # noqa: E402
from suites import suite  # noqa: E402

_NUM_ENVS = flags.DEFINE_integer("num_envs", 16, "Copies stepped together.", lower_bound=1)
_EPISODES = flags.DEFINE_integer("episodes", 2, "Episodes per copy.", lower_bound=1)
_MASS_RANGE = flags.DEFINE_list("mass_range", ["0.05", "30.0"], "Pole mass range in kg.")
_SEED = flags.DEFINE_integer("seed", 0, "Batch seed.")
_OUT = flags.DEFINE_string("out", "runs/domain_randomization", "Output folder.")

# Gains on (cart position, sin pole angle, cart velocity, pole angular velocity),
# tuned by hand for the published pole mass of 0.1 kg.
_GAINS = np.array([0.5, 10.0, 1.0, 2.0])


def controller(observation):
    """The fixed policy: (N, ...) observations -> (N, 1) actions in [-1, 1]."""
    position, velocity = observation["position"], observation["velocity"]
    features = np.stack([position[:, 0], position[:, 2], velocity[:, 0], velocity[:, 1]], axis=1)
    return np.clip(features @ _GAINS, -1.0, 1.0)[:, None]


def run(num_envs, episodes, mass_range, seed):
    """Returns (masses, returns), one entry per finished episode."""
    low, high = mass_range
    batch = suite.load_batch(
        "cartpole",
        "balance",
        num_envs,
        seed=seed,
        model_variations={("body", "pole_1", "mass"): distributions.Uniform(low, high)},
    )
    timestep = batch.reset()
    masses = batch.model_values("body", "pole_1", "mass")[:, 0]
    returns = np.zeros(num_envs)
    finished_masses, finished_returns = [], []
    finished = np.zeros(num_envs, dtype=int)
    while np.any(finished < episodes):
        timestep = batch.step(controller(timestep.observation))
        running = ~timestep.first()
        returns[running] += timestep.reward[running]
        for index in np.flatnonzero(timestep.last()):
            if finished[index] < episodes:
                finished_masses.append(masses[index])
                finished_returns.append(returns[index])
            finished[index] += 1
            returns[index] = 0.0
        if np.any(timestep.first()):
            masses = batch.model_values("body", "pole_1", "mass")[:, 0]
    return np.array(finished_masses), np.array(finished_returns)


def main(argv):
    del argv
    mass_range = tuple(float(value) for value in _MASS_RANGE.value)
    if len(mass_range) != 2 or not 0 < mass_range[0] <= mass_range[1]:
        raise app.UsageError(
            f"--mass_range must be two positive masses low,high; got {_MASS_RANGE.value}"
        )
    masses, returns = run(_NUM_ENVS.value, _EPISODES.value, mass_range, _SEED.value)
    os.makedirs(_OUT.value, exist_ok=True)
    order = np.argsort(masses)
    with open(os.path.join(_OUT.value, "returns.csv"), "w") as handle:
        handle.write("pole_mass_kg,episode_return\n")
        for mass, episode_return in zip(masses[order], returns[order]):
            handle.write(f"{mass:.6f},{episode_return:.3f}\n")
    figure, axes = plt.subplots(figsize=(6, 4))
    axes.plot(masses[order], returns[order], "o-")
    axes.axvline(0.1, color="grey", linestyle="--", label="published pole mass")
    axes.set_xlabel("pole mass (kg)")
    axes.set_ylabel("episode return")
    axes.set_title("cartpole balance: fixed controller under randomised pole mass")
    axes.legend()
    figure.tight_layout()
    path = os.path.join(_OUT.value, "return_vs_mass.png")
    figure.savefig(path, dpi=100)
    for mass, episode_return in zip(masses[order], returns[order]):
        print(f"pole mass {mass:.3f} kg: return {episode_return:.1f}")
    print(f"wrote {path}")


if __name__ == "__main__":
    app.run(main)
