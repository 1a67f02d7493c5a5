import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def attention_weights(q, k):
    # A shape is a plain Python int while tracing: NumPy (or math) may compute with it.
    scale = 1.0 / np.sqrt(q.shape[-1])
    scores = (q @ k.T) * scale
    # Everything computed from q and k is traced: jax.numpy records it into the compiled program.
    scores = scores - jnp.max(scores, axis=-1, keepdims=True)
    e = jnp.exp(scores)
    return e / jnp.sum(e, axis=-1, keepdims=True)
