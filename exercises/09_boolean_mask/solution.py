import jax
import jax.numpy as jnp


@jax.jit
def pick_good(x):
    good = x > 0
    count = jnp.sum(good)
    # A fixed number of indices: the good positions first, then padding (an index past the end).
    (idx,) = jnp.nonzero(good, size=x.shape[0], fill_value=x.shape[0])
    kept = jnp.append(x, 0.0)[idx]  # the padding index reads the appended 0.0
    total = jnp.sum(jnp.where(good, x, 0.0))  # a masked reduction
    mean = jnp.where(count > 0, total / jnp.maximum(count, 1), 0.0)
    return kept, count, mean
