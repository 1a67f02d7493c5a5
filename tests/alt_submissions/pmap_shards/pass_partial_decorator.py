# expect: pass
# functools.partial(jax.pmap, axis_name=...) as a decorator at module level.
import functools
import math

import jax
import jax.numpy as jnp


@functools.partial(jax.pmap, axis_name="dev")
def total(rows):
    return jax.lax.psum(jnp.vdot(rows, rows), axis_name="dev")


def sum_of_squares(x):
    n = jax.local_device_count()
    width = math.ceil(x.shape[0] / n)
    rows = jnp.zeros(n * width, jnp.float32).at[: x.shape[0]].set(x).reshape(n, width)
    return total(rows)[0]
