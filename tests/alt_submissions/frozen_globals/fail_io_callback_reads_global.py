# expect: follows_scale
# Wrong: an ordered io_callback returns the current SCALE at run time and the result is used; the numbers are right
# only because the grader sets SCALE to the scale argument, so follows_scale must name the callback.
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import io_callback

SCALE = 2.0


def current():
    return np.float32(globals()["SCALE"])


@jax.jit
def scaled_relu(x, scale):
    s = io_callback(current, jax.ShapeDtypeStruct((), jnp.float32), ordered=True)
    return jnp.maximum(0, x) * s
