import jax
import jax.numpy as jnp


@jax.jit
def sum_first_n(x, n):
    # TODO: x[:n] has a length that depends on the value of n, and under jit n has no value yet.
    return jnp.sum(x[:n])


# Not graded: a scratch run (F6 in the app, `jittrainer run static_shapes` in a terminal)
# runs this block to show what your function does; grading imports the file without running it.
if __name__ == "__main__":
    import numpy as np

    x = jnp.arange(16.0)
    print(sum_first_n(x, jnp.int32(3)))
    print(sum_first_n(x, jnp.int32(16)))
