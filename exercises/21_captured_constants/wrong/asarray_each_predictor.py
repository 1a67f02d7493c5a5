# expect: one_compile
# Right idea, but converts the weights with jnp.asarray in make_predictor: each new shape compiles a small program
# of JAX's own, on top of the one compile of mlp.
import functools

import jax
import jax.numpy as jnp


@jax.jit
def mlp(params, x):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    return hidden @ params["w2"] + params["b2"]


def make_predictor(params):
    on_device = {name: jnp.asarray(value) for name, value in params.items()}
    return functools.partial(mlp, on_device)
