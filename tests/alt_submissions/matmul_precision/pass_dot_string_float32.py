# expect: pass
# Spells the precision as a string, the dtype-style alias "float32" (the same as "highest"), on jnp.dot.
import jax.numpy as jnp


def project(x, w):
    return jnp.dot(x, w, precision="float32")
