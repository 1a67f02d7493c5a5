# expect: values
# Right kept values and mean, but count comes back with shape (1,), not as a scalar.
import jax
import jax.numpy as jnp


@jax.jit
def pick_good(x):
    good = x > 0
    count = jnp.sum(good, keepdims=True)
    (idx,) = jnp.nonzero(good, size=x.shape[0], fill_value=x.shape[0])
    kept = jnp.append(x, 0.0)[idx]
    mean = jnp.where(count[0] > 0, jnp.sum(jnp.where(good, x, 0.0)) / jnp.maximum(count[0], 1), 0.0)
    return kept, count, mean
