"""Running mean and variance, and the reward scale PPO divides rewards by.

`RunningMeanStd` merges each batch with the pairwise formula of Chan, Golub and
LeVeque (1979): it keeps (count, mean, M2 = sum of squared deviations) in float64
and combines a batch's own (count, mean, M2) with them, which stays accurate when
the mean is large relative to the spread, unlike accumulating sum and sum of squares.
"""

import numpy as np


class RunningMeanStd:
    """Mean and (population) variance of every sample seen so far, per element."""

    def __init__(self, shape: tuple[int, ...]):
        self.shape = tuple(shape)
        self.count = 0.0
        self.mean = np.zeros(self.shape, np.float64)
        self.m2 = np.zeros(self.shape, np.float64)

    @property
    def variance(self) -> np.ndarray:
        """Population variance; 1 before any sample so that normalising is then a no-op."""
        if self.count == 0:
            return np.ones(self.shape, np.float64)
        return self.m2 / self.count

    def update(self, batch: np.ndarray) -> None:
        """Adds a batch of samples of shape (B, *shape)."""
        batch = np.asarray(batch, np.float64)
        if batch.shape[1:] != self.shape:
            raise ValueError(
                f"batch has shape {batch.shape}; expected (B, {', '.join(map(str, self.shape))})."
            )
        if batch.shape[0] == 0:
            return
        if not np.all(np.isfinite(batch)):
            raise ValueError("batch contains NaN or infinite values; the statistics would be lost.")
        batch_count = float(batch.shape[0])
        batch_mean = batch.mean(axis=0)
        batch_m2 = np.square(batch - batch_mean).sum(axis=0)
        total = self.count + batch_count
        delta = batch_mean - self.mean
        self.mean = self.mean + delta * (batch_count / total)
        self.m2 = self.m2 + batch_m2 + np.square(delta) * (self.count * batch_count / total)
        self.count = total

    def normalize(self, values: np.ndarray, clip: float, epsilon: float = 1e-8) -> np.ndarray:
        """(values - mean) / sqrt(variance + epsilon), clipped to [-clip, clip], as float32."""
        scaled = (np.asarray(values, np.float64) - self.mean) / np.sqrt(self.variance + epsilon)
        return np.clip(scaled, -clip, clip).astype(np.float32)

    def state_dict(self) -> dict:
        return {"count": self.count, "mean": self.mean.copy(), "m2": self.m2.copy()}

    def load_state_dict(self, state: dict) -> None:
        if np.shape(state["mean"]) != self.shape:
            raise ValueError(
                f"normaliser state has shape {np.shape(state['mean'])}; expected {self.shape}."
            )
        self.count = float(state["count"])
        self.mean = np.array(state["mean"], np.float64)
        self.m2 = np.array(state["m2"], np.float64)


class DiscountedReturnScale:
    """Divides rewards by the running standard deviation of the discounted return.

    Each environment copy accumulates G <- discount * G + r, restarted at every
    episode start; the standard deviation of all G seen so far scales rewards.
    This keeps value targets O(1) whatever the task's reward scale (Heess et al.
    2017, appendix; the return-based variant is the one Engstrom et al. 2020 study).
    """

    def __init__(self, num_envs: int, discount: float):
        self.discount = float(discount)
        self.returns = np.zeros((num_envs,), np.float64)
        self.statistics = RunningMeanStd(())

    def scale(
        self,
        rewards: np.ndarray,
        episode_started: np.ndarray,
        valid: np.ndarray,
        epsilon: float = 1e-8,
    ) -> np.ndarray:
        """Updates the statistics with this step's rewards and returns them scaled.

        Args:
          rewards: (N,) rewards of the transitions just completed.
          episode_started: (N,) bool, True where the transition is the first of an
            episode, so that copy's accumulated return restarts.
          valid: (N,) bool, False for copies whose step was an automatic reset and
            carries no reward; they leave the statistics untouched.
        """
        rewards = np.where(valid, np.asarray(rewards, np.float64), 0.0)
        updated = np.where(episode_started, 0.0, self.returns) * self.discount + rewards
        self.returns = np.where(valid, updated, self.returns)
        self.statistics.update(self.returns[valid])
        if self.statistics.count < 2:
            # One sample has zero spread; scaling by it would blow the reward up.
            return rewards.astype(np.float32)
        return (rewards / np.sqrt(self.statistics.variance + epsilon)).astype(np.float32)

    def state_dict(self) -> dict:
        return {"returns": self.returns.copy(), "statistics": self.statistics.state_dict()}

    def load_state_dict(self, state: dict) -> None:
        self.returns = np.array(state["returns"], np.float64)
        self.statistics.load_state_dict(state["statistics"])
