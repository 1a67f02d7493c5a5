import jax
import numpy as np


@jax.jit
def attention_weights(q, k):
    # NumPy on a Python number is fine: q.shape[-1] is known while jit traces.
    scale = 1.0 / np.sqrt(q.shape[-1])
    scores = (q @ k.T) * scale
    scores = scores - np.max(scores, axis=-1, keepdims=True)
    # TODO: under jit, scores is a tracer, not an array of numbers. What can NumPy do with it?
    e = np.exp(scores)
    return e / np.sum(e, axis=-1, keepdims=True)
