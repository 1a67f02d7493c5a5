# expect: runs
# Pads every batch to the largest size the statement once listed (13), rounded up to a multiple of the device
# count, so that one program serves every call: a longer batch makes the padding negative.
import jax
import jax.numpy as jnp

MAX_B = 13


def sum_of_squares(x):
    n = jax.local_device_count()
    width = -(-MAX_B // n)
    rows = jnp.pad(x, (0, n * width - x.shape[0])).reshape(n, width)
    return jnp.sum(jax.pmap(lambda r: jnp.sum(r**2))(rows))
