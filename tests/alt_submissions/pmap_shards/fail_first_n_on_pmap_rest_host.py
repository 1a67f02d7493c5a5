# Wrong: only the first n values go through pmap, the rest are summed on the host; uses_pmap names the values
# that never reached pmap.
import numpy as np
import jax
import jax.numpy as jnp


def sum_of_squares(x):
    n = jax.local_device_count()
    x = np.asarray(x)
    head = np.pad(x[:n], (0, max(0, n - len(x))))
    rest = x[n:]
    return jnp.sum(jax.pmap(lambda v: v * v)(head)) + np.sum(rest**2)
