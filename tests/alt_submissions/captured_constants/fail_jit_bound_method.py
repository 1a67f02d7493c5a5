# expect: no_constants
# Jits a bound method per instance: self (and its weights) is closed over, so the weights become constants and
# every new instance compiles again.
import jax
import jax.numpy as jnp


class Model:
    def __init__(self, params):
        self.params = params
        self.predict = jax.jit(self._predict)

    def _predict(self, x):
        p = self.params
        return jnp.tanh(x @ p["w1"] + p["b1"]) @ p["w2"] + p["b2"]


def make_predictor(params):
    return Model(params).predict
