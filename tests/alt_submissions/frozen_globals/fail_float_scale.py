# expect: runs
# float() on a traced argument: ConcretizationTypeError.
import jax
import jax.numpy as jnp

SCALE = 2.0


@jax.jit
def scaled_relu(x, scale):
    return jnp.maximum(0, x) * float(scale)
