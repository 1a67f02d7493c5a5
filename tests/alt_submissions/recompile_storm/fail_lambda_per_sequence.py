# A fresh jax.jit(lambda ...) for every sequence: a new function object is never found in the cache.
import jax
import jax.numpy as jnp


def batch_means(seqs):
    return jnp.stack([jax.jit(lambda s: jnp.sum(s) / s.shape[0])(s) for s in seqs])
