# expect: pass
# Keeps p, but never takes log(0): zero probabilities get a safe stand-in before the log.
import jax
import jax.numpy as jnp


@jax.jit
def entropy(logits):
    p = jax.nn.softmax(logits, axis=-1)
    positive = p > 0
    safe = jnp.where(positive, p, 1.0)
    return -jnp.sum(jnp.where(positive, p * jnp.log(safe), 0.0), axis=-1)
