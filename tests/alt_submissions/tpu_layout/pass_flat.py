# expect: pass
# Stores the keys as one flat vector of 1,572,864 values, in row-major order.
import jax
import jax.numpy as jnp


@jax.jit
def keys(x, w):
    return jnp.ravel(jnp.matmul(x, w))
