# expect: pass
# Checkpoints only the residual branch, passing the weights in: each layer keeps its input h and nothing wider.
import jax
import jax.numpy as jnp


@jax.checkpoint
def branch(h, w1, w2):
    return jnp.tanh(h @ w1) @ w2


def loss(params, x, y):
    def layer(h, weights):
        return h + branch(h, *weights), None

    h, _ = jax.lax.scan(layer, x, (params["w1"], params["w2"]))
    return jnp.mean((h - y) ** 2)
