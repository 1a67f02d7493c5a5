# expect: values
# Clips the parameters' gradient after jax.grad, as an optimizer's clipping would: another quantity.
import functools

import jax
import jax.numpy as jnp

ACTIVATIONS = {"tanh": jnp.tanh, "relu": jax.nn.relu, "softplus": jax.nn.softplus}


def loss(params, x, y, activation):
    h = ACTIVATIONS[activation](x @ params["w1"] + params["b1"])
    pred = h @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


@functools.partial(jax.jit, static_argnames="activation")
def grads(params, x, y, clip, activation):
    g = jax.grad(loss)(params, x, y, activation)
    return jax.tree_util.tree_map(lambda v: jnp.clip(v, -clip, clip), g)
