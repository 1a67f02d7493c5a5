# expect: pass
# A stable sort on "not good" brings the good positions to the front in order; the tail is masked to 0.
# Not jitted here: the grader wraps it.
import jax.numpy as jnp


def pick_good(x):
    good = x > 0
    count = good.sum()
    order = jnp.argsort(~good, stable=True)
    slots = jnp.arange(x.shape[0])
    kept = jnp.where(slots < count, x[order], 0.0)
    mean = jnp.sum(kept) / jnp.maximum(count, 1)
    return kept, count, mean
