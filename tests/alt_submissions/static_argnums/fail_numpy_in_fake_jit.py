# expect: runs
# Wrong: a NumPy reshape in a function that only fakes .lower/.trace; the grader jits it, so x is a tracer.
import numpy as np
import jax
from functools import partial


@partial(jax.jit, static_argnums=1)
def _j(x, rows):
    return x.reshape((rows, -1))


def reshape_rows(x, rows):
    return np.asarray(x).reshape(rows, -1)


reshape_rows.lower = _j.lower
reshape_rows.trace = _j.trace
