# expect: pass
# Right: pads with a non-zero filler and passes a mask as a second pmapped argument.
import math
import numpy as np
import jax
import jax.numpy as jnp


def _masked(row, mask):
    return jnp.sum(jnp.where(mask, row, 0.0) ** 2)


_pm = jax.pmap(_masked)


def sum_of_squares(x):
    n = jax.local_device_count()
    width = math.ceil(len(x) / n)
    data = np.full(n * width, 123.0, np.float32)
    mask = np.zeros(n * width, bool)
    data[: len(x)] = x
    mask[: len(x)] = True
    return _pm(data.reshape(n, width), mask.reshape(n, width)).sum()
