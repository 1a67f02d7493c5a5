# expect: no_loop
# lax.map traces normalize_row once, but runs it row after row in a scan: one row at a time,
# not the batch at once.
import jax
import jax.numpy as jnp

EPS = 1e-5


def normalize_row(x):
    # One row: subtract its mean, divide by its standard deviation. Keep this function as it is.
    mean = jnp.mean(x)
    var = jnp.mean((x - mean) ** 2)
    return (x - mean) / jnp.sqrt(var + EPS)


@jax.jit
def normalize_rows(xs):
    return jax.lax.map(normalize_row, xs)
