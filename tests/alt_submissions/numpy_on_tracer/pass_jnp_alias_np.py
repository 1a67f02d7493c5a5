# expect: pass
# Keeps the NumPy spelling but imports jax.numpy under the name np; not jitted here (the grader wraps it).
import jax.numpy as np


def attention_weights(q, k):
    scores = np.dot(q, k.T) / np.sqrt(q.shape[-1])
    scores = scores - np.max(scores, axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / np.sum(e, axis=-1, keepdims=True)
