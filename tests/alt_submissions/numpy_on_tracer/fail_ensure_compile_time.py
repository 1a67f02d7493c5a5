# expect: runs
# Tries jax.ensure_compile_time_eval so NumPy can see numbers: the scores depend on the arguments, so they stay tracers.
import jax
import numpy as np


@jax.jit
def attention_weights(q, k):
    with jax.ensure_compile_time_eval():
        scores = (q @ k.T) / np.sqrt(q.shape[-1])
        scores = scores - np.max(scores, axis=-1, keepdims=True)
        e = np.exp(scores)
    return e / np.sum(e, axis=-1, keepdims=True)
