# expect: reaches_jit
# No constants and one compile, but the network runs in NumPy on the host; the jitted function only copies the
# finished prediction.
import jax
import numpy as np


@jax.jit
def _as_array(y):
    return y


def make_predictor(params):
    def predict(x):
        hidden = np.tanh(x @ params["w1"] + params["b1"])
        return _as_array((hidden @ params["w2"] + params["b2"]).astype(np.float32))

    return predict
