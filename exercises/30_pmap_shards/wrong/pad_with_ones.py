# expect: values
# Pads to a multiple of the device count, but with ones: every padding entry adds 1 to the sum of squares.
import jax
import jax.numpy as jnp


def chunk_sum(chunk):
    return jnp.sum(chunk**2)


def sum_of_squares(x):
    n = jax.local_device_count()
    padded = jnp.pad(x, (0, -x.shape[0] % n), constant_values=1.0)
    return jnp.sum(jax.pmap(chunk_sum)(padded.reshape(n, -1)))
