# expect: all_devices
# Six devices written in: right on a 6-device machine, wrong (an error) on any other.
import jax
import jax.numpy as jnp


def sum_of_squares(x):
    rows = jnp.pad(x, (0, -len(x) % 6)).reshape(6, -1)
    return jax.pmap(lambda r: jnp.sum(r**2))(rows).sum()
