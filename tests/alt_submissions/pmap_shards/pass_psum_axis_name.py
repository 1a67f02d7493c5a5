# psum across the devices inside pmap; every device holds the total, take the first.
import jax
import jax.numpy as jnp


def sum_of_squares(x):
    n = jax.local_device_count()
    pad = -x.shape[0] % n
    rows = jnp.concatenate([x, jnp.zeros(pad, x.dtype)]).reshape(n, -1)
    out = jax.pmap(lambda r: jax.lax.psum(jnp.sum(r**2), "i"), axis_name="i")(rows)
    return out[0]
