import jax
import jax.numpy as jnp


def mlp(params, x):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    return hidden @ params["w2"] + params["b2"]


def make_predictor(params):
    # TODO: the lambda closes over params, so jit copies every weight into the compiled program as a
    # constant; and each new set of weights is a new function, compiled again from scratch.
    return jax.jit(lambda x: mlp(params, x))
