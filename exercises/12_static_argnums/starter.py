import jax


# TODO: under this plain @jax.jit, rows is traced like x, but reshape needs a concrete number of rows.
@jax.jit
def reshape_rows(x, rows):
    return x.reshape((rows, -1))


# Not graded: a scratch run (F6 in the app, `jittrainer run static_argnums` in a terminal)
# runs this block to show what your function does; grading imports the file without running it.
if __name__ == "__main__":
    import jax.numpy as jnp
    import numpy as np

    x = jnp.arange(12.0)
    print(reshape_rows(x, 3).shape)
    print(reshape_rows(x, 4).shape)
