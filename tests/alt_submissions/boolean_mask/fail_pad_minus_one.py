# expect: values
# Pads the indices with -1, which reads the last element.
import jax
import jax.numpy as jnp


@jax.jit
def pick_good(x):
    good = x > 0
    count = good.sum()
    (idx,) = jnp.nonzero(good, size=16, fill_value=-1)
    kept = x[idx]
    total = jnp.sum(jnp.where(good, x, 0.0))
    return kept, count, jnp.where(count > 0, total / jnp.maximum(count, 1), 0.0)
