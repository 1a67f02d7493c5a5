# expect: pass
# functools.partial around the jitted function: the weights are arguments.
from functools import partial

import jax
import jax.numpy as jnp


def _forward(params, x):
    return jnp.tanh(x @ params["w1"] + params["b1"]) @ params["w2"] + params["b2"]


forward = jax.jit(_forward)


def make_predictor(params):
    return partial(forward, params)
