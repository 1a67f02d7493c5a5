# expect: values
# Wrong: psum already totals across devices, then the per-device totals are summed again (devices x too much);
# the message says so.
import functools
import numpy as np
import jax
import jax.numpy as jnp


@functools.partial(jax.pmap, axis_name="i")
def chunk_sum(row):
    return jax.lax.psum(jnp.sum(row**2), "i")


def sum_of_squares(x):
    n = jax.local_device_count()
    padded = np.pad(np.asarray(x), (0, (-len(x)) % n))
    return jnp.sum(chunk_sum(padded.reshape(n, -1)))
