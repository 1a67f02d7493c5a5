# expect: values
# Subtracts the maximum of the whole score matrix instead of each row's: no overflow, but the graded query whose
# scores sit far below the largest gets exponentials that all underflow to 0, and 0 / 0 is NaN.
import jax
import jax.numpy as jnp


@jax.jit
def attention_weights(q, k):
    scores = q @ k.T / jnp.sqrt(8.0)
    e = jnp.exp(scores - scores.max())
    return e / e.sum(axis=-1, keepdims=True)
