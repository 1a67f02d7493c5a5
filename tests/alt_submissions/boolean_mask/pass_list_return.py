# expect: pass
# Returns a list instead of a tuple, and a float count.
import jax
import jax.numpy as jnp


@jax.jit
def pick_good(x):
    good = x > 0
    (idx,) = jnp.nonzero(good, size=16, fill_value=16)
    kept = jnp.concatenate([x, jnp.zeros(1, x.dtype)])[idx]
    count = good.astype(jnp.float32).sum()
    mean = kept.sum() / jnp.maximum(count, 1.0)
    return [kept, count, mean]
