# expect: values
# Averages over all 16 slots, padding included.
import jax
import jax.numpy as jnp


@jax.jit
def pick_good(x):
    good = x > 0
    (idx,) = jnp.nonzero(good, size=16, fill_value=16)
    kept = jnp.append(x, 0.0)[idx]
    return kept, good.sum(), jnp.mean(kept)
