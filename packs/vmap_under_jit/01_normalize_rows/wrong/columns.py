# expect: values
# in_axes=1 hands normalize_row the columns, and out_axes=1 puts them back: the shape is right,
# but each column was normalized instead of each row.
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
    return jax.vmap(normalize_row, in_axes=1, out_axes=1)(xs)
