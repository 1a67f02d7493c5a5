# Pads only when B exceeds the device count: B = 3 still maps 3 entries over 4 devices.
import jax
import jax.numpy as jnp

f = jax.pmap(lambda r: jnp.sum(r**2))


def sum_of_squares(x):
    n = jax.local_device_count()
    if x.shape[0] <= n:
        return jnp.sum(f(x))
    rows = jnp.pad(x, (0, -x.shape[0] % n)).reshape(n, -1)
    return jnp.sum(f(rows))
