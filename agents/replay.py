"""Experience replay: a numpy ring buffer, a sum tree for priorities, and the N-step writer.

Prioritised replay follows Schaul et al. (2016): item i is sampled with probability
P(i) = p_i^alpha / sum_k p_k^alpha, new items get the largest priority seen so far,
and the learner corrects the bias with importance weights
w_i = (n P(i))^-beta / max_batch w, n being the number of items stored.
"""

from typing import NamedTuple

import numpy as np


class Transitions(NamedTuple):
    """A batch of N-step transitions, leading dimension B.

    observation, next_observation: (B, D) float32 flat observations.
    action: (B, A) float32 actions in unit space [-1, 1].
    reward: (B,) float32 discounted sum of the n rewards that followed.
    discount: (B,) float32 multiplier of the bootstrap value at next_observation:
      gamma^n times the product of the environment's n discounts (0 after termination).
    """

    observation: np.ndarray
    action: np.ndarray
    reward: np.ndarray
    discount: np.ndarray
    next_observation: np.ndarray


def _validate_rng(rng) -> None:
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng is {type(rng).__name__}; expected a numpy.random.Generator.")


class ReplayBuffer:
    """Fixed-capacity ring buffer of transitions, sampled uniformly with replacement.

    Args:
      capacity: number of transitions kept; the oldest are overwritten first.
      observation_size, action_size: D and A of `Transitions`.
    """

    def __init__(self, capacity: int, observation_size: int, action_size: int):
        if int(capacity) < 1:
            raise ValueError(f"capacity {capacity} must be a positive integer.")
        self.capacity = int(capacity)
        self._storage = Transitions(
            observation=np.zeros((self.capacity, observation_size), np.float32),
            action=np.zeros((self.capacity, action_size), np.float32),
            reward=np.zeros((self.capacity,), np.float32),
            discount=np.zeros((self.capacity,), np.float32),
            next_observation=np.zeros((self.capacity, observation_size), np.float32),
        )
        self._next_index = 0
        self._size = 0

    def __len__(self) -> int:
        return self._size

    def add(self, transitions: Transitions) -> np.ndarray:
        """Stores a batch of transitions; returns the slots they went to."""
        count = transitions.reward.shape[0]
        if count > self.capacity:
            raise ValueError(f"batch of {count} transitions exceeds capacity {self.capacity}.")
        indices = (self._next_index + np.arange(count)) % self.capacity
        for stored, new in zip(self._storage, transitions):
            stored[indices] = new
        self._next_index = int((self._next_index + count) % self.capacity)
        self._size = min(self._size + count, self.capacity)
        return indices

    def get(self, indices: np.ndarray) -> Transitions:
        return Transitions(*(field[indices] for field in self._storage))

    def sample(
        self, batch_size: int, rng: np.random.Generator
    ) -> tuple[Transitions, np.ndarray, np.ndarray]:
        """Uniform sample with replacement.

        Returns:
          The transitions, their slots, and importance weights (all 1, float32).
        """
        _validate_rng(rng)
        if self._size == 0:
            raise ValueError("cannot sample from an empty replay buffer.")
        indices = rng.integers(0, self._size, size=batch_size)
        return self.get(indices), indices, np.ones((batch_size,), np.float32)

    def state_dict(self) -> dict:
        filled = slice(0, self._size)
        return {
            "storage": Transitions(*(field[filled].copy() for field in self._storage)),
            "next_index": self._next_index,
            "size": self._size,
            "capacity": self.capacity,
        }

    def load_state_dict(self, state: dict) -> None:
        if state["capacity"] != self.capacity:
            raise ValueError(
                f"replay state has capacity {state['capacity']}; expected {self.capacity}."
            )
        size = int(state["size"])
        for stored, saved in zip(self._storage, state["storage"]):
            if saved.shape[1:] != stored.shape[1:]:
                raise ValueError(
                    f"replay state rows have shape {saved.shape[1:]}; expected {stored.shape[1:]}."
                )
            stored[:size] = saved
        self._next_index = int(state["next_index"])
        self._size = size


class SumTree:
    """Binary tree over `capacity` non-negative leaves where each node holds its subtree's sum.

    Leaves live at positions [size, 2 * size) of one float64 array, size being
    capacity rounded up to a power of two; node i has children 2i and 2i + 1.
    Parents are recomputed from their children after every write, never updated by
    differences, so no rounding error accumulates.
    """

    def __init__(self, capacity: int):
        if int(capacity) < 1:
            raise ValueError(f"capacity {capacity} must be a positive integer.")
        self.capacity = int(capacity)
        self._depth = max(1, int(np.ceil(np.log2(self.capacity))))
        self._size = 2**self._depth
        self._nodes = np.zeros((2 * self._size,), np.float64)

    @property
    def total(self) -> float:
        return float(self._nodes[1])

    def get(self, indices: np.ndarray) -> np.ndarray:
        return self._nodes[np.asarray(indices) + self._size]

    def set(self, indices: np.ndarray, values: np.ndarray) -> None:
        indices = np.asarray(indices, np.int64)
        values = np.asarray(values, np.float64)
        if np.any(indices < 0) or np.any(indices >= self.capacity):
            raise ValueError(f"indices {indices} fall outside [0, {self.capacity}).")
        if not np.all(np.isfinite(values)) or np.any(values < 0):
            raise ValueError(f"priorities {values} must be finite and non-negative.")
        nodes = indices + self._size
        # With repeated indices numpy keeps the last write, as a sequence of writes would.
        self._nodes[nodes] = values
        for _ in range(self._depth):
            nodes = np.unique(nodes // 2)
            self._nodes[nodes] = self._nodes[2 * nodes] + self._nodes[2 * nodes + 1]

    def find(self, targets: np.ndarray) -> np.ndarray:
        """Leaf indices i such that sum(leaves[:i]) <= target < sum(leaves[:i + 1]).

        Targets must lie in [0, total). A target never lands on a zero leaf: at each
        node it is kept strictly below the chosen child's sum.
        """
        targets = np.asarray(targets, np.float64).copy()
        nodes = np.ones(targets.shape, np.int64)
        for _ in range(self._depth):
            left = 2 * nodes
            left_sum = self._nodes[left]
            go_right = targets >= left_sum
            right_sum = self._nodes[left + 1]
            targets = np.where(
                go_right, np.minimum(targets - left_sum, np.nextafter(right_sum, 0.0)), targets
            )
            nodes = np.where(go_right, left + 1, left)
        return nodes - self._size

    def state_dict(self) -> dict:
        return {"nodes": self._nodes.copy(), "capacity": self.capacity}

    def load_state_dict(self, state: dict) -> None:
        if state["capacity"] != self.capacity:
            raise ValueError(
                f"sum tree state has capacity {state['capacity']}; expected {self.capacity}."
            )
        self._nodes = np.array(state["nodes"], np.float64)


class PrioritizedReplay(ReplayBuffer):
    """Proportional prioritised replay (Schaul et al. 2016) with stratified sampling.

    Args:
      capacity, observation_size, action_size: as for `ReplayBuffer`.
      priority_exponent: alpha; 0 gives uniform sampling.
      importance_exponent: beta of the importance weights.
      epsilon: added to every priority so that no stored item becomes unreachable.
    """

    def __init__(
        self,
        capacity: int,
        observation_size: int,
        action_size: int,
        *,
        priority_exponent: float,
        importance_exponent: float,
        epsilon: float = 1e-6,
    ):
        super().__init__(capacity, observation_size, action_size)
        if priority_exponent < 0 or importance_exponent < 0 or epsilon <= 0:
            raise ValueError(
                f"priority_exponent {priority_exponent} and importance_exponent "
                f"{importance_exponent} must be >= 0 and epsilon {epsilon} > 0."
            )
        self.priority_exponent = float(priority_exponent)
        self.importance_exponent = float(importance_exponent)
        self.epsilon = float(epsilon)
        self._tree = SumTree(self.capacity)
        self._max_priority = 1.0

    def add(self, transitions: Transitions) -> np.ndarray:
        indices = super().add(transitions)
        self._tree.set(indices, np.full(indices.shape, self._max_priority**self.priority_exponent))
        return indices

    def probabilities(self, indices: np.ndarray) -> np.ndarray:
        """P(i) for the given slots."""
        return self._tree.get(indices) / self._tree.total

    def sample(
        self, batch_size: int, rng: np.random.Generator
    ) -> tuple[Transitions, np.ndarray, np.ndarray]:
        """Stratified proportional sample: one draw from each of batch_size equal
        slices of the total priority mass.

        Returns:
          The transitions, their slots, and float32 importance weights (B,).
        """
        _validate_rng(rng)
        if self._size == 0:
            raise ValueError("cannot sample from an empty replay buffer.")
        total = self._tree.total
        bounds = np.arange(batch_size + 1, dtype=np.float64) * (total / batch_size)
        targets = bounds[:-1] + rng.random(batch_size) * (bounds[1:] - bounds[:-1])
        targets = np.minimum(targets, np.nextafter(total, 0.0))
        indices = self._tree.find(targets)
        weights = (self._size * self.probabilities(indices)) ** (-self.importance_exponent)
        weights = weights / weights.max()
        return self.get(indices), indices, weights.astype(np.float32)

    def update_priorities(self, indices: np.ndarray, priorities: np.ndarray) -> None:
        """Sets raw priorities (e.g. absolute TD errors) of sampled slots."""
        priorities = np.asarray(priorities, np.float64)
        if not np.all(np.isfinite(priorities)) or np.any(priorities < 0):
            raise ValueError(f"priorities {priorities} must be finite and non-negative.")
        priorities = priorities + self.epsilon
        self._max_priority = max(self._max_priority, float(priorities.max()))
        self._tree.set(indices, priorities**self.priority_exponent)

    def state_dict(self) -> dict:
        state = super().state_dict()
        state["tree"] = self._tree.state_dict()
        state["max_priority"] = self._max_priority
        return state

    def load_state_dict(self, state: dict) -> None:
        super().load_state_dict(state)
        self._tree.load_state_dict(state["tree"])
        self._max_priority = float(state["max_priority"])


def n_step_return(rewards: np.ndarray, discounts: np.ndarray, gamma: float) -> tuple[float, float]:
    """The discounted sum of k rewards and the multiplier of the value after them.

    With r_m the reward and d_m the environment discount returned by the m-th step
    (m = 0..k-1): return = sum_m gamma^m (d_0 ... d_{m-1}) r_m, and
    bootstrap = gamma^k d_0 ... d_{k-1}.
    """
    total = 0.0
    multiplier = 1.0
    for reward, discount in zip(rewards, discounts):
        total += multiplier * float(reward)
        multiplier *= gamma * float(discount)
    return total, multiplier


class NStepWriter:
    """Turns a batched stream of (observation, action, reward) into N-step transitions.

    For each copy it keeps the last n unfinished steps. A step becomes a transition
    n steps later, bootstrapping from the observation then; when the episode ends,
    every unfinished step becomes a transition bootstrapping from the final
    observation with its shorter horizon (the final discount, 0 on termination and 1
    on a time limit, decides whether the bootstrap counts).

    Args:
      num_envs: copies in the batch.
      n_step: N.
      gamma: the agent's discount per step.
    """

    def __init__(self, num_envs: int, n_step: int, gamma: float):
        if int(n_step) < 1:
            raise ValueError(f"n_step {n_step} must be a positive integer.")
        self.n_step = int(n_step)
        self.gamma = float(gamma)
        self._pending = [[] for _ in range(num_envs)]

    def add(
        self,
        observation: np.ndarray,
        action: np.ndarray,
        reward: np.ndarray,
        discount: np.ndarray,
        next_observation: np.ndarray,
        valid: np.ndarray,
        episode_ended: np.ndarray,
    ) -> Transitions:
        """Adds one batched step and returns the transitions it completes (maybe none).

        Args:
          observation: (N, D) observations the actions were taken in.
          action: (N, A) actions.
          reward, discount: (N,) reward and environment discount of the step.
          next_observation: (N, D) observations after the step.
          valid: (N,) False for copies whose step was an automatic reset (ignored).
          episode_ended: (N,) True where next_observation is an episode's last.
        """
        completed = []
        for copy_index, pending in enumerate(self._pending):
            if not valid[copy_index]:
                continue
            pending.append(
                (
                    observation[copy_index],
                    action[copy_index],
                    reward[copy_index],
                    discount[copy_index],
                )
            )
            if episode_ended[copy_index]:
                while pending:
                    completed.append(self._transition(pending, next_observation[copy_index]))
                    pending.pop(0)
            elif len(pending) == self.n_step:
                completed.append(self._transition(pending, next_observation[copy_index]))
                pending.pop(0)
        observation_size = observation.shape[1]
        action_size = action.shape[1]
        if not completed:
            return Transitions(
                observation=np.zeros((0, observation_size), np.float32),
                action=np.zeros((0, action_size), np.float32),
                reward=np.zeros((0,), np.float32),
                discount=np.zeros((0,), np.float32),
                next_observation=np.zeros((0, observation_size), np.float32),
            )
        return Transitions(*(np.asarray(np.stack(field), np.float32) for field in zip(*completed)))

    def _transition(self, pending: list, next_observation: np.ndarray) -> tuple:
        first_observation, first_action = pending[0][0], pending[0][1]
        total, bootstrap = n_step_return(
            [step[2] for step in pending], [step[3] for step in pending], self.gamma
        )
        return first_observation, first_action, total, bootstrap, next_observation

    def state_dict(self) -> dict:
        return {
            "pending": [
                [tuple(np.copy(item) for item in step) for step in pending]
                for pending in self._pending
            ]
        }

    def load_state_dict(self, state: dict) -> None:
        pending = state["pending"]
        if len(pending) != len(self._pending):
            raise ValueError(
                f"N-step state has {len(pending)} copies; expected {len(self._pending)}."
            )
        self._pending = [[tuple(step) for step in copy_pending] for copy_pending in pending]
