# expect: uses_pmap
# Uses jax.vmap: the same per-chunk function over the batch, but all on one device. Nothing runs in parallel
# across devices.
import jax
import jax.numpy as jnp


def chunk_sum(chunk):
    return jnp.sum(chunk**2)


def sum_of_squares(x):
    return jnp.sum(jax.vmap(chunk_sum)(x))
