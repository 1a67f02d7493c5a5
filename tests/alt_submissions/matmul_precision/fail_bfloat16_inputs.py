# expect: values
# Makes the CPU "match the TPU" by casting the inputs to bfloat16 and the result back: now both are wrong.
import jax.numpy as jnp


def project(x, w):
    return (x.astype(jnp.bfloat16) @ w.astype(jnp.bfloat16)).astype(jnp.float32)
