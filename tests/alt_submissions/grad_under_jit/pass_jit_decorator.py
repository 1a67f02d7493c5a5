# expect: pass
# A jitted function of its own that calls jax.grad inside; the activation is static by name.
import functools

import jax
import jax.numpy as jnp

ACTIVATIONS = {"tanh": jnp.tanh, "relu": jax.nn.relu, "softplus": jax.nn.softplus}


@jax.custom_vjp
def clip_gradient(lo, hi, x):
    return x


clip_gradient.defvjp(lambda lo, hi, x: (x, (lo, hi)),
                     lambda res, g: (None, None, jnp.minimum(jnp.maximum(g, res[0]), res[1])))


def loss(params, x, y, clip, activation):
    h = clip_gradient(-clip, clip, ACTIVATIONS[activation](x @ params["w1"] + params["b1"]))
    return jnp.mean((h @ params["w2"] + params["b2"] - y) ** 2)


@functools.partial(jax.jit, static_argnames="activation")
def grads(params, x, y, clip, activation):
    return jax.grad(loss)(params, x, y, clip, activation)
