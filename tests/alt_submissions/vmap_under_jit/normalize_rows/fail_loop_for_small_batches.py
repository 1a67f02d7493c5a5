# expect: batched
# vmap for 8 rows or more, a Python loop below: the first (largest) batch looks batched, the smaller ones do not.
import jax
import jax.numpy as jnp

EPS = 1e-5


def normalize_row(x):
    mean = jnp.mean(x)
    var = jnp.mean((x - mean) ** 2)
    return (x - mean) / jnp.sqrt(var + EPS)


@jax.jit
def normalize_rows(xs):
    if xs.shape[0] >= 8:
        return jax.vmap(normalize_row)(xs)
    return jnp.stack([normalize_row(x) for x in xs])
