# expect: on_chip
# Asks for a float32 result with preferred_element_type, thinking the accumulator is the problem: the inputs
# still go through the matrix unit in one bfloat16 pass.
import jax.numpy as jnp


def project(x, w):
    return jnp.matmul(x, w, preferred_element_type=jnp.float32)
