# expect: values
# A mean kept as a one-element array (shape (1,)) by reducing with keepdims.
import jax
import jax.numpy as jnp


@jax.jit
def pick_good(x):
    good = x > 0
    count = jnp.sum(good)
    (idx,) = jnp.nonzero(good, size=16, fill_value=16)
    kept = jnp.append(x, 0.0)[idx]
    total = jnp.sum(jnp.where(good, x, 0.0), keepdims=True)
    return kept, count, jnp.where(count > 0, total / jnp.maximum(count, 1), 0.0)
