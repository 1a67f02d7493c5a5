# expect: runs
# Converts the scores to a NumPy array "to be safe" before using NumPy: np.asarray on a tracer is exactly the
# conversion JAX refuses.
import jax
import numpy as np


@jax.jit
def attention_weights(q, k):
    scores = np.asarray(q @ k.T) / np.sqrt(q.shape[-1])
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
