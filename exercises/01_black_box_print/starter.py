import jax
import jax.numpy as jnp


@jax.jit
def normalize(x):
    mean = jnp.mean(x)
    # TODO: this print runs only while JAX traces normalize, so it shows a tracer, once.
    print("mean of this batch:", mean)
    return (x - mean) / jnp.std(x)


# Not graded: a scratch run (F6 in the app, `jittrainer run black_box_print` in a terminal)
# runs this block to show what your function does; grading imports the file without running it.
if __name__ == "__main__":
    import numpy as np

    x = jnp.arange(16.0)
    print(normalize(x))
    print(normalize(x * 10))
