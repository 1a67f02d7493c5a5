# expect: pass
# Writes the product as an einsum with precision "bfloat16_3x" (= Precision.HIGH): three bfloat16 passes, about
# 1e-5 of the largest value, inside the 1e-4 the statement asks for.
import jax.numpy as jnp


def project(x, w):
    return jnp.einsum("ij,jk->ik", x, w, precision="bfloat16_3x")
