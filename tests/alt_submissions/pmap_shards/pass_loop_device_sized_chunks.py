# Right: loops over device-sized chunks, one pmapped call per chunk, each mapping exactly the device count.
import numpy as np
import jax
import jax.numpy as jnp


def sum_of_squares(x):
    n = jax.local_device_count()
    sq = jax.pmap(lambda v: v * v)
    x = np.asarray(x, np.float32)
    total = jnp.float32(0)
    for start in range(0, len(x), n):
        chunk = x[start:start + n]
        chunk = np.concatenate([chunk, np.zeros(n - len(chunk), np.float32)])
        total = total + jnp.sum(sq(chunk))
    return total
