# expect: pass
# from jax import pmap, explicit in_axes=0, squares on the devices and the sum outside.
import jax.numpy as jnp
from jax import local_device_count, pmap


def sum_of_squares(x):
    n = local_device_count()
    padded = jnp.pad(x, (0, -len(x) % n))
    squares = pmap(jnp.square, in_axes=0)(padded.reshape(n, -1))
    return jnp.sum(squares)
