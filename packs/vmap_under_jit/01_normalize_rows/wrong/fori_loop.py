# expect: no_loop
# A structured loop keeps the program small, but it still works through the rows one at a time.
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
    def body(i, out):
        return out.at[i].set(normalize_row(xs[i]))

    return jax.lax.fori_loop(0, xs.shape[0], body, jnp.zeros_like(xs))
