# Reshapes to one row per device, but without padding: B = 3, 9 or 13 cannot be split into 4 equal rows.
import jax
import jax.numpy as jnp


def chunk_sum(chunk):
    return jnp.sum(chunk**2)


def sum_of_squares(x):
    n = jax.local_device_count()
    return jnp.sum(jax.pmap(chunk_sum)(x.reshape(n, -1)))
