# expect: pass
import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def sum_first_n(x, n):
    size = x.shape[0]
    padded = jnp.concatenate([jnp.zeros(size, x.dtype), x])
    # padded[n : n + size] is (size - n) zeros followed by x[:n]
    return jnp.sum(lax.dynamic_slice(padded, (n,), (size,)))
