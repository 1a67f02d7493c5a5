# expect: compile_budget
# The starter's bug in another spelling: jax.jit(jnp.mean) still compiles once per distinct length.
import jax
import jax.numpy as jnp

fast_mean = jax.jit(jnp.mean)


def batch_means(seqs):
    return [fast_mean(s) for s in seqs]
