import jax
import jax.numpy as jnp

SCALE = 2.0  # the grader changes this before every call; scaled_relu must not depend on it


@jax.jit
def scaled_relu(x, scale):
    # TODO: SCALE is read once, while JAX traces scaled_relu, and frozen into the compiled program;
    # the scale argument is ignored.
    return jnp.maximum(0, x) * SCALE
