# expect: in_program
# Moves the NumPy softmax into an io_callback: it runs, but on the host, every call.
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import io_callback


def numpy_softmax(q, k):
    s = np.asarray(q) @ np.asarray(k).T / np.sqrt(8)
    e = np.exp(s - s.max(-1, keepdims=True))
    return (e / e.sum(-1, keepdims=True)).astype(np.float32)


@jax.jit
def attention_weights(q, k):
    return io_callback(numpy_softmax, jax.ShapeDtypeStruct((4, 6), jnp.float32), q, k)
