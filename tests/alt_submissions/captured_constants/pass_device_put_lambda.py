# expect: pass
# Moves the weights to the device once with jax.device_put (no compile) and closes over them in a plain lambda
# that calls the jitted function: the closure is outside jit, so the weights still arrive as arguments.
import jax
import jax.numpy as jnp


@jax.jit
def net(p, x):
    h = jnp.tanh(x @ p["w1"] + p["b1"])
    return h @ p["w2"] + p["b2"]


def make_predictor(params):
    p = jax.device_put(params)
    return lambda x: net(p, x)
