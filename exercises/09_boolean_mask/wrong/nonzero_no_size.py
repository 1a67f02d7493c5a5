# expect: runs
# Swaps the boolean index for jnp.nonzero, whose output length also depends on the data.
import jax
import jax.numpy as jnp


@jax.jit
def pick_good(x):
    (idx,) = jnp.nonzero(x > 0)
    good = x[idx]
    kept = jnp.zeros_like(x).at[: idx.shape[0]].set(good)
    return kept, idx.shape[0], jnp.mean(good)
