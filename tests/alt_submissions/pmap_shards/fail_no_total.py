# expect: values
# Returns the per-device partial sums instead of their total.
import jax
import jax.numpy as jnp


def sum_of_squares(x):
    n = jax.local_device_count()
    rows = jnp.pad(x, (0, -x.shape[0] % n)).reshape(n, -1)
    return jax.pmap(lambda r: jnp.sum(r**2))(rows)
