# expect: values
# Batched by hand, but without EPS: a constant row is 0 / 0 = NaN.
import jax
import jax.numpy as jnp


@jax.jit
def normalize_rows(xs):
    mean = xs.mean(axis=1, keepdims=True)
    return (xs - mean) / xs.std(axis=1, keepdims=True)
