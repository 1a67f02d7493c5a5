# expect: runs
# Computes the entropy with NumPy in float64 and hands it back: but the grader jits entropy, so
# logits is a tracer and NumPy cannot read it.
import jax.numpy as jnp
import numpy as np


def entropy(logits):
    z = np.asarray(logits, dtype=np.float64)
    z = z - z.max(axis=-1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))
    return jnp.asarray(-(np.exp(logp) * logp).sum(axis=-1), dtype=jnp.float32)
