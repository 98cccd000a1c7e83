"""Rewards of reference-pose (motion tracking) tasks (dm_control's
`locomotion.tasks.reference_pose.rewards`).

A reward function takes keyword arguments (the walker's and the reference's
feature dictionaries, the tracking task's termination error and its threshold;
unknown keywords are ignored) and returns a `RewardFnOutput`: the scalar reward,
a dictionary of debug terms, and the reward terms sorted by name (None where a
function has none). `get_reward(key)` and `get_reward_channels(key)` look them up
by the names dm_control's tracking task uses.

Feature dictionaries map names to arrays. A key containing "quaternions" holds a
stack of (w, x, y, z) quaternions, one containing "quaternion" a single one; they
are compared by `bounded_quat_dist`, every other key by the summed squared
difference.
"""

from __future__ import annotations

import collections
from collections.abc import Callable, Iterable, Mapping
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import ArrayLike


class RewardFnOutput(NamedTuple):
    """What a reward function returns: `reward`, `debug` terms and `reward_terms`."""

    reward: Any
    debug: dict[str, Any]
    reward_terms: collections.OrderedDict[str, Any] | None


def bounded_quat_dist(source: ArrayLike, target: ArrayLike) -> np.ndarray:
    """Angle-like distance between quaternions, at most pi/2.

    `source` and `target` are (..., 4) quaternions (w, x, y, z) with any batch
    dimensions; neither needs unit norm (both are normalised; the inputs are not
    modified). The result, shape (..., 1), is half the arccos of
    2 <q1, q2>^2 - 1, so q and -q are at distance 0 and orthogonal quaternions
    at pi/2.
    """
    source_array = np.asarray(source, dtype=np.float64)
    target_array = np.asarray(target, dtype=np.float64)
    if source_array.shape[-1:] != (4,) or target_array.shape[-1:] != (4,):
        raise ValueError(
            "quaternions must have a last axis of 4, got shapes "
            f"{source_array.shape} and {target_array.shape}"
        )
    source_array = source_array / np.linalg.norm(source_array, axis=-1, keepdims=True)
    target_array = target_array / np.linalg.norm(target_array, axis=-1, keepdims=True)
    cosine = 2.0 * np.einsum("...i,...i", source_array, target_array) ** 2 - 1.0
    # Rounding can put the cosine of equal quaternions a hair above 1.
    cosine = np.minimum(1.0, cosine)
    return 0.5 * np.arccos(cosine)[..., np.newaxis]


def sort_dict(terms: Mapping[str, Any]) -> collections.OrderedDict[str, Any]:
    """`terms` as an OrderedDict sorted by key."""
    return collections.OrderedDict(sorted(terms.items()))


def compute_squared_differences(
    walker_features: Mapping[str, Any],
    reference_features: Mapping[str, Any],
    exclude_keys: Iterable[str] = (),
) -> dict[str, Any]:
    """Squared differences of the walker's features from the reference's, per key.

    Every key of `walker_features` not in `exclude_keys` must be in
    `reference_features`. A "quaternions" key gives the sum over its quaternions
    of `bounded_quat_dist` squared (a scalar); a "quaternion" key gives that
    distance squared, shape (1,) (dm_control's shape); any other key the sum of
    squared element differences.
    """
    excluded = set(exclude_keys)
    differences: dict[str, Any] = {}
    for key in walker_features:
        if key in excluded:
            continue
        if key not in reference_features:
            raise KeyError(f"the reference features have no {key!r}, which the walker's have")
        walker_value = walker_features[key]
        reference_value = reference_features[key]
        if "quaternions" in key:
            distances = bounded_quat_dist(walker_value, reference_value)
            differences[key] = np.sum(distances**2)
        elif "quaternion" in key:
            differences[key] = bounded_quat_dist(walker_value, reference_value) ** 2
        else:
            delta = np.asarray(walker_value) - np.asarray(reference_value)
            differences[key] = np.sum(delta**2)
    return differences


def termination_reward_fn(
    termination_error: Any, termination_error_threshold: Any, **unused_kwargs: Any
) -> RewardFnOutput:
    """1 - termination_error / termination_error_threshold.

    The tracking task ends the episode once the error passes the threshold, so
    while it runs this lies in [0, 1]. Reward term: "termination".
    """
    del unused_kwargs
    reward = 1 - termination_error / termination_error_threshold
    debug_terms = {
        "termination_error": termination_error,
        "termination_error_threshold": termination_error_threshold,
    }
    return RewardFnOutput(
        reward=reward, debug=debug_terms, reward_terms=sort_dict({"termination": reward})
    )


def debug(
    reference_features: Mapping[str, Any],
    walker_features: Mapping[str, Any],
    **unused_kwargs: Any,
) -> RewardFnOutput:
    """Reward 0; the debug terms are the squared feature differences."""
    del unused_kwargs
    differences = compute_squared_differences(walker_features, reference_features)
    return RewardFnOutput(reward=0.0, debug=differences, reward_terms=None)


# Weights and scales of the multi-term pose reward (dm_control 1.0.50,
# locomotion/tasks/reference_pose/rewards.py): term = weight * exp(-scale * difference).
_POSE_TERMS = (
    ("center_of_mass", 0.1, 10.0),
    ("joints_velocity", 1.0, 0.1),
    ("appendages", 0.15, 40.0),
    ("body_quaternions", 0.65, 2.0),
)


def multi_term_pose_reward_fn(
    walker_features: Mapping[str, Any],
    reference_features: Mapping[str, Any],
    **unused_kwargs: Any,
) -> RewardFnOutput:
    """Weighted sum of exp(-scale * squared difference) over the centre of mass,
    joint velocities, appendages and body quaternions (weights 0.1, 1.0, 0.15,
    0.65; scales 10, 0.1, 40, 2). The features must hold those four keys."""
    del unused_kwargs
    differences = compute_squared_differences(walker_features, reference_features)
    missing = [name for name, _, _ in _POSE_TERMS if name not in differences]
    if missing:
        raise KeyError(f"the multi-term pose reward needs the features {missing}")
    terms = {
        name: weight * np.exp(-scale * differences[name]) for name, weight, scale in _POSE_TERMS
    }
    reward = sum(terms.values())
    return RewardFnOutput(reward=reward, debug=terms, reward_terms=sort_dict(terms))


def comic_reward_fn(
    termination_error: Any,
    termination_error_threshold: Any,
    walker_features: Mapping[str, Any],
    reference_features: Mapping[str, Any],
    **unused_kwargs: Any,
) -> RewardFnOutput:
    """The mean of `termination_reward_fn` and `multi_term_pose_reward_fn`.

    The reward of CoMic (Hasenclever et al., ICML 2020); each reward term is
    halved likewise.
    """
    del unused_kwargs
    termination = termination_reward_fn(termination_error, termination_error_threshold)
    pose = multi_term_pose_reward_fn(walker_features, reference_features)
    debug_terms = dict(termination.debug)
    debug_terms.update(pose.debug)
    assert termination.reward_terms is not None and pose.reward_terms is not None
    reward_terms = {name: 0.5 * value for name, value in termination.reward_terms.items()}
    reward_terms.update({name: 0.5 * value for name, value in pose.reward_terms.items()})
    return RewardFnOutput(
        reward=0.5 * termination.reward + 0.5 * pose.reward,
        debug=debug_terms,
        reward_terms=sort_dict(reward_terms),
    )


_REWARD_FN: dict[str, Callable[..., RewardFnOutput]] = {
    "termination_reward": termination_reward_fn,
    "multi_term_pose_reward": multi_term_pose_reward_fn,
    "comic": comic_reward_fn,
}

# The reward channels each function reports, in dm_control's order.
_REWARD_CHANNELS: dict[str, tuple[str, ...]] = {
    "termination_reward": ("termination",),
    "multi_term_pose_reward": (
        "appendages",
        "body_quaternions",
        "center_of_mass",
        "joints_velocity",
    ),
    "comic": (
        "appendages",
        "body_quaternions",
        "center_of_mass",
        "termination",
        "joints_velocity",
    ),
}


def get_reward(reward_key: str) -> Callable[..., RewardFnOutput]:
    """The reward function named `reward_key` ("termination_reward",
    "multi_term_pose_reward" or "comic")."""
    if reward_key not in _REWARD_FN:
        raise ValueError(
            f"Requested loss {reward_key}, which is not a valid option; valid: {sorted(_REWARD_FN)}"
        )
    return _REWARD_FN[reward_key]


def get_reward_channels(reward_key: str) -> tuple[str, ...]:
    """The reward term names the function `reward_key` reports."""
    if reward_key not in _REWARD_CHANNELS:
        raise ValueError(
            f"Requested loss {reward_key}, which is not a valid option; "
            f"valid: {sorted(_REWARD_CHANNELS)}"
        )
    return _REWARD_CHANNELS[reward_key]
