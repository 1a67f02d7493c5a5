# Wrong: static_argnums=0 marks the array x static; the message explains arrays cannot be static (array dump collapsed).
from functools import partial
import jax


@partial(jax.jit, static_argnums=0)
def reshape_rows(x, rows):
    return x.reshape((rows, -1))
