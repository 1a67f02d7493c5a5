# expect: pass
# exp(scores - logsumexp(scores)): jax.scipy's logsumexp is stable; einsum for the scores.
import jax
import jax.numpy as jnp
from jax.scipy.special import logsumexp


@jax.jit
def attention_weights(q, k):
    scores = jnp.einsum("qd,kd->qk", q, k) * (q.shape[-1] ** -0.5)
    return jnp.exp(scores - logsumexp(scores, axis=-1, keepdims=True))
