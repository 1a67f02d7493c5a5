# expect: values
# Vectorized by hand, but the mean and variance are taken over the whole batch, not per row.
import jax
import jax.numpy as jnp
import numpy as np

EPS = 1e-5


def normalize_row(x):
    # One row: subtract its mean, divide by its standard deviation. Keep this function as it is.
    mean = jnp.mean(x)
    var = jnp.mean((x - mean) ** 2)
    return (x - mean) / jnp.sqrt(var + EPS)


@jax.jit
def normalize_rows(xs):
    mean = jnp.mean(xs)
    var = jnp.mean((xs - mean) ** 2)
    return (xs - mean) / jnp.sqrt(var + EPS)
