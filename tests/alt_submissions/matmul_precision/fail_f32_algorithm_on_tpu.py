# expect: on_chip
# Asks for a dot algorithm with float32 products: the CPU runs it, but the TPU's matrix unit has no such algorithm,
# so the program the chip is handed does not run there.
import jax
import jax.numpy as jnp


def project(x, w):
    return jnp.dot(x, w, precision=jax.lax.DotAlgorithmPreset.F32_F32_F32)
