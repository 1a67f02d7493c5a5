import jax
import jax.numpy as jnp

SCALE = 2.0  # the grader changes this before every call; scaled_relu must not depend on it


@jax.jit
def scaled_relu(x, scale):
    # TODO: SCALE is read once, while JAX traces scaled_relu, and frozen into the compiled program;
    # the scale argument is ignored.
    return jnp.maximum(0, x) * SCALE


# Not graded: a scratch run (F6 in the app, `jittrainer run frozen_globals` in a terminal)
# runs this block to show what your function does; grading imports the file without running it.
if __name__ == "__main__":
    import numpy as np

    x = jnp.linspace(-2.0, 2.0, 32)
    print(scaled_relu(x, 2.0)[-1])
    SCALE = 3.0
    print(scaled_relu(x, 3.0)[-1])
