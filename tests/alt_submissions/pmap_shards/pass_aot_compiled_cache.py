# expect: pass
# Ahead-of-time: one pmap compiled with .lower(rows).compile() per row width, kept in a dict and called as it is.
import jax
import jax.numpy as jnp
import numpy as np

_per_device = jax.pmap(lambda row: jnp.sum(row * row))
_compiled = {}


def sum_of_squares(x):
    n = jax.local_device_count()
    rows = np.pad(np.asarray(x), (0, -len(x) % n)).reshape(n, -1)
    width = rows.shape[1]
    if width not in _compiled:
        _compiled[width] = _per_device.lower(rows).compile()
    return float(np.sum(_compiled[width](rows)))
