# expect: pass
# A small class keeps the weights; __call__ hands them to one module-level jitted function.
import jax
import jax.numpy as jnp


@jax.jit
def apply(w1, b1, w2, b2, x):
    return jnp.dot(jnp.tanh(jnp.dot(x, w1) + b1), w2) + b2


class Predictor:
    def __init__(self, params):
        self.params = (params["w1"], params["b1"], params["w2"], params["b2"])

    def __call__(self, x):
        return apply(*self.params, x)


def make_predictor(params):
    return Predictor(params)
