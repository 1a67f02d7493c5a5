# expect: runs
# Takes clip out of static_argnames but keeps nondiff_argnums: the traced clip reaches a position meant for
# values known while tracing, and the custom_vjp raises UnexpectedTracerError.
import functools

import jax
import jax.numpy as jnp

ACTIVATIONS = {"tanh": jnp.tanh, "relu": jax.nn.relu, "softplus": jax.nn.softplus}


@functools.partial(jax.custom_vjp, nondiff_argnums=(0, 1))
def clip_gradient(lo, hi, x):
    return x


def clip_gradient_fwd(lo, hi, x):
    return x, None


def clip_gradient_bwd(lo, hi, _, g):
    return (jnp.clip(g, lo, hi),)


clip_gradient.defvjp(clip_gradient_fwd, clip_gradient_bwd)


def loss(params, x, y, clip, activation):
    h = ACTIVATIONS[activation](x @ params["w1"] + params["b1"])
    h = clip_gradient(-clip, clip, h)
    pred = h @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


grads = jax.jit(jax.grad(loss), static_argnames="activation")
