# expect: all_devices
# Pads correctly but reshapes to (-1, devices): axis 0 then has ceil(B/n) entries instead of one per device.
import jax
import jax.numpy as jnp


def sum_of_squares(x):
    n = jax.local_device_count()
    rows = jnp.pad(x, (0, -x.shape[0] % n)).reshape(-1, n)
    return jnp.sum(jax.pmap(lambda r: jnp.sum(r**2))(rows))
