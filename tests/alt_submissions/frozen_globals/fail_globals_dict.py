# expect: follows_scale
# Reads the global through globals(): still read once while tracing, and frozen.
import jax
import jax.numpy as jnp

SCALE = 2.0


@jax.jit
def scaled_relu(x, scale):
    return jnp.maximum(0, x) * globals()["SCALE"]
