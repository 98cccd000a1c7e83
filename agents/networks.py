"""Multilayer perceptrons as plain pytrees: a list of per-layer dicts.

Every layer has 'w' (in, out) and 'b' (out,). With `first_layer_norm`, the first
layer also has 'scale' and 'offset' (out,) and applies layer normalisation followed
by tanh instead of the hidden activation; Acme's D4PG networks start this way,
which keeps unnormalised observations (velocities, forces) from saturating the
first layer.
"""

from collections.abc import Callable, Sequence

import jax
import jax.numpy as jnp
import numpy as np

Params = list[dict[str, jax.Array]]


def mlp_init(
    rng: np.random.Generator,
    layer_sizes: Sequence[int],
    *,
    scheme: str,
    final_scale: float,
    first_layer_norm: bool = False,
) -> Params:
    """Initialises an MLP whose layers map layer_sizes[i] -> layer_sizes[i + 1].

    Drawn with numpy, so that building an agent compiles nothing.

    Args:
      rng: numpy random generator.
      layer_sizes: input size, hidden sizes, output size.
      scheme: 'fan_in_uniform' draws hidden weights from U(-1/sqrt(fan_in),
        1/sqrt(fan_in)) and the last layer from U(-final_scale, final_scale), as
        DDPG does (Lillicrap et al. 2016, section 7); 'orthogonal' uses orthogonal
        matrices with gain sqrt(2) for hidden layers and final_scale for the last,
        the PPO practice studied by Andrychowicz et al. (2021). Biases start at 0.
      final_scale: see `scheme`.
      first_layer_norm: give the first layer layer-norm parameters (needs at least
        one hidden layer).
    """
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng is {type(rng).__name__}; expected a numpy.random.Generator.")
    if len(layer_sizes) < 2 or any(int(size) < 1 for size in layer_sizes):
        raise ValueError(f"layer_sizes {tuple(layer_sizes)} must list >= 2 positive sizes.")
    if scheme not in ("fan_in_uniform", "orthogonal"):
        raise ValueError(f"scheme {scheme!r} is not 'fan_in_uniform' or 'orthogonal'.")
    if first_layer_norm and len(layer_sizes) < 3:
        raise ValueError(
            f"first_layer_norm needs a hidden layer; layer_sizes {tuple(layer_sizes)} has none."
        )
    num_layers = len(layer_sizes) - 1
    params = []
    for index, (fan_in, fan_out) in enumerate(zip(layer_sizes[:-1], layer_sizes[1:])):
        is_last = index == num_layers - 1
        if scheme == "fan_in_uniform":
            limit = final_scale if is_last else 1.0 / np.sqrt(fan_in)
            weight = rng.uniform(-limit, limit, size=(fan_in, fan_out))
        else:
            gain = final_scale if is_last else np.sqrt(2.0)
            weight = gain * _orthogonal(rng, fan_in, fan_out)
        layer = {"w": jnp.asarray(weight, jnp.float32), "b": jnp.zeros((fan_out,), jnp.float32)}
        if index == 0 and first_layer_norm:
            layer["scale"] = jnp.ones((fan_out,), jnp.float32)
            layer["offset"] = jnp.zeros((fan_out,), jnp.float32)
        params.append(layer)
    return params


def _orthogonal(rng: np.random.Generator, rows: int, columns: int) -> np.ndarray:
    """A (rows, columns) matrix with orthonormal rows or columns (Saxe et al. 2014)."""
    gaussian = rng.standard_normal((max(rows, columns), min(rows, columns)))
    q, r = np.linalg.qr(gaussian)
    # The sign correction makes q uniformly distributed over orthogonal matrices.
    q = q * np.sign(np.diag(r))
    return q if rows >= columns else q.T


def mlp_apply(
    params: Params, inputs: jax.Array, activation: Callable[[jax.Array], jax.Array] = jax.nn.relu
) -> jax.Array:
    """Applies the MLP; a nonlinearity follows every layer but the last."""
    hidden = inputs
    for layer in params[:-1]:
        hidden = hidden @ layer["w"] + layer["b"]
        if "scale" in layer:
            mean = jnp.mean(hidden, axis=-1, keepdims=True)
            variance = jnp.var(hidden, axis=-1, keepdims=True)
            hidden = (hidden - mean) * jax.lax.rsqrt(variance + 1e-5)
            hidden = jnp.tanh(hidden * layer["scale"] + layer["offset"])
        else:
            hidden = activation(hidden)
    return hidden @ params[-1]["w"] + params[-1]["b"]
