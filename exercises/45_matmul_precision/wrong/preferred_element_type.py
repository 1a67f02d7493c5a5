# expect: on_chip
# Asks for a float32 result: for float32 inputs the accumulation and the result are float32 already, and the
# products are still one bfloat16 pass on the TPU.
import jax.numpy as jnp


def project(x, w):
    return jnp.dot(x, w, preferred_element_type=jnp.float32)
