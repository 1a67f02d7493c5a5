# NumPy padding and a module-level pmapped per-device sum.
import jax
import jax.numpy as jnp
import numpy as np

per_device = jax.pmap(lambda c: jnp.sum(c * c))


def sum_of_squares(x):
    n = jax.local_device_count()
    x = np.asarray(x)
    rows = np.pad(x, (0, (n - len(x) % n) % n)).reshape(n, -1)
    return per_device(rows).sum()
