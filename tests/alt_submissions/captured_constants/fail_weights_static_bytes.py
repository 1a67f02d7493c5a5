# expect: no_constants
# Passes the weights as arguments, but closes over the first layer's bias "because it is small": it is still
# 32 to 128 floats, captured as a constant, and a new predictor compiles again.
import jax
import jax.numpy as jnp


def make_predictor(params):
    b1 = params["b1"]

    @jax.jit
    def predict_with(w1, w2, b2, x):
        return jnp.tanh(x @ w1 + b1) @ w2 + b2

    return lambda x: predict_with(params["w1"], params["w2"], params["b2"], x)
