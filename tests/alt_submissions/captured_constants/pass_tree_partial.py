# expect: pass
# jax.tree_util.Partial is a partial that is also a pytree: the weights are its leaves, so a jitted function that
# receives it receives them as arguments.
import jax
import jax.numpy as jnp
from jax.tree_util import Partial


def layer_stack(params, x):
    return jnp.tanh(x @ params["w1"] + params["b1"]) @ params["w2"] + params["b2"]


@jax.jit
def run(f, x):
    return f(x)


def make_predictor(params):
    bound = Partial(layer_stack, params)
    return lambda x: run(bound, x)
