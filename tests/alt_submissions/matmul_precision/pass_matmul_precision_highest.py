# expect: pass
# Asks jnp.matmul for the full float32 algorithm with the lax.Precision enum: Precision.HIGHEST.
import jax
import jax.numpy as jnp


def project(x, w):
    return jnp.matmul(x, w, precision=jax.lax.Precision.HIGHEST)
