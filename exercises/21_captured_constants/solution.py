import functools

import jax
import jax.numpy as jnp


@jax.jit
def mlp(params, x):
    # params is an argument: its arrays are inputs of the compiled program, not constants inside it.
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    return hidden @ params["w2"] + params["b2"]


def make_predictor(params):
    # One jitted function for every set of weights; the predictor only remembers which weights to pass.
    return functools.partial(mlp, params)
