import jax
import jax.numpy as jnp

SCALE = 2.0  # the grader changes this before every call; scaled_relu does not read it (deleting it is fine too)


@jax.jit
def scaled_relu(x, scale):
    # scale is an argument, so it is traced: a new value reuses the compiled program instead of being baked in.
    return jnp.maximum(0, x) * scale
