import jax
import jax.numpy as jnp

EPS = 1e-5


def normalize_row(x):
    # One row: subtract its mean, divide by its standard deviation. Every row must come out as this computes it.
    mean = jnp.mean(x)
    var = jnp.mean((x - mean) ** 2)
    return (x - mean) / jnp.sqrt(var + EPS)


@jax.jit
def normalize_rows(xs):
    # TODO: under jit this loop runs while JAX traces, once per row: what does the recorded program hold?
    return jnp.stack([normalize_row(x) for x in xs])
