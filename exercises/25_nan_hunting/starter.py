import jax
import jax.numpy as jnp


@jax.jit
def entropy(logits):
    # TODO: some rows come out NaN. Find the operation that makes the first NaN
    # (jax.debug_nans, or checkify), fix it, and look again: there may be more than one.
    p = jnp.exp(logits) / jnp.sum(jnp.exp(logits), axis=-1, keepdims=True)
    return -jnp.sum(p * jnp.log(p), axis=-1)
