# expect: pass
# Jits project itself and names the dot algorithm explicitly with lax.dot_general: the BF16_BF16_F32_X3 preset,
# float32 in and float32 out.
import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def project(x, w):
    return lax.dot_general(
        x,
        w,
        dimension_numbers=(((1,), (0,)), ((), ())),
        precision=lax.DotAlgorithmPreset.BF16_BF16_F32_X3,
        preferred_element_type=jnp.float32,
    )
