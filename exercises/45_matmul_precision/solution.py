import jax.numpy as jnp


def project(x, w):
    # HIGHEST: float32 accuracy on the TPU's matrix unit (six bfloat16 passes). The request is written into the
    # program's dot_general when jit traces it, so it goes wherever the program goes.
    return jnp.matmul(x, w, precision="highest")
