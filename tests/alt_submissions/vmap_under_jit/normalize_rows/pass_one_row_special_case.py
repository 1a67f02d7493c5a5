# expect: pass
# One row is normalized directly; every other batch goes through vmap.
import jax
import jax.numpy as jnp

EPS = 1e-5


def normalize_row(x):
    mean = jnp.mean(x)
    var = jnp.mean((x - mean) ** 2)
    return (x - mean) / jnp.sqrt(var + EPS)


@jax.jit
def normalize_rows(xs):
    if xs.shape[0] == 1:
        return normalize_row(xs[0])[None, :]
    return jax.vmap(normalize_row)(xs)
