# expect: runs
# Wrong: a plain @jax.jit stacked on the static one traces rows first; reshape_rows IS jitted, so the advice must
# blame the outer jit, not say the grader wrapped it.
from functools import partial
import jax


@jax.jit
@partial(jax.jit, static_argnums=1)
def reshape_rows(x, rows):
    return x.reshape((rows, -1))
