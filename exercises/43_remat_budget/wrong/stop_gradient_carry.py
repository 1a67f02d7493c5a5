# expect: grad_values
# Cuts the memory by stopping the gradient at each layer's input: the loss is unchanged, but the gradient no
# longer flows back through the stack, so every layer but the last gets a wrong gradient.
import jax
import jax.numpy as jnp


def layer(h, weights):
    w1, w2 = weights
    h = jax.lax.stop_gradient(h)
    return h + jnp.tanh(h @ w1) @ w2, None


def loss(params, x, y):
    h, _ = jax.lax.scan(layer, x, (params["w1"], params["w2"]))
    return jnp.mean((h - y) ** 2)
