# pmap created inside the function on every call, wrapping a jitted helper.
import jax
import jax.numpy as jnp


@jax.jit
def sq_sum(v):
    return (v**2).sum()


def sum_of_squares(x):
    n = jax.device_count()
    b = x.shape[0]
    per = -(-b // n)
    rows = jnp.pad(x, (0, per * n - b)).reshape((n, per))
    return float(jax.pmap(sq_sum)(rows).sum())
