# expect: all_devices
# Reshapes x to (B, 1): still one row per entry of x, so axis 0 has B entries, not one per device.
import jax
import jax.numpy as jnp


def chunk_sum(chunk):
    return jnp.sum(chunk**2)


def sum_of_squares(x):
    return jnp.sum(jax.pmap(chunk_sum)(x.reshape(-1, 1)))
