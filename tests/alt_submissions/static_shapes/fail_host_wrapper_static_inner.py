# expect: runs
# Wrong: a plain wrapper calls int(n) before a static inner jit; the grader jits the wrapper, so n is a tracer.
# The advice says the grader wrapped all of sum_first_n.
from functools import partial
import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=1)
def _impl(x, n):
    return jnp.sum(x[:n])


def sum_first_n(x, n):
    return _impl(x, int(n))
