# expect: values
# A fixed size, but the padding indices default to 0, so the empty slots repeat x[0].
import jax
import jax.numpy as jnp


@jax.jit
def pick_good(x):
    good = x > 0
    count = jnp.sum(good)
    (idx,) = jnp.nonzero(good, size=x.shape[0])
    total = jnp.sum(jnp.where(good, x, 0.0))
    return x[idx], count, jnp.where(count > 0, total / jnp.maximum(count, 1), 0.0)
