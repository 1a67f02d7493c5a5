# expect: one_compile
# Makes delta static so the Python if works: right values, but every new temperature compiles a new program.
from functools import partial

import jax


@partial(jax.jit, static_argnums=0)
def heat(delta):
    if delta > 0:
        return 1.5 * delta + 2.0
    return 0.25 * delta
