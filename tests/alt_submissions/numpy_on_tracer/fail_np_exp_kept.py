# expect: runs
# Replaces np.max and np.sum with jnp but keeps np.exp: the element-wise NumPy function still needs numbers.
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def attention_weights(q, k):
    scores = (q @ k.T) / np.sqrt(q.shape[-1])
    scores = scores - jnp.max(scores, axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / jnp.sum(e, axis=-1, keepdims=True)
