# expect: temp_budget
# Checkpoints the layer but unrolls the scan completely, hoping XLA does better with straight-line code.
import jax
import jax.numpy as jnp


def layer(h, weights):
    w1, w2 = weights
    return h + jnp.tanh(h @ w1) @ w2, None


def loss(params, x, y):
    h, _ = jax.lax.scan(jax.checkpoint(layer), x, (params["w1"], params["w2"]), unroll=True)
    return jnp.mean((h - y) ** 2)
