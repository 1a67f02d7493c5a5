# expect: runs
# The inner function is jitted with rows static, but reshape_rows is a plain wrapper: the grader jits it with no
# options, so rows is a tracer by the time it reaches the inner jit.
from functools import partial

import jax


@partial(jax.jit, static_argnums=1)
def _reshape(x, rows):
    return x.reshape((rows, -1))


def reshape_rows(x, rows):
    return _reshape(x, rows)
