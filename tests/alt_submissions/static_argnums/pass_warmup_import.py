# expect: pass
# Right: warm-up calls at import; the grader clears caches first, so the graded calls still compile once per value.
from functools import partial
import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=1)
def reshape_rows(x, rows):
    return x.reshape((rows, -1))


for _r in (1, 2, 3, 4, 6, 12):  # warm the cache so the graded calls never compile
    reshape_rows(jnp.zeros(12, jnp.float32), _r)
