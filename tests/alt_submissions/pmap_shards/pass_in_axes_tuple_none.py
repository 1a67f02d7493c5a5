# expect: pass
# A second, broadcast argument: in_axes=(0, None) maps only the rows.
import jax
import jax.numpy as jnp

weighted = jax.pmap(lambda rows, w: w * jnp.sum(rows**2), in_axes=(0, None))


def sum_of_squares(x):
    n = jax.local_device_count()
    rows = jnp.pad(x, (0, -x.shape[0] % n)).reshape(n, -1)
    return jnp.sum(weighted(rows, 1.0))
