# expect: pass
# Compiled ahead of time for the graded shapes; mixes np.max on the tracer (it calls the tracer's own max) with jnp.exp.
import jax
import jax.numpy as jnp
import numpy as np


def _weights(q, k):
    scores = q @ k.T / np.sqrt(q.shape[-1])
    scores = scores - np.max(scores, axis=-1, keepdims=True)
    e = jnp.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)


attention_weights = jax.jit(_weights).lower(
    jax.ShapeDtypeStruct((4, 8), jnp.float32), jax.ShapeDtypeStruct((6, 8), jnp.float32)
).compile()
