# expect: uses_pmap
import jax
import numpy as np


def sum_of_squares(x):
    n = jax.local_device_count()
    x = np.asarray(x)
    rows = np.pad(x, (0, -x.size % n)).reshape(n, -1)
    shards = np.asarray(jax.pmap(lambda r: r)(rows))
    return float(np.sum(shards ** 2))
