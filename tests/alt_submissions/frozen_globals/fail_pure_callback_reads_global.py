# Wrong: fetches SCALE at run time with jax.pure_callback; the numbers are right only because the grader sets
# SCALE equal to scale. follows_scale must detect the callback whose result feeds the computation.
import numpy as np
import jax
import jax.numpy as jnp

SCALE = 2.0


def _current_scale():
    return np.float32(SCALE)


@jax.jit
def scaled_relu(x, scale):
    s = jax.pure_callback(_current_scale, jax.ShapeDtypeStruct((), jnp.float32))
    return jnp.maximum(0, x) * s
