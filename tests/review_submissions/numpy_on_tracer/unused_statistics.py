# expect: pass
# review: review.left.dead
# Right, with leftovers: statistics computed while debugging are still in the function, and nothing uses them.
import jax
import jax.numpy as jnp


@jax.jit
def attention_weights(q, k):
    scores = q @ k.T / jnp.sqrt(jnp.float32(q.shape[-1]))
    spread = jnp.std(scores, axis=-1)  # noqa: F841 - left from debugging
    largest = jnp.max(jnp.abs(q))  # noqa: F841
    norms = jnp.linalg.norm(k, axis=-1)  # noqa: F841
    scores = scores - jnp.max(scores, axis=-1, keepdims=True)
    e = jnp.exp(scores)
    return e / jnp.sum(e, axis=-1, keepdims=True)
