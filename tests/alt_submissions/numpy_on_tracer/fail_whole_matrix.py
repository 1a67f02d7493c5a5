# expect: values
# jnp everywhere, but the max and the sum are taken over all 24 scores at once.
import jax
import jax.numpy as jnp


@jax.jit
def attention_weights(q, k):
    scores = (q @ k.T) / jnp.sqrt(8.0)
    e = jnp.exp(scores - scores.max())
    return e / e.sum()
