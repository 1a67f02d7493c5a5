# expect: uses_pmap
# Maps a dummy arange(n) axis and broadcasts x (in_axes None): every device recomputes the whole sum.
import jax
import jax.numpy as jnp


def sum_of_squares(x):
    n = jax.local_device_count()
    totals = jax.pmap(lambda i, v: jnp.sum(v**2), in_axes=(0, None))(jnp.arange(n), x)
    return totals[0]
