"""Multilayer perceptrons as plain pytrees: a list of {'w': (in, out), 'b': (out,)} dicts."""

from collections.abc import Callable, Sequence

import jax
import jax.numpy as jnp

Params = list[dict[str, jax.Array]]


def mlp_init(key: jax.Array, layer_sizes: Sequence[int], *, scheme: str,
             final_scale: float) -> Params:
    """Initialises an MLP whose layers map layer_sizes[i] -> layer_sizes[i + 1].

    Args:
      key: JAX random key.
      layer_sizes: input size, hidden sizes, output size.
      scheme: 'fan_in_uniform' draws hidden weights from U(-1/sqrt(fan_in),
        1/sqrt(fan_in)) and the last layer from U(-final_scale, final_scale), as
        DDPG does (Lillicrap et al. 2016, section 7); 'orthogonal' uses orthogonal
        matrices with gain sqrt(2) for hidden layers and final_scale for the last,
        the PPO practice studied by Andrychowicz et al. (2021). Biases start at 0.
      final_scale: see `scheme`.
    """
    if len(layer_sizes) < 2 or any(int(size) < 1 for size in layer_sizes):
        raise ValueError(f"layer_sizes {tuple(layer_sizes)} must list >= 2 positive sizes.")
    if scheme not in ("fan_in_uniform", "orthogonal"):
        raise ValueError(f"scheme {scheme!r} is not 'fan_in_uniform' or 'orthogonal'.")
    keys = jax.random.split(key, len(layer_sizes) - 1)
    params = []
    num_layers = len(layer_sizes) - 1
    for index, (layer_key, fan_in, fan_out) in enumerate(
            zip(keys, layer_sizes[:-1], layer_sizes[1:])):
        is_last = index == num_layers - 1
        if scheme == "fan_in_uniform":
            limit = final_scale if is_last else 1.0 / jnp.sqrt(fan_in)
            weight = jax.random.uniform(layer_key, (fan_in, fan_out), jnp.float32, -limit, limit)
        else:
            gain = final_scale if is_last else jnp.sqrt(2.0)
            weight = jax.nn.initializers.orthogonal(gain)(layer_key, (fan_in, fan_out), jnp.float32)
        params.append({"w": weight, "b": jnp.zeros((fan_out,), jnp.float32)})
    return params


def mlp_apply(params: Params, inputs: jax.Array,
              activation: Callable[[jax.Array], jax.Array] = jax.nn.relu) -> jax.Array:
    """Applies the MLP; the activation follows every layer but the last."""
    hidden = inputs
    for layer in params[:-1]:
        hidden = activation(hidden @ layer["w"] + layer["b"])
    return hidden @ params[-1]["w"] + params[-1]["b"]
