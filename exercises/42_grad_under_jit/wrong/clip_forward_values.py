# expect: values
# Clips the hidden values in the forward pass instead of their gradient: the loss itself changes.
import jax
import jax.numpy as jnp

ACTIVATIONS = {"tanh": jnp.tanh, "relu": jax.nn.relu, "softplus": jax.nn.softplus}


def loss(params, x, y, clip, activation):
    h = ACTIVATIONS[activation](x @ params["w1"] + params["b1"])
    h = jnp.clip(h, -clip, clip)
    pred = h @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


grads = jax.jit(jax.grad(loss), static_argnames="activation")
