# expect: runs
# Makes nothing static: clip is fine as a traced number, but activation is a string, and jit cannot trace it.
import jax
import jax.numpy as jnp

ACTIVATIONS = {"tanh": jnp.tanh, "relu": jax.nn.relu, "softplus": jax.nn.softplus}


@jax.custom_vjp
def clip_gradient(lo, hi, x):
    return x


def clip_gradient_fwd(lo, hi, x):
    return x, (lo, hi)


def clip_gradient_bwd(bounds, g):
    lo, hi = bounds
    return (None, None, jnp.clip(g, lo, hi))


clip_gradient.defvjp(clip_gradient_fwd, clip_gradient_bwd)


def loss(params, x, y, clip, activation):
    h = ACTIVATIONS[activation](x @ params["w1"] + params["b1"])
    h = clip_gradient(-clip, clip, h)
    pred = h @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


grads = jax.jit(jax.grad(loss))
