# expect: pass
# Each good value goes to slot (number of good values before it); the others are dropped off the end.
import jax
import jax.numpy as jnp


@jax.jit
def pick_good(x):
    good = x > 0
    slot = jnp.cumsum(good) - 1
    target = jnp.where(good, slot, x.shape[0])
    kept = jnp.zeros_like(x).at[target].set(x, mode="drop")
    count = good.sum()
    total = jnp.where(good, x, 0).sum()
    return kept, count, jnp.where(count > 0, total / jnp.maximum(count, 1), 0.0)
